//! The seed's tuning workflow around the move generator: evaluating a
//! position from a game record, and counting over whole games which
//! patterns fire and which stand behind the moves actually played.
//!
//! [`Evaluator`] is the one door through which `katachi explain`,
//! `katachi hits` and the GTP tuning commands reach the move generator,
//! with the database chosen on the command line (`--db`) or the builtin
//! one. [`HitCounter`] answers "is this pattern pulling its weight?": a
//! pattern that matches often but is never behind a played (or chosen)
//! move is a candidate for a lower weight or a tighter diagram; one never
//! matched is dead for this corpus. Its TSV extends `mkpat html --hits`'s
//! format with two columns the reader ignores.

use std::collections::BTreeMap;
use std::fmt::Write;

use std::sync::Arc;

use mkpat::tables::Tables;

use crate::go::evaluation::{Candidate, EvalOptions, Evaluation, Reason};
use crate::go::movegen::{self, PatternSet};
use crate::go::{Game, Move};
use crate::position::Color;

/// Evaluates positions with one pattern database, through the move
/// generator ([`movegen::evaluate_with`]).
#[derive(Clone, Debug)]
pub struct Evaluator {
    set: Arc<PatternSet>,
}

impl Evaluator {
    /// An evaluator over a loaded pattern set.
    pub fn new(set: Arc<PatternSet>) -> Evaluator {
        Evaluator { set }
    }

    /// The builtin database.
    pub fn builtin() -> Evaluator {
        Evaluator::new(PatternSet::builtin())
    }

    /// A database compiled in memory from a file (see
    /// [`PatternSet::load`]); its warnings are the caller's to print.
    pub fn load(path: &str) -> Result<Evaluator, crate::go::movegen::LoadError> {
        PatternSet::load(path).map(|s| Evaluator::new(Arc::new(s)))
    }

    pub fn set(&self) -> &Arc<PatternSet> {
        &self.set
    }

    pub fn tables(&self) -> Tables<'static> {
        self.set.tables()
    }

    /// The database's file, for `file:line` locations.
    pub fn source(&self) -> &str {
        source_name(&self.set)
    }

    /// The move generator's verdict on `game`'s position for `color`.
    pub fn evaluate(&self, game: &Game, color: Color, opts: EvalOptions) -> Evaluation {
        movegen::evaluate_with(game, color, &self.set, opts)
    }
}

/// The file a pattern set came from (`patterns/patterns.db` for the
/// builtin one).
pub fn source_name(set: &PatternSet) -> &str {
    if set.name() == "builtin" {
        "patterns/patterns.db"
    } else {
        set.name()
    }
}

/// One pattern's counts over a corpus of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternHits {
    /// Times it was a reason of some candidate.
    pub matches: u64,
    /// Positions where it was a reason of some candidate.
    pub positions: u64,
    /// Positions where it was behind the move actually played.
    pub played: u64,
    /// Positions where it was behind the move the engine would choose.
    pub chosen: u64,
}

/// Per-pattern counts over the positions of replayed games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HitCounter {
    pub positions: u64,
    /// Positions where the played move was the engine's choice.
    pub agreed: u64,
    pub counts: BTreeMap<String, PatternHits>,
}

