//! A variant as the matcher holds it, seen from one of its stones (its
//! origin): the bucket key and grid masks of the 4x4 window around that
//! stone, the placement lanes and residual windows relative to it, and
//! where the anchor and the move lie from it. The anchor index takes the
//! anchor as every variant's origin (so that a match is found from the
//! point it is anchored on); the key-stone index of full scans takes each
//! variant's most selective stone ([`key_stone`]), so that fewer variants
//! are tried at each board point.

use mkpat::geometry::Shape;
use mkpat::tables::{grid_shift, Cell, Extent, Tables, Variant};
use mkpat::transform::side;

use super::index::{allowed_values, outer_of, sharpen, Keyed, KEY_CELLS};
use super::lanes::{lanes, Place};
use super::residual::{cover_with_windows, Check, Residual};

/// Everything the matcher keeps of one variant seen from one origin.
pub(super) struct Held {
    pub(super) check: Check,
    pub(super) place: Place,
    pub(super) residual: Vec<Residual>,
    pub(super) keyed: Keyed,
    /// The sharpened grid masks around the origin.
    pub(super) and: u32,
}

/// The variant's elements, transformed, relative to its anchor.
pub(super) fn transformed<'a, G: Shape>(
    tables: &Tables<'a, G>,
    v: &Variant,
) -> impl Iterator<Item = (i32, i32, Cell)> + 'a {
    let p = &tables.patterns[v.pattern as usize];
    let trans = v.trans;
    tables.elements_of(p).iter().map(move |e| {
        let (ti, tj) = G::GEOMETRY.apply(trans, e.di(), e.dj());
        (ti, tj, e.cell())
    })
}

/// `x` seen from the point at `(oi, oj)` of the anchor's frame.
fn shifted(x: Extent, oi: i32, oj: i32) -> Extent {
    let s = oi + oj;
    Extent {
        min_i: (x.min_i as i32 - oi) as i8,
        min_j: (x.min_j as i32 - oj) as i8,
        max_i: (x.max_i as i32 - oi) as i8,
        max_j: (x.max_j as i32 - oj) as i8,
        min_s: (x.min_s as i32 - s) as i8,
        max_s: (x.max_s as i32 - s) as i8,
    }
}

/// The grid masks of the 4x4 window around `(oi, oj)` from the
/// variant's elements (before [`sharpen`]).
fn window_masks(elements: &[(i32, i32, Cell)], oi: i32, oj: i32) -> (u32, u32) {
    let (mut and, mut val) = (0u32, 0u32);
    for &(i, j, cell) in elements {
        if let Some(s) = grid_shift(i - oi, j - oj) {
            let (a, v) = cell.and_val();
            and |= a << s;
            val |= v << s;
        }
    }
    (and, val)
}

/// Variant `v` held from its stone at `(oi, oj)` (anchor frame; `(0, 0)`
/// is the anchor, whose masks are the tables' own). `residual_start` is
/// where its residual windows will sit in the matcher's list.
pub(super) fn hold<G: Shape>(
    tables: &Tables<'_, G>,
    v: &Variant,
    (oi, oj): (i32, i32),
    residual_start: u32,
) -> Held {
    let elements: Vec<(i32, i32, Cell)> = transformed(tables, v).collect();
    let colour = if (oi, oj) == (0, 0) {
        tables.patterns[v.pattern as usize].anchor
    } else {
        elements
            .iter()
            .find(|&&(i, j, _)| (i, j) == (oi, oj))
            .map(|e| e.2)
            .expect("the origin is one of the variant's stones")
    };
    let x = shifted(v.extent, oi, oj);
    let outside: Vec<(i32, i32, u32, u32)> = elements
        .iter()
        .filter_map(|&(i, j, cell)| {
            let (ti, tj) = (i - oi, j - oj);
            let (and, val) = cell.and_val();
            grid_shift(ti, tj).is_none().then_some((ti, tj, and, val))
        })
        .collect();
    let residual = cover_with_windows(&outside, x);
    let residual_len = u16::try_from(residual.len()).expect("at most 65,535 residual windows");
    let check = Check {
        pattern: v.pattern,
        trans: v.trans,
        anchor_di: -oi as i8,
        anchor_dj: -oj as i8,
        move_di: (i32::from(v.move_di) - oi) as i8,
        move_dj: (i32::from(v.move_dj) - oj) as i8,
        residual_start,
        residual_len,
    };
    let edge = |s: u8, k: u32| if v.edges & s != 0 { 0x80 << (8 * k) } else { 0 };
    let place = Place(
        lanes(
            -x.min_i as i32,
            -x.min_j as i32,
            x.max_i as i32,
            x.max_j as i32,
        ) | edge(side::NORTH, 0)
            | edge(side::WEST, 1)
            | edge(side::SOUTH, 2)
            | edge(side::EAST, 3),
    );
    let (and, val) = if (oi, oj) == (0, 0) {
        (v.and_mask, v.val_mask)
    } else {
        window_masks(&elements, oi, oj)
    };
    let (and, val) = sharpen(and, val, x, v.edges);
    let mut allowed = [0u8; 8];
    for (k, &(r, col)) in KEY_CELLS.iter().enumerate() {
        allowed[k] = allowed_values(and, val, x, r, col);
    }
    Held {
        check,
        place,
        residual,
        keyed: Keyed {
            colour: usize::from(colour == Cell::Theirs),
            and: outer_of(and),
            val: outer_of(val),
            allowed,
        },
        and,
    }
}

/// How often a board point holds each 2-bit value (empty, mine, theirs,
/// off the board), roughly, near the stones of real games: the weights
/// [`key_stone`] estimates a window's selectivity with.
const VALUE_ODDS: [f64; 4] = [0.6, 0.17, 0.17, 0.06];

/// The odds that a point passes a cell allowing the values `allowed`.
fn odds(allowed: u8) -> f64 {
    (0..4)
        .filter(|v| allowed & (1 << v) != 0)
        .map(|v| VALUE_ODDS[v])
        .sum()
}

/// The variant's most selective stone, in the anchor's frame: the stone
/// whose 4x4 window (key cells and open cells, edges sharpened) the
/// fewest board points are expected to pass, ties to the earliest stone
/// in element order (so the anchor wins a tie). Every stone is a valid
/// origin; this choice only decides how many variants a scan tries.
pub(super) fn key_stone<G: Shape>(tables: &Tables<'_, G>, v: &Variant) -> (i32, i32) {
    let elements: Vec<(i32, i32, Cell)> = transformed(tables, v).collect();
    let mut best = ((0, 0), f64::INFINITY);
    for &(oi, oj, cell) in &elements {
        if !matches!(cell, Cell::Mine | Cell::Theirs) {
            continue;
        }
        let x = shifted(v.extent, oi, oj);
        let (and, val) = window_masks(&elements, oi, oj);
        let (and, val) = sharpen(and, val, x, v.edges);
        let mut expected = 1.0;
        for r in -1..=2 {
            for c in -1..=2 {
                if (r, c) != (0, 0) {
                    expected *= odds(allowed_values(and, val, x, r, c));
                }
            }
        }
        if expected < best.1 {
            best = ((oi, oj), expected);
        }
    }
    best.0
}
