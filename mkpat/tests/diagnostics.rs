//! Snapshot tests of mkpat's diagnostics and compiled output.
//!
//! - `tests/data/err/*.db`: one small bad database per checker or parser
//!   rule; each must produce the diagnostic its name promises, and the
//!   rendered diagnostics are pinned by snapshots.
//! - `tests/data/ok/*.db`: small valid databases; they compile without a
//!   diagnostic, and their tables and generated module are pinned.
//! - the real `patterns/patterns.db`, pinned the same way.
//!
//! Review changed snapshots with `cargo insta review` (or accept them all
//! with `cargo insta test -p mkpat --accept`).
#![cfg(feature = "compiler")]

use std::fmt::Write;
use std::path::Path;

use mkpat::codegen::{generate, CodegenOptions};
use mkpat::tables::{class, Database};
use mkpat::{Compiled, HelperSet, Options, Severity};

fn fixture_helpers() -> HelperSet {
    HelperSet::from_source(include_str!("data/helpers.rs")).expect("the fixture helpers parse")
}

fn options() -> Options {
    Options {
        helpers: Some(fixture_helpers()),
        ..Options::default()
    }
}

/// The path shown in diagnostics: relative and with `/`, so that snapshots
/// do not depend on where the repository lives.
fn display_name(path: &Path) -> String {
    let dir = path
        .parent()
        .and_then(Path::file_name)
        .unwrap()
        .to_string_lossy();
    let file = path.file_name().unwrap().to_string_lossy();
    format!("{dir}/{file}")
}

fn compile_file(path: &Path, opts: &Options) -> Compiled {
    let bytes = std::fs::read(path).unwrap();
    mkpat::compile(&display_name(path), &bytes, opts)
}

