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

use std::marker::PhantomData;

use mkpat::geometry::{Geometry, Hexagon, Shape, Square};

use crate::hexagon::HexLayout;
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

/// A board with its merged boards: square ([`Board::new`], of side 1 to
/// [`MAX_SIZE`]), or hexagonal ([`Board::hexagon`]), stored in axial
/// coordinates as a square array whose cells off the hexagon read as off
/// the board. The geometry is a type parameter, as it is of the tables:
/// a matcher only scans boards of its tables' geometry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board<G = Square> {
    /// The side of the square array.
    size: usize,
    /// The hexagon's layout, for a hexagonal board.
    hex: Option<HexLayout>,
    shape: PhantomData<G>,
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

impl Board<Square> {
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
        Self::with_shape(size, None)
    }
}

impl Board<Hexagon> {
    /// An empty hexagonal board of side `side` (cells along an edge; 9
    /// for the contest's 217 cells), in axial coordinates
    /// ([`crate::hexagon`]).
    ///
    /// # Panics
    /// When the side is 0 or its array would be larger than [`MAX_SIZE`].
    pub fn hexagon(side: usize) -> Board<Hexagon> {
        let layout = HexLayout::new(side);
        Self::with_shape(layout.array_side(), Some(layout))
    }
}

impl<G: Shape> Board<G> {
    fn with_shape(size: usize, hex: Option<HexLayout>) -> Board<G> {
        let cells = vec![EMPTY; size * size];
        let mut b = Board {
            size,
            hex,
            shape: PhantomData,
            cells,
            merged: [Vec::new(), Vec::new()],
        };
        b.merged = [
            b.merged_from_scratch(Color::Black),
            b.merged_from_scratch(Color::White),
        ];
        b
    }

    /// The side of the board's square array (of a square board, its side).
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The board's geometry.
    pub const fn geometry(&self) -> Geometry {
        G::GEOMETRY
    }

    /// The hexagon's layout, for a hexagonal board.
    pub fn hex_layout(&self) -> Option<HexLayout> {
        self.hex
    }

    #[inline]
    fn index(&self, p: Point) -> Option<usize> {
        let n = self.size as i32;
        // A constant per geometry: the square's test has no branch more.
        let inside = match (G::GEOMETRY, self.hex) {
            (Geometry::Hexagon, Some(h)) => h.contains(p),
            _ => (0..n).contains(&p.i) && (0..n).contains(&p.j),
        };
        inside.then(|| p.i as usize * self.size + p.j as usize)
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

    /// The board after transformation `t` of its geometry (for the
    /// square, GNU Go 2.6's numbering) about its centre: the stone on `p`
    /// goes to [`Board::transform_point`].
    pub fn transformed(&self, t: u8) -> Board<G> {
        let mut b = Board::with_shape(self.size, self.hex);
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                b.place(self.transform_point(t, p), c);
            }
        }
        b
    }

    /// Where transformation `t` about the board's centre sends `p`.
    pub fn transform_point(&self, t: u8, p: Point) -> Point {
        if let Some(h) = self.hex {
            return h.transform_point(t, p);
        }
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

    /// Every point on the board, in reading order (a hexagonal board's
    /// in its cell-number order).
    pub fn points(&self) -> impl Iterator<Item = Point> {
        let (n, hex) = (self.size as i32, self.hex);
        (0..n)
            .flat_map(move |i| (0..n).map(move |j| Point::new(i, j)))
            .filter(move |&p| hex.is_none_or(|h| h.contains(p)))
    }

    /// The number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != EMPTY).count()
    }
}

impl<G: Shape> Position for Board<G> {
    fn size(&self) -> usize {
        self.size
    }

    fn on_board(&self, p: Point) -> bool {
        self.index(p).is_some()
    }

    fn stone(&self, p: Point) -> Option<Color> {
        match self.index(p).map(|k| self.cells[k]) {
            Some(BLACK) => Some(Color::Black),
            Some(WHITE) => Some(Color::White),
            _ => None,
        }
    }
}

/// Draws the board as rows of `.`, `X` (black) and `O` (white); a
/// hexagonal board as it lies on the page, rows offset by half a cell.
impl<G: Shape> std::fmt::Display for Board<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(h) = self.hex {
            let centre = h.side() as i32 - 1;
            for i in 0..self.size as i32 {
                let row: Vec<&str> = h
                    .row(i)
                    .map(|j| match self.stone(Point::new(i, j)) {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    })
                    .collect();
                let indent = (i - centre).unsigned_abs() as usize;
                writeln!(f, "{}{}", " ".repeat(indent), row.join(" "))?;
            }
            return Ok(());
        }
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

    /// The board of `a_hexagonal_board_…`: every third cell in number
    /// order holds a stone, black on even numbers.
    const EXPECTED_HEX_DRAWING: &str = "  X . .\n O . . X\n. . O . .\n X . . O\n  . . X\n";

    #[test]
    fn a_hexagonal_board_is_an_axial_array_with_its_corners_off() {
        let mut b = Board::hexagon(3);
        assert_eq!((b.size(), b.geometry()), (5, Geometry::Hexagon));
        assert_eq!(b.points().count(), 19);
        // (0,0) and (0,1) are off the hexagon; (0,2) is its first cell.
        assert!(!b.on_board(Point::new(0, 1)));
        assert!(b.on_board(Point::new(0, 2)));
        assert_eq!(b.value(Point::new(0, 1), Color::Black), OFF_BOARD);
        // The composite of (1,1) sees (0,1) as off the board, (0,2) empty.
        let m = b.merged(Point::new(1, 1), Color::Black);
        assert_eq!((m >> grid_shift(-1, 0).unwrap()) & 3, OFF_BOARD);
        assert_eq!((m >> grid_shift(-1, 1).unwrap()) & 3, 0);
        // Incremental updates equal a rebuild.
        for (k, p) in b.points().collect::<Vec<_>>().into_iter().enumerate() {
            if k % 3 == 0 {
                b.place(
                    p,
                    if k % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                );
            }
        }
        for c in [Color::Black, Color::White] {
            assert_eq!(b.merged_board(c), b.merged_from_scratch(c).as_slice());
        }
        assert_eq!(b.to_string(), EXPECTED_HEX_DRAWING);
    }

    #[test]
    fn hexagonal_boards_turn_about_their_centre() {
        let mut b = Board::hexagon(4);
        b.place(Point::new(3, 4), Color::Black); // east of the centre
        b.place(Point::new(0, 3), Color::White); // the top-left corner
        let turned = b.transformed(1); // 60° clockwise
        assert_eq!(turned.stone(Point::new(4, 3)), Some(Color::Black));
        assert_eq!(turned.stone(Point::new(0, 6)), Some(Color::White));
        assert_eq!(turned.stone_count(), 2);
        for t in 0..12 {
            let back = b.transformed(t).transformed(Geometry::Hexagon.inverse(t));
            assert_eq!(back, b, "{t}");
        }
    }
}
