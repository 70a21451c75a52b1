//! The main search's leaf weights: what a threat kind's matches are worth
//! at the horizon, for the side to move and for the opponent.
//!
//! The pattern sums (each side's matches at their database values, one
//! side's total less the other's) value a shape the same whoever is to
//! move, yet at a leaf the two differ: the side to move plays first. A
//! leaf table counts the database's matches by threat kind for each side
//! (the patterns still say what is a three or a four; their values still
//! order the candidates) and weighs each kind by its own pair of numbers,
//! fitted to a stronger engine's judgement of the very positions the
//! search ends its lines in: the leaves of its principal variations,
//! which a table fitted on random positions does not see (a search seeks
//! out the leaves whose scores are most wrong in its favour).
//!
//! A count of matches says how much each side threatens, not where two
//! threats meet: a four and an open three through one empty point win,
//! the same four and three apart do not. So a table may also weigh each
//! side's empty points by their class ([`PointClass`]: what one move
//! there makes across its lines), a number for each point of the side to
//! move and one for each of the opponent's.
//!
//! The text form, one entry a line (`#` starts a comment):
//!
//! ```text
//! move-in-hand 136     # percent of the side to move's best point's value
//! open-four 28926 40237  # kind, per match of the side to move, per match of the opponent
//! point four-three 60000 34000  # point class, per point of the side to move, of the opponent
//! ```
//!
//! Kinds are named as in a `five` database (`docs/language.md`), point
//! classes as [`PointClass::name`] (what one move makes across the
//! lines through its point: a four-three, a double three); a kind or a
//! class not listed weighs nothing. Point classes are read along the
//! lines of a database of line patterns (one with a line table); a
//! caller that plays a table with classes on another database must
//! refuse it ([`LeafWeights::reads_points`]). Every bad line is
//! reported, located ([`TableError`], as the move predictor's tables
//! are).

use std::sync::OnceLock;

use mkpat::tables::Kind;

use super::point_class::PointClass;
use super::rules::Rule;
use crate::bradley_terry::{read_located, TableError};

/// A leaf table: per threat kind, what each match of the side to move
/// and of the opponent adds to (takes from) the side to move's score, and
/// the share of its best point's value the move in hand is worth.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LeafWeights {
    /// Per kind (`Kind as usize`, [`Kind::ALL`]'s order): each of the
    /// side to move's matches.
    pub mine: [i64; Kind::ALL.len()],
    /// Per kind: each of the opponent's matches (subtracted).
    pub theirs: [i64; Kind::ALL.len()],
    /// Percent of the side to move's best point's value (its attack and
    /// the defence it takes there) added for having the move.
    pub move_in_hand: i64,
    /// Per point class (`PointClass as usize`): each of the side to
    /// move's empty points of that class.
    pub point_mine: [i64; PointClass::ALL.len()],
    /// Per point class: each of the opponent's points (subtracted).
    pub point_theirs: [i64; PointClass::ALL.len()],
}

/// The word that starts a point class's line.
const POINT: &str = "point";

/// The name of the move-in-hand entry.
const MOVE_IN_HAND: &str = "move-in-hand";

