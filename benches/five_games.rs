//! Games of five in a row between katachi's engine and the baselines
//! (the seed's depth-3 player, the greedy player): a benchmark, not a
//! test. `cargo bench --bench five_games -- [GAMES] [MILLIS_PER_MOVE]`.
//!
//! Each opening is two random stones (seeded, one a side) near the
//! centre, played twice with colours swapped; 15x15 freestyle. Prints
//! katachi's wins, draws and losses against each opponent, its mean and
//! longest time a move, and the moves of each game it lost. The closing
//! figures: `cargo bench --bench five_games -- 100 100`. With
//! `--depth=N` the engine searches N plies with no clock: the same games
//! under any load, for comparing two versions of the engine.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use katachi::five::engine::{Engine, Limits, DEFAULT_TABLE_BYTES};
use katachi::five::players::{greedy, pishquorky};
use katachi::five::rules::{FiveBoard, Outcome, Rule};
use katachi::{Color, Point};

fn opening(seed: u64) -> [Point; 2] {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 5) as i32 - 2
    };
    let a = Point::new(7 + next(), 7 + next());
    let mut b = Point::new(7 + next(), 7 + next());
    if b == a {
        b = Point::new(a.i, a.j + 1);
    }
    [a, b]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let games: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(20);
    let millis: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    // `--depth=N`: no clock, every search N plies deep (VCT 4): the same
    // games on any machine, under any load, to compare two versions.
    let fixed: Option<u32> =
        std::env::args().find_map(|a| a.strip_prefix("--depth=").and_then(|d| d.parse().ok()));
    type Baseline = fn(&FiveBoard) -> Option<Point>;
    let opponents: [(&str, Baseline); 2] = [("seed (pishquorky)", pishquorky), ("greedy", greedy)];
    for (name, opponent) in opponents {
        let (mut won, mut drawn, mut lost) = (0, 0, 0);
        let (mut think, mut moves, mut longest) = (Duration::ZERO, 0u32, Duration::ZERO);
        let mut nodes = 0u64;
        for g in 0..games {
            let katachi_black = g % 2 == 0;
            let mut b = FiveBoard::new(15, Rule::Freestyle).unwrap();
            for p in opening(g / 2) {
                b.play(p).unwrap();
            }
            while b.outcome().is_none() {
                let katachi_to_move = (b.to_move() == Color::Black) == katachi_black;
                let p = if katachi_to_move {
                    let start = Instant::now();
                    let elapsed = || start.elapsed();
                    let stop = AtomicBool::new(false);
                    let mut e = Engine::new(b.clone());
                    let p = e
                        .choose(&Limits {
                            elapsed: &elapsed,
                            budget: fixed.is_none().then(|| Duration::from_millis(millis)),
                            stop: &stop,
                            max_depth: fixed.unwrap_or(12),
                            vcf_depth: 16,
                            // As the brain under a clock: the root's VCT
                            // deepens to 8 while its share lasts.
                            vct_depth: if fixed.is_some() { 4 } else { 8 },
                            table_bytes: DEFAULT_TABLE_BYTES,
                            // As the brain: threats by proof numbers
                            // under a clock (a fixed depth has none to
                            // bound them).
                            proof_search: fixed.is_none(),
                            max_nodes: None,
                        })
                        .map(|(p, _)| p);
                    nodes += e.nodes();
                    think += start.elapsed();
                    longest = longest.max(start.elapsed());
                    moves += 1;
                    p
                } else {
                    opponent(&b)
                };
                let Some(p) = p else { break };
                b.play(p).unwrap();
            }
            match b.outcome() {
                Some(Outcome::Win(c)) if (c == Color::Black) == katachi_black => won += 1,
                Some(Outcome::Win(_)) => {
                    lost += 1;
                    // The lost game, for a look: its moves as (row, column).
                    let moves: Vec<(i32, i32)> = b.moves().iter().map(|p| (p.i, p.j)).collect();
                    println!(
                        "  lost game {g} (katachi {}): {moves:?}",
                        if katachi_black { "Black" } else { "White" }
                    );
                }
                _ => drawn += 1,
            }
        }
        println!(
            "katachi vs {name}: {won} won, {drawn} drawn, {lost} lost of {games}; {:.1} ms a move, longest {:.1} ms ({moves} moves, {:.0} nodes a second)",
            think.as_secs_f64() * 1000.0 / f64::from(moves.max(1)),
            longest.as_secs_f64() * 1000.0,
            nodes as f64 / think.as_secs_f64().max(1e-9)
        );
    }
}
