//! mkpat: the compiler of ASCII pattern databases into matcher tables.
//!
//! katachi does in Rust what GNU Go's `mkpat` did in C. This crate is a pure
//! library — text in, tables or diagnostics out, no file or environment
//! access outside [`input`] and [`output`], the bounded reader and the
//! careful writer both binaries share — plus
//! the `mkpat` binary, a thin shell around it. The data flows one way:
//!
//! ```text
//! bytes ─parse─▶ ast::Database ─check─▶ CheckedPattern ─expand─▶ tables::Database ─codegen─▶ Rust
//! ```
//!
//! The table types ([`tables`]) and the transformations ([`transform`]) are
//! shared with the runtime matcher, which reads either the `static` tables
//! generated at build time or a [`tables::Database`] built by [`compile`]
//! at run time, through the same [`tables::Tables`] view.
//!
//! ```
//! let src = b"# pattern 1\n\nXO.\n.*.\n\n:8,50,0,0,0,0,-,0,NULL\n";
//! let out = mkpat::compile("demo.db", src, &mkpat::Options::default());
//! assert!(out.is_ok(), "{}", out.render());
//! let db = out.database.unwrap();
//! assert_eq!(db.patterns.len(), 1);
//! assert_eq!(db.variants.len(), 8);
//! ```

// The runtime half: what an engine reading tables needs.
pub mod ast;
pub mod constraint;
pub mod diag;
pub mod grid;
pub mod hits;
pub mod input;
pub mod output;
pub mod tables;
pub mod transform;

// The compiler (feature `compiler`).
#[cfg(feature = "compiler")]
pub mod check;
#[cfg(feature = "compiler")]
pub mod codegen;
#[cfg(feature = "compiler")]
pub mod expand;
#[cfg(feature = "compiler")]
pub mod helpers;
#[cfg(feature = "compiler")]
pub mod html;
#[cfg(feature = "compiler")]
pub mod json;
#[cfg(feature = "compiler")]
pub mod parse;
#[cfg(feature = "compiler")]
pub mod renum;
#[cfg(feature = "compiler")]
pub mod show;

pub use ast::Dialect;
#[cfg(feature = "compiler")]
pub use check::CheckedPattern;
pub use diag::{Diagnostic, Severity, SourceFile, Span};
#[cfg(feature = "compiler")]
pub use helpers::HelperSet;
pub use tables::{Database, Tables};

#[cfg(feature = "compiler")]
pub use compile::{compile, Compiled, Options};

#[cfg(feature = "compiler")]
mod compile {
    use super::*;

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
            Some(expand::expand(&checked))
        };
        Compiled {
            source,
            dialect: ast.dialect,
            checked,
            database,
            diagnostics,
        }
    }
}
