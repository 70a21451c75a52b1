//! `katachi judge` end to end: positions drawn from a tournament's
//! games, candidate brains and a judge brain (katachi's own
//! `pbrain-katachi` at fixed nodes, whose `DEBUG ... score N` line is the
//! evaluation), the screen file kept and reused, and the errors a user
//! meets.
#![cfg(feature = "compiler")]

use std::path::Path;
use std::process::{Command, Output};

use katachi::five::record::read_psq;
use katachi::tournament::judge::Screen;

#[path = "support/tournaments.rs"]
mod support;
use support::{games, ok, s};

fn judge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_katachi"))
        .arg("judge")
        .args(args)
        .output()
        .expect("katachi runs")
}

/// A folder of exactly-five games, `k` (katachi at depth 2) against
/// greedy on `openings` openings, each with both colours.
fn five_games(dir: &Path, openings: u32) -> std::path::PathBuf {
    let games = dir.join("games");
    ok(&support::tournament(
        &["--game", "five", "--rule", "exact"],
        &["k=katachi:depth=2", "g=greedy"],
        &[
            "--size",
            "15",
            "--openings",
            &openings.to_string(),
            "-o",
            s(&games),
        ],
    ));
    games
}

fn brain(nodes: u32) -> String {
    format!("{} --nodes {nodes}", env!("CARGO_BIN_EXE_pbrain-katachi"))
}

