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
//! The text form, one entry a line (`#` starts a comment):
//!
//! ```text
//! move-in-hand 136     # percent of the side to move's best point's value
//! open-four 28926 40237  # kind, per match of the side to move, per match of the opponent
//! ```
//!
//! Kinds are named as in a `five` database (`docs/language.md`); a kind
//! not listed weighs nothing. Every bad line is reported, located
//! ([`TableError`], as the move predictor's tables are).

use std::sync::OnceLock;

use mkpat::tables::Kind;

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
}

/// The name of the move-in-hand entry.
const MOVE_IN_HAND: &str = "move-in-hand";

impl LeafWeights {
    /// The built-in table of `rule` (`patterns/five-exact.leaf`), for the
    /// square's database; `None` where none was fitted and measured
    /// (renju, freestyle, Pente), whose leaves keep the pattern sums.
    pub fn builtin(rule: Rule) -> Option<&'static LeafWeights> {
        static EXACT: OnceLock<LeafWeights> = OnceLock::new();
        match rule {
            Rule::Exact => Some(EXACT.get_or_init(|| {
                LeafWeights::parse(include_str!("../../patterns/five-exact.leaf"))
                    .expect("the built-in leaf table reads (a test holds it)")
            })),
            Rule::Renju | Rule::Freestyle | Rule::Pente => None,
        }
    }

    /// Reads a leaf table from its text; every bad line is reported.
    pub fn parse(text: &str) -> Result<LeafWeights, Vec<TableError>> {
        let mut out = LeafWeights {
            mine: [0; Kind::ALL.len()],
            theirs: [0; Kind::ALL.len()],
            move_in_hand: 50,
        };
        let mut seen: Vec<&str> = Vec::new();
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
            if seen.contains(&name) {
                errors.push(error(col, format!("`{name}` is given twice")));
                continue;
            }
            let want = if name == MOVE_IN_HAND { 1 } else { 2 };
            let kind = Kind::from_name(name);
            if name != MOVE_IN_HAND && kind.is_none() {
                errors.push(error(
                    col,
                    format!(
                        "expected a threat kind ({}) or `{MOVE_IN_HAND}`, found `{name}`",
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
                        "`{name}` takes {want} {}, found {}",
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
            seen.push(name);
            match kind {
                Some(k) => {
                    out.mine[k as usize] = numbers[0];
                    out.theirs[k as usize] = numbers[1];
                }
                None if (0..=1000).contains(&numbers[0]) => out.move_in_hand = numbers[0],
                None => errors.push(error(
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
        assert!(LeafWeights::builtin(Rule::Renju).is_none());
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
}
