//! mkpat's build-script API ([`mkpat::build`]) outside cargo: databases
//! in a temporary folder, the cargo directives and the terminal captured.
#![cfg(feature = "compiler")]

use std::path::Path;

use mkpat::build::{Builder, Database, Problem, Warnings};

const FIVE: &str = "dialect: five\n\nPattern five\n*OOOO\n\n:line,five,100,90\n";
const SEED: &str = "# pattern 1\n\nOO*\n\n:-,40,0,0,0,0,-,0,room\n";
const HELPERS: &str = "pub fn room(ctx: &HelperContext<'_>) -> i32 { 0 }\n";

/// A builder's run: the directives, the terminal text and the result.
struct Outcome {
    cargo: Vec<String>,
    terminal: String,
    result: Result<Vec<mkpat::build::Module>, mkpat::build::Error>,
}

fn run(builder: &Builder) -> Outcome {
    let (mut cargo, mut terminal) = (Vec::new(), Vec::new());
    let result = builder.compile_with(&mut cargo, &mut terminal);
    Outcome {
        cargo: String::from_utf8(cargo)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect(),
        terminal: String::from_utf8(terminal).unwrap(),
        result,
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn modules_are_what_mkpat_compile_prints_and_a_trailer() {
    let dir = tempfile::tempdir().unwrap();
    let five = write(dir.path(), "five.db", FIVE);
    let out = run(&Builder::new()
        .out_dir(dir.path())
        .database(Database::new(&five)));
    let modules = out.result.unwrap();
    assert_eq!(modules.len(), 1);
    assert_eq!(modules[0].path, dir.path().join("five.rs"));
    assert!(modules[0].changed && modules[0].available);

    let c = mkpat::compile(&five, FIVE.as_bytes(), &mkpat::Options::default());
    let paths = mkpat::codegen::EnginePaths::of("crate");
    let mut options = paths.options(&five, "five", None);
    options.constraints = None;
    let code = mkpat::codegen::generate(c.database.as_ref().unwrap(), &c.checked, &options);
    let written = std::fs::read_to_string(dir.path().join("five.rs")).unwrap();
    assert_eq!(written, format!("{code}{}", mkpat::build::trailer(true)));
    assert!(written.contains(&format!("mkpat::tables::ABI == {}", mkpat::tables::ABI)));
    assert!(!written.contains("HELPERS") && !written.contains("CONSTRAINTS"));
}

#[test]
fn a_module_is_written_only_when_its_text_changes() {
    let dir = tempfile::tempdir().unwrap();
    let five = write(dir.path(), "five.db", FIVE);
    let builder = Builder::new()
        .out_dir(dir.path())
        .database(Database::new(&five).output("tables.rs"));
    assert!(run(&builder).result.unwrap()[0].changed);
    let module = dir.path().join("tables.rs");
    let first = std::fs::read_to_string(&module).unwrap();
    let stamp = std::fs::metadata(&module).unwrap().modified().unwrap();
    assert!(!run(&builder).result.unwrap()[0].changed);
    assert_eq!(
        std::fs::metadata(&module).unwrap().modified().unwrap(),
        stamp
    );
    write(dir.path(), "five.db", &FIVE.replace("100,90", "101,90"));
    assert!(run(&builder).result.unwrap()[0].changed);
    let second = std::fs::read_to_string(&module).unwrap();
    assert_ne!(first, second);
    assert!(second.contains("mine: 101"), "{second}");
}

#[test]
fn reruns_on_exactly_the_files_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let five = write(dir.path(), "five.db", FIVE);
    let seed = write(dir.path(), "seed.db", SEED);
    let helpers = write(dir.path(), "helpers.rs", HELPERS);
    // No database asks for helpers: the helpers file is not read.
    let without = Builder::new()
        .out_dir(dir.path())
        .helpers_file(&helpers)
        .database(Database::new(&five));
    assert_eq!(
        run(&without).cargo,
        [format!("cargo::rerun-if-changed={five}")]
    );
    let with = without.database(Database::new(&seed).helpers(true));
    let out = run(&with);
    assert_eq!(
        out.cargo,
        [
            format!("cargo::rerun-if-changed={helpers}"),
            format!("cargo::rerun-if-changed={five}"),
            format!("cargo::rerun-if-changed={seed}"),
        ]
    );
    out.result.unwrap();
    let module = std::fs::read_to_string(dir.path().join("seed.rs")).unwrap();
    assert!(
        module.contains("(\"room\", crate::helpers::room as crate::position::HelperFn)"),
        "{module}"
    );
}

#[test]
fn every_error_of_every_database_is_located_and_the_build_fails() {
    let dir = tempfile::tempdir().unwrap();
    let bad_five = write(
        dir.path(),
        "five.db",
        &FIVE
            .replace("line,five", "line,fiv")
            .replace("*OOOO", "*OOO#"),
    );
    let good = write(dir.path(), "good.db", FIVE);
    let bad_seed = write(dir.path(), "seed.db", SEED);
    let helpers = write(
        dir.path(),
        "helpers.rs",
        HELPERS.replace("room", "space").as_str(),
    );
    let out = run(&Builder::new()
        .out_dir(dir.path())
        .helpers_file(&helpers)
        .database(Database::new(&bad_five))
        .database(Database::new(&good))
        .database(Database::new(&bad_seed).helpers(true)));
    let errors: Vec<&String> = out
        .cargo
        .iter()
        .filter(|l| l.starts_with("cargo::error="))
        .collect();
    assert_eq!(
        errors,
        [
            &format!("cargo::error={bad_five}:4:5: unexpected character `#` in a diagram"),
            &format!("cargo::error={bad_five}:6:7: unknown kind `fiv`"),
            &format!("cargo::error={bad_five}: 2 error(s): the pattern database does not compile"),
            &format!("cargo::error={bad_seed}:5:19: unknown helper `room`"),
            &format!("cargo::error={bad_seed}: 1 error(s): the pattern database does not compile"),
        ]
    );
    // The terminal shows each error's line with a caret.
    assert!(out.terminal.contains("4 | *OOO#\n"), "{}", out.terminal);
    assert!(
        out.terminal.contains("6 | :line,fiv,100,90\n"),
        "{}",
        out.terminal
    );
    let err = out.result.unwrap_err();
    assert_eq!(
        err.problems,
        [
            Problem::Database {
                input: bad_five.clone(),
                errors: 2
            },
            Problem::Database {
                input: bad_seed.clone(),
                errors: 1
            },
        ]
    );
    // The good database between them was still written; the bad ones not.
    assert!(dir.path().join("good.rs").exists());
    assert!(!dir.path().join("five.rs").exists());
    assert!(!dir.path().join("seed.rs").exists());
}

#[test]
fn warnings_are_each_located_or_counted() {
    let dir = tempfile::tempdir().unwrap();
    // Class `8` where `-` fits: a warning, not an error.
    let seed = write(
        dir.path(),
        "seed.db",
        &SEED.replace(":-,", ":8,").replace("room", "NULL"),
    );
    let each = run(&Builder::new()
        .out_dir(dir.path())
        .database(Database::new(&seed)));
    let warnings: Vec<&String> = each
        .cargo
        .iter()
        .filter(|l| l.starts_with("cargo::warning="))
        .collect();
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].starts_with(&format!("cargo::warning={seed}:5:2: ")),
        "{warnings:?}"
    );
    each.result.unwrap();
    let counted = run(&Builder::new()
        .out_dir(dir.path())
        .database(Database::new(&seed).warnings(Warnings::Count)));
    assert_eq!(
        counted.cargo[1],
        format!("cargo::warning={seed}: 1 warning(s), read leniently (`mkpat check --lenient {seed}` lists them)")
    );
    assert!(counted.terminal.is_empty());
}

