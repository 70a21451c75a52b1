//! `katachi tournament --game five` end to end: a round robin of the
//! built-in players into `.psq` records that read back and replay to the
//! ledger's results, Gomocup brains as child processes (katachi's own
//! `pbrain-katachi`, and fake brains in bash charged with an illegal
//! move, a crash, a timeout and a malformed reply), resumption, and
//! openings files.
#![cfg(feature = "compiler")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use katachi::five::record::read_psq;
use katachi::five::{FiveBoard, Outcome, Rule};
use katachi::tournament::Fingerprint;
use serde_json::Value;

#[path = "support/tournaments.rs"]
mod support;
use support::{games, line, ok, s, standings};

/// `katachi tournament --game five -p PLAYER … FLAGS…`.
fn tournament(players: &[&str], flags: &[&str]) -> Output {
    support::tournament(&["--game", "five"], players, flags)
}

/// Replays a game's `.psq` record on a board of `rule`: every move legal,
/// as many as the ledger says, and a game ended by the rules ends on its
/// last move with the ledger's winner (or a full board, a draw).
fn replay(dir: &Path, game: &Value, size: usize, rule: Rule) -> Vec<(i32, i32)> {
    let file = game["record"].as_str().unwrap();
    assert!(file.ends_with(".psq"), "{game}");
    let r = read_psq(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
    assert_eq!((r.width, r.height), (size, size));
    assert_eq!(
        r.moves.len() as u64,
        game["moves"].as_u64().unwrap(),
        "{game}"
    );
    let mut b = FiveBoard::new(size, rule).unwrap();
    let mut outcome = None;
    for m in &r.moves {
        outcome = b.play(m.point).unwrap_or_else(|e| panic!("{game}: {e}"));
    }
    if game["ending"] == "rules" {
        let want = match game["winner"].as_str().unwrap() {
            "first" => Some(Outcome::Win(katachi::Color::Black)),
            "second" => Some(Outcome::Win(katachi::Color::White)),
            _ => Some(Outcome::Draw),
        };
        assert_eq!(outcome, want, "{game}");
    }
    r.moves.iter().map(|m| (m.point.i, m.point.j)).collect()
}

#[test]
fn a_round_robin_of_the_built_in_players_is_recorded_and_rated() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let o = tournament(
        &["k=katachi:ms=20", "s=seed", "g=greedy", "r=random"],
        &["--size", "9", "--openings", "1", "-o", s(&out)],
    );
    ok(&o);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.starts_with("12 games;"), "{stdout}");
    assert!(
        stdout.contains("| k |") && stdout.contains("| r |"),
        "{stdout}"
    );
    let all = games(&out);
    assert_eq!(all.len(), 12);
    for g in &all {
        assert!(g["ending"] == "rules", "{g}: not ended by the rules");
        let moves = replay(&out, g, 9, Rule::Freestyle);
        // Every game starts from the one opening: three stones near the
        // centre.
        let opening = replay(&out, &all[0], 9, Rule::Freestyle)[..3].to_vec();
        assert_eq!(moves[..3], opening[..], "{g}");
        assert!(opening
            .iter()
            .all(|&(i, j)| (i - 4).abs() <= 3 && (j - 4).abs() <= 3));
    }
    let v = standings(&out);
    for name in ["k", "s", "g", "r"] {
        assert_eq!(line(&v, name)["games"], 6, "{v}");
        assert!(line(&v, name)["failures"].as_object().unwrap().is_empty());
    }
    // The random player wins nothing against the others.
    assert_eq!(line(&v, "r")["wins"], 0, "{v}");
    for f in ["standings.md", "standings.csv", "tournament.txt"] {
        assert!(out.join(f).exists(), "{f}");
    }
    let identity = std::fs::read_to_string(out.join("tournament.txt")).unwrap();
    assert!(identity.contains("rule Freestyle"), "{identity}");
    // Head to head: six pairs, each once.
    let pairs = std::fs::read_to_string(out.join("pairs.csv")).unwrap();
    assert_eq!(pairs.lines().count(), 7, "{pairs}");
    // Each ledger line's fingerprint is its record's moves'; the repeats
    // named are exactly the games whose players, in the same colours, and
    // moves an earlier game had.
    let mut by_id = all.clone();
    by_id.sort_by_key(|g| g["id"].as_str().unwrap().to_string());
    let mut seen = std::collections::HashMap::new();
    let mut want = Vec::new();
    for g in &by_id {
        let moves = replay(&out, g, 9, Rule::Freestyle);
        let print = Fingerprint::of(moves.iter().copied()).to_string();
        assert_eq!(g["fingerprint"].as_str(), Some(print.as_str()), "{g}");
        let key = (g["first"].to_string(), g["second"].to_string(), moves);
        let id = g["id"].as_str().unwrap();
        match seen.get(&key) {
            Some(earlier) => want.push(serde_json::json!({ "game": id, "of": earlier })),
            None => {
                seen.insert(key, id);
            }
        }
    }
    assert_eq!(v["repeats"], Value::Array(want), "{v}");
    assert_eq!(v["fingerprinted"], 12, "{v}");
}

