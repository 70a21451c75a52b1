//! Board geometries: the square and the hexagon, each with its
//! transformations, symmetry classes, adjacency, lines and edge sides.
//!
//! A geometry is what the pattern machinery assumes about the board: how
//! a diagram may be turned and mirrored (eight ways on the square, twelve
//! on the hexagon), which cells touch, along which directions stones make
//! a line, and how many sides a board has. Everything else — parsing,
//! checking, expansion, the 4x4 grid masks, the matcher — is written
//! against offsets `(i, j)` on a square array, so both geometries share
//! it: a hexagonal board is stored in **axial coordinates**, `i` the row
//! from the top and `j` a column that leans with the rows, which makes it
//! a square array in which each cell touches six of its eight square
//! neighbours (all but `(-1,-1)` and `(+1,+1)`).
//!
//! Drawn on the page, axial cell `(i, j)` sits at `x = j + i/2` (rows
//! offset by half a cell), `y = i`: the contest board's rows of 9, 10, …,
//! 17, …, 10, 9 cells. The three line directions are `(0,1)` (along a
//! row), `(1,0)` (down and right) and `(1,-1)` (down and left).
//!
//! The square keeps GNU Go 2.6's numbering of its eight transformations
//! ([`crate::transform`]), so conformance output is unchanged. The
//! hexagon's twelve are numbered here: `t` in `0..6` turns by `t`·60°
//! clockwise; `6 + k` mirrors left/right (in the vertical axis) and then
//! turns by `k`·60°.
//!
//! This module is part of the runtime half (no dependencies): the board,
//! the matcher and helpers use it as the compiler does.

use crate::transform;

/// The largest side of a board's square array: square boards up to
/// 26x26, hexagonal boards up to side 13 (an axial array of 25x25; the
/// contest board, side 9, is 17x17). The compiler's largest diagram and
/// the runtime board share it.
pub const MAX_SIDE: usize = 26;

/// A board geometry.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub enum Geometry {
    /// Square cells, four sides, eight transformations.
    #[default]
    Square,
    /// Hexagonal cells in axial coordinates, six sides, twelve
    /// transformations.
    Hexagon,
}

/// A geometry as a type, so that tables and boards of different
/// geometries are different types ([`crate::tables::Tables`], katachi's
/// `Board`, the matcher).
pub trait Shape: Copy + Default + std::fmt::Debug + Send + Sync + 'static {
    const GEOMETRY: Geometry;
}

/// The square geometry as a type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Square;

/// The hexagonal geometry as a type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hexagon;

impl Shape for Square {
    const GEOMETRY: Geometry = Geometry::Square;
}

impl Shape for Hexagon {
    const GEOMETRY: Geometry = Geometry::Hexagon;
}

/// A set of transformations of one geometry, one bit per number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Symmetries(pub u16);

/// One symmetry class: the letter a database declares, the group of
/// transformations that leave a diagram of the class unchanged, and what
/// it means in words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClassDef {
    pub letter: char,
    pub group: Symmetries,
    pub description: &'static str,
}

// Axial turn by 60° clockwise on the page, and the left/right mirror.
const fn hex_turn(i: i32, j: i32) -> (i32, i32) {
    (i + j, -i)
}
const fn hex_mirror(i: i32, j: i32) -> (i32, i32) {
    (i, -i - j)
}

