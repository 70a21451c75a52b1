//! `katachi tournament --game hex` end to end: players of the contest's
//! file protocol (`katachi hex player` processes, and fake ones in `sh`
//! that answer late, with nonsense or on a taken cell) against the
//! built-in players, through the judge's own exchange; records in the
//! judge's log format that replay to the ledger's results; what the
//! hexagon refuses.
#![cfg(feature = "compiler")]

use std::path::Path;
use std::process::Output;

use katachi::contest::log::{parse_log, Ending, Violation};
use katachi::five::{FiveBoard, Outcome, Rule};
use katachi::hexagon::{HexLayout, CONTEST_SIDE};
use serde_json::Value;

#[path = "support/tournaments.rs"]
mod support;
use support::{games, line, ok, s, standings};

const KATACHI: &str = env!("CARGO_BIN_EXE_katachi");

fn tournament(players: &[&str], flags: &[&str]) -> Output {
    support::tournament(&["--game", "hex"], players, flags)
}

/// Reads a game's log and replays it on the contest's board: the ledger's
/// players in order, its number of moves, every move legal, and the
/// ending the ledger says (a five on the last move, a full board, the
/// failing player's violation, or none for a game stopped at the move
/// cap); the `opening` stones the referee placed have no time, the
/// players' moves have theirs. Returns the ending.
fn replay(dir: &Path, game: &Value, opening: usize) -> Option<Ending> {
    let file = game["record"].as_str().unwrap();
    assert!(file.ends_with(".txt"), "{game}");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let log = parse_log(file, &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(log.teams[0], game["first"].as_str().unwrap());
    assert_eq!(log.teams[1], game["second"].as_str().unwrap());
    assert_eq!(log.moves.len() as u64, game["moves"].as_u64().unwrap());
    let layout = HexLayout::new(CONTEST_SIDE);
    let mut b = FiveBoard::hexagon(CONTEST_SIDE, Rule::Freestyle).unwrap();
    let mut outcome = None;
    for (k, m) in log.moves.iter().enumerate() {
        assert_eq!(m.millis.is_none(), k < opening, "{text}");
        let p = layout.point(m.cell as usize).unwrap();
        outcome = b.play(p).unwrap_or_else(|e| panic!("{game}: {e}"));
    }
    let Some(ending) = log.ending.clone() else {
        assert_eq!(game["ending"], "cap", "{game}\n{text}");
        assert_eq!(game["winner"], "draw", "{game}");
        assert_eq!(outcome, None);
        return None;
    };
    let winner = match &ending {
        Ending::Five { winner, row } => {
            assert!(matches!(outcome, Some(Outcome::Win(_))), "{text}");
            assert!(row.contains(&log.moves.last().unwrap().cell), "{text}");
            Some(*winner)
        }
        Ending::FullBoard => {
            assert_eq!(outcome, Some(Outcome::Draw), "{text}");
            None
        }
        Ending::Violation { loser, .. } => Some(1 - loser),
    };
    let ledger_winner = match game["winner"].as_str().unwrap() {
        "first" => Some(0),
        "second" => Some(1),
        _ => None,
    };
    assert_eq!(winner, ledger_winner, "{game}\n{text}");
    Some(ending)
}

#[test]
fn contest_players_play_built_in_ones_through_the_file_protocol() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let greedy_file = format!(
        "filegreedy=file:{KATACHI} hex player --team {{team}} --dir {{dir}} --engine greedy"
    );
    // The cap keeps the test short (a game stopped there is a draw):
    // greedy against greedy fills the board.
    let flags = |out: &Path| -> Vec<String> {
        [
            "--openings",
            "1",
            "--seed",
            "3",
            "--cap",
            "60",
            "-o",
            s(out),
        ]
        .map(String::from)
        .into()
    };
    let flags1 = flags(&out);
    let flags1: Vec<&str> = flags1.iter().map(String::as_str).collect();
    let o = tournament(&[&greedy_file, "r=random", "k=katachi:ms=50"], &flags1);
    ok(&o);
    let all = games(&out);
    assert_eq!(all.len(), 6);
    for g in &all {
        replay(&out, g, 2);
    }
    let v = standings(&out);
    assert_eq!(line(&v, "k")["games"], 4, "{v}");
    // The file player ran in its own folder, the protocol's files there.
    let folder = out.join("players").join("filegreedy");
    assert!(folder.join("state_filegreedy.txt").is_file());
    assert!(folder.join("player-filegreedy.log").is_file());
    // Its moves are the built-in greedy player's: the same game.
    let out2 = tmp.path().join("t2");
    let flags2 = flags(&out2);
    let flags2: Vec<&str> = flags2.iter().map(String::as_str).collect();
    let o = tournament(
        &["filegreedy=greedy", "r=random", "k=katachi:ms=50"],
        &flags2,
    );
    ok(&o);
    let strip = |games: Vec<Value>| -> Vec<Value> {
        games
            .into_iter()
            .filter(|g| g["first"] != "k" && g["second"] != "k")
            .map(|mut g| {
                let o = g.as_object_mut().unwrap();
                o.remove("id");
                o.remove("record");
                g
            })
            .collect()
    };
    assert_eq!(strip(all), strip(games(&out2)));
}

