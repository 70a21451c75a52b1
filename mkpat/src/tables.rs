//! The compiled tables: the contract between the compiler and the matcher.
//!
//! The same types hold the `static` tables that `build.rs` generates and the
//! tables that [`crate::compile`] builds in memory, so that one matcher reads
//! both through the borrowed view [`Tables`]. Everything is flat arrays with
//! index ranges (no per-pattern allocation, no pointers between entries),
//! which keeps the generated code plain data that rustc compiles quickly.
//!
//! Invariants (relied on by the matcher, checked by `Database::validate`):
//! - `patterns` are sorted by `max_weight`, descending, ties in file order;
//! - each pattern's `variants` and `elements` ranges lie inside the arrays;
//! - every offset is relative to the pattern's anchor, the first `O` or `X`
//!   of the diagram in reading order; the anchor is itself an element;
//! - elements are sorted stones first, empty points last.

use std::borrow::Cow;
use std::marker::PhantomData;

pub use crate::dialect::gnugo38::Go38Values;
pub use crate::dialect::{Dialect, FiveValues, GoValues, Kind, Values};
use crate::geometry::{Geometry, Shape, Square};

/// What a diagram cell requires of the board point under it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Cell {
    /// `.` or `*`: an empty point.
    Empty = 0,
    /// `O`: a stone of the side the pattern is matched for.
    Mine = 1,
    /// `X`: an opponent stone.
    Theirs = 2,
    /// `o`: a friendly stone or an empty point (not `X`).
    NotTheirs = 3,
    /// `x`: an opponent stone or an empty point (not `O`).
    NotMine = 4,
    /// `=` (the five-in-a-row dialect): an opponent stone or off the
    /// board, whatever closes a line of `O`. A pattern's extent leaves
    /// these cells out, so that a line may end at the board's edge.
    Blocked = 5,
}

impl Cell {
    pub const ALL: [Cell; 6] = [
        Cell::Empty,
        Cell::Mine,
        Cell::Theirs,
        Cell::NotTheirs,
        Cell::NotMine,
        Cell::Blocked,
    ];

    /// The 2-bit `(and, val)` test of seed section (vi): a point with
    /// 2-bit value `p` (empty 00, O 01, X 10, off-board 11) satisfies the
    /// cell when `p & and == val`. Off-board fails every cell but
    /// [`Cell::Blocked`].
    pub const fn and_val(self) -> (u32, u32) {
        match self {
            Cell::Empty => (0b11, 0b00),
            Cell::Mine => (0b11, 0b01),
            Cell::Theirs => (0b11, 0b10),
            Cell::NotTheirs => (0b10, 0b00),
            Cell::NotMine => (0b01, 0b00),
            // `10` theirs and `11` off the board share the top bit.
            Cell::Blocked => (0b10, 0b10),
        }
    }

    /// Does a point holding the 2-bit value `p` satisfy this cell?
    #[inline]
    pub const fn accepts(self, p: u32) -> bool {
        let (and, val) = self.and_val();
        p & and == val
    }

    pub const fn from_u8(v: u8) -> Cell {
        match v {
            1 => Cell::Mine,
            2 => Cell::Theirs,
            3 => Cell::NotTheirs,
            4 => Cell::NotMine,
            5 => Cell::Blocked,
            _ => Cell::Empty,
        }
    }

    /// The diagram character (`.` for [`Cell::Empty`]).
    pub const fn as_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Mine => 'O',
            Cell::Theirs => 'X',
            Cell::NotTheirs => 'o',
            Cell::NotMine => 'x',
            Cell::Blocked => '=',
        }
    }

    pub const fn is_stone(self) -> bool {
        matches!(self, Cell::Mine | Cell::Theirs)
    }
}

/// One checked point of a pattern, packed into 32 bits:
/// bits 24..32 `di` (i8), 16..24 `dj` (i8), 0..8 the [`Cell`].
/// Offsets are in the untransformed diagram, relative to the anchor.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Element(pub u32);

impl Element {
    pub const fn new(di: i8, dj: i8, cell: Cell) -> Element {
        Element(((di as u8 as u32) << 24) | ((dj as u8 as u32) << 16) | cell as u32)
    }
    #[inline]
    pub const fn di(self) -> i32 {
        (self.0 >> 24) as u8 as i8 as i32
    }
    #[inline]
    pub const fn dj(self) -> i32 {
        (self.0 >> 16) as u8 as i8 as i32
    }
    #[inline]
    pub const fn cell(self) -> Cell {
        Cell::from_u8(self.0 as u8)
    }
}

