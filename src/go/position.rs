//! What Go asks of a position beyond the core's stones: strings and
//! liberties, and the helper signature of Go's databases.
//!
//! The core's [`Position`] knows points and stones only; a string (worm)
//! and its liberties are Go's ideas, so they live here, in
//! [`GoPosition`]. Any core position gets them by flood fill (the
//! matcher's [`Board`] does, for the helpers' tests and `katachi match`);
//! [`crate::go::Goban`] answers from its incremental strings instead.
//! Go's helpers are written against [`HelperContext`], the core's context
//! with a `GoPosition` behind it.

use crate::board::Board;
use crate::position::{self, Color, Point, Position};

/// Read access to a Go position: the core's stones plus strings and
/// liberties.
pub trait GoPosition: Position {
    /// The points of the string (worm) through `p`; empty when `p` holds
    /// no stone.
    fn string(&self, p: Point) -> Vec<Point> {
        let Some(c) = self.stone(p) else {
            return Vec::new();
        };
        let mut seen = vec![p];
        let mut k = 0;
        while k < seen.len() {
            for q in seen[k].neighbours() {
                if self.stone(q) == Some(c) && !seen.contains(&q) {
                    seen.push(q);
                }
            }
            k += 1;
        }
        seen
    }

    /// The number of liberties of the string through `p` (0 for no stone).
    fn liberties(&self, p: Point) -> usize {
        let mut libs: Vec<Point> = Vec::new();
        for s in self.string(p) {
            for q in s.neighbours() {
                if self.is_empty(q) && !libs.contains(&q) {
                    libs.push(q);
                }
            }
        }
        libs.len()
    }

    /// Liberties a stone of `color` played on the empty point `p` would
    /// have, captures ignored.
    fn liberties_after(&self, p: Point, color: Color) -> usize {
        let mut libs: Vec<Point> = Vec::new();
        let mut seen = vec![p];
        let mut k = 0;
        while k < seen.len() {
            for q in seen[k].neighbours() {
                if q == p || seen.contains(&q) {
                    continue;
                }
                if self.stone(q) == Some(color) {
                    seen.push(q);
                } else if self.is_empty(q) && !libs.contains(&q) {
                    libs.push(q);
                }
            }
            k += 1;
        }
        libs.len()
    }
}

/// The matcher's board answers by flood fill.
impl GoPosition for Board {}

/// What a helper of a Go database is told about the match it judges.
pub type HelperContext<'a> = position::HelperContext<'a, dyn GoPosition + 'a>;

/// The signature of every helper of a Go database (the generated
/// `HELPERS` tables hold these): the value of the move, 0 to reject.
pub type HelperFn = fn(&HelperContext<'_>) -> i32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_fill_counts_strings_and_liberties() {
        // X X .
        // O X .
        // . O .
        let mut b = Board::new(3);
        for (i, j, c) in [
            (0, 0, Color::Black),
            (0, 1, Color::Black),
            (1, 1, Color::Black),
            (1, 0, Color::White),
            (2, 1, Color::White),
        ] {
            b.place(Point::new(i, j), c);
        }
        let mut s = b.string(Point::new(0, 0));
        s.sort();
        assert_eq!(s, [Point::new(0, 0), Point::new(0, 1), Point::new(1, 1)]);
        assert_eq!(b.liberties(Point::new(0, 1)), 2);
        assert_eq!(b.liberties(Point::new(1, 0)), 1);
        assert_eq!(b.liberties(Point::new(2, 2)), 0);
        // White at (2,0) joins (1,0) and (2,1): no liberty left but (2,2).
        assert_eq!(b.liberties_after(Point::new(2, 0), Color::White), 1);
        // Black at (0,2) keeps only (1,2); at (1,2), (0,2) and (2,2).
        assert_eq!(b.liberties_after(Point::new(0, 2), Color::Black), 1);
        assert_eq!(b.liberties_after(Point::new(1, 2), Color::Black), 2);
    }
}
