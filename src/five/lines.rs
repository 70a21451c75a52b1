//! The valuation's fast path for a database of line patterns: every
//! match of a line pattern reads only the line through its move point,
//! within four steps of it, so what the patterns say about an empty
//! point along one direction is a function of the eight cells around it
//! on that line. [`LineTable`] holds that function for every direction,
//! computed once from the compiled tables and the overlay: a look-up
//! replaces a matcher scan, and a stone changes the look-ups of the 36
//! points whose windows hold it (four directions, nine points each).
//!
//! The table is exact, not an approximation: it is built from the same
//! variants, cells and placement bounds the matcher tests, and a
//! database that has anything else (a pattern off one line or reaching
//! further than four steps, edge marks) gets no table: the valuation
//! then rescans with the matcher. A property test holds the two equal on
//! random games (`valuation::tests`).

use std::collections::HashMap;

use mkpat::geometry::Shape;
use mkpat::overlay::Overlay;
use mkpat::tables::Cell;

use super::kind_counts::KindCounts;
use super::point_class::LineKinds;
use crate::board::OFF_BOARD;
use crate::matcher::Matcher;
use crate::position::Color;

/// How far a window reaches on each side of its point.
pub(super) const REACH: i32 = 4;

/// How many windows there are: eight cells of four states.
const WINDOWS: usize = 1 << 16;

/// What the matches at one point along one direction add up to, for
/// each colour (index 0 Black, 1 White): the attack, the defence and
/// the count of each threat kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(super) struct Facts {
    pub(super) mine: [i32; 2],
    pub(super) theirs: [i32; 2],
    pub(super) kinds: [KindCounts; 2],
    /// The strongest of `kinds`, counted once: what this line adds to
    /// the point's class ([`PointClass`](super::point_class::PointClass)),
    /// however many patterns see it.
    pub(super) line: [LineKinds; 2],
}

/// One variant laid along a direction: its cells as steps from the move
/// point (the move itself left out: it is the empty point looked up),
/// the steps its placement must have on the board, and its pattern.
#[derive(Clone, Debug)]
struct Laid {
    cells: Vec<(i32, Cell)>,
    on_board: (i32, i32),
    pattern: usize,
}

/// The look-up tables of one database: for each line direction of the
/// geometry and each window (the eight cells around a point, two bits
/// each: see `slot`), the index of its `Facts`.
///
/// Directions whose tables are equal (every direction, for a database
/// whose patterns hold in all the transformations of the board) share
/// one: a table is 128 KiB, read at random by every update, and one
/// shared table stays in the cache where four would not.
#[derive(Debug)]
pub struct LineTable {
    directions: Vec<(i32, i32)>,
    /// The distinct tables, one after the other.
    index: Vec<u16>,
    /// Where direction `d`'s table starts in `index`.
    offset: Vec<usize>,
    facts: Vec<Facts>,
}

/// A window's cell state, two bits: empty, Black, White, off the board.
pub(super) const EMPTY: u16 = 0;

/// The state of a cell for the window: `Board::value` seen by Black
/// (0 empty, 1 Black, 2 White, 3 off the board).
#[inline]
pub(super) fn state(black_value: u32) -> u16 {
    black_value as u16
}

/// The bit offset of step `k` (`-4..=4`, not 0) in a window code.
#[inline]
pub(super) fn slot(k: i32) -> u32 {
    let s = if k < 0 { k + REACH } else { k + REACH - 1 };
    2 * s as u32
}

/// Calls `f` with every window code whose slot `s` (two bits at `2s`)
/// holds a state in the set `allowed[s]` (bit `st` for state `st`).
fn each_code(allowed: &[u8; 8], mut f: impl FnMut(u16)) {
    fn go(allowed: &[u8; 8], s: usize, code: u16, f: &mut impl FnMut(u16)) {
        if s == allowed.len() {
            f(code);
            return;
        }
        for st in 0..4u16 {
            if allowed[s] >> st & 1 == 1 {
                go(allowed, s + 1, code | st << (2 * s), f);
            }
        }
    }
    go(allowed, 0, 0, &mut f);
}

/// What `Board::value` says of a cell in `state` for `to_move` (the
/// board's own encoding, which the pattern cells accept).
fn value_for(state: u16, to_move: Color) -> u32 {
    match (state, to_move) {
        (0, _) => 0,
        (3, _) => OFF_BOARD,
        (1, Color::Black) | (2, Color::White) => 0b01,
        _ => 0b10,
    }
}