impl std::fmt::Debug for Element {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "({:+},{:+}){}",
            self.di(),
            self.dj(),
            self.cell().as_char()
        )
    }
}

/// A half-open range `start..start+len` into one of the flat arrays.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span32 {
    pub start: u32,
    pub len: u32,
}

impl Span32 {
    pub const fn new(start: u32, len: u32) -> Span32 {
        Span32 { start, len }
    }
    #[inline]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// The bounds of a diagram relative to its anchor, `?` cells included:
/// its rows `min_i..=max_i` and columns `min_j..=max_j`, and the range
/// `min_s..=max_s` of `i + j` over its cells. On the square `i + j` adds
/// nothing (a rectangle's corners bound it); a hexagonal diagram in axial
/// coordinates is bounded by all three, the hexagon's three pairs of
/// sides, so that it lies on a hexagonal board exactly when its bounds do.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Extent {
    pub min_i: i8,
    pub min_j: i8,
    pub max_i: i8,
    pub max_j: i8,
    pub min_s: i8,
    pub max_s: i8,
}

impl Extent {
    /// A rectangle.
    pub const fn new(min_i: i8, min_j: i8, max_i: i8, max_j: i8) -> Extent {
        Extent {
            min_i,
            min_j,
            max_i,
            max_j,
            min_s: min_i + min_j,
            max_s: max_i + max_j,
        }
    }

    /// A hexagonal diagram's bounds (axial coordinates).
    pub const fn hexagonal(
        min_i: i8,
        min_j: i8,
        max_i: i8,
        max_j: i8,
        min_s: i8,
        max_s: i8,
    ) -> Extent {
        Extent {
            min_i,
            min_j,
            max_i,
            max_j,
            min_s,
            max_s,
        }
    }

    /// Is offset `(i, j)` within all three bounds? (On the square, within
    /// the rectangle.)
    #[inline]
    pub const fn contains(self, i: i32, j: i32) -> bool {
        self.min_i as i32 <= i
            && i <= self.max_i as i32
            && self.min_j as i32 <= j
            && j <= self.max_j as i32
            && self.min_s as i32 <= i + j
            && i + j <= self.max_s as i32
    }

    /// The bounds of cells `(i, j)` (a rectangle's on the square).
    pub fn of_cells(geometry: Geometry, cells: impl IntoIterator<Item = (i32, i32)>) -> Extent {
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (i, j) in cells {
            for (k, v) in [i, j, i + j].into_iter().enumerate() {
                lo[k] = lo[k].min(v);
                hi[k] = hi[k].max(v);
            }
        }
        let [a, b, c, d] = [lo[0], lo[1], hi[0], hi[1]].map(|v| v as i8);
        match geometry {
            Geometry::Square => Extent::new(a, b, c, d),
            Geometry::Hexagon => Extent::hexagonal(a, b, c, d, lo[2] as i8, hi[2] as i8),
        }
    }

    /// The bounds after transformation `t` of `geometry`.
    pub fn transformed_in(self, geometry: Geometry, t: u8) -> Extent {
        match geometry {
            Geometry::Square => self.transformed(t),
            Geometry::Hexagon => {
                // A turn or mirror of the hexagon maps each of the linear
                // forms i, j, i+j to plus or minus one of them, so the new
                // bounds are old ones, perhaps negated and swapped.
                let bounds = |a: i32, b: i32| -> (i32, i32) {
                    let (lo, hi, sign) = match (a, b) {
                        (1, 0) => (self.min_i, self.max_i, 1),
                        (-1, 0) => (self.min_i, self.max_i, -1),
                        (0, 1) => (self.min_j, self.max_j, 1),
                        (0, -1) => (self.min_j, self.max_j, -1),
                        (1, 1) => (self.min_s, self.max_s, 1),
                        (-1, -1) => (self.min_s, self.max_s, -1),
                        _ => unreachable!("a hexagon transformation permutes i, j and i+j"),
                    };
                    let (lo, hi) = (i32::from(lo), i32::from(hi));
                    if sign > 0 {
                        (lo, hi)
                    } else {
                        (-hi, -lo)
                    }
                };
                let (a, c) = geometry.apply(t, 1, 0);
                let (b, d) = geometry.apply(t, 0, 1);
                // i' = a·i + b·j, j' = c·i + d·j, i'+j' = (a+c)·i + (b+d)·j.
                let (min_i, max_i) = bounds(a, b);
                let (min_j, max_j) = bounds(c, d);
                let (min_s, max_s) = bounds(a + c, b + d);
                Extent::hexagonal(
                    min_i as i8,
                    min_j as i8,
                    max_i as i8,
                    max_j as i8,
                    min_s as i8,
                    max_s as i8,
                )
            }
        }
    }

