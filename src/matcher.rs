//! The runtime matcher: finds every placement of every pattern variant on a
//! [`Board`], reading any [`Tables`] — the generated `static` tables of
//! that `build.rs` writes (an engine's, such as `go::builtin`) or a
//! [`mkpat::Database`] compiled in memory — through
//! one code path.
//!
//! A match is tested in the order of the seed's "Implementation details":
//! the anchor's colour, the 4x4 grid test `merged & and == val`, the
//! extent and edge test, then the elements outside the 4x4 window, a few
//! more 4x4 windows ("residual" windows) each tested in one compare.
//!
//! # The index
//!
//! Trying every variant at every stone is too slow for a database of a
//! thousand patterns (about 4,500 variants per anchor colour), so
//! [`Matcher::new`] builds an index once: for each anchor colour and each
//! combination of the 2-bit values of the anchor's eight neighbours (the
//! key, 65,536 per colour), the variants whose masks, extent and edges are
//! compatible with those values, in variant order. A scan computes the key
//! from the anchor's composite with a few shifts and tests only that
//! bucket. The masks are sharpened with what the edge sides imply (a cell
//! beyond an edge side must be off the board, `11`), which rejects edge
//! patterns in the middle of the board by the grid test alone.
//!
//! # Laid out for the cache
//!
//! A full scan is bound by memory, not arithmetic: with GNU Go 2.6's
//! database a real position visits ~86 anchors and ~19,000 bucket entries,
//! and the first design (`u32` masks and ids, one bucket per key: 4.46
//! million entries, 54 MB) stalled on the index, on each grid hit's
//! variant record (41% of the entries pass the grid test, but 60% of those
//! fail the extent or edge test) and on the residual windows. So:
//!
//! - **Keys with the same variant list share one bucket**: a key table maps
//!   each of the 131,072 keys to one of ~36,600 distinct buckets (2.66
//!   million entries instead of 4.46 million).
//! - **Entries hold only what the bucket leaves open**: membership already
//!   fixes the anchor's colour and the eight key cells, so an entry keeps
//!   the masks of the seven other window cells (`outer_of`, 14 bits: a
//!   `u16` each) and the variant number as a `u16` (while there are at most
//!   65,536 variants).
//! - **The extent and edge test is in the entry**, as four byte lanes
//!   (`Place`): the bucket loop tests sixteen entries at a time, grid and
//!   placement together, branch-free, and only the ~4% of entries that
//!   pass both (about a sixth) read a variant record. An entry is 10 bytes, struct of
//!   arrays, so each stream is read sequentially.
//!
//! # Re-matching after a move
//!
//! [`Matcher::scan_near`] returns the matches whose placement covers the
//! changed point: the same lane test with a lower bound per side (how far
//! a placement anchored here must reach to cover the point) rejects the
//! others in the bucket loop, and a bucket whose variants all reach less
//! far (its lane-wise maximum, kept per bucket) is skipped whole. With
//! GNU Go 2.6's database that reach spans most of a 19x19 board, so the
//! buckets are still read, but a re-scan finishes only the ~1/17 of the
//! matches that can change.

use mkpat::tables::{class, grid_shift, Extent, Tables};
use mkpat::transform::{self, side};

use crate::board::{Board, OFF_BOARD};
use crate::position::{Color, Point};

/// One placement of one pattern variant on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Match {
    /// Index of the pattern in [`Tables::patterns`].
    pub pattern: u32,
    /// The transformation matched (GNU Go 2.6 numbering).
    pub trans: u8,
    /// The board point under the pattern's anchor stone.
    pub anchor: Point,
    /// The board point under the pattern's `*`.
    pub move_point: Point,
}

/// The window cells whose values form the bucket key: the anchor's eight
/// neighbours. They are the cells most patterns constrain, so the key
/// splits the variants finely, and eight 2-bit values (65,536 keys) keep
/// the index small because a variant lands only in compatible buckets.
const KEY_CELLS: [(i32, i32); 8] = crate::position::EIGHT_NEIGHBOURS;
const KEY_BITS: u32 = 2 * KEY_CELLS.len() as u32;
const KEYS: usize = 1 << KEY_BITS;

/// The bucket key of a composite: the key cells' 2-bit values.
///
/// Window rows are 8 bits apart in the composite; the three cells of the
/// row above the anchor are contiguous (bits 26..32), as are those of the
/// row below (bits 10..16), and the anchor's west and east neighbours sit
/// at bits 22 and 18.
#[inline(always)]
fn key_of(m: u32) -> usize {
    let above = (m >> 26) & 0x3f;
    let west = (m >> 22) & 3;
    let east = (m >> 18) & 3;
    let below = (m >> 10) & 0x3f;
    (above | west << 6 | east << 8 | below << 10) as usize
}

