//! [`compile`]: parse, check and expand in one call, with every
//! diagnostic of the file.

use crate::diag::{self, Diagnostic, SourceFile};
use crate::{check, expand, parse, CheckedPattern, Database, Dialect, HelperSet};

/// How to compile a database.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Force a dialect instead of detecting it from the headers.
    pub dialect: Option<Dialect>,
    /// Read a foreign database for its geometry: wrong symmetry classes and
    /// unknown helpers are warnings, not errors.
    pub lenient: bool,
    /// The helpers that exist. `None` skips the helper check.
    pub helpers: Option<HelperSet>,
}

/// Everything one compilation produced.
#[derive(Debug)]
pub struct Compiled {
    pub source: SourceFile,
    pub dialect: Dialect,
    /// The patterns that passed the checker, in file order.
    pub checked: Vec<CheckedPattern>,
    /// The tables, present only when there was no error.
    pub database: Option<Database>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    pub fn is_ok(&self) -> bool {
        self.database.is_some()
    }
    pub fn error_count(&self) -> usize {
        diag::summary(&self.diagnostics).0
    }
    pub fn warning_count(&self) -> usize {
        diag::summary(&self.diagnostics).1
    }
    /// Every diagnostic rendered, sorted by position.
    pub fn render(&self) -> String {
        self.source.render_all(&self.diagnostics)
    }
}

/// Parses, checks and expands a database. `name` is the path shown in
/// diagnostics; `bytes` need not be UTF-8 (invalid bytes are reported).
pub fn compile(name: &str, bytes: &[u8], opts: &Options) -> Compiled {
    let (source, mut diagnostics) = SourceFile::from_bytes(name, bytes);
    let (ast, parse_diags) = parse::parse(&source.text, opts.dialect);
    diagnostics.extend(parse_diags);
    let check_opts = check::CheckOptions {
        lenient: opts.lenient,
        helpers: opts.helpers.as_ref(),
    };
    let (checked, check_diags) =
        check::check(&ast, &check_opts, &|pos| source.line_col(pos).0 as u32);
    diagnostics.extend(check_diags);
    let database = if diagnostics.iter().any(Diagnostic::is_error) {
        None
    } else {
        Some(expand::expand(ast.geometry, ast.dialect, &checked))
    };
    Compiled {
        source,
        dialect: ast.dialect,
        checked,
        database,
        diagnostics,
    }
}
