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

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use mkpat::constraint::CheckedConstraint;
use mkpat::tables::{class, Cell, Pattern, Tables};
use mkpat::{transform, Dialect};

use super::analysis::{Constraints, GoJudge};
use super::dragons::Dragons;
use super::evaluation::{
    Candidate, EvalOptions, Evaluation, PatternReason, Reason, RejectReason, Rejected,
};
use super::game::Game;
use super::reading::{Reader, Tactical};
use super::strings::Goban;
use crate::go::constraint::{evaluate as eval_constraint, ConstraintContext};
use crate::go::score::{DragonStatus, Influence, Judge, ManhattanInfluence};
use crate::matcher::{Match, Matcher};
use crate::position::{Color, HelperContext, HelperFn, Point, Position};

/// A pattern database ready for the move generator: tables, matcher,
/// resolved helpers and (2.6 dialect) constraints.
pub struct PatternSet {
    name: String,
    dialect: Dialect,
    tables: Tables<'static>,
    matcher: Matcher<'static>,
    helpers: Vec<Option<HelperFn>>,
    constraints: Option<&'static [Option<CheckedConstraint>]>,
    warnings: Vec<String>,
    /// The compiler's rendered diagnostics (warnings), for a database
    /// compiled at run time.
    diagnostics: String,
}

impl std::fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternSet")
            .field("name", &self.name)
            .field("dialect", &self.dialect)
            .field("patterns", &self.tables.patterns.len())
            .field("warnings", &self.warnings.len())
            .finish()
    }
}

impl PatternSet {
    /// The database built into katachi (`patterns/patterns.db`), shared.
    pub fn builtin() -> Arc<PatternSet> {
        static BUILTIN: OnceLock<Arc<PatternSet>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                Arc::new(PatternSet::new(
                    "builtin".into(),
                    Dialect::Seed,
                    crate::go::builtin::TABLES,
                    None,
                ))
            })
            .clone()
    }

    fn new(
        name: String,
        dialect: Dialect,
        tables: Tables<'static>,
        constraints: Option<&'static [Option<CheckedConstraint>]>,
    ) -> PatternSet {
        let mut warnings = Vec::new();
        let helpers = tables
            .patterns
            .iter()
            .map(|p| {
                let name = p.helper.as_deref()?;
                let found = crate::go::builtin::HELPERS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, f)| *f);
                if found.is_none() {
                    warnings.push(format!(
                        "pattern `{}` names helper `{name}`, which katachi does not have: \
                         valued without a helper",
                        p.name
                    ));
                }
                found
            })
            .collect();
        PatternSet {
            name,
            dialect,
            tables,
            matcher: Matcher::new(tables),
            helpers,
            constraints,
            warnings,
            diagnostics: String::new(),
        }
    }

    /// Compiles a database in memory, leniently (a foreign database's
    /// wrong symmetry classes are warnings), with the helpers katachi
    /// has; a helper it lacks is a warning and its patterns are valued
    /// without one. The compiled tables live as long as the process (the
    /// matcher borrows them): load a database once and share the set.
    #[cfg(feature = "compiler")]
    pub fn compile(name: &str, bytes: &[u8]) -> Result<PatternSet, String> {
        let compiled = mkpat::compile(
            name,
            bytes,
            &mkpat::Options {
                lenient: true,
                ..Default::default()
            },
        );
        let errors = compiled.error_count();
        let rendered = compiled.render();
        let dialect = compiled.dialect;
        let Some(db) = compiled.database else {
            return Err(format!(
                "{rendered}{name}: {errors} error(s): the pattern database does not compile"
            ));
        };
        let db: &'static mkpat::Database = Box::leak(Box::new(db));
        let has_constraints = db.constraints.iter().any(Option::is_some);
        let mut set = PatternSet::new(
            name.to_string(),
            dialect,
            db.tables(),
            has_constraints.then_some(&db.constraints[..]),
        );
        let n = compiled_warnings(&rendered);
        if n > 0 {
            set.warnings
                .insert(0, format!("{name}: {n} warning(s) from the compiler"));
        }
        set.diagnostics = rendered;
        Ok(set)
    }

    /// [`PatternSet::compile`] on a file (read within the input bound).
    #[cfg(feature = "compiler")]
    pub fn load(path: &str) -> Result<PatternSet, String> {
        let bytes = crate::input::read_file(std::path::Path::new(path))
            .map_err(|e| format!("{path}: {e}"))?;
        PatternSet::compile(path, &bytes)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    pub fn tables(&self) -> Tables<'static> {
        self.tables
    }

    pub fn matcher(&self) -> &Matcher<'static> {
        &self.matcher
    }

    /// What loading noticed: helpers katachi lacks, compiler warnings.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The compiler's diagnostics, rendered with their source lines
    /// (empty for the builtin database).
    pub fn diagnostics(&self) -> &str {
        &self.diagnostics
    }
}

