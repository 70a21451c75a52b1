//! `katachi explain` and `katachi hits`: the seed's tuning workflow over
//! SGF games.

use katachi::go::evaluation::EvalOptions;
use katachi::go::explain;
use katachi::go::search::SearchOptions;
use katachi::tuning::HitCounter;

use crate::games::{sgf_files, Failures};
use crate::{emit, evaluator};

pub(crate) fn run_explain(
    path: &str,
    until: Option<u32>,
    all_patterns: bool,
    top: usize,
    db_path: Option<&str>,
    search: SearchOptions,
) -> Result<(), String> {
    let loaded = katachi::sgf::load_file(std::path::Path::new(path), until.map(|n| n as usize))
        .map_err(|e| format!("katachi: {e}"))?;
    let evaluator = evaluator(db_path)?;
    let game = loaded.game;
    let color = loaded.to_move;
    let eval = evaluator.evaluate(&game, color, EvalOptions { all_patterns });
    let ctx = explain::Context {
        tables: evaluator.tables(),
        db: evaluator.source(),
        color,
        top,
        all_patterns,
    };
    emit(&format!(
        "{path}: before move {} ({} of {} moves replayed)\n{}",
        loaded.moves + 1,
        loaded.moves,
        loaded.total_moves,
        explain::explain(&eval, game.goban(), &ctx)
    ))?;
    if search.playouts > 0 {
        if let Some(r) = katachi::go::search::search(&game, color, &eval, search) {
            emit(&explain::search_summary(&r, color, game.size(), top))?;
        }
    }
    Ok(())
}

pub(crate) fn run_hits(
    games: &[std::path::PathBuf],
    tsv: Option<&str>,
    all_patterns: bool,
    db_path: Option<&str>,
) -> Result<(), String> {
    let evaluator = evaluator(db_path)?;
    let mut counter = HitCounter::new(evaluator.tables());
    let mut failures = Failures::default();
    for f in sgf_files(games, &mut failures) {
        let added = katachi::sgf::read_file(&f).and_then(|text| {
            counter.add_game(&text, |g, c| {
                evaluator.evaluate(g, c, EvalOptions { all_patterns })
            })
        });
        match added {
            Ok(()) => failures.read += 1,
            Err(e) => failures.report(&f, &e),
        }
    }
    if let Some(path) = tsv {
        mkpat::output::write(std::path::Path::new(path), counter.to_tsv().as_bytes())
            .map_err(|e| format!("katachi: error: {e}"))?;
    }
    emit(&format!("{} game(s)\n{}", failures.read, counter.table()))?;
    failures.verdict()
}
