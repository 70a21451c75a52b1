//! Scoring a geometric match: class letters, helpers and wind assistance.
//!
//! The matcher only answers "does the diagram fit here"; what a match is
//! worth is the engine's business and lives here, apart from the hot loop.
//! [`Scorer::value`] follows the seed: the classification letters are
//! checked first (through [`Judge`], which an engine implements with its
//! dragon and reading code), then either the pattern's helper decides the
//! value or `compute_score` does:
//!
//! ```text
//! weight + uvalue·min(upower, |ucutoff|) + myvalue·min(mypower, |mycutoff|)
//! ```
//!
//! with `upower` and `mypower` from an [`Influence`] measure (by default
//! GNU Go's `testwind`-like sum of `6 − d` over the stones within Manhattan
//! distance 5). The default judge is permissive — it knows nothing about
//! dragons or reading — so a board-only caller gets every match scored.

use mkpat::tables::{class, Assistance, Cell, Pattern, Tables};

use crate::matcher::Match;
use crate::position::{Color, HelperContext, HelperFn, Point, Position};

/// The status of a dragon, as the class letters `O o X x` ask about it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum DragonStatus {
    Alive,
    Dead,
    Unknown,
    Critical,
}

/// What the engine knows that the board does not: dragon statuses and
/// reading. Every method has a permissive default, documented on it.
pub trait Judge {
    /// The status of the dragon holding the stone on `p`. Default:
    /// [`DragonStatus::Unknown`], which satisfies every one of `O o X x`.
    fn dragon_status(&self, _position: &dyn Position, _p: Point) -> DragonStatus {
        DragonStatus::Unknown
    }

    /// Can a stone of `color` played on `p` not be trivially captured?
    /// Asked for every pattern without `s` (and for the opponent too with
    /// `n`). Default: `true`, as the matcher cannot read.
    fn safe_move(&self, _position: &dyn Position, _p: Point, _color: Color) -> bool {
        true
    }

    /// The moyo measure for [`Assistance::Moyo`] at the move. Default: 0
    /// (no moyo bonus).
    fn moyo(&self, _position: &dyn Position, _p: Point, _color: Color) -> i32 {
        0
    }
}

/// The permissive [`Judge`]: every default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Permissive;

impl Judge for Permissive {}

/// Nearby strength of one colour around a point, for wind assistance.
pub trait Influence {
    /// The power of `color`'s stones around `p`.
    fn power(&self, position: &dyn Position, p: Point, color: Color) -> i32;
}

/// GNU Go's measure: the sum of `6 − d` over the stones of the colour at
/// Manhattan distance `d ≤ 5` from the point.
#[derive(Clone, Copy, Debug, Default)]
pub struct ManhattanInfluence;

impl Influence for ManhattanInfluence {
    fn power(&self, position: &dyn Position, p: Point, color: Color) -> i32 {
        let mut sum = 0;
        for di in -5i32..=5 {
            let rest = 5 - di.abs();
            for dj in -rest..=rest {
                if position.stone(Point::new(p.i + di, p.j + dj)) == Some(color) {
                    sum += 6 - (di.abs() + dj.abs());
                }
            }
        }
        sum
    }
}

/// What a pattern's wind or moyo assistance adds at `at` for `color`
/// ([`Assistance::value`]); only the measure the assistance uses is taken.
pub fn assistance_at(
    assistance: Assistance,
    position: &dyn Position,
    at: Point,
    color: Color,
    influence: &dyn Influence,
    judge: &dyn Judge,
) -> i32 {
    let (upower, mypower, moyo) = match assistance {
        Assistance::None => (0, 0, 0),
        Assistance::Wind { .. } => (
            influence.power(position, at, color.other()),
            influence.power(position, at, color),
            0,
        ),
        Assistance::Moyo { .. } => (0, 0, judge.moyo(position, at, color)),
    };
    assistance.value(upower, mypower, moyo)
}

/// A pattern's helper could not be found in the registry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MissingHelper {
    pub pattern: String,
    pub helper: String,
}

impl std::fmt::Display for MissingHelper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pattern `{}` names helper `{}`, which the registry does not have",
            self.pattern, self.helper
        )
    }
}

impl std::error::Error for MissingHelper {}

/// Values matches of one set of tables.
pub struct Scorer<'t, 'e> {
    tables: Tables<'t>,
    /// Per pattern, its resolved helper.
    helpers: Vec<Option<HelperFn>>,
    judge: &'e dyn Judge,
    influence: &'e dyn Influence,
}