/// The window cells outside the key and the anchor, packed into 14 bits:
/// the row two below the anchor (bits 0..8 of the composite, kept in
/// place) and the cells two columns right of it in the rows above, at and
/// below the anchor (composite bits 8, 16 and 24, moved to 8, 10 and 12).
/// A bucket already fixes the anchor's colour and the key cells, so the
/// grid test only has these cells left to check.
#[inline(always)]
fn outer_of(m: u32) -> u16 {
    ((m & 0x3ff) | ((m >> 6) & 0xc00) | ((m >> 12) & 0x3000)) as u16
}

/// The key cell `k`'s position inside [`key_of`]'s result.
fn key_cell_shift(k: usize) -> u32 {
    let (r, c) = KEY_CELLS[k];
    let composite_shift = grid_shift(r, c).expect("inside the window");
    key_of(1 << composite_shift).trailing_zeros()
}

/// A variant as the matcher checks it after the grid test.
#[derive(Clone, Copy, Debug)]
struct Check {
    pattern: u32,
    trans: u8,
    move_di: i8,
    move_dj: i8,
    /// Range in [`Matcher::residual`]: extra windows covering the
    /// transformed elements outside the anchor's 4x4 window.
    residual_start: u32,
    residual_len: u32,
}

/// A second grid test for the elements outside the anchor's window: the
/// masks of the 4x4 window around the point at `(di, dj)` from the anchor.
/// That point lies inside the variant's extent, so once the extent test
/// passed it is on the board and has a composite.
#[derive(Clone, Copy, Debug)]
struct Residual {
    di: i8,
    dj: i8,
    and: u32,
    val: u32,
}

