//! Tests of the `mkpat` binary: exit codes, output, and file handling.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[cfg(unix)]
#[path = "../../tests/support/files.rs"]
mod files;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn helpers() -> String {
    data("helpers.rs").display().to_string()
}

fn mkpat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mkpat"))
        .args(args)
        .output()
        .expect("the mkpat binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn check_a_clean_database_exits_0() {
    let db = data("ok/classes.db");
    let o = mkpat(&["check", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    assert_eq!(
        stdout(&o),
        format!(
            "{}: seed dialect, 8 patterns checked, 0 error(s), 0 warning(s)\n",
            db.display()
        )
    );
}

#[test]
fn check_reports_errors_and_exits_1() {
    let db = data("err/several_errors.db");
    let o = mkpat(&["check", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{}:6:1: error: diagram row has 2 cells",
            db.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("error: unknown helper `no_such_helper`"),
        "{err}"
    );
    assert!(err.contains("warning: the bonus 5 is odd"), "{err}");
    assert!(
        stdout(&o).ends_with("1 patterns checked, 5 error(s), 1 warning(s)\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_several_files_fails_when_any_fails() {
    let good = data("ok/edges.db");
    let bad = data("err/no_move.db");
    let o = mkpat(&[
        "check",
        "--helpers",
        &helpers(),
        path_str(&good),
        path_str(&bad),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        out.contains("0 error(s)") && out.contains("1 error(s)"),
        "{out}"
    );
}

#[test]
fn warnings_pass_unless_denied() {
    let db = data("err/odd_bonus.db");
    let o = mkpat(&["check", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("warning: the bonus 3 is odd"));
    let o = mkpat(&[
        "check",
        "--deny-warnings",
        "--helpers",
        &helpers(),
        path_str(&db),
    ]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn helper_checks_follow_the_flags() {
    let db = data("err/unknown_helper.db");
    let o = mkpat(&["check", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("did you mean `not_self_atari_helper`?"));
    let o = mkpat(&["check", "--no-helpers", path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = mkpat(&["check", "--lenient", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: unknown helper"));
}

/// A checkout-like tree: `patterns/x.db` naming an unknown helper, and
/// the helpers modules given under `src/`.
fn tree_with_helpers(modules: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("patterns")).unwrap();
    let db = dir.path().join("patterns/x.db");
    std::fs::copy(data("err/unknown_helper.db"), &db).unwrap();
    for m in modules {
        let p = dir.path().join("src").join(m);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(data("helpers.rs"), p).unwrap();
    }
    (dir, db)
}

/// `mkpat` run from `dir`, so that the current folder's `src/` is that
/// tree's (the tests' own folder is mkpat's, whose `src/helpers.rs` is the
/// compiler's helpers reader).
fn mkpat_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mkpat"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the mkpat binary runs")
}

#[test]
fn the_default_helpers_are_the_one_module_beside_the_database() {
    // `src/helpers.rs`, or a game's `src/GAME/helpers.rs` (katachi's own
    // layout, `src/go/helpers.rs`): either is found and checked against.
    for layout in [
        &["helpers.rs"][..],
        &["go/helpers.rs"],
        &["helpers.rs", "go/helpers.rs"],
    ] {
        let (dir, db) = tree_with_helpers(layout);
        let o = mkpat_in(dir.path(), &["check", path_str(&db)]);
        assert_eq!(o.status.code(), Some(1), "{layout:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("did you mean `not_self_atari_helper`?"),
            "{layout:?}"
        );
    }
    // None: unchecked, said in a note.
    let (dir, db) = tree_with_helpers(&[]);
    let o = mkpat_in(dir.path(), &["check", path_str(&db)]);
    assert!(
        stderr(&o).contains("note: helper names are not checked"),
        "{}",
        stderr(&o)
    );
    // Two games and no `src/helpers.rs`: which one is not guessed.
    let (dir, db) = tree_with_helpers(&["go/helpers.rs", "gomoku/helpers.rs"]);
    let o = mkpat_in(dir.path(), &["check", path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("which helpers module?"), "{err}");
    assert!(
        err.contains("go/helpers.rs") && err.contains("gomoku/helpers.rs"),
        "{err}"
    );
}

#[test]
fn compile_names_the_engine_module_of_the_helpers() {
    // `src/go/helpers.rs` makes the tables name `crate::go`'s helpers,
    // helper type and constraint engine, as katachi's build.rs does.
    let (dir, db) = tree_with_helpers(&["go/helpers.rs"]);
    std::fs::copy(data("ok/helpers.db"), &db).unwrap();
    let o = mkpat_in(dir.path(), &["compile", path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let code = stdout(&o);
    for want in [
        "pub static HELPERS: [(&str, crate::go::position::HelperFn); ",
        "crate::go::helpers::defend_bamboo_helper as crate::go::position::HelperFn",
        "pub static CONSTRAINTS: [Option<crate::go::constraint::ConstraintFn>; 3]",
    ] {
        assert!(code.contains(want), "{want}\n{code}");
    }
    // Named on the command line instead.
    let o = mkpat_in(
        dir.path(),
        &["compile", "--engine-module", "my::engine", path_str(&db)],
    );
    let code = stdout(&o);
    assert!(code
        .contains("my::engine::helpers::defend_bamboo_helper as my::engine::position::HelperFn"));
    // A top-level `src/helpers.rs` (or a file elsewhere) means `crate`.
    let (dir, db) = tree_with_helpers(&["helpers.rs"]);
    std::fs::copy(data("ok/helpers.db"), &db).unwrap();
    let o = mkpat_in(dir.path(), &["compile", path_str(&db)]);
    assert!(
        stdout(&o).contains("crate::helpers::defend_bamboo_helper as crate::position::HelperFn")
    );
    let o = mkpat(&[
        "compile",
        "--helpers",
        &helpers(),
        path_str(&data("ok/helpers.db")),
    ]);
    assert!(
        stdout(&o).contains("crate::helpers::defend_bamboo_helper as crate::position::HelperFn")
    );
}

#[test]
fn a_missing_file_is_an_error() {
    let o = mkpat(&["check", "/nonexistent/katachi/none.db"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mkpat: error: /nonexistent/katachi/none.db: cannot read the file"));
}

#[test]
fn a_database_over_the_size_limit_is_refused_with_both_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("huge.db");
    // Sparse: over the limit on disk without writing 64 MiB.
    let f = std::fs::File::create(&db).unwrap();
    f.set_len(mkpat::input::MAX_INPUT_BYTES + 1).unwrap();
    for cmd in ["check", "renum", "stats", "json"] {
        let o = mkpat(&[cmd, path_str(&db)]);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.contains("huge.db: the file is 67108865 bytes"),
            "{cmd}: {err}"
        );
        assert!(err.contains("(64 MiB) limit"), "{cmd}: {err}");
    }
}

const NUMBERED: &str = "# A database numbered by hand.\r\n\n# pattern 5\n\nOX.   cut\n.*.\n\n:8,40,0,0,0,0,OX,0,NULL\n\n# pattern 5  \n\nXO.\n.*.\n\n:8,30,0,0,0,0,OX,0,NULL\n\n#\tpattern 12\n\n|X*\n|.O\n+--\n\n:8,20,0,0,0,0,OX,0,NULL";

#[test]
fn renum_renumbers_headers_and_keeps_a_backup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("patterns.db");
    std::fs::write(&db, NUMBERED).unwrap();
    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("renumbered 3 of 3 patterns 1..3"),
        "{}",
        stdout(&o)
    );
    let bak = dir.path().join("patterns.db.bak");
    assert_eq!(
        std::fs::read(&bak).unwrap(),
        NUMBERED.as_bytes(),
        "the backup is the original"
    );
    let new = std::fs::read_to_string(&db).unwrap();
    assert_eq!(
        new,
        NUMBERED
            .replace("# pattern 5\n\nOX", "# pattern 1\n\nOX")
            .replace("# pattern 5  ", "# pattern 2  ")
            .replace("#\tpattern 12", "#\tpattern 3")
    );
    // Line by line: only the three headers differ.
    let differing: Vec<(&str, &str)> = NUMBERED
        .split_inclusive('\n')
        .zip(new.split_inclusive('\n'))
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(differing.len(), 3, "{differing:?}");
    assert!(differing.iter().all(|(a, _)| a.contains("pattern")));
    // No temporary file is left behind.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["patterns.db", "patterns.db.bak"]);

    // A second run has nothing to do and leaves the backup alone.
    std::fs::write(&bak, "older backup").unwrap();
    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("already numbered 1..3; file untouched"),
        "{}",
        stdout(&o)
    );
    assert_eq!(std::fs::read_to_string(&db).unwrap(), new);
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), "older backup");
}

#[test]
fn renum_refuses_a_file_that_does_not_parse() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bad.db");
    let text = "# pattern 3\n\nOX.\n.*.\n\n:8,40,0,0\n\n# pattern 3\n\nXO.\n.*.\n\n:8,40,0,0,0,0,OX,0,NULL\n";
    std::fs::write(&db, text).unwrap();
    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("error: the attribute line has 4 fields, expected 9"),
        "{err}"
    );
    assert!(
        err.contains("does not parse (1 error(s)); file untouched"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&db).unwrap(), text);
    assert!(!dir.path().join("bad.db.bak").exists());
}

#[test]
fn renum_refuses_invalid_utf8_and_named_patterns() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = std::fs::read(data("err/invalid_utf8.db")).unwrap();
    let db = dir.path().join("latin1.db");
    std::fs::write(&db, &bytes).unwrap();
    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not UTF-8"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&db).unwrap(), bytes);

    let named = std::fs::read(data("ok/gnugo26.db")).unwrap();
    let db = dir.path().join("named.db");
    std::fs::write(&db, &named).unwrap();
    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("named, not numbered"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&db).unwrap(), named);
    assert!(!dir.path().join("named.db.bak").exists());
}

#[test]
fn show_prints_every_transformation() {
    let db = data("ok/classes.db");
    let show = |name: &str| {
        let o = mkpat(&["show", "--helpers", &helpers(), path_str(&db), name]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let count = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("transformation "))
            .count()
    };
    // Class `8`: all eight, in order.
    let out = show("1");
    assert!(
        out.starts_with("pattern 1 (line 3): no symmetry\n"),
        "{out}"
    );
    assert_eq!(count(&out), 8);
    for t in 0..8 {
        assert!(out.contains(&format!("\ntransformation {t} (")), "{out}");
    }
    assert!(out.contains("transformation 1 (rotate 90° clockwise)"));
    // The drawing of transformation 7 (mirror left/right) of `OX.`/`.*.`.
    assert!(out.contains("  .XO"), "{out}");
    // Class `|`: four; classes `X` and `+`: two.
    assert_eq!(count(&show("2")), 4);
    assert_eq!(count(&show("6")), 2);
    assert_eq!(count(&show("7")), 2);
}

#[test]
fn show_an_unknown_pattern_fails_with_suggestions() {
    let o = mkpat(&[
        "show",
        "--helpers",
        &helpers(),
        path_str(&data("ok/classes.db")),
        "77",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no pattern `77`"), "{}", stderr(&o));
    assert!(stderr(&o).contains("closest: `7`"), "{}", stderr(&o));
}

#[test]
fn compile_writes_the_module() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("patterns.rs");
    let db = data("ok/helpers.db");
    let o = mkpat(&[
        "compile",
        "--helpers",
        &helpers(),
        path_str(&db),
        "-o",
        path_str(&out),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("// @generated by mkpat"), "{written}");
    assert!(written.contains("3 patterns, 24 variants, 22 elements"));
    assert!(written.contains("pub static TABLES: Tables<'static>"));
    assert!(written.contains("helper: Some(Cow::Borrowed(\"defend_bamboo_helper\"))"));
    syn::parse_file(&written).expect("the module is valid Rust");
    // Without -o the same module goes to standard output.
    let o = mkpat(&["compile", "--helpers", &helpers(), path_str(&db)]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), written);
}

#[test]
fn compile_a_bad_database_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("patterns.rs");
    let o = mkpat(&[
        "compile",
        "--no-helpers",
        path_str(&data("err/two_moves.db")),
        "-o",
        path_str(&out),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("more than one move"));
    assert!(stderr(&o).contains("1 error(s), 0 warning(s)"));
    assert!(!out.exists());
}

#[test]
fn stats_describes_the_database() {
    let o = mkpat(&[
        "stats",
        "--helpers",
        &helpers(),
        path_str(&data("ok/corners.db")),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "patterns          5\n",
        "variants          40\n",
        "at an edge        5 (5 in a corner)\n",
        "by symmetry       8:5\n",
        "max weight        30..34\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    let o = mkpat(&["stats", "--no-helpers", path_str(&data("err/no_stone.db"))]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn forced_dialect_is_used() {
    let db = data("ok/edges.db");
    let o = mkpat(&[
        "check",
        "--dialect",
        "gnugo-2.6",
        "--no-helpers",
        path_str(&db),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("gnugo-2.6 dialect"), "{}", stdout(&o));
}

/// What `-o` and `renum` do to what is already at the path: links are
/// kept, modes kept, read-only files refused, special files written
/// through, backups never overwritten (`mkpat::output`).
#[cfg(unix)]
mod output_files {
    use super::*;
    use crate::files::{is_link, mode, names, read_fifo_while};
    use std::fs;
    use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};

    fn json(out: &Path) -> Output {
        mkpat(&[
            "json",
            "--no-helpers",
            path_str(&data("ok/edges.db")),
            "-o",
            path_str(out),
        ])
    }

    fn renum_ok(db: &Path) -> String {
        let o = mkpat(&["renum", path_str(db)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    }

    fn renumbered() -> String {
        NUMBERED
            .replace("# pattern 5\n\nOX", "# pattern 1\n\nOX")
            .replace("# pattern 5  ", "# pattern 2  ")
            .replace("#\tpattern 12", "#\tpattern 3")
    }

    #[test]
    fn o_through_a_symlink_keeps_the_link_and_updates_its_target() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/patterns.rs");
        fs::write(&target, "old").unwrap();
        let link = dir.path().join("link.rs");
        symlink("real/patterns.rs", &link).unwrap();
        let o = mkpat(&[
            "compile",
            "--helpers",
            &helpers(),
            path_str(&data("ok/helpers.db")),
            "-o",
            path_str(&link),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(is_link(&link));
        assert!(fs::read_to_string(&target)
            .unwrap()
            .starts_with("// @generated by mkpat"));
        assert_eq!(names(dir.path()), ["link.rs", "real"]);
        assert_eq!(names(&dir.path().join("real")), ["patterns.rs"]);
    }

    #[test]
    fn o_keeps_a_private_mode_and_a_new_file_gets_the_default_mode() {
        let dir = tempfile::tempdir().unwrap();
        let private = dir.path().join("private.json");
        fs::write(&private, "old").unwrap();
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).unwrap();
        let o = json(&private);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(fs::read_to_string(&private).unwrap().starts_with('{'));
        assert_eq!(mode(&private), 0o600);

        // A new file: 0666 less the umask, as `File::create` would make it
        // (not the 0600 of a temporary file).
        let probe = dir.path().join("probe");
        fs::File::create(&probe).unwrap();
        let new = dir.path().join("new.json");
        let o = json(&new);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(mode(&new), mode(&probe));
        assert_eq!(names(dir.path()), ["new.json", "private.json", "probe"]);
    }

    #[test]
    fn o_refuses_a_read_only_file_and_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        let ro = dir.path().join("ro.json");
        fs::write(&ro, "keep me").unwrap();
        fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
        let o = json(&ro);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            format!(
                "mkpat: error: {}: is read-only; not overwritten\n",
                ro.display()
            )
        );
        assert_eq!(fs::read_to_string(&ro).unwrap(), "keep me");
        assert_eq!(mode(&ro), 0o444);

        let o = json(dir.path());
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).ends_with(": is a folder; not overwritten\n"),
            "{}",
            stderr(&o)
        );

        // `html -o`: each file of the catalogue goes through the same
        // writer.
        let site = dir.path().join("site");
        fs::create_dir(&site).unwrap();
        fs::write(site.join("index.html"), "mine").unwrap();
        fs::set_permissions(site.join("index.html"), fs::Permissions::from_mode(0o444)).unwrap();
        let o = mkpat(&[
            "html",
            "--no-helpers",
            path_str(&data("ok/edges.db")),
            "-o",
            path_str(&site),
        ]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("index.html: is read-only; not overwritten"));
        assert_eq!(fs::read_to_string(site.join("index.html")).unwrap(), "mine");
        assert_eq!(names(dir.path()), ["ro.json", "site"]);
    }

    #[test]
    fn o_writes_through_a_fifo_and_dev_null() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        if !Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            return; // no mkfifo here
        }
        let (o, read) = read_fifo_while(&fifo, || json(&fifo));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            read.starts_with('{') && read.contains("\"patterns\""),
            "{read}"
        );
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names(dir.path()), ["fifo"]);

        let null = Path::new("/dev/null");
        let o = json(null);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn o_dev_stdout_writes_to_the_pipe_or_appends_to_the_file() {
        let o = json(Path::new("/dev/stdout"));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let piped = stdout(&o);
        assert!(piped.starts_with('{'), "{piped}");

        // `mkpat json -o /dev/stdout >> log`: the log is kept.
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        fs::write(&log, "before\n").unwrap();
        let append = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_mkpat"))
            .args([
                "json",
                "--no-helpers",
                path_str(&data("ok/edges.db")),
                "-o",
                "/dev/stdout",
            ])
            .stdout(append)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            fs::read_to_string(&log).unwrap(),
            format!("before\n{piped}")
        );
        assert_eq!(names(dir.path()), ["log"]);
    }

    #[test]
    fn renum_never_overwrites_a_backup() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("patterns.db");
        fs::write(&db, NUMBERED).unwrap();
        fs::write(dir.path().join("patterns.db.bak"), "someone's backup").unwrap();
        let out = renum_ok(&db);
        let bak1 = dir.path().join("patterns.db.bak.1");
        assert!(
            out.ends_with(&format!("the old file is {}\n", bak1.display())),
            "{out}"
        );
        assert_eq!(fs::read_to_string(&bak1).unwrap(), NUMBERED);
        assert_eq!(
            fs::read_to_string(dir.path().join("patterns.db.bak")).unwrap(),
            "someone's backup"
        );
        assert_eq!(fs::read_to_string(&db).unwrap(), renumbered());

        // A second renum of a re-edited file keeps both earlier originals.
        fs::write(&db, NUMBERED.replace("pattern 12", "pattern 13")).unwrap();
        let out = renum_ok(&db);
        assert!(out.contains("patterns.db.bak.2\n"), "{out}");
        assert_eq!(fs::read_to_string(&bak1).unwrap(), NUMBERED);
        assert_eq!(
            fs::read_to_string(dir.path().join("patterns.db.bak.2")).unwrap(),
            NUMBERED.replace("pattern 12", "pattern 13")
        );
        assert_eq!(
            names(dir.path()),
            [
                "patterns.db",
                "patterns.db.bak",
                "patterns.db.bak.1",
                "patterns.db.bak.2"
            ]
        );
    }

    #[test]
    fn renum_with_a_bak_link_to_the_file_keeps_the_original() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("patterns.db");
        fs::write(&db, NUMBERED).unwrap();
        let bak = dir.path().join("patterns.db.bak");
        symlink("patterns.db", &bak).unwrap();
        let out = renum_ok(&db);
        assert!(out.contains("the old file is"), "{out}");
        assert!(is_link(&bak), "the link is left alone");
        assert_eq!(
            fs::read_to_string(dir.path().join("patterns.db.bak.1")).unwrap(),
            NUMBERED,
            "the backup is the original"
        );
        assert_eq!(fs::read_to_string(&db).unwrap(), renumbered());
    }

    #[test]
    fn renum_of_a_symlink_renumbers_its_target_beside_which_the_backup_lies() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/patterns.db");
        fs::write(&target, NUMBERED).unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link.db");
        symlink("real/patterns.db", &link).unwrap();
        let out = renum_ok(&link);
        let bak = dir.path().join("real/patterns.db.bak");
        assert!(
            out.ends_with(&format!("the old file is {}\n", bak.display())),
            "{out}"
        );
        assert!(is_link(&link));
        assert_eq!(fs::read_to_string(&target).unwrap(), renumbered());
        assert_eq!(fs::read_to_string(&bak).unwrap(), NUMBERED);
        assert_eq!(mode(&target), 0o600, "a private file stays private");
        assert_eq!(mode(&bak), 0o600, "and so does its backup");
        assert_eq!(names(dir.path()), ["link.db", "real"]);
    }

    #[test]
    fn renum_refuses_a_read_only_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("patterns.db");
        fs::write(&db, NUMBERED).unwrap();
        fs::set_permissions(&db, fs::Permissions::from_mode(0o444)).unwrap();
        let o = mkpat(&["renum", path_str(&db)]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            format!(
                "mkpat: error: {}: is read-only; not overwritten\n",
                db.display()
            )
        );
        assert_eq!(fs::read_to_string(&db).unwrap(), NUMBERED);
        assert_eq!(mode(&db), 0o444);
        assert_eq!(names(dir.path()), ["patterns.db"]);
    }
}

