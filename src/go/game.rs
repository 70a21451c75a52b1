//! A game of Go: the rules on top of the [`Goban`], as GTP drives them.
//!
//! - board sizes 5 to 19 ([`MIN_SIZE`], [`MAX_SIZE`]);
//! - captures; the rule set ([`RuleSet`], Chinese by default) decides
//!   suicide (legal under Tromp–Taylor and New Zealand rules), ko (simple
//!   ko, or positional superko under Tromp–Taylor, AGA and New Zealand
//!   rules) and the count;
//! - passes; [`Game::score`] counts every stone on the board with the
//!   empty regions bordered by one colour (Tromp–Taylor area) with komi,
//!   [`Game::final_score`] counts by the rules with the dead stones
//!   ([`Game::dead_stones`]) taken off: area, or territory (the area count
//!   minus black's stones played plus white's, which is territory plus
//!   prisoners);
//! - fixed and free handicap;
//! - undo, move by move, on the goban's incremental undo record.
//!
//! [`Game::genmove`] plays by the pattern database ([`super::movegen`]):
//! the heaviest of the candidates the patterns, the tactical reasons and
//! filling propose, or a pass when there is none; with search options,
//! the search ([`super::search`]) chooses among them and the pass, and
//! may resign. Neither ever recreates an earlier position itself, so its
//! games end.

use std::sync::Arc;

use super::deadline::{Clock, WallClock};
use super::evaluation::EvalOptions;
use super::movegen::{self, PatternSet};
use super::ownership::{self, Status};
use super::reading::Reader;
use super::rules::{RuleSet, Scoring};
use super::search::{self, SearchOptions};
use super::strings::{Goban, Illegal};
use crate::position::{Color, Point, Position};

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 19;

/// A move of a game: a stone on a point, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    Play(Point),
    Pass,
}

/// What the engine decides for its turn: a move, or to resign.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    Move(Move),
    Resign,
}

/// A game: position, komi, history for undo and repetition checks.
#[derive(Clone, Debug)]
pub struct Game {
    goban: Goban,
    reader: Reader,
    komi: f32,
    /// The moves played (not handicap stones), for undo.
    history: Vec<(Color, Move)>,
    /// Stone hashes of every position of the game so far, the current one
    /// last.
    hashes: Vec<u64>,
    /// The seed of `genmove`'s random terms.
    rng: u64,
    /// The pattern database `genmove` plays by.
    patterns: Arc<PatternSet>,
    /// How `genmove` evaluates (best-first or every pattern).
    eval: EvalOptions,
    /// Whether `genmove` searches among the pattern candidates with
    /// playouts (`None`: it plays the heaviest, as the seed's engine).
    search: Option<SearchOptions>,
    /// The rule set: suicide, ko and the count.
    rules: RuleSet,
    /// Stones placed before the first move (handicap, setup), black's
    /// and white's: they count as played under territory scoring.
    placed: [u32; 2],
}

impl Game {
    /// An empty board of side `size` with komi 0.
    ///
    /// # Panics
    /// When `size` is outside [`MIN_SIZE`]..=[`MAX_SIZE`] (GTP checks it).
    pub fn new(size: usize) -> Game {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
        let goban = Goban::new(size);
        Game {
            hashes: vec![goban.stones_hash()],
            goban,
            reader: Reader::new(),
            komi: 0.0,
            history: Vec::new(),
            rng: 0x2545_f491_4f6c_dd1d,
            patterns: PatternSet::builtin(),
            eval: EvalOptions::default(),
            search: None,
            rules: RuleSet::default(),
            placed: [0, 0],
        }
    }

