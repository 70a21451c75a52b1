//! The five-in-a-row search's speed, printed as a table: a benchmark,
//! not a test. `cargo bench --bench five_search -- [REPEATS]`.
//!
//! At board sides 15, 20 and 26, on a middle game (the greedy player
//! against itself from stones at the centre):
//!
//! - the main search's nodes a second at a fixed depth (threat searches
//!   off, no clock);
//! - the time to solve the engine tests' VCF and VCT positions (drawn in
//!   the board's corner, the rest empty);
//! - one stone's incremental valuation update (place, update, remove,
//!   update: two updates) against a full `Valuation::new`, on that
//!   board (8 stones) and on 40 stones scattered over the centre.
//!
//! Then, on 15x15 positions from games katachi lost to the seed's player
//! as White, the whole choice at depth 1 with no clock: both sides' VCF
//! (16 fours) and VCT (4 threats) and the safety check of the
//! candidates, the part of a move the threat searches cost; and the same
//! choice with the threats read by proof numbers (no depth: each proof
//! search stops at its own node limit), as the Gomocup brain reads them.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use katachi::board::Board;
use katachi::five::database::FiveDatabase;
use katachi::five::engine::{Engine, Limits, Reason};
use katachi::five::players::greedy;
use katachi::five::rules::{FiveBoard, Rule};
use katachi::five::valuation::{board_of, Valuation};
use katachi::{Color, Point, Position};

/// The engine tests' VCF position (three moves to a double four).
const VCF: &str = "
O.............O
...............
...............
...............
...............
...............
.......O.......
...OXXX........
......OX.......
.......XO......
........XXXO...
...............
...............
...............
O.............O";

/// A double three: a VCT of one move, no VCF.
const VCT: &str = "
O.............O
...............
...............
...............
...............
.......X.......
.......X.......
.....XX........
...............
...............
...............
...............
...............
...............
O.............O";

/// A position from a game: its name, its moves ((row, column) from 0,
/// Black first) and what the choice finds there (`vct` or `search`).
type Recorded = (&'static str, &'static [(i32, i32)], &'static str);

/// Positions from the seed's player's wins against katachi (freestyle,
/// 15x15).
#[rustfmt::skip]
const RECORDED: [Recorded; 3] = [
    (
        "a VCT of 15 moves",
        &[
            (9, 5), (6, 9), (8, 4), (5, 8), (7, 3), (10, 6), (7, 4), (4, 7), (6, 2), (5, 1),
            (3, 6), (7, 10), (8, 11), (7, 6), (6, 4), (9, 4), (8, 2), (8, 5), (6, 7), (5, 5),
            (10, 3), (5, 6), (5, 9), (5, 4), (5, 7),
        ],
        "vct",
    ),
    (
        "a VCT of 13 moves",
        &[
            (9, 6), (5, 7), (8, 5), (6, 7), (7, 4), (6, 3), (7, 5), (7, 7), (10, 7), (11, 8),
            (4, 7), (6, 5), (9, 5), (6, 6), (6, 4),
        ],
        "vct",
    ),
    (
        "the opponent's VCT stopped",
        &[
            (5, 9), (7, 5), (4, 8), (6, 4), (3, 7), (2, 6), (3, 8), (5, 3), (6, 10), (7, 11),
            (4, 2),
        ],
        "search",
    ),
];

fn middle_game(size: usize, moves: usize) -> FiveBoard {
    let mut b = FiveBoard::new(size, Rule::Freestyle).unwrap();
    let c = size as i32 / 2;
    for (di, dj) in [(0, 0), (0, 1), (1, -1), (-1, 2), (2, 0)] {
        b.play(Point::new(c + di, c + dj)).unwrap();
    }
    while b.moves().len() < moves {
        let Some(p) = greedy(&b) else { break };
        if b.play(p).unwrap().is_some() {
            b.undo();
            break;
        }
    }
    b
}

fn drawn(size: usize, text: &str) -> FiveBoard {
    let mut b = FiveBoard::new(size, Rule::Freestyle).unwrap();
    for (i, row) in text.lines().filter(|l| !l.is_empty()).enumerate() {
        for (j, c) in row.chars().enumerate() {
            let p = Point::new(i as i32, j as i32);
            match c {
                'X' => b.put(p, Color::Black).unwrap(),
                'O' => b.put(p, Color::White).unwrap(),
                _ => {}
            }
        }
    }
    b
}

fn limits<'a>(
    elapsed: &'a dyn Fn() -> Duration,
    stop: &'a AtomicBool,
    depth: u32,
    vcf: u32,
    vct: u32,
) -> Limits<'a> {
    proof_limits(elapsed, stop, depth, vcf, vct, false)
}

/// [`limits`], the threats searched by proof numbers (`proof`) or depth
/// first.
fn proof_limits<'a>(
    elapsed: &'a dyn Fn() -> Duration,
    stop: &'a AtomicBool,
    depth: u32,
    vcf: u32,
    vct: u32,
    proof: bool,
) -> Limits<'a> {
    Limits {
        elapsed,
        budget: None,
        stop,
        max_depth: depth,
        vcf_depth: vcf,
        vct_depth: vct,
        table_bytes: 16 << 20,
        proof_search: proof,
        max_nodes: None,
    }
}

