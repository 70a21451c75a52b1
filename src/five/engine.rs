//! katachi's five-in-a-row player: the pattern valuation searched.
//!
//! A move is chosen in this order, each step exact where it can be:
//!
//! 1. a move that wins at once (the rules say so, not the patterns);
//! 2. the point that stops the opponent's five, when they have one;
//! 3. a forced win by continuous fours (VCF): a four the opponent must
//!    answer on its one point to five, again and again, until a double
//!    four or a straight four wins — searched depth first, the fours
//!    proposed by the patterns' kinds and checked by the rules;
//! 4. otherwise alpha-beta (negamax) with iterative deepening over the
//!    candidates the patterns propose, best valued first, a leaf scored
//!    by the sum of each side's pattern values; the clock (an injected
//!    function, so that the budget logic is tested without timing) and a
//!    stop flag end it, and the deepest finished iteration's move is
//!    played.
//!
//! The valuation ([`Valuation`]) is kept move by move through the search
//! on the matcher's board; the rules board ([`FiveBoard`]) decides wins,
//! renju's forbidden points and legality. Deterministic: no randomness,
//! ties broken in reading order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mkpat::overlay::Overlay;

use super::rules::{FiveBoard, Outcome, Rule};
use super::valuation::{builtin_matcher, builtin_overlay, Valuation};
use crate::board::Board;
use crate::matcher::Matcher;
use crate::position::{Color, Point, Position};

/// The largest score: a won position.
const WIN: i64 = 1 << 40;

/// How many candidates a node of the alpha-beta search tries.
const WIDTH: usize = 12;

/// What a search may spend.
#[allow(missing_debug_implementations)]
pub struct Limits<'a> {
    /// Time elapsed since the search began (injected: tests pass a fake).
    pub elapsed: &'a dyn Fn() -> Duration,
    /// The search stops once `elapsed` passes this (`None`: no limit).
    pub budget: Option<Duration>,
    /// Raised by the caller to stop at once.
    pub stop: &'a AtomicBool,
    /// The deepest alpha-beta iteration (plies).
    pub max_depth: u32,
    /// The deepest VCF line (our fours).
    pub vcf_depth: u32,
}

/// Why the engine chose its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The only point, or the centre of an empty board.
    Opening,
    /// It makes five.
    Wins,
    /// It stops the opponent's five.
    Blocks,
    /// The first move of a forced win by fours; the line follows (ours
    /// and the forced replies, alternately).
    Vcf(Vec<Point>),
    /// The alpha-beta search's choice, with its score and depth.
    Search { score: i64, depth: u32 },
}

/// The engine: a game and its valuation.
pub struct Engine {
    game: FiveBoard,
    board: Board,
    matcher: Matcher<'static>,
    overlay: Overlay,
    valuation: Valuation,
    nodes: u64,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("size", &self.game.size())
            .field("rule", &self.game.rule())
            .field("moves", &self.game.moves().len())
            .finish()
    }
}

impl Engine {
    /// The engine for `game` (its stones, set-up ones too, and its side
    /// to move), valued by the builtin database.
    pub fn new(game: FiveBoard) -> Engine {
        let matcher = builtin_matcher();
        let overlay = builtin_overlay();
        let n = game.size();
        let mut board = Board::new(n);
        for i in 0..n as i32 {
            for j in 0..n as i32 {
                let p = Point::new(i, j);
                if let Some(c) = game.stone(p) {
                    board.place(p, c);
                }
            }
        }
        let valuation = Valuation::new(&matcher, &overlay, &board);
        Engine {
            game,
            board,
            matcher,
            overlay,
            valuation,
            nodes: 0,
        }
    }

