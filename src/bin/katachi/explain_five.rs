//! `katachi explain` on a piskvork record: why the five-in-a-row engine
//! plays its move at a point of a game.

use std::sync::Arc;

use katachi::five::database::FiveDatabase;
use katachi::five::explain::{board_text, depth_table, explain_with, scores_by_depth};
use katachi::five::record::{read_psq_for, ReplayError};
use katachi::five::{IllegalMove, Rule};

use crate::emit;

/// Replays the record at `path` up to, not including, move `until` (all
/// of it without), then explains the move of the side to move.
pub(crate) fn run(
    path: &str,
    until: Option<u32>,
    top: usize,
    db_path: Option<&str>,
    rule: Rule,
    depth: u32,
    by_depth: bool,
) -> Result<(), String> {
    let bytes = katachi::input::read_file(std::path::Path::new(path))
        .map_err(|e| format!("katachi: {path}: {e}"))?;
    let record =
        read_psq_for(&String::from_utf8_lossy(&bytes), rule).map_err(|e| e.located(path))?;
    let total = record.moves.len();
    let replay = until.map_or(total, |n| (n as usize - 1).min(total));
    let game = record.replay(rule, replay).map_err(|e| match e {
        ReplayError::NotSquare { width, height } => format!(
            "katachi: {path}: a {width}x{height} board: five in a row here is played on square boards"
        ),
        ReplayError::Size(e) => format!("katachi: {path}: {e}"),
        ReplayError::Move {
            number,
            error: IllegalMove::GameOver,
            ..
        } => format!(
            "katachi: {path}: the game is over after move {}, before move {number} is replayed",
            number - 1
        ),
        ReplayError::Move {
            number,
            point,
            error,
        } => format!(
            "katachi: {path}: move {number} ({},{}) cannot be played under {rule:?}: {error}",
            point.j, point.i
        ),
    })?;
    let db = match db_path {
        None => FiveDatabase::for_rule(rule),
        Some(p) => Arc::new(FiveDatabase::load(p).map_err(|e| e.to_string())?),
    };
    let explanation = explain_with(&game, db.clone(), depth, top.saturating_sub(1));
    let scores = if by_depth {
        let points: Vec<_> = explanation.candidates.iter().map(|c| c.point).collect();
        let scores = scores_by_depth(&game, db, &points, depth);
        format!("\n{}", depth_table(&points, &scores))
    } else {
        String::new()
    };
    emit(&format!(
        "{path}: before move {} ({replay} of {total} moves replayed), {rule:?}\n{}\n{}{scores}",
        replay + 1,
        board_text(&game, Some(&explanation)),
        explanation.text()
    ))
}
