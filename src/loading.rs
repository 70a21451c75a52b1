//! Pattern databases compiled at run time for an engine (`--db FILE`):
//! compiled with every diagnostic, refused when they have errors or are
//! not of the engine's dialect and geometry, and kept for the life of the
//! process, since a matcher borrows its tables. Each engine asks here with
//! its own words for what it reads; none repeats the checks. (Compiling
//! is the `compiler` feature's; the error type is always there.)

#[cfg(feature = "compiler")]
use mkpat::geometry::Shape;
use mkpat::{Database, Dialect};

/// Why a database could not be loaded: the compiler's rendered
/// diagnostics (every error, located, with its source line; empty when
/// the file could not be read or is of another dialect) and a one-line
/// summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub diagnostics: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.diagnostics, self.message)
    }
}

impl std::error::Error for LoadError {}

/// What an engine reads, in its own words for the errors.
#[derive(Clone, Copy, Debug)]
pub struct Wants {
    /// Is a database of this dialect one the engine reads?
    pub dialect: fn(Dialect) -> bool,
    /// Said when it is not: "Go reads GNU Go's dialects (…)".
    pub dialects_said: &'static str,
    /// Said when the geometry is not the engine's: "Go is played on a
    /// square board".
    pub board_said: &'static str,
}

/// A database compiled for the life of the process, with the compiler's
/// rendered diagnostics (its warnings).
#[derive(Debug)]
pub struct Loaded {
    pub database: &'static Database,
    pub dialect: Dialect,
    pub diagnostics: String,
}

/// Compiles `bytes` (shown as `name`) with `opts` for an engine of
/// geometry `G` that `wants` what it says.
#[cfg(feature = "compiler")]
pub fn compile<G: Shape>(
    name: &str,
    bytes: &[u8],
    opts: &mkpat::Options,
    wants: Wants,
) -> Result<Loaded, LoadError> {
    let compiled = mkpat::compile(name, bytes, opts);
    let dialect = compiled.dialect;
    if !(wants.dialect)(dialect) {
        return Err(LoadError {
            diagnostics: String::new(),
            message: format!(
                "{name}: a database in the `{dialect}` dialect: {}",
                wants.dialects_said
            ),
        });
    }
    let errors = compiled.error_count();
    let diagnostics = compiled.render();
    let Some(db) = compiled.database else {
        return Err(LoadError {
            diagnostics,
            message: format!("{name}: {errors} error(s): the pattern database does not compile"),
        });
    };
    if let Err(e) = db.tables_as::<G>() {
        return Err(LoadError {
            diagnostics,
            message: format!("{name}: {e}: {}", wants.board_said),
        });
    }
    Ok(Loaded {
        database: Box::leak(Box::new(db)),
        dialect,
        diagnostics,
    })
}

/// The bytes of the database at `path` (read within the input bound).
#[cfg(feature = "compiler")]
pub fn read(path: &str) -> Result<Vec<u8>, LoadError> {
    crate::input::read_file(std::path::Path::new(path)).map_err(|e| LoadError {
        diagnostics: String::new(),
        message: format!("{path}: {e}"),
    })
}
