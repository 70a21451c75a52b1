//! The eight transformations of the square board and the symmetry classes.
//!
//! Numbering follows GNU Go 2.6 (see `shared/conformance/README.md`), so that
//! a match printed by katachi can be diffed against one printed by GNU Go.
//! Offsets are `(i, j)`: `i` counts rows downwards, `j` columns rightwards.
//! This module is shared by the compiler (expansion, symmetry checks), the
//! generated tables and the runtime matcher (helpers' `offset()`), which is
//! why it has no dependencies.

/// `(a, b, c, d)` such that `(i, j)` goes to `(a*i + b*j, c*i + d*j)`.
const MATRICES: [[i32; 4]; 8] = [
    [1, 0, 0, 1],   // 0 identity
    [0, 1, -1, 0],  // 1 (j, -i): rotate 90 degrees clockwise
    [-1, 0, 0, -1], // 2 (-i, -j): rotate 180 degrees
    [0, -1, 1, 0],  // 3 (-j, i): rotate 90 degrees counter-clockwise
    [0, -1, -1, 0], // 4 (-j, -i): reflect in the anti-diagonal
    [-1, 0, 0, 1],  // 5 (-i, j): flip upside down
    [0, 1, 1, 0],   // 6 (j, i): transpose
    [1, 0, 0, -1],  // 7 (i, -j): mirror left/right
];

/// A human name for each transformation, indexed by its number.
pub const TRANSFORM_NAMES: [&str; 8] = [
    "identity",
    "rotate 90° clockwise",
    "rotate 180°",
    "rotate 90° counter-clockwise",
    "reflect in the anti-diagonal",
    "flip upside down",
    "transpose",
    "mirror left/right",
];

/// Maps a pattern-relative offset through transformation `t` (0..8).
///
/// This is the seed's `offset()`: helpers and constraints describe points in
/// the untransformed diagram and the matcher reports the transformation it
/// matched in.
#[inline]
pub const fn apply(t: u8, di: i32, dj: i32) -> (i32, i32) {
    let m = MATRICES[(t & 7) as usize];
    (m[0] * di + m[1] * dj, m[2] * di + m[3] * dj)
}

/// The transformation equal to applying `first`, then `second`.
pub fn compose(first: u8, second: u8) -> u8 {
    let probe = |t: u8| (apply(t, 1, 0), apply(t, 0, 1));
    let target = {
        let (a, b) = probe(first);
        (apply(second, a.0, a.1), apply(second, b.0, b.1))
    };
    (0..8)
        .find(|&t| probe(t) == target)
        .expect("the eight transformations form a group")
}

/// The transformation undoing `t`.
pub fn inverse(t: u8) -> u8 {
    (0..8)
        .find(|&u| compose(t, u) == 0)
        .expect("every transformation has an inverse")
}

/// Sides of a pattern that must lie on the board edge, as a bit set.
///
/// On a hexagonal board (axial coordinates, [`crate::geometry`]) the same
/// four bits are the sides where `i` or `j` is least or greatest — the top
/// and bottom rows, the lower-left side (`WEST`, least `j`) and the
/// upper-right side (`EAST`, greatest `j`) — and two more bound `i + j`:
/// the upper-left side (`LEAST_SUM`) and the lower-right (`MOST_SUM`).
pub mod side {
    pub const NORTH: u8 = 1;
    pub const SOUTH: u8 = 2;
    pub const WEST: u8 = 4;
    pub const EAST: u8 = 8;
    pub const LEAST_SUM: u8 = 16;
    pub const MOST_SUM: u8 = 32;
}

/// Maps a set of edge sides through transformation `t`.
pub fn transform_sides(t: u8, sides: u8) -> u8 {
    const DIRS: [(u8, (i32, i32)); 4] = [
        (side::NORTH, (-1, 0)),
        (side::SOUTH, (1, 0)),
        (side::WEST, (0, -1)),
        (side::EAST, (0, 1)),
    ];
    let mut out = 0;
    for (bit, (di, dj)) in DIRS {
        if sides & bit != 0 {
            let d = apply(t, di, dj);
            out |= DIRS
                .iter()
                .find(|(_, v)| *v == d)
                .map(|(b, _)| *b)
                .unwrap_or(0);
        }
    }
    out
}

/// A set of transformations, one bit per transformation number.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TransformSet(pub u8);

impl TransformSet {
    pub const IDENTITY: TransformSet = TransformSet(1);
    pub const ALL: TransformSet = TransformSet(0xff);

    pub fn contains(self, t: u8) -> bool {
        self.0 & (1 << t) != 0
    }
    pub fn is_subset_of(self, other: TransformSet) -> bool {
        self.0 & !other.0 == 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..8).filter(move |&t| self.contains(t))
    }

    /// One transformation per left coset `t·G` of this group `G`, smallest
    /// number first: the distinct placements of a diagram whose symmetry
    /// group is `G`. Applying `t∘g` places a `G`-symmetric diagram exactly
    /// as `t` does, so trying more than one per coset repeats matches.
    pub fn coset_representatives(self) -> Vec<u8> {
        let mut covered = 0u8;
        let mut reps = Vec::new();
        for t in 0..8u8 {
            if covered & (1 << t) != 0 {
                continue;
            }
            reps.push(t);
            for g in self.iter() {
                covered |= 1 << compose(g, t);
            }
        }
        reps
    }
}