/// Covers the elements outside the anchor's window (transformed offsets
/// and 2-bit tests) with as few extra 4x4 windows as a greedy choice
/// finds, each centred so that its base point is one of the elements and
/// so inside the extent. Windows holding stones come first: most points
/// are empty, so a stone test rejects soonest (seed iv).
fn cover_with_windows(outside: &[(i32, i32, u32, u32)], x: Extent) -> Vec<Residual> {
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
                    let inside = (x.min_i as i32..=x.max_i as i32).contains(&base.0)
                        && (x.min_j as i32..=x.max_j as i32).contains(&base.1);
                    if !inside {
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

/// The placement test of one variant in four byte lanes (north, west,
/// south, east): each lane holds how far the transformed diagram reaches
/// from the anchor towards that side (`-min_i`, `-min_j`, `max_i`,
/// `max_j`, all 0..=24) in its low seven bits, and its high bit is set
/// when that side must lie on the board edge. See [`Place::fits`].
#[derive(Clone, Copy, Debug, Default)]
struct Place(u32);

/// The high bit of each byte lane.
const LANE_HIGH: u32 = 0x8080_8080;

/// Four values 0..=127 packed into byte lanes (north, west, south, east).
#[inline(always)]
fn lanes(north: i32, west: i32, south: i32, east: i32) -> u32 {
    north as u32 | (west as u32) << 8 | (south as u32) << 16 | (east as u32) << 24
}

impl Place {
    /// How far the diagram reaches, per lane.
    #[inline(always)]
    fn need(self) -> u32 {
        self.0 & !LANE_HIGH
    }

    /// Does the placement fit? `room` holds the anchor's distances to the
    /// four sides of the board: the diagram must reach no further
    /// (`need <= room`), and exactly that far on an edge side. `least`
    /// holds lower bounds on `need` (0 for a full scan; for
    /// [`Matcher::scan_near`], how far it must reach to cover the changed
    /// point). Lane-parallel compares of 7-bit values: `(x | 0x80) - y`
    /// keeps a lane's high bit exactly when `x >= y`, and no lane borrows
    /// from the next. Branch-free, so the bucket loop tests it alongside
    /// the grid test.
    #[inline(always)]
    fn fits(self, room: u32, least: u32) -> bool {
        let need = self.need();
        let edge_bits = self.0 & LANE_HIGH;
        // 0x7f in the lanes of edge sides.
        let edge = edge_bits - (edge_bits >> 7);
        let ge_least = (self.0 | LANE_HIGH) - least;
        let le_room = (room | LANE_HIGH) - need;
        (ge_least & le_room & LANE_HIGH == LANE_HIGH) & ((need ^ room) & edge == 0)
    }
}

/// The anchor's distances to the board sides, as [`Place::fits`] takes
/// them.
#[inline(always)]
fn room_of(anchor: Point, n: i32) -> u32 {
    lanes(anchor.i, anchor.j, n - 1 - anchor.i, n - 1 - anchor.j)
}

/// How far a placement anchored on `anchor` must reach to cover `changed`.
#[inline(always)]
fn least_to_cover(anchor: Point, changed: Point) -> u32 {
    lanes(
        (anchor.i - changed.i).max(0),
        (anchor.j - changed.j).max(0),
        (changed.i - anchor.i).max(0),
        (changed.j - anchor.j).max(0),
    )
}

/// Lane-wise maximum of two [`lanes`] values.
fn lanes_max(a: u32, b: u32) -> u32 {
    (0..4).fold(0, |acc, k| {
        let s = 8 * k;
        acc | ((a >> s) & 0xff).max((b >> s) & 0xff) << s
    })
}

/// Variant numbers in the buckets: `u16` while the tables hold at most
/// 65,536 variants (GNU Go 2.6 has 8,912), `u32` beyond.
#[derive(Clone, Debug)]
enum Ids {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Ids {
    fn new(ids: &[u32], variants: usize) -> Ids {
        if variants <= 1 << 16 {
            Ids::Narrow(ids.iter().map(|&v| v as u16).collect())
        } else {
            Ids::Wide(ids.to_vec())
        }
    }

    #[inline(always)]
    fn get(&self, e: usize) -> u32 {
        match self {
            Ids::Narrow(v) => u32::from(v[e]),
            Ids::Wide(v) => v[e],
        }
    }

    fn width(&self) -> usize {
        match self {
            Ids::Narrow(_) => 2,
            Ids::Wide(_) => 4,
        }
    }
}

/// Buckets of variants, struct of arrays: bucket `b` is the range
/// `starts[b]..starts[b + 1]` of `and`, `val` and `var`, in variant order.
/// `and` and `val` are the grid masks of the cells the bucket leaves open
/// ([`outer_of`]); `reach` is, per bucket, the lane-wise maximum of its
/// variants' [`Place::need`], so that a re-scan can skip a bucket none of
/// whose variants reaches the changed point.
#[derive(Clone, Debug)]
struct Index {
    starts: Vec<u32>,
    and: Vec<u16>,
    val: Vec<u16>,
    place: Vec<Place>,
    var: Ids,
    reach: Vec<u32>,
}

impl Index {
    #[inline(always)]
    fn range(&self, bucket: usize) -> std::ops::Range<usize> {
        self.starts[bucket] as usize..self.starts[bucket + 1] as usize
    }

    fn bytes(&self) -> usize {
        4 * self.starts.len() + 4 * self.reach.len() + (8 + self.var.width()) * self.and.len()
    }
}

/// When a best-first scan may skip a pattern.
#[derive(Clone, Copy, Debug)]
struct Pruning {
    /// The bound before any match is valued.
    floor: i32,
    /// Skip only patterns whose maximum weight is below the bound (not
    /// equal to it).
    keep_ties: bool,
}

/// Sizes of the matcher's index, for `--stats` style reporting and tuning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexStats {
    pub variants: usize,
    /// Bucket entries over all distinct buckets (a variant is in every
    /// bucket compatible with it; keys with the same variants share one
    /// bucket).
    pub entries: usize,
    pub largest_bucket: usize,
    /// Distinct buckets (of `2 × 65,536` keys).
    pub buckets: usize,
    /// Bytes of the index: the key table, both bucket sets (every variant,
    /// and the always-run ones for best-first scans) and the per-variant
    /// placement and check tables.
    pub bytes: usize,
}

/// The matcher for one set of tables. Build once, scan many boards.
#[derive(Clone, Debug)]
pub struct Matcher<'t> {
    tables: Tables<'t>,
    checks: Vec<Check>,
    residual: Vec<Residual>,
    /// Per anchor colour and key (`colour * KEYS + key`): the bucket, in
    /// both [`Matcher::all`] and [`Matcher::always`].
    bucket_of: Vec<u32>,
    /// Every variant.
    all: Index,
    /// Only variants of patterns with [`class::ALWAYS_RUN`] bits, for the
    /// part of a best-first scan below the current best value.
    always: Index,
    /// Per pattern: may a best-first scan skip it?
    max_weight: Vec<i64>,
    /// The largest distance, in rows or columns, from an anchor to any
    /// point of its placement: how far a change can affect matches.
    reach: i32,
}

impl<'t> Matcher<'t> {
    /// Builds the matcher and its index for `tables`.
    pub fn new(tables: Tables<'t>) -> Matcher<'t> {
        let mut checks = Vec::with_capacity(tables.variants.len());
        let mut place = Vec::with_capacity(tables.variants.len());
        let mut residual = Vec::new();
        let mut keyed: Vec<Keyed> = Vec::with_capacity(tables.variants.len());
        let mut reach = 0i32;
        for v in tables.variants {
            let p = &tables.patterns[v.pattern as usize];
            let start = residual.len() as u32;
            let outside: Vec<(i32, i32, u32, u32)> = tables
                .elements_of(p)
                .iter()
                .filter_map(|e| {
                    let (ti, tj) = transform::apply(v.trans, e.di(), e.dj());
                    let (and, val) = e.cell().and_val();
                    grid_shift(ti, tj).is_none().then_some((ti, tj, and, val))
                })
                .collect();
            residual.extend(cover_with_windows(&outside, v.extent));
            let x = v.extent;
            reach = reach
                .max(-x.min_i as i32)
                .max(-x.min_j as i32)
                .max(x.max_i as i32)
                .max(x.max_j as i32);
            checks.push(Check {
                pattern: v.pattern,
                trans: v.trans,
                move_di: v.move_di,
                move_dj: v.move_dj,
                residual_start: start,
                residual_len: residual.len() as u32 - start,
            });
            let edge = |s: u8, k: u32| if v.edges & s != 0 { 0x80 << (8 * k) } else { 0 };
            place.push(Place(
                lanes(
                    -x.min_i as i32,
                    -x.min_j as i32,
                    x.max_i as i32,
                    x.max_j as i32,
                ) | edge(side::NORTH, 0)
                    | edge(side::WEST, 1)
                    | edge(side::SOUTH, 2)
                    | edge(side::EAST, 3),
            ));
            let (and, val) = sharpen(v.and_mask, v.val_mask, x, v.edges);
            let colour = match p.anchor {
                mkpat::tables::Cell::Theirs => 1,
                _ => 0,
            };
            let mut allowed = [0u8; 8];
            for (k, &(r, col)) in KEY_CELLS.iter().enumerate() {
                allowed[k] = allowed_values(and, val, x, r, col);
            }
            keyed.push(Keyed {
                colour,
                and: outer_of(and),
                val: outer_of(val),
                allowed,
            });
        }
        let (bucket_of, all) = build_index(&keyed, &place);
        let always = filter_index(&all, &place, |v| {
            let p = checks[v as usize].pattern as usize;
            tables.patterns[p].class & class::ALWAYS_RUN != 0
        });
        Matcher {
            tables,
            checks,
            residual,
            bucket_of,
            all,
            always,
            max_weight: tables.patterns.iter().map(|p| p.max_weight).collect(),
            reach,
        }
    }

    /// The tables this matcher reads.
    pub fn tables(&self) -> Tables<'t> {
        self.tables
    }

    /// How far (rows or columns) a placement reaches from its anchor.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// The board rectangle a match covers (the transformed diagram, `?`
    /// cells included): top-left and bottom-right corners, inclusive.
    pub fn placement(&self, m: &Match) -> (Point, Point) {
        let x = self.tables.patterns[m.pattern as usize]
            .extent
            .transformed(m.trans);
        (
            Point::new(m.anchor.i + x.min_i as i32, m.anchor.j + x.min_j as i32),
            Point::new(m.anchor.i + x.max_i as i32, m.anchor.j + x.max_j as i32),
        )
    }

    /// Sizes of the index.
    pub fn stats(&self) -> IndexStats {
        let largest = self
            .all
            .starts
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0);
        IndexStats {
            variants: self.checks.len(),
            entries: self.all.and.len(),
            largest_bucket: largest,
            buckets: self.all.starts.len() - 1,
            bytes: 4 * self.bucket_of.len()
                + self.all.bytes()
                + self.always.bytes()
                + std::mem::size_of::<Check>() * self.checks.len()
                + std::mem::size_of::<Residual>() * self.residual.len(),
        }
    }

    /// Every geometric match on the board for `to_move` (GNU Go's `-a`):
    /// every stone is tried as the anchor of every variant.
    pub fn scan(&self, board: &Board, to_move: Color, mut f: impl FnMut(Match)) {
        let merged = board.merged_board(to_move);
        let n = board.size();
        for (k, &m) in merged.iter().enumerate() {
            if (m >> 20) & 3 != 0 {
                let anchor = Point::new((k / n) as i32, (k % n) as i32);
                self.match_composite(board, to_move, anchor, m, 0, &mut f);
            }
        }
    }

    /// Every match, collected.
    pub fn matches(&self, board: &Board, to_move: Color) -> Vec<Match> {
        let mut out = Vec::new();
        self.scan(board, to_move, |m| out.push(m));
        out
    }

    /// The matches anchored on `anchor` (none when it is empty).
    pub fn scan_anchor(
        &self,
        board: &Board,
        to_move: Color,
        anchor: Point,
        mut f: impl FnMut(Match),
    ) {
        let m = board.merged(anchor, to_move);
        if (m >> 20) & 3 != 0 {
            self.match_composite(board, to_move, anchor, m, 0, &mut f);
        }
    }

    /// The matches whose placement includes `changed`. After a move, these
    /// are the only matches that can have appeared or disappeared, so an
    /// engine keeps the rest and re-matches only here. Only anchors within
    /// [`Matcher::reach`] rows and columns of `changed` are tried, a bucket
    /// is skipped when none of its variants reaches that far, and a
    /// variant is finished only when its placement covers `changed`.
    pub fn scan_near(
        &self,
        board: &Board,
        to_move: Color,
        changed: Point,
        mut f: impl FnMut(Match),
    ) {
        let n = board.size() as i32;
        let r = self.reach;
        let merged = board.merged_board(to_move);
        for i in (changed.i - r).max(0)..=(changed.i + r).min(n - 1) {
            for j in (changed.j - r).max(0)..=(changed.j + r).min(n - 1) {
                let m = merged[(i * n + j) as usize];
                if (m >> 20) & 3 != 0 {
                    let anchor = Point::new(i, j);
                    let least = least_to_cover(anchor, changed);
                    self.match_composite(board, to_move, anchor, m, least, &mut f);
                }
            }
        }
    }

    /// Best-first scan: patterns in descending maximum weight (the table
    /// order); a pattern whose maximum weight cannot beat the best value
    /// found so far is skipped, except patterns with [`class::ALWAYS_RUN`]
    /// bits, whose value is not bounded by their weight. `value` judges a
    /// geometric match as the engine's dialect says (Go's: class letters,
    /// helper, wind) and returns `None` to reject it;
    /// `on_value` sees every accepted match with its value. Returns the
    /// best match, the first found on ties.
    pub fn best_first(
        &self,
        board: &Board,
        to_move: Color,
        value: impl FnMut(&Match) -> Option<i32>,
        on_value: impl FnMut(&Match, i32),
    ) -> Option<(Match, i32)> {
        let prune = Pruning {
            floor: i32::MIN,
            keep_ties: false,
        };
        self.best_first_impl(board, to_move, prune, value, on_value, None)
    }

    /// [`Matcher::best_first`] for a move generator that ranks every
    /// candidate and breaks ties itself: a pattern is skipped only when
    /// its maximum weight is *below* the bound (so no pattern that could
    /// tie with the best is lost), the bound starts at `floor` (the value
    /// of a move found by other means), and every geometric match skipped
    /// is reported to `on_pruned`, unvalued, so that the caller can count
    /// and show them.
    pub fn best_first_with(
        &self,
        board: &Board,
        to_move: Color,
        floor: i32,
        value: impl FnMut(&Match) -> Option<i32>,
        mut on_pruned: impl FnMut(&Match),
    ) -> Option<(Match, i32)> {
        let prune = Pruning {
            floor,
            keep_ties: true,
        };
        self.best_first_impl(
            board,
            to_move,
            prune,
            value,
            |_, _| {},
            Some(&mut on_pruned),
        )
    }

    fn best_first_impl(
        &self,
        board: &Board,
        to_move: Color,
        prune: Pruning,
        mut value: impl FnMut(&Match) -> Option<i32>,
        mut on_value: impl FnMut(&Match, i32),
        mut on_pruned: Option<&mut dyn FnMut(&Match)>,
    ) -> Option<(Match, i32)> {
        let mut best: Option<(Match, i32)> = None;
        let merged = board.merged_board(to_move);
        let n = board.size();
        for (k, &m) in merged.iter().enumerate() {
            let a = (m >> 20) & 3;
            if a == 0 {
                continue;
            }
            let anchor = Point::new((k / n) as i32, (k % n) as i32);
            let room = room_of(anchor, n as i32);
            let bucket = self.bucket_of[(a - 1) as usize * KEYS + key_of(m)] as usize;
            let o = outer_of(m);
            // The grid test on the cells the bucket leaves open, then the
            // placement test, then the residual windows.
            let found = |index: &Index, e: usize| -> Option<Match> {
                let v = index.var.get(e);
                if o & index.and[e] == index.val[e] && index.place[e].fits(room, 0) {
                    self.finish(board, to_move, anchor, v)
                } else {
                    None
                }
            };
            let mut consider = |found: Option<Match>, best: &mut Option<(Match, i32)>| {
                if let Some(found) = found {
                    if let Some(val) = value(&found) {
                        on_value(&found, val);
                        if best.is_none_or(|(_, b)| val > b) {
                            *best = Some((found, val));
                        }
                    }
                }
            };
            let range = self.all.range(bucket);
            // Entries are in variant order, so in descending max weight:
            // once one cannot beat the best, none after it can either.
            let mut stop = u32::MAX;
            let mut stop_at = range.end;
            for e in range.clone() {
                let v = self.all.var.get(e);
                let bound = best.map_or(prune.floor, |(_, b)| b.max(prune.floor));
                // Max weights are i64 (they may exceed i32); values are i32.
                let w = self.max_weight[self.checks[v as usize].pattern as usize];
                let bound = i64::from(bound);
                if w < bound || (!prune.keep_ties && w <= bound) {
                    stop = v;
                    stop_at = e;
                    break;
                }
                consider(found(&self.all, e), &mut best);
            }
            for e in self.always.range(bucket) {
                if self.always.var.get(e) >= stop {
                    consider(found(&self.always, e), &mut best);
                }
            }
            if let Some(f) = on_pruned.as_mut() {
                for e in stop_at..range.end {
                    let v = self.all.var.get(e);
                    let p = self.checks[v as usize].pattern as usize;
                    let always = self.tables.patterns[p].class & class::ALWAYS_RUN != 0;
                    if !always {
                        if let Some(found) = found(&self.all, e) {
                            f(&found);
                        }
                    }
                }
            }
        }
        best
    }

    /// Tests every variant of the anchor's bucket against composite `m`;
    /// `least` as in [`Place::fits`].
    #[inline]
    fn match_composite(
        &self,
        board: &Board,
        to_move: Color,
        anchor: Point,
        m: u32,
        least: u32,
        f: &mut impl FnMut(Match),
    ) {
        let colour = (((m >> 20) & 3) - 1) as usize;
        let bucket = self.bucket_of[colour * KEYS + key_of(m)] as usize;
        if least != 0 {
            // Can any variant of the bucket reach the changed point?
            let r = self.all.reach[bucket];
            if ((r | LANE_HIGH) - least) & LANE_HIGH != LANE_HIGH {
                return;
            }
        }
        let range = self.all.range(bucket);
        let ands = &self.all.and[range.clone()];
        let vals = &self.all.val[range.clone()];
        let room = room_of(anchor, board.size() as i32);
        let cx = Candidates {
            o: outer_of(m),
            room,
            least,
        };
        let places = &self.all.place[range.clone()];
        match &self.all.var {
            Ids::Narrow(ids) => self.bucket(
                cx,
                ands,
                vals,
                places,
                &ids[range],
                board,
                to_move,
                anchor,
                f,
            ),
            Ids::Wide(ids) => self.bucket(
                cx,
                ands,
                vals,
                places,
                &ids[range],
                board,
                to_move,
                anchor,
                f,
            ),
        }
    }

    /// The bucket loop of [`Matcher::match_composite`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn bucket<I: Copy + Into<u32>>(
        &self,
        cx: Candidates,
        ands: &[u16],
        vals: &[u16],
        places: &[Place],
        ids: &[I],
        board: &Board,
        to_move: Color,
        anchor: Point,
        f: &mut impl FnMut(Match),
    ) {
        let mut hit = |v: u32| {
            if let Some(found) = self.finish(board, to_move, anchor, v) {
                f(found);
            }
        };
        // Sixteen grid tests at a time into a bit mask: a branch-free
        // inner loop the compiler turns into vector compares; the hits
        // are then finished one by one.
        let mut base = 0;
        let mut and_chunks = ands.chunks_exact(16);
        let mut val_chunks = vals.chunks_exact(16);
        let mut place_chunks = places.chunks_exact(16);
        for ((ca, cv), cp) in (&mut and_chunks)
            .zip(&mut val_chunks)
            .zip(&mut place_chunks)
        {
            let mut hits = 0u32;
            for l in 0..16 {
                let ok = (cx.o & ca[l] == cv[l]) & cp[l].fits(cx.room, cx.least);
                hits |= u32::from(ok) << l;
            }
            while hits != 0 {
                let l = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                hit(ids[base + l].into());
            }
            base += 16;
        }
        for (l, (&a, &v)) in and_chunks
            .remainder()
            .iter()
            .zip(val_chunks.remainder())
            .enumerate()
        {
            if cx.o & a == v && place_chunks.remainder()[l].fits(cx.room, cx.least) {
                hit(ids[base + l].into());
            }
        }
    }

    /// The residual windows of a variant whose grid and placement tests
    /// passed.
    #[inline]
    fn finish(&self, board: &Board, to_move: Color, anchor: Point, v: u32) -> Option<Match> {
        let c = &self.checks[v as usize];
        let n = board.size() as i32;
        let merged = board.merged_board(to_move);
        let base = anchor.i * n + anchor.j;
        for r in
            &self.residual[c.residual_start as usize..(c.residual_start + c.residual_len) as usize]
        {
            // Inside the extent, so on the board.
            let k = (base + r.di as i32 * n + r.dj as i32) as usize;
            if merged[k] & r.and != r.val {
                return None;
            }
        }
        Some(Match {
            pattern: c.pattern,
            trans: c.trans,
            anchor,
            move_point: Point::new(anchor.i + c.move_di as i32, anchor.j + c.move_dj as i32),
        })
    }
}

