//! The JSON export and the HTML catalogue: round trips, a snapshot, and the
//! `mkpat json` / `mkpat html` commands.
//!
//! The browser-side behaviour of the catalogue is tested in the katachi
//! package (`tests/site_browser.rs`), in headless Chromium.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::Command;

use mkpat::hits::{HitCount, Hits};
use mkpat::json::{self, JsonDatabase, SCHEMA_VERSION};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn workspace(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

fn compile(path: &Path, lenient: bool) -> mkpat::Compiled {
    let bytes = std::fs::read(path).expect("read the database");
    let opts = mkpat::Options {
        lenient,
        ..Default::default()
    };
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let c = mkpat::compile(&name, &bytes, &opts);
    assert!(c.is_ok(), "{}", c.render());
    c
}

/// JSON text → schema values → JSON text is the identity, and the tables
/// rebuilt from the JSON are the compiled tables.
fn assert_round_trips(c: &mkpat::Compiled) {
    let j = json::export_compiled(c).expect("compiled");
    assert_eq!(j.schema_version, SCHEMA_VERSION);
    let text = j.to_json();
    let back = JsonDatabase::from_json(&text).expect("reads back");
    assert_eq!(back, j, "{}", c.source.name);
    assert_eq!(back.to_json(), text);
    let db = c.database.as_ref().unwrap();
    let rebuilt = back.to_database().expect("rebuilds");
    assert_eq!(rebuilt.geometry, db.geometry, "{}", c.source.name);
    assert_eq!(rebuilt.patterns, db.patterns, "{}", c.source.name);
    assert_eq!(rebuilt.variants, db.variants, "{}", c.source.name);
    assert_eq!(rebuilt.elements, db.elements, "{}", c.source.name);
    for (p, jp) in db.patterns.iter().zip(&j.patterns) {
        assert!(!jp.diagram.is_empty(), "pattern {} has its diagram", p.name);
        assert_eq!(jp.transformations.len(), p.variants.len as usize);
        for t in &jp.transformations {
            assert_eq!(t.elements.len(), p.elements.len as usize);
            assert_eq!(t.and_rows.len(), 4);
        }
    }
}

#[test]
fn every_small_database_round_trips() {
    let mut n = 0;
    for entry in std::fs::read_dir(data("ok")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "db") {
            assert_round_trips(&compile(&path, false));
            n += 1;
        }
    }
    assert!(n >= 10, "found the ok/ databases");
}

#[test]
fn the_projects_database_round_trips() {
    let c = compile(&workspace("patterns/patterns.db"), false);
    assert_eq!(c.database.as_ref().unwrap().patterns.len(), 143);
    assert_round_trips(&c);
}

#[test]
fn a_hexagonal_database_round_trips() {
    let c = compile(&workspace("patterns/hexagon.db"), false);
    let db = c.database.as_ref().unwrap();
    assert_eq!(db.geometry, mkpat::geometry::Geometry::Hexagon);
    assert_round_trips(&c);
    let j = json::export_compiled(&c).unwrap();
    assert_eq!(j.geometry, "hexagon");
    assert!(j.patterns[0].extent.min_s.is_some());
    assert_eq!(j.patterns[0].transformations[1].name, "turn 60° clockwise");
}

#[test]
fn gnugo26_round_trips_with_constraint_labels() {
    let path = workspace("../shared/conformance/gnugo-2.6/patterns.db");
    if !path.is_file() {
        eprintln!(
            "SKIPPED: {} is absent (it comes with ../shared, present in CI)",
            path.display()
        );
        return;
    }
    let c = compile(&path, true);
    assert_round_trips(&c);
    let j = json::export_compiled(&c).unwrap();
    assert_eq!(j.patterns.len(), 1153);
    let eb1 = j.patterns.iter().find(|p| p.name == "EB1").unwrap();
    let k = eb1.constraint.as_ref().expect("EB1 has a constraint");
    assert_eq!(k.text, "lib(a)>2");
    assert_eq!(k.labels.len(), 1);
    assert_eq!(k.labels[0].name, 'a');
}

#[test]
fn snapshot_of_a_small_database() {
    let c = compile(&data("ok/gnugo26.db"), false);
    let j = json::export_compiled(&c).unwrap();
    insta::assert_snapshot!("gnugo26_db_json", j.to_json());
}

#[test]
fn a_wrong_schema_version_is_refused() {
    let c = compile(&data("ok/edges.db"), false);
    let mut j = json::export_compiled(&c).unwrap();
    j.schema_version = SCHEMA_VERSION + 1;
    let err = JsonDatabase::from_json(&j.to_json()).unwrap_err();
    assert!(err.contains("schema version"), "{err}");
}

fn mkpat(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mkpat"))
        .args(args)
        .output()
        .expect("the mkpat binary runs")
}

#[test]
fn mkpat_json_writes_the_export() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("edges.json");
    let db = data("ok/edges.db");
    let o = mkpat(&[
        "json",
        "--no-helpers",
        db.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j = JsonDatabase::from_json(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(j.patterns.len(), 4);
    assert_eq!(j.patterns[0].diagram[1], "?Oo|");
    // Standard output without -o.
    let o = mkpat(&["json", "--no-helpers", db.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8(o.stdout).unwrap(), j.to_json());
}

#[test]
fn mkpat_html_writes_a_self_contained_site_with_hits() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let hits = dir.path().join("hits.tsv");
    let h = Hits {
        positions: Some(7),
        counts: vec![
            (
                "4".into(),
                HitCount {
                    matches: 9,
                    positions: 3,
                },
            ),
            (
                "nonesuch".into(),
                HitCount {
                    matches: 1,
                    positions: 1,
                },
            ),
        ],
    };
    std::fs::write(&hits, h.to_tsv()).unwrap();
    let db = data("ok/edges.db");
    let o = mkpat(&[
        "html",
        "--no-helpers",
        db.to_str().unwrap(),
        "-o",
        site.to_str().unwrap(),
        "--hits",
        hits.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("1 pattern name(s) not in") && err.contains("nonesuch"),
        "{err}"
    );
    for f in ["index.html", "style.css", "app.js", "data.js"] {
        let text = std::fs::read_to_string(site.join(f)).unwrap();
        assert!(!text.contains("fetch("), "{f} fetches");
        assert!(!text.contains("https://"), "{f} names the network");
    }
    let data_js = std::fs::read_to_string(site.join("data.js")).unwrap();
    assert!(data_js.contains(r#""hits":{"positions":7}"#), "{data_js}");
    assert!(data_js.contains(r#""hits":[9,3]"#));
    assert!(
        data_js.contains(r#""hits":[0,0]"#),
        "unmatched patterns count 0"
    );

    // The site can also be made from an exported JSON file.
    let json = dir.path().join("edges.json");
    let o = mkpat(&[
        "json",
        "--no-helpers",
        db.to_str().unwrap(),
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let site2 = dir.path().join("site2");
    let o = mkpat(&[
        "html",
        json.to_str().unwrap(),
        "-o",
        site2.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let site3 = dir.path().join("site3");
    let o = mkpat(&[
        "html",
        "--no-helpers",
        db.to_str().unwrap(),
        "-o",
        site3.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let read = |d: &Path| std::fs::read_to_string(d.join("data.js")).unwrap();
    assert_eq!(read(&site2), read(&site3));
}
