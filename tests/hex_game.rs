//! A whole game of the hexagonal contest through files: two `katachi hex
//! player` processes and the judge in a temporary folder, both orders;
//! and the player's robustness to state files it cannot parse.
#![cfg(feature = "compiler")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use katachi::contest::judge::{Judge, Started};
use katachi::contest::log::{parse_log, Ending};
use katachi::contest::protocol::{parse_move, parse_state, CELLS};

const KATACHI: &str = env!("CARGO_BIN_EXE_katachi");

#[test]
fn two_players_play_whole_games_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let player = |team: &str| {
        (
            team.to_string(),
            format!("{KATACHI} hex player --team {team} --budget 150ms"),
        )
    };
    let _players = Started::start(dir.path(), &[player("3"), player("8")]).unwrap();
    let judge = Judge::new(dir.path(), ["3".into(), "8".into()], Duration::from_secs(5));
    for first in [0, 1] {
        let log = judge.play(first, &[]).unwrap();
        let path = judge.write_log(&judge.log_name(first), &log).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(parse_log("log", &text).unwrap(), log);
        // Neither broke a rule: the game ended on the board.
        match &log.ending {
            Some(Ending::Five { winner, row }) => {
                assert!(row.len() >= 5, "{text}");
                let cells: Vec<u32> = log
                    .moves
                    .iter()
                    .filter(|m| m.side == *winner)
                    .map(|m| m.cell)
                    .collect();
                assert!(row.iter().all(|c| cells.contains(c)), "{text}");
                assert_eq!(log.moves.last().unwrap().side, *winner);
            }
            Some(Ending::FullBoard) => assert_eq!(log.moves.len(), CELLS),
            other => panic!("{other:?}\n{text}"),
        }
        assert!(log.moves.iter().all(|m| m.millis.is_some()));
    }
    let logs = ["game-log-3-8.txt", "game-log-8-3.txt"];
    assert!(logs.iter().all(|l| dir.path().join(l).exists()));
    // The players logged their moves and nothing odd.
    let said = std::fs::read_to_string(dir.path().join("player-3.log")).unwrap();
    assert!(said.lines().all(|l| l.starts_with("move ")), "{said}");
}

/// Runs one player until it has been idle for a while, with `state` as
/// its state file, and returns its move file (if any) and its log.
fn one_answer(dir: &Path, state: &[u8]) -> (Option<String>, String) {
    std::fs::write(dir.join("state_1.txt"), state).unwrap();
    let out = Command::new(KATACHI)
        .args([
            "hex", "player", "--team", "1", "--budget", "100ms", "--idle", "1s",
        ])
        .arg("--dir")
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    let answer = std::fs::read_to_string(dir.join("move_1.txt")).ok();
    // It never touches the state file.
    assert_eq!(std::fs::read(dir.join("state_1.txt")).unwrap(), state);
    (answer, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn bad_state_files_are_logged_and_answered_as_well_as_they_can_be() {
    let dir = tempfile::tempdir().unwrap();
    let mut cells = vec!["0"; CELLS];
    cells[108] = "2";
    cells[5] = "7";
    let state = format!("2\n{}\n", cells.join(" "));
    let (answer, log) = one_answer(dir.path(), state.as_bytes());
    assert!(
        log.contains("state_1.txt:2:11: error: expected 0, 1 or 2 for cell 5, found `7`"),
        "{log}"
    );
    assert!(log.contains("salvaged as move 2"), "{log}");
    let m = parse_move("move_1.txt", answer.unwrap().as_bytes()).unwrap();
    assert_eq!(m.move_number, 2);
    assert!(m.cell != 108 && m.cell < CELLS as u32);

    let dir = tempfile::tempdir().unwrap();
    let (answer, log) = one_answer(dir.path(), b"no number\n0 0 0\n");
    assert_eq!(answer, None);
    assert!(log.contains("no move number; not answered"), "{log}");

    // A board that cannot be move 6's: answered, and said so.
    let dir = tempfile::tempdir().unwrap();
    let mut cells = vec!["0"; CELLS];
    cells[108] = "1";
    let state = format!("6\n{}\n", cells.join(" "));
    assert!(parse_state("s", state.as_bytes()).is_ok());
    let (answer, log) = one_answer(dir.path(), state.as_bytes());
    assert!(
        log.contains("move 6 should follow 2 stones of mine and 3"),
        "{log}"
    );
    assert!(answer.unwrap().starts_with("6 "));
}

#[test]
fn show_draws_a_log_and_a_state_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let log = "katachi hex game log\nfirst 1\nsecond 2\nrule five-or-more\nlimit-ms 5000\n\
               1 1 100 5\n2 2 0 5\n3 1 101 5\n4 2 1 5\n5 1 102 5\n6 2 2 5\n7 1 103 5\n8 2 3 5\n\
               9 1 104 5\nresult win 1 five 100 101 102 103 104\n";
    std::fs::write(dir.path().join("game-log-1-2.txt"), log).unwrap();
    let mut cells = vec!["0"; CELLS];
    cells[108] = "1";
    cells[92] = "2";
    std::fs::write(
        dir.path().join("state_1.txt"),
        format!("3\n{}\n", cells.join(" ")),
    )
    .unwrap();
    let show = |args: &[&str]| {
        Command::new(KATACHI)
            .args(["hex", "show"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    assert!(show(&["game-log-1-2.txt", "-o", "game.svg"])
        .status
        .success());
    let svg = std::fs::read_to_string(dir.path().join("game.svg")).unwrap();
    assert_eq!(svg.matches("<polygon").count(), CELLS);
    assert_eq!(svg.matches("<line").count(), 1, "the winning row");
    assert!(show(&[
        "state_1.txt",
        "-o",
        "state.png",
        "--numbers",
        "--last",
        "92"
    ])
    .status
    .success());
    let png = std::fs::read(dir.path().join("state.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(dir.path().join("bad.txt"), "3\n0 0 9\n").unwrap();
    let out = show(&["bad.txt", "-o", "bad.svg"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("bad.txt:2:5: error: expected 0, 1 or 2 for cell 2, found `9`"),
        "{err}"
    );
    assert!(!dir.path().join("bad.svg").exists());
}