#[test]
fn katachi_may_play_with_another_database() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let db = concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/five.db");
    let o = tournament(
        &[&format!("k=katachi:ms=10,db={db}"), "r=random"],
        &["--size", "9", "--openings", "1", "-o", s(&out)],
    );
    ok(&o);
    let v = standings(&out);
    assert_eq!(line(&v, "k")["wins"], 2, "{v}");
}

#[test]
fn pbrain_katachi_plays_through_the_gomocup_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let brain = format!("b=gomocup:{}", env!("CARGO_BIN_EXE_pbrain-katachi"));
    // The brain shares 30 s a game between its moves (`timeout_match`,
    // `time_left`), a thirtieth of what is left at most.
    let o = tournament(
        &[&brain, "r=random"],
        &[
            "--size",
            "11",
            "--openings",
            "1",
            "--game-time",
            "30",
            "-o",
            s(&out),
        ],
    );
    ok(&o);
    let all = games(&out);
    assert_eq!(all.len(), 2);
    for g in &all {
        assert_eq!(g["ending"], "rules", "{g}");
        let brain_won = (g["first"] == "b") == (g["winner"] == "first");
        assert!(brain_won, "{g}");
        replay(&out, g, 11, Rule::Freestyle);
    }
}

/// A Gomocup brain in bash: `OK` to `START`, `on_move` when a move is
/// asked (`BEGIN`, `TURN`, `BOARD`'s `DONE`), nothing to the rest.
fn fake_brain(dir: &Path, name: &str, on_move: &str) -> PathBuf {
    support::executable(
        dir.join(name),
        &format!(
            "#!/usr/bin/env bash\n\
             while read -r line; do\n\
               case \"${{line%% *}}\" in\n\
                 START) echo OK ;;\n\
                 BEGIN|TURN|DONE) {on_move} ;;\n\
                 END) exit 0 ;;\n\
               esac\n\
             done\n"
        ),
    )
}

#[test]
fn the_referee_charges_a_brains_illegal_move_crash_timeout_and_nonsense() {
    let tmp = tempfile::tempdir().unwrap();
    // Always 0,0 after a MESSAGE and a DEBUG line: legal once, then on
    // its own stone.
    let illegal = fake_brain(
        tmp.path(),
        "illegal.sh",
        "echo 'MESSAGE thinking'; echo 'DEBUG corner'; echo 0,0",
    );
    let crash = fake_brain(tmp.path(), "crash.sh", "exit 3");
    let slow = fake_brain(tmp.path(), "slow.sh", "sleep 30; echo 0,0");
    let nonsense = fake_brain(tmp.path(), "nonsense.sh", "echo 'I resign'");
    let out = tmp.path().join("t");
    let o = tournament(
        &[
            "g=greedy",
            &format!("bad=gomocup:{}", s(&illegal)),
            &format!("dead=gomocup:{}", s(&crash)),
            &format!("slow=gomocup:{}", s(&slow)),
            &format!("odd=gomocup:{}", s(&nonsense)),
        ],
        &[
            "--gauntlet",
            "--move-time",
            "2",
            "--openings",
            "1",
            "--opening-moves",
            "0",
            "--size",
            "11",
            "-o",
            s(&out),
        ],
    );
    ok(&o);
    let v = standings(&out);
    assert_eq!(line(&v, "g")["wins"], 8, "{v}");
    assert_eq!(line(&v, "bad")["failures"]["illegal"], 2, "{v}");
    assert_eq!(line(&v, "dead")["failures"]["crash"], 2, "{v}");
    // Not waited for: each loss after the 2 s limit and a second's
    // grace, not the brain's 30 s.
    assert_eq!(line(&v, "slow")["failures"]["timeout"], 2, "{v}");
    assert_eq!(line(&v, "odd")["failures"]["crash"], 2, "{v}");
    for g in games(&out) {
        // The illegal brain's first move was read past its MESSAGE and
        // DEBUG lines and played.
        if g["first"] == "bad" || g["second"] == "bad" {
            assert_eq!(g["ending"], "illegal", "{g}");
            assert!(g["moves"].as_u64().unwrap() >= 2, "{g}");
        }
        replay(&out, &g, 11, Rule::Freestyle);
    }
}

