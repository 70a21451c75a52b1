//! The Go engine: a client of the matcher, not part of it.
//!
//! The matcher only answers "does this diagram fit here"; playing Go needs
//! rules, and the patterns' class letters and constraints need an engine
//! that can read. This module is that engine:
//!
//! - [`strings`]: the board with incremental strings (worms), liberty
//!   counts, Zobrist hash and an undo record — the matcher's
//!   [`crate::board::Board`] is kept inside it and updated in step;
//! - [`rules`]: the rule sets (Chinese, Japanese, Tromp–Taylor, AGA, New
//!   Zealand) and what each changes: scoring, superko, suicide, dead
//!   stones;
//! - [`game`]: the rules on the board (captures, suicide where allowed,
//!   ko or superko, passes, the count with komi, fixed and free
//!   handicap) and `genmove`;
//! - [`ownership`]: who owns each point at the end of random games, and
//!   so which stones are dead, alive or in seki (for the count and GTP's
//!   `final_status_list`);
//! - [`reading`]: tactical reading (attack, defend, ladders, safe moves)
//!   with a node budget and a cache;
//! - [`dragons`]: dragons and their status estimate, eyes, connection
//!   values;
//! - [`movegen`]: the move generator — every empty point weighed by the
//!   patterns matching around it ([`movegen::PatternSet`]: the builtin
//!   database or one compiled at run time), plus tactical reasons;
//! - [`evaluation`]: the move generator's verdict as data (candidates and
//!   reasons), shared by genmove and the tuning tools;
//! - [`explain`]: that verdict as text, boards and labels ("why this
//!   move?"), for `katachi explain`, GTP/GoGui and SGF records;
//! - [`analysis`]: [`score::Judge`] and [`constraint::ConstraintEngine`]
//!   implemented on the above;
//! - [`fastboard`], [`shapes`], [`ladder`], [`playout`] and [`search`]:
//!   the Monte Carlo tree search `genmove` plays by default — a light
//!   board for random games, the playout database's 3x3 shape table,
//!   ladders read on that board, the playout policy, and UCT with RAVE
//!   over the move generator's candidates;
//! - [`deadline`]: when a search under a clock must answer, on a clock
//!   tests can drive.
//!
//!
//! and what the patterns of Go are and mean:
//!
//! - [`builtin`], [`builtin_playout`] (and `gnugo26` with that feature):
//!   the databases `build.rs` compiles, Go's move patterns and the
//!   playouts' shapes;
//! - [`position`]: strings and liberties ([`position::GoPosition`]), what
//!   Go asks of a position beyond its stones, and the helper signature;
//! - [`helpers`]: the helpers `patterns/patterns.db` names;
//! - [`score`]: what a match of the Go dialect is worth (class letters
//!   through [`score::Judge`], helpers, wind, bonuses);
//! - [`constraint`]: the engine trait behind GNU Go 2.6's constraint
//!   functions and the interpreter for tables built in memory;
//! - [`notation`]: Go's moves as GTP vertices (`D4`, `pass`).
//!
//! Nothing here reads a file format or speaks a protocol: the front ends
//! (the crate's `gtp`, `sgf`, `tuning` and `tournament`, and the CLI) sit
//! on top and import this module, never the other way round
//! (`tests/layers.rs`).

pub mod analysis;
pub mod constraint;
pub mod deadline;
pub mod dragons;
pub mod evaluation;
pub mod explain;
pub mod fastboard;
pub mod game;
pub mod helpers;
pub mod ladder;
pub mod movegen;
pub mod notation;
pub mod ownership;
pub mod personality;
pub mod playout;
pub mod position;
pub mod predictor;
pub mod reading;
pub mod rules;
pub mod score;
pub mod search;
pub mod shapes;
pub mod strings;

/// The tables compiled from `patterns/patterns.db` by `build.rs`.
///
/// `mkpat compile patterns/patterns.db` prints the same module (but for
/// the trailer build.rs appends: `AVAILABLE` and the layout check,
/// `mkpat::build::trailer`).
#[allow(clippy::all)]
pub mod builtin {
    include!(concat!(env!("OUT_DIR"), "/patterns.rs"));
}

/// The tables compiled from `patterns/playout.db`: the 3x3 shapes the
/// Monte Carlo playouts play first ([`shapes::ShapeTable`]).
#[allow(clippy::all)]
pub mod builtin_playout {
    include!(concat!(env!("OUT_DIR"), "/playout.rs"));
}

/// GNU Go 2.6's database (`../shared/conformance/gnugo-2.6/patterns.db`),
/// compiled leniently by `build.rs` with its constraints as generated
/// functions (`CONSTRAINTS`). `AVAILABLE` is false, and the tables empty,
/// when the file was absent at build time.
#[cfg(feature = "gnugo26")]
#[allow(clippy::all, non_snake_case)]
pub mod gnugo26 {
    include!(concat!(env!("OUT_DIR"), "/gnugo26.rs"));
}

/// GNU Go 3.8's `patterns` (from `patterns.db` and `patterns2.db`),
/// `owl_attackpat` and `barrierspat` tables, compiled leniently by
/// `build.rs`, with the conditions (`CONSTRAINTS`) and returning actions
/// (`ACTIONS`) katachi decides compiled to functions over
/// [`constraint::ConstraintEngine`] (no 3.x engine reads them yet).
/// `AVAILABLE` is false, and the tables empty, when the corpus was absent
/// at build time.
#[cfg(feature = "gnugo38")]
pub mod gnugo38 {
    #[allow(clippy::all, non_snake_case)]
    pub mod patterns {
        include!(concat!(env!("OUT_DIR"), "/gnugo38_patterns.rs"));
    }
    #[allow(clippy::all, non_snake_case)]
    pub mod owl_attackpat {
        include!(concat!(env!("OUT_DIR"), "/gnugo38_owl_attackpat.rs"));
    }
    #[allow(clippy::all, non_snake_case)]
    pub mod barrierspat {
        include!(concat!(env!("OUT_DIR"), "/gnugo38_barrierspat.rs"));
    }
}

pub use game::{Decision, Game, Move};
pub use strings::{Goban, Illegal};

#[cfg(all(test, feature = "compiler"))]
mod tests {
    /// `mkpat compile patterns/patterns.db` prints the module the build
    /// includes: both go through `mkpat::codegen::EnginePaths`, and this
    /// pins the build's side (mkpat's CLI tests pin the other).
    #[test]
    fn the_builtin_module_is_what_mkpat_compile_prints() {
        let root = env!("CARGO_MANIFEST_DIR");
        let db = std::fs::read(format!("{root}/patterns/patterns.db")).unwrap();
        let src = std::fs::read_to_string(format!("{root}/src/go/helpers.rs")).unwrap();
        let helpers = mkpat::HelperSet::from_source(&src).unwrap();
        let opts = mkpat::Options {
            helpers: Some(helpers.clone()),
            ..Default::default()
        };
        let c = mkpat::compile("patterns/patterns.db", &db, &opts);
        let engine = mkpat::codegen::EnginePaths::of("crate::go");
        let code = mkpat::codegen::generate(
            c.database.as_ref().expect("compiles"),
            &c.checked,
            &engine.options("patterns/patterns.db", c.dialect.name(), Some(&helpers)),
        );
        let built = include_str!(concat!(env!("OUT_DIR"), "/patterns.rs"));
        let trailer = mkpat::build::trailer(true);
        assert_eq!(built.strip_suffix(trailer.as_str()), Some(code.as_str()));
    }
}