    /// The box after transformation `t`.
    pub fn transformed(self, t: u8) -> Extent {
        let (a_i, a_j) = crate::transform::apply(t, self.min_i as i32, self.min_j as i32);
        let (b_i, b_j) = crate::transform::apply(t, self.max_i as i32, self.max_j as i32);
        Extent::new(
            a_i.min(b_i) as i8,
            a_j.min(b_j) as i8,
            a_i.max(b_i) as i8,
            a_j.max(b_j) as i8,
        )
    }
}

/// One transformation of one pattern, as the matcher tries it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    /// Index of the pattern in [`Tables::patterns`].
    pub pattern: u32,
    /// The transformation number in the tables' geometry: on the square
    /// GNU Go 2.6's, 0..8; on the hexagon `mkpat::geometry`'s, 0..12.
    pub trans: u8,
    /// Sides (see [`crate::transform::side`]) that must lie on the board edge.
    pub edges: u8,
    /// The transformed extent around the anchor.
    pub extent: Extent,
    /// The transformed move point, relative to the anchor.
    pub move_di: i8,
    pub move_dj: i8,
    /// Grid masks over the 4x4 window from (-1,-1) to (+2,+2) around the
    /// anchor, two bits a cell in reading order from the top bit: a point
    /// matches when `merged & and_mask == val_mask`.
    pub and_mask: u32,
    pub val_mask: u32,
}

/// Wind or moyo assistance: how nearby strength changes a pattern's value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Assistance {
    /// No assistance.
    None,
    /// The seed's wind: `uvalue·min(upower,|ucutoff|) + myvalue·min(mypower,|mycutoff|)`.
    Wind {
        ucutoff: i32,
        uvalue: i32,
        mycutoff: i32,
        myvalue: i32,
    },
    /// GNU Go 2.6's moyo assistance: `value·min(moyo, cutoff)`.
    Moyo { cutoff: i32, value: i32 },
}

impl Assistance {
    /// What this assistance adds at a move, given the opponent's and our
    /// measured power there (wind) and the moyo measure (moyo): the seed's
    /// `uvalue·min(upower,|ucutoff|) + myvalue·min(mypower,|mycutoff|)`.
    pub fn value(self, upower: i32, mypower: i32, moyo: i32) -> i32 {
        match self {
            Assistance::None => 0,
            Assistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            } => uvalue
                .saturating_mul(upower.min(ucutoff.saturating_abs()))
                .saturating_add(myvalue.saturating_mul(mypower.min(mycutoff.saturating_abs()))),
            Assistance::Moyo { cutoff, value } => value.saturating_mul(moyo.min(cutoff)),
        }
    }

    /// The most this assistance can add to a pattern's weight, in `i64`
    /// (products of two numbers in ±100000 do not fit in `i32`).
    pub const fn max_bonus(self) -> i64 {
        const fn pos(v: i64) -> i64 {
            if v > 0 {
                v
            } else {
                0
            }
        }
        match self {
            Assistance::None => 0,
            Assistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            } => {
                pos(uvalue as i64 * (ucutoff as i64).abs())
                    + pos(myvalue as i64 * (mycutoff as i64).abs())
            }
            Assistance::Moyo { cutoff, value } => cutoff as i64 * value as i64,
        }
    }
}

/// Classification letters, one bit each.
pub mod class {
    pub const S: u16 = 1 << 0;
    pub const N: u16 = 1 << 1;
    pub const BIG_O: u16 = 1 << 2;
    pub const SMALL_O: u16 = 1 << 3;
    pub const BIG_X: u16 = 1 << 4;
    pub const SMALL_X: u16 = 1 << 5;
    pub const D: u16 = 1 << 6;
    pub const C: u16 = 1 << 7;
    pub const B: u16 = 1 << 8;
    pub const A: u16 = 1 << 9;
    pub const L: u16 = 1 << 10;

