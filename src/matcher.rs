//! The runtime matcher: finds every placement of every pattern variant on a
//! [`Board`], reading any [`Tables`] — the generated `static` tables of
//! [`crate::builtin`] or a [`mkpat::Database`] compiled in memory — through
//! one code path.
//!
//! A match is tested in the order of the seed's "Implementation details":
//! the anchor's colour, the 4x4 grid test `merged & and == val` (sixteen
//! points in one compare), the extent and edge test, then the elements
//! outside the 4x4 window one by one.
//!
//! Trying every variant at every stone is too slow for a database of a
//! thousand patterns (about 4,500 variants per anchor colour), so
//! [`Matcher::new`] builds an index once: for each anchor colour and each
//! combination of the 2-bit values of the anchor's eight neighbours, the
//! variants whose masks, extent and edges are compatible with those
//! values. A scan reads the anchor's composite, computes the bucket key
//! from it with a few shifts and tests only that bucket, whose masks lie
//! contiguously (struct of arrays) so the grid tests stream through cache.
//! The index stores masks sharpened with what the edge sides imply (a cell
//! beyond an edge side must be off the board, `11`), which rejects edge
//! patterns in the middle of the board by the grid test alone.

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
const KEY_CELLS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
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
    edges: u8,
    min_i: i8,
    min_j: i8,
    max_i: i8,
    max_j: i8,
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

/// Buckets of variants, struct of arrays: bucket `b` is the range
/// `starts[b]..starts[b + 1]` of `and`, `val` and `var`.
#[derive(Clone, Debug, Default)]
struct Index {
    starts: Vec<u32>,
    and: Vec<u32>,
    val: Vec<u32>,
    var: Vec<u32>,
}

impl Index {
    /// Bucket number for an anchor of colour index `colour` (0 mine, 1
    /// theirs) and neighbourhood key `key`.
    #[inline(always)]
    fn range(&self, colour: usize, key: usize) -> std::ops::Range<usize> {
        let b = colour * KEYS + key;
        self.starts[b] as usize..self.starts[b + 1] as usize
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
    /// Bucket entries over all buckets (a variant is in every bucket
    /// compatible with it).
    pub entries: usize,
    pub largest_bucket: usize,
}

/// The matcher for one set of tables. Build once, scan many boards.
#[derive(Clone, Debug)]
pub struct Matcher<'t> {
    tables: Tables<'t>,
    checks: Vec<Check>,
    residual: Vec<Residual>,
    /// Every variant.
    all: Index,
    /// Only variants of patterns with [`class::ALWAYS_RUN`] bits, for the
    /// part of a best-first scan below the current best value.
    always: Index,
    /// Per pattern: may a best-first scan skip it?
    max_weight: Vec<i32>,
    /// The largest distance, in rows or columns, from an anchor to any
    /// point of its placement: how far a change can affect matches.
    reach: i32,
}