impl LineTable {
    /// The table of `matcher`'s database read through `overlay`, or
    /// `None` when one of its variants is not a line pattern within
    /// four steps of its move point.
    pub fn build<G: Shape>(matcher: &Matcher<'_, G>, overlay: &Overlay) -> Option<LineTable> {
        let geometry = G::GEOMETRY;
        let directions = geometry.line_directions().to_vec();
        let tables = matcher.tables();
        let mut laid: Vec<Vec<Laid>> = vec![Vec::new(); directions.len()];
        for (pi, p) in tables.patterns.iter().enumerate() {
            overlay.values(pi).five()?;
            for v in tables.variants_of(p) {
                if v.edges != 0 {
                    return None;
                }
                let (mi, mj) = (i32::from(v.move_di), i32::from(v.move_dj));
                let steps: Vec<((i32, i32), Cell)> = tables
                    .elements_of(p)
                    .iter()
                    .map(|e| {
                        let (i, j) = geometry.apply(v.trans, e.di(), e.dj());
                        ((i - mi, j - mj), e.cell())
                    })
                    .filter(|&(d, _)| d != (0, 0))
                    .collect();
                // The direction the variant lies along, and each cell's step.
                let (d, cells) = directions.iter().enumerate().find_map(|(d, &(di, dj))| {
                    let cells: Option<Vec<(i32, Cell)>> = steps
                        .iter()
                        .map(|&((i, j), cell)| {
                            (-REACH..=REACH)
                                .find(|&k| k != 0 && (k * di, k * dj) == (i, j))
                                .map(|k| (k, cell))
                        })
                        .collect();
                    cells.map(|c| (d, c))
                })?;
                // The placement: the steps of the line within the extent.
                let (di, dj) = directions[d];
                let inside: Vec<i32> = (-REACH..=REACH)
                    .filter(|&k| v.extent.contains(mi + k * di, mj + k * dj))
                    .collect();
                let lo = *inside.first()?;
                let hi = *inside.last()?;
                // The extent must not reach past the window.
                if v.extent.contains(mi + (lo - 1) * di, mj + (lo - 1) * dj)
                    || v.extent.contains(mi + (hi + 1) * di, mj + (hi + 1) * dj)
                {
                    return None;
                }
                laid[d].push(Laid {
                    cells,
                    on_board: (lo, hi),
                    pattern: pi,
                });
            }
        }
        let mut facts = vec![Facts::default()];
        let mut known: HashMap<Facts, u16> = HashMap::from([(Facts::default(), 0)]);
        let mut index: Vec<u16> = Vec::new();
        let mut offset = Vec::with_capacity(directions.len());
        for along in &laid {
            // Each variant adds to the windows it matches: the product of
            // the states each slot allows, enumerated (a short pattern
            // leaves many slots free, but never more than 4^8 windows).
            let mut sums = vec![Facts::default(); WINDOWS];
            for l in along {
                let v = overlay.values(l.pattern).five()?;
                for (ci, c) in [Color::Black, Color::White].into_iter().enumerate() {
                    let mut allowed = [0b1111u8; 8];
                    for k in [l.on_board.0, l.on_board.1] {
                        if k != 0 {
                            allowed[slot(k) as usize / 2] &= 0b0111;
                        }
                    }
                    for &(k, cell) in &l.cells {
                        let states = (0..4u16)
                            .filter(|&st| cell.accepts(value_for(st, c)))
                            .fold(0u8, |m, st| m | 1 << st);
                        allowed[slot(k) as usize / 2] &= states;
                    }
                    each_code(&allowed, |code| {
                        let f = &mut sums[usize::from(code)];
                        f.mine[ci] += v.mine;
                        f.theirs[ci] += v.theirs;
                        f.kinds[ci].add(v.kind);
                    });
                }
            }
            let mut codes = vec![0u16; WINDOWS];
            for (code, out) in codes.iter_mut().enumerate() {
                // Off the board is an end of the line: nothing beyond it
                // is on the board either (the board is convex), so other
                // windows never occur.
                let at = |k: i32| code >> slot(k) & 3;
                let convex = (1..REACH)
                    .all(|k| (at(k) != 3 || at(k + 1) == 3) && (at(-k) != 3 || at(-k - 1) == 3));
                if !convex {
                    continue;
                }
                let mut f = sums[code];
                for ci in 0..2 {
                    f.line[ci] = LineKinds::line(f.kinds[ci].strongest());
                }
                let next = facts.len();
                let k = *known.entry(f).or_insert_with(|| {
                    facts.push(f);
                    next as u16
                });
                if facts.len() > usize::from(u16::MAX) {
                    return None;
                }
                *out = k;
            }
            let shared = (0..index.len() / WINDOWS)
                .map(|t| t * WINDOWS)
                .find(|&at| index[at..at + WINDOWS] == codes[..]);
            offset.push(shared.unwrap_or_else(|| {
                index.extend_from_slice(&codes);
                index.len() - WINDOWS
            }));
        }
        Some(LineTable {
            directions,
            index,
            offset,
            facts,
        })
    }

    /// The line directions, in the order windows are kept.
    pub(super) fn directions(&self) -> &[(i32, i32)] {
        &self.directions
    }

    /// Which `Facts` the window `code` along direction `d` has: equal
    /// indexes, equal facts (so that an update compares two numbers).
    #[inline]
    pub(super) fn facts_index(&self, d: usize, code: u16) -> usize {
        usize::from(self.index[self.offset[d] + usize::from(code)])
    }

    /// How many distinct tables the directions use.
    pub fn distinct_tables(&self) -> usize {
        self.index.len() / WINDOWS
    }

    /// The `Facts` of a [`LineTable::facts_index`].
    #[inline]
    pub(super) fn facts_at(&self, index: usize) -> &Facts {
        &self.facts[index]
    }
}