impl LeafWeights {
    /// The built-in table of `rule` (`patterns/five-exact.leaf`,
    /// `patterns/five-renju.leaf`), for the square's database; `None`
    /// where none was fitted and measured (freestyle, Pente), whose
    /// leaves keep the pattern sums.
    pub fn builtin(rule: Rule) -> Option<&'static LeafWeights> {
        static EXACT: OnceLock<LeafWeights> = OnceLock::new();
        static RENJU: OnceLock<LeafWeights> = OnceLock::new();
        let read = |text: &str| {
            LeafWeights::parse(text).expect("the built-in leaf tables read (a test holds it)")
        };
        match rule {
            Rule::Exact => {
                Some(EXACT.get_or_init(|| read(include_str!("../../patterns/five-exact.leaf"))))
            }
            Rule::Renju => {
                Some(RENJU.get_or_init(|| read(include_str!("../../patterns/five-renju.leaf"))))
            }
            Rule::Freestyle | Rule::Pente => None,
        }
    }

    /// Reads a leaf table from its text; every bad line is reported.
    pub fn parse(text: &str) -> Result<LeafWeights, Vec<TableError>> {
        let mut out = LeafWeights {
            mine: [0; Kind::ALL.len()],
            theirs: [0; Kind::ALL.len()],
            move_in_hand: 50,
            point_mine: [0; PointClass::ALL.len()],
            point_theirs: [0; PointClass::ALL.len()],
        };
        let mut seen: Vec<String> = Vec::new();
        let mut errors = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let words: Vec<(usize, &str)> = words(line);
            let Some(&(col, name)) = words.first() else {
                continue;
            };
            let error = |column: usize, message: String| TableError {
                line: i + 1,
                column,
                text: raw.to_string(),
                message,
            };
            // A point class's line: `point CLASS MINE THEIRS`, read as
            // the kind's line after its first word.
            let (words, class) = if name == POINT {
                let Some(&(c, class)) = words.get(1) else {
                    errors.push(error(
                        line.trim_end().len() + 1,
                        format!("`{POINT}` takes a point class and 2 numbers"),
                    ));
                    continue;
                };
                match PointClass::from_name(class) {
                    Some(pc) => (words[1..].to_vec(), Some(pc)),
                    None => {
                        errors.push(error(
                            c,
                            format!(
                                "expected a point class ({}), found `{class}`",
                                PointClass::ALL.map(PointClass::name).join(", ")
                            ),
                        ));
                        continue;
                    }
                }
            } else {
                (words, None)
            };
            let name = words[0].1;
            let key = match class {
                Some(_) => format!("{POINT} {name}"),
                None => name.to_string(),
            };
            if seen.contains(&key) {
                errors.push(error(col, format!("`{key}` is given twice")));
                continue;
            }
            let want = if name == MOVE_IN_HAND && class.is_none() {
                1
            } else {
                2
            };
            let kind = Kind::from_name(name);
            if class.is_none() && name != MOVE_IN_HAND && kind.is_none() {
                errors.push(error(
                    col,
                    format!(
                        "expected a threat kind ({}), `{POINT}` or `{MOVE_IN_HAND}`, found `{name}`",
                        Kind::ALL.map(Kind::name).join(", ")
                    ),
                ));
                continue;
            }
            if words.len() != want + 1 {
                let at = words
                    .get(want + 1)
                    .map_or(line.trim_end().len() + 1, |w| w.0);
                errors.push(error(
                    at,
                    format!(
                        "`{key}` takes {want} {}, found {}",
                        if want == 1 { "number" } else { "numbers" },
                        words.len() - 1
                    ),
                ));
                continue;
            }
            let mut numbers = Vec::new();
            for &(c, w) in &words[1..] {
                match w.parse::<i64>() {
                    Ok(v) if v.abs() <= MAX_WEIGHT => numbers.push(v),
                    _ => errors.push(error(
                        c,
                        format!("expected a whole number within ±{MAX_WEIGHT}, found `{w}`"),
                    )),
                }
            }
            if numbers.len() != want {
                continue;
            }
            seen.push(key);
            match (class, kind) {
                (Some(pc), _) => {
                    out.point_mine[pc as usize] = numbers[0];
                    out.point_theirs[pc as usize] = numbers[1];
                }
                (None, Some(k)) => {
                    out.mine[k as usize] = numbers[0];
                    out.theirs[k as usize] = numbers[1];
                }
                (None, None) if (0..=1000).contains(&numbers[0]) => out.move_in_hand = numbers[0],
                (None, None) => errors.push(error(
                    words[1].0,
                    format!("expected a percent from 0 to 1000, found {}", numbers[0]),
                )),
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(errors)
        }
    }

    /// Reads a leaf table from a file; the errors carry its name.
    pub fn read_file(path: &std::path::Path) -> Result<LeafWeights, String> {
        read_located(path, LeafWeights::parse)
    }

    /// The weight of the side to move's matches of `kind`.
    pub fn mine(&self, kind: Kind) -> i64 {
        self.mine[kind as usize]
    }

    /// The weight of the opponent's matches of `kind`.
    pub fn theirs(&self, kind: Kind) -> i64 {
        self.theirs[kind as usize]
    }

    /// Whether the table weighs point classes, which only a database of
    /// line patterns (one with a [`LineTable`](super::lines::LineTable))
    /// counts.
    pub fn reads_points(&self) -> bool {
        self.point_mine
            .iter()
            .chain(&self.point_theirs)
            .any(|&w| w != 0)
    }
}

