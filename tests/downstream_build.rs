//! An engine outside katachi (`tests/downstream/`, an outsider's crate
//! depending on katachi and mkpat by their manifests) whose database is
//! broken: its build fails, cleanly, with every error located in its own
//! files, for cargo (`cargo::error` lines) and for a person (the line and
//! a caret).
//!
//! The crate is copied to a temporary folder with broken databases and
//! built with `cargo build`, sharing `target/downstream` with the
//! downstream crate's own build in tests/run.sh, so that only the copy
//! itself is compiled (katachi and mkpat are the same packages, by path).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the downstream crate (its manifest, lock file, build script,
/// sources and databases) into `to`, its path dependencies made absolute.
fn copy_crate(to: &Path) {
    let from = root().join("tests/downstream");
    for dir in ["src", "patterns"] {
        std::fs::create_dir_all(to.join(dir)).unwrap();
        for entry in std::fs::read_dir(from.join(dir)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), to.join(dir).join(entry.file_name())).unwrap();
        }
    }
    for file in ["build.rs", "Cargo.lock"] {
        std::fs::copy(from.join(file), to.join(file)).unwrap();
    }
    let manifest = std::fs::read_to_string(from.join("Cargo.toml")).unwrap();
    let root = root();
    let manifest = manifest
        .replace(
            "path = \"../../mkpat\"",
            &format!("path = {:?}", root.join("mkpat")),
        )
        .replace("path = \"../..\"", &format!("path = {root:?}"));
    assert!(!manifest.contains("../"), "{manifest}");
    std::fs::write(to.join("Cargo.toml"), manifest).unwrap();
}

/// `cargo build` in `dir`: its success and stderr.
fn cargo_build(dir: &Path) -> (bool, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .arg("build")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root().join("target/downstream"))
        .env_remove("CARGO_MAKEFLAGS")
        .output()
        .expect("cargo runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replaces `from` (which must be there) by `to` in a copied file.
fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_broken_database_fails_the_downstream_build_with_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    copy_crate(dir.path());
    // Three errors in one file (the `#`, then the five it no longer
    // makes, and a misspelt kind), one in the other: all are reported.
    let lines = dir.path().join("patterns/lines.db");
    edit(
        &lines,
        ":line,open-four,2000,1500",
        ":line,open-fuor,2000,1500",
    );
    edit(&lines, "OO*OO\n", "OO*O#\n");
    let shapes = dir.path().join("patterns/shapes.db");
    edit(&shapes, ",room_for_five", ",room_for_six");

    let (ok, stderr) = cargo_build(dir.path());
    assert!(!ok, "the build succeeded:\n{stderr}");
    // cargo's summary of each `cargo::error` line, naming the crate and
    // the file, line and column.
    for expected in [
        "error: lines@0.1.0: patterns/lines.db:16:5: unexpected character `#` in a diagram",
        "error: lines@0.1.0: patterns/lines.db:18:7: declared `five`, but the diagram does not make one",
        "error: lines@0.1.0: patterns/lines.db:23:7: unknown kind `open-fuor`",
        "error: lines@0.1.0: patterns/shapes.db:8:19: unknown helper `room_for_six`",
        "error: lines@0.1.0: patterns/lines.db: 3 error(s): the pattern database does not compile",
        "error: lines@0.1.0: patterns/shapes.db: 1 error(s): the pattern database does not compile",
    ] {
        assert!(stderr.contains(expected), "no {expected:?} in:\n{stderr}");
    }
    // The rendered diagnostics: the offending line under its number, a
    // caret, the helper cargo suggests.
    assert!(stderr.contains("16 | OO*O#"), "{stderr}");
    assert!(
        stderr.contains("23 | :line,open-fuor,2000,1500"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `room_for_five`"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Nothing of the crate was compiled past its build script.
    assert!(!stderr.contains("error[E"), "{stderr}");
}

#[test]
fn a_helpers_module_that_is_not_rust_fails_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    copy_crate(dir.path());
    let helpers = dir.path().join("src/helpers.rs");
    edit(&helpers, "pub fn room_for_five(", "pub fn room_for_five((");

    let (ok, stderr) = cargo_build(dir.path());
    assert!(!ok, "the build succeeded:\n{stderr}");
    assert!(
        stderr.contains("error: lines@0.1.0: src/helpers.rs:11:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("the helpers module is not valid Rust"),
        "{stderr}"
    );
    assert!(stderr.contains("11 | pub fn room_for_five(("), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `docs/tutorial.md` (the crate docs' `katachi::tutorial`) shows the
/// downstream crate's files as they are: each block after a
/// `<!-- tests/downstream/FILE -->` marker is that file, the manifest as
/// an outsider writes it (no `path` keys, nothing of katachi's repository).
#[test]
fn the_tutorial_shows_the_downstream_crate_as_it_is() {
    let tutorial = std::fs::read_to_string(root().join("docs/tutorial.md")).unwrap();
    let mut shown = Vec::new();
    let mut lines = tutorial.lines();
    while let Some(line) = lines.next() {
        let Some(file) = line
            .strip_prefix("<!-- ")
            .and_then(|l| l.strip_suffix(" -->"))
        else {
            continue;
        };
        assert!(lines.next().unwrap().starts_with("```"), "{file}");
        let block: String = lines
            .by_ref()
            .take_while(|l| *l != "```")
            .map(|l| format!("{l}\n"))
            .collect();
        shown.push((file.to_owned(), block));
    }
    let files: Vec<&str> = shown.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(
        files,
        [
            "tests/downstream/Cargo.toml",
            "tests/downstream/patterns/lines.db",
            "tests/downstream/patterns/shapes.db",
            "tests/downstream/build.rs",
            "tests/downstream/src/helpers.rs",
            "tests/downstream/src/lib.rs",
        ]
    );
    for (file, block) in shown {
        let mut text = std::fs::read_to_string(root().join(&file)).unwrap();
        if file.ends_with("Cargo.toml") {
            let end = text.find("# In katachi's repository only").unwrap();
            text = format!("{}\n", text[..end].trim_end());
            for path in ["path = \"../..\", ", "path = \"../../mkpat\", "] {
                assert!(text.contains(path), "{path}");
                text = text.replace(path, "");
            }
        }
        assert_eq!(block, text, "docs/tutorial.md's {file}");
    }
}

/// Tables generated for one layout of the table types and read through a
/// runtime of another do not compile: the copy's `lines` module reads its
/// tables through a stand-in for a later mkpat, whose `ABI` is 2.
#[test]
fn tables_read_by_a_runtime_of_another_layout_do_not_compile() {
    let dir = tempfile::tempdir().unwrap();
    copy_crate(dir.path());
    let lib = dir.path().join("src/lib.rs");
    let text = std::fs::read_to_string(&lib).unwrap();
    let from = "pub mod lines {\n    // The generated module names `mkpat::tables`: katachi's, re-exported.\n    use katachi::mkpat;\n";
    assert!(text.contains(from), "{text}");
    let later = "pub mod lines {\n    mod mkpat {\n        pub mod tables {\n            pub use katachi::mkpat::tables::*;\n            pub const ABI: u32 = 2;\n        }\n    }\n";
    std::fs::write(&lib, text.replacen(from, later, 1)).unwrap();

    let (ok, stderr) = cargo_build(dir.path());
    assert!(!ok, "the build succeeded:\n{stderr}");
    for part in [
        "these tables were generated by mkpat ",
        " for table layout 1, but the mkpat the crate links reads another",
    ] {
        assert!(stderr.contains(part), "{stderr}");
    }
    assert!(stderr.contains("lines.rs"), "{stderr}");
}