impl<'t> Matcher<'t> {
    /// Builds the matcher and its index for `tables`.
    pub fn new(tables: Tables<'t>) -> Matcher<'t> {
        let mut checks = Vec::with_capacity(tables.variants.len());
        let mut residual = Vec::new();
        // (anchor colour index, sharpened and, sharpened val) per variant.
        let mut keyed: Vec<(usize, u32, u32)> = Vec::with_capacity(tables.variants.len());
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
                edges: v.edges,
                min_i: x.min_i,
                min_j: x.min_j,
                max_i: x.max_i,
                max_j: x.max_j,
                move_di: v.move_di,
                move_dj: v.move_dj,
                residual_start: start,
                residual_len: residual.len() as u32 - start,
            });
            let (and, val) = sharpen(v.and_mask, v.val_mask, &checks[checks.len() - 1]);
            let colour = match p.anchor {
                mkpat::tables::Cell::Theirs => 1,
                _ => 0,
            };
            keyed.push((colour, and, val));
        }
        let all = build_index(&checks, &keyed, |_| true);
        let always = build_index(&checks, &keyed, |c| {
            tables.patterns[c.pattern as usize].class & class::ALWAYS_RUN != 0
        });
        Matcher {
            tables,
            checks,
            residual,
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
            entries: self.all.var.len(),
            largest_bucket: largest,
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
                self.match_composite(board, to_move, anchor, m, &mut f);
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
            self.match_composite(board, to_move, anchor, m, &mut f);
        }
    }

    /// The matches whose placement can include `changed`: those anchored
    /// within [`Matcher::reach`] rows and columns of it. After a move,
    /// these are the only matches that can have appeared or disappeared,
    /// so an engine keeps the rest and re-matches only here.
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
                    self.match_composite(board, to_move, Point::new(i, j), m, &mut f);
                }
            }
        }
    }

    /// Best-first scan: patterns in descending maximum weight (the table
    /// order); a pattern whose maximum weight cannot beat the best value
    /// found so far is skipped, except patterns with [`class::ALWAYS_RUN`]
    /// bits, whose value is not bounded by their weight. `value` judges a
    /// geometric match (class letters, helper, wind: see
    /// [`crate::score::Scorer::value`]) and returns `None` to reject it;
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
            let colour = (a - 1) as usize;
            let key = key_of(m);
            let mut consider = |v: u32, best: &mut Option<(Match, i32)>| {
                if let Some(found) = self.finish(board, to_move, anchor, v) {
                    if let Some(val) = value(&found) {
                        on_value(&found, val);
                        if best.is_none_or(|(_, b)| val > b) {
                            *best = Some((found, val));
                        }
                    }
                }
            };
            let range = self.all.range(colour, key);
            // Entries are in variant order, so in descending max weight:
            // once one cannot beat the best, none after it can either.
            let mut stop = u32::MAX;
            let mut stop_at = range.end;
            for e in range.clone() {
                let v = self.all.var[e];
                let bound = best.map_or(prune.floor, |(_, b)| b.max(prune.floor));
                let w = self.max_weight[self.checks[v as usize].pattern as usize];
                if w < bound || (!prune.keep_ties && w <= bound) {
                    stop = v;
                    stop_at = e;
                    break;
                }
                if m & self.all.and[e] == self.all.val[e] {
                    consider(v, &mut best);
                }
            }
            for e in self.always.range(colour, key) {
                let v = self.always.var[e];
                if v >= stop && m & self.always.and[e] == self.always.val[e] {
                    consider(v, &mut best);
                }
            }
            if let Some(f) = on_pruned.as_mut() {
                for e in stop_at..range.end {
                    let v = self.all.var[e];
                    let p = self.checks[v as usize].pattern as usize;
                    let always = self.tables.patterns[p].class & class::ALWAYS_RUN != 0;
                    if !always && m & self.all.and[e] == self.all.val[e] {
                        if let Some(found) = self.finish(board, to_move, anchor, v) {
                            f(&found);
                        }
                    }
                }
            }
        }
        best
    }

    /// Tests every variant of the anchor's bucket against composite `m`.
    #[inline]
    fn match_composite(
        &self,
        board: &Board,
        to_move: Color,
        anchor: Point,
        m: u32,
        f: &mut impl FnMut(Match),
    ) {
        let colour = (((m >> 20) & 3) - 1) as usize;
        let range = self.all.range(colour, key_of(m));
        let ands = &self.all.and[range.clone()];
        let vals = &self.all.val[range.clone()];
        let vars = &self.all.var[range];
        // Eight grid tests at a time into a bit mask: a branch-free inner
        // loop the compiler turns into vector compares; the rare hits are
        // then finished one by one.
        let mut base = 0;
        let mut and_chunks = ands.chunks_exact(8);
        let mut val_chunks = vals.chunks_exact(8);
        for (ca, cv) in (&mut and_chunks).zip(&mut val_chunks) {
            let mut hits = 0u32;
            for l in 0..8 {
                hits |= u32::from(m & ca[l] == cv[l]) << l;
            }
            while hits != 0 {
                let l = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                if let Some(found) = self.finish(board, to_move, anchor, vars[base + l]) {
                    f(found);
                }
            }
            base += 8;
        }
        for (l, (&a, &v)) in and_chunks
            .remainder()
            .iter()
            .zip(val_chunks.remainder())
            .enumerate()
        {
            if m & a == v {
                if let Some(found) = self.finish(board, to_move, anchor, vars[base + l]) {
                    f(found);
                }
            }
        }
    }

    /// The tests after the grid test: extent, edges, residual elements.
    #[inline]
    fn finish(&self, board: &Board, to_move: Color, anchor: Point, v: u32) -> Option<Match> {
        let c = &self.checks[v as usize];
        let n = board.size() as i32;
        let (top, left) = (anchor.i + c.min_i as i32, anchor.j + c.min_j as i32);
        let (bottom, right) = (anchor.i + c.max_i as i32, anchor.j + c.max_j as i32);
        if top < 0 || left < 0 || bottom >= n || right >= n {
            return None;
        }
        if c.edges != 0 {
            let e = c.edges;
            if (e & side::NORTH != 0 && top != 0)
                || (e & side::SOUTH != 0 && bottom != n - 1)
                || (e & side::WEST != 0 && left != 0)
                || (e & side::EAST != 0 && right != n - 1)
            {
                return None;
            }
        }
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

/// The variant's masks plus what its edge sides imply inside the window:
/// a cell beyond an edge side is off the board, `11`.
fn sharpen(mut and: u32, mut val: u32, c: &Check) -> (u32, u32) {
    for r in -1..=2 {
        for col in -1..=2 {
            let beyond = (c.edges & side::NORTH != 0 && r < c.min_i as i32)
                || (c.edges & side::SOUTH != 0 && r > c.max_i as i32)
                || (c.edges & side::WEST != 0 && col < c.min_j as i32)
                || (c.edges & side::EAST != 0 && col > c.max_j as i32);
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
fn allowed_values(and: u32, val: u32, c: &Check, r: i32, col: i32) -> u8 {
    let s = grid_shift(r, col).expect("inside the window");
    let (a, x) = ((and >> s) & 3, (val >> s) & 3);
    let inside = (c.min_i as i32..=c.max_i as i32).contains(&r)
        && (c.min_j as i32..=c.max_j as i32).contains(&col);
    let mut set = 0u8;
    for v in 0..4u32 {
        let ok = if a != 0 || x != 0 {
            v & a == x
        } else {
            !inside || v != OFF_BOARD
        };
        if ok {
            set |= 1 << v;
        }
    }
    set
}

/// Puts each selected variant into every bucket compatible with it, in
/// variant order within each bucket.
fn build_index(
    checks: &[Check],
    keyed: &[(usize, u32, u32)],
    select: impl Fn(&Check) -> bool,
) -> Index {
    let shifts: Vec<u32> = (0..KEY_CELLS.len()).map(key_cell_shift).collect();
    // Every key compatible with a variant, enumerated by expanding one key
    // cell at a time.
    let keys_of = |c: &Check, and: u32, val: u32| -> Vec<usize> {
        let mut keys = vec![0usize];
        for (k, &(r, col)) in KEY_CELLS.iter().enumerate() {
            let allowed = allowed_values(and, val, c, r, col);
            let mut next = Vec::with_capacity(keys.len() * allowed.count_ones() as usize);
            for &key in &keys {
                for v in 0..4usize {
                    if allowed & (1 << v) != 0 {
                        next.push(key | v << shifts[k]);
                    }
                }
            }
            keys = next;
        }
        keys
    };
    let mut counts = vec![0u32; 2 * KEYS + 1];
    let mut lists: Vec<(usize, Vec<usize>)> = Vec::new();
    for (v, c) in checks.iter().enumerate() {
        if !select(c) {
            lists.push((0, Vec::new()));
            continue;
        }
        let (colour, and, val) = keyed[v];
        let keys = keys_of(c, and, val);
        for &k in &keys {
            counts[colour * KEYS + k] += 1;
        }
        lists.push((colour, keys));
    }
    // Prefix sums give each bucket's start; fill in variant order.
    let mut starts = vec![0u32; 2 * KEYS + 1];
    for b in 0..2 * KEYS {
        starts[b + 1] = starts[b] + counts[b];
    }
    let total = starts[2 * KEYS] as usize;
    let mut fill = starts.clone();
    let mut index = Index {
        starts,
        and: vec![0; total],
        val: vec![0; total],
        var: vec![0; total],
    };
    for (v, (colour, keys)) in lists.iter().enumerate() {
        let (_, and, val) = keyed[v];
        for &k in keys {
            let b = colour * KEYS + k;
            let at = fill[b] as usize;
            fill[b] += 1;
            index.and[at] = and;
            index.val[at] = val;
            index.var[at] = v as u32;
        }
    }
    index
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