/// The largest weight a table may give: far below the search's win
/// scores, so that no count of matches reaches them.
pub const MAX_WEIGHT: i64 = 1_000_000;

/// The words of `line` with their 1-based columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, ch) in line.char_indices() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(k),
            (true, Some(s)) => {
                out.push((s + 1, &line[s..k]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_table_reads() {
        let w = LeafWeights::builtin(Rule::Exact).expect("exact five has one");
        assert!(w.mine(Kind::OpenFour) > 0 && w.theirs(Kind::OpenFour) > 0);
        let renju = LeafWeights::builtin(Rule::Renju).expect("renju has one");
        assert!(renju.mine(Kind::OpenFour) > 0 && !renju.reads_points());
        assert!(LeafWeights::builtin(Rule::Freestyle).is_none());
    }

    #[test]
    fn a_table_reads_its_kinds_and_share() {
        let w = LeafWeights::parse(
            "# a comment\nmove-in-hand 80\n  open-three 10 -20   # trailing\n\ntwo 3 4\n",
        )
        .unwrap();
        assert_eq!(w.move_in_hand, 80);
        assert_eq!(
            (w.mine(Kind::OpenThree), w.theirs(Kind::OpenThree)),
            (10, -20)
        );
        assert_eq!((w.mine(Kind::Two), w.theirs(Kind::Two)), (3, 4));
        assert_eq!((w.mine(Kind::Four), w.theirs(Kind::Four)), (0, 0));
        assert!(!w.reads_points());
        // A point class's line, beside the kind of the same name.
        let w = LeafWeights::parse("two 1 2\npoint two 3 -4\npoint four-three 5 6\n").unwrap();
        assert_eq!((w.mine(Kind::Two), w.theirs(Kind::Two)), (1, 2));
        let at = |c: PointClass| (w.point_mine[c as usize], w.point_theirs[c as usize]);
        assert_eq!(at(PointClass::Two), (3, -4));
        assert_eq!(at(PointClass::FourThree), (5, 6));
        assert_eq!(at(PointClass::DoubleThree), (0, 0));
        assert!(w.reads_points());
        // Not given: half the best point, as the pattern sums' leaves.
        assert_eq!(LeafWeights::parse("two 1 1").unwrap().move_in_hand, 50);
    }

    #[test]
    fn every_bad_line_is_reported_where_it_is() {
        let text =
            "two 1 1\nthree 1\nfour x 2\nbogus 1 2\ntwo 3 3\nmove-in-hand 2000\nfive 1 2 3\n";
        let errors = LeafWeights::parse(text).unwrap_err();
        let at: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(at, vec![(2, 8), (3, 6), (4, 1), (5, 1), (6, 14), (7, 10)]);
        assert!(errors[0].message.contains("takes 2 numbers, found 1"));
        assert!(errors[1].message.contains("found `x`"));
        assert!(errors[2].message.contains("expected a threat kind"));
        assert!(errors[3].message.contains("given twice"));
        assert!(errors[4].message.contains("percent"));
        let shown = errors[1].to_string();
        assert_eq!(shown.lines().nth(2), Some("       ^"), "{shown}");
    }

    #[test]
    fn every_bad_point_line_is_reported_where_it_is() {
        let text = "point\npoint five 1 2\npoint two 1\npoint two 1 1\npoint two 2 2\npoint double-three 1 y\n";
        let errors = LeafWeights::parse(text).unwrap_err();
        let at: Vec<(usize, usize)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(at, vec![(1, 6), (2, 7), (3, 12), (5, 1), (6, 22)]);
        assert!(errors[0].message.contains("takes a point class"));
        assert!(errors[1].message.contains("expected a point class"));
        assert!(errors[1].message.contains("four-three"));
        assert!(errors[2]
            .message
            .contains("`point two` takes 2 numbers, found 1"));
        assert!(errors[3].message.contains("`point two` is given twice"));
        assert!(errors[4].message.contains("found `y`"));
    }
}