#[test]
fn a_screen_draws_positions_asks_the_brains_and_keeps_their_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let games_dir = five_games(tmp.path(), 2);
    let file = tmp.path().join("screen.json");
    let judge_cmd = brain(4000);
    let small = format!("small={}", brain(300));
    let large = format!("large={}", brain(3000));
    let args = [
        "-o",
        s(&file),
        "--games",
        s(&games_dir),
        "--from-player",
        "k",
        "--rule",
        "exact",
        "--count",
        "10",
        "--judge",
        &judge_cmd,
        "--eval-word",
        "score",
        "--scale",
        "20000",
        "--jobs",
        "2",
        "-p",
        &small,
        "-p",
        &large,
    ];
    let o = judge(&args);
    ok(&o);
    let table = String::from_utf8_lossy(&o.stdout).to_string();
    let said = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(said.contains("positions drawn"), "{said}");
    assert!(
        said.contains("small: ") && said.contains("moves to ask"),
        "{said}"
    );
    assert!(said.contains("the judge: "), "{said}");
    assert!(table.contains("| small |"), "{table}");
    assert!(table.contains("| large |"), "{table}");
    assert!(table.contains("(reference)"), "{table}");

    let screen = Screen::load(&file).unwrap().expect("the screen file");
    assert!(!screen.positions.is_empty() && screen.positions.len() <= 10);
    // Every position is a prefix of a game, with k to move and a move
    // after it.
    let records: Vec<(bool, Vec<(u8, u8)>)> = games(&games_dir)
        .iter()
        .map(|g| {
            let text =
                std::fs::read_to_string(games_dir.join(g["record"].as_str().unwrap())).unwrap();
            let moves = read_psq(&text)
                .unwrap()
                .moves
                .iter()
                .map(|m| (m.point.j as u8, m.point.i as u8))
                .collect();
            (g["first"] == "k", moves)
        })
        .collect();
    for p in &screen.positions {
        assert_eq!((p.rule, p.size), (1, 15));
        let n = p.stones.len();
        assert!((3..=40).contains(&n), "{n} stones");
        assert!(
            records.iter().any(|(k_first, m)| m.len() > n
                && m[..n] == p.stones[..]
                && (n % 2 == 0) == *k_first),
            "{p:?} is no position of k's in the games"
        );
    }
    // Both candidates answered everywhere, and the judge saw every
    // position and every move.
    for c in [brain(300), brain(3000)] {
        let moves = &screen.moves[&c];
        assert_eq!(moves.len(), screen.positions.len(), "{c}");
        for (k, mv) in moves {
            assert!(screen
                .verdicts
                .contains_key(&format!("{k}:{},{}", mv.0, mv.1)));
            assert!(screen.verdicts.contains_key(&k.to_string()));
        }
    }

    // Run again: nothing new to ask, the same table (the brains are
    // deterministic at fixed nodes, and the answers come from the file).
    let before = std::fs::read(&file).unwrap();
    let again = judge(&args);
    ok(&again);
    assert_eq!(String::from_utf8_lossy(&again.stdout), table);
    // Nothing was asked the second time.
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        !said.contains("to ask") && !said.contains("to judge"),
        "{said}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);

    // Band by band: the same table, then one row a band of four stones
    // from none up to the most crowded position's, from the file alone.
    let mut banded = args.to_vec();
    banded.extend(["--by-stones", "4"]);
    let o = judge(&banded);
    ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    let (whole, bands) = out.split_once("\n\n").expect("two tables");
    assert_eq!(format!("{whole}\n"), table);
    assert!(
        bands.starts_with("| stones | positions | large against the first |"),
        "{bands}"
    );
    let most = screen
        .positions
        .iter()
        .map(|p| p.stones.len())
        .max()
        .unwrap();
    let rows: Vec<&str> = bands.lines().skip(2).collect();
    assert_eq!(rows.len(), most / 4 + 1, "{bands}");
    assert!(rows[0].starts_with("| 0–3 | "), "{bands}");
    // Every judged position falls in one band.
    let judged: usize = rows
        .iter()
        .map(|r| {
            r.split('|')
                .nth(2)
                .unwrap()
                .trim()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert!(
        table.contains(&format!("| small | {judged} |")),
        "{table}\n{bands}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);

    // A player the ledgers do not name: they are listed.
    let nobody = judge(&[
        "-o",
        s(&tmp.path().join("other.json")),
        "--games",
        s(&games_dir),
        "--from-player",
        "kk",
        "--judge",
        "j",
        "-p",
        "a=b",
    ]);
    assert!(!nobody.status.success());
    let err = String::from_utf8_lossy(&nobody.stderr);
    assert!(
        err.contains("no game of `kk`") && err.contains("g, k"),
        "{err}"
    );

    // Another judge may not add its verdicts to this file.
    let mut other = args.to_vec();
    let other_judge = brain(5000);
    let at = other.iter().position(|a| *a == "--judge").unwrap() + 1;
    other[at] = &other_judge;
    let refused = judge(&other);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("judged by"), "{err}");
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("screen.json");
    let missing = tmp.path().join("missing");
    // Every case starts from the same screen file, judge and candidate.
    fn args_of<'a>(file: &'a str, player: &'a str, more: &[&'a str]) -> Vec<&'a str> {
        [&["-o", file, "--judge", "j", "-p", player][..], more].concat()
    }
    let with = |player, more: &[&'static str]| args_of(s(&file), player, more);
    let cases: [(Vec<&str>, &str); 5] = [
        (with("a=b", &["--scale", "0"]), "not a number above zero"),
        (with("a=b", &["--by-stones", "0"]), "--by-stones"),
        (with("no-equals-sign", &[]), "expected NAME=COMMAND"),
        (with("a=b", &[]), "--from-player"),
        (
            args_of(
                s(&file),
                "a=b",
                &["--from-player", "k", "--games", s(&missing)],
            ),
            "no games in its ledger",
        ),
    ];
    for (args, want) in cases {
        let o = judge(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!Path::new(&file).exists());
}

#[test]
fn a_stopped_screen_keeps_what_it_asked_and_one_file_serves_one_run_at_a_time() {
    use katachi::tournament::judge::SAVE_EVERY;
    let tmp = tempfile::tempdir().unwrap();
    let games_dir = five_games(tmp.path(), 6);
    // A candidate that fails from its 21st position on while the file
    // `fail` exists: katachi's brain, one process a position.
    let count = tmp.path().join("count");
    let fail = tmp.path().join("fail");
    let flaky = support::executable(
        tmp.path().join("flaky.sh"),
        &format!(
            "#!/usr/bin/env bash\n\
             n=$(( $(cat {count} 2>/dev/null || echo 0) + 1 ))\n\
             echo $n > {count}\n\
             if [ -e {fail} ] && [ $n -gt 20 ]; then exit 1; fi\n\
             exec {} --nodes 300\n",
            env!("CARGO_BIN_EXE_pbrain-katachi"),
            count = s(&count),
            fail = s(&fail),
        ),
    );
    std::fs::write(&fail, "").unwrap();
    let file = tmp.path().join("screen.json");
    let lock = tmp.path().join("screen.json.lock");
    let judge_cmd = brain(1000);
    let candidate = format!("flaky={}", s(&flaky));
    let args = [
        "-o",
        s(&file),
        "--games",
        s(&games_dir),
        "--from-player",
        "k",
        "--rule",
        "exact",
        "--count",
        "40",
        "--judge",
        &judge_cmd,
        "--eval-word",
        "score",
        "--jobs",
        "1",
        "-p",
        &candidate,
    ];
    let stopped = judge(&args);
    assert!(!stopped.status.success());
    let said = String::from_utf8_lossy(&stopped.stderr);
    assert!(said.contains(&format!("flaky: {SAVE_EVERY} of ")), "{said}");
    // The answers up to the last save are kept; the lock is gone.
    let screen = Screen::load(&file).unwrap().expect("the screen file");
    let n = screen.positions.len();
    assert!(n > 20, "{n} positions: too few to fail after 20");
    assert_eq!(screen.moves[s(&flaky)].len(), SAVE_EVERY);
    assert!(!lock.exists());

    // A run holds the lock: another is refused and leaves the file alone.
    let before = std::fs::read(&file).unwrap();
    std::fs::write(&lock, std::process::id().to_string()).unwrap();
    std::fs::remove_file(&fail).unwrap();
    let refused = judge(&args);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("screen.json.lock")
            && err.contains(&format!("another run (process {})", std::process::id())),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    assert!(lock.exists());

    // The lock of a process that is gone is taken over (where /proc
    // says so); the run asks only what the stopped one had not.
    if Path::new("/proc/self").exists() {
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let pid = gone.id();
        gone.wait().unwrap();
        std::fs::write(&lock, pid.to_string()).unwrap();
    } else {
        std::fs::remove_file(&lock).unwrap();
    }
    let resumed = judge(&args);
    ok(&resumed);
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        said.contains(&format!("flaky: {} moves to ask", n - SAVE_EVERY)),
        "{said}"
    );
    let screen = Screen::load(&file).unwrap().expect("the screen file");
    assert_eq!(screen.moves[s(&flaky)].len(), n);
    assert!(!lock.exists());
}

