//! The fuzz targets' bodies (`tests/fuzz/bodies.rs`) as ordinary tests, on
//! stable Rust: each runs over its seed corpus (the project's test data,
//! the seeds under `tests/fuzz/seeds/`, GNU Go 2.6's database and
//! positions and GNU Go 3.8's `conn.db` when `../shared` is present) and over every input a fuzzing run found
//! (`tests/fuzz/regressions/<target>/`). A crash a fuzzer finds is added
//! there and stays a test forever. `tests/fuzz/README.md` says how to run
//! the coverage-guided fuzzers themselves.
#![cfg(feature = "compiler")]

#[path = "fuzz/bodies.rs"]
mod bodies;

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `dir` (relative to the package root) with one of `exts`
/// (any when empty), sorted; none when the folder is absent.
fn files(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| exts.is_empty() || p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)))
        .collect();
    out.sort();
    out
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Splits `text` before each line starting with `marker`, in groups of
/// `per` pieces: big files become inputs of the size a fuzzer works with.
fn chunks(text: &[u8], marker: &str, per: usize) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(text);
    let mut pieces: Vec<String> = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.starts_with(marker) && !pieces.last().is_some_and(String::is_empty) {
            pieces.push(String::new());
        }
        pieces.last_mut().expect("one piece").push_str(line);
    }
    pieces
        .chunks(per)
        .map(|c| c.concat().into_bytes())
        .collect()
}

/// Runs `body` over every input, naming the input that fails.
fn run(target: &str, inputs: Vec<(String, Vec<u8>)>, body: fn(&[u8])) -> usize {
    let mut all = inputs;
    for p in files(&format!("tests/fuzz/regressions/{target}"), &[]) {
        all.push((p.display().to_string(), read(&p)));
    }
    for (name, data) in &all {
        if std::panic::catch_unwind(|| body(data)).is_err() {
            panic!("fuzz target `{target}` fails on {name}");
        }
    }
    all.len()
}

fn named(paths: Vec<PathBuf>) -> Vec<(String, Vec<u8>)> {
    paths
        .into_iter()
        .map(|p| (p.display().to_string(), read(&p)))
        .collect()
}

const GNUGO26: &str = "../shared/conformance/gnugo-2.6";

#[test]
fn database_target_over_its_seeds() {
    let mut inputs = named(
        [
            files("patterns", &["db"]),
            files("mkpat/tests/data/ok", &["db"]),
            files("mkpat/tests/data/err", &["db"]),
        ]
        .concat(),
    );
    let gnugo = root().join(GNUGO26).join("patterns.db");
    if gnugo.exists() {
        for (k, c) in chunks(&read(&gnugo), "Pattern ", 40)
            .into_iter()
            .enumerate()
        {
            inputs.push((format!("{} part {k}", gnugo.display()), c));
        }
    }
    // GNU Go 3.8's connection database, whose patterns mostly have no
    // `*` and no value functions: its parts compile on their own.
    let conn = root().join("../shared/conformance/gnugo-3.8/conn.db");
    if conn.exists() {
        for (k, c) in chunks(&read(&conn), "Pattern ", 10).into_iter().enumerate() {
            inputs.push((format!("{} part {k}", conn.display()), c));
        }
    }
    assert!(run("database", inputs, bodies::database) >= 20);
}

#[test]
fn constraint_target_over_its_seeds() {
    let mut inputs = named(files("tests/fuzz/seeds/constraint", &[]));
    let gnugo = root().join(GNUGO26).join("patterns.db");
    if gnugo.exists() {
        let text = String::from_utf8_lossy(&read(&gnugo)).into_owned();
        for (k, line) in text.lines().filter(|l| l.starts_with(';')).enumerate() {
            inputs.push((
                format!("GNU Go 2.6 constraint {k}"),
                line.as_bytes()[1..].to_vec(),
            ));
        }
    }
    assert!(run("constraint", inputs, bodies::constraint) >= 5);
}

#[test]
fn positions_target_over_its_seeds() {
    let mut inputs = named(files("tests/data/positions", &[]));
    for name in ["positions_real.txt", "positions_random.txt"] {
        let p = root().join(GNUGO26).join(name);
        if p.exists() {
            // Ten positions an input (plus a prefix cut mid-position).
            for (k, c) in chunks(&read(&p), "to_move", 10)
                .into_iter()
                .take(6)
                .enumerate()
            {
                inputs.push((format!("{} part {k}", p.display()), c.clone()));
                inputs.push((
                    format!("{} part {k} cut", p.display()),
                    c[..c.len() / 3].to_vec(),
                ));
            }
        }
    }
    assert!(run("positions", inputs, bodies::positions) >= 1);
}

#[test]
fn sgf_target_over_its_seeds() {
    let inputs = named(files("tests/data/sgf", &["sgf"]));
    assert!(run("sgf", inputs, bodies::sgf) >= 4);
}

#[test]
fn gtp_target_over_its_seeds() {
    let inputs = named(files("tests/fuzz/seeds/gtp", &[]));
    assert!(run("gtp", inputs, bodies::gtp) >= 3);
}

#[test]
fn openings_target_over_its_seeds() {
    let inputs = named(files("tests/fuzz/seeds/openings", &[]));
    assert!(run("openings", inputs, bodies::openings) >= 3);
}

#[test]
fn five_records_target_over_its_seeds() {
    let inputs = named(files("tests/fuzz/seeds/five_records", &[]));
    assert!(run("five_records", inputs, bodies::five_records) >= 3);
}

#[test]
fn gomocup_target_over_its_seeds() {
    let inputs = named(files("tests/fuzz/seeds/gomocup", &[]));
    assert!(run("gomocup", inputs, bodies::gomocup) >= 3);
}

#[test]
fn contest_target_over_its_seeds() {
    let inputs = named(files("tests/fuzz/seeds/contest", &[]));
    assert!(run("contest", inputs, bodies::contest) >= 9);
}
