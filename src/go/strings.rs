//! The Go board with its strings (worms), kept incrementally, and an undo
//! stack of changes.
//!
//! Reading tries thousands of moves and takes them back; rebuilding the
//! strings or the matcher's merged 4x4 grids after each would dominate its
//! cost. So [`Goban`] keeps, per point, the string it belongs to (`root`,
//! one of its stones), a circular list of the string's stones (`next`), and
//! at the root the string's size and liberty count. Playing a move touches
//! only the strings next to it: a new one-stone string, merges (the larger
//! string absorbs the smaller ones, whose stones are relabelled), liberty
//! counts of the neighbours, and captures. Every write to those arrays and
//! to the matcher's [`Board`] (whose merged grids update themselves on
//! `set`) is recorded with its old value, so [`Goban::undo`] restores a
//! position by replaying the record backwards, never from scratch.
//!
//! Liberty *sets* are not stored: a string's liberties are enumerated on
//! demand by walking its stone list ([`Goban::liberties_of`]), which reading
//! only does for strings with few liberties.
//!
//! The ko rule is simple ko: after a single-stone capture by a single stone
//! left with one liberty, the opponent may not retake at once.

use crate::board::Board;
use crate::go::position::GoPosition;
use crate::position::{Color, Point, Position};

/// `root` of an empty point.
const NONE: u32 = u32::MAX;

/// A recorded write, with the value it overwrote.
#[derive(Clone, Copy, Debug)]
enum Change {
    Root(u32, u32),
    Next(u32, u32),
    Size(u32, u32),
    Libs(u32, u32),
    Stone(u32, Option<Color>),
}

/// What [`Goban::undo`] restores besides the array writes.
#[derive(Clone, Copy, Debug)]
struct Frame {
    start: usize,
    ko: Option<(u32, Color)>,
    hash: u64,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Illegal {
    OffBoard,
    Occupied,
    Suicide,
    Ko,
    /// The move recreates an earlier position (positional superko).
    Superko,
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "superko",
        })
    }
}