#[test]
fn renum_keeps_the_personalities_beside_the_database_in_step() {
    use mkpat::personality::{fingerprint, Personality};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("patterns.db");
    std::fs::write(&db, NUMBERED).unwrap();
    let old = fingerprint(mkpat::Dialect::Seed, ["5", "12"]);
    let mine = format!(
        "name = \"mine\"\ndescription = \"cuts\"\ngame = \"go\"\n# written for the old numbers\nfingerprint = \"{old}\"\n\n[patterns]\n# the corner\n\"12\" = 150\n\"5\" = 80 # both fives\n"
    );
    std::fs::create_dir(dir.path().join("personalities")).unwrap();
    let beside = dir.path().join("personalities/mine.toml");
    std::fs::write(&beside, &mine).unwrap();
    let other = "name = \"o\"\ndescription = \"\"\ngame = \"go\"\nfingerprint = \"seed-0\"\n[patterns]\n\"12\" = 1\n";
    let foreign = dir.path().join("other.toml");
    std::fs::write(&foreign, other).unwrap();

    let o = mkpat(&["renum", path_str(&db)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("mine.toml: personality updated"),
        "{}",
        stdout(&o)
    );
    let updated = std::fs::read_to_string(&beside).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("personalities/mine.toml.bak")).unwrap(),
        mine,
        "the backup is the original"
    );
    assert_eq!(
        std::fs::read_to_string(&foreign).unwrap(),
        other,
        "another database's file is left alone"
    );
    assert!(updated.contains("# the corner\n3 = 150\n"), "{updated}");
    assert!(
        updated.contains("1 = 80 # both fives\n2 = 80 # both fives\n"),
        "{updated}"
    );
    // It checks against the renumbered database, weighing the same
    // patterns as before.
    let text = std::fs::read_to_string(&db).unwrap();
    let new = mkpat::compile("patterns.db", text.as_bytes(), &mkpat::Options::default())
        .database
        .expect("the renumbered database compiles");
    let p = Personality::parse(&updated).expect("parses");
    assert!(p.check_database(new.dialect, &new.patterns).is_empty());
    let before = Personality::parse(&mine).unwrap();
    assert!(
        !before.check_database(new.dialect, &new.patterns).is_empty(),
        "the old file no longer fits"
    );
    let o = p.overlay(new.dialect, &new.patterns);
    let weight = |name: &str| {
        let k = new.patterns.iter().position(|q| q.name == name).unwrap();
        o.values(k).go().unwrap().weight
    };
    assert_eq!((weight("1"), weight("2"), weight("3")), (32, 24, 30));
}

