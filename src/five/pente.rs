//! Pente's rules on the five-in-a-row board ([`Rule::Pente`]): captures,
//! the capture count and the tournament rule. `rules.rs` asks this module
//! what a move takes and whether it is allowed; the board keeps the
//! counts and the stones taken, so that [`FiveBoard::undo`] puts them
//! back.
//!
//! - A move that brackets exactly two opponent stones in a line (`X O O
//!   X` along a row, a column or a diagonal) captures them: they leave
//!   the board. Several pairs, in several directions, are taken at once.
//!   A stone played into the gap between two bracketing stones (`X O . X`
//!   then `O` in the gap) is not taken: only the mover captures, never
//!   the side that moved. One stone, or three, between are not a pair.
//! - Five or more in a row wins; so does the fifth captured pair
//!   ([`CAPTURES_TO_WIN`]).
//! - The tournament rule (Debian's `pente` always enforces it): the first
//!   stone on the centre, and the first player's second stone (the third
//!   move) outside the central 5×5 square. It applies to games played
//!   from the empty board, not to positions with set-up stones.
//!
//! [`Rule::Pente`]: super::rules::Rule::Pente
//! [`FiveBoard::undo`]: super::rules::FiveBoard::undo

use super::rules::{Grid, EMPTY};
use crate::position::Point;

/// The captured pairs that win.
pub const CAPTURES_TO_WIN: u8 = 5;

/// How far from the centre, on either axis, the first player's second
/// stone may not be: the central 5×5 square.
pub const CENTRAL_RADIUS: i32 = 2;

/// The cell indexes of the stones a stone of `own` on `at` captures (two
/// a pair), looking along the grid's line directions both ways; at most
/// eight pairs. `at` need not hold the stone yet.
pub(super) fn captured_by(grid: &Grid, at: usize, own: u8) -> ([usize; 16], usize) {
    let theirs = 3 - own;
    let mut out = [0; 16];
    let mut n = 0;
    for &step in grid.steps() {
        for sign in [-1, 1] {
            let k = |m: isize| (at as isize + sign * m * step) as usize;
            // The margin is five cells wide: three steps stay in the
            // array, and an off-board cell is neither colour.
            if grid.cells[k(1)] == theirs && grid.cells[k(2)] == theirs && grid.cells[k(3)] == own {
                out[n] = k(1);
                out[n + 1] = k(2);
                n += 2;
            }
        }
    }
    (out, n)
}

/// How many pairs a stone of `own` on `at` would capture.
pub(super) fn pairs_captured(grid: &Grid, at: usize, own: u8) -> u8 {
    (captured_by(grid, at, own).1 / 2) as u8
}

/// Whether the tournament rule forbids `p` as move number `move_number`
/// (0 the first) of a game from the empty board of side `size`.
pub fn tournament_forbids(size: usize, move_number: usize, p: Point) -> bool {
    let c = (size / 2) as i32;
    match move_number {
        0 => p != Point::new(c, c),
        2 => (p.i - c).abs() <= CENTRAL_RADIUS && (p.j - c).abs() <= CENTRAL_RADIUS,
        _ => false,
    }
}

/// Removes the stones at `cells` (a capture), returning them emptied.
pub(super) fn remove(grid: &mut Grid, cells: &[usize]) {
    for &k in cells {
        grid.cells[k] = EMPTY;
    }
}