/// What each bad database must produce: the severity of the diagnostic the
/// file exists for, and a piece of its message (or of one of its notes).
/// Files whose rule is a warning compile, except those listed in
/// [`DO_NOT_COMPILE`]; files whose rule is an error never do.
const EXPECTED: &[(&str, Severity, &str)] = &[
    (
        "g38_unknown_function",
        Severity::Error,
        "did you mean `attack`?",
    ),
    (
        "g38_arity",
        Severity::Error,
        "`lib` takes 1 point, found 2 argument(s)",
    ),
    (
        "g38_action_syntax",
        Severity::Error,
        "action syntax: expected `;`, found `attack`",
    ),
    (
        "g38_unevaluable",
        Severity::Warning,
        "katachi's Go engine cannot evaluate `owl_escape_value`",
    ),
    (
        "g38_unknown_value",
        Severity::Error,
        "did you mean `value`?",
    ),
    (
        "g38_label_attribute",
        Severity::Error,
        "`threatens_eye` names `q`, not a label of the constraint diagram",
    ),
    (
        "g38_class_letter",
        Severity::Error,
        "unknown classification letter `Z`",
    ),
    (
        "g38_attribute_map_late",
        Severity::Error,
        "`attribute_map` after the first pattern",
    ),
    (
        "g38_unknown_label",
        Severity::Error,
        "label `b` is not in the constraint diagram",
    ),
    (
        "five_closed_twice",
        Severity::Error,
        "a `=` cell must touch a cell that is not `=`",
    ),
    ("empty", Severity::Error, "no pattern in this file"),
    (
        "five_not_a_four",
        Severity::Error,
        "declared `four`, but the diagram does not make one",
    ),
    (
        "five_line_rows",
        Severity::Error,
        "a line pattern is one row",
    ),
    (
        "five_line_edges",
        Severity::Error,
        "a line pattern has no edge marks",
    ),
    (
        "five_unknown_kind",
        Severity::Error,
        "unknown kind `open-fours`",
    ),
    (
        "five_field_count",
        Severity::Error,
        "the attribute line has 3 fields, expected 4",
    ),
    (
        "five_values_out_of_range",
        Severity::Error,
        "mine 1000000 is out of range",
    ),
    (
        "five_dialect_unknown",
        Severity::Error,
        "unknown dialect `five-in-a-row`",
    ),
    (
        "five_dialect_late",
        Severity::Error,
        "`dialect:` after the first pattern",
    ),
    (
        "five_cell_in_go",
        Severity::Error,
        "unexpected character `=` in a diagram",
    ),
    (
        "hex_off_lattice",
        Severity::Error,
        "off the hexagonal lattice",
    ),
    (
        "hex_side_marks",
        Severity::Error,
        "not on the lower-left side the mark draws",
    ),
    (
        "hex_geometry_late",
        Severity::Error,
        "`geometry:` after the first pattern",
    ),
    (
        "hex_unknown_geometry",
        Severity::Error,
        "unknown geometry `triangle`",
    ),
    (
        "hex_rows",
        Severity::Error,
        "cells of a hexagonal row are one space apart",
    ),
    (
        "hex_symmetry",
        Severity::Error,
        "symmetry class `|` does not hold for this diagram: it has the symmetry of class `2`",
    ),
    ("comments_only", Severity::Error, "no pattern in this file"),
    (
        "empty_symmetry_class",
        Severity::Error,
        "no symmetry class: the attribute line starts with an empty field",
    ),
    (
        "bom_then_error",
        Severity::Error,
        "unexpected text after the attribute line",
    ),
    (
        "unequal_row_widths",
        Severity::Error,
        "diagram row has 2 cells, the first row has 3",
    ),
    ("no_move", Severity::Error, "has no move `*`"),
    ("two_moves", Severity::Error, "more than one move `*`"),
    ("no_stone", Severity::Error, "has no `O` or `X` stone"),
    (
        "two_north_edges",
        Severity::Error,
        "a second north edge line",
    ),
    (
        "second_south_edge",
        Severity::Error,
        "a second south edge line",
    ),
    (
        "edge_line_between_rows",
        Severity::Error,
        "diagram row after the south edge line",
    ),
    (
        "missing_west_edge",
        Severity::Error,
        "row without the west edge `|`",
    ),
    (
        "missing_east_edge",
        Severity::Error,
        "row without the east edge `|`",
    ),
    (
        "corner_without_west_edge",
        Severity::Error,
        "corner `+` on the north edge where there is no west edge",
    ),
    (
        "corner_without_east_edge",
        Severity::Error,
        "corner `+` on the south edge where there is no east edge",
    ),
    (
        "row_after_south_edge",
        Severity::Error,
        "diagram row after the south edge line",
    ),
    (
        "symmetry_does_not_hold",
        Severity::Error,
        "the class that holds is `\\`",
    ),
    (
        "more_symmetry_than_declared",
        Severity::Warning,
        "class `|` fits",
    ),
    (
        "symmetry_no_class_describes",
        Severity::Warning,
        "its matches will repeat",
    ),
    (
        "unknown_helper",
        Severity::Error,
        "did you mean `not_self_atari_helper`?",
    ),
    (
        "helper_wrong_signature",
        Severity::Error,
        "does not have the helper signature",
    ),
    (
        "wind_sign_differs",
        Severity::Warning,
        "uvalue -1 has the opposite sign to ucutoff 10",
    ),
    ("odd_bonus", Severity::Warning, "the bonus 3 is odd"),
    ("integer_out_of_range", Severity::Error, "is out of range"),
    (
        "not_a_number",
        Severity::Error,
        "expected an integer for the weight, found `forty`",
    ),
    (
        "wrong_field_count",
        Severity::Error,
        "the attribute line has 8 fields, expected 9",
    ),
    (
        "unknown_symmetry_char",
        Severity::Error,
        "unknown symmetry class `Y`",
    ),
    (
        "unknown_class_letter",
        Severity::Warning,
        "unknown classification letter `q` is ignored",
    ),
    (
        "duplicate_pattern_numbers",
        Severity::Error,
        "first used here",
    ),
    (
        "equal_up_to_transformation",
        Severity::Warning,
        "is pattern 1 again, up to a transformation",
    ),
    (
        "missing_attribute_line",
        Severity::Error,
        "has no attribute line",
    ),
    (
        "text_outside_pattern",
        Severity::Error,
        "text outside any pattern",
    ),
    (
        "unexpected_diagram_char",
        Severity::Error,
        "unexpected character `Z` in a diagram",
    ),
    (
        "near_miss_header",
        Severity::Warning,
        "looks like a pattern header but is not one",
    ),
    (
        "diagram_too_large",
        Severity::Error,
        "larger than the largest board",
    ),
    (
        "tabs",
        Severity::Error,
        "diagram row starts with whitespace",
    ),
    (
        "invalid_utf8",
        Severity::Error,
        "invalid UTF-8 in the database",
    ),
    (
        "several_errors",
        Severity::Error,
        "unknown helper `no_such_helper`",
    ),
];

