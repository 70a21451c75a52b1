//! The layers of `src/` (see `ARCHITECTURE.md`): the core knows no game,
//! the engines know no front end, and an engine that links only the core
//! and its generated tables builds none of the compiler's crates.
//!
//! The import rules are read off the source text: every `crate::` path a
//! file names (in code, `use` lines and doc links alike) must lie in its
//! own layer or one below.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The modules of each layer, as `crate::` paths begin.
const ENGINES: &[&str] = &["go", "five"];
const FRONT_ENDS: &[&str] = &[
    "gtp",
    "gomocup",
    "sgf",
    "tuning",
    "tournament",
    "play",
    "contest",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `crate::NAME` a file mentions, with its line number.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(k) = rest.find("crate::") {
            let after = &rest[k + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push((n + 1, name));
            rest = after;
        }
    }
    out
}

/// The layer of a file of `src/`: 0 core, 1 engine, 2 front end.
fn layer_of(rel: &Path) -> Option<usize> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let stem = first.trim_end_matches(".rs");
    if stem == "bin" {
        None // the binaries sit on top of everything (and their `crate::` is their own)
    } else if ENGINES.contains(&stem) {
        Some(1)
    } else if FRONT_ENDS.contains(&stem) {
        Some(2)
    } else {
        Some(0)
    }
}

fn layer_of_module(name: &str) -> usize {
    if ENGINES.contains(&name) {
        1
    } else if FRONT_ENDS.contains(&name) {
        2
    } else {
        0
    }
}

#[test]
fn every_module_imports_only_from_its_layer_and_below() {
    let src = Path::new(ROOT).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 20, "src/ read: {files:?}");
    let names = ["the core", "an engine", "a front end"];
    let mut wrong = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let Some(layer) = layer_of(rel) else { continue };
        let text = std::fs::read_to_string(f).unwrap();
        for (line, name) in crate_paths(&text) {
            let target = layer_of_module(&name);
            if target > layer {
                wrong.push(format!(
                    "src/{}:{line}: {} names crate::{name}, {}",
                    rel.display(),
                    names[layer],
                    names[target]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layer_rule_sees_a_wrong_import() {
    // The checker itself: a core file naming the Go engine is caught.
    let paths = crate_paths("use crate::go::Game; // and [`crate::matcher`]");
    assert_eq!(paths, [(1, "go".to_string()), (1, "matcher".to_string())]);
    assert!(layer_of_module("go") > layer_of(Path::new("listing.rs")).unwrap());
    assert!(layer_of_module("sgf") > layer_of(Path::new("go/search.rs")).unwrap());
}

#[test]
fn the_core_and_engines_build_without_the_compiler_crates() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(ROOT)
        .args([
            "tree",
            "-p",
            "katachi",
            "--no-default-features",
            "-e",
            "normal,no-proc-macro",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let crates: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(crates.contains(&"mkpat"), "{tree}");
    for forbidden in ["syn", "quote", "prettyplease", "nom", "clap", "proc-macro2"] {
        assert!(!crates.contains(&forbidden), "{forbidden} in:\n{tree}");
    }
}
