//! Residual windows: the elements of a variant outside the anchor's 4x4
//! window, covered by as few extra 4x4 windows as a greedy choice finds.

use mkpat::tables::{grid_shift, Extent};

/// A variant as the matcher checks it after the grid test.
#[derive(Clone, Copy, Debug)]
pub(super) struct Check {
    pub(super) pattern: u32,
    pub(super) trans: u8,
    /// Where the anchor lies from the point the variant was found from
    /// (its origin: the anchor itself in the anchor index, so `(0, 0)`).
    pub(super) anchor_di: i8,
    pub(super) anchor_dj: i8,
    /// The move point, from the origin.
    pub(super) move_di: i8,
    pub(super) move_dj: i8,
    /// Range in the matcher's residual windows: extra windows covering the
    /// transformed elements outside the origin's 4x4 window.
    pub(super) residual_start: u32,
    pub(super) residual_len: u16,
}

/// A second grid test for the elements outside the anchor's window: the
/// masks of the 4x4 window around the point at `(di, dj)` from the anchor.
/// That point lies inside the variant's extent, so once the extent test
/// passed it is on the board and has a composite.
#[derive(Clone, Copy, Debug)]
pub(super) struct Residual {
    pub(super) di: i8,
    pub(super) dj: i8,
    pub(super) and: u32,
    pub(super) val: u32,
}

/// Covers the elements outside the anchor's window (transformed offsets
/// and 2-bit tests) with as few extra 4x4 windows as a greedy choice
/// finds, each centred so that its base point is one of the elements and
/// so inside the extent. Windows holding stones come first: most points
/// are empty, so a stone test rejects soonest (seed iv).
pub(super) fn cover_with_windows(outside: &[(i32, i32, u32, u32)], x: Extent) -> Vec<Residual> {
    let mut left: Vec<(i32, i32, u32, u32)> = outside.to_vec();
    let mut out = Vec::new();
    // A stone test (and 11, val 01 or 10) counts more than an empty or
    // not-colour test.
    let weight = |e: &(i32, i32, u32, u32)| if e.2 == 0b11 && e.3 != 0 { 4 } else { 1 };
    while !left.is_empty() {
        let mut best: Option<((i32, i32), u32)> = None;
        for &(ei, ej, _, _) in &left {
            for r in -1..=2 {
                for c in -1..=2 {
                    let base = (ei - r, ej - c);
                    // The base must be a point the extent holds, to be on
                    // the board once the extent test passed.
                    if !x.contains(base.0, base.1) {
                        continue;
                    }
                    let score: u32 = left
                        .iter()
                        .filter(|o| grid_shift(o.0 - base.0, o.1 - base.1).is_some())
                        .map(weight)
                        .sum();
                    if best.is_none_or(|(_, s)| score > s) {
                        best = Some((base, score));
                    }
                }
            }
        }
        let ((bi, bj), _) = best.expect("some element is left");
        let mut w = Residual {
            di: bi as i8,
            dj: bj as i8,
            and: 0,
            val: 0,
        };
        left.retain(|&(ei, ej, and, val)| match grid_shift(ei - bi, ej - bj) {
            Some(s) => {
                w.and |= and << s;
                w.val |= val << s;
                false
            }
            None => true,
        });
        out.push(w);
    }
    out
}
