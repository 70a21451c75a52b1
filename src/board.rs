//! The matcher's board: stones plus the merged board of 4x4 composites.
//!
//! The grid optimisation (seed, "The grid optimisation") tests sixteen
//! points at once: every point keeps a 32-bit composite holding the 2-bit
//! values of the 4x4 window from one row above and one column left of it
//! to two rows below and two columns right, so a pattern variant is
//! rejected or accepted near its anchor with one `and` and one compare.
//!
//! The 2-bit values depend on who is to move (the pattern's `O` is the side
//! to move), so the board keeps one merged array per colour to move. Both
//! are updated incrementally when a stone is placed or removed — only the
//! sixteen composites whose window covers the point change — so a scan
//! never rebuilds them. A cell holds, from the top bit down in reading
//! order, `00` empty, `01` mine, `10` theirs, `11` off the board
//! ([`mkpat::tables::grid_shift`] gives a window cell's shift).

use mkpat::tables::grid_shift;

use crate::position::{Color, Point, Position};

/// The 2-bit value of an off-board point.
pub const OFF_BOARD: u32 = 0b11;

/// The largest board side supported (the largest diagram mkpat accepts:
/// both are [`mkpat::geometry::MAX_SIDE`]).
pub const MAX_SIZE: usize = mkpat::geometry::MAX_SIDE;

/// What a board point holds, as stored: 0 empty, 1 black, 2 white.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

/// The 2-bit value of a stored point for each colour to move: black to
/// move sees black as `01` ("mine"), white to move sees white as `01`.
const VALUE: [[u32; 3]; 2] = [[0b00, 0b01, 0b10], [0b00, 0b10, 0b01]];

/// A square Go board of side 1 to [`MAX_SIZE`] with its merged boards.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    size: usize,
    /// Row-major stones: [`EMPTY`], [`BLACK`] or [`WHITE`].
    cells: Vec<u8>,
    /// `merged[c][i * size + j]`: the composite of point `(i, j)` as seen
    /// by colour `c` to move (index 0 black, 1 white).
    merged: [Vec<u32>; 2],
}

/// Index of a colour in the per-colour arrays.
#[inline]
pub const fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// When `size` is 0 or larger than [`MAX_SIZE`]: a caller's bug, not
    /// an input error (the positions parser checks sizes before this).
    pub fn new(size: usize) -> Board {
        assert!(
            (1..=MAX_SIZE).contains(&size),
            "board size {size} is outside 1..={MAX_SIZE}"
        );
        let cells = vec![EMPTY; size * size];
        let mut b = Board {
            size,
            cells,
            merged: [Vec::new(), Vec::new()],
        };
        b.merged = [
            b.merged_from_scratch(Color::Black),
            b.merged_from_scratch(Color::White),
        ];
        b
    }

    /// The side of the board.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    #[inline]
    fn index(&self, p: Point) -> Option<usize> {
        let n = self.size as i32;
        if (0..n).contains(&p.i) && (0..n).contains(&p.j) {
            Some(p.i as usize * self.size + p.j as usize)
        } else {
            None
        }
    }

    /// The 2-bit value of `p` as seen by `to_move`: `00` empty, `01` a
    /// stone of `to_move`, `10` an opponent stone, `11` off the board.
    #[inline]
    pub fn value(&self, p: Point, to_move: Color) -> u32 {
        match self.index(p) {
            Some(k) => VALUE[color_index(to_move)][self.cells[k] as usize],
            None => OFF_BOARD,
        }
    }

    /// The composite of the 4x4 window around `p` (see the module docs).
    ///
    /// # Panics
    /// When `p` is off the board.
    #[inline]
    pub fn merged(&self, p: Point, to_move: Color) -> u32 {
        let k = self.index(p).expect("a point on the board");
        self.merged[color_index(to_move)][k]
    }

    /// The whole merged board for `to_move`, row-major.
    #[inline]
    pub fn merged_board(&self, to_move: Color) -> &[u32] {
        &self.merged[color_index(to_move)]
    }

    /// The row-major stones: 0 empty, 1 black, 2 white.
    #[inline]
    pub fn raw_cells(&self) -> &[u8] {
        &self.cells
    }

    /// Computes the merged board for `to_move` from the stones alone,
    /// cell by cell: the definition the incremental updates must equal.
    pub fn merged_from_scratch(&self, to_move: Color) -> Vec<u32> {
        let n = self.size as i32;
        let mut out = Vec::with_capacity(self.size * self.size);
        for i in 0..n {
            for j in 0..n {
                let mut m = 0u32;
                for r in -1..=2 {
                    for c in -1..=2 {
                        let shift = grid_shift(r, c).expect("inside the window");
                        m |= self.value(Point::new(i + r, j + c), to_move) << shift;
                    }
                }
                out.push(m);
            }
        }
        out
    }

    /// Puts `stone` (or nothing) on `p`, updating both merged boards.
    /// Returns what was there before.
    ///
    /// # Panics
    /// When `p` is off the board.
    pub fn set(&mut self, p: Point, stone: Option<Color>) -> Option<Color> {
        let k = self.index(p).expect("a point on the board");
        let new = match stone {
            None => EMPTY,
            Some(Color::Black) => BLACK,
            Some(Color::White) => WHITE,
        };
        let old = std::mem::replace(&mut self.cells[k], new);
        if old != new {
            self.update_composites(p, new);
        }
        match old {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Places a stone of `color` on `p` (no capture logic: the matcher's
    /// board is a diagram holder; engines apply their own rules).
    pub fn place(&mut self, p: Point, color: Color) -> Option<Color> {
        self.set(p, Some(color))
    }

    /// Empties `p`.
    pub fn remove(&mut self, p: Point) -> Option<Color> {
        self.set(p, None)
    }

    /// Rewrites `p`'s cell in the composites whose window covers it: those
    /// of the points `(p.i - r, p.j - c)` for window cells `(r, c)`.
    fn update_composites(&mut self, p: Point, stored: u8) {
        let n = self.size as i32;
        for r in -1..=2 {
            let i = p.i - r;
            if !(0..n).contains(&i) {
                continue;
            }
            for c in -1..=2 {
                let j = p.j - c;
                if !(0..n).contains(&j) {
                    continue;
                }
                let shift = grid_shift(r, c).expect("inside the window");
                let k = i as usize * self.size + j as usize;
                for (ci, merged) in self.merged.iter_mut().enumerate() {
                    let v = VALUE[ci][stored as usize];
                    merged[k] = (merged[k] & !(0b11 << shift)) | (v << shift);
                }
            }
        }
    }

    /// The board after transformation `t` (GNU Go 2.6 numbering) about
    /// its centre: the stone on `p` goes to [`Board::transform_point`].
    pub fn transformed(&self, t: u8) -> Board {
        let mut b = Board::new(self.size);
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                b.place(self.transform_point(t, p), c);
            }
        }
        b
    }

    /// Where transformation `t` about the board's centre sends `p`.
    pub fn transform_point(&self, t: u8, p: Point) -> Point {
        let (a, b) = mkpat::transform::apply(t, p.i, p.j);
        // Each output coordinate is plus or minus one input coordinate;
        // the sign of a unit step tells which, so a negative one is shifted
        // back onto the board (0 maps to n-1).
        let (sa, sb) = mkpat::transform::apply(t, 1, 1);
        let last = self.size as i32 - 1;
        Point::new(
            if sa < 0 { a + last } else { a },
            if sb < 0 { b + last } else { b },
        )
    }

    /// Every point, in reading order.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let n = self.size as i32;
        (0..n).flat_map(move |i| (0..n).map(move |j| Point::new(i, j)))
    }

    /// The number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != EMPTY).count()
    }
}

