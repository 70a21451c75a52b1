//! The playout policy: how the random games of the search are played.
//!
//! The policy ([`Playout::run`]) is the usual light one: answer the last
//! move (capture a string it left in atari, save an own string it put in
//! atari — by extending only where that is not a ladder, [`super::ladder`]),
//! else a shape of the [`ShapeTable`] on a neighbour of the last
//! move, drawn by weight, else a uniformly random legal move that neither
//! fills an own eye nor puts two or more stones in self-atari; the game
//! ends after two passes and is scored by area, Tromp-Taylor. Randomness
//! comes from a seeded generator, so a playout is a function of its seed.
//!
//! With [`Playout::with_replies`] the policy also learns across playouts
//! (Drake's "last good reply with forgetting"): after each playout, every
//! reply the winner played to a move is stored against that move, and a
//! reply the loser played is forgotten if it was the stored one; before
//! the shapes, the policy plays the stored reply to the last move when it
//! is legal, no own eye and no self-atari. Such a policy is a function of
//! its seed and of the playouts it has learned from, in order.
//!
//! With [`Playout::with_nakade`], before anything else, the policy plays
//! the vital point of a dead eye shape that the opponent's capture just
//! left (`nakade_point`).

use super::fastboard::{FastBoard, BLACK, EMPTY};
use super::ladder::Ladders;
use super::shapes::ShapeTable;

/// Random points a playout move tries for an empty area
/// ([`Playout::with_fill_board`]) before a uniformly random move.
const FILL_TRIES: usize = 4;

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
    /// The ladder reader, when ladders are read: extend out of atari only
    /// where that is not a ladder ([`Playout::with_ladders`]).
    ladders: Option<Ladders>,
    /// Try a few points in empty areas before a random move
    /// ([`Playout::with_fill_board`]).
    fill_board: bool,
    /// The last good replies, when learned ([`Playout::with_replies`]).
    replies: Option<Replies>,
    /// Play the vital point of a dead eye shape the opponent's capture
    /// just left ([`Playout::with_nakade`]).
    nakade: bool,
}

/// The last good replies: per colour and per board index, the point that
/// colour last answered a move there with in a playout it won (0: none;
/// index 0 is off the board). Sized at the first playout.
#[derive(Debug, Default)]
struct Replies {
    table: Vec<u16>,
    /// Scratch: (move, reply, colour of the reply) of the last playout.
    pairs: Vec<(u16, u16, u8)>,
}

impl Replies {
    fn slot(&self, prev: u16, c: u8) -> usize {
        Replies::slot_in(self.table.len() / 2, prev, c)
    }

