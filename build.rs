//! Compiles pattern databases into Rust tables in `OUT_DIR`.
//!
//! A thin shell around the mkpat library: read each database (and the
//! helpers module), compile, print located diagnostics, write the module
//! only when its text changed. A bad database fails the build with exit 1
//! and every diagnostic, never with a panic.
//!
//! The databases and their settings are the table in [`builds`]:
//! `patterns/patterns.db` always (strict, helpers checked against
//! `src/go/helpers.rs`), and with the `gnugo26` feature GNU Go 2.6's database
//! (test data kept outside the crate, read leniently, constraints compiled
//! to functions) for `katachi::go::gnugo26`; with the `gnugo38` feature two
//! of GNU Go 3.8's tables ([`GNUGO38`]: `patterns` from two files, and
//! `owl_attackpat`) for `katachi::go::gnugo38`, tables only.

use std::path::Path;
use std::process::exit;

const HELPERS: &str = "src/go/helpers.rs";
/// The engine module the generated tables name (its `helpers`,
/// `position::HelperFn` and `constraint`), as `mkpat compile` derives it
/// from the helpers file's place.
const ENGINE: &str = "crate::go";

/// One database the build compiles, with its own settings.
struct Build {
    /// The database, relative to the crate.
    input: String,
    /// The module written into `OUT_DIR`.
    output: &'static str,
    /// Read for geometry: wrong symmetry classes, unknown helpers and
    /// constraint diagrams that do not line up are warnings (mkpat's
    /// `--lenient`).
    lenient: bool,
    /// Check helper names against `src/go/helpers.rs` and emit the registry.
    helpers: bool,
    /// A missing file fails the build; otherwise it yields an empty module
    /// with `AVAILABLE = false`.
    required: bool,
    /// Print every warning (our own database) or only their count (a
    /// foreign one, whose warnings are known and listed by `mkpat check`).
    all_warnings: bool,
    /// Emit the `CONSTRAINTS` table (for the Go engine's constraint
    /// engine); off for a database no Go code reads.
    constraints: bool,
}

fn builds() -> Vec<Build> {
    let mut out = vec![Build {
        input: "patterns/patterns.db".into(),
        output: "patterns.rs",
        lenient: false,
        helpers: true,
        required: true,
        all_warnings: true,
        constraints: true,
    }];
    // The playout shapes of `go::shapes`: ours, strict, no helpers.
    out.push(Build {
        input: "patterns/playout.db".into(),
        output: "playout.rs",
        lenient: false,
        helpers: false,
        required: true,
        all_warnings: true,
        constraints: true,
    });
    // A hexagonal database (five in a row's line shapes), compiled into
    // static tables of the hexagon's type: `tests/hex_props.rs` matches it
    // against the same file compiled in memory.
    out.push(Build {
        input: "patterns/hexagon.db".into(),
        output: "hexagon.rs",
        lenient: false,
        helpers: false,
        required: true,
        all_warnings: true,
        constraints: false,
    });
    // katachi's five-in-a-row database (the `five` dialect): the tables of
    // `five::builtin`, the five-in-a-row engine's evaluation.
    out.push(Build {
        input: "patterns/five.db".into(),
        output: "five.rs",
        lenient: false,
        helpers: false,
        required: true,
        all_warnings: true,
        constraints: false,
    });
    if std::env::var_os("CARGO_FEATURE_GNUGO26").is_some() {
        // `KATACHI_GNUGO26_DB` names another file (to test the fallback).
        println!("cargo::rerun-if-env-changed=KATACHI_GNUGO26_DB");
        out.push(Build {
            input: std::env::var("KATACHI_GNUGO26_DB")
                .unwrap_or_else(|_| "../shared/conformance/gnugo-2.6/patterns.db".into()),
            output: "gnugo26.rs",
            lenient: true,
            helpers: false,
            required: false,
            all_warnings: false,
            constraints: true,
        });
    }
    out
}

fn main() {
    println!("cargo::rerun-if-changed=patterns");
    println!("cargo::rerun-if-changed={HELPERS}");
    let fail = |msg: String| -> ! {
        eprintln!("{msg}");
        println!("cargo::error={msg}");
        exit(1)
    };
    let helper_src = std::fs::read_to_string(HELPERS)
        .unwrap_or_else(|e| fail(format!("cannot read {HELPERS}: {e}")));
    let helpers = mkpat::HelperSet::from_source(&helper_src).unwrap_or_else(|e| {
        fail(format!(
            "{HELPERS}:{e}: the helpers module is not valid Rust"
        ))
    });
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for b in builds() {
        let out = Path::new(&out_dir).join(b.output);
        if let Err(msg) = build(&b, &helpers, &out) {
            fail(msg)
        }
    }
    if std::env::var_os("CARGO_FEATURE_GNUGO38").is_some() {
        for (files, output) in GNUGO38 {
            let out = Path::new(&out_dir).join(output);
            if let Err(msg) = build_gnugo38(files, &out) {
                fail(msg)
            }
        }
    }
}

