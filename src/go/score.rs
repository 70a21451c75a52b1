//! The pieces of a Go match's value: class letters, helpers, wind and
//! moyo assistance.
//!
//! The matcher only answers "does the diagram fit here"; what a match is
//! worth is the engine's business. The move generator values every match
//! in the seed's order (`go::movegen`, its `judge.rs`: the one valuation
//! path, which `genmove`, the explanations and the tests all read); this
//! module holds the pieces that path is made of, each testable alone:
//! [`check_classes`] asks the class letters of a [`Judge`] (which the
//! engine implements with its dragon and reading code), [`find_helpers`]
//! turns helper names into functions, and [`assistance_at`] is the seed's
//! `compute_score` beyond the weight:
//!
//! ```text
//! uvalue·min(upower, |ucutoff|) + myvalue·min(mypower, |mycutoff|)
//! ```
//!
//! with `upower` and `mypower` from an [`Influence`] measure (by default
//! GNU Go's `testwind`-like sum of `6 − d` over the stones within Manhattan
//! distance 5).

use mkpat::tables::{class, Assistance, Cell, Pattern, Tables};

use crate::go::position::HelperFn;
use crate::matcher::Match;
use crate::position::{Color, Point, Position};

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
            "pattern `{}` names helper `{}`, which katachi does not have",
            self.pattern, self.helper
        )
    }
}

impl std::error::Error for MissingHelper {}

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
/// class check.
pub fn check_classes<J: Judge + ?Sized>(
    judge: &J,
    position: &dyn Position,
    class: u16,
    at: Point,
    stones: &[(Point, bool)],
    color: Color,
) -> Result<(), ClassFailure> {
    use DragonStatus::{Alive, Dead, Unknown};
    let c = class;
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

    fn class_of(p: &Pattern) -> u16 {
        p.values.go().expect("a Go pattern").class
    }
    use crate::board::Board;
    use crate::go::position::HelperContext;

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
    fn class_letters_consult_the_judge() {
        struct AllDead;
        impl Judge for AllDead {
            fn dragon_status(&self, _: &dyn Position, _: Point) -> DragonStatus {
                DragonStatus::Dead
            }
        }
        let src = b"# pattern 1\n\nO*\n\n:8,30,0,0,0,0,O,0,NULL\n\n\
                    # pattern 2\n\nO.*\n\n:8,30,0,0,0,0,o,0,NULL\n\n\
                    # pattern 3\n\nX*\n\n:8,30,0,0,0,0,n,0,NULL\n";
        let c = mkpat::compile("classes.db", src, &mkpat::Options::default());
        let db = c.database.expect("compiles");
        let tables = db.tables();
        let mut b = Board::new(5);
        b.place(Point::new(2, 2), Color::Black);
        b.place(Point::new(0, 0), Color::White);
        let verdicts: Vec<(String, Result<(), ClassFailure>)> =
            crate::matcher::Matcher::new(tables)
                .matches(&b, Color::Black)
                .iter()
                .map(|m| {
                    let p = &tables.patterns[m.pattern as usize];
                    let stones = match_stones(tables, p, m);
                    let v = check_classes(
                        &AllDead,
                        &b,
                        class_of(p),
                        m.move_point,
                        &stones,
                        Color::Black,
                    );
                    (p.name.to_string(), v)
                })
                .collect();
        // `O` needs live (or unknown) friendly dragons, `o` dead ones.
        for (name, v) in &verdicts {
            match name.as_str() {
                "1" => assert_eq!(
                    *v,
                    Err(ClassFailure::Dragon {
                        letter: 'O',
                        point: Point::new(2, 2),
                        status: DragonStatus::Dead
                    })
                ),
                "2" | "3" => assert_eq!(*v, Ok(()), "{name}"),
                _ => unreachable!(),
            }
        }
        let names: std::collections::BTreeSet<&str> =
            verdicts.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["1", "2", "3"].into_iter().collect());
        // `n`: the opponent's stone there must be safe too.
        struct NothingSafe;
        impl Judge for NothingSafe {
            fn safe_move(&self, _: &dyn Position, _: Point, color: Color) -> bool {
                color == Color::Black
            }
        }
        let (_, p3) = tables.pattern_named("3").unwrap();
        let at = Point::new(0, 1);
        let stones = [(Point::new(0, 0), false)];
        assert_eq!(
            check_classes(&NothingSafe, &b, class_of(p3), at, &stones, Color::Black),
            Err(ClassFailure::OpponentUnsafe)
        );
        let (_, p1) = tables.pattern_named("1").unwrap();
        assert_eq!(
            check_classes(&NothingSafe, &b, class_of(p1), at, &[], Color::White),
            Err(ClassFailure::Unsafe)
        );
    }

    #[test]
    fn a_missing_helper_is_reported_by_name() {
        fn half(ctx: &HelperContext<'_>) -> i32 {
            ctx.weight / 2
        }
        let src = b"# pattern 1\n\nO*\n\n:-,30,0,0,0,0,-,0,half\n\n\
                    # pattern 2\n\nO.*\n\n:-,30,0,0,0,0,-,0,gone\n\n\
                    # pattern 3\n\nX*\n\n:-,30,0,0,0,0,-,0,NULL\n";
        let c = mkpat::compile("helpers.db", src, &mkpat::Options::default());
        let db = c.database.expect("compiles");
        let registry: &[(&str, HelperFn)] = &[("half", half)];
        let (found, missing) = find_helpers(db.tables(), registry);
        let by_name = |n: &str| {
            let (k, _) = db.tables().pattern_named(n).unwrap();
            found[k].map(|f| f as usize)
        };
        assert_eq!(by_name("1"), Some(half as HelperFn as usize));
        assert_eq!((by_name("2"), by_name("3")), (None, None));
        assert_eq!(
            missing.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["pattern `2` names helper `gone`, which katachi does not have"]
        );
    }
}