/// What a bucket's entries are tested against: the open cells of the
/// anchor's composite and the placement bounds.
#[derive(Clone, Copy, Debug)]
struct Candidates {
    o: u16,
    room: u32,
    least: u32,
}

/// A variant as the index builder sees it.
#[derive(Clone, Copy, Debug)]
struct Keyed {
    /// Anchor colour index: 0 mine, 1 theirs.
    colour: usize,
    /// [`outer_of`] of the sharpened masks.
    and: u16,
    val: u16,
    /// Per key cell, the values it may hold (see [`allowed_values`]).
    allowed: [u8; 8],
}

/// The variant's masks plus what its edge sides imply inside the window:
/// a cell beyond an edge side is off the board, `11`.
fn sharpen(mut and: u32, mut val: u32, x: Extent, edges: u8) -> (u32, u32) {
    for r in -1..=2 {
        for col in -1..=2 {
            let beyond = (edges & side::NORTH != 0 && r < x.min_i as i32)
                || (edges & side::SOUTH != 0 && r > x.max_i as i32)
                || (edges & side::WEST != 0 && col < x.min_j as i32)
                || (edges & side::EAST != 0 && col > x.max_j as i32);
            if beyond {
                let s = grid_shift(r, col).expect("inside the window");
                and |= OFF_BOARD << s;
                val |= OFF_BOARD << s;
            }
        }
    }
    (and, val)
}

