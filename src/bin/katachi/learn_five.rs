//! `katachi learn-moves --game five`: fits the five-in-a-row move
//! predictor (`katachi::five::predictor`) to the moves of `.psq` game
//! records, or measures a table on held-out records. Each position is a
//! competition among the points the engine proposes
//! ([`Engine::predictor_teams`]): the predictor only ever reorders
//! those, so a move outside them teaches it nothing and is counted
//! apart.

use std::path::Path;

use katachi::bradley_terry::{fit, Competitions};
use katachi::five::engine::Engine;
use katachi::five::predictor::{Features, Predictor, GROUP_COUNT, RANK_MAX};
use katachi::five::record::read_psq_for;
use katachi::five::{FiveBoard, Rule};
use katachi::position::Point;

use crate::learn::{fit_header, shuffled_files, write_table, LearnArgs};

/// One position's competitors and the index of the move played among
/// them.
struct Position {
    teams: Vec<Features>,
    winner: usize,
}

/// What reading a record gave.
#[derive(Default)]
struct Tally {
    positions: usize,
    outside: usize,
}

/// The positions of one record whose move a player chose (not the
/// first `opening` moves, a tournament's random opening), those that
/// `keep(i, n)` keeps by the move's index `i` among the record's `n`.
/// `Ok(None)` for a record of another size.
fn positions(
    path: &Path,
    rule: Rule,
    size: usize,
    opening: usize,
    keep: impl Fn(usize, usize) -> bool,
    tally: &mut Tally,
) -> Result<Option<Vec<Position>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let record = read_psq_for(&text, rule).map_err(|e| e.located(&path.display().to_string()))?;
    if record.width != size || record.height != size {
        return Ok(None);
    }
    let mut game = FiveBoard::new(size, rule).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    let n = record.moves.len();
    for (i, m) in record.moves.iter().enumerate() {
        if game.outcome().is_some() {
            break;
        }
        if i >= opening && keep(i, n) {
            let teams: Vec<(Point, Features)> = Engine::new(game.clone()).predictor_teams();
            match teams.iter().position(|&(p, _)| p == m.point) {
                Some(winner) => {
                    tally.positions += 1;
                    out.push(Position {
                        teams: teams.into_iter().map(|(_, f)| f).collect(),
                        winner,
                    });
                }
                None => tally.outside += 1,
            }
        }
        game.play(m.point)
            .map_err(|e| format!("{}: move {} at {:?}: {e}", path.display(), i + 1, m.point))?;
    }
    Ok(Some(out))
}

/// Over the held-out positions: how many the table ranks first, in the
/// first 3, 6 and 12 (a node's width), the same for the pattern values'
/// order alone, and the mean log-likelihood.
fn measure(predictor: &Predictor, held: &[Position]) -> ([usize; 4], [usize; 4], f64) {
    let (mut top, mut values) = ([0usize; 4], [0usize; 4]);
    let mut ll = 0.0;
    for p in held {
        let s: Vec<f64> = p
            .teams
            .iter()
            .map(|t| f64::from(predictor.strength(t)))
            .collect();
        let mine = s[p.winner];
        // Ties count against the move: its rank is how many others are
        // at least as strong.
        let rank = s
            .iter()
            .enumerate()
            .filter(|&(k, &x)| k != p.winner && x >= mine)
            .count();
        let by_value = p.teams[p.winner][6] as usize;
        for (k, limit) in [1usize, 3, 6, 12].into_iter().enumerate() {
            top[k] += usize::from(rank < limit);
            values[k] += usize::from(by_value < limit && by_value < RANK_MAX as usize);
        }
        ll += (mine / s.iter().sum::<f64>()).ln();
    }
    (top, values, ll / held.len().max(1) as f64)
}

fn print_measure(what: &str, n: usize, top: [usize; 4], ll: Option<f64>) {
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    print!(
        "{what}: {n} moves, the move first {:.1} %, in the first 3 {:.1} %, 6 {:.1} %, 12 {:.1} %",
        pct(top[0]),
        pct(top[1]),
        pct(top[2]),
        pct(top[3])
    );
    match ll {
        Some(ll) => println!("; mean log-likelihood {ll:.3}"),
        None => println!(),
    }
}

