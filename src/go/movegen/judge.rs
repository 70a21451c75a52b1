//! How a geometric match becomes a value, in the seed's order: class
//! letters, the 2.6 constraint, the helper or the weight with its wind or
//! moyo assistance, bonuses, the connection value; and the defence and
//! attack reasons that `D` and `A` add.

use super::*;
use crate::go::score::{check_classes, match_stones, ClassFailure};
use mkpat::tables::GoValues;

impl EvaluationInProgress<'_> {
    /// Matches the pattern set and values every match (or, best-first,
    /// those that can still matter).
    pub(super) fn patterns(&mut self, opts: EvalOptions) {
        let set = self.set;
        let matcher = set.matcher();
        let board = self.goban.board().clone();
        let color = self.color;
        // Factors that can raise a value past the pattern's maximum weight
        // would make best-first skip a pattern that could win: value all.
        if opts.all_patterns || !self.factors.within_max_weights() {
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
        if let (Some(helper), None) = (&p.helper, self.set.helpers[m.pattern as usize]) {
            self.reject(
                at,
                name(),
                m.trans,
                RejectReason::MissingHelper(helper.to_string()),
            );
            return None;
        }
        let stones = match_stones(tables, p, m);
        // The values as the set's overlay has them (the database's own by
        // default).
        let g = *self.set.values(m.pattern as usize);
        let c = g.class;
        if let Err(failure) = check_classes(&self.judge, &self.goban, c, at, &stones, self.color) {
            let why = match failure {
                ClassFailure::Dragon {
                    letter,
                    point,
                    status,
                } => RejectReason::Class(
                    letter,
                    format!(
                        "the dragon at {} is {status:?}",
                        point_name(point, self.goban.side())
                    ),
                ),
                ClassFailure::Unsafe => {
                    RejectReason::Unsafe("the stone played can be captured".into())
                }
                ClassFailure::OpponentUnsafe => {
                    RejectReason::Unsafe("an opponent stone there could be captured".into())
                }
            };
            self.reject(at, name(), m.trans, why);
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
                    geometry: mkpat::geometry::Geometry::Square,
                    pattern: p,
                    weight: g.weight,
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
                (g.weight, 0, Some((hname, v)))
            }
            None => (
                g.weight,
                percent(self.assistance(&g, at), self.factors.wind),
                None,
            ),
        };
        let bonus = self.bonus(&g, m, &stones);
        let mut classes: Vec<char> = class::LETTERS
            .iter()
            .filter(|(_, b)| c & b != 0)
            .map(|(l, _)| *l)
            .collect();
        classes.dedup();
        let connection = self.connection(&g, at, &stones);
        // Saturating: weights and wind values of the allowed range may sum
        // past i32 (the matcher's max weights are i64).
        let base = helper
            .as_ref()
            .map_or(weight.saturating_add(assistance), |h| h.1);
        let value = base.saturating_add(bonus).saturating_add(connection);
        if c & (class::D | class::A) != 0 {
            self.defence_and_attack(&g, at, &stones);
        }
        if value <= 0 {
            self.reject(at, name(), m.trans, RejectReason::Value(value));
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
    fn assistance(&self, p: &GoValues, at: Point) -> i32 {
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
    fn bonus(&self, p: &GoValues, m: &Match, stones: &[(Point, bool)]) -> i32 {
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
        // A personality's noise: 0..=noise, hashed like the random term.
        let noise_key = self.seed
            ^ 0x6e01_5e00
            ^ (u64::from(m.pattern) << 32)
            ^ ((m.trans as u64) << 24)
            ^ self.index(m.move_point) as u64;
        let noise = random_in(noise_key, 0, self.factors.noise);
        noise
            + match self.dialect() {
                Dialect::GnuGo26 => {
                    let mut b =
                        escape(p.bonus, room(Some(true))) + escape(p.xbonus, room(Some(false)));
                    if p.splitbonus != 0 && self.splits(m.move_point) {
                        b += p.splitbonus;
                    }
                    let key = self.seed
                        ^ (u64::from(m.pattern) << 32)
                        ^ ((m.trans as u64) << 24)
                        ^ self.index(m.move_point) as u64;
                    b + percent(random_in(key, p.minrand, p.maxrand), self.factors.random)
                }
                // The seed's one bonus (a set holds only Go's dialects).
                _ => escape(p.bonus, room(None)),
            }
    }

    fn dialect(&self) -> Dialect {
        self.set.dialect()
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
    fn connection(&self, p: &GoValues, at: Point, stones: &[(Point, bool)]) -> i32 {
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
    fn defence_and_attack(&mut self, p: &GoValues, at: Point, stones: &[(Point, bool)]) {
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
}
