//! Compiles the engine's two databases into `OUT_DIR`: `lines.rs` from
//! the five-in-a-row one, `shapes.rs` from the one whose patterns name a
//! helper of `src/helpers.rs`.

use mkpat::build::{Builder, Database};

fn main() {
    Builder::new()
        .helpers_file("src/helpers.rs")
        .helpers_module("crate::helpers")
        .helper_fn_type("crate::HelperFn")
        .database(Database::new("patterns/lines.db"))
        .database(Database::new("patterns/shapes.db").helpers(true))
        .run();
}
