//! A game of Go: the rules on top of the [`Goban`], as GTP drives them.
//!
//! - board sizes 5 to 19 ([`MIN_SIZE`], [`MAX_SIZE`]);
//! - captures, suicide illegal, simple ko (positional superko is *not*
//!   enforced; [`Game::genmove`] merely never recreates an earlier
//!   position itself, so its games end);
//! - passes; area scoring in the Tromp-Taylor way (stones, plus empty
//!   regions bordered by one colour only) with komi;
//! - fixed handicap on the GTP standard points;
//! - undo, move by move, on the goban's incremental undo record.
//!
//! [`Game::genmove`] plays by the pattern database ([`super::movegen`]):
//! the heaviest of the candidates the patterns, the tactical reasons and
//! filling propose, or a pass when there is none. Filling proposes every
//! legal point that neither fills an own one-point eye nor is self-atari,
//! so it never passes while such a move exists, and games against it are
//! played out until no dead stones remain on its side of the board.

use std::sync::Arc;

use super::evaluation::EvalOptions;
use super::movegen::{self, PatternSet};
use super::reading::Reader;
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
        self.rng = seed | 1;
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
        g.rng = self.rng;
        g.patterns = self.patterns.clone();
        g.eval = self.eval;
        g.search = self.search;
        g
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

    /// Plays a move for `color` (GTP lets either colour move at any time).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => self.goban.pass(),
            Move::Play(p) => {
                self.goban.play(p, color)?;
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
        Ok(points)
    }

    /// Places setup stones (SGF `AB`/`AW`), which, like a handicap,
    /// become the starting position: undo stops at them.
    pub fn setup(&mut self, stones: &[(Color, Point)]) -> Result<(), Illegal> {
        for &(c, p) in stones {
            self.goban.play(p, c)?;
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
    pub fn score(&self) -> f32 {
        let (b, w) = self.area();
        b as f32 - w as f32 - self.komi
    }

    /// Chooses a move for `color` without playing it: the best candidate
    /// of the pattern move generator ([`movegen::evaluate`]) or, with a
    /// search set, the candidate the playouts prefer; a pass when nothing
    /// is worth a move.
    pub fn choose_move(&mut self, color: Color) -> Move {
        let eval = movegen::evaluate(self, color, self.eval);
        if eval.best().is_some() {
            if let Some(opts) = self.search {
                if let Some(r) = search::search(self, color, &eval, opts) {
                    return Move::Play(r.best);
                }
            }
        }
        match eval.best() {
            Some(c) => Move::Play(c.point),
            None => Move::Pass,
        }
    }

    /// Chooses and plays a move for `color`.
    pub fn genmove(&mut self, color: Color) -> Move {
        let mv = self.choose_move(color);
        if self.play(color, mv).is_err() {
            // choose_move only returns legal moves; passing keeps the game
            // going even if that were ever wrong.
            let _ = self.play(color, Move::Pass);
            return Move::Pass;
        }
        mv
    }
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
