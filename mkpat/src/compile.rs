//! [`compile`]: parse, check and expand in one call, with every
//! diagnostic of the file; [`compile_many`]: several files to one table,
//! as GNU Go builds `patterns.db` and `patterns2.db` into one.

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

/// Several files compiled into one table: each file's own result (its
/// diagnostics, its checked patterns; no tables of its own) and the
/// tables of all of them together, present only when no file had an
/// error.
#[derive(Debug)]
pub struct CompiledSet {
    pub parts: Vec<Compiled>,
    pub database: Option<Database>,
}

impl CompiledSet {
    pub fn is_ok(&self) -> bool {
        self.database.is_some()
    }
    pub fn error_count(&self) -> usize {
        self.parts.iter().map(Compiled::error_count).sum()
    }
    pub fn warning_count(&self) -> usize {
        self.parts.iter().map(Compiled::warning_count).sum()
    }
    /// Every diagnostic of every file, file by file.
    pub fn render(&self) -> String {
        self.parts.iter().map(Compiled::render).collect()
    }
}

/// Compiles `files` (name, bytes) into one table: each is parsed and
/// checked on its own (a file's directives and dialect are its own), then
/// their patterns are expanded together in file order, as if the files
/// were one. The files must agree on dialect and geometry (the first
/// file's, or `opts.dialect`); a pattern name used in two files is an
/// error at its second use.
pub fn compile_many(files: &[(&str, &[u8])], opts: &Options) -> CompiledSet {
    let mut parts = Vec::new();
    let mut first: Option<(crate::Dialect, crate::geometry::Geometry, String)> = None;
    let mut names: std::collections::HashMap<String, String> = Default::default();
    let mut geometry = crate::geometry::Geometry::Square;
    for &(name, bytes) in files {
        let (source, mut diagnostics) = SourceFile::from_bytes(name, bytes);
        let force = opts.dialect.or(first.as_ref().map(|f| f.0));
        let (ast, parse_diags) = parse::parse(&source.text, force);
        diagnostics.extend(parse_diags);
        let check_opts = check::CheckOptions {
            lenient: opts.lenient,
            helpers: opts.helpers.as_ref(),
        };
        let (checked, check_diags) =
            check::check(&ast, &check_opts, &|pos| source.line_col(pos).0 as u32);
        diagnostics.extend(check_diags);
        match &first {
            None => {
                first = Some((ast.dialect, ast.geometry, name.to_string()));
                geometry = ast.geometry;
            }
            Some((_, g, first_name)) if *g != ast.geometry => diagnostics.push(
                Diagnostic::error(
                    crate::Span::at(0),
                    format!(
                        "a {} database cannot join {first_name}, a {} one",
                        ast.geometry.name(),
                        g.name()
                    ),
                )
                .note("the files of one table share their geometry"),
            ),
            Some(_) => {}
        }
        for p in &checked {
            match names.get(&p.name) {
                Some(other) if other != name => diagnostics.push(
                    Diagnostic::error(
                        p.name_span,
                        format!("pattern name `{}` is used in {other} already", p.name),
                    )
                    .note("the files of one table share one namespace"),
                ),
                _ => {
                    names.insert(p.name.clone(), name.to_string());
                }
            }
        }
        parts.push(Compiled {
            source,
            dialect: ast.dialect,
            checked,
            database: None,
            diagnostics,
        });
    }
    let ok = parts
        .iter()
        .all(|p| !p.diagnostics.iter().any(Diagnostic::is_error));
    let database = match (&first, ok) {
        (Some((dialect, _, _)), true) => {
            let all: Vec<CheckedPattern> = parts.iter().flat_map(|p| p.checked.clone()).collect();
            Some(expand::expand(geometry, *dialect, &all))
        }
        _ => None,
    };
    CompiledSet { parts, database }
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