    pub fn size(&self) -> usize {
        self.goban.side()
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// Seeds the random choices of [`Game::genmove`].
    pub fn seed(&mut self, seed: u64) {
        self.rng = crate::seeding::state(seed);
    }

    /// Empties the board, keeping its size, komi and random state.
    pub fn clear(&mut self) {
        *self = self.resized(self.size());
    }

    /// A new game on an empty board of side `size` with this game's komi
    /// and random state.
    ///
    /// # Panics
    /// As [`Game::new`].
    pub fn resized(&self, size: usize) -> Game {
        let mut g = Game::new(size);
        g.komi = self.komi;
        g.adopt_engine(self);
        g
    }

    /// Plays this position with the engine of `other`: its pattern
    /// database, evaluation and search options, rule set and random
    /// state. A position read from a record (GTP `loadsgf`) keeps its own
    /// board, history and komi, and must still be searched as the user
    /// asked: without this the search options, which live in the game,
    /// would be those of a bare [`Game::new`], the pattern engine alone.
    pub fn adopt_engine(&mut self, other: &Game) {
        self.rng = other.rng;
        self.patterns = other.patterns.clone();
        self.eval = other.eval;
        self.search = other.search;
        self.rules = other.rules;
    }

    /// The rule set (Chinese unless set).
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Plays under another rule set from now on (kept by `clear` and
    /// `resized`).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    /// The pattern database `genmove` plays by (the builtin one unless
    /// set).
    pub fn patterns(&self) -> &Arc<PatternSet> {
        &self.patterns
    }

    /// Plays by another pattern database (kept by `clear` and `resized`).
    pub fn set_patterns(&mut self, patterns: Arc<PatternSet>) {
        self.patterns = patterns;
    }

    /// How `genmove` evaluates: best-first (the default) or every pattern.
    pub fn eval_options(&self) -> EvalOptions {
        self.eval
    }

    pub fn set_eval_options(&mut self, eval: EvalOptions) {
        self.eval = eval;
    }

    /// The search `genmove` runs among the pattern candidates, if any.
    pub fn search_options(&self) -> Option<SearchOptions> {
        self.search
    }

    /// Lets `genmove` choose among the pattern candidates by
    /// [`search::search`] (`None`, or 0 playouts: play the heaviest).
    pub fn set_search(&mut self, search: Option<SearchOptions>) {
        self.search = search.filter(|s| s.playouts > 0);
    }

    /// The seed of the move generator's random terms ([`Game::seed`]).
    pub fn random_seed(&self) -> u64 {
        self.rng
    }

    /// Has the position with stone hash `hash` occurred in this game?
    pub fn seen_position(&self, hash: u64) -> bool {
        self.hashes.contains(&hash)
    }

    pub fn goban(&self) -> &Goban {
        &self.goban
    }

    /// The board and the reader, for analysis that plays and undoes moves.
    pub fn parts(&mut self) -> (&mut Goban, &mut Reader) {
        (&mut self.goban, &mut self.reader)
    }

    pub fn history(&self) -> &[(Color, Move)] {
        &self.history
    }

    /// Plays a move for `color` (GTP lets either colour move at any time)
    /// under the game's rules: suicide only where they allow it, and no
    /// earlier position recreated under superko.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => self.goban.pass(),
            Move::Play(p) => {
                if self.rules.suicide() {
                    self.goban.play_allowing_suicide(p, color)?;
                } else {
                    self.goban.play(p, color)?;
                }
                if self.rules.superko() && self.seen_position(self.goban.stones_hash()) {
                    self.goban.undo();
                    return Err(Illegal::Superko);
                }
            }
        }
        self.history.push((color, mv));
        self.hashes.push(self.goban.stones_hash());
        Ok(())
    }

    /// Takes back the last move; false when there is none (handicap
    /// stones are not moves).
    pub fn undo(&mut self) -> bool {
        if self.history.pop().is_none() {
            return false;
        }
        self.hashes.pop();
        self.goban.undo()
    }

    /// The GTP standard handicap points for `stones` stones, or `None`
    /// when the number is not allowed on this board: 2 to 9 on odd sizes
    /// from 9 up, 2 to 4 on 7x7 and even sizes, none below 7x7.
    pub fn handicap_points(size: usize, stones: usize) -> Option<Vec<Point>> {
        let max = if size < 7 {
            0
        } else if size % 2 == 0 || size == 7 {
            4
        } else {
            9
        };
        if !(2..=max).contains(&stones) {
            return None;
        }
        let n = size as i32;
        let edge = if size >= 13 { 3 } else { 2 };
        let (low, high, mid) = (edge, n - 1 - edge, n / 2);
        // (column, row from the bottom), in the GTP spec's order.
        let ll = (low, low);
        let ur = (high, high);
        let ul = (low, high);
        let lr = (high, low);
        let centre = (mid, mid);
        let (ml, mr, mb, mt) = ((low, mid), (high, mid), (mid, low), (mid, high));
        let set: Vec<(i32, i32)> = match stones {
            2 => vec![ll, ur],
            3 => vec![ll, ur, ul],
            4 => vec![ll, ur, ul, lr],
            5 => vec![ll, ur, ul, lr, centre],
            6 => vec![ll, ur, ul, lr, ml, mr],
            7 => vec![ll, ur, ul, lr, ml, mr, centre],
            8 => vec![ll, ur, ul, lr, ml, mr, mb, mt],
            _ => vec![ll, ur, ul, lr, ml, mr, mb, mt, centre],
        };
        Some(
            set.into_iter()
                .map(|(col, row)| Point::new(n - 1 - row, col))
                .collect(),
        )
    }

