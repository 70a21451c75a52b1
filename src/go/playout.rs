//! A small, fast board for Monte Carlo playouts, and the playout policy.
//!
//! [`super::strings::Goban`] keeps the matcher's board, a Zobrist hash and
//! an undo record in step with every stone: right for reading and for the
//! pattern matcher, far too heavy for the tens of thousands of random games
//! a search plays per move. This board keeps only what a playout needs:
//! stones on a bordered array, strings as circular lists with a
//! representative, and *pseudo-liberties* (a liberty counted once per
//! adjacent stone). Pseudo-liberties are zero exactly when real ones are,
//! which is all capture needs; the few questions that need real liberties
//! (atari, self-atari) walk the string, which is short in practice.
//!
//! The policy ([`Playout::run`]) is the usual light one: answer the last
//! move (capture a string it left in atari, save an own string it put in
//! atari), else a uniformly random legal move that neither fills an own
//! eye nor puts two or more stones in self-atari; the game ends after two
//! passes and is scored by area, Tromp-Taylor, with komi. Randomness comes
//! from a seeded generator, so a playout is a function of its seed.

use std::sync::OnceLock;

use mkpat::tables::Tables;
use mkpat::transform::side;

use crate::board::Board;
use crate::matcher::Matcher;
use crate::position::{Color, Point};

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// The cell value of a colour.
pub fn cell(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// A playout board of side `n` (up to 19), bordered: point `(i, j)` is
/// index `(i + 1) * (n + 2) + j + 1`.
#[derive(Clone, Debug)]
pub struct FastBoard {
    n: usize,
    w: usize,
    cells: Vec<u8>,
    /// The representative stone of each stone's string.
    head: Vec<u16>,
    /// The next stone of the string (circular).
    next: Vec<u16>,
    /// Per representative: pseudo-liberties and stones, and the sum and
    /// the sum of squares of the pseudo-liberties' indices. A string is
    /// in atari exactly when all its pseudo-liberties are one point, that
    /// is when `plibs · sum2 == sum²` (Cauchy-Schwarz holds with equality
    /// only for equal terms); that point is then `sum / plibs`. This makes
    /// the atari test, the playouts' most frequent question, O(1).
    plibs: Vec<u16>,
    lsum: Vec<u32>,
    lsum2: Vec<u64>,
    size: Vec<u16>,
    /// The point the side to move may not retake (simple ko).
    ko: Option<u16>,
    /// Empty points, for drawing random moves.
    empty: Vec<u16>,
    empty_at: Vec<u16>,
    /// Stones captured by the last move.
    captured: Vec<u16>,
}

impl FastBoard {
    /// An empty board.
    pub fn new(n: usize) -> FastBoard {
        assert!((1..=19).contains(&n), "board side {n}");
        let w = n + 2;
        let mut cells = vec![BORDER; w * w];
        let mut empty = Vec::with_capacity(n * n);
        let mut empty_at = vec![u16::MAX; w * w];
        for i in 0..n {
            for j in 0..n {
                let k = (i + 1) * w + j + 1;
                cells[k] = EMPTY;
                empty_at[k] = empty.len() as u16;
                empty.push(k as u16);
            }
        }
        FastBoard {
            n,
            w,
            head: vec![0; w * w],
            next: vec![0; w * w],
            plibs: vec![0; w * w],
            lsum: vec![0; w * w],
            lsum2: vec![0; w * w],
            size: vec![0; w * w],
            cells,
            ko: None,
            empty,
            empty_at,
            captured: Vec::new(),
        }
    }

    /// The board of a position given as (colour, point) stones and the
    /// ko point of the side to move. Stones must form a legal position
    /// (every string has a liberty).
    pub fn from_stones(n: usize, stones: &[(Color, Point)], ko: Option<Point>) -> FastBoard {
        let mut b = FastBoard::new(n);
        for &(c, p) in stones {
            b.put(b.index(p), cell(c));
        }
        b.ko = ko.map(|p| b.index(p));
        b
    }

    pub fn side(&self) -> usize {
        self.n
    }

    /// Index of a point on the board.
    pub fn index(&self, p: Point) -> u16 {
        ((p.i as usize + 1) * self.w + p.j as usize + 1) as u16
    }

    /// The point of an index.
    pub fn point(&self, k: u16) -> Point {
        let k = k as usize;
        Point::new((k / self.w) as i32 - 1, (k % self.w) as i32 - 1)
    }

    /// Every on-board index, row by row.
    pub fn indices(&self) -> impl Iterator<Item = u16> + '_ {
        (0..self.n).flat_map(move |i| (0..self.n).map(move |j| ((i + 1) * self.w + j + 1) as u16))
    }

    pub fn at(&self, k: u16) -> u8 {
        self.cells[k as usize]
    }

    pub fn stone(&self, k: u16) -> Option<Color> {
        match self.cells[k as usize] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    pub fn empty_points(&self) -> &[u16] {
        &self.empty
    }

    pub fn ko(&self) -> Option<u16> {
        self.ko
    }

    /// Stones captured by the last [`FastBoard::play`].
    pub fn captured(&self) -> &[u16] {
        &self.captured
    }

    #[inline]
    fn neighbours(&self, k: u16) -> [u16; 4] {
        let w = self.w as u16;
        [k - w, k - 1, k + 1, k + w]
    }

    #[inline]
    fn diagonals(&self, k: u16) -> [u16; 4] {
        let w = self.w as u16;
        [k - w - 1, k - w + 1, k + w - 1, k + w + 1]
    }

    /// The number of stones in the string through stone `k`.
    pub fn string_size(&self, k: u16) -> usize {
        self.size[self.head[k as usize] as usize] as usize
    }

    /// Up to `max` distinct liberties of the string through stone `k`.
    pub fn liberties(&self, k: u16, max: usize, out: &mut Vec<u16>) {
        out.clear();
        let start = k;
        let mut s = start;
        loop {
            for q in self.neighbours(s) {
                if self.cells[q as usize] == EMPTY && !out.contains(&q) {
                    out.push(q);
                    if out.len() >= max {
                        return;
                    }
                }
            }
            s = self.next[s as usize];
            if s == start {
                return;
            }
        }
    }

    /// The number of liberties of the string through `k`, counted up to
    /// `max`.
    pub fn liberty_count(&self, k: u16, max: usize) -> usize {
        let h = self.head[k as usize] as usize;
        if self.plibs[h] == 0 {
            return 0;
        }
        if max <= 2 {
            return if self.in_atari_head(h) { 1 } else { max };
        }
        let mut libs = [0u16; 4];
        let mut found = 0;
        let mut s = k;
        loop {
            for q in self.neighbours(s) {
                if self.cells[q as usize] == EMPTY && !libs[..found].contains(&q) {
                    libs[found] = q;
                    found += 1;
                    if found >= max.min(4) {
                        return found;
                    }
                }
            }
            s = self.next[s as usize];
            if s == k {
                return found;
            }
        }
    }

    /// The [`ShapeTable`] code of the eight neighbours of `k`, seen by
    /// colour `c`.
    #[inline]
    pub fn neighbourhood(&self, k: u16, c: u8) -> u16 {
        let w = self.w as u16;
        let ring = [
            k - w,
            k + w,
            k - 1,
            k + 1,
            k - w - 1,
            k - w + 1,
            k + w - 1,
            k + w + 1,
        ];
        let mut code = 0u16;
        for (i, q) in ring.iter().enumerate() {
            let rel = match self.cells[*q as usize] {
                EMPTY => 0,
                BORDER => 3,
                v if v == c => 1,
                _ => 2,
            };
            code |= rel << (2 * i);
        }
        code
    }

    #[inline]
    fn in_atari_head(&self, h: usize) -> bool {
        let n = self.plibs[h] as u64;
        let sum = self.lsum[h] as u64;
        n > 0 && n * self.lsum2[h] == sum * sum
    }

    /// Is the string through stone `k` in atari (exactly one liberty)?
    #[inline]
    pub fn in_atari(&self, k: u16) -> bool {
        self.in_atari_head(self.head[k as usize] as usize)
    }

    /// The liberty of a string in atari (see [`FastBoard::in_atari`]).
    #[inline]
    pub fn atari_liberty(&self, k: u16) -> u16 {
        let h = self.head[k as usize] as usize;
        (self.lsum[h] / self.plibs[h] as u32) as u16
    }

    /// Adds (`add`) or removes the pseudo-liberty `q` of the string whose
    /// representative is `h`.
    #[inline]
    fn adjust(&mut self, h: u16, q: u16, add: bool) {
        let h = h as usize;
        let (q1, q2) = (q as u32, (q as u64) * (q as u64));
        if add {
            self.plibs[h] += 1;
            self.lsum[h] += q1;
            self.lsum2[h] += q2;
        } else {
            self.plibs[h] -= 1;
            self.lsum[h] -= q1;
            self.lsum2[h] -= q2;
        }
    }

    /// Is the empty point `k` an eye of colour `c`: every neighbour an own
    /// stone or the edge, and not a false eye (at most one opponent
    /// diagonal in the middle, none on the edge)?
    pub fn is_eye(&self, k: u16, c: u8) -> bool {
        if self.cells[k as usize] != EMPTY {
            return false;
        }
        for q in self.neighbours(k) {
            let v = self.cells[q as usize];
            if v != c && v != BORDER {
                return false;
            }
        }
        let other = 3 - c;
        let mut bad = 0;
        let mut edge = false;
        for q in self.diagonals(k) {
            match self.cells[q as usize] {
                BORDER => edge = true,
                v if v == other => bad += 1,
                _ => {}
            }
        }
        if edge {
            bad == 0
        } else {
            bad < 2
        }
    }

    /// Is a stone of colour `c` on the empty point `k` legal: not the ko
    /// point, and not suicide?
    pub fn is_legal(&self, k: u16, c: u8) -> bool {
        if self.cells[k as usize] != EMPTY || self.ko == Some(k) {
            return false;
        }
        for q in self.neighbours(k) {
            let v = self.cells[q as usize];
            if v == EMPTY {
                return true;
            }
            if v == BORDER {
                continue;
            }
            let atari = self.liberty_count(q, 2) == 1;
            if (v == c) != atari {
                // An own string with another liberty, or an opponent
                // string this move captures.
                return true;
            }
        }
        false
    }

    /// How many liberties the string of a stone of colour `c` placed on
    /// the empty point `k` would have (up to 3), not counting captures;
    /// and whether the move captures something.
    pub fn after_move(&self, k: u16, c: u8) -> (usize, bool, usize) {
        let mut libs = [0u16; 3];
        let mut found = 0;
        let mut stones = 1;
        let mut captures = false;
        let mut seen = [0u16; 4];
        let mut nseen = 0;
        let add = |q: u16, libs: &mut [u16; 3], found: &mut usize| {
            if q != k && *found < 3 && !libs[..*found].contains(&q) {
                libs[*found] = q;
                *found += 1;
            }
        };
        for q in self.neighbours(k) {
            match self.cells[q as usize] {
                EMPTY => add(q, &mut libs, &mut found),
                BORDER => {}
                v => {
                    let h = self.head[q as usize];
                    if seen[..nseen].contains(&h) {
                        continue;
                    }
                    seen[nseen] = h;
                    nseen += 1;
                    if v == c {
                        stones += self.size[h as usize] as usize;
                        let mut s = q;
                        loop {
                            for r in self.neighbours(s) {
                                if self.cells[r as usize] == EMPTY {
                                    add(r, &mut libs, &mut found);
                                }
                            }
                            s = self.next[s as usize];
                            if s == q || found >= 3 {
                                break;
                            }
                        }
                    } else if self.liberty_count(q, 2) == 1 {
                        captures = true;
                    }
                }
            }
        }
        (found, captures, stones)
    }

    /// Places a stone without the rules (for setting up a position).
    fn put(&mut self, k: u16, v: u8) {
        self.cells[k as usize] = v;
        self.remove_empty(k);
        self.head[k as usize] = k;
        self.next[k as usize] = k;
        self.size[k as usize] = 1;
        self.plibs[k as usize] = 0;
        self.lsum[k as usize] = 0;
        self.lsum2[k as usize] = 0;
        for q in self.neighbours(k) {
            match self.cells[q as usize] {
                EMPTY => self.adjust(k, q, true),
                BORDER => {}
                _ => {
                    let h = self.head[q as usize];
                    self.adjust(h, k, false);
                }
            }
        }
        for q in self.neighbours(k) {
            if self.cells[q as usize] == v && self.head[q as usize] != self.head[k as usize] {
                self.merge(k, q);
            }
        }
    }

    fn remove_empty(&mut self, k: u16) {
        let at = self.empty_at[k as usize] as usize;
        let last = *self.empty.last().expect("the point was empty");
        self.empty[at] = last;
        self.empty_at[last as usize] = at as u16;
        self.empty.pop();
        self.empty_at[k as usize] = u16::MAX;
    }

    fn add_empty(&mut self, k: u16) {
        self.empty_at[k as usize] = self.empty.len() as u16;
        self.empty.push(k);
    }

    /// Joins the strings through stones `a` and `b`.
    fn merge(&mut self, a: u16, b: u16) {
        let (mut ha, mut hb) = (self.head[a as usize], self.head[b as usize]);
        if self.size[ha as usize] < self.size[hb as usize] {
            std::mem::swap(&mut ha, &mut hb);
        }
        // Relabel the smaller string.
        let mut s = hb;
        loop {
            self.head[s as usize] = ha;
            s = self.next[s as usize];
            if s == hb {
                break;
            }
        }
        // Splice the two circular lists.
        let (na, nb) = (self.next[ha as usize], self.next[hb as usize]);
        self.next[ha as usize] = nb;
        self.next[hb as usize] = na;
        self.size[ha as usize] += self.size[hb as usize];
        self.plibs[ha as usize] += self.plibs[hb as usize];
        self.lsum[ha as usize] += self.lsum[hb as usize];
        self.lsum2[ha as usize] += self.lsum2[hb as usize];
    }

    /// Plays a legal move (check with [`FastBoard::is_legal`] first).
    pub fn play(&mut self, k: u16, c: u8) {
        debug_assert!(self.is_legal(k, c));
        self.captured.clear();
        self.put(k, c);
        let other = 3 - c;
        for q in self.neighbours(k) {
            if self.cells[q as usize] == other && self.plibs[self.head[q as usize] as usize] == 0 {
                let before = self.captured.len();
                self.remove_captured(q, before);
            }
        }
        let h = self.head[k as usize];
        self.ko = if self.captured.len() == 1
            && self.size[h as usize] == 1
            && self.liberty_count(k, 2) == 1
        {
            Some(self.captured[0])
        } else {
            None
        };
    }

    /// Removes the string through `k`, appending its stones to
    /// `captured` from index `from`, and gives the neighbours their
    /// pseudo-liberties back.
    fn remove_captured(&mut self, k: u16, from: usize) {
        let start = k;
        let mut s = start;
        loop {
            let nxt = self.next[s as usize];
            self.cells[s as usize] = EMPTY;
            self.add_empty(s);
            self.captured.push(s);
            s = nxt;
            if s == start {
                break;
            }
        }
        for i in from..self.captured.len() {
            let s = self.captured[i];
            for q in self.neighbours(s) {
                let v = self.cells[q as usize];
                if v == BLACK || v == WHITE {
                    let h = self.head[q as usize];
                    self.adjust(h, s, true);
                }
            }
        }
    }

    /// A pass: clears the ko.
    pub fn pass(&mut self) {
        self.captured.clear();
        self.ko = None;
    }

    /// Area score, black minus white, without komi: stones, and empty
    /// points whose neighbours are all of one colour (after a playout
    /// every empty point is such an eye or dame).
    pub fn area_score(&self) -> i32 {
        let mut score = 0;
        for k in self.indices() {
            match self.cells[k as usize] {
                BLACK => score += 1,
                WHITE => score -= 1,
                _ => {
                    let (mut b, mut w) = (false, false);
                    for q in self.neighbours(k) {
                        match self.cells[q as usize] {
                            BLACK => b = true,
                            WHITE => w = true,
                            _ => {}
                        }
                    }
                    match (b, w) {
                        (true, false) => score += 1,
                        (false, true) => score -= 1,
                        _ => {}
                    }
                }
            }
        }
        score
    }

    /// Checks the string bookkeeping against a recount (tests).
    pub fn verify(&self) -> Result<(), String> {
        for k in self.indices() {
            let v = self.cells[k as usize];
            if v != BLACK && v != WHITE {
                if v == EMPTY && self.empty[self.empty_at[k as usize] as usize] != k {
                    return Err(format!("empty list out of step at {k}"));
                }
                continue;
            }
            let h = self.head[k as usize];
            if self.head[h as usize] != h || self.cells[h as usize] != v {
                return Err(format!("bad head for {k}"));
            }
            if h == k {
                let (mut n, mut pl, mut sum, mut sum2) = (0, 0, 0u32, 0u64);
                let mut s = k;
                loop {
                    if self.head[s as usize] != h {
                        return Err(format!("string of {k} holds a stranger"));
                    }
                    n += 1;
                    for q in self.neighbours(s) {
                        if self.cells[q as usize] == EMPTY {
                            pl += 1;
                            sum += q as u32;
                            sum2 += (q as u64) * (q as u64);
                        }
                    }
                    s = self.next[s as usize];
                    if s == k {
                        break;
                    }
                }
                if n != self.size[h as usize] as usize || pl != self.plibs[h as usize] as usize {
                    return Err(format!(
                        "string of {k}: size {n} vs {}, plibs {pl} vs {}",
                        self.size[h as usize], self.plibs[h as usize]
                    ));
                }
                if sum != self.lsum[h as usize] || sum2 != self.lsum2[h as usize] {
                    return Err(format!("string of {k}: liberty sums out of step"));
                }
                if pl == 0 {
                    return Err(format!("string of {k} has no liberty"));
                }
                let mut libs = Vec::new();
                self.liberties(k, 2, &mut libs);
                if self.in_atari(k) != (libs.len() == 1) {
                    return Err(format!("string of {k}: atari test disagrees"));
                }
            }
        }
        Ok(())
    }
}

/// The 3x3 shapes of a playout pattern database, as a table from a
/// point's eight neighbours to a weight (0: no shape).
///
/// The neighbourhood code packs the eight neighbours N, S, W, E, NW, NE,
/// SW, SE two bits each (0 empty, 1 the side to move, 2 the opponent,
/// 3 off the board), lowest bits first. The table is built once from the
/// compiled patterns by the ordinary [`Matcher`] on a 5x5 board set up for
/// each possible neighbourhood, so the playouts read the same language,
/// symmetry classes and edge rules as every other database.
#[derive(Clone, Debug)]
pub struct ShapeTable {
    weights: Vec<u16>,
    /// Neighbourhoods with a shape (for reports and tests).
    shapes: usize,
}

/// Offsets (di, dj) of the neighbours in code order.
const RING: [(i32, i32); 8] = [
    (-1, 0),
    (1, 0),
    (0, -1),
    (0, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
    (1, 1),
];

impl ShapeTable {
    /// The table of katachi's `patterns/playout.db`.
    pub fn builtin() -> &'static ShapeTable {
        static TABLE: OnceLock<ShapeTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            ShapeTable::new(crate::builtin_playout::TABLES)
                .expect("patterns/playout.db keeps to the playout rules (tested)")
        })
    }

    /// An empty table: the playouts then play no shapes.
    pub fn none() -> &'static ShapeTable {
        static NONE: OnceLock<ShapeTable> = OnceLock::new();
        NONE.get_or_init(|| ShapeTable {
            weights: vec![0; 1 << 16],
            shapes: 0,
        })
    }

    /// Builds the table of a compiled database. Every pattern must lie
    /// within one point of its move, and its edges must run along the
    /// move's own row or column: otherwise an error naming the pattern.
    pub fn new(tables: Tables<'_>) -> Result<ShapeTable, String> {
        for p in tables.patterns {
            let (mi, mj) = (p.move_di, p.move_dj);
            let e = p.extent;
            let near =
                e.min_i >= mi - 1 && e.max_i <= mi + 1 && e.min_j >= mj - 1 && e.max_j <= mj + 1;
            if !near {
                return Err(format!(
                    "playout pattern `{}` (line {}) reaches beyond the eight neighbours of its move",
                    p.name, p.line
                ));
            }
            let edges_ok = (p.edges & side::NORTH == 0 || e.min_i == mi)
                && (p.edges & side::SOUTH == 0 || e.max_i == mi)
                && (p.edges & side::WEST == 0 || e.min_j == mj)
                && (p.edges & side::EAST == 0 || e.max_j == mj);
            if !edges_ok {
                return Err(format!(
                    "playout pattern `{}` (line {}) has an edge that does not touch its move's row or column",
                    p.name, p.line
                ));
            }
        }
        let matcher = Matcher::new(tables);
        let mut weights = vec![0u16; 1 << 16];
        let mut shapes = 0;
        for code in 0..(1u32 << 16) {
            let Some(board_and_centre) = board_for(code) else {
                continue;
            };
            let (board, centre) = board_and_centre;
            let mut w = 0i32;
            for to_move in [Color::Black, Color::White] {
                for m in matcher.matches(&board, to_move) {
                    if m.move_point == centre {
                        w = w.max(tables.patterns[m.pattern as usize].weight);
                    }
                }
            }
            if w > 0 {
                weights[code as usize] = w.min(u16::MAX as i32) as u16;
                shapes += 1;
            }
        }
        Ok(ShapeTable { weights, shapes })
    }

    /// The weight of the shape around an empty point with neighbourhood
    /// `code`.
    #[inline]
    pub fn weight(&self, code: u16) -> u16 {
        self.weights[code as usize]
    }

    /// How many neighbourhoods hold a shape.
    pub fn shapes(&self) -> usize {
        self.shapes
    }
}

