//! The five-in-a-row dialect's valuation: what the pattern database says
//! every empty point is worth, for each side, kept up to date move by
//! move.
//!
//! A match of a pattern for colour `c` (the diagram's `O`) at move point
//! `p` says that `c` playing `p` makes the pattern's shape: it adds the
//! pattern's `mine` to `c`'s attack at `p` and its `theirs` to the
//! defence the other side earns by taking `p`. A point's value for the
//! side to move is its own attack there plus the defence of the
//! opponent's shapes: [`Valuation::value`]. Values are summed, so a point
//! that makes two threes is worth both. The values are read through an
//! [`Overlay`], the database's own unless re-weighed.
//!
//! A stone changes only the matches that read its point, so after a move
//! [`Valuation::update`] rescans only the anchors of such matches (the
//! matcher's [`Matcher::reads`]: for line patterns, the lines through
//! the point, `=` cells included) and replaces their contributions: the incremental evaluation, tested equal
//! to [`Valuation::new`] from scratch on random games.
//!
//! On the line table's path the valuation also keeps, for both colours,
//! each empty point's class ([`PointClass`]: what one move there makes
//! across its lines) and the count of points of each class, which a leaf
//! table may weigh; the matcher's path, which does not know the line of
//! a match, has none.

use mkpat::overlay::Overlay;
use mkpat::tables::Kind;

use mkpat::geometry::{Hexagon, Shape, Square};

use super::database::FiveDatabase;
use super::kind_counts::KindCounts;
use super::lines::{self, LineTable};
use super::point_class::{LineKinds, PointClass, NO_CLASS};
use super::rules::{FiveBoard, Rule};
use crate::board::Board;
use crate::matcher::{Match, Matcher};
use crate::position::{Color, Point, Position};

/// One match's contribution, as filed under its anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Contribution {
    /// The move point, as an index into the board.
    at: u16,
    mine: i32,
    theirs: i32,
    kind: Kind,
}

/// The valuation of one board: per colour, per point, the attack and the
/// defence the patterns give, with the matches behind them filed by
/// anchor.
#[derive(Clone, Debug)]
pub struct Valuation {
    size: usize,
    /// `attack[c][p]`: what colour `c` gains by making its shapes at `p`.
    attack: [Vec<i64>; 2],
    /// `defence[c][p]`: what the opponent of `c` gains by taking `p` from
    /// `c`'s shapes.
    defence: [Vec<i64>; 2],
    /// How many matches of each threat kind each colour makes at each
    /// point: the strongest is the first kind counted, and a count moves
    /// as matches are filed or dropped, so no recount is needed.
    kinds: [Vec<KindCounts>; 2],
    /// `filed[c][anchor]`: the contributions of the matches for `c`
    /// anchored there.
    filed: [Vec<Vec<Contribution>>; 2],
    /// The sum of `attack[c]`: colour `c`'s pattern potential.
    total: [i64; 2],
    /// The sum of `kinds[c]`: colour `c`'s matches of each threat kind on
    /// the whole board, what a leaf table weighs
    /// ([`LeafWeights`](super::leaf::LeafWeights)). A lane holds a count
    /// of matches (at most some twenty a kind at a point, 676 points on
    /// the largest board), far below its sixteen bits.
    kind_total: [KindCounts; 2],
    /// On the line table's path ([`Valuation::with_lines`]): each point's
    /// window code along each line direction (empty on the matcher's
    /// path, which files matches instead). This array and the next two
    /// are laid out on the board with a margin of [`lines::REACH`]
    /// points on every side ([`Valuation::padded`]): an update writes
    /// the windows of the 32 points around a stone without asking which
    /// of them are on the board, since the margin's entries (and those
    /// of the array's corners off a hexagon) are written, never counted
    /// and never read. Four points of margin are enough because every
    /// line direction of both geometries is a unit step
    /// (`Geometry::line_directions`).
    windows: Vec<[u16; 4]>,
    /// On that path: the `Facts` index of each of those windows
    /// ([`LineTable::facts_index`]) at a counted point (stale at the
    /// others), so that an update looks up only the window's new code,
    /// not its old one as well.
    looked: Vec<[u16; 4]>,
    /// On that path: whether a point's values are counted (it was empty
    /// when last updated). Kept apart from the board so that several
    /// stones changed at once (Pente's captures) may be updated one by
    /// one.
    counted: Vec<bool>,
    /// Per colour, the points where a pattern of a four kind (five and
    /// the fours: [`Kind::is_four`]) matches, in no order, and each
    /// point's place in that list (`NOT_LISTED` when absent): the
    /// searches ask for these at every node, and the list spares them a
    /// pass over the board.
    fours: [Vec<u16>; 2],
    four_slot: [Vec<u16>; 2],
    /// One bit a point (by index, 64 to a word): whether a pattern
    /// proposes it ([`Valuation::is_proposed`]), kept as the values
    /// change, so that the candidates of every node and the move in hand
    /// of every leaf visit the proposed points alone, in index order,
    /// instead of testing every point of the board.
    proposed: Vec<u64>,
    /// On the line table's path when classes are kept: per point, per
    /// colour, the strongest kind of each line through it, one count a
    /// line (empty on the matcher's path, which does not know a match's
    /// line, and when no one reads the classes: they cost 3 to 5 % of a
    /// search).
    lines: Vec<[LineKinds; 2]>,
    /// On that path: per colour, how many points are of each class (by
    /// `LineKinds::class_code`; the last entry counts the points of none
    /// and is not read).
    classes: [[u16; PointClass::ALL.len() + 1]; 2],
}