#[test]
fn a_screen_that_exists_may_be_asked_and_counted_within_a_band_of_stones() {
    let tmp = tempfile::tempdir().unwrap();
    let games_dir = five_games(tmp.path(), 3);
    let file = tmp.path().join("screen.json");
    let judge_cmd = brain(1000);
    let first = format!("first={}", brain(300));
    let second = format!("second={}", brain(600));
    let base = [
        "-o",
        s(&file),
        "--games",
        s(&games_dir),
        "--from-player",
        "k",
        "--rule",
        "exact",
        "--count",
        "30",
        "--judge",
        &judge_cmd,
        "--eval-word",
        "score",
        "--scale",
        "20000",
        "--jobs",
        "2",
        "-p",
        &first,
    ];
    ok(&judge(&base));
    let whole = Screen::load(&file).unwrap().unwrap();
    let few = |n: usize| (3..=6).contains(&n);
    let band = whole
        .positions
        .iter()
        .filter(|p| few(p.stones.len()))
        .count();
    assert!(band > 0 && band < whole.positions.len(), "{band}");

    // A second candidate asked only on the positions of 3 to 6 stones.
    let mut args = base.to_vec();
    args.extend(["-p", &second, "--min-stones", "3", "--max-stones", "6"]);
    let o = judge(&args);
    ok(&o);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains(&format!(
            "{band} of them with 3 to 6 stones: only those are asked and counted"
        )) && said.contains(&format!("second: {band} moves to ask")),
        "{said}"
    );
    let after = Screen::load(&file).unwrap().unwrap();
    assert_eq!(after.positions, whole.positions);
    assert_eq!(after.moves[&brain(300)], whole.moves[&brain(300)]);
    let asked = &after.moves[&brain(600)];
    assert_eq!(asked.len(), band);
    assert!(asked.keys().all(|&k| few(after.positions[k].stones.len())));
    // Every verdict of the whole screen is kept; the new moves' are added.
    assert!(whole
        .verdicts
        .iter()
        .all(|(k, v)| after.verdicts.get(k) == Some(v)));
    for (k, mv) in asked {
        assert!(after
            .verdicts
            .contains_key(&format!("{k}:{},{}", mv.0, mv.1)));
    }
    // The table counts the band alone: at most its positions.
    let table = String::from_utf8_lossy(&o.stdout);
    let counted: usize = table
        .lines()
        .find(|l| l.starts_with("| second |"))
        .and_then(|l| l.split('|').nth(2))
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or_else(|| panic!("{table}"));
    assert!(counted <= band, "{table}");

    // A band with no position is an error, and the file is left alone.
    let before = std::fs::read(&file).unwrap();
    let mut none = base.to_vec();
    none.extend(["--min-stones", "200"]);
    let refused = judge(&none);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("no position with 200 to any stones"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
}