/// A 5x5 board whose centre point has the neighbourhood `code` (black the
/// side to move), or `None` when the off-board neighbours of `code` are
/// not those of a real point.
fn board_for(code: u32) -> Option<(Board, Point)> {
    let at = |k: usize| (code >> (2 * k)) & 3;
    let (top, bottom, left, right) = (at(0) == 3, at(1) == 3, at(2) == 3, at(3) == 3);
    if (top && bottom) || (left && right) {
        return None;
    }
    let centre = Point::new(
        if top {
            0
        } else if bottom {
            4
        } else {
            2
        },
        if left {
            0
        } else if right {
            4
        } else {
            2
        },
    );
    let mut board = Board::new(5);
    for (k, &(di, dj)) in RING.iter().enumerate() {
        let off =
            (di == -1 && top) || (di == 1 && bottom) || (dj == -1 && left) || (dj == 1 && right);
        let v = at(k);
        if off != (v == 3) {
            return None;
        }
        let q = Point::new(centre.i + di, centre.j + dj);
        match v {
            1 => {
                board.place(q, Color::Black);
            }
            2 => {
                board.place(q, Color::White);
            }
            _ => {}
        }
    }
    Some((board, centre))
}

/// A small seeded generator (xorshift64*), so that a playout is a
/// function of its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Never zero: xorshift stays at zero.
        Rng((seed ^ 0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// One playout: the moves played (with their colours) and the result.
#[derive(Debug)]
pub struct Playout {
    /// (index, cell value) of every stone played, in order.
    pub moves: Vec<(u16, u8)>,
    scratch: Vec<u16>,
    candidates: Vec<u16>,
    weights: Vec<u32>,
    shapes: &'static ShapeTable,
}

impl Default for Playout {
    fn default() -> Self {
        Playout::new()
    }
}

impl Playout {
    /// Playouts with katachi's shapes (`patterns/playout.db`).
    pub fn new() -> Playout {
        Playout::with_shapes(ShapeTable::builtin())
    }

    /// Playouts with another shape table ([`ShapeTable::none`]: no shapes).
    pub fn with_shapes(shapes: &'static ShapeTable) -> Playout {
        Playout {
            moves: Vec::new(),
            scratch: Vec::new(),
            candidates: Vec::new(),
            weights: Vec::new(),
            shapes,
        }
    }

    /// Plays the game out from `board` with `to_move` first and `last`
    /// the previous move; returns the area score, black minus white, of
    /// the final position (without komi). The moves are in `self.moves`.
    pub fn run(
        &mut self,
        board: &mut FastBoard,
        mut to_move: u8,
        mut last: Option<u16>,
        rng: &mut Rng,
    ) -> i32 {
        self.moves.clear();
        let cap = 3 * board.n * board.n;
        let mut passes = 0;
        while passes < 2 && self.moves.len() < cap {
            match self.choose(board, to_move, last, rng) {
                Some(k) => {
                    board.play(k, to_move);
                    self.moves.push((k, to_move));
                    last = Some(k);
                    passes = 0;
                }
                None => {
                    board.pass();
                    last = None;
                    passes += 1;
                }
            }
            to_move = 3 - to_move;
        }
        board.area_score()
    }

    /// The policy's move for `c`, or `None` to pass.
    pub fn choose(
        &mut self,
        board: &FastBoard,
        c: u8,
        last: Option<u16>,
        rng: &mut Rng,
    ) -> Option<u16> {
        if let Some(l) = last {
            if let Some(k) = self.answer(board, c, l, rng) {
                return Some(k);
            }
            if let Some(k) = self.shape(board, c, l, rng) {
                return Some(k);
            }
        }
        self.random_move(board, c, rng)
    }

    /// Moves that answer the last move `l`: capture an opponent string
    /// next to it left in atari, or save an own string it put in atari
    /// (capture an attacker in atari, or extend to two liberties).
    fn answer(&mut self, board: &FastBoard, c: u8, l: u16, rng: &mut Rng) -> Option<u16> {
        self.candidates.clear();
        let other = 3 - c;
        let mut look = [l; 5];
        look[1..].copy_from_slice(&board.neighbours(l));
        for &q in &look {
            let v = board.at(q);
            if v == other && board.in_atari(q) {
                let lib = board.atari_liberty(q);
                if board.is_legal(lib, c) && !self.candidates.contains(&lib) {
                    self.candidates.push(lib);
                }
            } else if v == c && board.in_atari(q) {
                // Capture a neighbouring opponent string in atari.
                let mut s = q;
                loop {
                    for r in board.neighbours(s) {
                        if board.at(r) == other && board.in_atari(r) {
                            let lib = board.atari_liberty(r);
                            if board.is_legal(lib, c) && !self.candidates.contains(&lib) {
                                self.candidates.push(lib);
                            }
                        }
                    }
                    s = board.next[s as usize];
                    if s == q {
                        break;
                    }
                }
                // Extend, when that gives the string room.
                let lib = board.atari_liberty(q);
                if board.is_legal(lib, c) && board.after_move(lib, c).0 >= 2 {
                    self.candidates.push(lib);
                }
            }
        }
        if self.candidates.is_empty() {
            None
        } else {
            Some(self.candidates[rng.below(self.candidates.len())])
        }
    }

    /// A shape of the table on an empty neighbour of the last move `l`,
    /// drawn by weight; never an own eye nor a self-atari.
    fn shape(&mut self, board: &FastBoard, c: u8, l: u16, rng: &mut Rng) -> Option<u16> {
        if self.shapes.shapes == 0 {
            return None;
        }
        self.candidates.clear();
        self.weights.clear();
        let w = board.w as u16;
        let mut total = 0u32;
        for k in [
            l - w,
            l + w,
            l - 1,
            l + 1,
            l - w - 1,
            l - w + 1,
            l + w - 1,
            l + w + 1,
        ] {
            if board.at(k) != EMPTY {
                continue;
            }
            let weight = self.shapes.weight(board.neighbourhood(k, c)) as u32;
            if weight == 0 || board.is_eye(k, c) || !board.is_legal(k, c) {
                continue;
            }
            let (libs, captures, _) = board.after_move(k, c);
            if libs <= 1 && !captures {
                continue;
            }
            self.candidates.push(k);
            self.weights.push(weight);
            total += weight;
        }
        if total == 0 {
            return None;
        }
        let mut r = rng.below(total as usize) as u32;
        for (i, &wt) in self.weights.iter().enumerate() {
            if r < wt {
                return Some(self.candidates[i]);
            }
            r -= wt;
        }
        self.candidates.last().copied()
    }

    /// A uniformly random legal move that fills no own eye and is not a
    /// self-atari of two or more stones (a single-stone self-atari can be
    /// a throw-in; one that captures is fine).
    fn random_move(&mut self, board: &FastBoard, c: u8, rng: &mut Rng) -> Option<u16> {
        let empty = board.empty_points();
        let mut n = empty.len();
        if n == 0 {
            return None;
        }
        // Draw without replacement over a shuffled view of the list.
        self.scratch.clear();
        self.scratch.extend_from_slice(empty);
        while n > 0 {
            let i = rng.below(n);
            let k = self.scratch[i];
            n -= 1;
            self.scratch.swap(i, n);
            if board.is_eye(k, c) || !board.is_legal(k, c) {
                continue;
            }
            let (libs, captures, stones) = board.after_move(k, c);
            if libs <= 1 && !captures && stones >= 2 {
                continue;
            }
            return Some(k);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::strings::Goban;
    use crate::position::Position;

    /// Random games on both boards: same legality, same stones, same
    /// captures, bookkeeping consistent.
    #[test]
    fn fast_board_follows_the_rules_of_goban() {
        for seed in 0..40u64 {
            let n = [5usize, 7, 9, 13][seed as usize % 4];
            let mut fast = FastBoard::new(n);
            let mut goban = Goban::new(n);
            let mut rng = Rng::new(seed);
            let mut c = Color::Black;
            for _ in 0..(n * n * 3) {
                // Compare legality everywhere.
                for k in fast.indices().collect::<Vec<_>>() {
                    let p = fast.point(k);
                    assert_eq!(
                        fast.is_legal(k, cell(c)),
                        goban.is_legal(p, c),
                        "seed {seed} at {p:?} for {c:?}"
                    );
                }
                let legal: Vec<u16> = fast
                    .empty_points()
                    .iter()
                    .copied()
                    .filter(|&k| fast.is_legal(k, cell(c)))
                    .collect();
                if legal.is_empty() {
                    fast.pass();
                    goban.pass();
                } else {
                    let k = legal[rng.below(legal.len())];
                    fast.play(k, cell(c));
                    goban.play(fast.point(k), c).unwrap();
                }
                fast.verify().unwrap();
                for k in fast.indices() {
                    assert_eq!(fast.stone(k), goban.stone(fast.point(k)));
                }
                c = c.other();
            }
        }
    }

    #[test]
    fn playouts_end_with_only_eyes_left_and_are_deterministic() {
        let mut results = Vec::new();
        for round in 0..2 {
            let mut scores = Vec::new();
            for seed in 0..20u64 {
                let mut board = FastBoard::new(9);
                let mut rng = Rng::new(seed);
                let mut playout = Playout::new();
                let score = playout.run(&mut board, BLACK, None, &mut rng);
                board.verify().unwrap();
                assert!((-81..=81).contains(&score));
                // Neither side has a move left but eye-filling or
                // multi-stone self-atari.
                for c in [BLACK, WHITE] {
                    assert!(
                        playout.random_move(&board, c, &mut rng).is_none(),
                        "seed {seed}: the playout stopped early"
                    );
                }
                scores.push((score, playout.moves.len()));
            }
            results.push(scores);
            let _ = round;
        }
        assert_eq!(results[0], results[1]);
    }

    /// The table gives, for every neighbourhood, what the matcher finds
    /// for the patterns: checked against a direct reading of the
    /// diagrams' rule (a hane: `XOX` above an empty centre row).
    #[test]
    fn the_builtin_shape_table_holds_the_playout_patterns() {
        let table = ShapeTable::new(crate::builtin_playout::TABLES).unwrap();
        assert!(table.shapes() > 0);
        // Pattern 1, `XOX / .*. / ???`, weight 30, in every rotation and
        // for either colour; on a board it is found with the table code.
        let mut b = FastBoard::new(9);
        for (i, j, c) in [(3, 3, BLACK), (3, 4, WHITE), (3, 5, BLACK)] {
            b.put(b.index(Point::new(i, j)), c);
        }
        let centre = b.index(Point::new(4, 4));
        for c in [BLACK, WHITE] {
            assert!(table.weight(b.neighbourhood(centre, c)) >= 30);
        }
        // Rotated a quarter turn: X O X down a column, left of the move.
        let mut r = FastBoard::new(9);
        for (i, j, c) in [(3, 3, WHITE), (4, 3, BLACK), (5, 3, WHITE)] {
            r.put(r.index(Point::new(i, j)), c);
        }
        let centre = r.index(Point::new(4, 4));
        assert!(table.weight(r.neighbourhood(centre, BLACK)) >= 30);
        // A lone stone beside a point is no shape.
        let mut e = FastBoard::new(9);
        e.put(e.index(Point::new(3, 4)), WHITE);
        assert_eq!(
            table.weight(e.neighbourhood(e.index(Point::new(4, 4)), BLACK)),
            0
        );
        // Impossible neighbourhoods (north off the board, north-east on
        // it) stay empty.
        assert_eq!(table.weight(0b11), 0);
    }

    /// Every neighbourhood code, against a plain reading of the compiled
    /// patterns cell by cell over the eight transformations.
    #[test]
    fn the_shape_table_agrees_with_a_cell_by_cell_reading() {
        use mkpat::transform;
        let tables = crate::builtin_playout::TABLES;
        let table = ShapeTable::new(tables).unwrap();
        let elements = |p: &mkpat::tables::Pattern| {
            &tables.elements
                [p.elements.start as usize..(p.elements.start + p.elements.len) as usize]
        };
        for code in 0..(1u32 << 16) {
            let Some((_, centre)) = board_for(code) else {
                assert_eq!(table.weight(code as u16), 0);
                continue;
            };
            let cell_at = |di: i32, dj: i32| -> u32 {
                if (di, dj) == (0, 0) {
                    return 0;
                }
                let k = RING.iter().position(|&d| d == (di, dj)).unwrap();
                (code >> (2 * k)) & 3
            };
            let mut want = 0;
            for p in tables.patterns {
                for t in 0..8u8 {
                    for swap in [false, true] {
                        let ok = elements(p).iter().all(|e| {
                            let (di, dj) = transform::apply(
                                t,
                                e.di() - p.move_di as i32,
                                e.dj() - p.move_dj as i32,
                            );
                            let mut v = cell_at(di, dj);
                            if swap && (v == 1 || v == 2) {
                                v = 3 - v;
                            }
                            v != 3 && e.cell().accepts(v)
                        });
                        // `?` cells and edges: every cell of the
                        // transformed extent on the board, every edge
                        // side off it.
                        let sides = transform::transform_sides(t, p.edges);
                        let (lo_i, hi_i, lo_j, hi_j) = {
                            let mut v = Vec::new();
                            for (i, j) in [
                                (p.extent.min_i, p.extent.min_j),
                                (p.extent.max_i, p.extent.max_j),
                            ] {
                                v.push(transform::apply(
                                    t,
                                    i as i32 - p.move_di as i32,
                                    j as i32 - p.move_dj as i32,
                                ));
                            }
                            (
                                v[0].0.min(v[1].0),
                                v[0].0.max(v[1].0),
                                v[0].1.min(v[1].1),
                                v[0].1.max(v[1].1),
                            )
                        };
                        let on_board =
                            (lo_i..=hi_i).all(|i| (lo_j..=hi_j).all(|j| cell_at(i, j) != 3));
                        let n = 5;
                        let edges = (sides & side::NORTH == 0 || centre.i + lo_i == 0)
                            && (sides & side::SOUTH == 0 || centre.i + hi_i == n - 1)
                            && (sides & side::WEST == 0 || centre.j + lo_j == 0)
                            && (sides & side::EAST == 0 || centre.j + hi_j == n - 1);
                        if ok && on_board && edges {
                            want = want.max(p.weight);
                        }
                    }
                }
            }
            assert_eq!(table.weight(code as u16) as i32, want, "code {code:#06x}");
        }
    }

    #[test]
    fn patterns_reaching_past_the_neighbours_are_refused() {
        let db = b"# pattern 1\n\n?O.\n.*.\n...\n..X\n\n:8,10,0,0,0,0,-,0,NULL\n";
        let compiled = mkpat::compile("far.db", db, &mkpat::Options::default());
        let database = compiled.database.expect("compiles");
        let err = ShapeTable::new(database.tables()).unwrap_err();
        assert!(err.contains("beyond the eight neighbours"), "{err}");
    }

    /// A board from a diagram: `X` black, `O` white, `.` empty.
    fn diagram(rows: &[&str]) -> FastBoard {
        let mut stones = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            for (j, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let p = Point::new(i as i32, j as i32);
                match ch {
                    'X' => stones.push((Color::Black, p)),
                    'O' => stones.push((Color::White, p)),
                    _ => {}
                }
            }
        }
        FastBoard::from_stones(rows.len(), &stones, None)
    }

    #[test]
    fn the_policy_captures_and_escapes() {
        // In every playout, `c` answers the last move at `last` with `want`.
        let always = |board: &FastBoard, c: u8, last: Point, want: Point| {
            let mut playout = Playout::new();
            for seed in 0..10 {
                let mut rng = Rng::new(seed);
                let got = playout.choose(board, c, Some(board.index(last)), &mut rng);
                assert_eq!(got, Some(board.index(want)), "seed {seed}");
            }
        };
        // Black's last move left its stone in atari: white takes it.
        let board = diagram(&[
            ". . . . .",
            ". . . . .",
            ". O . . .",
            "O X O . .",
            ". . . . .",
        ]);
        always(&board, WHITE, Point::new(3, 1), Point::new(4, 1));
        // White's last move put a black stone in atari: black extends to
        // three liberties.
        let board = diagram(&[
            ". . . . .",
            ". . O . .",
            ". O X O .",
            ". . . . .",
            ". . . . .",
        ]);
        always(&board, BLACK, Point::new(2, 3), Point::new(3, 2));
    }
}