/// GNU Go 3.8's tables compiled with the `gnugo38` feature (test data
/// outside the crate): the files of each table, in GNU Go's order, and the
/// module written.
const GNUGO38: [(&[&str], &str); 2] = [
    (&["patterns.db", "patterns2.db"], "gnugo38_patterns.rs"),
    (&["owl_attackpats.db"], "gnugo38_owl_attackpat.rs"),
];

/// One GNU Go 3.8 table: its files compiled into one (leniently, no
/// helpers, no constraint functions: the tables only), or an empty module
/// when the corpus is absent.
fn build_gnugo38(files: &[&str], out: &Path) -> Result<(), String> {
    let dir = "../shared/conformance/gnugo-3.8";
    let mut read = Vec::new();
    for f in files {
        let input = format!("{dir}/{f}");
        println!("cargo::rerun-if-changed={input}");
        match std::fs::read(&input) {
            Ok(bytes) => read.push((input, bytes)),
            Err(_) => {
                println!(
                    "cargo::warning={input} not found: its module is empty (AVAILABLE = false)"
                );
                return write_if_changed(out, EMPTY);
            }
        }
    }
    let refs: Vec<(&str, &[u8])> = read.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let opts = mkpat::Options {
        lenient: true,
        ..mkpat::Options::default()
    };
    let set = mkpat::compile_many(&refs, &opts);
    let Some(db) = set.database.as_ref() else {
        eprint!("{}", set.render());
        return Err(format!(
            "{}: {} error(s): the pattern database does not compile",
            files.join(" + "),
            set.error_count()
        ));
    };
    let checked: Vec<mkpat::CheckedPattern> =
        set.parts.iter().flat_map(|p| p.checked.clone()).collect();
    let input = files.join(" + ");
    let engine = mkpat::codegen::EnginePaths::of(ENGINE);
    let mut options = engine.options(&input, db.dialect.name(), None);
    options.constraints = None;
    let code = mkpat::codegen::generate(db, &checked, &options);
    write_if_changed(
        out,
        &format!(
            "{code}\n/// The database was found and compiled.\npub const AVAILABLE: bool = true;\n"
        ),
    )
}

fn build(b: &Build, helpers: &mkpat::HelperSet, out: &Path) -> Result<(), String> {
    let input = b.input.as_str();
    if !b.required {
        println!("cargo::rerun-if-changed={input}");
    }
    let bytes = match std::fs::read(input) {
        Ok(bytes) => bytes,
        Err(e) if b.required => return Err(format!("cannot read {input}: {e}")),
        Err(_) => {
            println!("cargo::warning={input} not found: its module is empty (AVAILABLE = false)");
            return write_if_changed(out, EMPTY);
        }
    };
    let opts = mkpat::Options {
        lenient: b.lenient,
        helpers: b.helpers.then(|| helpers.clone()),
        ..mkpat::Options::default()
    };
    let compiled = mkpat::compile(input, &bytes, &opts);
    if b.all_warnings || !compiled.is_ok() {
        eprint!("{}", compiled.render());
        for d in &compiled.diagnostics {
            let (line, col) = compiled.source.line_col(d.span.start);
            let kind = if d.is_error() { "error" } else { "warning" };
            println!("cargo::{kind}={input}:{line}:{col}: {}", d.message);
        }
    } else if compiled.warning_count() > 0 {
        println!(
            "cargo::warning={input}: {} warning(s), read leniently (`mkpat check --lenient {input}` lists them)",
            compiled.warning_count()
        );
    }
    let Some(db) = compiled.database.as_ref() else {
        return Err(format!(
            "{input}: {} error(s): the pattern database does not compile",
            compiled.error_count()
        ));
    };
    let engine = mkpat::codegen::EnginePaths::of(ENGINE);
    let mut options = engine.options(input, compiled.dialect.name(), b.helpers.then_some(helpers));
    if !b.constraints {
        options.constraints = None;
    }
    let code = mkpat::codegen::generate(db, &compiled.checked, &options);
    write_if_changed(
        out,
        &format!(
            "{code}\n/// The database was found and compiled.\npub const AVAILABLE: bool = true;\n"
        ),
    )
}

/// The module of an optional database that is absent.
const EMPTY: &str = "// @generated by build.rs: the database was not found.\n\
    use mkpat::tables::{Element, Pattern, Tables, Variant};\n\
    pub const AVAILABLE: bool = false;\n\
    pub static PATTERNS: [Pattern; 0] = [];\n\
    pub static VARIANTS: [Variant; 0] = [];\n\
    pub static ELEMENTS: [Element; 0] = [];\n\
    pub static TABLES: Tables<'static> = Tables::new(&PATTERNS, &VARIANTS, &ELEMENTS);\n\
    pub static CONSTRAINTS: [Option<crate::go::constraint::ConstraintFn>; 0] = [];\n";

/// Writing only on change keeps rustc from recompiling needlessly.
fn write_if_changed(out: &Path, code: &str) -> Result<(), String> {
    if std::fs::read_to_string(out).ok().as_deref() != Some(code) {
        std::fs::write(out, code).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(())
}