/// The 2-bit values key cell `(r, c)` may hold for the variant to match:
/// a bit set over the four values. A cell the masks test allows what the
/// test accepts; an untested cell inside the extent must be on the board;
/// any other cell allows everything.
fn allowed_values(and: u32, val: u32, x: Extent, r: i32, col: i32) -> u8 {
    let s = grid_shift(r, col).expect("inside the window");
    let (a, v0) = ((and >> s) & 3, (val >> s) & 3);
    let inside = (x.min_i as i32..=x.max_i as i32).contains(&r)
        && (x.min_j as i32..=x.max_j as i32).contains(&col);
    let mut set = 0u8;
    for v in 0..4u32 {
        let ok = if a != 0 || v0 != 0 {
            v & a == v0
        } else {
            !inside || v != OFF_BOARD
        };
        if ok {
            set |= 1 << v;
        }
    }
    set
}

/// Every key compatible with `allowed` (the product of the key cells'
/// allowed values), into `keys`, which is cleared first.
fn keys_of(allowed: &[u8; 8], shifts: &[u32; 8], keys: &mut Vec<usize>) {
    keys.clear();
    keys.push(0);
    for k in 0..8 {
        let len = keys.len();
        let mut first = true;
        for v in 0..4usize {
            if allowed[k] & (1 << v) == 0 {
                continue;
            }
            let bits = v << shifts[k];
            if first {
                first = false;
                keys[..len].iter_mut().for_each(|key| *key |= bits);
            } else {
                for t in 0..len {
                    let key = (keys[t] & !(3 << shifts[k])) | bits;
                    keys.push(key);
                }
            }
        }
        if first {
            keys.clear();
            return;
        }
    }
}