/// Warning rules whose file also has errors: the lines after a near-miss
/// header are stray text.
const DO_NOT_COMPILE: &[&str] = &["near_miss_header"];

fn mentions(c: &Compiled, severity: Severity, text: &str) -> bool {
    c.diagnostics.iter().any(|d| {
        d.severity == severity
            && (d.message.contains(text)
                || d.notes.iter().any(|n| n.contains(text))
                || d.related.iter().any(|(_, l)| l.contains(text)))
    })
}

#[test]
fn bad_databases_are_reported() {
    let mut seen = Vec::new();
    insta::glob!("data/err/*.db", |path| {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let c = compile_file(path, &options());
        let rendered = c.render();
        assert!(!c.diagnostics.is_empty(), "{stem}: no diagnostic");
        let &(_, severity, text) = EXPECTED
            .iter()
            .find(|(s, _, _)| *s == stem)
            .unwrap_or_else(|| panic!("{stem}.db has no entry in EXPECTED"));
        assert!(
            mentions(&c, severity, text),
            "{stem}: expected a {severity:?} mentioning {text:?}, got:\n{rendered}"
        );
        match severity {
            _ if DO_NOT_COMPILE.contains(&stem.as_str()) => {
                assert!(
                    c.error_count() > 0 && !c.is_ok(),
                    "{stem}: should not compile"
                );
            }
            Severity::Error => {
                assert!(
                    c.error_count() > 0 && !c.is_ok(),
                    "{stem}: should not compile"
                );
            }
            // A warning-only rule: the database still compiles.
            Severity::Warning => {
                assert_eq!(c.error_count(), 0, "{stem}: unexpected error:\n{rendered}");
                assert!(c.is_ok());
            }
        }
        // Every span lies within the source and starts on a char boundary.
        for d in &c.diagnostics {
            assert!(
                d.span.start <= d.span.end && d.span.end <= c.source.text.len() + 1,
                "{stem}: {d:?}"
            );
            assert!(c
                .source
                .text
                .is_char_boundary(d.span.start.min(c.source.text.len())));
        }
        insta::assert_snapshot!(rendered);
        seen.push(stem);
    });
    // Every rule of the table has its file.
    for (stem, _, _) in EXPECTED {
        assert!(
            seen.iter().any(|s| s == stem),
            "missing tests/data/err/{stem}.db"
        );
    }
}

#[test]
fn several_errors_are_all_reported_in_one_run() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/err/several_errors.db");
    let c = compile_file(&path, &options());
    assert_eq!(
        (c.error_count(), c.warning_count()),
        (5, 1),
        "{}",
        c.render()
    );
    for text in [
        "diagram row has 2 cells",
        "pattern 2 has no move",
        "duplicate pattern number `2`",
        "the bonus 5 is odd",
        "unknown helper `no_such_helper`",
        "symmetry class `/` does not hold",
    ] {
        assert!(
            c.diagnostics.iter().any(|d| d.message.contains(text)),
            "missing {text:?}"
        );
    }
    // Rendered in file order.
    let rendered = c.render();
    let lines: Vec<usize> = rendered
        .lines()
        .filter(|l| l.starts_with("err/several_errors.db:"))
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
}

#[test]
fn lenient_mode_downgrades_symmetry_and_helper_errors() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/err");
    let lenient = Options {
        lenient: true,
        ..options()
    };
    for f in [
        "symmetry_does_not_hold",
        "unknown_helper",
        "helper_wrong_signature",
    ] {
        let c = compile_file(&data.join(format!("{f}.db")), &lenient);
        assert_eq!(c.error_count(), 0, "{f}: {}", c.render());
        assert!(c.warning_count() > 0 && c.is_ok(), "{f}");
    }
    // Leniently, a wrong class is expanded for the symmetry the diagram has:
    // `\` needs 4 variants.
    let c = compile_file(&data.join("symmetry_does_not_hold.db"), &lenient);
    assert_eq!(c.database.unwrap().variants.len(), 4);
}

#[test]
fn without_a_helper_set_helpers_are_not_checked() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/err/unknown_helper.db");
    let c = compile_file(&path, &Options::default());
    assert!(c.is_ok() && c.diagnostics.is_empty(), "{}", c.render());
}