    /// Letters in the order they are printed.
    pub const LETTERS: [(char, u16); 11] = [
        ('s', S),
        ('n', N),
        ('O', BIG_O),
        ('o', SMALL_O),
        ('X', BIG_X),
        ('x', SMALL_X),
        ('D', D),
        ('C', C),
        ('B', B),
        ('A', A),
        ('L', L),
    ];

    /// Classes whose value is not bounded by the pattern's weight: a
    /// best-first scan always runs them.
    pub const ALWAYS_RUN: u16 = D | A | L | C | B;

    pub fn from_char(c: char) -> Option<u16> {
        LETTERS.iter().find(|(l, _)| *l == c).map(|(_, b)| *b)
    }

    pub fn to_string(bits: u16) -> String {
        let s: String = LETTERS
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(l, _)| *l)
            .collect();
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    }
}

/// One compiled pattern: its identity, attributes and table ranges.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pattern {
    /// The name: the number of a `# pattern N` header, or a 2.6 `Pattern NAME`.
    pub name: Cow<'static, str>,
    /// Line of the header in the source database (1-based).
    pub line: u32,
    /// The declared symmetry class character.
    pub symmetry: char,
    /// The anchor's cell: [`Cell::Mine`] or [`Cell::Theirs`].
    pub anchor: Cell,
    /// The untransformed move point relative to the anchor.
    pub move_di: i8,
    pub move_dj: i8,
    /// The untransformed extent and edge sides.
    pub extent: Extent,
    pub edges: u8,
    /// The dialect record: what the engine's valuation reads.
    pub values: Values,
    /// The most this pattern can be worth, the sort key of the table (see
    /// [`Values::max_weight`]).
    pub max_weight: i64,
    /// A best-first scan runs this pattern even below its bound
    /// ([`Values::always_run`]).
    pub always_run: bool,
    /// Name of the helper function, if any.
    pub helper: Option<Cow<'static, str>>,
    /// The description written beside the diagram, if any.
    pub description: Cow<'static, str>,
    /// The 2.6 `;` constraint's text, for display; `Some` exactly when the
    /// pattern has a constraint (its checked form is in
    /// [`Database::constraints`], its compiled form in the generated
    /// `CONSTRAINTS` table).
    pub constraint: Option<Cow<'static, str>>,
    pub elements: Span32,
    pub variants: Span32,
}

/// A borrowed view of a complete set of tables: what the matcher reads.
/// `G` is the geometry they were compiled for ([`Square`] or
/// [`crate::geometry::Hexagon`]), so that tables of one geometry cannot be
/// matched on a board of another: a type error for generated tables, and
/// a [`GeometryMismatch`] from [`Database::tables_as`] for tables built in
/// memory.
#[derive(Debug)]
pub struct Tables<'a, G = Square> {
    pub patterns: &'a [Pattern],
    pub variants: &'a [Variant],
    pub elements: &'a [Element],
    pub shape: PhantomData<G>,
}

impl<G> Clone for Tables<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Tables<'_, G> {}

impl<'a, G: Shape> Tables<'a, G> {
    /// The tables over these arrays (what generated modules write).
    pub const fn new(
        patterns: &'a [Pattern],
        variants: &'a [Variant],
        elements: &'a [Element],
    ) -> Tables<'a, G> {
        Tables {
            patterns,
            variants,
            elements,
            shape: PhantomData,
        }
    }

    /// The geometry the tables were compiled for.
    pub const fn geometry(&self) -> Geometry {
        G::GEOMETRY
    }
}

impl<'a, G> Tables<'a, G> {
    pub fn elements_of(&self, p: &Pattern) -> &'a [Element] {
        &self.elements[p.elements.range()]
    }
    pub fn variants_of(&self, p: &Pattern) -> &'a [Variant] {
        &self.variants[p.variants.range()]
    }
    pub fn pattern_named(&self, name: &str) -> Option<(usize, &'a Pattern)> {
        self.patterns
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
    }
}

/// Tables owned in memory, as [`crate::compile`] builds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Database {
    /// The geometry the database declares.
    pub geometry: Geometry,
    /// The dialect it is written in (its patterns' [`Values`]).
    pub dialect: Dialect,
    pub patterns: Vec<Pattern>,
    pub variants: Vec<Variant>,
    pub elements: Vec<Element>,
    /// Each pattern's checked constraint, in the order of `patterns`, for
    /// katachi's interpreter.
    pub constraints: Vec<Option<crate::constraint::CheckedConstraint>>,
}