impl Position for Board {
    fn size(&self) -> usize {
        self.size
    }

    fn stone(&self, p: Point) -> Option<Color> {
        match self.index(p).map(|k| self.cells[k]) {
            Some(BLACK) => Some(Color::Black),
            Some(WHITE) => Some(Color::White),
            _ => None,
        }
    }
}

/// Draws the board as rows of `.`, `X` (black) and `O` (white).
impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in self.cells.chunks(self.size) {
            for &c in row {
                let ch = match c {
                    BLACK => 'X',
                    WHITE => 'O',
                    _ => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_composites_mark_the_edges() {
        let b = Board::new(3);
        // Top-left corner: the window's top row and left column are off.
        let m = b.merged(Point::new(0, 0), Color::Black);
        for r in -1..=2 {
            for c in -1..=2 {
                let v = (m >> grid_shift(r, c).unwrap()) & 3;
                let off = r < 0 || c < 0 || r > 2 || c > 2;
                assert_eq!(v, if off { 3 } else { 0 }, "({r},{c})");
            }
        }
    }

    #[test]
    fn colours_are_seen_from_the_side_to_move() {
        let mut b = Board::new(5);
        b.place(Point::new(2, 2), Color::Black);
        b.place(Point::new(2, 3), Color::White);
        let shift = grid_shift(0, 0).unwrap();
        let east = grid_shift(0, 1).unwrap();
        let mb = b.merged(Point::new(2, 2), Color::Black);
        let mw = b.merged(Point::new(2, 2), Color::White);
        assert_eq!(((mb >> shift) & 3, (mb >> east) & 3), (0b01, 0b10));
        assert_eq!(((mw >> shift) & 3, (mw >> east) & 3), (0b10, 0b01));
        assert_eq!(b.value(Point::new(2, 3), Color::White), 0b01);
        assert_eq!(b.value(Point::new(-1, 0), Color::White), OFF_BOARD);
    }

    #[test]
    fn one_by_one_board_works() {
        let mut b = Board::new(1);
        b.place(Point::new(0, 0), Color::White);
        assert_eq!(
            b.merged_board(Color::White),
            b.merged_from_scratch(Color::White).as_slice()
        );
        assert_eq!(b.stone_count(), 1);
    }

    #[test]
    fn transform_point_stays_on_board() {
        let b = Board::new(4);
        for t in 0..8 {
            let mut seen: Vec<Point> = b.points().map(|p| b.transform_point(t, p)).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 16, "transformation {t} is a permutation");
        }
        assert_eq!(b.transform_point(1, Point::new(0, 0)), Point::new(0, 3));
        assert_eq!(b.transform_point(7, Point::new(1, 0)), Point::new(1, 3));
    }
}
