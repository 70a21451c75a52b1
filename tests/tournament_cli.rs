//! `katachi tournament` end to end: shards merged equal the whole run,
//! a resumed run equals an uninterrupted one, and the referee charges an
//! engine that plays an illegal move or crashes.
#![cfg(feature = "compiler")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn katachi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(args)
        .output()
        .expect("katachi runs")
}

#[path = "support/tournaments.rs"]
mod support;
use support::{games, s};

/// `katachi tournament -p PLAYER … FLAGS…`.
fn tournament(players: &[&str], flags: &[&str]) -> Output {
    support::tournament(&[], players, flags)
}

/// Three players, 7x7, one opening of two moves: 6 games.
fn play(out: &Path, extra: &[&str]) -> Output {
    let mut flags = vec![
        "--openings",
        "2",
        "--opening-moves",
        "2",
        "--size",
        "7",
        "--cap",
        "120",
        "--seed",
        "5",
        "-o",
        s(out),
    ];
    flags.extend_from_slice(extra);
    let o = tournament(&["a=random", "b=random", "k=katachi"], &flags);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The standings without the time column.
fn standings(json: &str) -> Value {
    let mut v: Value = serde_json::from_str(json).unwrap();
    for p in v["players"].as_array_mut().unwrap() {
        p.as_object_mut().unwrap().remove("seconds_per_move");
    }
    v
}

#[test]
fn shards_merged_equal_the_whole_run_and_a_resumed_run_an_uninterrupted_one() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let o = play(&whole, &[]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.starts_with("12 games;"), "{text}");
    assert_eq!(games(&whole).len(), 12);
    for k in 0..12 {
        assert!(whole.join(format!("g{k:04}.sgf")).exists());
    }
    // Every pairing played each opening twice, colours swapped.
    let all = games(&whole);
    for (x, y) in [("a", "b"), ("a", "k"), ("b", "k")] {
        for opening in 0..2 {
            let n = |f: &str, g: &str| {
                all.iter()
                    .filter(|v| v["first"] == f && v["second"] == g && v["opening"] == opening)
                    .count()
            };
            assert_eq!((n(x, y), n(y, x)), (1, 1), "{x} {y} {opening}");
        }
    }
    // Each game's moves are fingerprinted; the shards and the resumed run
    // below play the same moves, so their ledgers, fingerprints included,
    // equal this one.
    for v in &all {
        let f = v["fingerprint"].as_str().unwrap_or_default();
        assert!(
            f.len() == 16 && f.chars().all(|c| c.is_ascii_hexdigit()),
            "{v}"
        );
    }

    // Three shards, merged.
    let parts: Vec<PathBuf> = (1..=3)
        .map(|k| tmp.path().join(format!("part{k}")))
        .collect();
    for (k, p) in parts.iter().enumerate() {
        play(p, &["--shard", &format!("{}/3", k + 1)]);
    }
    let mut merged: Vec<Value> = parts.iter().flat_map(|p| games(p)).collect();
    merged.sort_by_key(|v| v["id"].as_str().unwrap().to_string());
    assert_eq!(merged, games(&whole));
    let mut args = vec!["tournament", "--merge"];
    args.extend(parts.iter().map(|p| s(p)));
    let o = katachi(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("12 games;"));

    // A run killed after five games, in the middle of writing the sixth.
    let resumed = tmp.path().join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let ledger = std::fs::read_to_string(whole.join("ledger.jsonl")).unwrap();
    let mut cut: String = ledger.lines().take(5).map(|l| format!("{l}\n")).collect();
    cut += &ledger.lines().nth(5).unwrap()[..30];
    std::fs::write(resumed.join("ledger.jsonl"), cut).unwrap();
    let o = play(&resumed, &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("the last line is cut short"), "{err}");
    assert!(err.contains("[1/7] g0005"), "{err}");
    assert_eq!(games(&resumed), games(&whole));
    assert_eq!(
        standings(&std::fs::read_to_string(resumed.join("standings.json")).unwrap()),
        standings(&std::fs::read_to_string(whole.join("standings.json")).unwrap())
    );
    // Nothing left to play: a third run plays nothing.
    let o = play(&resumed, &[]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("[1/"));
    // Other arguments over the same folder are another tournament.
    let o = tournament(&["a=random", "b=random"], &["-o", s(&resumed)]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds another tournament"));
}

/// A GTP engine in bash that answers every command, and `genmove` as
/// `on_genmove` says.
fn fake_engine(dir: &Path, name: &str, on_genmove: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/usr/bin/env bash\n\
             while read -r line; do\n\
               case \"${{line%% *}}\" in\n\
                 genmove) {on_genmove} ;;\n\
                 quit) printf '=\\n\\n'; exit 0 ;;\n\
                 *) printf '=\\n\\n' ;;\n\
               esac\n\
             done\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

#[test]
fn the_referee_charges_illegal_moves_and_crashes() {
    let tmp = tempfile::tempdir().unwrap();
    // Always C3: legal once, then on an occupied point.
    let illegal = fake_engine(tmp.path(), "illegal.sh", "printf '= C3\\n\\n'");
    let crash = fake_engine(tmp.path(), "crash.sh", "exit 3");
    let slow = fake_engine(tmp.path(), "slow.sh", "sleep 30; printf '= C3\\n\\n'");
    let out = tmp.path().join("t");
    let o = tournament(
        &[
            "k=katachi",
            &format!("bad=gtp:{}", s(&illegal)),
            &format!("dead=gtp:{}", s(&crash)),
            &format!("slow=gtp:{}", s(&slow)),
        ],
        &[
            "--move-time",
            "2",
            "--gauntlet",
            "--openings",
            "1",
            "--opening-moves",
            "0",
            "--size",
            "7",
            "-o",
            s(&out),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    let line = |name: &str| {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(line("k")["wins"], 6);
    assert_eq!(line("bad")["failures"]["illegal"], 2, "{v}");
    assert_eq!(line("dead")["failures"]["crash"], 2, "{v}");
    // The slow engine is not waited for: two losses on time, each after
    // the 2 s limit and a second's grace, not its 30 s.
    assert_eq!(line("slow")["failures"]["timeout"], 2, "{v}");
    let ledger = std::fs::read_to_string(out.join("ledger.jsonl")).unwrap();
    for kind in ["illegal", "crash", "timeout"] {
        assert!(ledger.contains(&format!(r#""ending":"{kind}""#)), "{kind}");
    }
    // The records say why: W+F, B+T…
    let sgfs: String = (0..6)
        .map(|k| std::fs::read_to_string(out.join(format!("g{k:04}.sgf"))).unwrap())
        .collect();
    assert!(sgfs.contains("+T]") && sgfs.contains("+F]"), "{sgfs}");
}

#[test]
fn bad_arguments_are_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    for (args, want) in [
        (vec!["-p", "a=random"], "at least two players"),
        (vec!["-p", "a=random", "-p", "a=random"], "same name"),
        (
            vec!["-p", "a=chess", "-p", "b=random"],
            "unknown kind `chess`",
        ),
        (
            vec!["-p", "a=random", "-p", "b=random", "--shard", "4/3"],
            "K/N",
        ),
        (
            vec!["-p", "a=random", "-p", "b=random", "--size", "40"],
            "--size 40",
        ),
        (
            vec!["-p", "a=random", "-p", "b=random", "--move-time", "0"],
            "--move-time",
        ),
    ] {
        let mut all = vec!["tournament", "-o", s(&out)];
        all.extend(args);
        let o = katachi(&all);
        assert!(!o.status.success(), "{all:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{all:?}: {err}");
    }
    let o = katachi(&["tournament", "--merge", s(&tmp.path().join("nowhere"))]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no ledger here"));
}

/// katachi's own GTP front end, played through the tournament's GTP
/// adapter against the in-process engine and the random player: every
/// game ends by the rules (or the cap), no failure is charged, and both
/// katachis beat the random player.
#[test]
fn katachi_gtp_plays_through_the_gtp_adapter() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("t");
    let gtp = format!("gk=gtp:{} gtp --playouts 0", env!("CARGO_BIN_EXE_katachi"));
    let o = tournament(
        &[&gtp, "k=katachi", "r=random"],
        &[
            "--openings",
            "1",
            "--size",
            "7",
            "--cap",
            "150",
            "-o",
            s(&out),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = games(&out);
    assert_eq!(all.len(), 6);
    for g in &all {
        assert!(
            g["ending"] == "rules" || g["ending"] == "cap",
            "{g}: a failure"
        );
    }
    // Against random, each katachi won both games.
    let won = |name: &str| {
        all.iter()
            .filter(|g| {
                (g["first"] == name && g["winner"] == "first")
                    || (g["second"] == name && g["winner"] == "second")
            })
            .count()
    };
    assert!(won("gk") >= 2 && won("k") >= 2, "{all:?}");
}

#[test]
fn a_clock_per_game_is_charged() {
    let tmp = tempfile::tempdir().unwrap();
    // 0.6 s a move, each within any sensible move limit: only the game's
    // 2 s run out, at its fourth move.
    let slow = fake_engine(
        tmp.path(),
        "slowpass.sh",
        "sleep 0.6; printf '= pass\\n\\n'",
    );
    let out = tmp.path().join("t");
    let o = tournament(
        &["k=katachi", &format!("slow=gtp:{}", s(&slow))],
        &[
            "--openings",
            "1",
            "--opening-moves",
            "0",
            "--size",
            "7",
            "--move-time",
            "1.5",
            "--game-time",
            "2",
            "-o",
            s(&out),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = games(&out);
    assert_eq!(all.len(), 2);
    for g in &all {
        assert_eq!(g["ending"], "timeout", "{g}");
        let slow_first = g["first"] == "slow";
        assert_eq!(
            g["winner"],
            if slow_first { "second" } else { "first" },
            "{g}"
        );
        // The slow side ran out after a few moves (three at 0.6 s leave
        // 0.2 s for the fourth; a loaded machine may stop it sooner).
        let moves = g["moves"].as_u64().unwrap();
        assert!((2..=8).contains(&moves), "{g}");
    }
}

#[test]
fn openings_from_a_file_are_played_with_both_colours_and_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("openings.txt");
    std::fs::write(&file, "# three openings\nD4 D5\nC3\nE5 pass E4\n").unwrap();
    let out = tmp.path().join("t");
    let o = tournament(
        &["a=random", "b=random"],
        &["--openings-file", s(&file), "--size", "7", "-o", s(&out)],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let all = games(&out);
    assert_eq!(all.len(), 6);
    // Each game's record starts with its opening.
    for g in &all {
        let sgf = std::fs::read_to_string(out.join(g["record"].as_str().unwrap())).unwrap();
        let first = match g["opening"].as_u64().unwrap() {
            0 => ";B[dd];W[dc]",
            1 => ";B[ce]",
            _ => ";B[ec];W[]",
        };
        assert!(sgf.contains(first), "{g}: {sgf}");
    }
    // A bad file: every error located, nothing played.
    std::fs::write(&file, "D4 D4\nQ9\n").unwrap();
    let out2 = tmp.path().join("t2");
    let o = tournament(
        &["a=random", "b=random"],
        &["--openings-file", s(&file), "--size", "7", "-o", s(&out2)],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("openings.txt:1:4: error: D4 is illegal here"),
        "{err}"
    );
    assert!(err.contains("openings.txt:2:1: error: `Q9`"), "{err}");
    assert!(!out2.join("ledger.jsonl").exists());
}
