//! A small, fast board for Monte Carlo playouts.
//!
//! [`super::strings::Goban`] keeps the matcher's board, a Zobrist hash and
//! an undo record in step with every stone: right for reading and for the
//! pattern matcher, far too heavy for the tens of thousands of random games
//! a search plays per move. This board keeps only what a playout needs:
//! stones on a bordered array, strings as circular lists with a
//! representative, and *pseudo-liberties* (a liberty counted once per
//! adjacent stone) with the sum and the sum of squares of their indices.
//! Pseudo-liberties are zero exactly when real ones are, which is all
//! capture needs, and the sums answer "in atari?" and "where is its
//! liberty?" in O(1); the rare questions that need more (liberties after a
//! move) walk the string, which is short in practice. No undo: a playout
//! starts from a copy.

use super::strings::Goban;
use crate::position::{Color, Point, Position};

/// Cell values: an empty point, the two colours, off the board.
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const BORDER: u8 = 3;

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

    /// The position of `goban`, with the ko point of `to_move`.
    pub fn from_goban(goban: &Goban, to_move: Color) -> FastBoard {
        let mut b = FastBoard::new(goban.side());
        for p in goban.points() {
            if let Some(c) = goban.stone(p) {
                b.put(b.index(p), cell(c));
            }
        }
        b.ko = goban.ko_point(to_move).map(|p| b.index(p));
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
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = u16> + '_ {
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

    /// The four orthogonal neighbours of `k` (border cells included).
    #[inline]
    pub fn neighbours(&self, k: u16) -> [u16; 4] {
        let w = self.w as u16;
        [k - w, k - 1, k + 1, k + w]
    }

    #[inline]
    fn diagonals(&self, k: u16) -> [u16; 4] {
        let w = self.w as u16;
        [k - w - 1, k - w + 1, k + w - 1, k + w + 1]
    }

    /// Which string stone `k` belongs to: the same number for every
    /// stone of a string, different for different strings (until the
    /// next move).
    #[inline]
    pub fn string_id(&self, k: u16) -> u16 {
        self.head[k as usize]
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

    /// The eight neighbours of `k` in the order of the shape table's code:
    /// N, S, W, E, NW, NE, SW, SE (border cells included).
    #[inline]
    pub fn eight(&self, k: u16) -> [u16; 8] {
        let w = self.w as u16;
        [
            k - w,
            k + w,
            k - 1,
            k + 1,
            k - w - 1,
            k - w + 1,
            k + w - 1,
            k + w + 1,
        ]
    }

    /// The next stone of the string through stone `k` (circular).
    #[inline]
    pub fn next_stone(&self, k: u16) -> u16 {
        self.next[k as usize]
    }

    /// The [`super::shapes::ShapeTable`] code of the eight neighbours of
    /// `k`, seen by colour `c`.
    #[inline]
    pub fn neighbourhood(&self, k: u16, c: u8) -> u16 {
        // What a cell is to `c` (0 empty, 1 own, 2 the opponent's, 3 the
        // edge), by colour and cell value: a lookup, not a branch per
        // neighbour, since the playouts ask this for every point around
        // every move.
        const SEEN_BY: [[u16; 4]; 3] = [[0, 2, 2, 3], [0, 1, 2, 3], [0, 2, 1, 3]];
        let seen = &SEEN_BY[c as usize];
        let mut code = 0u16;
        for (i, q) in self.eight(k).iter().enumerate() {
            code |= seen[self.cells[*q as usize] as usize] << (2 * i);
        }
        code
    }

    /// How many of the four neighbours of `k` are empty. A stone on an
    /// empty point with two of them is legal and has two liberties at
    /// least: the playouts skip [`FastBoard::after_move`] for it.
    #[inline]
    pub fn empty_neighbours(&self, k: u16) -> usize {
        self.neighbours(k)
            .iter()
            .filter(|&&q| self.cells[q as usize] == EMPTY)
            .count()
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
        self.after_move_without(k, c, k)
    }

    /// [`FastBoard::after_move`] with the empty point `gone` not counted
    /// as a liberty: what a stone on `k` would have once the opponent has
    /// played on `gone` (the ladder reader's look ahead, without playing
    /// either stone; that opponent stone's own effect on captures is not
    /// seen).
    pub fn after_move_without(&self, k: u16, c: u8, gone: u16) -> (usize, bool, usize) {
        let mut libs = [0u16; 3];
        let mut found = 0;
        let mut stones = 1;
        let mut captures = false;
        let mut seen = [0u16; 4];
        let mut nseen = 0;
        let add = |q: u16, libs: &mut [u16; 3], found: &mut usize| {
            if q != k && q != gone && *found < 3 && !libs[..*found].contains(&q) {
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

    /// Makes this board a copy of `other`, reusing its memory (a
    /// playout's ladder reads copy the board many times a second).
    pub fn copy_from(&mut self, other: &FastBoard) {
        // Destructured, so that a new field cannot be forgotten here.
        let FastBoard {
            n,
            w,
            cells,
            head,
            next,
            plibs,
            lsum,
            lsum2,
            size,
            ko,
            empty,
            empty_at,
            captured,
        } = other;
        self.n = *n;
        self.w = *w;
        self.cells.clone_from(cells);
        self.head.clone_from(head);
        self.next.clone_from(next);
        self.plibs.clone_from(plibs);
        self.lsum.clone_from(lsum);
        self.lsum2.clone_from(lsum2);
        self.size.clone_from(size);
        self.ko = *ko;
        self.empty.clone_from(empty);
        self.empty_at.clone_from(empty_at);
        self.captured.clone_from(captured);
    }

    /// Places a stone without the rules (for setting up a position).
    pub(crate) fn put(&mut self, k: u16, v: u8) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::playout::Rng;
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
                    // The playouts' shortcut: two empty neighbours make a
                    // legal move with two liberties at least.
                    if fast.at(k) == EMPTY && fast.empty_neighbours(k) >= 2 {
                        assert!(fast.is_legal(k, cell(c)));
                        assert!(fast.after_move(k, cell(c)).0 >= 2, "seed {seed} {p:?}");
                    }
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

    /// A copy made over a board of another game (and size) is that board:
    /// the same moves from both give the same boards.
    #[test]
    fn copy_from_makes_an_equal_board() {
        let mut rng = Rng::new(5);
        let mut a = FastBoard::new(9);
        let mut b = FastBoard::new(13);
        for _ in 0..60 {
            for (board, c) in [(&mut a, BLACK), (&mut b, WHITE)] {
                let empty = board.empty_points().to_vec();
                let k = empty[rng.below(empty.len())];
                if board.is_legal(k, c) {
                    board.play(k, c);
                }
            }
        }
        b.copy_from(&a);
        b.verify().unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        for c in [BLACK, WHITE, BLACK] {
            let k = a.empty_points()[0];
            if a.is_legal(k, c) {
                a.play(k, c);
                b.play(k, c);
            }
        }
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    /// `after_move_without` leaves out exactly the point named.
    #[test]
    fn after_move_without_leaves_out_one_liberty() {
        let grid = FastBoard::new(9);
        let at = |i, j| grid.index(Point::new(i, j));
        let mut b = FastBoard::new(9);
        let (centre, north, west) = (at(4, 4), at(3, 4), at(4, 3));
        assert_eq!(b.after_move(centre, BLACK), (3, false, 1));
        assert_eq!(b.after_move_without(centre, BLACK, north), (3, false, 1));
        b.play(at(4, 5), WHITE);
        b.play(at(5, 4), WHITE);
        // Two liberties left (north and west); without north, one.
        assert_eq!(b.after_move(centre, BLACK).0, 2);
        assert_eq!(b.after_move_without(centre, BLACK, north).0, 1);
        assert_eq!(b.after_move_without(centre, BLACK, west).0, 1);
    }
}