/// The square's classes: GNU Go's letters (see [`transform::SymmetryClass`]).
const SQUARE_CLASSES: [ClassDef; 7] = [
    ClassDef {
        letter: '8',
        group: Symmetries(0b0000_0001),
        description: "no symmetry: all eight transformations are tried",
    },
    ClassDef {
        letter: '|',
        group: Symmetries(1 | 1 << 7),
        description: "symmetric about a vertical axis",
    },
    ClassDef {
        letter: '-',
        group: Symmetries(1 | 1 << 5),
        description: "symmetric about a horizontal axis",
    },
    ClassDef {
        letter: '\\',
        group: Symmetries(1 | 1 << 6),
        description: "symmetric about the main diagonal",
    },
    ClassDef {
        letter: '/',
        group: Symmetries(1 | 1 << 4),
        description: "symmetric about the anti-diagonal",
    },
    ClassDef {
        letter: 'X',
        group: Symmetries(1 | 1 << 2 | 1 << 4 | 1 << 6),
        description: "symmetric about both diagonals",
    },
    ClassDef {
        letter: '+',
        group: Symmetries(1 | 1 << 2 | 1 << 5 | 1 << 7),
        description: "symmetric about both axes",
    },
];

/// Bits of the hexagon's transformations, for the class table: turns by
/// `k`·60° and mirrors `6 + k`.
const fn turns(ks: &[u8]) -> u16 {
    let mut bits = 0;
    let mut n = 0;
    while n < ks.len() {
        bits |= 1 << ks[n];
        n += 1;
    }
    bits
}

/// The hexagon's sixteen classes, one per subgroup of its twelve
/// transformations (`docs/language.md`, "Hexagonal diagrams"). The six
/// mirrors: 6 in the vertical axis `|`, 7 in the down-left line of cells
/// `/`, 8 in the axis square to the down-right line `(`, 9 in the row `-`,
/// 10 in the axis square to the down-left line `)`, 11 in the down-right
/// line `\` (the tests check each against the cells on its axis).
const HEX_CLASSES: [ClassDef; 16] = [
    ClassDef {
        letter: '1',
        group: Symmetries(turns(&[0])),
        description: "no symmetry: all twelve transformations are tried",
    },
    ClassDef {
        letter: '2',
        group: Symmetries(turns(&[0, 3])),
        description: "unchanged by a half turn only",
    },
    ClassDef {
        letter: '3',
        group: Symmetries(turns(&[0, 2, 4])),
        description: "unchanged by a third of a turn only",
    },
    ClassDef {
        letter: '6',
        group: Symmetries(turns(&[0, 1, 2, 3, 4, 5])),
        description: "unchanged by a sixth of a turn, with no mirror",
    },
    ClassDef {
        letter: '|',
        group: Symmetries(turns(&[0, 6])),
        description: "symmetric about the vertical axis",
    },
    ClassDef {
        letter: '-',
        group: Symmetries(turns(&[0, 9])),
        description: "symmetric about the row through the anchor",
    },
    ClassDef {
        letter: '\\',
        group: Symmetries(turns(&[0, 11])),
        description: "symmetric about the line of cells going down and right",
    },
    ClassDef {
        letter: '/',
        group: Symmetries(turns(&[0, 7])),
        description: "symmetric about the line of cells going down and left",
    },
    ClassDef {
        letter: '(',
        group: Symmetries(turns(&[0, 8])),
        description: "symmetric about the axis square to the `\\` line",
    },
    ClassDef {
        letter: ')',
        group: Symmetries(turns(&[0, 10])),
        description: "symmetric about the axis square to the `/` line",
    },
    ClassDef {
        letter: '+',
        group: Symmetries(turns(&[0, 3, 6, 9])),
        description: "symmetric about the row and the vertical axis",
    },
    ClassDef {
        letter: 'X',
        group: Symmetries(turns(&[0, 3, 8, 11])),
        description: "symmetric about the `\\` line and the axis square to it",
    },
    ClassDef {
        letter: 'Y',
        group: Symmetries(turns(&[0, 3, 7, 10])),
        description: "symmetric about the `/` line and the axis square to it",
    },
    ClassDef {
        letter: 'T',
        group: Symmetries(turns(&[0, 2, 4, 7, 9, 11])),
        description: "symmetric about the three lines of cells through the anchor",
    },
    ClassDef {
        letter: 'V',
        group: Symmetries(turns(&[0, 2, 4, 6, 8, 10])),
        description: "symmetric about the three axes between the lines of cells",
    },
    ClassDef {
        letter: 'O',
        group: Symmetries(0x0fff),
        description: "full symmetry: one placement is tried",
    },
];