#[cfg(feature = "compiler")]
fn compiled_warnings(rendered: &str) -> usize {
    rendered
        .lines()
        .filter(|l| l.contains(": warning:"))
        .count()
}

/// The value of capturing an opponent string of `stones` stones that
/// could otherwise escape.
pub fn capture_value(stones: usize) -> i32 {
    (35 + 10 * stones as i32).min(150)
}

/// The value of saving an own string of `stones` stones that can be
/// captured and saved.
pub fn save_value(stones: usize) -> i32 {
    (40 + 10 * stones as i32).min(150)
}

/// The most a [`Reason::Dragon`] is worth.
pub const DRAGON_CAP: i32 = 90;

/// The most stones on the board for [`Reason::Opening`] (0: the empty
/// board only — answering an opponent's first stone was measured worse).
pub const OPENING_STONES: usize = 0;

/// What a move that turned the weak dragon `before` into `after` is
/// worth: for an own dragon (`mine`) its gain, for an opponent's its loss.
fn dragon_change_value(
    before: &super::dragons::Dragon,
    after: &super::dragons::Dragon,
    mine: bool,
    size: i32,
) -> i32 {
    use DragonStatus::*;
    let rank = |s: DragonStatus| match s {
        Dead => 0,
        Critical => 1,
        Unknown => 2,
        Alive => 3,
    };
    let eyes = |d: &super::dragons::Dragon| d.half_eyes.min(4) as i32;
    if mine {
        if after.status == Alive && before.status != Alive {
            35 + 3 * size
        } else if rank(after.status) < rank(before.status) {
            0
        } else if eyes(after) > eyes(before) {
            20 + 4 * (eyes(after) - eyes(before)) + 2 * size
        } else if rank(after.status) > rank(before.status) {
            25 + 2 * size
        } else {
            0
        }
    } else if after.status == Dead && before.status != Dead {
        35 + 3 * size
    } else if rank(after.status) > rank(before.status) {
        0
    } else if eyes(after) < eyes(before) {
        18 + 4 * (eyes(before) - eyes(after)) + size
    } else {
        0
    }
}

/// The value of capturing a string in atari that is dead whoever moves
/// first: cleaning up, worth a little more than filling.
fn cleanup_value(stones: usize) -> i32 {
    (16 + stones as i32).min(24)
}