#[test]
fn an_absent_optional_database_gives_an_empty_module() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("absent.db").to_str().unwrap().to_owned();
    let out = run(&Builder::new()
        .engine("crate::go")
        .out_dir(dir.path())
        .database(Database::new(&missing).constraints(true).optional(true)));
    let modules = out.result.unwrap();
    assert!(!modules[0].available);
    assert_eq!(
        out.cargo[1],
        format!("cargo::warning={missing} not found: its module is empty (AVAILABLE = false)")
    );
    let module = std::fs::read_to_string(dir.path().join("absent.rs")).unwrap();
    assert!(module.contains("pub const AVAILABLE: bool = false;"));
    assert!(module.contains("[Option<crate::go::constraint::ConstraintFn>; 0]"));
    assert!(module.contains("mkpat::tables::ABI == "));
    // A required one is an error.
    let out = run(&Builder::new()
        .out_dir(dir.path())
        .database(Database::new(&missing)));
    let problems = out.result.unwrap_err().problems;
    assert!(
        matches!(&problems[..], [Problem::Read(m)] if m.starts_with(&format!("{missing}: cannot read the file: "))),
        "{problems:?}"
    );
}

#[test]
fn settings_that_cannot_work_are_refused_before_any_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&Builder::new()
        .out_dir(dir.path())
        .database(Database::new("a/x.db"))
        .database(Database::new("b/x.db"))
        .database(Database::new("c.db").output("../c.rs"))
        .database(Database::new("d.db").helpers(true)));
    assert_eq!(
        out.cargo,
        [
            "cargo::error=b/x.db: output `x.rs` is already another database's module",
            "cargo::error=c.db: output `../c.rs` must be a file name ending in `.rs` (it is written into OUT_DIR)",
            "cargo::error=d.db: helpers(true) needs the helpers module's source: Builder::helpers_file",
        ]
    );
    assert_eq!(out.result.unwrap_err().problems.len(), 3);
}

#[test]
fn a_helpers_module_that_is_not_rust_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let seed = write(dir.path(), "seed.db", SEED);
    let helpers = write(
        dir.path(),
        "helpers.rs",
        "// helpers\npub fn room(ctx: &HelperContext<'_>) -> i32 { 0 \n",
    );
    let out = run(&Builder::new()
        .out_dir(dir.path())
        .helpers_file(&helpers)
        .database(Database::new(&seed).helpers(true)));
    let last = out.cargo.last().unwrap();
    assert!(
        last.starts_with(&format!("cargo::error={helpers}:2:")),
        "{last}"
    );
    assert!(
        last.ends_with("the helpers module is not valid Rust"),
        "{last}"
    );
    assert!(out.terminal.contains("2 | pub fn room"), "{}", out.terminal);
    // No database is compiled without its helpers.
    assert!(!out.cargo.iter().any(|l| l.contains("seed.db")));
}