const HEX_NAMES: [&str; 12] = [
    "identity",
    "turn 60° clockwise",
    "turn 120° clockwise",
    "turn 180°",
    "turn 120° counter-clockwise",
    "turn 60° counter-clockwise",
    "mirror left/right",
    "mirror left/right, turn 60° clockwise",
    "mirror left/right, turn 120° clockwise",
    "mirror left/right, turn 180°",
    "mirror left/right, turn 120° counter-clockwise",
    "mirror left/right, turn 60° counter-clockwise",
];

impl Geometry {
    pub const ALL: [Geometry; 2] = [Geometry::Square, Geometry::Hexagon];

    /// The name a database declares (`square`, `hexagon`).
    pub const fn name(self) -> &'static str {
        match self {
            Geometry::Square => "square",
            Geometry::Hexagon => "hexagon",
        }
    }

    pub fn from_name(name: &str) -> Option<Geometry> {
        Geometry::ALL.into_iter().find(|g| g.name() == name)
    }

    /// How many transformations: 8 or 12.
    pub const fn order(self) -> u8 {
        match self {
            Geometry::Square => 8,
            Geometry::Hexagon => 12,
        }
    }

    /// Every transformation.
    pub const fn all(self) -> Symmetries {
        Symmetries((1 << self.order()) - 1)
    }

    /// Maps offset `(di, dj)` through transformation `t` (`0..order`).
    #[inline]
    pub const fn apply(self, t: u8, di: i32, dj: i32) -> (i32, i32) {
        match self {
            Geometry::Square => transform::apply(t, di, dj),
            Geometry::Hexagon => {
                let (mut i, mut j) = if t >= 6 { hex_mirror(di, dj) } else { (di, dj) };
                let mut k = t % 6;
                while k > 0 {
                    (i, j) = hex_turn(i, j);
                    k -= 1;
                }
                (i, j)
            }
        }
    }

    /// The transformation equal to applying `first`, then `second`.
    pub fn compose(self, first: u8, second: u8) -> u8 {
        // Two independent offsets fix a linear map.
        let probe = |t: u8| (self.apply(t, 1, 0), self.apply(t, 0, 1));
        let (a, b) = probe(first);
        let target = (self.apply(second, a.0, a.1), self.apply(second, b.0, b.1));
        (0..self.order())
            .find(|&t| probe(t) == target)
            .expect("the transformations form a group")
    }

    /// The transformation undoing `t`.
    pub fn inverse(self, t: u8) -> u8 {
        (0..self.order())
            .find(|&u| self.compose(t, u) == 0)
            .expect("every transformation has an inverse")
    }

    /// Maps a set of edge sides ([`transform::side`]) through
    /// transformation `t`.
    pub fn transform_sides(self, t: u8, sides: u8) -> u8 {
        use transform::side::*;
        match self {
            Geometry::Square => transform::transform_sides(t, sides),
            Geometry::Hexagon => {
                // Each side is one bound of i, j or i+j; a transformation
                // permutes the bounds as it permutes an extent's.
                let flag = |bit: u8| i8::from(sides & bit != 0);
                let e = crate::tables::Extent::hexagonal(
                    -flag(NORTH),
                    -flag(WEST),
                    flag(SOUTH),
                    flag(EAST),
                    -flag(LEAST_SUM),
                    flag(MOST_SUM),
                )
                .transformed_in(self, t);
                [
                    (e.min_i < 0, NORTH),
                    (e.min_j < 0, WEST),
                    (e.max_i > 0, SOUTH),
                    (e.max_j > 0, EAST),
                    (e.min_s < 0, LEAST_SUM),
                    (e.max_s > 0, MOST_SUM),
                ]
                .into_iter()
                .filter(|(on, _)| *on)
                .fold(0, |acc, (_, bit)| acc | bit)
            }
        }
    }

    /// A human name for transformation `t`.
    pub fn transform_name(self, t: u8) -> &'static str {
        match self {
            Geometry::Square => transform::TRANSFORM_NAMES[t as usize],
            Geometry::Hexagon => HEX_NAMES[t as usize],
        }
    }

    /// The cells that touch a cell (share an edge): four on the square
    /// (Go's liberties), six on the hexagon.
    pub const fn adjacent(self) -> &'static [(i32, i32)] {
        match self {
            Geometry::Square => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
            Geometry::Hexagon => &[(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)],
        }
    }

    /// The directions along which stones make a line, one per axis: four
    /// on the square (row, column, both diagonals), three on the hexagon.
    pub const fn line_directions(self) -> &'static [(i32, i32)] {
        match self {
            Geometry::Square => &[(0, 1), (1, 0), (1, 1), (1, -1)],
            Geometry::Hexagon => &[(0, 1), (1, 0), (1, -1)],
        }
    }

    /// The distance in steps between cells `(di, dj)` apart along
    /// [`Geometry::adjacent`] moves.
    pub const fn distance(self, di: i32, dj: i32) -> i32 {
        match self {
            Geometry::Square => di.abs() + dj.abs(),
            Geometry::Hexagon => (di.abs() + dj.abs() + (di + dj).abs()) / 2,
        }
    }

    /// The symmetry classes a database of this geometry may declare.
    pub const fn classes(self) -> &'static [ClassDef] {
        match self {
            Geometry::Square => &SQUARE_CLASSES,
            Geometry::Hexagon => &HEX_CLASSES,
        }
    }

    /// The class declared by `letter`, if this geometry has it.
    pub fn class(self, letter: char) -> Option<&'static ClassDef> {
        self.classes().iter().find(|c| c.letter == letter)
    }

    /// The class whose group is exactly `group`, if one is.
    pub fn class_of_group(self, group: Symmetries) -> Option<&'static ClassDef> {
        self.classes().iter().find(|c| c.group == group)
    }

    /// The class of no symmetry (every transformation tried).
    pub fn no_symmetry(self) -> &'static ClassDef {
        &self.classes()[0]
    }

    /// The largest class whose group lies in `group`: the class that holds
    /// for a diagram with that symmetry.
    pub fn largest_class_within(self, group: Symmetries) -> &'static ClassDef {
        self.classes()
            .iter()
            .filter(|c| c.group.is_subset_of(group))
            .max_by_key(|c| c.group.len())
            .unwrap_or(self.no_symmetry())
    }

    /// A symmetry group in words, for diagnostics.
    pub fn describe_group(self, group: Symmetries) -> String {
        if let Some(class) = self.class_of_group(group) {
            return if class.group == Symmetries::IDENTITY {
                format!("no symmetry (class `{}`)", class.letter)
            } else {
                format!("the symmetry of class `{}`", class.letter)
            };
        }
        match (self, group.0) {
            (Geometry::Square, 0b0000_0101) => "only 180° rotational symmetry".to_string(),
            (Geometry::Square, 0b0000_1111) => "90° rotational symmetry".to_string(),
            (Geometry::Square, 0xff) => "full symmetry (all eight transformations)".to_string(),
            _ => format!(
                "the symmetry group {{{}}}",
                group
                    .iter()
                    .map(|t| self.transform_name(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The letters of the classes, for "one of …" notes.
    pub fn class_letters(self) -> String {
        self.classes()
            .iter()
            .map(|c| format!("`{}`", c.letter))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Symmetries {
    pub const IDENTITY: Symmetries = Symmetries(1);

    pub const fn contains(self, t: u8) -> bool {
        self.0 & (1 << t) != 0
    }
    pub const fn is_subset_of(self, other: Symmetries) -> bool {
        self.0 & !other.0 == 0
    }
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..16).filter(move |&t| self.contains(t))
    }

    /// Is this set closed under composition in `g` (a group)?
    pub fn is_group(self, g: Geometry) -> bool {
        self.contains(0)
            && self
                .iter()
                .all(|a| self.iter().all(|b| self.contains(g.compose(a, b))))
    }

    /// One transformation per left coset `t·G` of this group `G` in `g`,
    /// smallest number first: the distinct placements of a diagram whose
    /// symmetry group is `G`.
    pub fn coset_representatives(self, g: Geometry) -> Vec<u8> {
        let mut covered = 0u16;
        let mut reps = Vec::new();
        for t in 0..g.order() {
            if covered & (1 << t) != 0 {
                continue;
            }
            reps.push(t);
            for s in self.iter() {
                covered |= 1 << g.compose(s, t);
            }
        }
        reps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell's position on the page: `x` in half cells, `y` in rows.
    fn page(g: Geometry, i: i32, j: i32) -> (i32, i32) {
        match g {
            Geometry::Square => (2 * j, i),
            Geometry::Hexagon => (2 * j + i, i),
        }
    }

    #[test]
    fn the_square_is_gnu_go_s_numbering() {
        for t in 0..8 {
            for (i, j) in [(2, 3), (-1, 4), (0, -5)] {
                assert_eq!(Geometry::Square.apply(t, i, j), transform::apply(t, i, j));
            }
            for u in 0..8 {
                assert_eq!(Geometry::Square.compose(t, u), transform::compose(t, u));
            }
        }
        for c in transform::SymmetryClass::ALL {
            let def = Geometry::Square.class(c.as_char()).unwrap();
            assert_eq!(def.group.0, u16::from(c.group().0), "{c:?}");
        }
    }

    #[test]
    fn every_transformation_is_distinct_and_keeps_distances_and_lines() {
        for g in Geometry::ALL {
            let mut seen = Vec::new();
            for t in 0..g.order() {
                let images = (g.apply(t, 1, 0), g.apply(t, 0, 1));
                assert!(!seen.contains(&images), "{g:?} {t} repeats");
                seen.push(images);
                for (i, j) in [(1, 2), (-3, 1), (2, -2), (0, 4)] {
                    let (a, b) = g.apply(t, i, j);
                    assert_eq!(g.distance(a, b), g.distance(i, j), "{g:?} {t}");
                }
                // Adjacent cells stay adjacent, lines stay lines.
                for &(i, j) in g.adjacent() {
                    assert!(g.adjacent().contains(&g.apply(t, i, j)), "{g:?} {t}");
                }
                for &(i, j) in g.line_directions() {
                    let (a, b) = g.apply(t, i, j);
                    assert!(
                        g.line_directions().contains(&(a, b))
                            || g.line_directions().contains(&(-a, -b)),
                        "{g:?} {t}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_hexagon_s_transformations_turn_and_mirror_the_page() {
        let h = Geometry::Hexagon;
        // East (0,1) turns 60° clockwise to down-right (1,0), and six turns
        // are the identity.
        assert_eq!(h.apply(1, 0, 1), (1, 0));
        assert_eq!(h.apply(2, 0, 1), (1, -1));
        assert_eq!(h.apply(3, 0, 1), (0, -1));
        assert_eq!(h.compose(5, 1), 0);
        // The mirror keeps rows and flips x on the page.
        for (i, j) in [(1, 0), (2, -1), (-1, 3)] {
            let (a, b) = h.apply(6, i, j);
            let (x, y) = page(h, i, j);
            assert_eq!(page(h, a, b), (-x, y));
        }
    }

    #[test]
    fn compose_and_inverse_agree_with_apply() {
        for g in Geometry::ALL {
            for a in 0..g.order() {
                for b in 0..g.order() {
                    let c = g.compose(a, b);
                    let (x, y) = g.apply(a, 3, -5);
                    assert_eq!(g.apply(b, x, y), g.apply(c, 3, -5));
                }
                let (x, y) = g.apply(a, 4, 1);
                assert_eq!(g.apply(g.inverse(a), x, y), (4, 1));
            }
        }
    }

    /// Every subset that is a group, by brute force.
    fn subgroups(g: Geometry) -> Vec<Symmetries> {
        (0..1u32 << g.order())
            .map(|b| Symmetries(b as u16))
            .filter(|s| s.is_group(g))
            .collect()
    }

    #[test]
    fn each_class_is_a_subgroup_and_the_hexagon_has_one_per_subgroup() {
        for g in Geometry::ALL {
            let all = subgroups(g);
            let mut letters = Vec::new();
            for c in g.classes() {
                assert!(c.group.is_group(g), "{g:?} `{}`", c.letter);
                assert!(!letters.contains(&c.letter));
                letters.push(c.letter);
                // Placements tried: one per coset.
                let reps = c.group.coset_representatives(g);
                assert_eq!(reps.len() * c.group.len(), g.order() as usize);
            }
            if g == Geometry::Hexagon {
                assert_eq!(all.len(), 16);
                for s in all {
                    assert!(g.class_of_group(s).is_some(), "{s:?} has no letter");
                }
            }
        }
    }

    #[test]
    fn each_hexagonal_mirror_class_keeps_its_axis() {
        let h = Geometry::Hexagon;
        // A cell on each axis, as (i, j), and the letter of the mirror
        // that must fix it.
        let axes = [
            ('-', (0, 1)),   // the row
            ('\\', (1, 0)),  // the line going down and right
            ('/', (1, -1)),  // the line going down and left
            ('|', (-2, 1)),  // straight up, two rows
            ('(', (1, -2)),  // square to `\`: down-left, shallow
            (')', (-1, -1)), // square to `/`: up-left, shallow
        ];
        for (letter, (i, j)) in axes {
            let class = h.class(letter).unwrap();
            let mirror = class.group.iter().find(|&t| t != 0).unwrap();
            assert!(mirror >= 6, "`{letter}` is a mirror");
            assert_eq!(h.apply(mirror, i, j), (i, j), "`{letter}` fixes its axis");
            assert_eq!(h.apply(mirror, 2 * i, 2 * j), (2 * i, 2 * j));
        }
        // `(` is square to `\`: on the page, the dot product is 0.
        let dot = |a: (i32, i32), b: (i32, i32)| {
            let (p, q) = (page(h, a.0, a.1), page(h, b.0, b.1));
            // x in half cells, y in rows of height √3/2 cells: scale y².
            p.0 * q.0 + 3 * p.1 * q.1
        };
        assert_eq!(dot((1, 0), (1, -2)), 0);
        assert_eq!(dot((1, -1), (-1, -1)), 0);
        assert_eq!(dot((0, 1), (-2, 1)), 0);
    }
}

#[cfg(test)]
mod side_tests {
    use super::*;
    use crate::transform::side::*;

    #[test]
    fn hexagonal_sides_turn_with_the_board() {
        let h = Geometry::Hexagon;
        // Turning 60° clockwise: the top side goes to the upper right, the
        // upper right to the lower right, and so round.
        let round = [NORTH, EAST, MOST_SUM, SOUTH, WEST, LEAST_SUM];
        for k in 0..6 {
            assert_eq!(h.transform_sides(1, round[k]), round[(k + 1) % 6], "{k}");
        }
        // The left/right mirror keeps top and bottom, swaps the others.
        assert_eq!(h.transform_sides(6, NORTH | SOUTH), NORTH | SOUTH);
        assert_eq!(h.transform_sides(6, WEST), MOST_SUM);
        assert_eq!(h.transform_sides(6, LEAST_SUM), EAST);
        for t in 0..12 {
            let back = h.transform_sides(h.inverse(t), h.transform_sides(t, NORTH | WEST));
            assert_eq!(back, NORTH | WEST);
        }
    }
}
