//! The hexagonal board's layout: which cells of the axial array are on
//! the board, their numbers, rows and lines.
//!
//! A hexagonal board of side `n` has `3n(n−1)+1` cells (217 for the
//! contest's `n = 9`) in `2n−1` rows of `n, n+1, …, 2n−1, …, n+1, n`
//! cells. It is stored in axial coordinates ([`mkpat::geometry`]): a
//! `(2n−1)²` square array whose cell `(i, j)` is on the board when
//! `n−1 ≤ i+j ≤ 3(n−1)`; the array's two far corners are off it. Cells are
//! numbered as the contest's judge numbers them: row by row from the top,
//! left to right, from 0 — so on the contest board 0 is the first cell of
//! the top row, 100 the first of the middle row, 108 the centre and 216 the
//! last.

use mkpat::geometry::Geometry;

use crate::position::Point;

/// The layout of a hexagonal board of side `side` (cells along one edge).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HexLayout {
    side: usize,
}

/// The contest board's side: 217 cells.
pub const CONTEST_SIDE: usize = 9;

impl HexLayout {
    /// The layout of side `side`.
    ///
    /// # Panics
    /// When `side` is 0 or the array (`2·side − 1`) would be larger than
    /// [`mkpat::geometry::MAX_SIDE`].
    pub fn new(side: usize) -> HexLayout {
        assert!(
            side >= 1 && 2 * side - 1 <= mkpat::geometry::MAX_SIDE,
            "hexagon side {side} is outside 1..={}",
            mkpat::geometry::MAX_SIDE.div_ceil(2)
        );
        HexLayout { side }
    }

    /// Cells along one edge.
    pub const fn side(self) -> usize {
        self.side
    }

    /// The side of the axial array: `2·side − 1`.
    pub const fn array_side(self) -> usize {
        2 * self.side - 1
    }

    /// How many cells: `3n(n−1) + 1`.
    pub const fn cells(self) -> usize {
        3 * self.side * (self.side - 1) + 1
    }

