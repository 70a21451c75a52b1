//! Compiles katachi's pattern databases into Rust tables in `OUT_DIR`,
//! through mkpat's build-script API ([`mkpat::build`]), as any engine's
//! `build.rs` would: one entry per database, the API reading, reporting
//! (located `cargo::error`/`cargo::warning` lines, exit 1 on errors) and
//! writing each module only when its text changed.
//!
//! - `patterns/patterns.db`: Go's moves, strict, helpers checked against
//!   `src/go/helpers.rs` and registered, constraints (none today) for the
//!   Go engine's constraint engine;
//! - `patterns/playout.db`: the playouts' 3x3 shapes (`go::shapes`);
//! - `patterns/hexagon.db`: a hexagonal database, compiled into static
//!   tables of the hexagon's type (`tests/hex_props.rs` matches it against
//!   the same file compiled in memory);
//! - `patterns/five.db`: five in a row's database (`five::builtin`);
//! - `patterns/hexfive.db`: its database for the hexagonal contest's
//!   board (`five::builtin_hexagon`);
//! - with the `gnugo26` feature, GNU Go 2.6's database (test data kept
//!   outside the crate, read leniently, constraints compiled to
//!   functions, optional) for `katachi::go::gnugo26`.

use mkpat::build::{Builder, Database, Warnings};

fn main() {
    // Go's modules name `crate::go::helpers`, `crate::go::position::HelperFn`
    // and `crate::go::constraint`, as `mkpat compile` derives them from the
    // helpers file's place; the five-in-a-row and hexagonal modules name
    // none of them.
    let mut builder = Builder::new()
        .engine("crate::go")
        .helpers_file("src/go/helpers.rs")
        .database(
            Database::new("patterns/patterns.db")
                .helpers(true)
                .constraints(true),
        )
        .database(Database::new("patterns/playout.db").constraints(true))
        .database(Database::new("patterns/hexagon.db"))
        .database(Database::new("patterns/five.db"))
        .database(Database::new("patterns/hexfive.db"));
    if std::env::var_os("CARGO_FEATURE_GNUGO26").is_some() {
        // `KATACHI_GNUGO26_DB` names another file (to test the fallback).
        println!("cargo::rerun-if-env-changed=KATACHI_GNUGO26_DB");
        let input = std::env::var("KATACHI_GNUGO26_DB")
            .unwrap_or_else(|_| "../shared/conformance/gnugo-2.6/patterns.db".into());
        builder = builder.database(
            Database::new(input)
                .output("gnugo26.rs")
                .lenient(true)
                .constraints(true)
                .optional(true)
                .warnings(Warnings::Count),
        );
    }
    builder.run();
}