/// Puts each variant into every bucket compatible with it, in variant
/// order within each bucket, then merges the keys whose buckets hold the
/// same variants: returns the bucket of every key and the index.
fn build_index(keyed: &[Keyed], place: &[Place]) -> (Vec<u32>, Index) {
    let shifts: [u32; 8] = std::array::from_fn(key_cell_shift);
    let mut keys = Vec::new();
    // Pass 1: bucket sizes. Pass 2: fill in variant order.
    let mut starts = vec![0u32; 2 * KEYS + 1];
    for kv in keyed {
        keys_of(&kv.allowed, &shifts, &mut keys);
        for &k in &keys {
            starts[kv.colour * KEYS + k + 1] += 1;
        }
    }
    for b in 0..2 * KEYS {
        starts[b + 1] += starts[b];
    }
    let mut fill = starts.clone();
    let mut ids = vec![0u32; starts[2 * KEYS] as usize];
    for (v, kv) in keyed.iter().enumerate() {
        keys_of(&kv.allowed, &shifts, &mut keys);
        for &k in &keys {
            let b = kv.colour * KEYS + k;
            ids[fill[b] as usize] = v as u32;
            fill[b] += 1;
        }
    }
    // Keys with the same list share one bucket.
    let mut seen: std::collections::HashMap<&[u32], u32> = std::collections::HashMap::new();
    let mut bucket_of = Vec::with_capacity(2 * KEYS);
    let mut unique_starts = vec![0u32];
    let mut unique: Vec<u32> = Vec::new();
    for b in 0..2 * KEYS {
        let list = &ids[starts[b] as usize..starts[b + 1] as usize];
        let next = (unique_starts.len() - 1) as u32;
        let id = *seen.entry(list).or_insert_with(|| {
            unique.extend_from_slice(list);
            unique_starts.push(unique.len() as u32);
            next
        });
        bucket_of.push(id);
    }
    drop(seen);
    let index = make_index(unique_starts, &unique, keyed, place);
    (bucket_of, index)
}