/// A readable dump of compiled tables: every pattern with its drawn
/// diagram, attributes, elements and variants.
fn dump(c: &Compiled) -> String {
    let db = c.database.as_ref().expect("compiled");
    let mut out = String::new();
    let _ = writeln!(out, "dialect {}", c.dialect.name());
    out.push_str(&mkpat::show::stats(db));
    for (k, p) in db.patterns.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n[{k}] pattern {} (line {}) `{}` anchor {} move ({:+},{:+}) extent {:?} edges {:#06b}",
            p.name,
            p.line,
            p.symmetry,
            p.anchor.as_char(),
            p.move_di,
            p.move_dj,
            (p.extent.min_i, p.extent.min_j, p.extent.max_i, p.extent.max_j),
            p.edges
        );
        let _ = match &p.values {
            mkpat::tables::Values::Go(g) => writeln!(
                out,
                "    weight {} assistance {} class {} bonus {} xbonus {} splitbonus {} rand {}..{} max {} helper {} descr {:?}",
                g.weight,
                mkpat::show::assistance_text(g.assistance),
                class::to_string(g.class),
                g.bonus,
                g.xbonus,
                g.splitbonus,
                g.minrand,
                g.maxrand,
                p.max_weight,
                p.helper.as_deref().unwrap_or("NULL"),
                p.description
            ),
            mkpat::tables::Values::Go38(g) => writeln!(
                out,
                "    class {} values {} max {} helper {} descr {:?}",
                mkpat::dialect::gnugo38::class_text(g.class),
                g.fields_text(),
                p.max_weight,
                p.helper.as_deref().unwrap_or("NULL"),
                p.description
            ),
            mkpat::tables::Values::Five(f) => writeln!(
                out,
                "    kind {} mine {} theirs {} line {} max {} descr {:?}",
                f.kind.name(),
                f.mine,
                f.theirs,
                f.line,
                p.max_weight,
                p.description
            ),
        };
        if let Some(checked) = c.checked.iter().find(|x| x.name == p.name) {
            for l in checked.grid.draw().lines() {
                let _ = writeln!(out, "    | {l}");
            }
        }
        let _ = writeln!(out, "    elements {:?}", db.view().elements_of(p));
        for v in db.view().variants_of(p) {
            let _ = writeln!(
                out,
                "    t{} edges {:#06b} extent {:?} move ({:+},{:+}) and {:#010x} val {:#010x}",
                v.trans,
                v.edges,
                (
                    v.extent.min_i,
                    v.extent.min_j,
                    v.extent.max_i,
                    v.extent.max_j
                ),
                v.move_di,
                v.move_dj,
                v.and_mask,
                v.val_mask
            );
        }
    }
    out
}

fn module(c: &Compiled, input: &str, helpers: Option<&HelperSet>) -> String {
    generate(
        c.database.as_ref().expect("compiled"),
        &c.checked,
        &CodegenOptions {
            input,
            dialect: c.dialect.name(),
            helpers: helpers.map(|h| (h, "crate::helpers")),
            helper_fn_type: "crate::position::HelperFn",
            constraints: None,
        },
    )
}

/// The invariants the matcher relies on (see `mkpat::tables`).
fn assert_invariants(db: &Database, what: &str) {
    assert!(
        db.patterns
            .windows(2)
            .all(|w| w[0].max_weight >= w[1].max_weight),
        "{what}: patterns not sorted by max weight"
    );
    let mut next_variant = 0;
    let mut next_element = 0;
    for (k, p) in db.patterns.iter().enumerate() {
        assert_eq!(p.variants.start, next_variant, "{what}: {}", p.name);
        assert_eq!(p.elements.start, next_element, "{what}: {}", p.name);
        next_variant += p.variants.len;
        next_element += p.elements.len;
        // GNU Go 3.x tries exactly GNU Go's transformations of the
        // declared class; the other dialects one per coset of its group.
        let want = if db.dialect == mkpat::Dialect::GnuGo38 {
            mkpat::dialect::gnugo38::transformations(p.symmetry).to_vec()
        } else {
            let class = db.geometry.class(p.symmetry).unwrap();
            class.group.coset_representatives(db.geometry)
        };
        let trans: Vec<u8> = db.view().variants_of(p).iter().map(|v| v.trans).collect();
        assert_eq!(trans, want, "{what}: {}", p.name);
        assert!(db
            .view()
            .variants_of(p)
            .iter()
            .all(|v| v.pattern == k as u32));
        let els = db.view().elements_of(p);
        assert!(
            els.iter()
                .any(|e| (e.di(), e.dj(), e.cell()) == (0, 0, p.anchor)),
            "{what}: {}: the anchor is an element",
            p.name
        );
        let rank = |e: &mkpat::tables::Element| match e.cell() {
            mkpat::tables::Cell::Mine | mkpat::tables::Cell::Theirs => 0,
            mkpat::tables::Cell::Empty => 2,
            _ => 1,
        };
        assert!(
            els.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])),
            "{what}: {}",
            p.name
        );
    }
    assert_eq!(next_variant as usize, db.variants.len());
    assert_eq!(next_element as usize, db.elements.len());
}

