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
//! # One geometry per matcher
//!
//! Tables, boards and matchers carry their geometry in their type
//! ([`mkpat::geometry::Square`] by default, [`mkpat::geometry::Hexagon`]), so
//! a matcher built on hexagonal tables scans hexagonal boards:
//!
//! ```
//! use katachi::board::Board;
//! use katachi::matcher::Matcher;
//! use katachi::mkpat::{geometry::Hexagon, tables::Tables};
//! use katachi::Color;
//!
//! let hex: Tables<'static, Hexagon> = Tables::new(&[], &[], &[]);
//! let m = Matcher::new(hex);
//! assert!(m.matches(&Board::hexagon(9), Color::Black).is_empty());
//! ```
//!
//! and a square board is a type error, not a wrong answer:
//!
//! ```compile_fail,E0308
//! use katachi::board::Board;
//! use katachi::matcher::Matcher;
//! use katachi::mkpat::{geometry::Hexagon, tables::Tables};
//! use katachi::Color;
//!
//! let hex: Tables<'static, Hexagon> = Tables::new(&[], &[], &[]);
//! let m = Matcher::new(hex);
//! m.matches(&Board::new(9), Color::Black);
//! ```
//!
//! Tables built in memory carry their geometry as a value: a database
//! asked for as the wrong geometry's tables is a typed error
//! ([`mkpat::tables::Database::tables_as`], `GeometryMismatch`). On a
//! hexagonal board (axial coordinates, [`crate::hexagon`]) the array's
//! cells off the hexagon read `11` and anchor nothing; the placement test
//! checks the diagram against the array's four sides in the lanes and,
//! before the residual windows, against the hexagon's two others (the
//! range of `i + j`).
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
//! # The key-stone index
//!
//! A variant is keyed on its anchor, its first stone in reading order.
//! For large diagrams with rows of `?` (GNU Go 3.8's owl tables) that
//! stone often sits on the first row, where most of its eight key cells
//! say nothing: the variant lands in many buckets and passes many grid
//! tests that its residual windows then reject. Any stone of a variant
//! can serve as the point it is found from, so
//! [`Matcher::scan_unordered`] reads a second index, built on its first
//! call, in which each variant is held from its most selective stone
//! (`origin::key_stone`): entries, lanes and residual windows relative to
//! that stone, the anchor recovered from the stone in the last step. It
//! finds the same matches as [`Matcher::scan`], grouped by key stone
//! rather than by anchor; the anchor index stays for the scans whose
//! order or locality is by anchor.
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

use mkpat::geometry::{Geometry, Shape, Square};
use mkpat::tables::{grid_shift, Tables};
use mkpat::transform::side;

use crate::board::Board;
use crate::position::{Color, Point};

mod index;
mod lanes;
mod origin;
mod residual;

use index::*;
use lanes::*;
use origin::*;
use residual::*;

/// Does composite `m` hold a stone on its point (`01` or `10`), which can
/// anchor a pattern? Not an empty point, nor a hexagonal board's array
/// cell off the hexagon (`11`). One compare: `v - 1` wraps for `00`.
#[inline(always)]
fn is_anchor(m: u32) -> bool {
    ((m >> 20) & 3).wrapping_sub(1) < 2
}

/// One placement of one pattern variant on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Match {
    /// Index of the pattern in [`Tables::patterns`].
    pub pattern: u32,
    /// The transformation matched (the geometry's numbering; on the square
    /// GNU Go 2.6's).
    pub trans: u8,
    /// The board point under the pattern's anchor stone.
    pub anchor: Point,
    /// The board point under the pattern's `*`.
    pub move_point: Point,
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

/// One index and the checks its grid hits are finished with: the anchor
/// index (every variant found from its anchor) or the key-stone index
/// (from its most selective stone).
#[derive(Clone, Copy)]
struct By<'a> {
    bucket_of: &'a [u32],
    index: &'a Index,
    checks: &'a [Check],
    residual: &'a [Residual],
}

/// The key-stone index of [`Matcher::scan_unordered`]: the variants in
/// the matcher's order, each held from its [`key_stone`].
#[derive(Clone, Debug)]
struct KeyStoneIndex {
    bucket_of: Vec<u32>,
    index: Index,
    checks: Vec<Check>,
    residual: Vec<Residual>,
}

