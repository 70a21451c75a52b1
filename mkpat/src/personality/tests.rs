//! The personality file: parsing, located errors, checks against a
//! database and an engine table, the overlay, renaming.

use std::collections::BTreeMap;

use super::*;
use crate::diag::SourceFile;

const DB: &[u8] = b"# pattern 1\n\nXO*\n\n:8,50,0,0,0,0,C,0,NULL\n\n# pattern 2\n\nX.*\n\n:8,30,0,0,0,0,-,0,NULL\n";

const DEFS: [FactorDef; 2] = [
    FactorDef {
        key: "tactics",
        default: 100,
        min: 0,
        max: 400,
        definition: "captures and saves, percent",
    },
    FactorDef {
        key: "random",
        default: 0,
        min: 0,
        max: 50,
        definition: "a random term",
    },
];

fn db() -> crate::Database {
    crate::compile("t.db", DB, &crate::Options::default())
        .database
        .expect("compiles")
}

fn good(fp: &str) -> String {
    format!(
        "name = \"t\"\ndescription = \"a test\"\ngame = \"go\"\nfingerprint = \"{fp}\"\n\n[patterns]\n\"2\" = 200 # doubled\n\n[classes]\nC = 50\n\n[engine]\ntactics = 150\n"
    )
}

fn fp() -> String {
    let db = db();
    fingerprint(db.dialect, db.patterns.iter().map(|p| p.name.as_ref()))
}

#[test]
fn a_good_file_checks_and_reweighs_by_class_and_name() {
    let db = db();
    let p = Personality::parse(&good(&fp())).expect("parses");
    assert!(p.check_database(db.dialect, &db.patterns).is_empty());
    assert!(p.check_engine("go", &DEFS).is_empty());
    assert_eq!(p.engine_value(&DEFS, "tactics"), 150);
    assert_eq!(p.engine_value(&DEFS, "random"), 0, "the default");
    let o = p.overlay(db.dialect, &db.patterns);
    let weight = |name: &str| {
        let k = db.patterns.iter().position(|p| p.name == name).unwrap();
        o.values(k).go().unwrap().weight
    };
    assert_eq!(weight("1"), 25, "class C at 50 %");
    assert_eq!(weight("2"), 60, "pattern 2 at 200 %");
}

fn rendered(text: &str, diags: &[Diagnostic]) -> String {
    SourceFile::new("p.toml", text).render_all(diags)
}

#[test]
fn every_error_is_located_at_once() {
    let text = "name = \"t\"\ndescriptoin = \"x\"\ngame = \"go\"\nfingerprint = \"f\"\n[patterns]\n\"1\" = 1.5\n\"2\" = -3\n[classes]\nC = \"big\"\n";
    let diags = Personality::parse(text).unwrap_err();
    let out = rendered(text, &diags);
    insta::assert_snapshot!(out);
    assert_eq!(diags.len(), 5, "{out}");
}

#[test]
fn a_syntax_error_is_located() {
    let text = "name = \"t\"\ndescription = [\n";
    let diags = Personality::parse(text).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert!(rendered(text, &diags).starts_with("p.toml:2:"), "{diags:?}");
}

#[test]
fn names_classes_kinds_and_the_fingerprint_are_checked_against_the_database() {
    let db = db();
    let text = "name = \"t\"\ndescription = \"x\"\ngame = \"go\"\nfingerprint = \"seed-0\"\n[patterns]\n\"12\" = 100\n[classes]\nQ = 100\n[kinds]\nfour = 100\n[engine]\ntactic = 100\nrandom = 99\n";
    let p = Personality::parse(text).expect("well formed");
    let mut diags = p.check_database(db.dialect, &db.patterns);
    diags.extend(p.check_engine("five", &DEFS));
    let out = rendered(text, &diags);
    insta::assert_snapshot!(out);
    assert!(out.contains("did you mean `tactics`?"), "{out}");
}

#[test]
fn renaming_keeps_comments_and_follows_duplicates() {
    let text = good("old");
    let renames: BTreeMap<String, Vec<String>> =
        [("2".to_string(), vec!["7".to_string(), "8".to_string()])].into();
    let out = rename_patterns(&text, &renames, "new").unwrap();
    assert!(out.contains("7 = 200 # doubled"), "{out}");
    assert!(out.contains("8 = 200 # doubled"), "{out}");
    assert!(out.contains("fingerprint = \"new\""), "{out}");
    assert!(!out.contains("\n2 ="), "{out}");
    let swapped: BTreeMap<String, Vec<String>> = [
        ("1".to_string(), vec!["2".to_string()]),
        ("2".to_string(), vec!["1".to_string()]),
    ]
    .into();
    let two = "name = \"t\"\ndescription = \"\"\ngame = \"go\"\nfingerprint = \"a\"\n[patterns]\n1 = 10\n2 = 20\n";
    let out = rename_patterns(two, &swapped, "b").unwrap();
    let p = Personality::parse(&out).unwrap();
    let got: Vec<(&str, i64)> = p
        .patterns
        .iter()
        .map(|s| (s.key.as_str(), s.value))
        .collect();
    assert_eq!(got, [("2", 10), ("1", 20)]);
}

#[test]
fn the_template_lists_every_factor_and_parses_back_to_defaults() {
    let db = db();
    let t = template(
        "go",
        "new",
        "all defaults",
        db.dialect,
        &fp(),
        Some("1"),
        &DEFS,
    );
    let p = Personality::parse(&t).expect("the template parses");
    assert!(p.check_database(db.dialect, &db.patterns).is_empty());
    assert!(p.check_engine("go", &DEFS).is_empty());
    assert_eq!(p.classes.len(), crate::tables::class::LETTERS.len());
    assert_eq!(p.engine.len(), DEFS.len());
    assert_eq!(
        p.overlay(db.dialect, &db.patterns),
        Overlay::identity(db.dialect, &db.patterns)
    );
}

#[test]
fn the_fingerprint_follows_names_not_order() {
    let a = fingerprint(Dialect::Seed, ["1", "2"]);
    assert_eq!(a, fingerprint(Dialect::Seed, ["2", "1", "2"]));
    assert_ne!(a, fingerprint(Dialect::Seed, ["1", "3"]));
    assert_ne!(a, fingerprint(Dialect::GnuGo26, ["1", "2"]));
}

#[test]
fn setting_factors_keeps_comments_and_adds_what_is_missing() {
    let text = good(&fp());
    let out = set_factors(
        &text,
        &[
            ("engine".into(), "tactics".into(), 90),
            ("engine".into(), "random".into(), 7),
            ("kinds".into(), "four".into(), 120),
        ],
    )
    .unwrap();
    let p = Personality::parse(&out).expect("still a personality");
    assert_eq!(p.engine_value(&DEFS, "tactics"), 90);
    assert_eq!(p.engine_value(&DEFS, "random"), 7);
    assert_eq!(p.kinds[0].value, 120);
    assert!(out.contains("\"2\" = 200 # doubled"), "{out}");
}