#[test]
fn html_and_json_show_each_personalitys_weights() {
    use mkpat::personality::fingerprint;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.db");
    std::fs::write(
        &db,
        "# pattern 1\n\nXO*\n\n:8,50,0,0,0,0,C,0,NULL\n\n# pattern 2\n\nX.*\n\n:8,30,0,0,0,0,-,0,NULL\n",
    )
    .unwrap();
    let fp = fingerprint(mkpat::Dialect::Seed, ["1", "2"]);
    let write = |name: &str, body: &str| {
        let f = dir.path().join(format!("{name}.toml"));
        std::fs::write(
            &f,
            format!("name = \"{name}\"\ndescription = \"d\"\ngame = \"go\"\nfingerprint = \"{fp}\"\n{body}"),
        )
        .unwrap();
        f.display().to_string()
    };
    let doubler = write("doubler", "[patterns]\n\"2\" = 200\n");
    let halver = write("halver", "[classes]\nC = 50\n[engine]\nanything = 3\n");
    let site = dir.path().join("site");
    let o = mkpat(&[
        "html",
        path_str(&db),
        "-o",
        path_str(&site),
        "--personality",
        &doubler,
        &halver,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let data = std::fs::read_to_string(site.join("data.js")).unwrap();
    // Table order: pattern 1 (50) then 2 (30).
    assert!(
        data.contains(r#""name":"doubler","description":"d""#),
        "{data}"
    );
    assert!(data.contains(r#""weights":[[50],[60]]"#), "{data}");
    assert!(data.contains(r#""weights":[[25],[30]]"#), "{data}");
    assert!(data.contains(r#""engine":{"anything":3}"#), "{data}");
    let app = std::fs::read_to_string(site.join("app.js")).unwrap();
    assert!(app.contains("next player") && app.contains("prior player"));

    let o = mkpat(&["json", path_str(&db), "--personality", &doubler]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["schema_version"], mkpat::json::SCHEMA_VERSION);
    assert_eq!(j["kind"], "personality");
    assert_eq!(j["factors"]["patterns"]["2"], 200);
    assert_eq!(j["patterns"][1]["name"], "2");
    assert_eq!(j["patterns"][1]["default"][0], 30);
    assert_eq!(j["patterns"][1]["weights"][0], 60);

    let bad = write("bad", "[patterns]\n\"3\" = 100\n[classes]\nZ = 5\n");
    let o = mkpat(&[
        "html",
        path_str(&db),
        "-o",
        path_str(&site),
        "--personality",
        &bad,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("bad.toml:6:1: error: no pattern of the database is named `3`"),
        "{err}"
    );
    assert!(
        err.contains("bad.toml:8:1: error: unknown class letter `Z`"),
        "{err}"
    );
}
