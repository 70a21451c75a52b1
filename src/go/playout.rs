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
    /// Per representative: pseudo-liberties and stones.
    plibs: Vec<u16>,
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
        if self.plibs[self.head[k as usize] as usize] == 0 {
            return 0;
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
        for q in self.neighbours(k) {
            match self.cells[q as usize] {
                EMPTY => self.plibs[k as usize] += 1,
                BORDER => {}
                _ => {
                    let h = self.head[q as usize];
                    self.plibs[h as usize] -= 1;
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
                    self.plibs[h as usize] += 1;
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
                let (mut n, mut pl) = (0, 0);
                let mut s = k;
                loop {
                    if self.head[s as usize] != h {
                        return Err(format!("string of {k} holds a stranger"));
                    }
                    n += 1;
                    pl += self
                        .neighbours(s)
                        .iter()
                        .filter(|&&q| self.cells[q as usize] == EMPTY)
                        .count();
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
                if pl == 0 {
                    return Err(format!("string of {k} has no liberty"));
                }
            }
        }
        Ok(())
    }
}

/// A small seeded generator (xorshift64*), so that a playout is a
/// function of its seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Never zero: xorshift stays at zero.
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15 | 1)
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
        ((self.next_u64() >> 32) * n as u64 >> 32) as usize
    }
}

/// One playout: the moves played (with their colours) and the result.
#[derive(Debug, Default)]
pub struct Playout {
    /// (index, cell value) of every stone played, in order.
    pub moves: Vec<(u16, u8)>,
    scratch: Vec<u16>,
    candidates: Vec<u16>,
}

impl Playout {
    pub fn new() -> Playout {
        Playout::default()
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
            if v == other && board.liberty_count(q, 2) == 1 {
                board.liberties(q, 1, &mut self.scratch);
                let lib = self.scratch[0];
                if board.is_legal(lib, c) && !self.candidates.contains(&lib) {
                    self.candidates.push(lib);
                }
            } else if v == c && board.liberty_count(q, 2) == 1 {
                // Capture a neighbouring opponent string in atari.
                let mut s = q;
                loop {
                    for r in board.neighbours(s) {
                        if board.at(r) == other && board.liberty_count(r, 2) == 1 {
                            board.liberties(r, 1, &mut self.scratch);
                            let lib = self.scratch[0];
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
                board.liberties(q, 1, &mut self.scratch);
                let lib = self.scratch[0];
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

    #[test]
    fn the_policy_captures_and_escapes() {
        // Black B2 in atari after white's C2 (white A2... ) on 5x5:
        //   . . . . .
        //   . . . . .
        //   . O . . .
        //   O X O . .
        //   . O . . .
        // White just played; black's B2 has one liberty... it is
        // surrounded: make it two liberties and let white atari it.
        let stones = [
            (Color::Black, Point::new(3, 1)),
            (Color::White, Point::new(3, 0)),
            (Color::White, Point::new(2, 1)),
            (Color::White, Point::new(3, 2)),
        ];
        let board = FastBoard::from_stones(5, &stones, None);
        let mut rng = Rng::new(1);
        let mut playout = Playout::new();
        // Black to move, white's last move at C2: the only answer is to
        // extend at B1, which gives one liberty only — no answer; but
        // white to move after black's last move captures at B1.
        let b1 = board.index(Point::new(4, 1));
        let c2 = board.index(Point::new(3, 2));
        let b2 = board.index(Point::new(3, 1));
        for seed in 0..10 {
            let mut rng2 = Rng::new(seed);
            assert_eq!(playout.choose(&board, WHITE, Some(b2), &mut rng2), Some(b1));
        }
        let _ = (c2, &mut rng);
        // Escape: black to move after white's atari, extension works.
        let stones = [
            (Color::Black, Point::new(2, 2)),
            (Color::White, Point::new(1, 2)),
            (Color::White, Point::new(2, 1)),
            (Color::White, Point::new(2, 3)),
        ];
        let board = FastBoard::from_stones(5, &stones, None);
        let d3 = board.index(Point::new(2, 3));
        let c2 = board.index(Point::new(3, 2));
        assert_eq!(playout.choose(&board, BLACK, Some(d3), &mut rng), Some(c2));
    }
}
