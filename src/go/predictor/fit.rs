//! Fitting the Go predictor's strengths to the moves of game records:
//! each position is a competition among the mover's legal points, each
//! point a team of its features ([`legal_features`]), and the point
//! played won; the strengths are fitted by the game-neutral
//! minorization–maximization of [`crate::bradley_terry`].

use super::{legal_features, nearest_stones, Context, Features, Predictor, GROUP_COUNT};
use crate::bradley_terry::{self, FitReport};
use crate::go::fastboard::{cell, FastBoard};
use crate::position::{Color, Point};

/// The Go predictor's competitions: a team per legal point.
pub type Competitions = bradley_terry::Competitions<GROUP_COUNT>;

/// Fits a [`Predictor`] to `data` ([`bradley_terry::fit`]).
pub fn fit(
    data: &Competitions,
    rounds: usize,
    tolerance: f64,
    threads: usize,
) -> (Predictor, FitReport) {
    let (tables, report) = bradley_terry::fit(data, rounds, tolerance, threads);
    (Predictor::from_gammas(tables), report)
}

/// Replays one game on a board of side `size`: the `setup` stones,
/// then `moves` (`None` a pass) in order, calling `visit` with the
/// position before move `i` (the board, the mover's colour, the context
/// of the last moves) and the move's point when `keep(i)` and the move
/// is not a pass. What was wrong with the record (an illegal move, a
/// point off the board) stops the replay.
pub fn replay(
    size: usize,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    keep: impl Fn(usize) -> bool,
    mut visit: impl FnMut(&FastBoard, u8, &Context<'_>, u16),
) -> Result<(), String> {
    let mut board = FastBoard::new(size);
    for &(c, p) in setup {
        let k = on_board(&board, p)?;
        if !board.is_legal(k, cell(c)) {
            return Err(format!("setup stone at {p:?} is not on an empty point"));
        }
        board.play(k, cell(c));
        board.pass();
    }
    let (mut last, mut last2) = (None, None);
    let mut nearest = Vec::new();
    for (i, &(c, mv)) in moves.iter().enumerate() {
        let c = cell(c);
        let Some(p) = mv else {
            board.pass();
            (last2, last) = (last, None);
            continue;
        };
        let k = on_board(&board, p)?;
        if !board.is_legal(k, c) {
            return Err(format!("move {} at {p:?} is illegal", i + 1));
        }
        if keep(i) {
            nearest_stones(&board, &mut nearest);
            let ctx = Context {
                last,
                last2,
                nearest: &nearest,
            };
            visit(&board, c, &ctx, k);
        }
        board.play(k, c);
        (last2, last) = (last, Some(k));
    }
    Ok(())
}

/// Adds the competitions of one game ([`replay`]): the position before
/// each kept move is a competition among the mover's legal points. The
/// number added; nothing of a game with a wrong record.
pub fn add_game(
    data: &mut Competitions,
    size: usize,
    setup: &[(Color, Point)],
    moves: &[(Color, Option<Point>)],
    keep: impl Fn(usize) -> bool,
) -> Result<usize, String> {
    let mut added = Vec::new();
    let mut legal = Vec::new();
    replay(size, setup, moves, keep, |board, c, ctx, k| {
        legal_features(board, c, ctx, &mut legal);
        if let Some(w) = legal.iter().position(|&(q, _)| q == k) {
            let teams: Vec<Features> = legal.iter().map(|&(_, f)| f).collect();
            added.push((teams, w));
        }
    })?;
    let n = added.len();
    for (teams, w) in added {
        data.push(&teams, w);
    }
    Ok(n)
}

fn on_board(board: &FastBoard, p: Point) -> Result<u16, String> {
    let n = board.side() as i32;
    if (0..n).contains(&p.i) && (0..n).contains(&p.j) {
        Ok(board.index(p))
    } else {
        Err(format!("{p:?} is off a board of side {n}"))
    }
}