#[test]
fn good_databases_compile() {
    let helpers = fixture_helpers();
    insta::glob!("data/ok/*.db", |path| {
        let c = compile_file(path, &options());
        assert!(
            c.diagnostics.is_empty(),
            "{}:\n{}",
            path.display(),
            c.render()
        );
        let db = c.database.as_ref().expect("no error");
        assert_invariants(db, &display_name(path));
        insta::assert_snapshot!("tables", dump(&c));
        insta::assert_snapshot!("module", module(&c, &display_name(path), Some(&helpers)));
    });
}

#[test]
fn a_database_without_patterns_is_an_error_at_its_start() {
    for (src, note) in [
        (&b""[..], "`# pattern N`"),
        (b"\n\n", "`# pattern N`"),
        (b"# only a comment\n", "`# pattern N`"),
        (b"\xef\xbb\xbf\n", "`# pattern N`"),
    ] {
        let c = mkpat::compile("empty.db", src, &options());
        assert!(!c.is_ok());
        assert_eq!(c.diagnostics.len(), 1, "{}", c.render());
        let d = &c.diagnostics[0];
        assert_eq!(d.message, "no pattern in this file");
        assert!(d.notes[0].contains(note), "{:?}", d.notes);
        assert!(c
            .render()
            .starts_with("empty.db:1:1: error: no pattern in this file\n"));
    }
    let c = mkpat::compile(
        "e.db",
        b"x",
        &mkpat::Options {
            dialect: Some(mkpat::Dialect::GnuGo26),
            ..options()
        },
    );
    assert!(c
        .diagnostics
        .iter()
        .any(|d| d.message == "no pattern in this file"
            && d.notes.iter().any(|n| n.contains("`Pattern NAME`"))));
}

#[test]
fn lone_cr_and_a_bom_compile_like_lf_with_the_same_locations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ok/crlf.db");
    let lf = String::from_utf8(std::fs::read(&path).unwrap())
        .unwrap()
        .replace("\r\n", "\n");
    let reference = mkpat::compile("x.db", lf.as_bytes(), &options());
    assert!(reference.is_ok(), "{}", reference.render());
    for variant in [lf.replace('\n', "\r"), format!("\u{FEFF}{lf}")] {
        let c = mkpat::compile("x.db", variant.as_bytes(), &options());
        assert!(c.is_ok(), "{}", c.render());
        assert_eq!(dump(&c), dump(&reference));
    }
    // An error on line 3 of a CR-only file is reported there, and on line 1
    // after a BOM at the right column.
    let cr = "# pattern 1\r\rXO.!\r.*.\r\r:8,50,0,0,0,0,-,0,NULL\r";
    let c = mkpat::compile("cr.db", cr.as_bytes(), &options());
    assert!(
        c.render().starts_with("cr.db:3:4: error:"),
        "{}",
        c.render()
    );
    let c = mkpat::compile("bom.db", "\u{FEFF}#  pattern x\n".as_bytes(), &options());
    assert!(c.render().starts_with("bom.db:1:1: "), "{}", c.render());
    assert!(!c.render().contains('\u{FEFF}'), "{}", c.render());
}

#[test]
fn crlf_compiles_like_lf() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ok/crlf.db");
    let crlf = std::fs::read(&path).unwrap();
    assert!(
        crlf.windows(2).any(|w| w == b"\r\n"),
        "the fixture has CRLF line endings"
    );
    let lf: Vec<u8> = String::from_utf8(crlf.clone())
        .unwrap()
        .replace("\r\n", "\n")
        .into_bytes();
    let a = mkpat::compile("x.db", &crlf, &options());
    let b = mkpat::compile("x.db", &lf, &options());
    assert_eq!(a.database.unwrap(), b.database.unwrap());
}