    /// The slot of `c`'s reply to a move at `prev` in a table of `half`
    /// entries a colour.
    fn slot_in(half: usize, prev: u16, c: u8) -> usize {
        (c as usize - 1) * half + prev as usize
    }
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
            ladders: Some(Ladders::new()),
            fill_board: false,
            replies: None,
            nakade: false,
        }
    }

    /// The same policy learning the last good replies or not (off by
    /// default): the replies are stored by [`Playout::learn`], which the
    /// caller runs after each playout with its result.
    pub fn with_replies(mut self, on: bool) -> Playout {
        self.replies = on.then(Replies::default);
        self
    }

    /// The same policy with the ladder reading on or off (on by
    /// default): with it, an own string in atari extends only where that
    /// is not a ladder (where the extension leaves two liberties and
    /// successive ataris capture it).
    pub fn with_ladders(mut self, on: bool) -> Playout {
        self.ladders = on.then(Ladders::new);
        self
    }

    /// The same policy filling the board or not (off by default): when
    /// the last move calls for no answer and no shape, a few random
    /// points are tried for one in an empty area (all eight neighbours
    /// empty) before a uniformly random move.
    pub fn with_fill_board(mut self, on: bool) -> Playout {
        self.fill_board = on;
        self
    }

    /// The same policy with the nakade answer on or off (off by
    /// default): when the opponent's last move captured three to six
    /// stones whose points make a shape one stone on its vital point
    /// kills (three in a row or bent, the pyramid four, the bulky and
    /// the crossed five, the rabbity six), the policy plays that point
    /// first. Random play, which never puts two or more stones in
    /// self-atari, would otherwise leave such a group alive.
    pub fn with_nakade(mut self, on: bool) -> Playout {
        self.nakade = on;
        self
    }

    /// The shape table these playouts play.
    pub fn shapes(&self) -> &'static ShapeTable {
        self.shapes
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
        if let Some(replies) = &mut self.replies {
            replies.pairs.clear();
            let w = board.side() + 2;
            if replies.table.len() != 2 * w * w {
                replies.table = vec![0; 2 * w * w];
            }
        }
        let cap = 3 * board.side() * board.side();
        let mut passes = 0;
        while passes < 2 && self.moves.len() < cap {
            match self.choose(board, to_move, last, rng) {
                Some(k) => {
                    if let (Some(replies), Some(l)) = (&mut self.replies, last) {
                        replies.pairs.push((l, k, to_move));
                    }
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

    /// Learns the last good replies from the playout just run, whose
    /// result was `black_wins`, and from `before`, the moves that led to
    /// its start (a move 0 is a pass) after `last`: the winner's replies
    /// are stored, the loser's forgotten where they were the stored ones.
    /// Does nothing unless the replies are on.
    pub fn learn(&mut self, before: &[(u16, u8)], mut last: Option<u16>, black_wins: bool) {
        let Some(replies) = &mut self.replies else {
            return;
        };
        if replies.table.is_empty() {
            return;
        }
        let Replies { table, pairs } = replies;
        let half = table.len() / 2;
        let mut remember = |prev: u16, reply: u16, c: u8| {
            let slot = Replies::slot_in(half, prev, c);
            if (c == BLACK) == black_wins {
                table[slot] = reply;
            } else if table[slot] == reply {
                table[slot] = 0;
            }
        };
        // In the order played: the moves before the playout, then its own.
        for &(k, c) in before {
            if let (Some(l), true) = (last, k != 0) {
                remember(l, k, c);
            }
            last = (k != 0).then_some(k);
        }
        for &(prev, reply, c) in pairs.iter() {
            remember(prev, reply, c);
        }
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
            if self.nakade {
                if let Some(k) = nakade_point(board, board.captured()) {
                    return Some(k);
                }
            }
            if let Some(k) = self.answer(board, c, l, rng) {
                return Some(k);
            }
            if let Some(k) = self.good_reply(board, c, l) {
                return Some(k);
            }
            if let Some(k) = self.shape(board, c, l, rng) {
                return Some(k);
            }
        }
        if self.fill_board {
            if let Some(k) = self.empty_area(board, c, rng) {
                return Some(k);
            }
        }
        self.random_move(board, c, rng)
    }

    /// MoGo's "fill the board": a few random empty points, the first
    /// whose eight neighbours are all empty points (not the edge). Early
    /// in a playout on a big board, uniformly random moves land next to
    /// the stones as often as in the open and the playouts leave large
    /// areas for whoever reaches them first; a stone in an empty area
    /// first makes the count at the end more like a game's.
    fn empty_area(&mut self, board: &FastBoard, c: u8, rng: &mut Rng) -> Option<u16> {
        let empty = board.empty_points();
        if empty.is_empty() {
            return None;
        }
        for _ in 0..FILL_TRIES {
            let k = empty[rng.below(empty.len())];
            if board.neighbourhood(k, c) == 0 && board.is_legal(k, c) {
                return Some(k);
            }
        }
        None
    }

    /// The stored last good reply of `c` to the move at `l`, when it is
    /// legal, fills no own eye and is no self-atari.
    fn good_reply(&self, board: &FastBoard, c: u8, l: u16) -> Option<u16> {
        let replies = self.replies.as_ref()?;
        let k = *replies.table.get(replies.slot(l, c))?;
        (k != 0 && playable(board, k, c, false)).then_some(k)
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
                    s = board.next_stone(s);
                    if s == q {
                        break;
                    }
                }
                // Extend, when that gives the string room: with the
                // ladders read, room that is not a ladder.
                let lib = board.atari_liberty(q);
                if board.is_legal(lib, c) && !self.candidates.contains(&lib) {
                    let (libs, captures, _) = board.after_move(lib, c);
                    let runs = match &mut self.ladders {
                        Some(ladders) => {
                            libs >= 3
                                || captures
                                || (libs == 2 && !ladders.captured_after_extension(board, q, lib))
                        }
                        None => libs >= 2,
                    };
                    if runs {
                        self.candidates.push(lib);
                    }
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
        if self.shapes.shapes() == 0 {
            return None;
        }
        self.candidates.clear();
        self.weights.clear();
        let mut total = 0u32;
        for k in board.eight(l) {
            if board.at(k) != EMPTY {
                continue;
            }
            let weight = self.shapes.weight(board.neighbourhood(k, c)) as u32;
            if weight == 0 || !playable(board, k, c, false) {
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
            if playable(board, k, c, true) {
                return Some(k);
            }
        }
        None
    }
}

/// The vital point of the empty area `region` (the stones the last move
/// captured) when one stone there kills: the region is one of the dead
/// eye shapes of three to six points, told by how many of its own points
/// each point touches (sorted), and the vital point is the one touching
/// most. A region of two or fewer points or seven or more, or a shape that
/// lives (straight or bent four, a 2x3 block...) or is dead already (the
/// square four), has none.
pub(crate) fn nakade_point(board: &FastBoard, region: &[u16]) -> Option<u16> {
    const KILLABLE: [&[u8]; 5] = [
        &[1, 1, 2],
        &[1, 1, 1, 3],
        &[1, 2, 2, 2, 3],
        &[1, 1, 1, 1, 4],
        &[1, 1, 2, 2, 2, 4],
    ];
    if !(3..=6).contains(&region.len()) {
        return None;
    }
    let mut degrees = [0u8; 6];
    for (i, &k) in region.iter().enumerate() {
        degrees[i] = board
            .neighbours(k)
            .iter()
            .filter(|q| region.contains(q))
            .count() as u8;
    }
    let degrees = &degrees[..region.len()];
    let mut sorted = [0u8; 6];
    sorted[..region.len()].copy_from_slice(degrees);
    sorted[..region.len()].sort_unstable();
    if !KILLABLE.contains(&&sorted[..region.len()]) {
        return None;
    }
    let most = degrees.iter().max()?;
    let i = degrees.iter().position(|d| d == most)?;
    Some(region[i])
}

/// May the policy play `c` on the empty point `k`: legal, no own eye,
/// and no self-atari unless it captures — or, with `throw_in`, unless it
/// is a single stone (a throw-in). A point with two empty neighbours is
/// all of these without the look ahead of [`FastBoard::after_move`].
fn playable(board: &FastBoard, k: u16, c: u8, throw_in: bool) -> bool {
    if board.is_eye(k, c) || !board.is_legal(k, c) {
        return false;
    }
    if board.empty_neighbours(k) >= 2 {
        return true;
    }
    let (libs, captures, stones) = board.after_move(k, c);
    libs >= 2 || captures || (throw_in && stones < 2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::go::fastboard::WHITE;
    use crate::go::reading::tests::goban;
    use crate::position::{Color, Point};

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
                // multi-stone self-atari, or the capture a ko forbade
                // when it was its turn (the pass in between lifts the
                // ban, and the game is over).
                for c in [BLACK, WHITE] {
                    if let Some(k) = playout.random_move(&board, c, &mut rng) {
                        let (_, captures, stones) = board.after_move(k, c);
                        assert!(
                            captures && stones == 1,
                            "seed {seed}: the playout stopped early"
                        );
                    }
                }
                scores.push((score, playout.moves.len()));
            }
            results.push(scores);
            let _ = round;
        }
        assert_eq!(results[0], results[1]);
    }

    /// A board from a diagram: `X` black, `O` white, `.` empty, spaces
    /// between points.
    pub(crate) fn diagram(rows: &[&str]) -> FastBoard {
        let rows: Vec<String> = rows.iter().map(|r| r.replace(' ', "")).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        FastBoard::from_goban(&goban(&rows), Color::Black)
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

    #[test]
    fn the_vital_point_of_a_dead_shape_is_found_and_living_shapes_have_none() {
        let board = FastBoard::new(9);
        // A shape drawn with `#` on a 4x4 patch; its vital point, if any,
        // by (row, column).
        let vital = |rows: [&str; 4]| -> Option<(i32, i32)> {
            let mut region = Vec::new();
            for (i, row) in rows.iter().enumerate() {
                for (j, ch) in row.chars().enumerate() {
                    if ch == '#' {
                        region.push(board.index(Point::new(i as i32 + 2, j as i32 + 2)));
                    }
                }
            }
            // The answer does not depend on the order of the points.
            let forward = nakade_point(&board, &region);
            region.reverse();
            assert_eq!(forward, nakade_point(&board, &region), "{rows:?}");
            forward.map(|k| {
                let p = board.point(k);
                (p.i - 2, p.j - 2)
            })
        };
        assert_eq!(vital(["###.", "....", "....", "...."]), Some((0, 1)));
        assert_eq!(vital(["##..", ".#..", "....", "...."]), Some((0, 1)));
        assert_eq!(vital(["###.", ".#..", "....", "...."]), Some((0, 1)));
        assert_eq!(vital(["##..", "###.", "....", "...."]), Some((1, 1)));
        assert_eq!(vital([".#..", "###.", ".#..", "...."]), Some((1, 1)));
        assert_eq!(vital([".#..", "###.", ".##.", "...."]), Some((1, 1)));
        // Straight, bent and zigzag fours live; the square is dead
        // whoever plays; a 2x3 block and a straight five live; two
        // points or seven are not nakade.
        assert_eq!(vital(["####", "....", "....", "...."]), None);
        assert_eq!(vital(["###.", "#...", "....", "...."]), None);
        assert_eq!(vital(["##..", ".##.", "....", "...."]), None);
        assert_eq!(vital(["##..", "##..", "....", "...."]), None);
        assert_eq!(vital(["###.", "###.", "....", "...."]), None);
        assert_eq!(vital(["####", "#...", "....", "...."]), None);
        assert_eq!(vital(["##..", "....", "....", "...."]), None);
        assert_eq!(vital(["####", "###.", "....", "...."]), None);
    }

    #[test]
    fn after_capturing_a_bulky_five_the_policy_plays_its_vital_point() {
        // White's group surrounds black's five stones but one liberty,
        // its only eye space; white captures them at (3, 4).
        let mut board = diagram(&[
            ". . . . . . .",
            ". O O O O . .",
            "O O X X O . .",
            "O X X X . . .",
            "O O O O O . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let capture = board.index(Point::new(3, 4));
        assert!(board.is_legal(capture, WHITE));
        board.play(capture, WHITE);
        assert_eq!(board.captured().len(), 5);
        let vital = board.index(Point::new(3, 2));
        let mut with = Playout::new().with_nakade(true);
        let mut without = Playout::new();
        let mut elsewhere = 0;
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            assert_eq!(
                with.choose(&board, BLACK, Some(capture), &mut rng),
                Some(vital),
                "seed {seed}"
            );
            let mut rng = Rng::new(seed);
            if without.choose(&board, BLACK, Some(capture), &mut rng) != Some(vital) {
                elsewhere += 1;
            }
        }
        // Without it the policy misses the point at least half the time.
        assert!(elsewhere >= 10, "{elsewhere}");
    }

    /// The moves the policy of `playout` chooses for `c` after the last
    /// move `last`, over twenty seeds.
    fn choices(playout: &mut Playout, board: &FastBoard, c: u8, last: Point) -> Vec<Point> {
        (0..20)
            .map(|seed| {
                let mut rng = Rng::new(seed);
                let k = playout.choose(board, c, Some(board.index(last)), &mut rng);
                board.point(k.expect("a move"))
            })
            .collect()
    }

    #[test]
    fn reading_ladders_a_string_does_not_run_into_a_ladder() {
        // White's atari at (4,4): the extension at (5,3) is a ladder.
        let board = diagram(&crate::go::ladder::tests::LADDER);
        let run = Point::new(5, 3);
        let last = Point::new(4, 4);
        let (l, mut rng) = (board.index(last), Rng::new(1));
        let mut light = Playout::new().with_ladders(false);
        assert_eq!(
            light.answer(&board, BLACK, l, &mut rng),
            Some(board.index(run))
        );
        assert!(choices(&mut light, &board, BLACK, last)
            .iter()
            .all(|&p| p == run));
        // With the ladders read the run is no answer: the shapes may still
        // play it, but not always.
        let mut reading = Playout::new();
        assert_eq!(reading.answer(&board, BLACK, l, &mut rng), None);
        assert!(choices(&mut reading, &board, BLACK, last)
            .iter()
            .any(|&p| p != run));
    }

    #[test]
    fn filling_the_board_plays_in_empty_areas_only() {
        // Two empty areas on the left; none elsewhere.
        let board = diagram(&[
            ". . . . X . O . O",
            ". . . . O . X . X",
            ". . . . X . O . O",
            ". . . . O . X . X",
            ". . . . X . O . O",
            "X O X O X . X . X",
            "O X O X O . O . O",
            "X O X O X . X . X",
            "O X O X O . O . O",
        ]);
        let mut playout = Playout::new().with_fill_board(true);
        let mut found = 0;
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            if let Some(k) = playout.empty_area(&board, BLACK, &mut rng) {
                let p = board.point(k);
                assert!((1..=3).contains(&p.i) && (1..=2).contains(&p.j), "{p:?}");
                found += 1;
            }
        }
        // Six of the board's 38 empty points qualify: four tries find
        // one about half the time.
        assert!((40..=160).contains(&found), "{found}");
        // A board without an empty area: never.
        let full = diagram(&[". X .", "X . X", ". X ."]);
        let mut rng = Rng::new(1);
        assert_eq!(playout.empty_area(&full, WHITE, &mut rng), None);
    }

    #[test]
    fn the_last_good_reply_is_learned_from_the_winner_and_forgotten_from_the_loser() {
        let board = FastBoard::new(9);
        let mut playout = Playout::new().with_replies(true);
        // A playout sizes the table and records its own pairs.
        let mut scratch = board.clone();
        playout.run(&mut scratch, BLACK, None, &mut Rng::new(1));
        let (a, b) = (board.index(Point::new(2, 2)), board.index(Point::new(2, 6)));
        assert_eq!(playout.good_reply(&board, WHITE, a), None);
        // Black played a, white answered b (after a pass, which answers
        // nothing), and white won: b is white's reply to a.
        let tree = [(0, BLACK), (a, BLACK), (b, WHITE)];
        playout.learn(&tree, None, false);
        assert_eq!(playout.good_reply(&board, WHITE, a), Some(b));
        assert_eq!(playout.good_reply(&board, BLACK, a), None);
        assert_eq!(playout.good_reply(&board, BLACK, b), None);
        // Before shapes and random moves, the policy plays it.
        for seed in 0..10 {
            let got = playout.choose(&board, WHITE, Some(a), &mut Rng::new(seed));
            assert_eq!(got, Some(b), "seed {seed}");
        }
        // Where b is taken, it is not played.
        let mut taken = board.clone();
        taken.play(b, BLACK);
        assert_eq!(playout.good_reply(&taken, WHITE, a), None);
        // Black won the same sequence: white's reply is forgotten.
        playout.learn(&tree, None, true);
        assert_eq!(playout.good_reply(&board, WHITE, a), None);
        // A loser's reply that is not the stored one leaves it alone.
        let c = board.index(Point::new(6, 6));
        playout.learn(&[(a, BLACK), (b, WHITE)], None, false);
        playout.learn(&[(a, BLACK), (c, WHITE)], None, true);
        assert_eq!(playout.good_reply(&board, WHITE, a), Some(b));
        // Without the replies, nothing is learned.
        let mut plain = Playout::new();
        plain.run(&mut board.clone(), BLACK, None, &mut Rng::new(1));
        plain.learn(&tree, None, false);
        assert_eq!(plain.good_reply(&board, WHITE, a), None);
    }

    #[test]
    fn a_playout_learns_every_reply_its_winner_played() {
        let mut playout = Playout::new().with_replies(true);
        let mut board = FastBoard::new(9);
        let score = playout.run(&mut board, BLACK, None, &mut Rng::new(7));
        let black_wins = score as f32 - 7.5 > 0.0;
        let pairs = playout.replies.as_ref().unwrap().pairs.clone();
        assert!(pairs.len() > 40, "{}", pairs.len());
        playout.learn(&[], None, black_wins);
        let replies = playout.replies.as_ref().unwrap();
        // The last time the winner answered a move is what is stored
        // (later pairs overwrite earlier ones for the same move).
        let winner = if black_wins { BLACK } else { WHITE };
        let mut expected = std::collections::HashMap::new();
        for &(prev, reply, c) in &pairs {
            if c == winner {
                expected.insert(prev, reply);
            }
        }
        for (&prev, &reply) in &expected {
            assert_eq!(replies.table[replies.slot(prev, winner)], reply);
        }
        let stored = replies.table.iter().filter(|&&k| k != 0).count();
        assert_eq!(stored, expected.len());
    }
}