/// The symmetry classes of the attribute line's first field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SymmetryClass {
    /// `8`: no symmetry, all eight transformations are tried.
    None,
    /// `|`: symmetric about a vertical axis.
    Vertical,
    /// `-`: symmetric about a horizontal axis.
    Horizontal,
    /// `\`: symmetric about the main diagonal.
    Diagonal,
    /// `/`: symmetric about the anti-diagonal.
    AntiDiagonal,
    /// `X`: symmetric about both diagonals.
    BothDiagonals,
    /// `+`: symmetric about both axes.
    BothAxes,
}

impl SymmetryClass {
    pub const ALL: [SymmetryClass; 7] = [
        SymmetryClass::None,
        SymmetryClass::Vertical,
        SymmetryClass::Horizontal,
        SymmetryClass::Diagonal,
        SymmetryClass::AntiDiagonal,
        SymmetryClass::BothDiagonals,
        SymmetryClass::BothAxes,
    ];

    pub fn from_char(c: char) -> Option<SymmetryClass> {
        Some(match c {
            '8' => SymmetryClass::None,
            '|' => SymmetryClass::Vertical,
            '-' => SymmetryClass::Horizontal,
            '\\' => SymmetryClass::Diagonal,
            '/' => SymmetryClass::AntiDiagonal,
            'X' => SymmetryClass::BothDiagonals,
            '+' => SymmetryClass::BothAxes,
            _ => return None,
        })
    }

    pub fn as_char(self) -> char {
        match self {
            SymmetryClass::None => '8',
            SymmetryClass::Vertical => '|',
            SymmetryClass::Horizontal => '-',
            SymmetryClass::Diagonal => '\\',
            SymmetryClass::AntiDiagonal => '/',
            SymmetryClass::BothDiagonals => 'X',
            SymmetryClass::BothAxes => '+',
        }
    }

    /// The transformations that leave a diagram of this class unchanged.
    pub fn group(self) -> TransformSet {
        TransformSet(match self {
            SymmetryClass::None => 0b0000_0001,
            SymmetryClass::Vertical => 1 | 1 << 7,
            SymmetryClass::Horizontal => 1 | 1 << 5,
            SymmetryClass::Diagonal => 1 | 1 << 6,
            SymmetryClass::AntiDiagonal => 1 | 1 << 4,
            SymmetryClass::BothDiagonals => 1 | 1 << 2 | 1 << 4 | 1 << 6,
            SymmetryClass::BothAxes => 1 | 1 << 2 | 1 << 5 | 1 << 7,
        })
    }

    /// The class whose group is exactly `group`, if one is.
    pub fn for_group(group: TransformSet) -> Option<SymmetryClass> {
        SymmetryClass::ALL.into_iter().find(|c| c.group() == group)
    }

    /// The transformations tried for a pattern of this class, in GNU Go's
    /// numbering: 8, 4 or 2 of them.
    pub fn transformations(self) -> Vec<u8> {
        self.group().coset_representatives()
    }
}

/// Describes a symmetry group in words, for diagnostics.
pub fn describe_group(group: TransformSet) -> String {
    if let Some(class) = SymmetryClass::for_group(group) {
        return match class {
            SymmetryClass::None => "no symmetry (class `8`)".to_string(),
            c => format!("the symmetry of class `{}`", c.as_char()),
        };
    }
    match group.0 {
        0b0000_0101 => "only 180° rotational symmetry".to_string(),
        0b0000_1111 => "90° rotational symmetry".to_string(),
        0xff => "full symmetry (all eight transformations)".to_string(),
        _ => format!("the symmetry group {:#010b}", group.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_conformance_readme() {
        assert_eq!(apply(0, 2, 3), (2, 3));
        assert_eq!(apply(1, 2, 3), (3, -2));
        assert_eq!(apply(2, 2, 3), (-2, -3));
        assert_eq!(apply(3, 2, 3), (-3, 2));
        assert_eq!(apply(4, 2, 3), (-3, -2));
        assert_eq!(apply(5, 2, 3), (-2, 3));
        assert_eq!(apply(6, 2, 3), (3, 2));
        assert_eq!(apply(7, 2, 3), (2, -3));
    }

    #[test]
    fn compose_and_inverse_agree_with_apply() {
        for a in 0..8 {
            for b in 0..8 {
                let c = compose(a, b);
                let (x, y) = apply(a, 3, -5);
                assert_eq!(apply(b, x, y), apply(c, 3, -5));
            }
            let (x, y) = apply(a, 4, 1);
            assert_eq!(apply(inverse(a), x, y), (4, 1));
        }
    }

    #[test]
    fn class_transformations_are_gnugo_s() {
        assert_eq!(
            SymmetryClass::None.transformations(),
            (0..8).collect::<Vec<_>>()
        );
        for c in "|-\\/".chars() {
            assert_eq!(
                SymmetryClass::from_char(c).unwrap().transformations(),
                vec![0, 1, 2, 3],
                "class {c}"
            );
        }
        for c in "X+".chars() {
            assert_eq!(
                SymmetryClass::from_char(c).unwrap().transformations(),
                vec![0, 1]
            );
        }
    }

    #[test]
    fn class_groups_are_closed() {
        for class in SymmetryClass::ALL {
            let g = class.group();
            for a in g.iter() {
                for b in g.iter() {
                    assert!(g.contains(compose(a, b)), "{class:?}");
                }
            }
        }
    }

    #[test]
    fn sides_follow_the_transformation() {
        use side::*;
        assert_eq!(transform_sides(1, NORTH | WEST), EAST | NORTH);
        assert_eq!(transform_sides(7, WEST), EAST);
        assert_eq!(transform_sides(5, NORTH), SOUTH);
        assert_eq!(transform_sides(6, NORTH), WEST);
    }
}
