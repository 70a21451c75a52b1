//! Compiles `patterns/patterns.db` into Rust tables in `OUT_DIR`.
//!
//! A thin shell around the mkpat library: read the database and the
//! helpers module, compile, print located diagnostics, write the module
//! only when its text changed. A bad database fails the build with exit 1
//! and every diagnostic, never with a panic.

use std::path::Path;
use std::process::exit;

const DATABASE: &str = "patterns/patterns.db";
const HELPERS: &str = "src/helpers.rs";

fn main() {
    println!("cargo::rerun-if-changed=patterns");
    println!("cargo::rerun-if-changed={HELPERS}");
    let fail = |msg: String| -> ! {
        eprintln!("{msg}");
        println!("cargo::error={msg}");
        exit(1)
    };
    let bytes = std::fs::read(DATABASE).unwrap_or_else(|e| fail(format!("cannot read {DATABASE}: {e}")));
    let helper_src = std::fs::read_to_string(HELPERS).unwrap_or_else(|e| fail(format!("cannot read {HELPERS}: {e}")));
    let helpers = mkpat::HelperSet::from_source(&helper_src)
        .unwrap_or_else(|e| fail(format!("{HELPERS}:{e}: the helpers module is not valid Rust")));
    let opts = mkpat::Options {
        helpers: Some(helpers.clone()),
        ..mkpat::Options::default()
    };
    let compiled = mkpat::compile(DATABASE, &bytes, &opts);
    if !compiled.diagnostics.is_empty() {
        eprint!("{}", compiled.render());
        for d in &compiled.diagnostics {
            let (line, col) = compiled.source.line_col(d.span.start);
            let kind = if d.is_error() { "error" } else { "warning" };
            println!("cargo::{kind}={DATABASE}:{line}:{col}: {}", d.message);
        }
    }
    let Some(db) = compiled.database.as_ref() else {
        eprintln!("{DATABASE}: {} error(s): the pattern database does not compile", compiled.error_count());
        exit(1)
    };
    let code = mkpat::codegen::generate(
        db,
        &compiled.checked,
        &mkpat::codegen::CodegenOptions {
            input: DATABASE,
            dialect: compiled.dialect.name(),
            helpers: Some((&helpers, "crate::helpers")),
            helper_fn_type: "crate::position::HelperFn",
        },
    );
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("patterns.rs");
    // Writing only on change keeps rustc from recompiling needlessly.
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    }
}