impl std::fmt::Debug for Scorer<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scorer")
            .field("patterns", &self.tables.patterns.len())
            .field(
                "helpers",
                &self.helpers.iter().filter(|h| h.is_some()).count(),
            )
            .finish()
    }
}

/// Resolves every pattern's helper name in `registry` (for the builtin
/// tables, [`crate::go::builtin::HELPERS`]): the helpers found, `None`
/// where a pattern names none or one the registry lacks, and those it
/// lacks. The one place a helper name becomes a function.
pub fn find_helpers(
    tables: Tables<'_>,
    registry: &[(&str, HelperFn)],
) -> (Vec<Option<HelperFn>>, Vec<MissingHelper>) {
    let mut missing = Vec::new();
    let resolved = tables
        .patterns
        .iter()
        .map(|p| {
            let name = p.helper.as_deref()?;
            let found = registry.iter().find(|(n, _)| *n == name).map(|(_, f)| *f);
            if found.is_none() {
                missing.push(MissingHelper {
                    pattern: p.name.to_string(),
                    helper: name.to_string(),
                });
            }
            found
        })
        .collect();
    (resolved, missing)
}

/// [`find_helpers`], failing when any helper is missing.
pub fn resolve_helpers(
    tables: Tables<'_>,
    registry: &[(&str, HelperFn)],
) -> Result<Vec<Option<HelperFn>>, Vec<MissingHelper>> {
    match find_helpers(tables, registry) {
        (resolved, missing) if missing.is_empty() => Ok(resolved),
        (_, missing) => Err(missing),
    }
}

impl<'t, 'e> Scorer<'t, 'e> {
    /// A scorer with the permissive judge and GNU Go's influence measure.
    /// Fails when a pattern names a helper the registry lacks.
    pub fn new(
        tables: Tables<'t>,
        registry: &[(&str, HelperFn)],
    ) -> Result<Scorer<'t, 'static>, Vec<MissingHelper>> {
        Ok(Scorer {
            tables,
            helpers: resolve_helpers(tables, registry)?,
            judge: &Permissive,
            influence: &ManhattanInfluence,
        })
    }

    /// A scorer with the engine's own judge and influence measure.
    pub fn with(
        tables: Tables<'t>,
        registry: &[(&str, HelperFn)],
        judge: &'e dyn Judge,
        influence: &'e dyn Influence,
    ) -> Result<Scorer<'t, 'e>, Vec<MissingHelper>> {
        Ok(Scorer {
            tables,
            helpers: resolve_helpers(tables, registry)?,
            judge,
            influence,
        })
    }

    /// The seed's `compute_score` for a pattern at `move_point`.
    pub fn compute_score(
        &self,
        p: &Pattern,
        position: &dyn Position,
        move_point: Point,
        color: Color,
    ) -> i32 {
        // Saturating: the database allows weights and wind values whose
        // sum leaves i32 (the matcher's max weights are i64).
        p.weight.saturating_add(assistance_at(
            p.assistance,
            position,
            move_point,
            color,
            self.influence,
            self.judge,
        ))
    }

    /// The value of match `m` for `color` (the side to move), or `None`
    /// when a class letter rejects it or its helper returns 0.
    pub fn value(&self, m: &Match, position: &dyn Position, color: Color) -> Option<i32> {
        let p = &self.tables.patterns[m.pattern as usize];
        if !self.classes_pass(p, m, position, color) {
            return None;
        }
        let v = match self.helpers[m.pattern as usize] {
            Some(helper) => helper(&HelperContext {
                pattern: p,
                trans: m.trans,
                move_point: m.move_point,
                color,
                position,
            }),
            None => self.compute_score(p, position, m.move_point, color),
        };
        (v > 0).then_some(v)
    }

    /// The class letters `O o X x s n` (D, C, B, A, L ask for engine
    /// actions, not for a yes or no, and pass here).
    fn classes_pass(&self, p: &Pattern, m: &Match, position: &dyn Position, color: Color) -> bool {
        let stones = match_stones(self.tables, p, m);
        check_classes(self.judge, position, p, m.move_point, &stones, color).is_ok()
    }
}

/// Why a match's class letters turn it down.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClassFailure {
    /// The dragon condition of `letter` (`O o X x`) fails on the stone at
    /// `point`, whose dragon is `status`.
    Dragon {
        letter: char,
        point: Point,
        status: DragonStatus,
    },
    /// Without `s`: the stone played could be trivially captured.
    Unsafe,
    /// With `n`: an opponent stone played there could be.
    OpponentUnsafe,
}