/// SplitMix64: the random terms, hashed rather than drawn so that they do
/// not depend on how often the position was evaluated.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A number in `lo..=hi` from the key.
fn random_in(key: u64, lo: i32, hi: i32) -> i32 {
    if hi <= lo {
        return lo;
    }
    lo + (mix(key) % (hi - lo + 1) as u64) as i32
}

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
                            value: capture_value(size),
                        },
                    );
                }
                (Some(Tactical::Dead { attack }), false) if self.goban.liberties(p) == 1 => {
                    self.direct(
                        attack,
                        Reason::Capture {
                            string: key,
                            stones: size,
                            value: cleanup_value(size),
                        },
                    );
                }
                (Some(Tactical::Critical { defend, .. }), true) => {
                    self.direct(
                        defend,
                        Reason::Save {
                            string: key,
                            stones: size,
                            value: save_value(size),
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
        let points: Vec<Point> = self.goban.points().collect();
        let stones: Vec<Point> = points
            .iter()
            .copied()
            .filter(|&p| !self.goban.is_empty(p))
            .collect();
        if stones.len() > OPENING_STONES || n < 7 {
            return;
        }
        for p in points {
            let li = p.i.min(n - 1 - p.i);
            let lj = p.j.min(n - 1 - p.j);
            if !(2..=4).contains(&li) || !(2..=4).contains(&lj) {
                continue;
            }
            let far = stones
                .iter()
                .all(|s| (s.i - p.i).abs().max((s.j - p.j).abs()) > 2);
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

    fn direct(&mut self, at: Point, r: Reason) {
        if self.playable(at) {
            self.add(at, r);
        } else {
            self.reject(at, None, 0, RejectReason::Illegal);
        }
    }

    /// Matches the pattern set and values every match (or, best-first,
    /// those that can still matter).
    fn patterns(&mut self, opts: EvalOptions) {
        let set = self.set;
        let matcher = set.matcher();
        let board = self.goban.board().clone();
        let color = self.color;
        if opts.all_patterns {
            for m in matcher.matches(&board, color) {
                self.value_match(&m);
            }
        } else {
            let floor = self
                .reasons
                .values()
                .flatten()
                .map(Reason::value)
                .max()
                .unwrap_or(i32::MIN);
            let mut pruned = 0;
            matcher.best_first_with(
                &board,
                color,
                floor,
                |m| self.value_match(m),
                |_| pruned += 1,
            );
            self.pruned = pruned;
        }
    }

    /// Judges one geometric match; records its reason or its rejection.
    /// Returns the pattern's own value when accepted.
    fn value_match(&mut self, m: &Match) -> Option<i32> {
        let tables = self.set.tables();
        let p: &'static Pattern = &tables.patterns[m.pattern as usize];
        let at = m.move_point;
        let name = || Some(p.name.to_string());
        if !self.playable(at) {
            self.reject(at, name(), m.trans, RejectReason::Illegal);
            return None;
        }
        let stones = pattern_stones(tables, p, m);
        // Dragon statuses.
        let c = p.class;
        for (letter, bit, mine, ok) in [
            (
                'O',
                class::BIG_O,
                true,
                [DragonStatus::Alive, DragonStatus::Unknown],
            ),
            (
                'o',
                class::SMALL_O,
                true,
                [DragonStatus::Dead, DragonStatus::Unknown],
            ),
            (
                'X',
                class::BIG_X,
                false,
                [DragonStatus::Alive, DragonStatus::Unknown],
            ),
            (
                'x',
                class::SMALL_X,
                false,
                [DragonStatus::Dead, DragonStatus::Unknown],
            ),
        ] {
            if c & bit == 0 {
                continue;
            }
            for &(q, is_mine) in &stones {
                if is_mine != mine {
                    continue;
                }
                let s = self.judge.dragon_status(&self.goban, q);
                if !ok.contains(&s) {
                    let why = format!(
                        "the dragon at {} is {s:?}",
                        point_name(q, self.goban.side())
                    );
                    self.reject(at, name(), m.trans, RejectReason::Class(letter, why));
                    return None;
                }
            }
        }
        if c & class::S == 0 && !self.judge.safe_move(&self.goban, at, self.color) {
            self.reject(
                at,
                name(),
                m.trans,
                RejectReason::Unsafe("the stone played can be captured".into()),
            );
            return None;
        }
        if c & class::N != 0 && !self.judge.safe_move(&self.goban, at, self.color.other()) {
            self.reject(
                at,
                name(),
                m.trans,
                RejectReason::Unsafe("an opponent stone there could be captured".into()),
            );
            return None;
        }
        if let Some(Some(k)) = self.set.constraints.map(|cs| &cs[m.pattern as usize]) {
            let ctx = ConstraintContext::new(m.anchor, m.trans, p.move_di as i32, p.move_dj as i32);
            let mut engine = Constraints::new(
                &mut self.constraint_goban,
                &mut self.constraint_reader,
                self.color,
            );
            if !eval_constraint(k, &ctx, &mut engine) {
                let text = p.constraint.as_deref().unwrap_or("").to_string();
                self.reject(at, name(), m.trans, RejectReason::Constraint(text));
                return None;
            }
        }
        let (weight, assistance, helper) = match self.set.helpers[m.pattern as usize] {
            Some(h) => {
                let v = h(&HelperContext {
                    pattern: p,
                    trans: m.trans,
                    move_point: at,
                    color: self.color,
                    position: &self.goban,
                });
                let hname = p.helper.as_deref().unwrap_or("").to_string();
                if v <= 0 {
                    self.reject(at, name(), m.trans, RejectReason::Helper(hname));
                    return None;
                }
                (p.weight, 0, Some((hname, v)))
            }
            None => (p.weight, self.assistance(p, at), None),
        };
        let bonus = self.bonus(p, m, &stones);
        let mut classes: Vec<char> = class::LETTERS
            .iter()
            .filter(|(_, b)| c & b != 0)
            .map(|(l, _)| *l)
            .collect();
        classes.dedup();
        let connection = self.connection(p, at, &stones);
        // Saturating: weights and wind values of the allowed range may sum
        // past i32 (the matcher's max weights are i64).
        let base = helper
            .as_ref()
            .map_or(weight.saturating_add(assistance), |h| h.1);
        let value = base.saturating_add(bonus).saturating_add(connection);
        if c & (class::D | class::A) != 0 {
            self.defence_and_attack(p, at, &stones);
        }
        if value <= 0 {
            self.reject(
                at,
                name(),
                m.trans,
                RejectReason::Helper(format!("valued {value}")),
            );
            return None;
        }
        self.add(
            at,
            Reason::Pattern(PatternReason {
                pattern: m.pattern,
                name: p.name.to_string(),
                line: p.line,
                trans: m.trans,
                anchor: m.anchor,
                weight,
                assistance,
                bonus,
                helper,
                classes,
                connection,
                value,
            }),
        );
        Some(value)
    }

    /// The seed's wind (or 2.6 moyo) assistance at `at`.
    fn assistance(&self, p: &Pattern, at: Point) -> i32 {
        crate::go::score::assistance_at(
            p.assistance,
            &self.goban,
            at,
            self.color,
            &ManhattanInfluence,
            &self.judge,
        )
    }

    /// Escape bonuses, the split bonus and the random term.
    fn bonus(&self, p: &Pattern, m: &Match, stones: &[(Point, bool)]) -> i32 {
        let dragons = self.judge.dragons();
        let room = |mine: Option<bool>| -> Option<i32> {
            stones
                .iter()
                .filter(|(_, is_mine)| mine.is_none_or(|x| x == *is_mine))
                .filter_map(|(q, _)| dragons.dragon(*q).map(|d| d.room as i32))
                .min()
        };
        // "When [the escape route] becomes less than bonus/2, the bonus is
        // allocated, two points at a time, for each decrease."
        let escape = |bonus: i32, r: Option<i32>| -> i32 {
            match r {
                Some(r) if bonus > 0 && r < bonus / 2 => (bonus - 2 * r).min(bonus),
                _ => 0,
            }
        };
        match self.dialect() {
            Dialect::Seed => escape(p.bonus, room(None)),
            Dialect::GnuGo26 => {
                let mut b = escape(p.bonus, room(Some(true))) + escape(p.xbonus, room(Some(false)));
                if p.splitbonus != 0 && self.splits(m.move_point) {
                    b += p.splitbonus;
                }
                let key = self.seed
                    ^ (u64::from(m.pattern) << 32)
                    ^ ((m.trans as u64) << 24)
                    ^ self.index(m.move_point) as u64;
                b + random_in(key, p.minrand, p.maxrand)
            }
        }
    }

    fn dialect(&self) -> Dialect {
        self.set.dialect
    }

    /// Does the move touch two distinct opponent dragons?
    fn splits(&self, at: Point) -> bool {
        let d = self.judge.dragons();
        let mut seen: Vec<u32> = Vec::new();
        for q in at.neighbours() {
            if self.goban.stone(q) == Some(self.color.other()) {
                if let Some(id) = d.dragon_id(q) {
                    if !seen.contains(&id) {
                        seen.push(id);
                    }
                }
            }
        }
        seen.len() >= 2
    }

    /// The `C`/`B` connection value.
    fn connection(&self, p: &Pattern, at: Point, stones: &[(Point, bool)]) -> i32 {
        let d = self.judge.dragons();
        let distinct = |mine: bool| -> usize {
            let mut ids: Vec<u32> = stones
                .iter()
                .filter(|(_, m)| *m == mine)
                .filter_map(|(q, _)| d.dragon_id(*q))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids.len()
        };
        let mut v = 0;
        if p.class & class::C != 0 && distinct(true) >= 2 {
            v += self.judge.connection_value(at, self.color);
        }
        if p.class & class::B != 0 && distinct(false) >= 2 {
            v += self.judge.cut_value(at, self.color);
        }
        v
    }

    /// `D`: the move defends a capturable own string of the pattern; `A`:
    /// it attacks a capturable but defendable opponent string.
    fn defence_and_attack(&mut self, p: &Pattern, at: Point, stones: &[(Point, bool)]) {
        let mut seen: Vec<Point> = Vec::new();
        for &(q, mine) in stones {
            let wanted = if mine { class::D } else { class::A };
            if p.class & wanted == 0 {
                continue;
            }
            let (key, size) = self.string_key(q);
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let t = self.tactical(q);
            match (t, mine) {
                (Some(Tactical::Critical { .. }), true)
                    if self.reader.does_defend(&mut self.goban, at, q) =>
                {
                    self.add(
                        at,
                        Reason::Save {
                            string: key,
                            stones: size,
                            value: save_value(size),
                        },
                    );
                }
                (Some(Tactical::Critical { .. }), false)
                    if self.reader.does_attack(&mut self.goban, at, q) =>
                {
                    self.add(
                        at,
                        Reason::Capture {
                            string: key,
                            stones: size,
                            value: capture_value(size),
                        },
                    );
                }
                _ => {}
            }
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
                4 + line_value + open + contested + random_in(key, 0, 3)
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

/// The stones of a match: board point and whether it is the side to
/// move's (`O`).
fn pattern_stones(tables: Tables<'_>, p: &Pattern, m: &Match) -> Vec<(Point, bool)> {
    tables
        .elements_of(p)
        .iter()
        .filter_map(|e| {
            let mine = match e.cell() {
                Cell::Mine => true,
                Cell::Theirs => false,
                _ => return None,
            };
            let (ti, tj) = transform::apply(m.trans, e.di(), e.dj());
            Some((Point::new(m.anchor.i + ti, m.anchor.j + tj), mine))
        })
        .collect()
}

/// A point as GTP writes it (`D4`), for messages.
fn point_name(p: Point, size: usize) -> String {
    crate::notation::vertex(p, size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Move;

    /// A game whose starting position is drawn in rows of `.`, `X`
    /// (black) and `O` (white).
    fn game_from(rows: &[&str]) -> Game {
        let mut g = Game::new(rows.len());
        let mut stones = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            for (j, ch) in row.chars().enumerate() {
                let p = Point::new(i as i32, j as i32);
                match ch {
                    'X' => stones.push((Color::Black, p)),
                    'O' => stones.push((Color::White, p)),
                    _ => {}
                }
            }
        }
        g.setup(&stones).expect("legal setup");
        g
    }

    fn set(db: &str) -> PatternSet {
        PatternSet::compile("test.db", db.as_bytes()).expect("compiles")
    }

    fn best(e: &Evaluation) -> Point {
        e.best().expect("a move").point
    }

    #[test]
    fn captures_a_big_string_in_atari_that_could_escape() {
        let g = game_from(&[
            ".........",
            ".........",
            ".........",
            "...OOO...",
            "..OXXX...",
            "...OOO...",
            ".........",
            ".........",
            ".........",
        ]);
        let e = evaluate(&g, Color::White, EvalOptions::default());
        let c = e.best().expect("a move");
        assert_eq!(c.point, Point::new(4, 6));
        assert!(c.reasons.iter().any(|r| matches!(
            r,
            Reason::Capture { stones: 3, value, .. } if *value == capture_value(3)
        )));
    }

    #[test]
    fn saves_its_own_string_in_atari() {
        let g = game_from(&[
            ".........",
            ".........",
            ".........",
            "...XX....",
            "..XOO....",
            "...XX....",
            ".........",
            ".........",
            ".........",
        ]);
        let e = evaluate(&g, Color::White, EvalOptions::default());
        let c = e.best().expect("a move");
        assert_eq!(c.point, Point::new(4, 5));
        assert!(c
            .reasons
            .iter()
            .any(|r| matches!(r, Reason::Save { stones: 2, .. })));
    }

    #[test]
    fn opens_on_a_4_4_or_3_3_point_not_a_filler() {
        let g = Game::new(9);
        let e = evaluate(&g, Color::Black, EvalOptions::default());
        let c = e.best().expect("a move");
        let line = |x: i32| x.min(8 - x);
        assert!(matches!(c.reasons[0], Reason::Opening { .. }), "{c:?}");
        assert!((2..=3).contains(&line(c.point.i)) && line(c.point.i) == line(c.point.j));
    }

    #[test]
    fn takes_the_vital_point_of_a_critical_own_dragon() {
        // White's corner group has a three-point eye space: CRITICAL, its
        // middle point makes two eyes.
        let g = game_from(&[
            "...OX....",
            "OOOOX....",
            "XXXXX....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let e = evaluate(&g, Color::White, EvalOptions::default());
        let c = e.best().expect("a move");
        assert_eq!(c.point, Point::new(0, 1), "{c:?}");
        assert!(c.reasons.iter().any(|r| matches!(
            r,
            Reason::Dragon {
                mine: true,
                stones: 5,
                ..
            }
        )));
    }

    #[test]
    fn dragon_change_values_gain_and_loss() {
        use super::super::dragons::Dragon;
        let d = |half_eyes, status| Dragon {
            color: Color::White,
            stones: vec![Point::new(0, 0), Point::new(0, 1)],
            half_eyes,
            room: 10,
            status,
        };
        let weak = d(2, DragonStatus::Unknown);
        assert!(dragon_change_value(&weak, &d(4, DragonStatus::Alive), true, 2) > 0);
        assert!(dragon_change_value(&weak, &d(3, DragonStatus::Unknown), true, 2) > 0);
        assert_eq!(
            dragon_change_value(&weak, &d(2, DragonStatus::Unknown), true, 2),
            0
        );
        assert!(dragon_change_value(&weak, &d(0, DragonStatus::Dead), false, 2) > 0);
        assert_eq!(
            dragon_change_value(&weak, &d(4, DragonStatus::Alive), false, 2),
            0
        );
    }

    const TWO: &str = "# pattern 1\n\nO.*     jump\n\n:8,W1,0,0,0,0,-,0,NULL\n\n\
                       # pattern 2\n\nO*      extend\n\n:8,W2,0,0,0,0,-,0,NULL\n";

    #[test]
    fn prefers_the_heavier_pattern() {
        let g = game_from(&[
            ".......", ".......", ".......", "...X...", ".......", ".......", ".......",
        ]);
        for (w1, w2, want) in [(50, 40, "1"), (40, 50, "2")] {
            let db = TWO
                .replace("W1", &w1.to_string())
                .replace("W2", &w2.to_string());
            let s = set(&db);
            let e = evaluate_with(&g, Color::Black, &s, EvalOptions::default());
            let c = e.best().expect("a move");
            assert_eq!(c.value, 50);
            match &c.reasons[0] {
                Reason::Pattern(p) => {
                    assert_eq!(p.name, want);
                    assert_eq!((p.weight, p.assistance, p.bonus, p.value), (50, 0, 0, 50));
                }
                r => panic!("{r:?}"),
            }
            let far = (c.point.i - 3).abs() + (c.point.j - 3).abs();
            assert_eq!(far, if want == "1" { 2 } else { 1 });
        }
    }

    #[test]
    fn class_o_rejects_a_match_on_a_dead_own_dragon() {
        let g = game_from(&[
            ".........",
            ".........",
            ".........",
            "....XX...",
            "...XO....",
            "....XX...",
            ".........",
            ".........",
            ".........",
        ]);
        let dead = Point::new(4, 4);
        let judge = GoJudge::new(g.goban());
        assert_eq!(judge.dragons().status(dead), DragonStatus::Dead);
        let jump = |class: &str| {
            set(&format!(
                "# pattern 1\n\nO.*\n\n:8,60,0,0,0,0,{class},0,NULL\n"
            ))
        };
        let e = evaluate_with(&g, Color::White, &jump("O"), EvalOptions::default());
        assert!(e
            .rejected
            .iter()
            .any(|r| r.point == Point::new(4, 6) && matches!(r.why, RejectReason::Class('O', _))));
        assert!(e.best().is_none_or(|c| c.value < 60));
        let e = evaluate_with(&g, Color::White, &jump("-"), EvalOptions::default());
        assert_eq!(best(&e), Point::new(4, 6));
        assert_eq!(e.candidates[0].value, 60);
    }

    #[test]
    fn a_helper_returning_zero_rejects_the_match() {
        let s = set("# pattern 1\n\nX*\n\n:-,60,0,0,0,0,s,0,capture_helper\n");
        assert!(
            !s.warnings().iter().any(|w| w.contains("capture_helper")),
            "{:?}",
            s.warnings()
        );
        let free = game_from(&[".....", ".....", "..X..", ".....", "....."]);
        let e = evaluate_with(&free, Color::White, &s, EvalOptions::default());
        let helper_zero = e
            .rejected
            .iter()
            .filter(|r| r.why == RejectReason::Helper("capture_helper".into()))
            .count();
        assert_eq!(helper_zero, 4);
        assert!(e
            .candidates
            .iter()
            .all(|c| c.reasons.iter().all(|r| !matches!(r, Reason::Pattern(_)))));
        // In atari, the same match is accepted at the helper's value.
        let atari = game_from(&[".....", "..O..", ".OX..", "..O..", "....."]);
        let e = evaluate_with(&atari, Color::White, &s, EvalOptions::default());
        let c = e.best().expect("a move");
        assert_eq!(c.point, Point::new(2, 3));
        assert!(c.reasons.iter().any(|r| matches!(
            r,
            Reason::Pattern(p) if p.helper == Some(("capture_helper".into(), 40))
        )));
    }

    #[test]
    fn unknown_helpers_are_warnings_and_no_helper() {
        let s = set("# pattern 1\n\nO*\n\n:8,60,0,0,0,0,-,0,no_such_helper\n");
        let named = |w: &&String| w.contains("`no_such_helper`");
        assert_eq!(s.warnings().iter().filter(named).count(), 1);
        let g = game_from(&[".....", ".....", "..O..", ".....", "....."]);
        let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
        assert_eq!(e.candidates[0].value, 60);
    }

    /// Positions of a self-play game on 9x9.
    fn self_play_positions(seed: u64, moves: usize) -> Vec<(Game, Color)> {
        let mut g = Game::new(9);
        g.seed(seed);
        let mut out = Vec::new();
        let mut color = Color::Black;
        for _ in 0..moves {
            out.push((g.clone(), color));
            if g.genmove(color) == Move::Pass {
                break;
            }
            color = color.other();
        }
        out
    }

    #[test]
    fn best_first_finds_the_best_move_of_all_patterns() {
        let mut pruned = 0;
        for (g, color) in self_play_positions(3, 70) {
            let fast = evaluate(&g, color, EvalOptions::default());
            let all = evaluate(&g, color, EvalOptions { all_patterns: true });
            assert_eq!(
                fast.best().map(|c| (c.point, c.value)),
                all.best().map(|c| (c.point, c.value))
            );
            assert_eq!(all.pruned, 0);
            assert!(all.candidates.len() >= fast.candidates.len());
            pruned += fast.pruned;
        }
        assert!(pruned > 0, "best-first never pruned anything");
    }

    #[test]
    fn games_are_deterministic_for_a_seed() {
        let moves = |seed| -> Vec<Move> {
            let mut g = Game::new(9);
            g.seed(seed);
            let mut color = Color::Black;
            let mut out = Vec::new();
            for _ in 0..40 {
                out.push(g.genmove(color));
                color = color.other();
            }
            out
        };
        assert_eq!(moves(11), moves(11));
        assert_ne!(moves(11), moves(12));
    }

    #[test]
    fn the_2_6_random_term_stays_in_its_range() {
        let s = set("Pattern R1\n\nO*\n\n:8,50,0,-,0,0,0,3,9,NULL\n");
        let g = game_from(&[".....", ".....", "..O..", ".....", "....."]);
        let e = evaluate_with(&g, Color::White, &s, EvalOptions::default());
        for c in &e.candidates {
            if let Reason::Pattern(p) = &c.reasons[0] {
                assert!((3..=9).contains(&p.bonus), "{p:?}");
                assert_eq!(p.value, 50 + p.bonus);
            }
        }
        let again = evaluate_with(&g, Color::White, &s, EvalOptions::default());
        assert_eq!(e, again);
    }
}