/// The matcher for one set of tables. Build once, scan many boards (of
/// the tables' geometry `G`).
#[derive(Clone, Debug)]
pub struct Matcher<'t, G = Square> {
    tables: Tables<'t, G>,
    checks: Vec<Check>,
    residual: Vec<Residual>,
    /// Per anchor colour and key (`colour * KEYS + key`): the bucket, in
    /// both [`Matcher::all`] and [`Matcher::always`].
    bucket_of: Vec<u32>,
    /// Every variant.
    all: Index,
    /// Only variants of patterns marked `always_run`, for the
    /// part of a best-first scan below the current best value.
    always: Index,
    /// Per pattern: may a best-first scan skip it?
    max_weight: Vec<i64>,
    /// Per matcher id (the best-first order, which an overlay may change):
    /// the variant's index in the tables. Read only by a hexagonal scan's
    /// last test, so kept out of the checks the scans read.
    variant_of: Vec<u32>,
    /// The largest distance, in rows or columns, from an anchor to any
    /// point of its placement: how far a change can affect matches.
    reach: i32,
    /// Every offset from an anchor of a point some variant reads (its
    /// elements, its move point, the anchor itself, the window cells its
    /// grid masks test), sorted: see [`Matcher::reads`].
    reads: Vec<(i32, i32)>,
    /// Built by the first [`Matcher::scan_unordered`], so that engines
    /// that never call it pay neither its time nor its memory.
    key_stone: std::sync::OnceLock<KeyStoneIndex>,
}

impl<'t, G: Shape> Matcher<'t, G> {
    /// Builds the matcher and its index for `tables`, whose best-first
    /// scans go by the tables' own maximum weights.
    pub fn new(tables: Tables<'t, G>) -> Matcher<'t, G> {
        let own: Vec<i64> = tables.patterns.iter().map(|p| p.max_weight).collect();
        Matcher::with_max_weights(tables, &own)
    }

    /// Builds the matcher for `tables` re-weighed: `max_weight` holds each
    /// pattern's maximum weight under a [`mkpat::overlay::Overlay`], and
    /// best-first scans order and prune by it. The index lists the
    /// variants by descending maximum weight, ties in table order, so
    /// that with the tables' own weights (already sorted) it is the table
    /// order.
    ///
    /// # Panics
    /// When `max_weight` does not have one weight per pattern (a caller's
    /// bug: an overlay is made for its tables).
    pub fn with_max_weights(tables: Tables<'t, G>, max_weight: &[i64]) -> Matcher<'t, G> {
        assert_eq!(
            max_weight.len(),
            tables.patterns.len(),
            "one maximum weight per pattern"
        );
        let mut order: Vec<usize> = (0..tables.variants.len()).collect();
        // Stable: ties keep table order.
        order.sort_by_key(|&v| std::cmp::Reverse(max_weight[tables.variants[v].pattern as usize]));
        let mut checks = Vec::with_capacity(tables.variants.len());
        let mut place = Vec::with_capacity(tables.variants.len());
        let mut residual = Vec::new();
        let mut keyed: Vec<Keyed> = Vec::with_capacity(tables.variants.len());
        let mut reach = 0i32;
        let mut reads = std::collections::BTreeSet::from([(0, 0)]);
        for &vi in &order {
            let v = &tables.variants[vi];
            reads.extend(transformed(&tables, v).map(|(i, j, _)| (i, j)));
            reads.insert((i32::from(v.move_di), i32::from(v.move_dj)));
            let x = v.extent;
            reach = reach
                .max(-x.min_i as i32)
                .max(-x.min_j as i32)
                .max(x.max_i as i32)
                .max(x.max_j as i32);
            let held = hold(&tables, v, (0, 0), residual.len() as u32);
            for r in -1..=2 {
                for c in -1..=2 {
                    let shift = grid_shift(r, c).expect("inside the window");
                    if (held.and >> shift) & 0b11 != 0 {
                        reads.insert((r, c));
                    }
                }
            }
            checks.push(held.check);
            place.push(held.place);
            residual.extend(held.residual);
            keyed.push(held.keyed);
        }
        let (bucket_of, all) = build_index(&keyed, &place);
        let always = filter_index(&all, &place, |v| {
            let p = checks[v as usize].pattern as usize;
            tables.patterns[p].always_run
        });
        Matcher {
            tables,
            checks,
            residual,
            bucket_of,
            all,
            always,
            max_weight: max_weight.to_vec(),
            variant_of: order.iter().map(|&v| v as u32).collect(),
            reach,
            reads: reads.into_iter().collect(),
            key_stone: std::sync::OnceLock::new(),
        }
    }

    /// The anchor index.
    #[inline(always)]
    fn anchored(&self) -> By<'_> {
        By {
            bucket_of: &self.bucket_of,
            index: &self.all,
            checks: &self.checks,
            residual: &self.residual,
        }
    }

    /// The key-stone index, built on first use.
    fn key_stoned(&self) -> By<'_> {
        let k = self.key_stone.get_or_init(|| {
            let mut checks = Vec::with_capacity(self.checks.len());
            let mut place = Vec::with_capacity(self.checks.len());
            let mut residual = Vec::new();
            let mut keyed = Vec::with_capacity(self.checks.len());
            for &vi in &self.variant_of {
                let v = &self.tables.variants[vi as usize];
                let key = key_stone(&self.tables, v);
                let held = hold(&self.tables, v, key, residual.len() as u32);
                checks.push(held.check);
                place.push(held.place);
                residual.extend(held.residual);
                keyed.push(held.keyed);
            }
            let (bucket_of, index) = build_index(&keyed, &place);
            KeyStoneIndex {
                bucket_of,
                index,
                checks,
                residual,
            }
        });
        By {
            bucket_of: &k.bucket_of,
            index: &k.index,
            checks: &k.checks,
            residual: &k.residual,
        }
    }