/// `stones` stones of alternate colours scattered (a fixed sequence)
/// over the board's central 11x11: a crowded board for the valuation.
fn scattered(size: usize, stones: usize) -> Board {
    let mut b = Board::new(size);
    let (mut x, c) = (0x2545_F491_4F6C_DD1Du64, size as i32 / 2);
    let mut placed = 0;
    while placed < stones {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let p = Point::new(c + (x % 11) as i32 - 5, c + (x / 11 % 11) as i32 - 5);
        if b.stone(p).is_none() {
            let colour = if placed % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.place(p, colour);
            placed += 1;
        }
    }
    b
}

/// One stone's incremental update (placed then removed on 32 empty
/// points the patterns propose: two updates) against a valuation from
/// scratch, on `board`: by the matcher's rescan, and by the line table's
/// look-ups (the engine's path). Update, new; then the table's update,
/// new.
fn valuation_costs(board: &Board, repeats: u32) -> [Duration; 4] {
    let db = FiveDatabase::builtin();
    let (matcher, overlay) = (db.matcher(), db.overlay());
    let table = db.lines().expect("the builtin database has a line table");
    let mut board = board.clone();
    let mut v = Valuation::new(matcher, overlay, &board);
    let mut w = Valuation::with_lines(table, &board);
    let empty: Vec<Point> = v
        .proposed()
        .filter(|&p| board.stone(p).is_none())
        .take(32)
        .collect();
    let update = mean(200 * repeats, || {
        for &p in &empty {
            board.place(p, Color::Black);
            v.update(matcher, overlay, &board, p);
            board.remove(p);
            v.update(matcher, overlay, &board, p);
        }
    }) / empty.len() as u32;
    let full = mean(20 * repeats, || {
        black_box(Valuation::new(matcher, overlay, &board));
    });
    let lines = mean(200 * repeats, || {
        for &p in &empty {
            board.place(p, Color::Black);
            w.update_lines(table, &board, p);
            board.remove(p);
            w.update_lines(table, &board, p);
        }
    }) / empty.len() as u32;
    let lines_full = mean(20 * repeats, || {
        black_box(Valuation::with_lines(table, &board));
    });
    [update, full, lines, lines_full]
}

/// The mean time of `f` over `repeats` runs.
fn mean(repeats: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..repeats {
        f();
    }
    start.elapsed() / repeats
}

fn main() {
    let repeats: u32 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let zero = || Duration::ZERO;
    let stop = AtomicBool::new(false);
    println!(
        "| side | depth | nodes | nodes/s | VCF solve | VCT solve | update, 8 stones | new, 8 stones | update, 40 stones | new, 40 stones |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    // Valuation cells: the line table's look-ups (the engine's path),
    // then the matcher's rescan in brackets.
    for size in [15, 20, 26] {
        let game = middle_game(size, 8);
        // The main search alone: no threat search, a fixed depth.
        let depth = 6;
        let mut nodes = 0;
        let search = mean(repeats, || {
            let mut e = Engine::new(game.clone());
            let found = e.choose(&limits(&zero, &stop, depth, 0, 0));
            assert!(
                matches!(found, Some((_, Reason::Search { depth: d, .. })) if d == depth),
                "{found:?}"
            );
            nodes = e.nodes();
        });
        let vcf = mean(repeats, || {
            let mut e = Engine::new(drawn(size, VCF));
            let found = e.choose(&limits(&zero, &stop, 1, 16, 0));
            assert!(matches!(found, Some((_, Reason::Vcf(_)))), "{found:?}");
        });
        let vct = mean(repeats, || {
            let mut e = Engine::new(drawn(size, VCT));
            let found = e.choose(&limits(&zero, &stop, 1, 16, 4));
            assert!(matches!(found, Some((_, Reason::Vct(_)))), "{found:?}");
        });
        let c8 = valuation_costs(&board_of(&game), repeats);
        let c40 = valuation_costs(&scattered(size, 40), repeats);
        let us = |table: Duration, matcher: Duration| {
            format!(
                "{:.2} µs ({:.1} µs)",
                table.as_secs_f64() * 1e6,
                matcher.as_secs_f64() * 1e6
            )
        };
        println!(
            "| {size} | {depth} | {nodes} | {:.0} | {:.2} ms | {:.2} ms | {} | {} | {} | {} |",
            nodes as f64 / search.as_secs_f64(),
            vcf.as_secs_f64() * 1e3,
            vct.as_secs_f64() * 1e3,
            us(c8[2], c8[0]),
            us(c8[3], c8[1]),
            us(c40[2], c40[0]),
            us(c40[3], c40[1]),
        );
    }
    println!();
    println!("| recorded position | stones | threats | nodes | choice |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, moves, kind) in RECORDED {
        let mut game = FiveBoard::new(15, Rule::Freestyle).unwrap();
        for &(i, j) in moves {
            game.play(Point::new(i, j)).unwrap();
        }
        for (threats, proof) in [("depth first", false), ("proof numbers", true)] {
            let mut nodes = 0;
            let choice = mean(repeats, || {
                let mut e = Engine::new(game.clone());
                let found = e.choose(&proof_limits(&zero, &stop, 1, 16, 4, proof));
                let got = match found {
                    Some((_, Reason::Vct(_))) => "vct",
                    Some((_, Reason::Search { .. })) => "search",
                    other => panic!("{other:?}"),
                };
                assert_eq!(got, kind, "{name}, {threats}");
                nodes = e.nodes();
            });
            println!(
                "| {name} | {} | {threats} | {nodes} | {:.1} ms |",
                moves.len(),
                choice.as_secs_f64() * 1e3
            );
        }
    }
}