/// The index over bucket lists `ids` (bucket `b` is
/// `ids[starts[b]..starts[b + 1]]`).
fn make_index(starts: Vec<u32>, ids: &[u32], keyed: &[Keyed], place: &[Place]) -> Index {
    let reach = starts
        .windows(2)
        .map(|w| {
            ids[w[0] as usize..w[1] as usize]
                .iter()
                .fold(0, |r, &v| lanes_max(r, place[v as usize].need()))
        })
        .collect();
    Index {
        place: ids.iter().map(|&v| place[v as usize]).collect(),
        and: ids.iter().map(|&v| keyed[v as usize].and).collect(),
        val: ids.iter().map(|&v| keyed[v as usize].val).collect(),
        var: Ids::new(ids, keyed.len()),
        starts,
        reach,
    }
}

/// The buckets of `all` restricted to the variants `keep` selects, bucket
/// for bucket (so [`Matcher::bucket_of`] serves both).
fn filter_index(all: &Index, place: &[Place], keep: impl Fn(u32) -> bool) -> Index {
    let mut starts = vec![0u32];
    let mut ids = Vec::new();
    let mut and = Vec::new();
    let mut val = Vec::new();
    for b in 0..all.starts.len() - 1 {
        for e in all.range(b) {
            let v = all.var.get(e);
            if keep(v) {
                ids.push(v);
                and.push(all.and[e]);
                val.push(all.val[e]);
            }
        }
        starts.push(ids.len() as u32);
    }
    let reach = starts
        .windows(2)
        .map(|w| {
            ids[w[0] as usize..w[1] as usize]
                .iter()
                .fold(0, |r, &v| lanes_max(r, place[v as usize].need()))
        })
        .collect();
    let places = ids.iter().map(|&v| place[v as usize]).collect();
    let var = match all.var {
        Ids::Narrow(_) => Ids::Narrow(ids.iter().map(|&v| v as u16).collect()),
        Ids::Wide(_) => Ids::Wide(ids),
    };
    Index {
        place: places,
        starts,
        and,
        val,
        var,
        reach,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_cells_land_where_key_of_puts_them() {
        for (k, &(r, c)) in KEY_CELLS.iter().enumerate() {
            let m = 0b11 << grid_shift(r, c).unwrap();
            assert_eq!(key_of(m), 0b11 << key_cell_shift(k), "cell ({r},{c})");
        }
        // The anchor and the outer ring never reach the key.
        for r in -1..=2 {
            for c in -1..=2 {
                if !KEY_CELLS.contains(&(r, c)) {
                    assert_eq!(key_of(0b11 << grid_shift(r, c).unwrap()), 0, "({r},{c})");
                }
            }
        }
    }
}
