//! `pbrain-katachi` as a manager starts it: a session on its standard
//! input and output, and `--db FILE` for another five-in-a-row database
//! (located errors and a non-zero exit when it does not compile).
#![cfg(feature = "compiler")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn brain(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-katachi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbrain-katachi starts");
    // A brain that refuses to start (a bad database) may exit before it
    // reads its input: a broken pipe then is the brain's answer, not the
    // test's failure; its exit status and stderr say the rest.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_session_plays_and_a_database_may_replace_the_builtin_one() {
    let o = brain(&[], "START 15\nBEGIN\nEND\n");
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), "OK\n7,7\n");
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("mine.db");
    std::fs::write(
        &good,
        "dialect: five\n\nPattern f\n*OOOO\n\n:line,five,100,90\n",
    )
    .unwrap();
    // White to move after Black's four: the database's one pattern
    // proposes the points where Black would make five, and one is taken.
    let o = brain(
        &["--db", good.to_str().unwrap()],
        "START 15\nBOARD\n5,7,2\n6,7,2\n7,7,2\n8,7,2\n0,0,1\n1,0,1\n14,14,1\nDONE\nEND\n",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out == "OK\n4,7\n" || out == "OK\n9,7\n", "{out}");
}

#[test]
fn a_searched_move_is_logged_with_its_depth_and_score() {
    use std::io::{BufRead, BufReader};
    // A quiet position (no four, no forced win): the answer is the
    // search's, and a DEBUG line before it says how deep it went. END is
    // sent only after the answer, since the brain stops thinking when a
    // command arrives.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-katachi"))
        .args(["--nodes", "20000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbrain-katachi starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"START 15\nBOARD\n7,7,1\n8,8,2\n6,8,1\nDONE\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || lines.next().expect("a line").expect("text");
    assert_eq!(next(), "OK");
    let debug = next();
    assert!(searched_depth(&debug).is_some_and(|d| d >= 2), "{debug}");
    assert!(debug.contains(": score "), "{debug}");
    let answer = next();
    let xy: Vec<u32> = answer.split(',').map(|v| v.parse().unwrap()).collect();
    assert!(xy.len() == 2 && xy.iter().all(|&v| v < 15), "{answer}");
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// `--max-depth` caps the main search's iterations: on a quiet position
/// (no four, no forced win) with nodes enough for more, the brain reports
/// the capped depth, and without the cap a deeper one. Out of range is
/// refused by the parser.
#[test]
fn the_main_search_stops_at_the_depth_asked() {
    let session = "START 15\nINFO rule 1\nBOARD\n7,7,1\n8,8,2\n6,8,1\nDONE\n";
    for cap in ["1", "3"] {
        let (debug, answer) = debug_and_answer(&["--nodes", "40000", "--max-depth", cap], session);
        assert_eq!(searched_depth(&debug), cap.parse().ok(), "{debug}");
        assert!(answer.split(',').count() == 2, "{answer}");
    }
    let (debug, _) = debug_and_answer(&["--nodes", "40000"], session);
    assert!(searched_depth(&debug).is_some_and(|d| d > 3), "{debug}");
    for bad in ["0", "41", "deep"] {
        let o = brain(&["--max-depth", bad], "START 15\nEND\n");
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("--max-depth"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn a_bad_database_is_reported_located_and_the_brain_does_not_start() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.db");
    std::fs::write(
        &bad,
        "dialect: five\n\nPattern f\n=OOO*=\n\n:line,four,1,1\n",
    )
    .unwrap();
    let o = brain(&["--db", bad.to_str().unwrap()], "START 15\nBEGIN\n");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.db:6:7: error: declared `four`"), "{err}");
    assert!(err.contains("^^^^"), "{err}");
    assert!(o.stdout.is_empty());
    let o = brain(&["--db", "/nonexistent/five.db"], "");
    assert_eq!(o.status.code(), Some(1));
    let o = brain(&["--help"], "");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("--db <FILE>"));
}

/// The depth a `DEBUG searched to depth D: score S` line reports (`None`
/// for any other line).
fn searched_depth(debug: &str) -> Option<u32> {
    debug
        .strip_prefix("DEBUG searched to depth ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|d| d.parse().ok())
}

/// The brain's `DEBUG` line and answer to `session` (ending in `DONE` or
/// `BEGIN`), with END sent only after the answer: the brain stops
/// thinking when a command arrives.
fn debug_and_answer(args: &[&str], session: &str) -> (String, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-katachi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbrain-katachi starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(session.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || lines.next().expect("a line").expect("text");
    assert_eq!(next(), "OK");
    let debug = next();
    let answer = next();
    stdin.write_all(b"END\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (debug, answer)
}

#[test]
fn a_long_threat_sequence_is_logged_and_either_threat_search_may_be_chosen() {
    // White (the brain: fewer stones) to move wins by threes and fours
    // in nine or ten moves of its own under exactly five (the engine's
    // `DEEP_VCT` test position).
    const DEEP: [&str; 10] = [
        "...............",
        "...............",
        "...............",
        ".....O.........",
        "......X........",
        ".......X.......",
        "..X.....X......",
        "...OX..........",
        "...OOX.........",
        ".....O.........",
    ];
    let mut session = String::from("START 15\nINFO rule 1\nBOARD\n");
    for (y, row) in DEEP.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'O' => session.push_str(&format!("{x},{y},1\n")),
                'X' => session.push_str(&format!("{x},{y},2\n")),
                _ => {}
            }
        }
    }
    session.push_str("DONE\n");
    let (debug, _) = debug_and_answer(&["--nodes", "600000"], &session);
    let moves = debug
        .strip_prefix("DEBUG a win by threes and fours in ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse::<u32>().ok());
    assert!(moves.is_some_and(|n| n >= 9), "{debug}");
    let (debug, _) = debug_and_answer(&["--threats", "depth-first", "--nodes", "600000"], &session);
    assert!(
        debug.starts_with("DEBUG a win by threes and fours in "),
        "{debug}"
    );
    let o = brain(&["--threats", "sideways"], "START 15\nEND\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("proof-number"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The move predictor: a table that makes the points next to the last
/// move far the strongest decides the move of a search given one node
/// (the root's first candidate), so the answer lies next to the stone
/// the session reported last: the brain replays the stones as moves in
/// the order they came. The built-in table (`--predictor`) and none (the
/// default) play legal moves; a bad table is reported located and the
/// brain does not start.
#[test]
fn a_move_predictor_orders_the_root_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let near_last = dir.path().join("near-last.gamma");
    std::fs::write(&near_last, "# next to the last move\nlast 2 1e6\n").unwrap();
    let table = near_last.to_str().unwrap();
    for (stones, last) in [
        ("7,7,1\n8,8,2\n5,9,1\n10,6,2\n", (10, 6)),
        ("7,7,1\n10,6,2\n5,9,1\n8,8,2\n", (8, 8)),
    ] {
        let session = format!("START 15\nINFO rule 1\nBOARD\n{stones}DONE\n");
        let (_, answer) = debug_and_answer(&["--nodes", "1", "--predictor-table", table], &session);
        let xy: Vec<i32> = answer.split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(
            (xy[0] - last.0).abs() + (xy[1] - last.1).abs(),
            1,
            "{answer} next to {last:?}"
        );
    }
    let session = "START 15\nINFO rule 4\nBOARD\n7,7,1\n8,8,2\n6,8,1\nDONE\n";
    for args in [
        &["--nodes", "20000"][..],
        &["--nodes", "20000", "--predictor"],
    ] {
        let (debug, answer) = debug_and_answer(args, session);
        assert!(debug.starts_with("DEBUG searched to depth"), "{debug}");
        assert!(
            !["7,7", "8,8", "6,8"].contains(&answer.as_str()),
            "{answer}"
        );
        // The same answer again: the brain is deterministic.
        assert_eq!(debug_and_answer(args, session).1, answer);
    }
    let bad = dir.path().join("bad.gamma");
    std::fs::write(&bad, "mine 3 2.0\nlast two 1.0\nedge 1 -4\n").unwrap();
    let o = brain(&["--predictor-table", bad.to_str().unwrap()], "START 15\n");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.gamma:2:6: expected a feature value"),
        "{err}"
    );
    assert!(
        err.contains("bad.gamma:3:8: expected a strength above zero"),
        "{err}"
    );
    assert!(err.contains("     ^"), "{err}");
    assert!(o.stdout.is_empty());
    let o = brain(&["--predictor", "--predictor-table", table], "");
    assert_eq!(o.status.code(), Some(2));
}

/// A leaf table scores the search's leaves: with only `two` weighed (a
/// million a match of the opponent's, that is of the brain's own once it
/// has moved) and no move in hand, a one-ply search's score is a whole
/// number of millions, and the opposite table (the brain's twos a
/// million each against it) chooses another point. The built-in
/// table's rule and the pattern sums (`--pattern-sums`) play legal
/// moves; a bad table is reported located, every bad line, and the brain
/// does not start; `--leaf` and `--pattern-sums` together are refused.
#[test]
fn a_leaf_table_scores_the_leaves_when_given() {
    let dir = tempfile::tempdir().unwrap();
    let session = "START 15\nINFO rule 1\nBOARD\n7,7,1\n8,8,2\nDONE\n";
    let mut answers = Vec::new();
    for (name, weight) in [("more-twos", 1_000_000), ("fewer-twos", -1_000_000)] {
        let path = dir.path().join(format!("{name}.leaf"));
        std::fs::write(&path, format!("move-in-hand 0\ntwo 0 {weight}\n")).unwrap();
        let args = [
            "--max-depth",
            "1",
            "--nodes",
            "20000",
            "--leaf",
            path.to_str().unwrap(),
        ];
        let (debug, answer) = debug_and_answer(&args, session);
        let score: i64 = debug
            .rsplit("score ")
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{debug}"));
        assert!(score != 0 && score % 1_000_000 == 0, "{name}: {debug}");
        answers.push(answer);
    }
    assert_ne!(answers[0], answers[1]);
    for args in [
        &["--nodes", "20000"][..],
        &["--nodes", "20000", "--pattern-sums"],
    ] {
        let (debug, answer) = debug_and_answer(args, session);
        assert!(debug.starts_with("DEBUG searched to depth"), "{debug}");
        assert!(!["7,7", "8,8"].contains(&answer.as_str()), "{answer}");
    }
    let bad = dir.path().join("bad.leaf");
    std::fs::write(&bad, "two 1 x\nopen-four 3\nmove-in-hand 50\n").unwrap();
    let o = brain(&["--leaf", bad.to_str().unwrap()], "START 15\n");
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.leaf:1:7: expected a whole number"),
        "{err}"
    );
    assert!(
        err.contains("bad.leaf:2:12: `open-four` takes 2 numbers"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
    let o = brain(&["--leaf", bad.to_str().unwrap(), "--pattern-sums"], "");
    assert_eq!(o.status.code(), Some(2));
    // Point classes are read along a line table's lines: a database
    // whose pattern reaches five steps has none, and a table with
    // `point` lines is refused with it, one without them played.
    let far = dir.path().join("far.db");
    std::fs::write(
        &far,
        "dialect: five\n\nPattern far\n*....O\n\n:line,shape,10,10\n",
    )
    .unwrap();
    let points = dir.path().join("points.leaf");
    std::fs::write(&points, "two 1 1\npoint four-three 5 5\n").unwrap();
    let kinds = dir.path().join("kinds.leaf");
    std::fs::write(&kinds, "two 1 1\n").unwrap();
    let db = far.to_str().unwrap();
    let o = brain(
        &["--db", db, "--leaf", points.to_str().unwrap()],
        "START 15\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("points.leaf: the table weighs point classes"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
    let o = brain(
        &["--db", db, "--leaf", kinds.to_str().unwrap()],
        "START 15\nEND\n",
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "OK");
    // With the built-in database's line table, the point table plays.
    let (debug, _) = debug_and_answer(
        &["--nodes", "20000", "--leaf", points.to_str().unwrap()],
        session,
    );
    assert!(debug.starts_with("DEBUG searched to depth"), "{debug}");
}