/// A Gomocup brain in bash that writes every `INFO` line it is told to
/// `log` and plays the points 1, 2, 3… of row `row` (counting afresh at
/// each `START`).
fn listening_brain(dir: &Path, name: &str, log: &Path, row: u32) -> PathBuf {
    support::executable(
        dir.join(name),
        &format!(
            "#!/usr/bin/env bash\n\
             n=0\n\
             while read -r line; do\n\
               case \"${{line%% *}}\" in\n\
                 START) n=0; echo OK ;;\n\
                 INFO) echo \"$line\" >> '{}' ;;\n\
                 BEGIN|TURN|DONE) n=$((n+1)); echo \"$n,{row}\" ;;\n\
                 END) exit 0 ;;\n\
               esac\n\
             done\n",
            log.display()
        ),
    )
}

#[test]
fn time_odds_give_a_brain_more_time_as_either_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let (log_a, log_b) = (tmp.path().join("a.log"), tmp.path().join("b.log"));
    let a = listening_brain(tmp.path(), "a.sh", &log_a, 3);
    let b = listening_brain(tmp.path(), "b.sh", &log_b, 5);
    let (pa, pb) = (
        format!("a=gomocup:{}", s(&a)),
        format!("b=gomocup:{}", s(&b)),
    );
    let out = tmp.path().join("t");
    let flags = |odds: &'static str| {
        vec![
            "--move-time",
            "2",
            "--game-time",
            "10",
            "--time-odds",
            odds,
            "--openings",
            "1",
            "--opening-moves",
            "0",
            "--size",
            "11",
            "-o",
            s(&out),
        ]
    };
    ok(&tournament(&[&pa, &pb], &flags("a=1.5")));
    // Black's fifth stone wins each game; one each.
    let v = standings(&out);
    assert_eq!(line(&v, "a")["wins"], 1, "{v}");
    assert_eq!(line(&v, "b")["wins"], 1, "{v}");
    let told = |log: &Path| {
        let mut lines: Vec<String> = std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .filter(|l| l.contains("timeout"))
            .map(str::to_string)
            .collect();
        lines.sort();
        lines.dedup();
        lines
    };
    assert_eq!(
        told(&log_a),
        ["INFO timeout_match 15000", "INFO timeout_turn 3000"]
    );
    assert_eq!(
        told(&log_b),
        ["INFO timeout_match 10000", "INFO timeout_turn 2000"]
    );
    let identity = std::fs::read_to_string(out.join("tournament.txt")).unwrap();
    assert!(identity.contains("time odds a = 1.5"), "{identity}");
    // Resuming with other odds is another tournament.
    let o = tournament(&[&pa, &pb], &flags("a=2"));
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("holds another tournament"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Odds for nobody, or not a positive factor, are refused.
    let other = tmp.path().join("u");
    for (odds, why) in [
        ("c=2", "no player is named c"),
        ("a=0", "not a positive number"),
        ("a", "expected NAME=FACTOR"),
    ] {
        let o = tournament(
            &[&pa, &pb],
            &["--time-odds", odds, "--move-time", "1", "-o", s(&other)],
        );
        assert!(!o.status.success(), "{odds}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{odds}: {err}");
    }
}