fn pattern_names(c: &Candidate) -> Vec<&str> {
    let mut names: Vec<&str> = c
        .reasons
        .iter()
        .filter_map(|r| match r {
            Reason::Pattern(p) => Some(p.name.as_str()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

impl HitCounter {
    /// Counts every pattern of `tables` (at 0) so that dead ones show.
    pub fn new(tables: Tables<'_>) -> HitCounter {
        HitCounter {
            counts: tables
                .patterns
                .iter()
                .map(|p| (p.name.to_string(), PatternHits::default()))
                .collect(),
            ..HitCounter::default()
        }
    }

    /// Adds one position: its evaluation and the move played there.
    pub fn add(&mut self, eval: &Evaluation, played: Move) {
        self.positions += 1;
        let mut seen: Vec<&str> = Vec::new();
        for c in &eval.candidates {
            for r in &c.reasons {
                if let Reason::Pattern(p) = r {
                    self.counts.entry(p.name.clone()).or_default().matches += 1;
                    seen.push(&p.name);
                }
            }
        }
        seen.sort_unstable();
        seen.dedup();
        for name in seen {
            self.counts.entry(name.to_string()).or_default().positions += 1;
        }
        let played = match played {
            Move::Play(p) => eval.candidates.iter().find(|c| c.point == p),
            Move::Pass => None,
        };
        if let Some(c) = played {
            for name in pattern_names(c) {
                self.counts.entry(name.to_string()).or_default().played += 1;
            }
        }
        if let Some(c) = eval.best() {
            for name in pattern_names(c) {
                self.counts.entry(name.to_string()).or_default().chosen += 1;
            }
            if played.is_some_and(|p| p.point == c.point) {
                self.agreed += 1;
            }
        }
    }

    /// Replays a game (SGF text) and adds every position before a move,
    /// evaluated for the player of that move.
    pub fn add_game(
        &mut self,
        sgf: &str,
        mut evaluate: impl FnMut(&Game, Color) -> Evaluation,
    ) -> Result<(), String> {
        let loaded = crate::sgf::load(sgf, Some(1))?;
        let full = crate::sgf::load(sgf, None)?;
        // A setup after the first move restarts the game's history there:
        // replaying from the start would then miss moves.
        if full.game.history().len() != full.moves {
            return Err(format!(
                "stones are set up (AB/AW) after move {}: hits replays games from their first position only",
                full.moves - full.game.history().len()
            ));
        }
        let mut game = loaded.game;
        // Counted only once the whole game replays: a game that fails adds
        // nothing to the totals.
        let mut evals = Vec::with_capacity(full.moves);
        for (k, &(color, mv)) in full.game.history().iter().enumerate() {
            evals.push((evaluate(&game, color), mv));
            game.play(color, mv).map_err(|e| {
                let at = crate::go::notation::format_move(mv, game.size());
                format!("move {}: {at} cannot be replayed: {e}", k + 1)
            })?;
        }
        for (eval, mv) in &evals {
            self.add(eval, *mv);
        }
        Ok(())
    }

    /// The counts sorted by matches (then name), as a table.
    pub fn table(&self) -> String {
        let mut rows: Vec<(&String, &PatternHits)> = self.counts.iter().collect();
        rows.sort_by(|a, b| b.1.matches.cmp(&a.1.matches).then(a.0.cmp(b.0)));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} positions; the engine's choice was the move played in {}",
            self.positions, self.agreed
        );
        let _ = writeln!(
            out,
            "{:<12} {:>8} {:>9} {:>7} {:>7}",
            "pattern", "matches", "positions", "played", "chosen"
        );
        for (name, h) in rows {
            let _ = writeln!(
                out,
                "{name:<12} {:>8} {:>9} {:>7} {:>7}{}",
                h.matches,
                h.positions,
                h.played,
                h.chosen,
                if h.matches == 0 {
                    "  never matched"
                } else {
                    ""
                }
            );
        }
        out
    }

    /// The TSV `mkpat html --hits` reads (`pattern matches positions`),
    /// with `played` and `chosen` as extra columns it ignores.
    pub fn to_tsv(&self) -> String {
        let mut out = String::from("# katachi hits\n");
        let _ = writeln!(out, "# positions\t{}", self.positions);
        out.push_str("pattern\tmatches\tpositions\tplayed\tchosen\n");
        for (name, h) in &self.counts {
            let _ = writeln!(
                out,
                "{name}\t{}\t{}\t{}\t{}",
                h.matches, h.positions, h.played, h.chosen
            );
        }
        out
    }
}