#[test]
fn wind_and_bonus_give_the_max_weight() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ok/wind.db");
    let c = compile_file(&path, &options());
    let db = c.database.unwrap();
    let max = |name: &str| db.tables().pattern_named(name).unwrap().1.max_weight;
    // patwt + uvalue*|ucutoff| + myvalue*|mycutoff| + max(bonus, 0)
    assert_eq!(max("1"), 55 + 20);
    assert_eq!(max("2"), 10 + 2 * 5 + 7 + 4);
    assert_eq!(max("3"), 30);
    assert_eq!(max("4"), 20 + 12);
    let names: Vec<&str> = db.patterns.iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["1", "4", "2", "3"]);
}

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn compile_real() -> (Compiled, HelperSet) {
    let root = repo_root();
    let helpers =
        HelperSet::from_source(&std::fs::read_to_string(root.join("src/go/helpers.rs")).unwrap())
            .expect("src/go/helpers.rs parses");
    let bytes = std::fs::read(root.join("patterns/patterns.db")).unwrap();
    let opts = Options {
        helpers: Some(helpers.clone()),
        ..Options::default()
    };
    (
        mkpat::compile("patterns/patterns.db", &bytes, &opts),
        helpers,
    )
}

#[test]
fn the_real_database() {
    let (c, helpers) = compile_real();
    assert_eq!(c.error_count(), 0, "{}", c.render());
    let db = c.database.as_ref().unwrap();
    assert!(!db.patterns.is_empty());
    assert_invariants(db, "patterns.db");
    insta::assert_snapshot!("real_diagnostics", c.render());
    insta::assert_snapshot!("real_tables", dump(&c));
    insta::assert_snapshot!(
        "real_module",
        module(&c, "patterns/patterns.db", Some(&helpers))
    );
}

/// The playouts' shape database: clean, and its tables and module pinned
/// (a change to a shape shows up in review as a snapshot diff).
#[test]
fn the_playout_database() {
    let bytes = std::fs::read(repo_root().join("patterns/playout.db")).unwrap();
    let c = mkpat::compile("patterns/playout.db", &bytes, &Options::default());
    assert_eq!(c.error_count(), 0, "{}", c.render());
    assert!(
        !c.render().contains("warning"),
        "playout.db must check clean:\n{}",
        c.render()
    );
    let db = c.database.as_ref().unwrap();
    assert_invariants(db, "playout.db");
    insta::assert_snapshot!("playout_tables", dump(&c));
    insta::assert_snapshot!("playout_module", module(&c, "patterns/playout.db", None));
}

#[test]
fn generation_is_deterministic() {
    let (a, helpers) = compile_real();
    let (b, _) = compile_real();
    assert_eq!(a.database, b.database);
    let first = module(&a, "patterns/patterns.db", Some(&helpers));
    let again = module(&a, "patterns/patterns.db", Some(&helpers));
    let other = module(&b, "patterns/patterns.db", Some(&helpers));
    assert_eq!(first.as_bytes(), again.as_bytes());
    assert_eq!(first.as_bytes(), other.as_bytes());
    // The same holds for a database with every class, edge and helper.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ok/classes.db");
    let x = module(&compile_file(&path, &options()), "classes.db", None);
    let y = module(&compile_file(&path, &options()), "classes.db", None);
    assert_eq!(x.as_bytes(), y.as_bytes());
    assert!(
        !x.contains(env!("CARGO_MANIFEST_DIR")),
        "no absolute path in the output"
    );
}

/// katachi's five-in-a-row database: clean, every line pattern on both
/// orbits of the square, and its tables and module pinned.
#[test]
fn the_five_database() {
    let bytes = std::fs::read(repo_root().join("patterns/five.db")).unwrap();
    let c = mkpat::compile("patterns/five.db", &bytes, &Options::default());
    assert_eq!(c.error_count(), 0, "{}", c.render());
    assert!(
        !c.render().contains("warning"),
        "five.db must check clean:\n{}",
        c.render()
    );
    assert_eq!(c.dialect, mkpat::Dialect::Five);
    let db = c.database.as_ref().unwrap();
    assert_invariants(db, "five.db");
    assert_eq!(db.patterns.len(), 2 * c.checked.len());
    insta::assert_snapshot!("five_tables", dump(&c));
    insta::assert_snapshot!("five_module", module(&c, "patterns/five.db", None));
}
