//! Points, colours, and the read-only view of a position that helpers get.
//!
//! Helpers are written against the [`Position`] trait (extended by each
//! game with its own questions), not against a concrete board, so that
//! any engine can run the same pattern database: the matcher's
//! [`crate::board::Board`] implements it, and so does the Go engine's
//! board with incremental strings.

use mkpat::geometry::Geometry;
use mkpat::tables::Pattern;
use mkpat::transform;

/// A board point: `i` the row from the top, `j` the column from the left,
/// both from 0. Points off the board are representable (helpers compute
/// offsets freely) and simply hold no stone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    pub i: i32,
    pub j: i32,
}

/// The offsets `(di, dj)` of a point's eight neighbours, in reading order
/// (the matcher's index key is built in this order).
pub const EIGHT_NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Point {
    pub const fn new(i: i32, j: i32) -> Point {
        Point { i, j }
    }
    /// The point at `(di, dj)` from this one as counted in an
    /// untransformed square diagram, once the diagram lies on the board
    /// under transformation `trans` (GNU Go 2.6 numbering): the one way a
    /// diagram offset becomes a board point, for matches, helpers and
    /// constraints alike ([`Point::offset_in`] for any geometry).
    #[inline]
    pub fn offset(self, trans: u8, di: i32, dj: i32) -> Point {
        let (ti, tj) = transform::apply(trans, di, dj);
        Point::new(self.i + ti, self.j + tj)
    }
    /// [`Point::offset`] for a diagram of `geometry` (on the hexagon, in
    /// axial coordinates and its own numbering of transformations).
    #[inline]
    pub fn offset_in(self, geometry: Geometry, trans: u8, di: i32, dj: i32) -> Point {
        let (ti, tj) = geometry.apply(trans, di, dj);
        Point::new(self.i + ti, self.j + tj)
    }
    /// The four orthogonal neighbours (some may be off the board).
    pub fn neighbours(self) -> [Point; 4] {
        [
            Point::new(self.i - 1, self.j),
            Point::new(self.i + 1, self.j),
            Point::new(self.i, self.j - 1),
            Point::new(self.i, self.j + 1),
        ]
    }
}

/// A stone colour; also "the side to move".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// Read access to a position: points and stones, nothing of any game's
/// rules (a game adds its own questions in an extension trait, as Go's
/// `go::position::GoPosition` adds strings and liberties).
pub trait Position {
    /// The board is `size × size`.
    fn size(&self) -> usize;
    /// The stone on `p`; `None` for an empty point or a point off the board.
    fn stone(&self, p: Point) -> Option<Color>;

    fn on_board(&self, p: Point) -> bool {
        let n = self.size() as i32;
        (0..n).contains(&p.i) && (0..n).contains(&p.j)
    }

    fn is_empty(&self, p: Point) -> bool {
        self.on_board(p) && self.stone(p).is_none()
    }
}

/// Everything a helper is told about the match it is asked to judge. `P`
/// is the position as the game's helpers see it (a trait object of the
/// game's position trait); each game names its own alias, so that its
/// helpers are written `fn(&HelperContext<'_>) -> i32`.
pub struct HelperContext<'a, P: ?Sized> {
    /// The pattern that matched.
    pub pattern: &'a Pattern,
    /// Its weight as the valuation reads it (through the engine's
    /// overlay, so re-weighed when the engine is): what a helper scales.
    pub weight: i32,
    /// The geometry of the pattern's database.
    pub geometry: Geometry,
    /// The transformation it matched in (the geometry's numbering: on the
    /// square GNU Go 2.6's).
    pub trans: u8,
    /// The board point under the pattern's `*`.
    pub move_point: Point,
    /// The side the pattern is matched for: the diagram's `O`.
    pub color: Color,
    pub position: &'a P,
}

impl<P: ?Sized> std::fmt::Debug for HelperContext<'_, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HelperContext")
            .field("pattern", &self.pattern.name)
            .field("trans", &self.trans)
            .field("move_point", &self.move_point)
            .field("color", &self.color)
            .finish()
    }
}

impl<P: Position + ?Sized> HelperContext<'_, P> {
    /// The seed's `offset()`: the board point at `(di, dj)` from the move,
    /// counted in the untransformed diagram (rows down, columns right).
    pub fn offset(&self, di: i32, dj: i32) -> Point {
        self.move_point.offset_in(self.geometry, self.trans, di, dj)
    }
    /// Is there a friendly (`O`) stone on `p`?
    pub fn mine(&self, p: Point) -> bool {
        self.position.stone(p) == Some(self.color)
    }
    /// Is there an opponent (`X`) stone on `p`?
    pub fn theirs(&self, p: Point) -> bool {
        self.position.stone(p) == Some(self.color.other())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_the_geometry() {
        let p = Point::new(5, 5);
        // Turn 90° clockwise on the square: east goes south.
        assert_eq!(p.offset(1, 0, 1), Point::new(6, 5));
        assert_eq!(p.offset_in(Geometry::Square, 1, 0, 1), Point::new(6, 5));
        // Turn 60° clockwise on the hexagon: east goes down and right.
        assert_eq!(p.offset_in(Geometry::Hexagon, 1, 0, 1), Point::new(6, 5));
        assert_eq!(p.offset_in(Geometry::Hexagon, 2, 0, 1), Point::new(6, 4));
        assert_eq!(p.offset_in(Geometry::Hexagon, 6, 1, 0), Point::new(6, 4));
    }
}
