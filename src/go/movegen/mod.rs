//! The move generator: every empty point weighed by the patterns that
//! match around it, the heaviest played — the seed's "the matcher searches
//! the board for places where this layout appears, and chooses the highest
//! scoring pattern".
//!
//! [`evaluate`] builds an [`Evaluation`] (every candidate with every
//! reason, every turned-down match) for one colour; `genmove` plays
//! [`Evaluation::best`] and passes when nothing is worth a move. The
//! explanation tools print the same structure, so they cannot disagree
//! with the move.
//!
//! A point's reasons, each with a value; the point is worth its largest:
//!
//! - **patterns** of a [`PatternSet`] (katachi's builtin tables, or any
//!   database compiled at run time): a geometric match whose `*` is a legal
//!   move that does not recreate an earlier position is judged in the seed's
//!   order — class letters (`O o X x` dragon statuses; unless `s`, the stone
//!   played must not be trivially capturable, with `n` nor the opponent's
//!   there), the 2.6 `;` constraint (interpreted over
//!   [`super::analysis::Constraints`]), then the helper (its value replaces
//!   weight and wind; 0 rejects) or `compute_score` (weight plus wind or
//!   moyo assistance), plus bonuses (the seed's escape bonus; 2.6's obonus,
//!   xbonus, splitbonus and a `minrand..=maxrand` random term) and, with `C`
//!   or `B`, the connection value. `D` and `A` also add a
//!   [`Reason::Save`] / [`Reason::Capture`] when the move defends a
//!   capturable own string of the pattern or attacks a capturable but
//!   defendable opponent string, as GNU Go's worm defence and attack
//!   points;
//! - **direct tactical reasons**, as GNU Go's engine had beside its
//!   patterns: capture an opponent string that can be captured but could
//!   escape ([`capture_value`]; a string dead whoever moves first is worth
//!   little), save an own string that can be captured and saved
//!   ([`save_value`]), both weighted by size;
//! - **weak dragons** ([`Reason::Dragon`]): for an own dragon that is
//!   CRITICAL or UNKNOWN with fewer than two eyes, the nearby moves after
//!   which the dragon analysis finds it ALIVE, with more eye space or out
//!   of CRITICAL; for such an opponent dragon, the moves that kill it or
//!   take eye space (`dragon_change_value`);
//! - **opening** ([`Reason::Opening`]): on the empty board, the 4-4, 3-3
//!   and 3-4 area, so the first move is not a filler;
//! - **corners and sides** ([`Reason::Corner`], [`Reason::OpenSide`]), on
//!   boards of 17x17 and up: the 4-4, 3-4 and 3-3 points of a corner with
//!   no stone or one stone away from them, and the middle of an open
//!   stretch of the third or fourth line — the big points of the opening,
//!   which GNU Go found with a fuseki module beside its patterns (GNU Go
//!   2.6's database has almost none of them, see [`values::corner_value`]);
//! - **filling** ([`Reason::Fill`]): a legal point that neither fills an own
//!   one-point eye nor is self-atari, valued 1 to 20 by its line and how
//!   open and contested it is. Patterns need stones to anchor on, so this
//!   is also what opens the game on an empty board; at the end it fills
//!   dame and the liberties of dead stones, so the games are played out
//!   and their area scores are final.
//!
//! Best-first ([`EvalOptions::all_patterns`] false) skips the patterns
//! whose maximum weight is below the best value already found (the
//! pruned matches are counted, not valued); it always finds the same best
//! move as valuing every pattern. Everything is deterministic: random
//! terms are hashed from the game's seed, the position and the pattern,
//! so `genmove` and an explanation of the same position agree.
//!
//! The module's files: [`pattern_set`] (the database the generator
//! reads), [`values`] (the values of the tactical, dragon and opening
//! reasons and the random terms), `judge.rs` (how a geometric match
//! becomes a value: classes, constraint, helper, wind, bonuses,
//! connection), and here the evaluation itself with its other reasons.

mod judge;
pub mod pattern_set;
pub mod values;

