//! Hostile and awkward inputs through the `katachi` binary: folders of
//! games with bad files and subfolders, Latin-1 games, files over the
//! size limit. Every failure is a located message and a non-zero exit,
//! never an abort of the whole run or a panic.
#![cfg(feature = "compiler")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[path = "support/cli.rs"]
mod cli;
use cli::{katachi, text};

const GOOD: &str = "(;SZ[9];B[ee];W[cc];B[gg])";

/// A folder of games: good ones at the top and in nested subfolders, a
/// bad one in a subfolder, a file that is not SGF, and (on Unix) a link
/// back to the top that must not be walked again.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("sub/deeper")).unwrap();
    std::fs::write(d.join("a.sgf"), GOOD).unwrap();
    std::fs::write(d.join("sub/b.sgf"), GOOD).unwrap();
    std::fs::write(d.join("sub/bad.sgf"), "(;SZ[abc];B[ee])").unwrap();
    std::fs::write(d.join("sub/deeper/c.SGF"), GOOD).unwrap();
    std::fs::write(d.join("sub/notes.txt"), "not a game").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(d, d.join("sub/loop")).unwrap();
    dir
}

#[test]
fn match_walks_subfolders_and_goes_on_past_a_bad_game() {
    let dir = corpus();
    let o = katachi(&["match", "--stats", dir.path().to_str().unwrap()]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(!o.status.success());
    // Three good games of three moves: four positions each.
    assert!(
        out.lines().last().unwrap().contains("over 12 positions"),
        "{out}"
    );
    let bad = dir.path().join("sub/bad.sgf");
    assert_eq!(
        err,
        format!(
            "katachi: error: {}: SZ[abc]: expected the board size, a number from 5 to 19\n\
             katachi: error: 1 of 4 SGF input(s) failed\n",
            bad.display()
        )
    );
}

#[test]
fn hits_walks_subfolders_in_order_and_goes_on_past_a_bad_game() {
    let dir = corpus();
    let o = katachi(&["hits", dir.path().to_str().unwrap()]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(!o.status.success());
    assert!(out.starts_with("3 game(s)\n9 positions;"), "{out}");
    assert!(
        err.contains("sub/bad.sgf: SZ[abc]: expected the board size"),
        "{err}"
    );
    assert!(
        err.ends_with("katachi: error: 1 of 4 SGF input(s) failed\n"),
        "{err}"
    );
    // The good games alone: success, and the same counts.
    let good = katachi(&[
        "hits",
        dir.path().join("a.sgf").to_str().unwrap(),
        dir.path().join("sub/b.sgf").to_str().unwrap(),
        dir.path().join("sub/deeper/c.SGF").to_str().unwrap(),
    ]);
    assert!(good.status.success(), "{}", text(&good.stderr));
    assert_eq!(text(&good.stdout), out);
}

#[test]
fn a_missing_game_is_reported_and_the_others_read() {
    let dir = corpus();
    let missing = dir.path().join("missing.sgf");
    let o = katachi(&[
        "hits",
        missing.to_str().unwrap(),
        dir.path().join("a.sgf").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o.stdout).starts_with("1 game(s)\n"));
    let err = text(&o.stderr);
    assert!(
        err.starts_with(&format!(
            "katachi: error: {}: cannot read the file: ",
            missing.display()
        )),
        "{err}"
    );
    assert!(err.ends_with("1 of 2 SGF input(s) failed\n"), "{err}");
}

#[test]
fn latin1_games_load_everywhere() {
    let game = root("tests/data/sgf/latin1.sgf");
    assert!(std::str::from_utf8(&std::fs::read(&game).unwrap()).is_err());
    let game = game.to_str().unwrap();
    let o = katachi(&["match", "--stats", game]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("over 5 positions"));
    let o = katachi(&["explain", "-l", game, "-L", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("before move 3 (2 of 4 moves replayed)"));
    let o = katachi(&["hits", game]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut gtp = Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(["gtp", "--playouts", "0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    write!(gtp.stdin.take().unwrap(), "1 loadsgf {game}\n2 quit\n").unwrap();
    let o = gtp.wait_with_output().unwrap();
    // Four moves replayed: black to move.
    assert_eq!(text(&o.stdout), "=1 black\n\n=2\n\n");
}

#[test]
fn files_over_the_size_limit_are_refused_with_the_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let limit = katachi::input::MAX_INPUT_BYTES;
    let want = format!(
        "is {} bytes, more than the 67108864-byte (64 MiB) limit",
        limit + 1
    );
    // Sparse files: over the limit without the bytes being written.
    let big = |name: &str| {
        let path = dir.path().join(name);
        std::fs::File::create(&path)
            .unwrap()
            .set_len(limit + 1)
            .unwrap();
        path.to_str().unwrap().to_string()
    };
    let positions = big("big.txt");
    let db = big("big.db");
    let sgf = big("big.sgf");
    let small = root("tests/data/positions/sample.txt");
    let small = small.to_str().unwrap();
    let game = root("tests/data/sgf/capture.sgf");
    let game = game.to_str().unwrap().to_string();
    for (args, path) in [
        (vec!["match", &positions], &positions),
        (vec!["match", "--db", &db, small], &db),
        (vec!["explain", "-l", &game, "--db", &db], &db),
        (vec!["gtp", "--db", &db], &db),
        (vec!["match", &sgf], &sgf),
        (vec!["explain", "-l", &sgf], &sgf),
        (vec!["hits", &sgf], &sgf),
    ] {
        let o = katachi(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!("{path}: the file {want}")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_positions_file_with_a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.txt");
    std::fs::write(&path, b"\xEF\xBB\xBFto_move X\n3\n.X.\nO..\n...\n").unwrap();
    let o = katachi(&["match", "--stats", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("over 1 positions"));
}

#[test]
fn a_hexagonal_database_on_square_positions_is_a_typed_error() {
    let db = root("patterns/hexagon.db");
    let positions = root("tests/data/positions/sample.txt");
    let o = katachi(&[
        "match",
        "--db",
        db.to_str().unwrap(),
        positions.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("the database is for hexagon boards, not square ones"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// `katachi gtp --move-time` takes a time in seconds: nothing else starts
/// a session, and a good one plays.
#[test]
fn the_move_time_is_a_positive_number_of_seconds() {
    for bad in ["0", "-1", "nan", "inf", "2s", "4000"] {
        let o = katachi(&["gtp", &format!("--move-time={bad}")]);
        assert!(!o.status.success(), "{bad}");
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!("`{bad}` is not a time in seconds")),
            "{bad}: {err}"
        );
    }
    let mut gtp = Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(["gtp", "--move-time", "0.05", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    write!(
        gtp.stdin.take().unwrap(),
        "boardsize 9\nclear_board\ngenmove b\nquit\n"
    )
    .unwrap();
    let o = gtp.wait_with_output().unwrap();
    assert!(o.status.success());
    let out = text(&o.stdout);
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert!(
        answers[2].starts_with("= ") && answers[2].len() > 2,
        "{out}"
    );
}