/// The side of the layout with a margin ([`Valuation::windows`]).
const fn padded_side(n: usize) -> usize {
    n + 2 * lines::REACH as usize
}

/// How many entries the layout with a margin has.
const fn padded_len(n: usize) -> usize {
    padded_side(n) * padded_side(n)
}

/// Not in a `fours` list.
const NOT_LISTED: u16 = u16::MAX;

const fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Valuation {
    /// The valuation of `board` from scratch.
    pub fn new<G: Shape>(
        matcher: &Matcher<'_, G>,
        overlay: &Overlay,
        board: &Board<G>,
    ) -> Valuation {
        let n = board.size();
        let mut v = Valuation {
            size: n,
            attack: [vec![0; n * n], vec![0; n * n]],
            defence: [vec![0; n * n], vec![0; n * n]],
            kinds: [
                vec![KindCounts::default(); n * n],
                vec![KindCounts::default(); n * n],
            ],
            filed: [vec![Vec::new(); n * n], vec![Vec::new(); n * n]],
            total: [0; 2],
            kind_total: [KindCounts::default(); 2],
            windows: Vec::new(),
            looked: Vec::new(),
            counted: Vec::new(),
            fours: [Vec::new(), Vec::new()],
            four_slot: [vec![NOT_LISTED; n * n], vec![NOT_LISTED; n * n]],
            proposed: vec![0; (n * n).div_ceil(64)],
            lines: Vec::new(),
            classes: [[0; PointClass::ALL.len() + 1]; 2],
        };
        for c in [Color::Black, Color::White] {
            matcher.scan(board, c, |m| v.file(overlay, c, &m));
        }
        v
    }

    /// Brings the valuation up to date after the stone at `changed` was
    /// placed or removed on `board`: the anchors whose matches can read
    /// `changed` ([`Matcher::reads`]) are rescanned, the others keep
    /// their matches.
    pub fn update<G: Shape>(
        &mut self,
        matcher: &Matcher<'_, G>,
        overlay: &Overlay,
        board: &Board<G>,
        changed: Point,
    ) {
        let n = self.size as i32;
        for &(di, dj) in matcher.reads() {
            let (i, j) = (changed.i - di, changed.j - dj);
            let anchor = Point::new(i, j);
            // Off the array, or on the array's corners off a hexagon:
            // nothing is anchored there, nothing filed.
            if !(0..n).contains(&i) || !(0..n).contains(&j) || !board.on_board(anchor) {
                continue;
            }
            let a = (i * n + j) as usize;
            for c in [Color::Black, Color::White] {
                let ci = index(c);
                // Drained and put back: the list keeps its capacity.
                let mut old = std::mem::take(&mut self.filed[ci][a]);
                for k in old.drain(..) {
                    self.attack[ci][k.at as usize] -= i64::from(k.mine);
                    self.total[ci] -= i64::from(k.mine);
                    self.defence[ci][k.at as usize] -= i64::from(k.theirs);
                    self.kinds[ci][k.at as usize].remove(k.kind);
                    self.kind_total[ci].remove(k.kind);
                    self.relist(ci, k.at as usize);
                    self.mark(k.at as usize);
                }
                self.filed[ci][a] = old;
                matcher.scan_anchor(board, c, anchor, |m| self.file(overlay, c, &m));
            }
        }
    }

    /// The valuation of `board` from scratch through a database's line
    /// table (see [`LineTable`]): the same values as [`Valuation::new`]
    /// with its matcher, kept up to date by [`Valuation::update_lines`],
    /// and the point classes besides ([`Valuation::class`]).
    pub fn with_lines<G: Shape>(table: &LineTable, board: &Board<G>) -> Valuation {
        Valuation::through_lines(table, board, true)
    }

    /// [`Valuation::with_lines`] without the point classes, for a search
    /// whose leaves do not read them: keeping them costs 3 to 5 % of its
    /// work (callgrind, `docs/five-strength.md`). [`Valuation::class`] is
    /// then `None` and every [`Valuation::class_total`] 0, as on the
    /// matcher's path.
    pub fn with_lines_without_classes<G: Shape>(table: &LineTable, board: &Board<G>) -> Valuation {
        Valuation::through_lines(table, board, false)
    }

    fn through_lines<G: Shape>(table: &LineTable, board: &Board<G>, classes: bool) -> Valuation {
        let n = board.size();
        let mut v = Valuation {
            size: n,
            attack: [vec![0; n * n], vec![0; n * n]],
            defence: [vec![0; n * n], vec![0; n * n]],
            kinds: [
                vec![KindCounts::default(); n * n],
                vec![KindCounts::default(); n * n],
            ],
            filed: [Vec::new(), Vec::new()],
            total: [0; 2],
            kind_total: [KindCounts::default(); 2],
            windows: vec![[0; 4]; padded_len(n)],
            looked: vec![[0; 4]; padded_len(n)],
            counted: vec![false; padded_len(n)],
            fours: [Vec::new(), Vec::new()],
            four_slot: [vec![NOT_LISTED; n * n], vec![NOT_LISTED; n * n]],
            proposed: vec![0; (n * n).div_ceil(64)],
            lines: if classes {
                vec![[LineKinds::default(); 2]; n * n]
            } else {
                Vec::new()
            },
            // Every point of none to start with.
            classes: [{
                let mut none = [0; PointClass::ALL.len() + 1];
                none[usize::from(NO_CLASS)] = (n * n) as u16;
                none
            }; 2],
        };
        for i in 0..n as i32 {
            for j in 0..n as i32 {
                let p = Point::new(i, j);
                if !board.on_board(p) {
                    continue;
                }
                let k = i as usize * n + j as usize;
                let kp = v.padded(p);
                for (d, &(di, dj)) in table.directions().iter().enumerate() {
                    let mut code = 0;
                    for s in (-lines::REACH..=lines::REACH).filter(|&s| s != 0) {
                        let q = Point::new(i + s * di, j + s * dj);
                        code |= lines::state(board.value(q, Color::Black)) << lines::slot(s);
                    }
                    v.windows[kp][d] = code;
                }
                if board.value(p, Color::Black) == 0 {
                    v.count(table, k, kp, 1);
                    v.counted[kp] = true;
                }
            }
        }
        v
    }

    /// Adds (`sign` 1) or takes away (-1) what point `k` (`kp` in the
    /// margined layout) has its windows say: a replacement of nothing by
    /// their facts, or of them by nothing.
    #[inline]
    fn count(&mut self, table: &LineTable, k: usize, kp: usize, sign: i32) {
        let none = lines::Facts::default();
        for d in 0..table.directions().len() {
            // Counted in: its windows are looked up afresh (they were
            // stale while the point was occupied); out: as last looked up.
            if sign > 0 {
                self.looked[kp][d] = table.facts_index(d, self.windows[kp][d]) as u16;
                self.replace(k, &none, table.facts_at(usize::from(self.looked[kp][d])));
            } else {
                self.replace(k, table.facts_at(usize::from(self.looked[kp][d])), &none);
            }
        }
    }

    /// Point `p`'s index in the layout with a margin
    /// ([`Valuation::windows`]).
    #[inline]
    fn padded(&self, p: Point) -> usize {
        let w = padded_side(self.size);
        (p.i + lines::REACH) as usize * w + (p.j + lines::REACH) as usize
    }

    /// What point `k`'s facts `before` said replaced by what `after`
    /// says, in one pass: a window looked up again after a stone came or
    /// went, or a point's windows counted in or out.
    #[inline]
    fn replace(&mut self, k: usize, before: &lines::Facts, after: &lines::Facts) {
        for ci in 0..2 {
            let mine = i64::from(after.mine[ci] - before.mine[ci]);
            self.attack[ci][k] += mine;
            self.total[ci] += mine;
            self.defence[ci][k] += i64::from(after.theirs[ci] - before.theirs[ci]);
            self.kinds[ci][k].replace(&before.kinds[ci], &after.kinds[ci]);
            self.kind_total[ci].replace(&before.kinds[ci], &after.kinds[ci]);
            if after.line[ci] != before.line[ci] && !self.lines.is_empty() {
                self.reclass(ci, k, before.line[ci], after.line[ci]);
            }
            // Only a change among the four kinds can list or unlist.
            if !after.kinds[ci].same_fours(&before.kinds[ci]) {
                self.relist(ci, k);
            }
        }
        self.mark(k);
    }

    /// Point `k`'s lines for colour `ci` with `before` replaced by
    /// `after`, and the count of its class moved if the class changes.
    #[inline]
    fn reclass(&mut self, ci: usize, k: usize, before: LineKinds, after: LineKinds) {
        let lines = &mut self.lines[k][ci];
        let old = lines.class_code();
        lines.replace(before, after);
        let new = lines.class_code();
        if old != new {
            self.classes[ci][usize::from(old)] -= 1;
            self.classes[ci][usize::from(new)] += 1;
        }
    }

    /// Sets or clears point `k`'s bit in `proposed` as its values now say.
    #[inline]
    fn mark(&mut self, k: usize) {
        let bit = 1u64 << (k % 64);
        if self.is_proposed(k) {
            self.proposed[k / 64] |= bit;
        } else {
            self.proposed[k / 64] &= !bit;
        }
    }

    /// [`Valuation::update`] on the line table's path: the stone at
    /// `changed` was placed or removed on `board`; the windows holding it
    /// (the points within four steps on each line through it) are
    /// looked up again, and `changed`'s own values come or go.
    pub fn update_lines<G: Shape>(&mut self, table: &LineTable, board: &Board<G>, changed: Point) {
        let n = self.size as isize;
        let w = padded_side(self.size) as isize;
        let now = lines::state(board.value(changed, Color::Black));
        let c = changed.i as isize * n + changed.j as isize;
        let cp = self.padded(changed) as isize;
        // The point itself: its windows do not hold it, only whether it
        // counts changes.
        let empty = now == lines::EMPTY;
        if empty != self.counted[cp as usize] {
            self.count(table, c as usize, cp as usize, if empty { 1 } else { -1 });
            self.counted[cp as usize] = empty;
        }
        for (d, &(di, dj)) in table.directions().iter().enumerate() {
            let (di, dj) = (di as isize, dj as isize);
            for s in (-lines::REACH..=lines::REACH).filter(|&s| s != 0) {
                let step = s as isize;
                // In the margined layout every one of the 32 points has
                // an entry; only a counted one (on the board, empty) has
                // an index on the board as well.
                let kp = (cp - step * (di * w + dj)) as usize;
                let old = self.windows[kp][d];
                let code = old & !(3 << lines::slot(s)) | now << lines::slot(s);
                self.windows[kp][d] = code;
                // An occupied point's windows are looked up when it is
                // emptied again (`count`), not while nothing reads them.
                if self.counted[kp] {
                    let k = (c - step * (di * n + dj)) as usize;
                    let before = usize::from(self.looked[kp][d]);
                    let after = table.facts_index(d, code);
                    if before != after {
                        self.looked[kp][d] = after as u16;
                        self.replace(k, table.facts_at(before), table.facts_at(after));
                    }
                }
            }
        }
    }

    /// Puts point `k` in colour `ci`'s list of four points, or takes it
    /// out, as its kind counts now say.
    #[inline]
    fn relist(&mut self, ci: usize, k: usize) {
        let four = self.kinds[ci][k].has_four();
        let slot = self.four_slot[ci][k];
        if four && slot == NOT_LISTED {
            self.four_slot[ci][k] = self.fours[ci].len() as u16;
            self.fours[ci].push(k as u16);
        } else if !four && slot != NOT_LISTED {
            let last = *self.fours[ci].last().expect("listed");
            self.fours[ci].swap_remove(usize::from(slot));
            if usize::from(last) != k {
                self.four_slot[ci][usize::from(last)] = slot;
            }
            self.four_slot[ci][k] = NOT_LISTED;
        }
    }

    /// The points where colour `c` makes a shape of a four kind (five or
    /// a four: [`Kind::is_four`]) by the patterns, among those
    /// [`Valuation::proposed`] gives, in reading order.
    pub fn fours(&self, c: Color) -> Vec<Point> {
        // Points order by row, then column: the order of their indexes.
        let mut out: Vec<Point> = self.four_points(c).collect();
        out.sort_unstable();
        out
    }

    /// Colour `c`'s four points (those [`Valuation::fours`] lists) in no
    /// order and without a list: for the questions that need neither
    /// (has `c` a four to play? an open four?), asked at every leaf.
    pub fn four_points(&self, c: Color) -> impl Iterator<Item = Point> + '_ {
        self.fours[index(c)]
            .iter()
            .map(|&k| usize::from(k))
            .filter(|&k| self.is_proposed(k))
            .map(|k| self.point_at(k))
    }

    #[inline]
    fn is_proposed(&self, k: usize) -> bool {
        self.attack[0][k] != 0
            || self.attack[1][k] != 0
            || self.defence[0][k] != 0
            || self.defence[1][k] != 0
    }

    /// Do two valuations give every point the same values and kinds (the
    /// line table's and the matcher's)?
    pub fn same_values_as(&self, other: &Valuation) -> bool {
        self.attack == other.attack
            && self.total == other.total
            && self.defence == other.defence
            && self.kinds == other.kinds
            && self.kind_total == other.kind_total
            && self.proposed == other.proposed
            && [Color::Black, Color::White]
                .iter()
                .all(|&c| self.fours(c) == other.fours(c))
    }

    fn file(&mut self, overlay: &Overlay, c: Color, m: &Match) {
        let Some(f) = overlay.values(m.pattern as usize).five() else {
            return;
        };
        let n = self.size;
        let ci = index(c);
        let at = m.move_point.i as usize * n + m.move_point.j as usize;
        self.attack[ci][at] += i64::from(f.mine);
        self.total[ci] += i64::from(f.mine);
        self.defence[ci][at] += i64::from(f.theirs);
        self.kinds[ci][at].add(f.kind);
        self.kind_total[ci].add(f.kind);
        self.relist(ci, at);
        self.mark(at);
        let a = m.anchor.i as usize * n + m.anchor.j as usize;
        self.filed[ci][a].push(Contribution {
            at: at as u16,
            mine: f.mine,
            theirs: f.theirs,
            kind: f.kind,
        });
    }

    /// What `p` is worth to `to_move`: its attack there plus the defence
    /// of the opponent's shapes.
    #[inline]
    pub fn value(&self, p: Point, to_move: Color) -> i64 {
        let k = p.i as usize * self.size + p.j as usize;
        self.attack[index(to_move)][k] + self.defence[index(to_move.other())][k]
    }

    /// The class of empty point `p` for colour `c` (on the line table's
    /// path with classes kept; `None` on the matcher's and without them).
    pub fn class(&self, p: Point, c: Color) -> Option<PointClass> {
        let k = p.i as usize * self.size + p.j as usize;
        PointClass::from_code(self.lines.get(k)?[index(c)].class_code())
    }

    /// How many empty points are of `class` for colour `c` (on the line
    /// table's path: [`Valuation::with_lines`]; none on the matcher's nor
    /// without classes).
    pub fn class_total(&self, c: Color, class: PointClass) -> i64 {
        // Without classes no point ever leaves the count of none.
        i64::from(self.classes[index(c)][class as usize])
    }

    /// Whether this valuation keeps the point classes.
    pub fn keeps_classes(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Whether the point classes of both valuations agree, point by
    /// point and in total (kept by the line table's path alone, so not
    /// part of [`Valuation::same_values_as`]).
    pub fn same_classes_as(&self, other: &Valuation) -> bool {
        self.lines == other.lines && self.classes == other.classes
    }

    /// Colour `c`'s matches of `kind` on the whole board.
    pub fn kind_total(&self, c: Color, kind: Kind) -> i64 {
        i64::from(self.kind_total[index(c)].count(kind))
    }

    /// Colour `c`'s pattern potential: what all its shapes are worth.
    pub fn total(&self, c: Color) -> i64 {
        self.total[index(c)]
    }

    /// What colour `c` gains by making its own shapes at `p`.
    pub fn attack(&self, p: Point, c: Color) -> i64 {
        self.attack[index(c)][p.i as usize * self.size + p.j as usize]
    }

    /// The strongest threat kind `c` makes by playing `p`, by the
    /// patterns.
    pub fn threat(&self, p: Point, c: Color) -> Option<Kind> {
        self.kinds[index(c)][p.i as usize * self.size + p.j as usize].strongest()
    }

    /// Whether `c` playing `p` makes a shape of `kind`, by the patterns
    /// (not only the strongest: a capture beside a three).
    pub fn makes(&self, p: Point, c: Color, kind: Kind) -> bool {
        self.kinds[index(c)][p.i as usize * self.size + p.j as usize].count(kind) > 0
    }

    /// Every point a pattern proposes, for either side (the candidates of
    /// a search), in reading order.
    pub fn proposed(&self) -> impl Iterator<Item = Point> + '_ {
        self.proposed_indexes().map(|k| self.point_at(k))
    }

    /// The indexes of the points [`Valuation::proposed`] gives, in the
    /// same order, without making a point of each: the passes over every
    /// proposed point at every node and leaf read values by index.
    fn proposed_indexes(&self) -> impl Iterator<Item = usize> + '_ {
        self.proposed.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let k = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    k
                })
            })
        })
    }

    /// The best [`Valuation::value`] for `to_move` among the proposed
    /// points; `None` when none is proposed.
    pub fn best_value(&self, to_move: Color) -> Option<i64> {
        self.valued_indexes(to_move).map(|(_, v)| v).max()
    }

    /// The index (row by row) and the [`Valuation::value`] for `to_move`
    /// of every proposed point, in the order of [`Valuation::proposed`].
    pub fn valued_indexes(&self, to_move: Color) -> impl Iterator<Item = (usize, i64)> + '_ {
        let attack = &self.attack[index(to_move)];
        let defence = &self.defence[index(to_move.other())];
        self.proposed_indexes()
            .map(move |k| (k, attack[k] + defence[k]))
    }

    /// The point of index `k` (row by row, as the valuation indexes its
    /// points: [`Valuation::valued_indexes`], the four points).
    pub fn point_at(&self, k: usize) -> Point {
        Point::new((k / self.size) as i32, (k % self.size) as i32)
    }

    /// Are two valuations the same (the incremental one and one from
    /// scratch)? Matches are compared as multisets per anchor.
    pub fn same_as(&self, other: &Valuation) -> bool {
        let sorted = |v: &Valuation| -> Vec<Vec<Vec<(u16, i32, i32)>>> {
            v.filed
                .iter()
                .map(|per| {
                    per.iter()
                        .map(|ks| {
                            let mut s: Vec<_> =
                                ks.iter().map(|k| (k.at, k.mine, k.theirs)).collect();
                            s.sort_unstable();
                            s
                        })
                        .collect()
                })
                .collect()
        };
        self.same_values_as(other) && sorted(self) == sorted(other)
    }
}