pub(crate) fn learn(args: &LearnArgs) -> Result<(), String> {
    let rule = Rule::from(args.rule);
    if !matches!(rule, Rule::Exact | Rule::Renju) {
        return Err(format!(
            "--rule {:?}: the five-in-a-row predictor is fitted under exact or renju",
            args.rule
        ));
    }
    let size = args.size.unwrap_or(15);
    let files = shuffled_files(args, "psq")?;
    let mut held = Vec::new();
    let mut data: Competitions<GROUP_COUNT> = Competitions::new();
    let (mut held_games, mut fitted, mut skipped, mut wrong) = (0usize, 0usize, 0usize, 0usize);
    let (mut held_tally, mut fit_tally) = (Tally::default(), Tally::default());
    let fitting = args.output.is_some();
    for path in &files {
        if held_games >= args.holdout && (!fitting || fitted >= args.games) {
            break;
        }
        let holding = held_games < args.holdout;
        let every = args.every as usize;
        let shift = fitted % every;
        // A labelled record teaches only its last move, held out or not;
        // a game is measured whole and fitted one position in `every`.
        let keep: Box<dyn Fn(usize, usize) -> bool> = if args.last_move_only {
            Box::new(|i, n| i + 1 == n)
        } else if holding {
            Box::new(|_, _| true)
        } else {
            Box::new(move |i, _| i % every == shift)
        };
        let tally = if holding {
            &mut held_tally
        } else {
            &mut fit_tally
        };
        match positions(path, rule, size, args.opening_moves, keep, tally) {
            Ok(Some(ps)) if holding => {
                held.extend(ps);
                held_games += 1;
            }
            Ok(Some(ps)) => {
                for p in ps {
                    data.push(&p.teams, p.winner);
                }
                fitted += 1;
            }
            Ok(None) => skipped += 1,
            Err(e) => {
                eprintln!("warning: {e} (game left out)");
                wrong += 1;
            }
        }
    }
    eprintln!(
        "{} records: {held_games} held out ({} positions), {fitted} fitted on ({} positions, {} points, {} features); {} moves outside the proposed points; {skipped} of another size, {wrong} unreadable",
        files.len(),
        held.len(),
        data.len(),
        data.teams(),
        data.feature_count(),
        held_tally.outside + fit_tally.outside,
    );
    let report_held = |predictor: &Predictor| {
        let (top, values, ll) = measure(predictor, &held);
        print_measure("held out", held.len(), top, Some(ll));
        print_measure("pattern values' order", held.len(), values, None);
        let (_, _, uniform) = measure(&Predictor::uniform(), &held);
        println!("uniform: mean log-likelihood {uniform:.3}");
    };
    let Some(output) = &args.output else {
        let table = match &args.table {
            Some(path) => Predictor::read_file(path)?,
            None => Predictor::builtin(rule)
                .ok_or_else(|| format!("no built-in table under {rule:?}"))?
                .clone(),
        };
        report_held(&table);
        return Ok(());
    };
    if data.is_empty() {
        return Err("no position to fit on".to_string());
    }
    let (tables, report) = fit(&data, args.rounds, 1e-4, args.threads);
    let predictor = Predictor::from_gammas(tables);
    let header = fit_header(
        &format!(
            "katachi's five-in-a-row move predictor ({rule:?}): strengths (gamma) of point\n\
             features, fitted by `katachi learn-moves --game five` (minorization-maximization)"
        ),
        "src/five/predictor.rs",
        args,
        data.len(),
        fitted,
        size,
        &report,
    );
    write_table(output, &predictor.to_text(&header))?;
    eprintln!("wrote {} ({} strengths)", output.display(), predictor.len());
    if !held.is_empty() {
        report_held(&predictor);
    }
    Ok(())
}
