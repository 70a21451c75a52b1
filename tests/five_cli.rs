//! The five-in-a-row command line: `katachi explain` on piskvork records
//! and the run-time database flag of `katachi play`, as a user runs them.
#![cfg(feature = "compiler")]

use std::path::Path;

#[path = "support/cli.rs"]
mod cli;
use cli::{katachi, text};

/// A `.psq` record of `moves` as (row, column), Black first.
fn psq(dir: &Path, name: &str, moves: &[(i32, i32)]) -> String {
    let mut s = String::from("Piskvorky 15x15, 11:11, 0\n");
    for &(i, j) in moves {
        s += &format!("{},{},120\n", j + 1, i + 1);
    }
    let path = dir.join(name);
    std::fs::write(&path, s).unwrap();
    path.to_string_lossy().into_owned()
}

/// Black's two threes, each closed at one end by White, meet at (7,7):
/// playing it makes two fours at once, a win by fours.
const DOUBLE_FOUR: [(i32, i32); 12] = [
    (7, 4),
    (7, 3),
    (7, 5),
    (3, 7),
    (7, 6),
    (0, 0),
    (4, 7),
    (0, 14),
    (5, 7),
    (14, 0),
    (6, 7),
    (14, 14),
];

#[test]
fn explain_on_a_record_finds_the_double_four_and_shows_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let game = psq(dir.path(), "double.psq", &DOUBLE_FOUR);
    let o = katachi(&["explain", "-l", &game, "--top", "3", "--depth", "4"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}{out}", text(&o.stderr));
    assert!(
        out.contains("before move 13 (12 of 12 moves replayed), Freestyle"),
        "{out}"
    );
    // The move in Gomocup's x,y: column 7, row 7.
    assert!(
        out.contains("black to move plays 7,7: a forced win by fours: 7,7"),
        "{out}"
    );
    // The board: the last move bracketed, the chosen point numbered 1.
    assert!(out.contains("[O]"), "{out}");
    let row7 = out
        .lines()
        .find(|l| l.starts_with("  7 "))
        .expect("row 7 drawn");
    assert_eq!(row7.split_whitespace().nth(8), Some("1"), "{row7}");
    assert!(out.contains("makes four"), "{out}");
}

#[test]
fn explain_until_replays_part_of_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let game = psq(dir.path(), "double.psq", &DOUBLE_FOUR);
    // Before move 12 White is to move, and Black threatens the double
    // four: White takes the point or loses.
    let o = katachi(&["explain", "-l", &game, "-L", "12", "--depth", "4"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}{out}", text(&o.stderr));
    assert!(out.contains("(11 of 12 moves replayed)"), "{out}");
    assert!(out.contains("white to move plays 7,7"), "{out}");
}

#[test]
fn explain_by_depth_prints_each_candidates_score_at_each_depth() {
    let dir = tempfile::tempdir().unwrap();
    let game = psq(dir.path(), "double.psq", &DOUBLE_FOUR);
    let o = katachi(&[
        "explain",
        "-l",
        &game,
        "-L",
        "12",
        "--depth",
        "3",
        "--top",
        "3",
        "--by-depth",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}{out}", text(&o.stderr));
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("the main search's score of each"))
        .collect();
    assert_eq!(table.len(), 5, "{out}");
    assert_eq!(
        table[1].split_whitespace().collect::<Vec<_>>(),
        ["depth", "1", "2", "3"]
    );
    // The chosen point, numbered 1 on the board, heads the rows: taking
    // the double four's point scores above letting Black play it, which
    // loses within three plies.
    assert!(table[2].starts_with("  1    7,7 "), "{out}");
    let taken: Vec<i64> = table[2]
        .split_whitespace()
        .skip(2)
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(taken.len(), 3, "{out}");
    // Every other point lets the double four be played: lost, the five
    // a few plies away.
    for row in &table[3..] {
        assert!(row.ends_with(" lost 4"), "{out}");
    }
    // Without the flag, no table.
    let plain = katachi(&["explain", "-l", &game, "-L", "12", "--depth", "3"]);
    assert!(!text(&plain.stdout).contains("depth by depth"));
}

#[test]
fn a_broken_record_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.psq");
    std::fs::write(&path, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,16,0\n").unwrap();
    let path = path.to_string_lossy().into_owned();
    let o = katachi(&["explain", "-l", &path]);
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains(&format!("{path}:3:1: error:")), "{err}");
    assert!(err.contains("8,16,0\n^"), "{err}");
}

#[test]
fn a_record_that_breaks_the_rule_is_refused_with_the_move() {
    let dir = tempfile::tempdir().unwrap();
    // Black's overline at (7,5) under renju: forbidden to Black.
    let moves = [
        (7, 2),
        (0, 0),
        (7, 3),
        (0, 2),
        (7, 4),
        (0, 4),
        (7, 6),
        (0, 6),
        (7, 7),
        (0, 8),
        (7, 5),
    ];
    let game = psq(dir.path(), "overline.psq", &moves);
    let o = katachi(&["explain", "-l", &game, "--rule", "renju"]);
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("move 11 (5,7) cannot be played under Renju"),
        "{err}"
    );
    // Freestyle: the same record is a finished game, Black's six.
    let o = katachi(&["explain", "-l", &game]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("no move (the game is over)"));
}

#[test]
fn explain_and_play_compile_a_database_given_at_run_time() {
    let dir = tempfile::tempdir().unwrap();
    let game = psq(dir.path(), "double.psq", &DOUBLE_FOUR);
    let own = dir.path().join("mine.db");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("patterns/five.db"),
        &own,
    )
    .unwrap();
    let own = own.to_string_lossy().into_owned();
    let o = katachi(&["explain", "-l", &game, "--db", &own, "--depth", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("plays 7,7"));

    // A broken database: every error located, and neither command runs.
    let bad = dir.path().join("bad.db");
    let broken = std::fs::read_to_string(&own)
        .unwrap()
        .replacen(":line,", ":lnie,", 1);
    std::fs::write(&bad, broken).unwrap();
    let bad = bad.to_string_lossy().into_owned();
    for args in [
        vec!["explain", "-l", &game, "--db", &bad],
        vec!["play", "--db", &bad],
    ] {
        let o = katachi(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(&format!("{bad}:")), "{args:?}: {err}");
        assert!(err.contains('^'), "{args:?}: {err}");
    }
}
