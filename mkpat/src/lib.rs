//! mkpat: the compiler of ASCII pattern databases into matcher tables.
//!
//! katachi does in Rust what GNU Go's `mkpat` did in C. This crate is a pure
//! library — text in, tables or diagnostics out, no file or environment
//! access outside [`input`] and [`output`], the bounded reader and the
//! careful writer both binaries share, and `build`, the build-script API
//! that engines' `build.rs` call (feature `compiler`) — plus
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
//! Features: `compiler` (default) is everything from text to tables and
//! code (nom, syn, quote, prettyplease, serde); `cli` (default) adds the
//! `mkpat` binary (clap). Without them the crate is the runtime half an
//! engine links — [`tables`], [`transform`], [`grid`], the constraint
//! language's trees ([`constraint`]), [`ast`], [`diag`], [`input`],
//! [`output`], [`hits`] — and none of those crates is built.
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
pub mod constraint38;
pub mod diag;
pub mod dialect;
pub mod geometry;
pub mod grid;
pub mod hits;
pub mod input;
pub mod output;
pub mod overlay;
pub mod tables;
pub mod transform;

// The compiler (feature `compiler`).
#[cfg(feature = "compiler")]
pub mod build;
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
pub mod personality;
#[cfg(feature = "compiler")]
pub mod renum;
#[cfg(feature = "compiler")]
pub mod show;

#[cfg(feature = "compiler")]
pub use check::CheckedPattern;
pub use diag::{Diagnostic, Severity, SourceFile, Span};
pub use dialect::Dialect;
#[cfg(feature = "compiler")]
pub use helpers::HelperSet;
pub use tables::{Database, Tables};

#[cfg(feature = "compiler")]
pub use compile::{compile, compile_many, Compiled, CompiledSet, Options};

#[cfg(feature = "compiler")]
mod compile;