    /// Places the fixed handicap; the board must be empty.
    pub fn fixed_handicap(&mut self, stones: usize) -> Result<Vec<Point>, &'static str> {
        let points =
            Game::handicap_points(self.size(), stones).ok_or("invalid number of stones")?;
        if self.goban.points().any(|p| self.goban.stone(p).is_some()) {
            return Err("board not empty");
        }
        for &p in &points {
            self.goban
                .play(p, Color::Black)
                .map_err(|_| "invalid number of stones")?;
        }
        // The handicap is the starting position: undo stops at it.
        self.history.clear();
        self.hashes = vec![self.goban.stones_hash()];
        self.placed = [points.len() as u32, 0];
        Ok(points)
    }

    /// Places black's handicap stones on `points` (GTP
    /// `set_free_handicap`); the board must be empty, the points distinct
    /// and at least two.
    pub fn free_handicap(&mut self, points: &[Point]) -> Result<(), &'static str> {
        if self.goban.points().any(|p| self.goban.stone(p).is_some()) {
            return Err("board not empty");
        }
        if points.len() < 2 || points.len() >= self.size() * self.size() {
            return Err("invalid number of stones");
        }
        for (placed, &p) in points.iter().enumerate() {
            if self.goban.play(p, Color::Black).is_err() {
                for _ in 0..placed {
                    self.goban.undo();
                }
                return Err("bad vertex list");
            }
        }
        self.history.clear();
        self.hashes = vec![self.goban.stones_hash()];
        self.placed = [points.len() as u32, 0];
        Ok(())
    }

    /// Where the engine puts `stones` free handicap stones (GTP
    /// `place_free_handicap`): the fixed points where the board has them,
    /// otherwise points of the third and fourth lines spread over the
    /// board. `None` when `stones` is not 2 or more, or too many for the
    /// board.
    pub fn free_handicap_points(size: usize, stones: usize) -> Option<Vec<Point>> {
        if stones < 2 {
            return None;
        }
        if let Some(points) = Game::handicap_points(size, stones) {
            return Some(points);
        }
        // Beyond the fixed points: a grid of points on lines three to
        // (side - 2), corners first by the grid's order.
        let n = size as i32;
        let low = if size >= 13 { 3 } else { 2 };
        let lines: Vec<i32> = (low..n - low).step_by(2).collect();
        let mut grid: Vec<Point> = Vec::new();
        for &i in &lines {
            for &j in &lines {
                grid.push(Point::new(i, j));
            }
        }
        (grid.len() >= stones).then(|| {
            grid.sort_by_key(|p| {
                let di = (p.i - n / 2).abs();
                let dj = (p.j - n / 2).abs();
                (
                    std::cmp::Reverse(di.min(dj)),
                    std::cmp::Reverse(di + dj),
                    *p,
                )
            });
            grid.truncate(stones);
            grid
        })
    }

    /// Places setup stones (SGF `AB`/`AW`), which, like a handicap,
    /// become the starting position: undo stops at them.
    pub fn setup(&mut self, stones: &[(Color, Point)]) -> Result<(), Illegal> {
        for &(c, p) in stones {
            self.goban.play(p, c)?;
            self.placed[usize::from(c == Color::White)] += 1;
        }
        self.history.clear();
        self.hashes = vec![self.goban.stones_hash()];
        Ok(())
    }

    /// Tromp-Taylor area: (black points, white points).
    pub fn area(&self) -> (u32, u32) {
        let g = &self.goban;
        let n = g.side();
        let mut seen = vec![false; n * n];
        let (mut black, mut white) = (0, 0);
        for p in g.points() {
            let k = g.index(p).expect("on board");
            match g.stone_at(k) {
                Some(Color::Black) => black += 1,
                Some(Color::White) => white += 1,
                None if !seen[k as usize] => {
                    let region = g.region(
                        k,
                        |q| g.stone_at(q),
                        |q| !std::mem::replace(&mut seen[q as usize], true),
                    );
                    match (region.black, region.white) {
                        (true, false) => black += region.points.len() as u32,
                        (false, true) => white += region.points.len() as u32,
                        _ => {}
                    }
                }
                None => {}
            }
        }
        (black, white)
    }

    /// Black's area minus white's, minus komi: positive when black wins.
    /// Every stone on the board counts (Tromp–Taylor).
    pub fn score(&self) -> f32 {
        let (b, w) = self.area();
        b as f32 - w as f32 - self.komi
    }

    /// Black's stones played minus white's, handicap and setup stones
    /// included: what territory scoring takes off the area count.
    pub fn stones_played_difference(&self) -> i32 {
        let mut d = self.placed[0] as i32 - self.placed[1] as i32;
        for (c, m) in &self.history {
            if let Move::Play(_) = m {
                d += if *c == Color::Black { 1 } else { -1 };
            }
        }
        d
    }

    /// The count under the game's rules with the stones `dead` taken off
    /// the board, minus komi: positive when black wins. Area: stones and
    /// the empty regions bordered by one colour; territory: that minus
    /// black's stones played plus white's (= territory plus prisoners;
    /// eyes in seki count as territory).
    pub fn final_score(&self, dead: &[Point]) -> f32 {
        let g = &self.goban;
        let n = g.side();
        let mut cells: Vec<Option<Color>> = g.points().map(|p| g.stone(p)).collect();
        for &p in dead {
            if g.on_board(p) {
                cells[p.i as usize * n + p.j as usize] = None;
            }
        }
        let (b, w) = area_of(&cells, n);
        let area = b as f32 - w as f32 - self.komi;
        match self.rules.scoring() {
            Scoring::Area => area,
            Scoring::Territory => area - self.stones_played_difference() as f32,
        }
    }

    /// The stones the ownership estimate finds dead ([`ownership`]);
    /// none under Tromp–Taylor rules, where every stone counts.
    pub fn dead_stones(&self) -> Vec<Point> {
        if !self.rules.removes_dead() {
            return Vec::new();
        }
        self.statuses()
            .into_iter()
            .filter(|&(_, s)| s == Status::Dead)
            .map(|(p, _)| p)
            .collect()
    }

    /// Every stone's status (alive, dead, seki) by the ownership estimate,
    /// a function of the position and the game's seed.
    pub fn statuses(&self) -> Vec<(Point, Status)> {
        let to_move = match self.history.last() {
            Some((c, _)) => c.other(),
            None => Color::Black,
        };
        let own = ownership::estimate(&self.goban, to_move, ownership::PLAYOUTS, self.rng);
        ownership::statuses(&self.goban, &own)
    }

    /// Chooses a move for `color` without playing it: the best candidate
    /// of the pattern move generator ([`movegen::evaluate`]) or, with a
    /// search set, the move the playouts prefer, the pass among them; a
    /// pass when nothing is worth a move.
    pub fn choose_move(&mut self, color: Color) -> Move {
        match self.decide(color) {
            Decision::Move(m) => m,
            Decision::Resign => self.pattern_move(color),
        }
    }

    /// The pattern engine's own move: its best candidate, or a pass.
    fn pattern_move(&self, color: Color) -> Move {
        match movegen::evaluate(self, color, self.eval).best() {
            Some(c) => Move::Play(c.point),
            None => Move::Pass,
        }
    }

    /// Decides for `color`: [`Game::choose_move`]'s move, or resignation
    /// when the search finds the game lost ([`search::should_resign`]).
    pub fn decide(&mut self, color: Color) -> Decision {
        self.decide_on(color, &WallClock::start())
    }

    /// [`Game::decide`] with the search's time budget counted from the
    /// origin of `clock` (the arrival of a GTP command), the pattern
    /// evaluation included.
    pub fn decide_on(&mut self, color: Color, clock: &dyn Clock) -> Decision {
        let eval = movegen::evaluate(self, color, self.eval);
        if let Some(opts) = self.search {
            return match search::search_on(self, color, &eval, opts, clock) {
                Some(r) if search::should_resign(&r, &opts, self.history.len(), self.size()) => {
                    Decision::Resign
                }
                Some(r) => Decision::Move(r.best),
                None => Decision::Move(Move::Pass),
            };
        }
        Decision::Move(match eval.best() {
            Some(c) => Move::Play(c.point),
            None => Move::Pass,
        })
    }

    /// Chooses and plays a move for `color`.
    pub fn genmove(&mut self, color: Color) -> Move {
        self.genmove_on(color, &WallClock::start())
    }

    /// [`Game::genmove`] with the time budget counted on `clock` (see
    /// [`Game::decide_on`]).
    pub fn genmove_on(&mut self, color: Color, clock: &dyn Clock) -> Move {
        let mv = match self.decide_on(color, clock) {
            Decision::Move(m) => m,
            Decision::Resign => self.pattern_move(color),
        };
        self.play_or_pass(color, mv)
    }

    /// Decides for `color` and plays the move decided, if any.
    pub fn gen_decision(&mut self, color: Color) -> Decision {
        self.gen_decision_on(color, &WallClock::start())
    }

    /// [`Game::gen_decision`] with the time budget counted on `clock`
    /// (see [`Game::decide_on`]).
    pub fn gen_decision_on(&mut self, color: Color, clock: &dyn Clock) -> Decision {
        match self.decide_on(color, clock) {
            Decision::Move(mv) => Decision::Move(self.play_or_pass(color, mv)),
            Decision::Resign => Decision::Resign,
        }
    }

    fn play_or_pass(&mut self, color: Color, mv: Move) -> Move {
        if self.play(color, mv).is_err() {
            // The engine only chooses legal moves; passing keeps the game
            // going even if that were ever wrong.
            let _ = self.play(color, Move::Pass);
            return Move::Pass;
        }
        mv
    }
}