/// The Zobrist key of a stone: a fixed mix of the point index and colour,
/// so no table has to be built or shared.
#[inline]
fn zobrist(k: u32, c: Color) -> u64 {
    let mut x =
        (u64::from(k) << 1 | u64::from(c == Color::White)).wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// An empty region found by [`Goban::region`].
#[derive(Clone, Debug)]
pub(crate) struct Region {
    pub points: Vec<u32>,
    /// Bordering wall points, once per open neighbour.
    pub borders: Vec<u32>,
    /// Whether black / white walls border the region.
    pub black: bool,
    pub white: bool,
}

/// A Go board: stones, strings, simple ko, a position hash, and the undo
/// record. Points are given as [`Point`]s; internally they are row-major
/// indices.
#[derive(Clone, Debug)]
pub struct Goban {
    n: usize,
    board: Board,
    root: Vec<u32>,
    next: Vec<u32>,
    size: Vec<u32>,
    libs: Vec<u32>,
    /// The point the given colour may not play on (simple ko).
    ko: Option<(u32, Color)>,
    /// Zobrist hash of the stones.
    hash: u64,
    changes: Vec<Change>,
    frames: Vec<Frame>,
    /// Scratch marks for counting liberties: a point is marked when
    /// `mark[k] == generation`. Not part of the position, never undone.
    mark: Vec<u32>,
    generation: u32,
}

impl Goban {
    /// An empty board of side `n` (1 to [`crate::board::MAX_SIZE`]).
    pub fn new(n: usize) -> Goban {
        let cells = n * n;
        Goban {
            n,
            board: Board::new(n),
            root: vec![NONE; cells],
            next: vec![NONE; cells],
            size: vec![0; cells],
            libs: vec![0; cells],
            ko: None,
            hash: 0,
            changes: Vec::new(),
            frames: Vec::new(),
            mark: vec![0; cells],
            generation: 0,
        }
    }

    /// The side of the board.
    pub fn side(&self) -> usize {
        self.n
    }

    /// The matcher's board, kept in step (merged grids included).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The hash of the stones (Zobrist): equal positions, equal hashes.
    pub fn stones_hash(&self) -> u64 {
        self.hash
    }

    /// The hash of the position for reading caches: the stones and the ko
    /// point.
    pub fn position_hash(&self) -> u64 {
        match self.ko {
            None => self.hash,
            Some((k, c)) => self.hash ^ zobrist(k, c).rotate_left(17),
        }
    }

    /// The point `color` may not play on because of ko, if any.
    pub fn ko_point(&self, color: Color) -> Option<Point> {
        match self.ko {
            Some((k, c)) if c == color => Some(self.point(k)),
            _ => None,
        }
    }

    /// Moves played and not undone (passes included).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    #[inline]
    pub(crate) fn index(&self, p: Point) -> Option<u32> {
        let n = self.n as i32;
        ((0..n).contains(&p.i) && (0..n).contains(&p.j)).then(|| (p.i * n + p.j) as u32)
    }

    #[inline]
    pub(crate) fn point(&self, k: u32) -> Point {
        let n = self.n as u32;
        Point::new((k / n) as i32, (k % n) as i32)
    }

    /// The on-board orthogonal neighbours of index `k`.
    #[inline]
    pub(crate) fn adjacent(&self, k: u32) -> impl Iterator<Item = u32> {
        let n = self.n as u32;
        let (i, j) = (k / n, k % n);
        [
            (i > 0).then(|| k - n),
            (i + 1 < n).then(|| k + n),
            (j > 0).then(|| k - 1),
            (j + 1 < n).then(|| k + 1),
        ]
        .into_iter()
        .flatten()
    }

    #[inline]
    /// Flood-fills the region of the open point `start` through the
    /// points `wall` says are open (`None`): its points, in the order
    /// reached, and the walls that border it (a wall once per open
    /// neighbour). `claim(k)` is asked before a point joins: it marks the
    /// point as taken and answers false when it already was (so regions
    /// never overlap); `start` must be unclaimed.
    pub(crate) fn region(
        &self,
        start: u32,
        wall: impl Fn(u32) -> Option<Color>,
        mut claim: impl FnMut(u32) -> bool,
    ) -> Region {
        let claimed = claim(start);
        debug_assert!(claimed, "the start of a region is unclaimed");
        let mut r = Region {
            points: vec![start],
            borders: Vec::new(),
            black: false,
            white: false,
        };
        let mut idx = 0;
        while idx < r.points.len() {
            let k = r.points[idx];
            idx += 1;
            for q in self.adjacent(k) {
                match wall(q) {
                    Some(c) => {
                        match c {
                            Color::Black => r.black = true,
                            Color::White => r.white = true,
                        }
                        r.borders.push(q);
                    }
                    None if claim(q) => r.points.push(q),
                    None => {}
                }
            }
        }
        r
    }

    pub(crate) fn stone_at(&self, k: u32) -> Option<Color> {
        match self.board.raw_cells()[k as usize] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// The root (string id) of the stone on `k`, `None` when empty.
    #[inline]
    pub(crate) fn root_at(&self, k: u32) -> Option<u32> {
        let r = self.root[k as usize];
        (r != NONE).then_some(r)
    }

    /// Liberty count of the string on index `k` (0 when empty).
    #[inline]
    pub(crate) fn libs_at(&self, k: u32) -> u32 {
        match self.root_at(k) {
            Some(r) => self.libs[r as usize],
            None => 0,
        }
    }

    /// Stone count of the string on index `k` (0 when empty).
    #[inline]
    pub(crate) fn size_at(&self, k: u32) -> u32 {
        match self.root_at(k) {
            Some(r) => self.size[r as usize],
            None => 0,
        }
    }

    /// The stones of the string on index `k`, by its circular list.
    pub(crate) fn stones_at(&self, k: u32) -> Vec<u32> {
        let mut out = Vec::new();
        if self.root[k as usize] == NONE {
            return out;
        }
        let mut s = k;
        loop {
            out.push(s);
            s = self.next[s as usize];
            if s == k {
                return out;
            }
        }
    }

    /// Up to `max` liberties of the string on index `k`, in the order met.
    pub(crate) fn libs_list(&self, k: u32, max: usize) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        if self.root[k as usize] == NONE {
            return out;
        }
        let mut s = k;
        loop {
            for q in self.adjacent(s) {
                if self.stone_at(q).is_none() && !out.contains(&q) {
                    out.push(q);
                    if out.len() >= max {
                        return out;
                    }
                }
            }
            s = self.next[s as usize];
            if s == k {
                return out;
            }
        }
    }

    /// The distinct string roots adjacent to `k`, optionally of one colour.
    pub(crate) fn neighbour_roots(&self, k: u32, color: Option<Color>) -> ([u32; 4], usize) {
        let mut out = [NONE; 4];
        let mut len = 0;
        for q in self.adjacent(k) {
            if let Some(c) = self.stone_at(q) {
                if color.is_none_or(|want| want == c) {
                    let r = self.root[q as usize];
                    if !out[..len].contains(&r) {
                        out[len] = r;
                        len += 1;
                    }
                }
            }
        }
        (out, len)
    }

    /// The liberties of the string through `p` (empty when `p` is empty),
    /// at most `max` of them.
    pub fn liberties_of(&self, p: Point, max: usize) -> Vec<Point> {
        match self.index(p) {
            Some(k) => self
                .libs_list(k, max)
                .into_iter()
                .map(|q| self.point(q))
                .collect(),
            None => Vec::new(),
        }
    }

    /// Is the move legal: on the board, empty, not a ko retake, not suicide?
    pub fn check(&self, p: Point, color: Color) -> Result<(), Illegal> {
        let k = self.index(p).ok_or(Illegal::OffBoard)?;
        self.check_index(k, color)
    }

    pub(crate) fn check_index(&self, k: u32, color: Color) -> Result<(), Illegal> {
        if self.stone_at(k).is_some() {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some((k, color)) {
            return Err(Illegal::Ko);
        }
        for q in self.adjacent(k) {
            match self.stone_at(q) {
                None => return Ok(()),
                Some(c) if c == color && self.libs_at(q) > 1 => return Ok(()),
                Some(c) if c != color && self.libs_at(q) == 1 => return Ok(()),
                _ => {}
            }
        }
        Err(Illegal::Suicide)
    }

    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check(p, color).is_ok()
    }

    // Recorded writes.
    fn set_root(&mut self, k: u32, v: u32) {
        let old = std::mem::replace(&mut self.root[k as usize], v);
        self.changes.push(Change::Root(k, old));
    }
    fn set_next(&mut self, k: u32, v: u32) {
        let old = std::mem::replace(&mut self.next[k as usize], v);
        self.changes.push(Change::Next(k, old));
    }
    fn set_size(&mut self, k: u32, v: u32) {
        let old = std::mem::replace(&mut self.size[k as usize], v);
        self.changes.push(Change::Size(k, old));
    }
    fn set_libs(&mut self, k: u32, v: u32) {
        let old = std::mem::replace(&mut self.libs[k as usize], v);
        self.changes.push(Change::Libs(k, old));
    }
    fn set_stone(&mut self, k: u32, stone: Option<Color>) {
        let p = self.point(k);
        let old = self.board.set(p, stone);
        if let Some(c) = old {
            self.hash ^= zobrist(k, c);
        }
        if let Some(c) = stone {
            self.hash ^= zobrist(k, c);
        }
        self.changes.push(Change::Stone(k, old));
    }

    fn push_frame(&mut self) {
        self.frames.push(Frame {
            start: self.changes.len(),
            ko: self.ko,
            hash: self.hash,
        });
    }

    /// A pass: clears the ko ban; undone like a move.
    pub fn pass(&mut self) {
        self.push_frame();
        self.ko = None;
    }

    /// Plays `color` on `p`, capturing what it captures. Returns the
    /// number of stones captured; an illegal move changes nothing.
    pub fn play(&mut self, p: Point, color: Color) -> Result<u32, Illegal> {
        let k = self.index(p).ok_or(Illegal::OffBoard)?;
        self.play_index(k, color)
    }

    pub(crate) fn play_index(&mut self, k: u32, color: Color) -> Result<u32, Illegal> {
        self.check_index(k, color)?;
        self.place(k, color, false)
    }

    /// Plays `color` on `p` where suicide is legal (Tromp–Taylor, New
    /// Zealand): a move that takes its own string's last liberty without
    /// capturing removes that string. Returns the opponent stones
    /// captured (0 for a suicide).
    pub fn play_allowing_suicide(&mut self, p: Point, color: Color) -> Result<u32, Illegal> {
        let k = self.index(p).ok_or(Illegal::OffBoard)?;
        match self.check_index(k, color) {
            Ok(()) => self.place(k, color, false),
            Err(Illegal::Suicide) => self.place(k, color, true),
            Err(e) => Err(e),
        }
    }

    /// Places a checked move; `suicide` when it takes its own string's
    /// last liberty, which is then removed.
    fn place(&mut self, k: u32, color: Color, suicide: bool) -> Result<u32, Illegal> {
        self.push_frame();
        let (neighbours, count) = self.neighbour_roots(k, None);
        self.set_stone(k, Some(color));
        self.set_root(k, k);
        self.set_next(k, k);
        self.set_size(k, 1);
        let empty = self
            .adjacent(k)
            .filter(|&q| self.stone_at(q).is_none())
            .count() as u32;
        self.set_libs(k, empty);
        // The new stone took a liberty from every neighbouring string.
        for &r in &neighbours[..count] {
            let l = self.libs[r as usize];
            self.set_libs(r, l - 1);
        }
        // Merge with friendly strings: the largest absorbs the others.
        let mut root = k;
        let mut merged = false;
        for &r in &neighbours[..count] {
            if self.stone_at(r) == Some(color) {
                root = self.merge(root, r);
                merged = true;
            }
        }
        if merged {
            let l = self.count_libs(root);
            self.set_libs(root, l);
        }
        // Captures.
        let mut captured = 0;
        let mut last_captured = NONE;
        for &r in &neighbours[..count] {
            if self.stone_at(r) == Some(color.other()) && self.libs[r as usize] == 0 {
                captured += self.size[r as usize];
                last_captured = r;
                self.remove_string(r);
            }
        }
        let root = self.root[k as usize];
        if suicide {
            self.remove_string(root);
            self.ko = None;
            return Ok(0);
        }
        debug_assert!(self.libs[root as usize] > 0, "suicide was checked");
        self.ko = (captured == 1 && self.size[root as usize] == 1 && self.libs[root as usize] == 1)
            .then_some((last_captured, color.other()));
        Ok(captured)
    }

    /// Joins the strings rooted at `a` and `b`; returns the new root.
    fn merge(&mut self, a: u32, b: u32) -> u32 {
        let (big, small) = if self.size[a as usize] >= self.size[b as usize] {
            (a, b)
        } else {
            (b, a)
        };
        for s in self.stones_at(small) {
            self.set_root(s, big);
        }
        // Splicing two circular lists: swap the successors of one stone
        // of each.
        let nb = self.next[big as usize];
        let ns = self.next[small as usize];
        self.set_next(big, ns);
        self.set_next(small, nb);
        let total = self.size[big as usize] + self.size[small as usize];
        self.set_size(big, total);
        big
    }

    fn count_libs(&mut self, k: u32) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let mut count = 0;
        let mut s = k;
        loop {
            for q in self.adjacent(s) {
                if self.stone_at(q).is_none() && self.mark[q as usize] != g {
                    self.mark[q as usize] = g;
                    count += 1;
                }
            }
            s = self.next[s as usize];
            if s == k {
                return count;
            }
        }
    }

    /// Removes a captured string; each removed stone becomes a liberty of
    /// every distinct string next to it (all of the capturer's colour).
    fn remove_string(&mut self, r: u32) {
        let stones = self.stones_at(r);
        for &s in &stones {
            self.set_stone(s, None);
            self.set_root(s, NONE);
        }
        for &s in &stones {
            let (roots, count) = self.neighbour_roots(s, None);
            for &t in &roots[..count] {
                let l = self.libs[t as usize];
                self.set_libs(t, l + 1);
            }
        }
    }

    /// Takes back the last move or pass. Returns false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(frame) = self.frames.pop() else {
            return false;
        };
        while self.changes.len() > frame.start {
            match self.changes.pop() {
                Some(Change::Root(k, v)) => self.root[k as usize] = v,
                Some(Change::Next(k, v)) => self.next[k as usize] = v,
                Some(Change::Size(k, v)) => self.size[k as usize] = v,
                Some(Change::Libs(k, v)) => self.libs[k as usize] = v,
                Some(Change::Stone(k, v)) => {
                    let p = self.point(k);
                    self.board.set(p, v);
                }
                None => break,
            }
        }
        self.ko = frame.ko;
        self.hash = frame.hash;
        true
    }

    /// Every point, in reading order.
    pub fn points(&self) -> impl Iterator<Item = Point> {
        self.board.points()
    }

    /// Checks every incremental structure against a recomputation from the
    /// stones (for tests): roots, sizes, liberty counts, lists, hash, and
    /// the matcher's merged boards.
    pub fn verify(&self) -> Result<(), String> {
        let mut hash = 0;
        for p in self.points() {
            let k = self.index(p).expect("on board");
            match self.stone_at(k) {
                None => {
                    if self.root[k as usize] != NONE {
                        return Err(format!("{p:?} empty with a root"));
                    }
                }
                Some(c) => {
                    hash ^= zobrist(k, c);
                    let flood = GoPosition::string(&self.board, p);
                    let mut listed: Vec<Point> = self
                        .stones_at(k)
                        .into_iter()
                        .map(|s| self.point(s))
                        .collect();
                    let mut flood_sorted = flood.clone();
                    flood_sorted.sort();
                    listed.sort();
                    if flood_sorted != listed {
                        return Err(format!("{p:?}: list {listed:?} vs flood {flood_sorted:?}"));
                    }
                    let r = self.root[k as usize];
                    if flood
                        .iter()
                        .any(|&q| self.root[self.index(q).unwrap() as usize] != r)
                    {
                        return Err(format!("{p:?}: roots differ in one string"));
                    }
                    if self.size[r as usize] as usize != flood.len() {
                        return Err(format!("{p:?}: size"));
                    }
                    let libs = GoPosition::liberties(&self.board, p);
                    if self.libs[r as usize] as usize != libs {
                        return Err(format!("{p:?}: libs {} vs {libs}", self.libs[r as usize]));
                    }
                }
            }
        }
        if hash != self.hash {
            return Err("hash".into());
        }
        for c in [Color::Black, Color::White] {
            if self.board.merged_board(c) != self.board.merged_from_scratch(c).as_slice() {
                return Err("merged board".into());
            }
        }
        Ok(())
    }
}