/// The matcher's board of a square game: its stones, set-up ones too.
pub fn board_of(game: &FiveBoard) -> Board {
    Square::board_of(game)
}

/// A geometry five in a row is played on: how the matcher's board of a
/// game is made, and the builtin database of its engine. The engine, its
/// valuation and its searches are written once over it.
pub trait FiveGeometry: Shape {
    /// An empty matcher's board of `game`'s shape (`game` must be of
    /// this geometry).
    fn empty_board(game: &FiveBoard) -> Board<Self>;

    /// katachi's own database for this geometry, built once and shared.
    fn builtin() -> std::sync::Arc<FiveDatabase<Self>>;

    /// katachi's own database for this geometry and `rule` (Pente's has
    /// captures): the geometry's builtin one unless the rule has its own.
    fn builtin_for(rule: Rule) -> std::sync::Arc<FiveDatabase<Self>> {
        let _ = rule;
        Self::builtin()
    }

    /// The matcher's board of a game: its stones, set-up ones too.
    fn board_of(game: &FiveBoard) -> Board<Self> {
        let mut out = Self::empty_board(game);
        for p in game.points() {
            if let Some(c) = game.stone(p) {
                out.place(p, c);
            }
        }
        out
    }
}

impl FiveGeometry for Square {
    fn empty_board(game: &FiveBoard) -> Board {
        debug_assert!(game.hex_layout().is_none(), "a square game");
        Board::new(game.size())
    }

