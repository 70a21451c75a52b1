//! The hexagonal contest's judge (`katachi::contest::judge`) against fake
//! teams (`support/hex_fake_team.sh`): every violation is charged to the
//! team that made it and named in the log, a game between well-behaved
//! teams is played to its end, and a half-written move file is not
//! charged.
#![cfg(feature = "compiler")]

use std::path::{Path, PathBuf};
use std::time::Duration;

use katachi::contest::judge::{random_opening, Judge, Started};
use katachi::contest::log::{parse_log, Ending, Violation};

fn fake() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/hex_fake_team.sh")
}

/// Plays one game, team 1 (`mode1`) first, and returns its ending as the
/// log written and read back says.
fn game(mode1: &str, mode2: &str, limit: Duration) -> (Ending, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = fake().display().to_string();
    let _players = Started::start(
        dir.path(),
        &[
            ("1".into(), format!("bash {f} 1 {mode1}")),
            ("2".into(), format!("bash {f} 2 {mode2}")),
        ],
    )
    .unwrap();
    let judge = Judge::new(dir.path(), ["1".into(), "2".into()], limit);
    let log = judge.play(0, &[]).unwrap();
    let path = judge.write_log(&judge.log_name(0), &log).unwrap();
    assert_eq!(path, dir.path().join("game-log-1-2.txt"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(parse_log("log", &text).unwrap(), log);
    (log.ending.unwrap(), text)
}

fn charged(mode: &str, limit: Duration) -> (Violation, String, String) {
    match game("good", mode, limit) {
        (
            Ending::Violation {
                loser,
                violation,
                detail,
            },
            text,
        ) => {
            assert_eq!(loser, 1, "{text}");
            (violation, detail, text)
        }
        other => panic!("{mode}: {other:?}"),
    }
}

const LIMIT: Duration = Duration::from_secs(3);

#[test]
fn a_cell_already_taken_loses() {
    let (v, detail, text) = charged("taken", LIMIT);
    assert_eq!(v, Violation::Taken);
    assert_eq!(detail, "move 2 on cell 0, already taken");
    assert!(text.contains("\n1 1 0 "), "{text}");
    assert!(
        text.contains("\nresult win 1 taken 2: move 2 on cell 0, already taken\n"),
        "{text}"
    );
}

#[test]
fn a_cell_outside_the_board_loses() {
    let (v, detail, text) = charged("outside", LIMIT);
    assert_eq!(v, Violation::Outside);
    assert_eq!(detail, "move 2 on cell 217, outside 0-216");
    assert!(text.contains("result win 1 outside 2: "), "{text}");
}

#[test]
fn a_malformed_move_file_loses_and_says_where() {
    let (v, detail, _) = charged("malformed", LIMIT);
    assert_eq!(v, Violation::Malformed);
    assert_eq!(
        detail,
        "move_2.txt:1:1: error: expected the move number (a number), found `2,`"
    );
    let (v, detail, _) = charged("renumber", LIMIT);
    assert_eq!(v, Violation::Malformed);
    assert_eq!(detail, "move_2.txt says move 3, the judge asked for move 2");
}

#[test]
fn changing_the_state_file_loses() {
    let (v, detail, _) = charged("tampered", LIMIT);
    assert_eq!(v, Violation::Tampered);
    assert_eq!(detail, "state_2.txt was changed");
}

#[test]
fn no_answer_within_the_limit_loses() {
    // The fake sleeps 30 s: far past the limit however loaded the machine.
    let (v, detail, text) = charged("late", Duration::from_millis(300));
    assert_eq!(v, Violation::Late);
    assert!(
        detail.starts_with("no move_2.txt within 300 ms"),
        "{detail}"
    );
    assert!(
        text.contains("result win 1 late 2: no move_2.txt"),
        "{text}"
    );
}

#[test]
fn well_behaved_teams_play_to_the_end_and_half_written_files_are_waited_for() {
    // Both take the first empty cell: the first team fills the odd
    // cells, and no row of five forms before the board is full.
    let (ending, text) = game("good", "halfway", LIMIT);
    assert_eq!(ending, Ending::FullBoard, "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .count(),
        217
    );
}

#[test]
fn an_opening_is_placed_by_the_judge_and_logged_without_times() {
    let opening = random_opening(3, 7);
    assert_eq!(opening, random_opening(3, 7));
    assert_ne!(opening, random_opening(3, 8));
    let dir = tempfile::tempdir().unwrap();
    let f = fake().display().to_string();
    let _players = Started::start(
        dir.path(),
        &[
            ("a".into(), format!("bash {f} a good")),
            ("b".into(), format!("bash {f} b taken")),
        ],
    )
    .unwrap();
    let judge = Judge::new(dir.path(), ["a".into(), "b".into()], LIMIT);
    // b starts: the opening's odd stones are b's.
    let log = judge.play(1, &opening).unwrap();
    assert_eq!(log.teams, ["b".to_string(), "a".to_string()]);
    assert!(log.moves[..3].iter().all(|m| m.millis.is_none()));
    assert_eq!(
        log.moves.iter().map(|m| m.side).collect::<Vec<_>>()[..3],
        [0, 1, 0]
    );
    // b's fourth move (after a's) takes cell 0 or an opening stone.
    match log.ending {
        Some(Ending::Violation {
            loser: 0,
            violation: Violation::Taken,
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    let state = std::fs::read_to_string(dir.path().join("state_b.txt")).unwrap();
    assert!(state.starts_with("5\n"), "{state}");
}

#[test]
fn bad_team_names_and_openings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let judge = Judge::new(dir.path(), ["1".into(), "../x".into()], LIMIT);
    let e = judge.play(0, &[]).unwrap_err().to_string();
    assert!(e.contains("team `../x`"), "{e}");
    let judge = Judge::new(dir.path(), ["1".into(), "1".into()], LIMIT);
    assert!(judge.play(0, &[]).is_err());
    let judge = Judge::new(dir.path(), ["1".into(), "2".into()], LIMIT);
    let e = judge.play(0, &[5, 5]).unwrap_err().to_string();
    assert!(e.contains("the opening: cell 5"), "{e}");
}