impl Position for Goban {
    fn size(&self) -> usize {
        self.n
    }

    fn stone(&self, p: Point) -> Option<Color> {
        self.index(p).and_then(|k| self.stone_at(k))
    }
}

/// Strings and liberties from the incremental record, not by flood fill.
impl GoPosition for Goban {
    fn string(&self, p: Point) -> Vec<Point> {
        match self.index(p) {
            Some(k) => self
                .stones_at(k)
                .into_iter()
                .map(|s| self.point(s))
                .collect(),
            None => Vec::new(),
        }
    }

    fn liberties(&self, p: Point) -> usize {
        self.index(p).map_or(0, |k| self.libs_at(k) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(i: i32, j: i32) -> Point {
        Point::new(i, j)
    }

    #[test]
    fn capture_merge_and_undo_restore_everything() {
        let mut g = Goban::new(5);
        // White stone at (0,0) surrounded by black.
        g.play(pt(0, 0), Color::White).unwrap();
        g.play(pt(0, 1), Color::Black).unwrap();
        let before = g.clone();
        assert_eq!(g.play(pt(1, 0), Color::Black), Ok(1));
        assert_eq!(g.stone(pt(0, 0)), None);
        assert_eq!(g.liberties(pt(0, 1)), 3);
        g.verify().unwrap();
        assert!(g.undo());
        g.verify().unwrap();
        assert_eq!(g.board(), before.board());
        assert_eq!(g.liberties(pt(0, 0)), 1);
    }

    #[test]
    fn suicide_and_ko_are_illegal() {
        let mut h = Goban::new(5);
        h.play(pt(0, 1), Color::Black).unwrap();
        h.play(pt(1, 0), Color::Black).unwrap();
        assert_eq!(h.check(pt(0, 0), Color::White), Err(Illegal::Suicide));
        assert_eq!(h.check(pt(0, 1), Color::White), Err(Illegal::Occupied));
        assert_eq!(h.check(pt(5, 0), Color::White), Err(Illegal::OffBoard));
        // A ko: black (1,1) is surrounded but for (1,2), where white's
        // capturing stone is left with one liberty, (1,1).
        let mut k = Goban::new(5);
        for (i, j, c) in [
            (1, 1, Color::Black),
            (0, 2, Color::Black),
            (2, 2, Color::Black),
            (1, 3, Color::Black),
            (0, 1, Color::White),
            (1, 0, Color::White),
            (2, 1, Color::White),
        ] {
            k.play(pt(i, j), c).unwrap();
        }
        assert_eq!(k.play(pt(1, 2), Color::White), Ok(1));
        assert_eq!(k.check(pt(1, 1), Color::Black), Err(Illegal::Ko));
        assert_eq!(k.ko_point(Color::Black), Some(pt(1, 1)));
        // After a move elsewhere by each side, black may retake.
        k.play(pt(4, 4), Color::Black).unwrap();
        k.play(pt(4, 0), Color::White).unwrap();
        assert_eq!(k.play(pt(1, 1), Color::Black), Ok(1));
        k.verify().unwrap();
        // A pass also lifts the ban; undoing the pass restores it.
        assert_eq!(k.check(pt(1, 2), Color::White), Err(Illegal::Ko));
        k.pass();
        assert!(k.is_legal(pt(1, 2), Color::White));
        k.undo();
        assert_eq!(k.check(pt(1, 2), Color::White), Err(Illegal::Ko));
    }
}