    fn builtin() -> std::sync::Arc<FiveDatabase> {
        FiveDatabase::builtin()
    }

    fn builtin_for(rule: Rule) -> std::sync::Arc<FiveDatabase> {
        FiveDatabase::for_rule(rule)
    }
}

impl FiveGeometry for Hexagon {
    fn empty_board(game: &FiveBoard) -> Board<Hexagon> {
        let layout = game.hex_layout().expect("a hexagonal game");
        Board::hexagon(layout.side())
    }

    fn builtin() -> std::sync::Arc<FiveDatabase<Hexagon>> {
        FiveDatabase::hexagon()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::five::database::FiveDatabase;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

        #[test]
        fn incremental_equals_from_scratch_on_random_games(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..60),
            undo_every in 3usize..9,
        ) {
            let db = FiveDatabase::builtin();
            let (m, o) = (db.matcher(), db.overlay());
            let mut game = FiveBoard::new(11, Rule::Freestyle).unwrap();
            let mut board = Board::new(11);
            let mut v = Valuation::new(m, o, &board);
            for (k, pick) in picks.iter().enumerate() {
                if game.outcome().is_some() {
                    break;
                }
                let legal: Vec<Point> = game.legal_moves().collect();
                if legal.is_empty() {
                    break;
                }
                let p = legal[pick.index(legal.len())];
                let c = game.to_move();
                game.play(p).unwrap();
                board.place(p, c);
                v.update(m, o, &board, p);
                if k % undo_every == undo_every - 1 {
                    let q = game.undo().unwrap();
                    board.remove(q);
                    v.update(m, o, &board, q);
                }
                prop_assert!(v.same_as(&Valuation::new(m, o, &board_of(&game))));
                // The board's count of a kind is its points' counts summed.
                for c in [Color::Black, Color::White] {
                    for kind in Kind::ALL {
                        let points: i64 = v.kinds[index(c)]
                            .iter()
                            .map(|k| i64::from(k.count(kind)))
                            .sum();
                        prop_assert_eq!(v.kind_total(c, kind), points);
                    }
                }
            }
        }
    }

    /// Random games (with take-backs) on `db`, the line table's valuation
    /// kept move by move beside the matcher's from scratch.
    fn lines_agree_with_the_matcher<G: FiveGeometry>(
        db: &FiveDatabase<G>,
        mut game: FiveBoard,
        picks: &[prop::sample::Index],
        undo_every: usize,
    ) -> Result<(), TestCaseError> {
        let table = db
            .lines()
            .expect("a database of line patterns has a line table");
        let (m, o) = (db.matcher(), db.overlay());
        let mut board = G::board_of(&game);
        let mut v = Valuation::with_lines(table, &board);
        // The same without the point classes, as a search that does not
        // read them keeps it.
        let mut bare = Valuation::with_lines_without_classes(table, &board);
        for (k, pick) in picks.iter().enumerate() {
            if game.outcome().is_some() {
                break;
            }
            let legal: Vec<Point> = game.legal_moves().collect();
            if legal.is_empty() {
                break;
            }
            let p = legal[pick.index(legal.len())];
            let c = game.to_move();
            game.play(p).unwrap();
            board.place(p, c);
            let taken = game.last_captured().to_vec();
            for &q in &taken {
                board.remove(q);
            }
            v.update_lines(table, &board, p);
            bare.update_lines(table, &board, p);
            for &q in &taken {
                v.update_lines(table, &board, q);
                bare.update_lines(table, &board, q);
            }
            if k % undo_every == undo_every - 1 {
                let taken = game.last_captured().to_vec();
                let q = game.undo().unwrap();
                board.remove(q);
                for &t in &taken {
                    board.place(t, c.other());
                }
                v.update_lines(table, &board, q);
                bare.update_lines(table, &board, q);
                for &t in &taken {
                    v.update_lines(table, &board, t);
                    bare.update_lines(table, &board, t);
                }
            }
            let fresh = Valuation::new(m, o, &G::board_of(&game));
            prop_assert!(v.same_values_as(&fresh), "after {k} moves");
            let scratch = Valuation::with_lines(table, &G::board_of(&game));
            prop_assert!(v.same_values_as(&scratch));
            prop_assert!(
                bare.same_values_as(&fresh),
                "without classes, after {k} moves"
            );
            prop_assert!(!bare.keeps_classes());
            prop_assert!(PointClass::ALL
                .iter()
                .all(|&cl| bare.class_total(c, cl) == 0));
            prop_assert!(v.same_classes_as(&scratch), "point classes after {k} moves");
            // The board's count of a class is its points' classes counted.
            for c in [Color::Black, Color::White] {
                for class in PointClass::ALL {
                    let points = v
                        .lines
                        .iter()
                        .filter(|l| PointClass::of(l[index(c)]) == Some(class))
                        .count();
                    prop_assert_eq!(v.class_total(c, class), points as i64);
                }
            }
        }
        Ok(())
    }

    /// The point classes of `board` the plain way: for each empty point
    /// and line through it, the matcher's strongest kind there on a board
    /// holding only that line's stones, one count a line.
    fn classes_line_by_line(db: &FiveDatabase, board: &Board) -> [[i64; PointClass::ALL.len()]; 2] {
        let (m, o) = (db.matcher(), db.overlay());
        let mut out = [[0; PointClass::ALL.len()]; 2];
        for p in board.points() {
            if board.value(p, Color::Black) != 0 {
                continue;
            }
            for (ci, c) in [Color::Black, Color::White].into_iter().enumerate() {
                let mut lines = LineKinds::default();
                for &(di, dj) in crate::five::DIRECTIONS.iter() {
                    let mut alone = Board::new(board.size());
                    for s in (-lines::REACH..=lines::REACH).filter(|&s| s != 0) {
                        let q = Point::new(p.i + s * di, p.j + s * dj);
                        let stone = match board.value(q, Color::Black) {
                            0b01 => Color::Black,
                            0b10 => Color::White,
                            _ => continue,
                        };
                        alone.place(q, stone);
                    }
                    let strongest = Valuation::new(m, o, &alone).threat(p, c);
                    lines.replace(LineKinds::default(), LineKinds::line(strongest));
                }
                if let Some(class) = PointClass::of(lines) {
                    out[ci][class as usize] += 1;
                }
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

        #[test]
        fn point_classes_are_those_read_line_by_line(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 4..40),
        ) {
            let db = FiveDatabase::builtin();
            let table = db.lines().expect("a line table");
            let mut game = FiveBoard::new(9, Rule::Exact).unwrap();
            for pick in &picks {
                if game.outcome().is_some() {
                    break;
                }
                let legal: Vec<Point> = game.legal_moves().collect();
                game.play(legal[pick.index(legal.len())]).unwrap();
            }
            let board = board_of(&game);
            let v = Valuation::with_lines(table, &board);
            let want = classes_line_by_line(&db, &board);
            for (ci, c) in [Color::Black, Color::White].into_iter().enumerate() {
                for class in PointClass::ALL {
                    prop_assert_eq!(v.class_total(c, class), want[ci][class as usize], "{:?} {:?}", c, class);
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn the_line_table_values_as_the_matcher_does_on_the_square(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..70),
            undo_every in 3usize..9,
            size in 5usize..16,
        ) {
            let game = FiveBoard::new(size, Rule::Exact).unwrap();
            lines_agree_with_the_matcher(&FiveDatabase::builtin(), game, &picks, undo_every)?;
        }

        #[test]
        fn the_line_table_values_as_the_matcher_does_through_pente_captures(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..90),
            undo_every in 3usize..9,
        ) {
            let game = FiveBoard::new(9, Rule::Pente).unwrap();
            lines_agree_with_the_matcher(&FiveDatabase::for_rule(Rule::Pente), game, &picks, undo_every)?;
        }

        #[test]
        fn the_line_table_values_as_the_matcher_does_on_the_hexagon(
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..70),
            undo_every in 3usize..9,
        ) {
            let game = FiveBoard::hexagon(5, Rule::Freestyle).unwrap();
            lines_agree_with_the_matcher(&FiveDatabase::hexagon(), game, &picks, undo_every)?;
        }
    }

    #[test]
    fn the_line_directions_share_one_table_when_the_patterns_are_symmetric() {
        // katachi's databases hold every pattern in all the board's
        // transformations: one table serves every direction.
        for db in [
            FiveDatabase::builtin(),
            FiveDatabase::for_rule(Rule::Renju),
            FiveDatabase::for_rule(Rule::Pente),
        ] {
            assert_eq!(db.lines().expect("a line table").distinct_tables(), 1);
        }
        assert_eq!(
            FiveDatabase::hexagon()
                .lines()
                .expect("a line table")
                .distinct_tables(),
            1
        );
    }

    #[test]
    fn the_proposed_points_are_those_with_a_value() {
        let db = FiveDatabase::builtin();
        let table = db.lines().expect("a line table");
        let mut b = Board::new(15);
        let mut v = Valuation::with_lines(table, &b);
        assert_eq!(v.proposed().count(), 0);
        for (i, j, c) in [
            (7, 7, Color::Black),
            (7, 8, Color::White),
            (8, 8, Color::Black),
        ] {
            let p = Point::new(i, j);
            b.place(p, c);
            v.update_lines(table, &b, p);
        }
        let listed: Vec<Point> = v.proposed().collect();
        let valued: Vec<Point> = b
            .points()
            .filter(|&p| {
                [Color::Black, Color::White]
                    .iter()
                    .any(|&c| v.attack(p, c) != 0 || v.value(p, c) != v.attack(p, c))
            })
            .collect();
        assert!(!listed.is_empty());
        assert_eq!(listed, valued);
        // Taken back, nothing is proposed again.
        for (i, j) in [(8, 8), (7, 8), (7, 7)] {
            let p = Point::new(i, j);
            b.remove(p);
            v.update_lines(table, &b, p);
        }
        assert_eq!(v.proposed().count(), 0);
    }

    #[test]
    fn a_four_and_a_three_through_one_point_make_a_four_three() {
        let db = FiveDatabase::builtin();
        let table = db.lines().expect("a line table");
        let mut b = Board::new(15);
        // Black's closed three along row 7 and open two down column 7:
        // (7,7) makes a four and an open three.
        b.place(Point::new(7, 3), Color::White);
        for (i, j) in [(7, 4), (7, 5), (7, 6), (5, 7), (6, 7)] {
            b.place(Point::new(i, j), Color::Black);
        }
        let v = Valuation::with_lines(table, &b);
        let at = Point::new(7, 7);
        assert_eq!(v.class(at, Color::Black), Some(PointClass::FourThree));
        assert_eq!(v.class_total(Color::Black, PointClass::FourThree), 1);
        // For White the point blocks: it makes nothing of White's.
        assert_eq!(v.class(at, Color::White), None);
        // An occupied point has no class.
        assert_eq!(v.class(Point::new(7, 4), Color::Black), None);
        // The matcher's path does not read lines.
        let m = Valuation::new(db.matcher(), db.overlay(), &b);
        assert_eq!(m.class(at, Color::Black), None);
    }

    #[test]
    fn kinds_are_counted_in_the_order_of_kind() {
        for (k, kind) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, k);
        }
    }

    #[test]
    fn an_open_three_is_worth_taking_for_both_sides() {
        let db = FiveDatabase::builtin();
        let (m, o) = (db.matcher(), db.overlay());
        let mut b = Board::new(15);
        for j in 5..8 {
            b.place(Point::new(7, j), Color::Black);
        }
        let v = Valuation::new(m, o, &b);
        // Black makes a straight four at either end; White must stop it.
        for p in [Point::new(7, 4), Point::new(7, 8)] {
            assert_eq!(v.threat(p, Color::Black), Some(Kind::OpenFour), "{p:?}");
            assert!(v.value(p, Color::Black) >= 20_000);
            assert!(v.value(p, Color::White) >= 9_000);
        }
        assert_eq!(v.threat(Point::new(0, 0), Color::Black), None);
    }
}