    /// The tables this matcher reads.
    pub fn tables(&self) -> Tables<'t, G> {
        self.tables
    }

    /// How far (rows or columns) a placement reaches from its anchor.
    pub fn reach(&self) -> i32 {
        self.reach
    }

    /// Every offset `d` from an anchor of a point that some variant's
    /// match reads, sorted. A change at `p` can make or break only the
    /// matches anchored at the points `p - d`: an engine that keeps its
    /// matches move by move rescans just those anchors. For line patterns
    /// these are the lines through `p`, a few dozen points where the
    /// square of [`Matcher::reach`] holds hundreds.
    pub fn reads(&self) -> &[(i32, i32)] {
        &self.reads
    }

    /// The board rectangle a match covers (the transformed diagram, `?`
    /// cells included): top-left and bottom-right corners, inclusive.
    pub fn placement(&self, m: &Match) -> (Point, Point) {
        let x = self.tables.patterns[m.pattern as usize]
            .extent
            .transformed_in(G::GEOMETRY, m.trans);
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
                + std::mem::size_of::<Residual>() * self.residual.len()
                + 4 * self.variant_of.len(),
        }
    }

    /// Every geometric match on the board for `to_move` (GNU Go's `-a`):
    /// every stone is tried as the anchor of every variant.
    pub fn scan(&self, board: &Board<G>, to_move: Color, mut f: impl FnMut(Match)) {
        let merged = board.merged_board(to_move);
        let n = board.size();
        for (k, &m) in merged.iter().enumerate() {
            if is_anchor(m) {
                let anchor = Point::new((k / n) as i32, (k % n) as i32);
                self.match_composite(self.anchored(), board, to_move, anchor, m, 0, &mut f);
            }
        }
    }

    /// Every geometric match, as [`Matcher::scan`] finds them but in
    /// another order (grouped by each variant's most selective stone, not
    /// by anchor): each variant is tried only at the board points holding
    /// its key stone, the stone whose window the fewest points pass,
    /// rather than at its anchor, which for large diagrams often sits on
    /// a row of `?`. The first call builds that second index (about the
    /// anchor index's size); an engine that keeps matches by anchor or
    /// breaks ties by scan order uses [`Matcher::scan`].
    pub fn scan_unordered(&self, board: &Board<G>, to_move: Color, mut f: impl FnMut(Match)) {
        let by = self.key_stoned();
        let merged = board.merged_board(to_move);
        let n = board.size();
        for (k, &m) in merged.iter().enumerate() {
            if is_anchor(m) {
                let at = Point::new((k / n) as i32, (k % n) as i32);
                self.match_composite(by, board, to_move, at, m, 0, &mut f);
            }
        }
    }

    /// Every match, collected.
    pub fn matches(&self, board: &Board<G>, to_move: Color) -> Vec<Match> {
        let mut out = Vec::new();
        self.scan(board, to_move, |m| out.push(m));
        out
    }

    /// The matches anchored on `anchor` (none when it is empty).
    pub fn scan_anchor(
        &self,
        board: &Board<G>,
        to_move: Color,
        anchor: Point,
        mut f: impl FnMut(Match),
    ) {
        let m = board.merged(anchor, to_move);
        if is_anchor(m) {
            self.match_composite(self.anchored(), board, to_move, anchor, m, 0, &mut f);
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
        board: &Board<G>,
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
                if is_anchor(m) {
                    let anchor = Point::new(i, j);
                    let least = least_to_cover(anchor, changed);
                    self.match_composite(self.anchored(), board, to_move, anchor, m, least, &mut f);
                }
            }
        }
    }

    /// Best-first scan: patterns in descending maximum weight (the table
    /// order); a pattern whose maximum weight cannot beat the best value
    /// found so far is skipped, except patterns marked `always_run` (Go's
    /// classes `D A L C B`), whose value is not bounded by their weight. `value` judges a
    /// geometric match as the engine's dialect says (Go's: class letters,
    /// helper, wind) and returns `None` to reject it;
    /// `on_value` sees every accepted match with its value. Returns the
    /// best match, the first found on ties.
    pub fn best_first(
        &self,
        board: &Board<G>,
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
        board: &Board<G>,
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
        board: &Board<G>,
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
            if !is_anchor(m) {
                continue;
            }
            let a = (m >> 20) & 3;
            let anchor = Point::new((k / n) as i32, (k % n) as i32);
            let room = room_of(anchor, n as i32);
            let bucket = self.bucket_of[(a - 1) as usize * KEYS + key_of(m)] as usize;
            let o = outer_of(m);
            // The grid test on the cells the bucket leaves open, then the
            // placement test, then the residual windows.
            let found = |index: &Index, e: usize| -> Option<Match> {
                let v = index.var.get(e);
                if o & index.and[e] == index.val[e] && index.place[e].fits(room, 0) {
                    self.finish(self.anchored(), board, to_move, anchor, v)
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
                    let always = self.tables.patterns[p].always_run;
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

    /// Tests every variant of the point's bucket in `by` against
    /// composite `m`; `least` as in [`Place::fits`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn match_composite(
        &self,
        by: By<'_>,
        board: &Board<G>,
        to_move: Color,
        at: Point,
        m: u32,
        least: u32,
        f: &mut impl FnMut(Match),
    ) {
        let colour = (((m >> 20) & 3) - 1) as usize;
        let bucket = by.bucket_of[colour * KEYS + key_of(m)] as usize;
        let index = by.index;
        if least != 0 {
            // Can any variant of the bucket reach the changed point?
            let r = index.reach[bucket];
            if ((r | LANE_HIGH) - least) & LANE_HIGH != LANE_HIGH {
                return;
            }
        }
        let range = index.range(bucket);
        let ands = &index.and[range.clone()];
        let vals = &index.val[range.clone()];
        let room = room_of(at, board.size() as i32);
        let cx = Candidates {
            o: outer_of(m),
            room,
            least,
        };
        let places = &index.place[range.clone()];
        match &index.var {
            Ids::Narrow(ids) => self.bucket(
                by,
                cx,
                ands,
                vals,
                places,
                &ids[range],
                board,
                to_move,
                at,
                f,
            ),
            Ids::Wide(ids) => self.bucket(
                by,
                cx,
                ands,
                vals,
                places,
                &ids[range],
                board,
                to_move,
                at,
                f,
            ),
        }
    }

    /// The bucket loop of [`Matcher::match_composite`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn bucket<I: Copy + Into<u32>>(
        &self,
        by: By<'_>,
        cx: Candidates,
        ands: &[u16],
        vals: &[u16],
        places: &[Place],
        ids: &[I],
        board: &Board<G>,
        to_move: Color,
        at: Point,
        f: &mut impl FnMut(Match),
    ) {
        let mut hit = |v: u32| {
            if let Some(found) = self.finish(by, board, to_move, at, v) {
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
    /// passed at `at`, its origin in `by`.
    #[inline]
    fn finish(
        &self,
        by: By<'_>,
        board: &Board<G>,
        to_move: Color,
        at: Point,
        v: u32,
    ) -> Option<Match> {
        let c = &by.checks[v as usize];
        let anchor = Point::new(at.i + c.anchor_di as i32, at.j + c.anchor_dj as i32);
        if let (Geometry::Hexagon, Some(h)) = (G::GEOMETRY, board.hex_layout()) {
            // The lane test kept the diagram inside the axial array; the
            // hexagon's two other sides bound `i + j`.
            let var = &self.tables.variants[self.variant_of[v as usize] as usize];
            let (x, s) = (var.extent, anchor.i + anchor.j);
            let n1 = h.side() as i32 - 1;
            let (least, most) = (s + x.min_s as i32, s + x.max_s as i32);
            if least < n1 || most > 3 * n1 {
                return None;
            }
            // On an edge side, exactly on it.
            if (var.edges & side::LEAST_SUM != 0 && least != n1)
                || (var.edges & side::MOST_SUM != 0 && most != 3 * n1)
            {
                return None;
            }
        }
        let n = board.size() as i32;
        let merged = board.merged_board(to_move);
        let base = at.i * n + at.j;
        let start = c.residual_start as usize;
        for r in &by.residual[start..start + c.residual_len as usize] {
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
            move_point: Point::new(at.i + c.move_di as i32, at.j + c.move_dj as i32),
        })
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