/// A contest player in `sh`: every time a state file asks for another
/// move number, runs `on_move` (with `$n` that number) in its folder.
/// (The move numbers a fake is asked never repeat from one game to the
/// next here: each plays one or two moves a game.)
fn fake_player(on_move: &str) -> String {
    format!(
        "file:sh -c 'seen=; while :; do if [ -f state_{{team}}.txt ]; then \
         n=$(head -n 1 state_{{team}}.txt); \
         if [ \"$n\" != \"$seen\" ]; then seen=$n; {on_move}; fi; fi; \
         sleep 0.02; done'"
    )
}

#[test]
fn the_referee_charges_late_malformed_and_taken_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let late = format!("late={}", fake_player("sleep 5"));
    let nonsense = format!(
        "odd={}",
        fake_player("echo \"$n seventeen\" > move_{team}.txt")
    );
    // Always the centre, 108: taken by the opening or its own first stone.
    let taken = format!("taken={}", fake_player("echo \"$n 108\" > move_{team}.txt"));
    let o = tournament(
        &["g=greedy", &late, &nonsense, &taken],
        &[
            "--gauntlet",
            "--move-time",
            "1",
            "--openings",
            "1",
            "--opening-moves",
            "1",
            "-o",
            s(&out),
        ],
    );
    ok(&o);
    let v = standings(&out);
    assert_eq!(line(&v, "g")["wins"], 6, "{v}");
    assert_eq!(line(&v, "late")["failures"]["timeout"], 2, "{v}");
    assert_eq!(line(&v, "odd")["failures"]["crash"], 2, "{v}");
    assert_eq!(line(&v, "taken")["failures"]["illegal"], 2, "{v}");
    for g in games(&out) {
        let Some(Ending::Violation {
            violation, detail, ..
        }) = replay(&out, &g, 1)
        else {
            panic!("{g}")
        };
        let who = if g["first"] == "g" {
            &g["second"]
        } else {
            &g["first"]
        };
        let want = match who.as_str().unwrap() {
            "late" => Violation::Late,
            "odd" => Violation::Malformed,
            _ => Violation::Taken,
        };
        assert_eq!(violation, want, "{g}: {detail}");
        if want == Violation::Malformed {
            assert!(detail.contains("move_odd.txt"), "{detail}");
        }
    }
}

#[test]
fn what_the_hexagon_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    for (players, flags, says) in [
        (
            vec!["a=greedy", "b=random"],
            vec!["--rule", "renju"],
            "freestyle or exact",
        ),
        (vec!["a=greedy", "b=random"], vec!["--size", "15"], "side 9"),
        (vec!["a=greedy", "b=seed"], vec![], "line-records"),
        (
            vec!["a=greedy", "b=gomocup:pbrain-x"],
            vec![],
            "file:COMMAND",
        ),
        (
            vec!["a=greedy", "b=file:katachi hex player"],
            vec![],
            "{team}",
        ),
        (vec!["a=greedy", "b=katachi:db=x.db"], vec![], "hexfive.db"),
    ] {
        let mut f = flags.clone();
        f.extend(["-o", s(&out)]);
        let o = tournament(&players, &f);
        assert!(!o.status.success(), "{players:?} {flags:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{players:?} {flags:?}: {err}");
    }
    // And five in a row on the square board refuses a contest player.
    let o = support::tournament(
        &["--game", "five"],
        &["a=greedy", "b=file:x --team {team}"],
        &["-o", s(&out)],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--game hex"));
}
