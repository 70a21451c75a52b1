//! Conformance with GNU Go 3.8's own matcher, on all fourteen tables.
//!
//! `../shared/conformance/gnugo-3.8/` holds GNU Go 3.8's databases and,
//! for the 2.6 corpus's 200 real and 200 random positions, every
//! geometric match GNU Go 3.8 finds (`expected_<table>_<which>.txt`).
//! katachi reads each table's files unchanged (`patterns` is two files,
//! compiled into one table) and must print exactly those lines, `trans`
//! numbers and order included: 0 missing, 0 extra, byte for byte.
//!
//! The databases are GPL test data, read here at run time, never copied
//! into the project. When `../shared` is absent these tests say so and
//! pass without checking. One test a table (compiled once, both position
//! files scanned through the key-stone index `katachi match` uses, the
//! real ones also through the anchor index engines use), so that they
//! run in parallel.

use std::path::{Path, PathBuf};

use katachi::matcher::Matcher;
use katachi::positions::{parse_positions, PositionRecord};

/// The fourteen tables: GNU Go's table name, its files, its pattern count.
const TABLES: [(&str, &[&str], usize); 14] = [
    ("patterns", &["patterns.db", "patterns2.db"], 992 + 228),
    ("attpat", &["attack.db"], 14),
    ("defpat", &["defense.db"], 33),
    ("conn", &["conn.db"], 35),
    ("endpat", &["endgame.db"], 102),
    ("influencepat", &["influence.db"], 50),
    ("barrierspat", &["barriers.db"], 218),
    ("aa_attackpat", &["aa_attackpats.db"], 28),
    ("owl_attackpat", &["owl_attackpats.db"], 397),
    ("owl_defendpat", &["owl_defendpats.db"], 488),
    ("owl_vital_apat", &["owl_vital_apats.db"], 59),
    ("fusekipat", &["fuseki.db"], 168),
    ("handipat", &["handicap.db"], 49),
    ("oracle", &["oracle.db"], 4),
];

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if dir.join("gnugo-3.8/patterns.db").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is absent; the conformance corpus comes with ../shared (always present in CI)",
            dir.display()
        );
        None
    }
}

/// A table's files compiled in memory into one table, as `katachi match
/// --db` does (leniently: GNU Go's helpers are not katachi's).
fn compile(dir: &Path, files: &[&str]) -> mkpat::CompiledSet {
    let bytes: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            let path = dir.join("gnugo-3.8").join(f);
            (
                f.to_string(),
                std::fs::read(&path).expect("read a 3.8 database"),
            )
        })
        .collect();
    let refs: Vec<(&str, &[u8])> = bytes.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let opts = mkpat::Options {
        lenient: true,
        ..Default::default()
    };
    mkpat::compile_many(&refs, &opts)
}

fn positions(dir: &Path, which: &str) -> Vec<PositionRecord> {
    let name = format!("positions_{which}.txt");
    let bytes = std::fs::read(dir.join("gnugo-2.6").join(&name)).expect("positions file");
    let p = parse_positions(&name, &bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.len(), 200);
    p
}

/// The lines `katachi match` prints for `tables` over `positions`: from
/// the key-stone index (`Matcher::scan_unordered`, what `katachi match`
/// scans with) or, `anchored`, from the anchor index (`Matcher::scan`,
/// what engines scan with).
fn lines(matcher: &Matcher<'_>, positions: &[PositionRecord], anchored: bool) -> String {
    katachi::listing::conformance_lines(matcher.tables(), positions.len(), |k| {
        let (board, to_move) = (&positions[k].board, positions[k].to_move);
        if anchored {
            matcher.matches(board, to_move)
        } else {
            let mut found = Vec::new();
            matcher.scan_unordered(board, to_move, |m| found.push(m));
            found
        }
    })
}

