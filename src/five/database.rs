//! A five-in-a-row pattern database ready for the engine: its tables, the
//! matcher built once over them, and the overlay its values are read
//! through. The builtin one (`patterns/five.db`, compiled by `build.rs`)
//! is shared; another `.db` in the `five` dialect is compiled at run time
//! (`pbrain-katachi --db FILE`), as Go's `--db` does.

use std::sync::{Arc, OnceLock};

use mkpat::geometry::{Hexagon, Shape, Square};
use mkpat::overlay::Overlay;
use mkpat::tables::Tables;

use super::lines::LineTable;
use crate::matcher::Matcher;

/// Tables, matcher and overlay of one database, of the square (by
/// default) or the hexagon.
pub struct FiveDatabase<G: Shape = Square> {
    name: String,
    matcher: Matcher<'static, G>,
    overlay: Overlay,
    /// A personality's random term: up to this many points added to a
    /// position's score (0: none; see [`crate::five::personality`]).
    noise: i64,
    /// The valuation's look-up tables, when every pattern is a line
    /// pattern they can hold (`None`: the valuation rescans with the
    /// matcher).
    lines: Option<LineTable>,
}

impl<G: Shape> std::fmt::Debug for FiveDatabase<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FiveDatabase")
            .field("name", &self.name)
            .field("patterns", &self.overlay.len())
            .finish()
    }
}

/// Why a database could not be loaded (the core's, shared by every
/// engine's `--db`).
pub use crate::loading::LoadError;

impl<G: Shape> FiveDatabase<G> {
    fn over(name: String, tables: Tables<'static, G>, overlay: Overlay) -> FiveDatabase<G> {
        let matcher = Matcher::with_max_weights(tables, overlay.max_weights());
        let lines = LineTable::build(&matcher, &overlay);
        FiveDatabase {
            name,
            matcher,
            overlay,
            noise: 0,
            lines,
        }
    }

    /// The database re-weighed by `overlay` (made for its tables): the
    /// matcher is rebuilt on the overlay's maximum weights.
    pub fn with_overlay(&self, overlay: Overlay) -> Option<FiveDatabase<G>> {
        (overlay.len() == self.overlay.len() && overlay.dialect() == self.overlay.dialect())
            .then(|| FiveDatabase::over(self.name.clone(), self.matcher.tables(), overlay))
    }

    /// The database re-weighed by a personality: its `overlay` (made for
    /// these tables) and its random term of up to `noise` points.
    pub fn with_personality(&self, overlay: Overlay, noise: i64) -> Option<FiveDatabase<G>> {
        let mut db = self.with_overlay(overlay)?;
        db.noise = noise.max(0);
        Some(db)
    }

    /// The random term's bound, in points (0: none).
    pub fn noise(&self) -> i64 {
        self.noise
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn matcher(&self) -> &Matcher<'static, G> {
        &self.matcher
    }

    pub fn overlay(&self) -> &Overlay {
        &self.overlay
    }

    /// The line table the valuation looks values up in, when the
    /// database has one (see [`LineTable`]).
    pub fn lines(&self) -> Option<&LineTable> {
        self.lines.as_ref()
    }
}

impl FiveDatabase<Hexagon> {
    /// katachi's own database for the hexagon (`patterns/hexfive.db`),
    /// built once and shared.
    pub fn hexagon() -> Arc<FiveDatabase<Hexagon>> {
        static BUILTIN: OnceLock<Arc<FiveDatabase<Hexagon>>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let tables = super::builtin_hexagon::TABLES;
                let overlay = Overlay::identity(super::builtin_hexagon::DIALECT, tables.patterns);
                Arc::new(FiveDatabase::over(
                    "builtin-hexagon".into(),
                    tables,
                    overlay,
                ))
            })
            .clone()
    }
}

impl FiveDatabase {
    /// katachi's own database, built once and shared.
    pub fn builtin() -> Arc<FiveDatabase> {
        static BUILTIN: OnceLock<Arc<FiveDatabase>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let tables = super::builtin::TABLES;
                let overlay = Overlay::identity(super::builtin::DIALECT, tables.patterns);
                Arc::new(FiveDatabase::over("builtin".into(), tables, overlay))
            })
            .clone()
    }

    /// katachi's own Pente database (`patterns/pente.db`), built once and
    /// shared.
    pub fn pente() -> Arc<FiveDatabase> {
        static BUILTIN: OnceLock<Arc<FiveDatabase>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let tables = super::builtin_pente::TABLES;
                let overlay = Overlay::identity(super::builtin_pente::DIALECT, tables.patterns);
                Arc::new(FiveDatabase::over("builtin-pente".into(), tables, overlay))
            })
            .clone()
    }

    /// The builtin database for `rule`: Pente's under Pente, five in a
    /// row's otherwise.
    pub fn for_rule(rule: super::Rule) -> Arc<FiveDatabase> {
        match rule {
            super::Rule::Pente => FiveDatabase::pente(),
            _ => FiveDatabase::builtin(),
        }
    }

    /// Compiles a database in memory. It must be in the `five` dialect and
    /// for the square; the tables live as long as the process (the matcher
    /// borrows them): load a database once and share it.
    #[cfg(feature = "compiler")]
    pub fn compile(name: &str, bytes: &[u8]) -> Result<FiveDatabase, LoadError> {
        let db = crate::loading::compile::<mkpat::geometry::Square>(
            name,
            bytes,
            &mkpat::Options::default(),
            crate::loading::Wants {
                dialect: |d| d == mkpat::Dialect::Five,
                dialects_said: "five in a row reads the `five` dialect (a `dialect: five` line)",
                board_said: "this engine plays on a square board",
            },
        )?
        .database;
        let overlay = Overlay::identity(db.dialect, &db.patterns);
        Ok(FiveDatabase::over(name.to_string(), db.tables(), overlay))
    }

    /// [`FiveDatabase::compile`] on a file (read within the input bound).
    #[cfg(feature = "compiler")]
    pub fn load(path: &str) -> Result<FiveDatabase, LoadError> {
        FiveDatabase::compile(path, &crate::loading::read(path)?)
    }
}

#[cfg(all(test, feature = "compiler"))]
mod tests {
    use super::*;

    #[test]
    fn a_five_database_loads_and_others_are_refused_with_a_reason() {
        let ok = b"dialect: five\n\nPattern f\nOO*OO\n\n:line,five,100,90\n";
        let db = FiveDatabase::compile("mine.db", ok).expect("compiles");
        assert_eq!(db.overlay().len(), 2, "a line pattern: row and diagonal");
        let go = b"Pattern A\n\nXO*\n\n:8,50,0,-,0,0,0,0,0,NULL\n";
        let e = FiveDatabase::compile("go.db", go).unwrap_err();
        assert!(e.message.contains("`gnugo-2.6` dialect"), "{e}");
        let bad = b"dialect: five\n\nPattern f\n=OOO*=\n\n:line,four,1,1\n";
        let e = FiveDatabase::compile("bad.db", bad).unwrap_err();
        assert!(e.diagnostics.contains("bad.db:6:7: error"), "{e}");
        assert!(Arc::ptr_eq(
            &FiveDatabase::builtin(),
            &FiveDatabase::builtin()
        ));
    }
}