/// Area of a grid of cells (row-major, side `n`): (black, white), stones
/// plus empty regions bordered by one colour only.
fn area_of(cells: &[Option<Color>], n: usize) -> (u32, u32) {
    let mut seen = vec![false; n * n];
    let (mut black, mut white) = (0, 0);
    for start in 0..n * n {
        match cells[start] {
            Some(Color::Black) => black += 1,
            Some(Color::White) => white += 1,
            None if !seen[start] => {
                seen[start] = true;
                let mut stack = vec![start];
                let (mut size, mut b, mut w) = (0u32, false, false);
                while let Some(k) = stack.pop() {
                    size += 1;
                    let (i, j) = (k / n, k % n);
                    let mut near = Vec::with_capacity(4);
                    if i > 0 {
                        near.push(k - n);
                    }
                    if i + 1 < n {
                        near.push(k + n);
                    }
                    if j > 0 {
                        near.push(k - 1);
                    }
                    if j + 1 < n {
                        near.push(k + 1);
                    }
                    for q in near {
                        match cells[q] {
                            Some(Color::Black) => b = true,
                            Some(Color::White) => w = true,
                            None if !seen[q] => {
                                seen[q] = true;
                                stack.push(q);
                            }
                            None => {}
                        }
                    }
                }
                match (b, w) {
                    (true, false) => black += size,
                    (false, true) => white += size,
                    _ => {}
                }
            }
            None => {}
        }
    }
    (black, white)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handicap_points_follow_the_gtp_tables() {
        // 19x19: D4 Q16 D16 Q4 D10 Q10 K4 K16 K10.
        let pts = Game::handicap_points(19, 9).unwrap();
        let want = [
            (15, 3),
            (3, 15),
            (3, 3),
            (15, 15),
            (9, 3),
            (9, 15),
            (15, 9),
            (3, 9),
            (9, 9),
        ];
        assert_eq!(pts, want.map(|(i, j)| Point::new(i, j)));
        // 9x9, 3 stones: C3 G7 C7.
        let pts = Game::handicap_points(9, 3).unwrap();
        assert_eq!(pts, [Point::new(6, 2), Point::new(2, 6), Point::new(2, 2)]);
        // 13x13: D4 K10.
        assert_eq!(
            Game::handicap_points(13, 2).unwrap(),
            [Point::new(9, 3), Point::new(3, 9)]
        );
        assert!(Game::handicap_points(8, 5).is_none());
        assert!(Game::handicap_points(7, 4).is_some());
        assert!(Game::handicap_points(6, 2).is_none());
        assert!(Game::handicap_points(19, 1).is_none());
    }

    #[test]
    fn area_scoring_counts_stones_and_one_colour_regions() {
        let mut g = Game::new(5);
        g.set_komi(0.5);
        for i in 0..5 {
            g.play(Color::Black, Move::Play(Point::new(i, 1))).unwrap();
            g.play(Color::White, Move::Play(Point::new(i, 3))).unwrap();
        }
        // Black: column 0 and 1 (10), white: columns 3, 4 (10), column 2 neutral.
        assert_eq!(g.area(), (10, 10));
        assert_eq!(g.score(), -0.5);
        assert!(g.undo());
        assert_eq!(g.area(), (9 + 1, 4));
    }

    #[test]
    fn self_play_ends_and_undo_restores_the_start() {
        let mut g = Game::new(7);
        g.seed(7);
        let mut passes = 0;
        let mut moves = 0;
        let mut color = Color::Black;
        while passes < 2 && moves < 1000 {
            match g.genmove(color) {
                Move::Pass => passes += 1,
                Move::Play(_) => passes = 0,
            }
            moves += 1;
            color = color.other();
        }
        assert!(passes == 2, "the game ends");
        g.goban().verify().unwrap();
        // No dead stones left in a one-point-eye-filled board: every
        // empty point is an eye of one colour.
        let (b, w) = g.area();
        assert_eq!(b + w, 49);
        while g.undo() {}
        assert_eq!(g.goban().board().stone_count(), 0);
        g.goban().verify().unwrap();
    }
}