pub use pattern_set::{LoadError, PatternSet};
pub use values::{capture_value, save_value, DRAGON_CAP, FUSEKI_FROM_SIDE, OPENING_STONES};
use values::{cleanup_value, dragon_change_value, random_in};
use values::{corner_square, corner_value, open_side_value};

use std::collections::BTreeMap;

use mkpat::tables::{class, Pattern};
use mkpat::Dialect;

use super::analysis::{Constraints, GoJudge};
use super::dragons::Dragons;
use super::evaluation::{
    Candidate, EvalOptions, Evaluation, PatternReason, Reason, RejectReason, Rejected,
};
use super::game::Game;
use super::reading::{Reader, Tactical};
use super::strings::Goban;
use crate::go::constraint::{evaluate as eval_constraint, ConstraintContext};
use crate::go::personality::{percent, GoFactors};
use crate::go::position::{GoPosition, HelperContext};
use crate::go::score::{DragonStatus, Influence, ManhattanInfluence};
use crate::matcher::Match;
use crate::position::{Color, Point, Position};

/// Evaluates the position of `game` for `color` with the game's pattern
/// set and seed (see the module docs).
pub fn evaluate(game: &Game, color: Color, opts: EvalOptions) -> Evaluation {
    let set = game.patterns().clone();
    evaluate_with(game, color, &set, opts)
}

/// [`evaluate`] with another pattern set.
pub fn evaluate_with(game: &Game, color: Color, set: &PatternSet, opts: EvalOptions) -> Evaluation {
    let mut e = EvaluationInProgress::new(game, color, set);
    e.direct_reasons();
    e.dragon_reasons();
    e.opening();
    e.fuseki();
    e.patterns(opts);
    e.fills();
    e.finish()
}

/// One evaluation in progress.
struct EvaluationInProgress<'g> {
    game: &'g Game,
    set: &'g PatternSet,
    color: Color,
    goban: Goban,
    reader: Reader,
    judge: GoJudge,
    /// A second copy for the constraint engine, which reads on its own.
    constraint_goban: Goban,
    constraint_reader: Reader,
    seed: u64,
    /// Per point index: legal and not repeating (computed on demand).
    playable: Vec<Option<bool>>,
    reasons: BTreeMap<Point, Vec<Reason>>,
    rejected: Vec<Rejected>,
    pruned: usize,
    /// Tactical status per string root, computed on demand.
    tactical: BTreeMap<Point, Option<Tactical>>,
    /// A personality's engine factors (percentages).
    factors: GoFactors,
}

