//! katachi's hexagonal contest player against the baselines, through the
//! real file protocol: `katachi hex player` processes and the judge in a
//! temporary folder, seeded two-stone openings, each played twice with
//! the order swapped. Prints katachi's score (draws count half) and its
//! time a move as the judge measured it (state written to move read),
//! mean and worst.
//!
//! `cargo bench --bench hex_games -- [GAMES] [BUDGET_MS] [OPPONENT…]`
//! (default 100 games, 1000 ms — the player's default —, both `line-records` and `greedy`).

use std::time::Duration;

use katachi::contest::judge::{random_opening, Judge, Started};
use katachi::contest::log::Ending;

const KATACHI: &str = env!("CARGO_BIN_EXE_katachi");

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let games: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let budget: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mut opponents: Vec<String> = args.iter().skip(2).cloned().collect();
    if opponents.is_empty() {
        opponents = vec!["line-records".into(), "greedy".into()];
    }
    println!("| opponent | games | katachi's score | wins | draws | losses | failures | mean ms | worst ms | katachi's moves |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for opponent in &opponents {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let players = [
            (
                "1".to_string(),
                format!("{KATACHI} hex player --team 1 --budget {budget}ms"),
            ),
            (
                "2".to_string(),
                format!("{KATACHI} hex player --team 2 --engine {opponent}"),
            ),
        ];
        let started = Started::start(dir.path(), &players).expect("players started");
        std::thread::sleep(Duration::from_millis(500));
        let judge = Judge::new(dir.path(), ["1".into(), "2".into()], Duration::from_secs(5));
        let (mut wins, mut draws, mut losses, mut failures) = (0, 0, 0, 0);
        let mut times: Vec<u64> = Vec::new();
        for g in 0..games {
            let pair = g / 2;
            let first = (g % 2) as usize;
            let opening = random_opening(2, 1000 + u64::from(pair));
            let log = judge.play(first, &opening).expect("a game");
            // katachi is team 1: side 0 when it starts.
            let me = first;
            times.extend(
                log.moves
                    .iter()
                    .filter(|m| m.side == me)
                    .filter_map(|m| m.millis),
            );
            match (&log.ending, log.winner()) {
                (Some(Ending::FullBoard), _) => draws += 1,
                (Some(Ending::Violation { loser, .. }), _) if *loser == me => {
                    failures += 1;
                    losses += 1;
                    eprintln!("game {g}: {log}");
                }
                (_, Some(w)) if w == me => wins += 1,
                _ => {
                    losses += 1;
                    eprintln!("game {g} lost:\n{log}");
                }
            }
        }
        drop(started);
        let mean = times.iter().sum::<u64>() as f64 / times.len().max(1) as f64;
        let worst = times.iter().max().copied().unwrap_or(0);
        let score = (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games) * 100.0;
        println!(
            "| {opponent} | {games} | {score:.1}% | {wins} | {draws} | {losses} | {failures} | {mean:.0} | {worst} | {} |",
            times.len()
        );
    }
}