/// Tables of one geometry asked for as another's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GeometryMismatch {
    /// The database's geometry.
    pub found: Geometry,
    /// The geometry asked for (the board's).
    pub wanted: Geometry,
}

impl std::fmt::Display for GeometryMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the database is for {} boards, not {} ones",
            self.found.name(),
            self.wanted.name()
        )
    }
}

impl std::error::Error for GeometryMismatch {}

impl Database {
    /// The tables of a square database.
    ///
    /// # Panics
    /// When the database is not square: a caller that may hold either
    /// asks [`Database::tables_as`].
    pub fn tables(&self) -> Tables<'_> {
        self.tables_as::<Square>()
            .unwrap_or_else(|e| panic!("Database::tables: {e}"))
    }

    /// The tables whatever their geometry, untyped: for the tools that
    /// only read them (JSON, `mkpat show`), never for a matcher.
    pub fn view(&self) -> Tables<'_, ()> {
        Tables {
            patterns: &self.patterns,
            variants: &self.variants,
            elements: &self.elements,
            shape: PhantomData,
        }
    }

    /// The tables, typed for geometry `G`, or why they are not `G`'s.
    pub fn tables_as<G: Shape>(&self) -> Result<Tables<'_, G>, GeometryMismatch> {
        if self.geometry != G::GEOMETRY {
            return Err(GeometryMismatch {
                found: self.geometry,
                wanted: G::GEOMETRY,
            });
        }
        Ok(Tables::new(&self.patterns, &self.variants, &self.elements))
    }
}

/// The 4x4 window's cell index of a transformed offset, if inside it.
#[inline]
pub const fn grid_shift(ti: i32, tj: i32) -> Option<u32> {
    if ti < -1 || ti > 2 || tj < -1 || tj > 2 {
        return None;
    }
    let idx = ((ti + 1) * 4 + (tj + 1)) as u32;
    Some(30 - 2 * idx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_packing_round_trips() {
        for di in -20i8..=20 {
            for dj in [-18i8, -1, 0, 1, 18] {
                for cell in Cell::ALL {
                    let e = Element::new(di, dj, cell);
                    assert_eq!((e.di(), e.dj(), e.cell()), (di as i32, dj as i32, cell));
                }
            }
        }
    }

    #[test]
    fn assistance_follows_the_seed_formula_with_cutoffs() {
        let wind = Assistance::Wind {
            ucutoff: 10,
            uvalue: 1,
            mycutoff: -5,
            myvalue: 2,
        };
        // upower is cut at |ucutoff| = 10, mypower 3 is below |mycutoff|.
        assert_eq!(wind.value(15, 3, 99), 10 + 2 * 3);
        assert_eq!(wind.max_bonus(), 10 + 2 * 5);
        let moyo = Assistance::Moyo {
            cutoff: 4,
            value: 3,
        };
        assert_eq!(moyo.value(99, 99, 10), 12);
        assert_eq!(moyo.value(0, 0, 2), 6);
        assert_eq!(Assistance::None.value(5, 5, 5), 0);
    }

    #[test]
    fn off_board_fails_every_cell_but_blocked() {
        for cell in Cell::ALL {
            assert_eq!(cell.accepts(0b11), cell == Cell::Blocked, "{cell:?}");
        }
        assert!(Cell::Blocked.accepts(0b10));
        assert!(!Cell::Blocked.accepts(0b01) && !Cell::Blocked.accepts(0));
        assert!(Cell::NotTheirs.accepts(0b01) && Cell::NotTheirs.accepts(0));
        assert!(!Cell::NotTheirs.accepts(0b10));
        assert!(Cell::NotMine.accepts(0b10) && !Cell::NotMine.accepts(0b01));
    }

    #[test]
    fn grid_window_is_reading_order_from_the_top_bit() {
        assert_eq!(grid_shift(-1, -1), Some(30));
        assert_eq!(grid_shift(0, 0), Some(20));
        assert_eq!(grid_shift(2, 2), Some(0));
        assert_eq!(grid_shift(3, 0), None);
        assert_eq!(grid_shift(0, -2), None);
    }
}