/// The stones of a match: board point and whether it is the side to
/// move's (`O`), in the pattern's element order.
pub fn match_stones(tables: Tables<'_>, p: &Pattern, m: &Match) -> Vec<(Point, bool)> {
    tables
        .elements_of(p)
        .iter()
        .filter_map(|e| {
            let mine = match e.cell() {
                Cell::Mine => true,
                Cell::Theirs => false,
                _ => return None,
            };
            Some((m.anchor.offset(m.trans, e.di(), e.dj()), mine))
        })
        .collect()
}

/// The class letters `O o X x s n` of pattern `p` played at `at` for
/// `color`, whose stones lie at `stones` ([`match_stones`]): the first
/// that fails, in the order the engine reports them (the dragon letters
/// `O o X x`, each over the stones in order, then `s`, then `n`). The one
/// class check, used by the move generator and by [`Scorer`] alike.
pub fn check_classes<J: Judge + ?Sized>(
    judge: &J,
    position: &dyn Position,
    p: &Pattern,
    at: Point,
    stones: &[(Point, bool)],
    color: Color,
) -> Result<(), ClassFailure> {
    use DragonStatus::{Alive, Dead, Unknown};
    let c = p.class;
    for (letter, bit, mine, ok) in [
        ('O', class::BIG_O, true, [Alive, Unknown]),
        ('o', class::SMALL_O, true, [Dead, Unknown]),
        ('X', class::BIG_X, false, [Alive, Unknown]),
        ('x', class::SMALL_X, false, [Dead, Unknown]),
    ] {
        if c & bit == 0 {
            continue;
        }
        for &(point, is_mine) in stones {
            if is_mine != mine {
                continue;
            }
            let status = judge.dragon_status(position, point);
            if !ok.contains(&status) {
                return Err(ClassFailure::Dragon {
                    letter,
                    point,
                    status,
                });
            }
        }
    }
    if c & class::S == 0 && !judge.safe_move(position, at, color) {
        return Err(ClassFailure::Unsafe);
    }
    if c & class::N != 0 && !judge.safe_move(position, at, color.other()) {
        return Err(ClassFailure::OpponentUnsafe);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn manhattan_influence_weights_by_distance() {
        let mut b = Board::new(9);
        b.place(Point::new(4, 4), Color::Black); // d = 0: 6
        b.place(Point::new(4, 6), Color::Black); // d = 2: 4
        b.place(Point::new(0, 0), Color::Black); // d = 8: nothing
        b.place(Point::new(3, 4), Color::White); // d = 1: 5
        let inf = ManhattanInfluence;
        assert_eq!(inf.power(&b, Point::new(4, 4), Color::Black), 10);
        assert_eq!(inf.power(&b, Point::new(4, 4), Color::White), 5);
        assert_eq!(inf.power(&b, Point::new(8, 8), Color::Black), 0);
        assert_eq!(inf.power(&b, Point::new(6, 6), Color::Black), 4 + 2);
    }

    #[test]
    fn huge_weights_in_the_allowed_range_are_valued_and_never_pruned() {
        use crate::matcher::Matcher;
        // Weight, cutoffs, values and bonus at the documented limit 100000:
        // the max weight is 100000 + 2·10^10 + 100000, far past i32.
        let src = b"# pattern 1\n\nO..\n.*.\n\n:8,50,0,0,0,0,-,0,NULL\n\n\
                    # pattern 2\n\nO.\n*.\n\n\
                    :8,100000,100000,100000,100000,100000,-,100000,NULL\n";
        let c = mkpat::compile("huge.db", src, &mkpat::Options::default());
        assert!(c.is_ok(), "{}", c.render());
        let db = c.database.unwrap();
        let tables = db.tables();
        let (_, huge) = tables.pattern_named("2").unwrap();
        assert_eq!(huge.max_weight, 100_000 + 2 * 10_000_000_000 + 100_000);
        // Sorted first, as its max weight says.
        assert_eq!(&*tables.patterns[0].name, "2");
        let matcher = Matcher::new(tables);
        let scorer = Scorer::new(tables, &[]).unwrap();
        let mut b = Board::new(9);
        b.place(Point::new(4, 4), Color::Black);
        let (best, value) = matcher
            .best_first(
                &b,
                Color::Black,
                |m| scorer.value(m, &b, Color::Black),
                |_, _| {},
            )
            .expect("a best match");
        assert_eq!(&*tables.patterns[best.pattern as usize].name, "2");
        // 100000 + 100000·min(mypower, 100000), mypower 5 at distance 1.
        assert!(value >= 100_000 + 5 * 100_000, "{value}");
        // A power past i32 saturates instead of wrapping or panicking.
        let a = huge.assistance;
        assert_eq!(a.value(i32::MAX, i32::MAX, 0), i32::MAX);
    }
}