impl<'g> EvaluationInProgress<'g> {
    fn new(game: &'g Game, color: Color, set: &'g PatternSet) -> EvaluationInProgress<'g> {
        let goban = game.goban().clone();
        let judge = GoJudge::new(&goban);
        let n = goban.side();
        let seed = game.random_seed()
            ^ goban.stones_hash().rotate_left(17)
            ^ (game.history().len() as u64).wrapping_mul(0x1000_0000_01b3)
            ^ match color {
                Color::Black => 0,
                Color::White => 0x5555_5555,
            };
        EvaluationInProgress {
            game,
            set,
            color,
            constraint_goban: goban.clone(),
            constraint_reader: Reader::new(),
            goban,
            reader: Reader::new(),
            judge,
            seed,
            playable: vec![None; n * n],
            reasons: BTreeMap::new(),
            rejected: Vec::new(),
            pruned: 0,
            tactical: BTreeMap::new(),
            factors: set.factors(),
        }
    }

    fn index(&self, p: Point) -> usize {
        (p.i as usize) * self.goban.side() + p.j as usize
    }

    /// Is `p` a legal move for the side to move that does not recreate an
    /// earlier position of the game?
    fn playable(&mut self, p: Point) -> bool {
        if !self.goban.is_empty(p) {
            return false;
        }
        let k = self.index(p);
        if let Some(v) = self.playable[k] {
            return v;
        }
        let v = match self.goban.play(p, self.color) {
            Err(_) => false,
            Ok(_) => {
                let h = self.goban.stones_hash();
                self.goban.undo();
                !self.game.seen_position(h)
            }
        };
        self.playable[k] = Some(v);
        v
    }

    /// The string through `p` as (a canonical stone, its size).
    fn string_key(&self, p: Point) -> (Point, usize) {
        let stones = self.goban.string(p);
        let first = stones.iter().copied().min().unwrap_or(p);
        (first, stones.len())
    }

    fn tactical(&mut self, p: Point) -> Option<Tactical> {
        let (key, _) = self.string_key(p);
        if let Some(t) = self.tactical.get(&key) {
            return *t;
        }
        let t = if self.goban.liberties(p) <= 2 {
            self.reader.tactical(&mut self.goban, p)
        } else {
            Some(Tactical::Safe)
        };
        self.tactical.insert(key, t);
        t
    }

    fn add(&mut self, p: Point, r: Reason) {
        let list = self.reasons.entry(p).or_default();
        if !list.contains(&r) {
            list.push(r);
        }
    }

    fn reject(&mut self, point: Point, pattern: Option<String>, trans: u8, why: RejectReason) {
        self.rejected.push(Rejected {
            point,
            pattern,
            trans,
            why,
        });
    }

    /// Captures and saves found by reading every string short of
    /// liberties.
    fn direct_reasons(&mut self) {
        let points: Vec<Point> = self.goban.points().collect();
        let mut done: Vec<Point> = Vec::new();
        for p in points {
            let Some(owner) = self.goban.stone(p) else {
                continue;
            };
            if self.goban.liberties(p) > 2 {
                continue;
            }
            let (key, size) = self.string_key(p);
            if done.contains(&key) {
                continue;
            }
            done.push(key);
            let t = self.tactical(p);
            let mine = owner == self.color;
            match (t, mine) {
                (Some(Tactical::Critical { attack, .. }), false) => {
                    self.direct(
                        attack,
                        Reason::Capture {
                            string: key,
                            stones: size,
                            value: percent(capture_value(size), self.factors.tactics),
                        },
                    );
                }
                (Some(Tactical::Dead { attack }), false) if self.goban.liberties(p) == 1 => {
                    self.direct(
                        attack,
                        Reason::Capture {
                            string: key,
                            stones: size,
                            value: percent(cleanup_value(size), self.factors.tactics),
                        },
                    );
                }
                (Some(Tactical::Critical { defend, .. }), true) => {
                    self.direct(
                        defend,
                        Reason::Save {
                            string: key,
                            stones: size,
                            value: percent(save_value(size), self.factors.tactics),
                        },
                    );
                }
                _ => {}
            }
        }
    }

    /// [`Reason::Dragon`]: for every weak dragon (CRITICAL, or UNKNOWN
    /// with fewer than two eyes) of two or more stones, the empty points
    /// within two steps of it are tried; the dragon analysis after the
    /// move says whether an own dragon got stronger (ALIVE, more eye
    /// space, out of CRITICAL) or an opponent's weaker (DEAD, less eye
    /// space). The stone played must not be in atari nor dead.
    fn dragon_reasons(&mut self) {
        let dragons = self.judge.dragons().clone();
        for d in dragons.all() {
            let mine = d.color == self.color;
            let weak = match d.status {
                DragonStatus::Critical => true,
                DragonStatus::Unknown => d.half_eyes < 4,
                _ => false,
            };
            if !weak || d.stones.len() < 2 {
                continue;
            }
            let Some(&anchor) = d.stones.iter().min() else {
                continue;
            };
            let mut near: Vec<Point> = Vec::new();
            for &s in &d.stones {
                for di in -2i32..=2 {
                    for dj in -(2 - di.abs())..=(2 - di.abs()) {
                        let q = Point::new(s.i + di, s.j + dj);
                        if self.goban.is_empty(q) && !near.contains(&q) {
                            near.push(q);
                        }
                    }
                }
            }
            near.sort();
            let size = d.stones.len() as i32;
            for q in near {
                if !self.playable(q) {
                    continue;
                }
                let Ok(_) = self.goban.play(q, self.color) else {
                    continue;
                };
                let libs = self.goban.liberties(q);
                let after = Dragons::compute(&mut self.goban, &mut self.reader);
                self.goban.undo();
                if libs < 2 || after.status(q) == DragonStatus::Dead {
                    continue;
                }
                let value = match after.dragon(anchor) {
                    Some(nd) if nd.color == d.color => dragon_change_value(d, nd, mine, size),
                    // The opponent dragon's anchor was captured.
                    None if !mine => 40 + 3 * size,
                    _ => 0,
                };
                let value = percent(value, self.factors.dragons);
                if value > 0 {
                    self.add(
                        q,
                        Reason::Dragon {
                            dragon: anchor,
                            stones: d.stones.len(),
                            mine,
                            value: value.min(DRAGON_CAP),
                        },
                    );
                }
            }
        }
    }

    /// [`Reason::Opening`]: on a board with at most [`OPENING_STONES`]
    /// stones, the points on the third to fifth lines with no stone within
    /// two points (Chebyshev): the 4-4 and 3-3 points first, then the
    /// 3-4 points, then the rest of the area (the centre was tried first
    /// and measured worse against GNU Go).
    fn opening(&mut self) {
        let n = self.goban.side() as i32;
        let stones = self.stones();
        if stones.len() > OPENING_STONES || n < 7 {
            return;
        }
        let points: Vec<Point> = self.goban.points().collect();
        for p in points {
            let li = p.i.min(n - 1 - p.i);
            let lj = p.j.min(n - 1 - p.j);
            if !(2..=4).contains(&li) || !(2..=4).contains(&lj) {
                continue;
            }
            let far = stones.iter().all(|&s| chebyshev(s, p) > 2);
            if !far || !self.playable(p) {
                continue;
            }
            let value = if (li == 3 && lj == 3) || (li == 2 && lj == 2) {
                23
            } else if li <= 3 && lj <= 3 {
                22
            } else {
                21
            };
            self.add(p, Reason::Opening { value });
        }
    }

    /// [`Reason::Corner`] and [`Reason::OpenSide`] on boards of side
    /// [`FUSEKI_FROM_SIDE`] and up: the big points of the opening, which
    /// GNU Go's engines found with a fuseki module beside their pattern
    /// databases. A corner whose square of [`corner_square`] points holds
    /// no stone, or one stone, offers its 4-4, 3-4 and 3-3 points that are
    /// not next to that stone; a stretch of the third or fourth line of a
    /// side whose points have no stone within a quarter of the board's
    /// side offers its middle.
    fn fuseki(&mut self) {
        let side = self.goban.side();
        if side < FUSEKI_FROM_SIDE {
            return;
        }
        let n = side as i32;
        let stones = self.stones();
        let square = corner_square(side);
        // The board mirrored so that the corner (top, left) is the upper
        // left one: the point `a` lines from its top or bottom edge and
        // `b` from its left or right one, and back (a mirror is its own
        // inverse).
        let at = |top: bool, left: bool, a: i32, b: i32| {
            Point::new(
                if top { a } else { n - 1 - a },
                if left { b } else { n - 1 - b },
            )
        };
        for (top, left) in [(true, true), (true, false), (false, true), (false, false)] {
            let inside: Vec<Point> = stones
                .iter()
                .copied()
                .filter(|s| {
                    let m = at(top, left, s.i, s.j);
                    m.i < square && m.j < square
                })
                .collect();
            for a in 2..=3 {
                for b in 2..=3 {
                    let p = at(top, left, a, b);
                    let apart = inside.iter().all(|&s| chebyshev(s, p) > 1);
                    if let (true, Some(value)) = (apart, corner_value(a, b, inside.len())) {
                        let stones = inside.len();
                        self.direct(p, Reason::Corner { stones, value });
                    }
                }
            }
        }
        let reach = n / 4;
        let open = |p: Point| stones.iter().all(|&s| chebyshev(s, p) > reach);
        // Each side, as the line `a` from its edge and the point `t`
        // along it.
        let sides: [&dyn Fn(i32, i32) -> Point; 4] = [
            &|a, t| Point::new(a, t),
            &|a, t| Point::new(n - 1 - a, t),
            &|a, t| Point::new(t, a),
            &|a, t| Point::new(t, n - 1 - a),
        ];
        for point in sides {
            for a in 2..=3 {
                let mut t = 0;
                while t < n {
                    let start = t;
                    while t < n && open(point(a, t)) {
                        t += 1;
                    }
                    let run = t - start;
                    if run == 0 {
                        t += 1;
                        continue;
                    }
                    let value = open_side_value(run, a == 2);
                    for mid in [start + (run - 1) / 2, start + run / 2] {
                        self.direct(point(a, mid), Reason::OpenSide { run, value });
                    }
                }
            }
        }
    }

    /// The points with a stone, either colour.
    fn stones(&self) -> Vec<Point> {
        self.goban
            .points()
            .filter(|&p| !self.goban.is_empty(p))
            .collect()
    }

    fn direct(&mut self, at: Point, r: Reason) {
        if self.playable(at) {
            self.add(at, r);
        } else {
            self.reject(at, None, 0, RejectReason::Illegal);
        }
    }

    /// Every playable point that nothing else proposed and that neither
    /// fills an own one-point eye nor is self-atari gets a small value.
    fn fills(&mut self) {
        let points: Vec<Point> = self.goban.points().collect();
        let n = self.goban.side() as i32;
        for p in points {
            if self.reasons.contains_key(&p) || !self.goban.is_empty(p) {
                continue;
            }
            let own_eye = p
                .neighbours()
                .iter()
                .all(|&q| !self.goban.on_board(q) || self.goban.stone(q) == Some(self.color));
            if own_eye || !self.playable(p) {
                continue;
            }
            let Ok(captured) = self.goban.play(p, self.color) else {
                continue;
            };
            let libs = self.goban.liberties(p);
            self.goban.undo();
            if captured == 0 && libs <= 1 {
                continue;
            }
            let my = ManhattanInfluence.power(&self.goban, p, self.color);
            let their = ManhattanInfluence.power(&self.goban, p, self.color.other());
            let line = p.i.min(p.j).min(n - 1 - p.i).min(n - 1 - p.j);
            let mut v = if their == 0 && my > 0 {
                // Inside our own area: only at the very end.
                1 + i32::from(self.touches(p, self.color.other()))
            } else if my == 0 && their > 0 {
                // Deep in the opponent's area.
                1
            } else {
                let line_value = match line {
                    0 => -3,
                    1 => 0,
                    2 => 5,
                    3 => 4,
                    _ => 3,
                };
                let open = if my == 0 && their == 0 { 4 } else { 0 };
                let contested = if my > 0 && their > 0 { 3 } else { 0 };
                let key = self.seed ^ 0xf111 ^ (self.index(p) as u64) << 8;
                4 + line_value
                    + open
                    + contested
                    + percent(random_in(key, 0, 3), self.factors.random)
            };
            v = v.clamp(1, 20);
            self.add(p, Reason::Fill { value: v });
        }
    }

    /// Does `p` touch a stone of `color`?
    fn touches(&self, p: Point, color: Color) -> bool {
        p.neighbours()
            .iter()
            .any(|&q| self.goban.stone(q) == Some(color))
    }

    fn finish(self) -> Evaluation {
        let mut candidates: Vec<Candidate> = self
            .reasons
            .into_iter()
            .map(|(point, mut reasons)| {
                reasons.sort_by_key(|r| std::cmp::Reverse(r.value()));
                let value = reasons.first().map_or(0, Reason::value);
                Candidate {
                    point,
                    value,
                    reasons,
                }
            })
            .collect();
        candidates.sort_by(|a, b| b.value.cmp(&a.value).then(a.point.cmp(&b.point)));
        Evaluation {
            candidates,
            rejected: self.rejected,
            pruned: self.pruned,
        }
    }
}

/// A point as GTP writes it (`D4`), for messages.
fn point_name(p: Point, size: usize) -> String {
    crate::notation::vertex(p, size)
}

// The tests compile their databases in memory (`PatternSet::compile`).
#[cfg(all(test, feature = "compiler"))]
mod tests;

/// The distance from `p` to `q` in king's moves: the larger of the row and
/// column distances.
fn chebyshev(p: Point, q: Point) -> i32 {
    (p.i - q.i).abs().max((p.j - q.j).abs())
}