/// Missing and extra lines, and the first of each, for the report.
fn diff(expected: &str, found: &str) -> (usize, usize, Vec<String>) {
    use std::collections::BTreeSet;
    let e: BTreeSet<&str> = expected.lines().collect();
    let f: BTreeSet<&str> = found.lines().collect();
    let missing: Vec<&&str> = e.difference(&f).collect();
    let extra: Vec<&&str> = f.difference(&e).collect();
    let mut sample: Vec<String> = missing.iter().take(5).map(|l| format!("- {l}")).collect();
    sample.extend(extra.iter().take(5).map(|l| format!("+ {l}")));
    (missing.len(), extra.len(), sample)
}

/// Table `table` (its files, its pattern count) against GNU Go 3.8's
/// expected lines on both position files.
fn check_table(table: &str) {
    let Some(dir) = corpus() else { return };
    let (_, files, count) = TABLES
        .into_iter()
        .find(|t| t.0 == table)
        .expect("a table of the corpus");
    let set = compile(&dir, files);
    assert!(set.is_ok(), "{table}: {}", set.render());
    assert!(
        set.parts
            .iter()
            .all(|p| p.dialect == mkpat::Dialect::GnuGo38),
        "{table}: read as GNU Go 3.x"
    );
    let db = set.database.expect("no errors");
    assert_eq!(db.patterns.len(), count, "{table}: pattern count");
    let matcher = Matcher::new(db.tables());
    let mut failures = Vec::new();
    // Both indexes on the real positions, the key-stone one (the command
    // line's) on the random ones too.
    for (which, anchored) in [("real", false), ("real", true), ("random", false)] {
        let path = dir.join(format!("gnugo-3.8/expected_{table}_{which}.txt"));
        let expected = std::fs::read_to_string(&path).expect("expected file");
        let found = lines(&matcher, &positions(&dir, which), anchored);
        let index = if anchored { "anchor" } else { "key-stone" };
        if found == expected {
            eprintln!(
                "{table} {which} ({index} index): {} lines, identical",
                expected.lines().count()
            );
        } else {
            let (missing, extra, sample) = diff(&expected, &found);
            failures.push(format!(
                "{table} {which} ({index} index): {missing} missing, {extra} extra (or out of order)\n{}",
                sample.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// One test a table, so that the harness spreads them over the cores.
macro_rules! table_tests {
    ($($name:ident $table:literal;)*) => {
        $(
            #[test]
            fn $name() {
                check_table($table);
            }
        )*

        #[test]
        fn every_table_has_its_test() {
            let tested = [$($table),*];
            for (t, _, _) in TABLES {
                assert!(tested.contains(&t), "{t} has no test");
            }
        }
    };
}

table_tests! {
    patterns_matches_gnugo_38 "patterns";
    attpat_matches_gnugo_38 "attpat";
    defpat_matches_gnugo_38 "defpat";
    conn_matches_gnugo_38 "conn";
    endpat_matches_gnugo_38 "endpat";
    influencepat_matches_gnugo_38 "influencepat";
    barrierspat_matches_gnugo_38 "barrierspat";
    aa_attackpat_matches_gnugo_38 "aa_attackpat";
    owl_attackpat_matches_gnugo_38 "owl_attackpat";
    owl_defendpat_matches_gnugo_38 "owl_defendpat";
    owl_vital_apat_matches_gnugo_38 "owl_vital_apat";
    fusekipat_matches_gnugo_38 "fusekipat";
    handipat_matches_gnugo_38 "handipat";
    oracle_matches_gnugo_38 "oracle";
}

/// `mkpat stats`, `show`, `json` and `html` on every table (the library
/// calls behind them): the counts name every pattern and the constraint
/// lines, the first pattern draws, the JSON export reads back to the same
/// tables, and the catalogue's data holds every pattern.
#[test]
fn the_tools_work_on_every_table() {
    let Some(dir) = corpus() else { return };
    for (table, files, count) in TABLES {
        let set = compile(&dir, files);
        let db = set.database.as_ref().expect("no errors");
        let checked: Vec<mkpat::CheckedPattern> =
            set.parts.iter().flat_map(|p| p.checked.clone()).collect();
        let stats = mkpat::show::stats(db) + &mkpat::show::constraint38_stats(&checked);
        assert!(
            stats.contains(&format!("patterns          {count}\n")),
            "{table}: {stats}"
        );
        assert!(
            stats.contains("constraints katachi decides"),
            "{table}: {stats}"
        );
        let first = &db.patterns[0].name;
        let shown = mkpat::show::show(db, &checked, first).expect("the pattern is there");
        assert!(shown.contains(first.as_ref()), "{table}: {shown}");
        let json = mkpat::json::export(files[0], mkpat::Dialect::GnuGo38, db, &checked);
        assert_eq!(json.patterns.len(), count, "{table}");
        let back = mkpat::json::JsonDatabase::from_json(&json.to_json())
            .and_then(|j| j.to_database())
            .unwrap_or_else(|e| panic!("{table}: {e}"));
        assert_eq!(back.patterns, db.patterns, "{table}");
        assert_eq!(back.variants, db.variants, "{table}");
        assert_eq!(back.elements, db.elements, "{table}");
        let site = mkpat::html::site(&json, None);
        let data = &site
            .iter()
            .find(|f| f.path == "data.js")
            .expect("data.js")
            .text;
        for p in &db.patterns {
            assert!(
                data.contains(&format!("\"{}\"", p.name)),
                "{table}: {}",
                p.name
            );
        }
    }
}

/// The command line: `katachi match` with `--db` given twice prints the
/// `patterns` table's expected file exactly.
#[test]
#[cfg(feature = "compiler")]
fn the_cli_joins_two_files_into_one_table() {
    let Some(dir) = corpus() else { return };
    let c = dir.join("gnugo-3.8");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_katachi"))
        .arg("match")
        .arg("--db")
        .arg(c.join("patterns.db"))
        .arg("--db")
        .arg(c.join("patterns2.db"))
        .arg(dir.join("gnugo-2.6/positions_random.txt"))
        .output()
        .expect("run katachi");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = std::fs::read(c.join("expected_patterns_random.txt")).unwrap();
    assert!(
        o.stdout == expected,
        "katachi match differs from GNU Go 3.8"
    );
}

/// A pattern name may not appear in two files of one table.
#[test]
fn a_name_in_two_files_of_one_table_is_an_error() {
    let a = b"Pattern A1\n\nO*\n\n:8,-\n" as &[u8];
    let b = b"Pattern A1\n\nX*\n\n:8,-\n" as &[u8];
    let set = mkpat::compile_many(&[("a.db", a), ("b.db", b)], &mkpat::Options::default());
    assert!(!set.is_ok());
    let text = set.render();
    assert!(
        text.contains("b.db:1:9: error: pattern name `A1` is used in a.db already"),
        "{text}"
    );
}

/// The generated-code path: `patterns` and `owl_attackpat` compiled by
/// `build.rs` into static tables (feature `gnugo38`) are the in-memory
/// tables exactly, and so match GNU Go 3.8's lines exactly.
#[cfg(feature = "gnugo38")]
#[test]
fn generated_tables_are_the_in_memory_ones_and_match_gnugo_38() {
    use katachi::go::gnugo38;
    let Some(dir) = corpus() else { return };
    for (table, statics, available) in [
        (
            "patterns",
            gnugo38::patterns::TABLES,
            gnugo38::patterns::AVAILABLE,
        ),
        (
            "owl_attackpat",
            gnugo38::owl_attackpat::TABLES,
            gnugo38::owl_attackpat::AVAILABLE,
        ),
    ] {
        assert!(
            available,
            "build.rs did not find {table}'s files although the corpus is present"
        );
        let (_, files, _) = TABLES.into_iter().find(|t| t.0 == table).unwrap();
        let db = compile(&dir, files).database.expect("compiles");
        assert_eq!(statics.patterns, db.tables().patterns, "{table}");
        assert_eq!(statics.variants, db.tables().variants, "{table}");
        assert_eq!(statics.elements, db.tables().elements, "{table}");
        for which in ["real", "random"] {
            let path = dir.join(format!("gnugo-3.8/expected_{table}_{which}.txt"));
            let expected = std::fs::read_to_string(&path).expect("expected file");
            let found = lines(&Matcher::new(statics), &positions(&dir, which), false);
            assert!(
                found == expected,
                "{table} {which}: generated tables differ from GNU Go 3.8"
            );
        }
    }
}
