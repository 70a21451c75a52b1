//! The pattern database the move generator reads: tables, matcher,
//! resolved helpers and (2.6 dialect) constraints, builtin or compiled at
//! run time, and the overlay through which the valuation reads every
//! pattern's values (the database's own unless re-weighed).

use std::sync::{Arc, OnceLock};

use mkpat::constraint::CheckedConstraint;
use mkpat::overlay::Overlay;
use mkpat::tables::{GoValues, Tables};
use mkpat::Dialect;

use crate::go::personality::GoFactors;
use crate::go::position::HelperFn;
use crate::go::score::find_helpers;
use crate::matcher::Matcher;

/// A pattern database ready for the move generator: tables, matcher,
/// resolved helpers and (2.6 dialect) constraints.
pub struct PatternSet {
    name: String,
    dialect: Dialect,
    tables: Tables<'static>,
    /// The values the valuation reads, and the maximum weights the
    /// matcher orders its best-first scans by.
    overlay: Overlay,
    /// The overlay's Go records, unwrapped once (a set holds only Go's
    /// dialects).
    values: Vec<GoValues>,
    matcher: Matcher<'static>,
    pub(super) helpers: Vec<Option<HelperFn>>,
    pub(super) constraints: Option<&'static [Option<CheckedConstraint>]>,
    warnings: Vec<String>,
    /// The compiler's rendered diagnostics (warnings), for a database
    /// compiled at run time.
    diagnostics: String,
    /// A personality's engine factors (all defaults unless loaded with
    /// one: [`crate::go::personality`]).
    factors: GoFactors,
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
                    &crate::go::builtin::HELPERS,
                ))
            })
            .clone()
    }

    fn new(
        name: String,
        dialect: Dialect,
        tables: Tables<'static>,
        constraints: Option<&'static [Option<CheckedConstraint>]>,
        registry: &[(&str, HelperFn)],
    ) -> PatternSet {
        let (helpers, missing) = find_helpers(tables, registry);
        let warnings = missing
            .iter()
            .map(|m| format!("{m}: left out of move generation"))
            .collect();
        let overlay = Overlay::identity(dialect, tables.patterns);
        PatternSet {
            name,
            dialect,
            tables,
            values: go_values(&overlay),
            overlay,
            matcher: Matcher::new(tables),
            helpers,
            constraints,
            warnings,
            diagnostics: String::new(),
            factors: GoFactors::default(),
        }
    }

    /// Compiles a database in memory, leniently (a foreign database's
    /// wrong symmetry classes are warnings), with the helpers katachi
    /// has; a helper it lacks is a warning and its patterns propose
    /// nothing (see
    /// [`RejectReason::MissingHelper`](crate::go::evaluation::RejectReason::MissingHelper)).
    /// The compiled tables live as long as the process (the matcher
    /// borrows them): load a database once and share the set.
    #[cfg(feature = "compiler")]
    pub fn compile(name: &str, bytes: &[u8]) -> Result<PatternSet, LoadError> {
        PatternSet::compile_with_helpers(name, bytes, &crate::go::builtin::HELPERS)
    }

    /// [`PatternSet::compile`] with the helpers of `registry` instead of
    /// katachi's own: for an engine that links katachi and writes its own
    /// helpers (and for tests). The compiler checks the names against the
    /// registry, so a helper it lacks gets a located warning with the
    /// nearest name.
    #[cfg(feature = "compiler")]
    pub fn compile_with_helpers(
        name: &str,
        bytes: &[u8],
        registry: &[(&str, HelperFn)],
    ) -> Result<PatternSet, LoadError> {
        let options = mkpat::Options {
            lenient: true,
            helpers: Some(mkpat::HelperSet {
                functions: registry
                    .iter()
                    .map(|(name, _)| (name.to_string(), Ok(())))
                    .collect(),
            }),
            ..Default::default()
        };
        let loaded = crate::loading::compile::<mkpat::geometry::Square>(
            name,
            bytes,
            &options,
            crate::loading::Wants {
                dialect: Dialect::is_go,
                dialects_said: "Go reads GNU Go's dialects (`seed`, `gnugo-2.6`)",
                board_said: "Go is played on a square board",
            },
        )?;
        let (db, dialect, rendered) = (loaded.database, loaded.dialect, loaded.diagnostics);
        let has_constraints = db.constraints.iter().any(Option::is_some);
        let mut set = PatternSet::new(
            name.to_string(),
            dialect,
            db.tables(),
            has_constraints.then_some(&db.constraints[..]),
            registry,
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
    pub fn load(path: &str) -> Result<PatternSet, LoadError> {
        PatternSet::compile(path, &crate::loading::read(path)?)
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

    /// Pattern `k`'s values as the valuation reads them.
    #[inline]
    pub fn values(&self, k: usize) -> &GoValues {
        &self.values[k]
    }

    /// The engine factors the move generator reads with this set.
    pub fn factors(&self) -> GoFactors {
        self.factors
    }

    /// The overlay the values come from.
    pub fn overlay(&self) -> &Overlay {
        &self.overlay
    }

    /// The set re-weighed by `overlay` (made for these tables, from
    /// [`PatternSet::overlay`] or [`Overlay::identity`]): the valuation
    /// reads its values and the matcher is rebuilt to order and prune its
    /// best-first scans by its maximum weights.
    pub fn with_overlay(mut self, overlay: Overlay) -> Result<PatternSet, OverlayMismatch> {
        if overlay.dialect() != self.dialect || overlay.len() != self.tables.patterns.len() {
            return Err(OverlayMismatch {
                patterns: self.tables.patterns.len(),
                overlaid: overlay.len(),
            });
        }
        self.matcher = Matcher::with_max_weights(self.tables, overlay.max_weights());
        self.values = go_values(&overlay);
        self.overlay = overlay;
        Ok(self)
    }

    /// A copy of the set re-weighed by `overlay` (a personality's, made
    /// for these tables) with the engine `factors`: the shared builtin
    /// set stays as it is.
    pub fn reweighed(
        &self,
        overlay: Overlay,
        factors: GoFactors,
    ) -> Result<PatternSet, OverlayMismatch> {
        PatternSet {
            name: self.name.clone(),
            dialect: self.dialect,
            tables: self.tables,
            overlay: self.overlay.clone(),
            values: self.values.clone(),
            matcher: Matcher::new(self.tables),
            helpers: self.helpers.clone(),
            constraints: self.constraints,
            warnings: self.warnings.clone(),
            diagnostics: self.diagnostics.clone(),
            factors,
        }
        .with_overlay(overlay)
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

/// The Go records of an overlay of a Go database.
fn go_values(overlay: &Overlay) -> Vec<GoValues> {
    (0..overlay.len())
        .map(|k| {
            // A set is made only from Go's dialects (`compile` refuses the
            // others; the builtin tables are the seed's), whose records
            // are all `Go`.
            *overlay.values(k).go().expect("a Go database's record")
        })
        .collect()
}

/// An overlay made for other tables than the set's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverlayMismatch {
    pub patterns: usize,
    pub overlaid: usize,
}

impl std::fmt::Display for OverlayMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the overlay holds {} patterns of another dialect or database; the set has {}",
            self.overlaid, self.patterns
        )
    }
}

impl std::error::Error for OverlayMismatch {}

/// Why a database could not be loaded (the core's, shared by every
/// engine's `--db`).
pub use crate::loading::LoadError;

#[cfg(feature = "compiler")]
fn compiled_warnings(rendered: &str) -> usize {
    rendered
        .lines()
        .filter(|l| l.contains(": warning:"))
        .count()
}