    /// Is axial `p` a cell of the board?
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        let last = self.array_side() as i32 - 1;
        let n1 = self.side as i32 - 1;
        (0..=last).contains(&p.i)
            && (0..=last).contains(&p.j)
            && (n1..=3 * n1).contains(&(p.i + p.j))
    }

    /// The columns of row `i`, left to right (empty off the board).
    pub fn row(self, i: i32) -> std::ops::Range<i32> {
        let n1 = self.side as i32 - 1;
        if !(0..=2 * n1).contains(&i) {
            return 0..0;
        }
        (n1 - i).max(0)..(3 * n1 - i).min(2 * n1) + 1
    }

    /// Every cell, in number order.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let rows = self.array_side() as i32;
        (0..rows).flat_map(move |i| self.row(i).map(move |j| Point::new(i, j)))
    }

    /// The cell numbered `k`, if there is one.
    pub fn point(self, k: usize) -> Option<Point> {
        let mut first = 0;
        for i in 0..self.array_side() as i32 {
            let r = self.row(i);
            let len = r.len();
            if k < first + len {
                return Some(Point::new(i, r.start + (k - first) as i32));
            }
            first += len;
        }
        None
    }

    /// The number of cell `p`, if it is on the board.
    pub fn number(self, p: Point) -> Option<usize> {
        if !self.contains(p) {
            return None;
        }
        let before: usize = (0..p.i).map(|i| self.row(i).len()).sum();
        Some(before + (p.j - self.row(p.i).start) as usize)
    }

    /// The cells that touch `p` on the board.
    pub fn neighbours(self, p: Point) -> impl Iterator<Item = Point> {
        Geometry::Hexagon
            .adjacent()
            .iter()
            .map(move |&(di, dj)| Point::new(p.i + di, p.j + dj))
            .filter(move |&q| self.contains(q))
    }

    /// Every run of `len` consecutive cells along one of the three line
    /// directions, each run from its first cell in number order.
    pub fn lines(self, len: usize) -> Vec<Vec<Point>> {
        let mut out = Vec::new();
        for &(di, dj) in Geometry::Hexagon.line_directions() {
            for p in self.points() {
                let run: Vec<Point> = (0..len as i32)
                    .map(|k| Point::new(p.i + k * di, p.j + k * dj))
                    .collect();
                if run.iter().all(|&q| self.contains(q)) {
                    out.push(run);
                }
            }
        }
        out
    }

    /// Where transformation `t` of the hexagon about its centre sends `p`.
    pub fn transform_point(self, t: u8, p: Point) -> Point {
        let c = self.side as i32 - 1;
        let (di, dj) = Geometry::Hexagon.apply(t, p.i - c, p.j - c);
        Point::new(c + di, c + dj)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contest() -> HexLayout {
        HexLayout::new(CONTEST_SIDE)
    }

    fn cell(k: usize) -> Point {
        contest().point(k).unwrap()
    }

    /// Do the cells numbered `ks` lie on one line, in order, one step apart?
    fn on_one_line(ks: &[usize]) -> bool {
        let ps: Vec<Point> = ks.iter().map(|&k| cell(k)).collect();
        let (di, dj) = (ps[1].i - ps[0].i, ps[1].j - ps[0].j);
        let step = Geometry::Hexagon.line_directions().contains(&(di, dj));
        step && ps
            .windows(2)
            .all(|w| (w[1].i - w[0].i, w[1].j - w[0].j) == (di, dj))
    }

    #[test]
    fn the_contest_board_is_numbered_as_the_seed_says() {
        let b = contest();
        assert_eq!(b.cells(), 217);
        assert_eq!(b.points().count(), 217);
        // Rows of 9, 10, …, 17, …, 10, 9.
        let lens: Vec<usize> = (0..17).map(|i| b.row(i).len()).collect();
        assert_eq!(
            lens,
            [9, 10, 11, 12, 13, 14, 15, 16, 17, 16, 15, 14, 13, 12, 11, 10, 9]
        );
        assert_eq!(cell(0), Point::new(0, 8), "the first cell of the top row");
        assert_eq!(cell(100), Point::new(8, 0), "the first of the middle row");
        assert_eq!(cell(108), Point::new(8, 8), "the centre");
        assert_eq!(cell(216), Point::new(16, 8), "the last");
        assert_eq!(b.point(217), None);
        for (k, p) in b.points().enumerate() {
            assert_eq!(b.number(p), Some(k));
            assert_eq!(b.point(k), Some(p));
        }
    }

    #[test]
    fn the_seed_s_lines_and_neighbours() {
        // "array[2] ~ array[6]": a row.
        assert!(on_one_line(&[2, 3, 4, 5, 6]));
        // "array[20] ~ array[70]": a slanted line.
        assert!(on_one_line(&[20, 31, 43, 56, 70]));
        // From the top-left corner to the centre.
        assert!(on_one_line(&[0, 10, 21, 33, 46, 60, 75, 91, 108]));
        assert!(!on_one_line(&[2, 3, 4, 5, 7]));
        let mut n: Vec<usize> = contest()
            .neighbours(cell(108))
            .map(|p| contest().number(p).unwrap())
            .collect();
        n.sort();
        assert_eq!(n, [91, 92, 107, 109, 124, 125]);
        // A corner touches three cells, an edge cell four.
        assert_eq!(contest().neighbours(cell(0)).count(), 3);
        assert_eq!(contest().neighbours(cell(4)).count(), 4);
    }

    #[test]
    fn the_contest_board_has_149_fives_along_each_axis() {
        let fives = contest().lines(5);
        assert_eq!(fives.len(), 447);
        for (k, &(di, dj)) in Geometry::Hexagon.line_directions().iter().enumerate() {
            let along = fives
                .iter()
                .filter(|r| (r[1].i - r[0].i, r[1].j - r[0].j) == (di, dj))
                .count();
            assert_eq!(along, 149, "axis {k}");
        }
    }

    #[test]
    fn other_sides_and_transformations() {
        for side in 1..=13 {
            let b = HexLayout::new(side);
            assert_eq!(b.points().count(), b.cells(), "side {side}");
            // Every transformation about the centre is a permutation of
            // the cells that keeps neighbours neighbours.
            for t in 0..12 {
                let mut image: Vec<usize> = b
                    .points()
                    .map(|p| b.number(b.transform_point(t, p)).expect("on the board"))
                    .collect();
                for p in b.points() {
                    for q in b.neighbours(p) {
                        let (a, c) = (b.transform_point(t, p), b.transform_point(t, q));
                        assert!(b.neighbours(a).any(|x| x == c));
                    }
                }
                image.sort();
                assert_eq!(image, (0..b.cells()).collect::<Vec<_>>());
            }
        }
        assert_eq!(HexLayout::new(1).cells(), 1);
        assert_eq!(HexLayout::new(2).cells(), 7);
    }
}
