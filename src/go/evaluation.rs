//! The move generator's verdict, as data: every candidate and every reason.
//!
//! `genmove` plays the first candidate; the tuning tools (`katachi explain`,
//! the GTP `katachi-explain` and GoGui analyze commands, SGF labels) print
//! the same structure. Keeping the verdict as plain data, built once by the
//! move generator, means the explanation can never disagree with the move.

use crate::position::Point;

/// How to evaluate a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// Evaluate every pattern, with no best-first pruning (GNU Go's `-a`),
    /// so one can see by how much a weight must rise to promote a move.
    pub all_patterns: bool,
}

/// The verdict on one position for one colour.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evaluation {
    /// Candidate moves, best first (ties: lower row, then lower column).
    pub candidates: Vec<Candidate>,
    /// Pattern matches and direct reasons that were considered and
    /// rejected, in the order they were met.
    pub rejected: Vec<Rejected>,
    /// Matches not valued because of best-first pruning (0 with
    /// `all_patterns`).
    pub pruned: usize,
}

impl Evaluation {
    /// The move to play: the best candidate, if any is worth a move.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first().filter(|c| c.value > 0)
    }
}

/// One empty point and why it is worth playing.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub point: Point,
    /// The value the move generator ranks by (the largest reason's value,
    /// as in the seed's "chooses the highest scoring pattern").
    pub value: i32,
    pub reasons: Vec<Reason>,
}

/// Why a point got a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// A pattern matched with its `*` on the point.
    Pattern(PatternReason),
    /// The move captures the opponent string through `string`.
    Capture {
        string: Point,
        stones: usize,
        value: i32,
    },
    /// The move saves the own string through `string` from capture.
    Save {
        string: Point,
        stones: usize,
        value: i32,
    },
    /// The move strengthens a weak own dragon (`mine`) — more eye space
    /// or room to run — or weakens a weak opponent dragon, judged by the
    /// dragon analysis before and after the move (see `go::movegen`).
    Dragon {
        dragon: Point,
        stones: usize,
        mine: bool,
        value: i32,
    },
    /// An opening point on an empty board (3-3 / 4-4 / 3-4 first, lines
    /// three to five) far from every stone.
    Opening { value: i32 },
    /// The 4-4, 3-4 or 3-3 point of a corner whose square holds no stone,
    /// or one stone not next to the point, on boards of 17x17 and up
    /// (see `go::movegen`).
    Corner { stones: usize, value: i32 },
    /// The middle of a stretch of the third or fourth line far from every
    /// stone, `run` points long, on boards of 17x17 and up: a big point
    /// on an open side (see `go::movegen`).
    OpenSide { run: i32, value: i32 },
    /// Nothing better: a legal point that neither fills an own one-point
    /// eye nor is self-atari, valued 1 to 20 by its line and how open and
    /// contested it is (see `go::movegen`). It opens the game on an empty
    /// board and, at the end, fills dame and dead stones' liberties.
    Fill { value: i32 },
}

impl Reason {
    pub fn value(&self) -> i32 {
        match self {
            Reason::Pattern(p) => p.value,
            Reason::Capture { value, .. }
            | Reason::Save { value, .. }
            | Reason::Dragon { value, .. }
            | Reason::Opening { value }
            | Reason::Corner { value, .. }
            | Reason::OpenSide { value, .. }
            | Reason::Fill { value } => *value,
        }
    }
}

/// A pattern's contribution to a candidate, term by term.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternReason {
    /// Index into the tables' patterns.
    pub pattern: u32,
    pub name: String,
    /// Line of the pattern's header in its database.
    pub line: u32,
    pub trans: u8,
    pub anchor: Point,
    /// The pattern's base weight.
    pub weight: i32,
    /// What wind (or moyo) assistance added.
    pub assistance: i32,
    /// What bonuses added (seed bonus; 2.6 obonus/xbonus/splitbonus and
    /// the random term).
    pub bonus: i32,
    /// The helper's name and the value it returned, when there is one (the
    /// helper's value replaces weight and assistance).
    pub helper: Option<(String, i32)>,
    /// The class letters that were checked (and passed).
    pub classes: Vec<char>,
    /// What the `C`/`B` connection value added.
    pub connection: i32,
    /// The final value of this reason.
    pub value: i32,
}

/// A reason that was considered and turned down.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    pub point: Point,
    /// The pattern's name, or `None` for a direct reason.
    pub pattern: Option<String>,
    pub trans: u8,
    pub why: RejectReason,
}

/// Why a match or a direct reason did not count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RejectReason {
    /// A class letter's check failed (`O o X x` dragon status, `D`, ...).
    Class(char, String),
    /// The stone played could be trivially captured (no `s`), or with `n`
    /// the opponent's stone there could.
    Unsafe(String),
    /// The helper returned 0.
    Helper(String),
    /// The pattern names a helper the engine does not have. Such a
    /// pattern proposes nothing: its helper is what decides whether the
    /// shape is worth its weight here, and valued at its weight without
    /// it (as katachi did before) GNU Go 2.6's 170 helper patterns put
    /// moves first that GNU Go itself values at a seventh of its best
    /// (`docs/go-strength.md`, "GNU Go 2.6's helper patterns").
    MissingHelper(String),
    /// Weight, wind, bonuses and connection came to this value, 0 or
    /// less: nothing to propose (a pattern of weight 0 that only marks
    /// attacks and defences, for instance).
    Value(i32),
    /// The 2.6 constraint evaluated to false.
    Constraint(String),
    /// The move is illegal (suicide, ko).
    Illegal,
}