    pub fn game(&self) -> &FiveBoard {
        &self.game
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn make(&mut self, p: Point) -> bool {
        let c = self.game.to_move();
        if self.game.play(p).is_err() {
            return false;
        }
        self.board.place(p, c);
        self.valuation
            .update(&self.matcher, &self.overlay, &self.board, p);
        true
    }

    fn unmake(&mut self) {
        if let Some(p) = self.game.undo() {
            self.board.remove(p);
            self.valuation
                .update(&self.matcher, &self.overlay, &self.board, p);
        }
    }

    /// The points where `color` would win at once.
    fn winning_points(&self, color: Color) -> Vec<Point> {
        self.valuation
            .proposed()
            .filter(|&p| self.game.wins_at(p, color))
            .collect()
    }

    /// The candidates for the side to move: legal points the patterns
    /// value, best first (reading order on ties); the centre's neighbours
    /// when the patterns propose nothing.
    fn candidates(&self) -> Vec<Point> {
        let me = self.game.to_move();
        let mut c: Vec<(i64, Point)> = self
            .valuation
            .proposed()
            .filter(|&p| self.game.is_legal(p))
            .map(|p| (self.valuation.value(p, me), p))
            .collect();
        c.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<Point> = c.into_iter().map(|(_, p)| p).collect();
        if out.is_empty() {
            out = self.near_stones();
        }
        out
    }

    /// Legal points next to a stone (or the centre of an empty board).
    fn near_stones(&self) -> Vec<Point> {
        let n = self.game.size() as i32;
        let centre = Point::new(n / 2, n / 2);
        if self.game.stone_count() == 0 {
            return vec![centre];
        }
        let mut out: Vec<Point> = self
            .game
            .legal_moves()
            .filter(|p| {
                (-1..=1).any(|di| {
                    (-1..=1).any(|dj| self.game.stone(Point::new(p.i + di, p.j + dj)).is_some())
                })
            })
            .collect();
        out.sort_by_key(|p| ((p.i - centre.i).abs() + (p.j - centre.j).abs(), *p));
        out
    }

    /// The side to move's score: its pattern potential against the
    /// opponent's.
    fn evaluate(&self) -> i64 {
        let me = self.game.to_move();
        self.valuation.total(me) - self.valuation.total(me.other())
    }

    /// A forced win by continuous fours for the side to move, as the line
    /// of moves (ours and the forced replies), if one is found within
    /// `depth` of our fours.
    fn vcf(&mut self, depth: u32, limits: &Limits<'_>) -> Option<Vec<Point>> {
        if depth == 0 || self.out_of_time(limits) {
            return None;
        }
        let me = self.game.to_move();
        // A five of the opponent's must be answered first: a four that
        // does not stop it loses.
        let theirs = self.winning_points(me.other());
        let fours: Vec<Point> = self
            .valuation
            .proposed()
            .filter(|&p| {
                self.valuation.threat(p, me).is_some_and(|k| k.is_four())
                    && self.game.is_legal(p)
                    && (theirs.is_empty() || theirs == [p])
            })
            .collect();
        for p in fours {
            self.nodes += 1;
            if !self.make(p) {
                continue;
            }
            let mut line = None;
            if let Some(Outcome::Win(w)) = self.game.outcome() {
                if w == me {
                    line = Some(vec![p]);
                }
            } else {
                let wins = self.winning_points(me);
                let reply = self.game.to_move();
                let they_win = !self.winning_points(reply).is_empty();
                if wins.len() >= 2 && !they_win {
                    line = Some(vec![p]);
                } else if wins.len() == 1 && !they_win {
                    let q = wins[0];
                    if self.game.is_legal(q) && self.make(q) {
                        if let Some(mut rest) = self.vcf(depth - 1, limits) {
                            rest.insert(0, q);
                            rest.insert(0, p);
                            line = Some(rest);
                        }
                        self.unmake();
                    } else if !self.game.is_legal(q) {
                        // Renju: Black cannot take the point (forbidden),
                        // so our four wins.
                        line = Some(vec![p]);
                    }
                }
            }
            self.unmake();
            if line.is_some() {
                return line;
            }
        }
        None
    }

    fn out_of_time(&self, limits: &Limits<'_>) -> bool {
        limits.stop.load(Ordering::Relaxed)
            || limits.budget.is_some_and(|b| (limits.elapsed)() >= b)
    }

    /// Negamax with alpha-beta; `None` when the time ran out.
    fn negamax(
        &mut self,
        depth: u32,
        mut alpha: i64,
        beta: i64,
        limits: &Limits<'_>,
    ) -> Option<i64> {
        self.nodes += 1;
        if self.nodes % 256 == 0 && self.out_of_time(limits) {
            return None;
        }
        match self.game.outcome() {
            // The side to move has lost: the last move won.
            Some(Outcome::Win(_)) => return Some(-WIN),
            Some(Outcome::Draw) => return Some(0),
            None => {}
        }
        let me = self.game.to_move();
        if !self.winning_points(me).is_empty() {
            return Some(WIN);
        }
        if depth == 0 {
            return Some(self.evaluate());
        }
        let theirs = self.winning_points(me.other());
        let moves: Vec<Point> = if theirs.is_empty() {
            self.candidates().into_iter().take(WIDTH).collect()
        } else {
            theirs
                .into_iter()
                .filter(|&p| self.game.is_legal(p))
                .take(1)
                .collect()
        };
        if moves.is_empty() {
            return Some(-WIN);
        }
        let mut best = -WIN - 1;
        for p in moves {
            if !self.make(p) {
                continue;
            }
            let v = self.negamax(depth - 1, -beta, -alpha, limits);
            self.unmake();
            let v = -v?;
            if v > best {
                best = v;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// The engine's move for the side to move, and why. `None` when the
    /// game is over or no point is legal.
    pub fn choose(&mut self, limits: &Limits<'_>) -> Option<(Point, Reason)> {
        self.nodes = 0;
        if self.game.outcome().is_some() {
            return None;
        }
        let me = self.game.to_move();
        if let Some(&p) = self
            .winning_points(me)
            .iter()
            .find(|&&p| self.game.is_legal(p))
        {
            return Some((p, Reason::Wins));
        }
        let theirs = self.winning_points(me.other());
        if let Some(&p) = theirs.iter().find(|&&p| self.game.is_legal(p)) {
            return Some((p, Reason::Blocks));
        }
        if let Some(line) = self.vcf(limits.vcf_depth, limits) {
            return Some((line[0], Reason::Vcf(line)));
        }
        let moves = self.candidates();
        let first = *moves.first()?;
        if moves.len() == 1 || self.game.stone_count() == 0 {
            return Some((first, Reason::Opening));
        }
        let mut chosen = (first, Reason::Search { score: 0, depth: 0 });
        for depth in (2..=limits.max_depth.max(2)).step_by(2) {
            let mut best: Option<(i64, Point)> = None;
            let mut alpha = -WIN - 1;
            let mut finished = true;
            for &p in moves.iter().take(WIDTH) {
                if !self.make(p) {
                    continue;
                }
                let v = self.negamax(depth - 1, -WIN - 1, -alpha, limits);
                self.unmake();
                let Some(v) = v.map(|v| -v) else {
                    finished = false;
                    break;
                };
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, p));
                }
                alpha = alpha.max(v);
            }
            if !finished {
                break;
            }
            if let Some((score, p)) = best {
                chosen = (p, Reason::Search { score, depth });
                if score >= WIN {
                    break;
                }
            }
            if self.out_of_time(limits) {
                break;
            }
        }
        Some(chosen)
    }

    /// Plays `p` for the side to move.
    pub fn play(&mut self, p: Point) -> bool {
        self.make(p)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        self.unmake()
    }
}

/// A rule from the Gomocup `rule` bit set: 0 freestyle, 1 exactly five,
/// 4 renju; `None` for the others (continuous games, caro).
pub fn rule_of_gomocup(bits: u32) -> Option<Rule> {
    match bits {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Exact),
        4 | 5 => Some(Rule::Renju),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(rule: Rule, stones: &[(i32, i32, Color)], to_move: Color) -> Engine {
        let mut b = FiveBoard::new(15, rule).unwrap();
        for &(i, j, c) in stones {
            b.put(Point::new(i, j), c).unwrap();
        }
        b.set_to_move(to_move);
        Engine::new(b)
    }

    fn choose(e: &mut Engine) -> (Point, Reason) {
        let stop = AtomicBool::new(false);
        let zero = || Duration::ZERO;
        e.choose(&Limits {
            elapsed: &zero,
            budget: None,
            stop: &stop,
            max_depth: 2,
            vcf_depth: 8,
        })
        .expect("a move")
    }

    #[test]
    fn it_wins_blocks_and_finds_a_vcf() {
        use Color::{Black as B, White as W};
        let mut e = engine(
            Rule::Freestyle,
            &[
                (7, 3, B),
                (7, 4, B),
                (7, 5, B),
                (7, 6, B),
                (0, 0, W),
                (0, 2, W),
                (0, 4, W),
            ],
            B,
        );
        let (p, why) = choose(&mut e);
        assert!(
            why == Reason::Wins && (p == Point::new(7, 2) || p == Point::new(7, 7)),
            "{p:?} {why:?}"
        );
        let mut e = engine(
            Rule::Freestyle,
            &[
                (7, 3, B),
                (7, 4, B),
                (7, 5, B),
                (7, 6, B),
                (0, 0, W),
                (0, 2, W),
                (0, 4, W),
            ],
            W,
        );
        let (_, why) = choose(&mut e);
        assert_eq!(why, Reason::Blocks);
        // Two closed threes crossing at (7, 7): a double four there.
        let mut e = engine(
            Rule::Freestyle,
            &[
                (7, 4, B),
                (7, 5, B),
                (7, 6, B),
                (4, 7, B),
                (5, 7, B),
                (6, 7, B),
                (7, 3, W),
                (3, 7, W),
                (0, 0, W),
                (14, 14, W),
                (0, 14, W),
            ],
            B,
        );
        let (p, why) = choose(&mut e);
        assert_eq!(
            (p, why),
            (Point::new(7, 7), Reason::Vcf(vec![Point::new(7, 7)]))
        );
    }

    #[test]
    fn a_spent_budget_still_answers_a_move() {
        let mut e = engine(
            Rule::Exact,
            &[(7, 7, Color::Black), (7, 8, Color::White)],
            Color::Black,
        );
        let stop = AtomicBool::new(false);
        let late = || Duration::from_secs(10);
        let (p, _) = e
            .choose(&Limits {
                elapsed: &late,
                budget: Some(Duration::from_secs(1)),
                stop: &stop,
                max_depth: 6,
                vcf_depth: 8,
            })
            .expect("a move");
        assert!(e.game().is_legal(p));
    }
}