#[test]
fn a_resumed_five_tournament_equals_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |dir: &Path| {
        let o = tournament(
            &["s=seed", "g=greedy", "r=random"],
            &[
                "--rule",
                "exact",
                "--size",
                "9",
                "--openings",
                "2",
                "--seed",
                "7",
                "-o",
                s(dir),
            ],
        );
        ok(&o);
        o
    };
    let whole = tmp.path().join("whole");
    run(&whole);
    assert_eq!(games(&whole).len(), 12);
    let resumed = tmp.path().join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let ledger = std::fs::read_to_string(whole.join("ledger.jsonl")).unwrap();
    let mut cut: String = ledger.lines().take(5).map(|l| format!("{l}\n")).collect();
    cut += &ledger.lines().nth(5).unwrap()[..30];
    std::fs::write(resumed.join("ledger.jsonl"), cut).unwrap();
    let o = run(&resumed);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the last line is cut short"), "{err}");
    assert!(err.contains("[1/7] g0005"), "{err}");
    assert_eq!(games(&resumed), games(&whole));
    // The replayed games' records are the same moves.
    for g in games(&whole).iter().skip(5) {
        assert_eq!(
            replay(&resumed, g, 9, Rule::Exact),
            replay(&whole, g, 9, Rule::Exact)
        );
    }
    // Another rule over the same folder is another tournament.
    let o = tournament(
        &["s=seed", "g=greedy", "r=random"],
        &[
            "--rule",
            "renju",
            "--size",
            "9",
            "--openings",
            "2",
            "--seed",
            "7",
            "-o",
            s(&resumed),
        ],
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds another tournament"));
}

#[test]
fn gomocup_openings_files_are_played_and_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("openings.txt");
    std::fs::write(&file, "0, 0, 1, 0\n\n-1, -1, 1, 1, 2, 2\n").unwrap();
    let out = tmp.path().join("t");
    let o = tournament(
        &["g=greedy", "r=random"],
        &["--openings-file", s(&file), "-o", s(&out)],
    );
    ok(&o);
    let all = games(&out);
    assert_eq!(all.len(), 4);
    for g in &all {
        let moves = replay(&out, g, 15, Rule::Freestyle);
        let want: &[(i32, i32)] = match g["opening"].as_u64().unwrap() {
            0 => &[(7, 7), (7, 8)],
            _ => &[(6, 6), (8, 8), (9, 9)],
        };
        assert_eq!(&moves[..want.len()], want, "{g}");
    }
    // A bad file: located errors, nothing played.
    std::fs::write(&file, "0, 0, 1\n0, 0, 0, 0\n").unwrap();
    let out2 = tmp.path().join("t2");
    let o = tournament(
        &["g=greedy", "r=random"],
        &["--openings-file", s(&file), "-o", s(&out2)],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("openings.txt:1:"), "{err}");
    assert!(
        err.contains("openings.txt:2:") && err.contains("played twice"),
        "{err}"
    );
    assert!(!out2.join("ledger.jsonl").exists());
}

#[test]
fn go_players_and_bad_sizes_are_refused_for_five() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    for (players, flags, want) in [
        (
            vec!["a=gtp:gnugo", "b=greedy"],
            vec![],
            "a five-in-a-row engine is gomocup:COMMAND",
        ),
        (
            vec!["a=katachi:playouts=10", "b=greedy"],
            vec![],
            "playouts= is Go's option",
        ),
        (
            vec!["a=katachi:ms=10,db=/nonexistent/five.db", "b=greedy"],
            vec![],
            "/nonexistent/five.db",
        ),
        (
            vec!["a=seed", "b=greedy"],
            vec!["--size", "30"],
            "--size 30",
        ),
    ] {
        let mut all = flags.clone();
        all.extend(["-o", s(&out)]);
        let o = tournament(&players, &all);
        assert!(!o.status.success(), "{players:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{players:?}: {err}");
    }
    // And five's players in a Go tournament.
    let o = Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args([
            "tournament",
            "-p",
            "a=seed",
            "-p",
            "b=random",
            "-o",
            s(&out),
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("five in a row only"));
}
