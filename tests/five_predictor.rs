//! The five-in-a-row move predictor from the command line: `katachi
//! learn-moves --game five` on records `katachi tournament` wrote, end
//! to end (fit, the same bytes again, a backup, measuring, located
//! errors).

use std::path::{Path, PathBuf};

use katachi::five::predictor::Predictor;

#[path = "support/cli.rs"]
mod cli;
use cli::{katachi, text};

/// Twelve exactly-five games between the greedy and the random player
/// (openings of three stones) in `dir`.
fn records(dir: &Path) -> PathBuf {
    let games = dir.join("games");
    let out = katachi(&[
        "tournament",
        "--game",
        "five",
        "--rule",
        "exact",
        "-p",
        "g=greedy",
        "-p",
        "r=random",
        "--openings",
        "6",
        "--seed",
        "3",
        "-o",
        games.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    games
}

#[test]
fn learn_moves_fits_five_in_a_row_and_measures() {
    let dir = tempfile::tempdir().unwrap();
    let games = records(dir.path());
    // A record of another size, and one that does not read.
    std::fs::write(
        games.join("small.psq"),
        "Piskvorky 9x9, 0:0, 0\n5,5,0\n6,6,10\n",
    )
    .unwrap();
    std::fs::write(
        games.join("broken.psq"),
        "Piskvorky 15x15, 0:0, 0\n5,5,0\n5,5,10\n",
    )
    .unwrap();
    let table = dir.path().join("five.gamma");
    let t = table.to_str().unwrap();
    let g = games.to_str().unwrap();
    let args = [
        "learn-moves",
        "--game",
        "five",
        "--rule",
        "exact",
        "-o",
        t,
        "--holdout",
        "2",
        "--every",
        "1",
        g,
    ];
    let out = katachi(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("14 records: 2 held out"), "{err}");
    assert!(err.contains("10 fitted on"), "{err}");
    assert!(err.contains("1 of another size, 1 unreadable"), "{err}");
    assert!(
        err.contains("broken.psq:3:1: error: 5,5 is played twice"),
        "{err}"
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("held out: "), "{stdout}");
    assert!(stdout.contains("pattern values' order: "), "{stdout}");
    let first = std::fs::read_to_string(&table).unwrap();
    assert!(first.starts_with("# katachi's five-in-a-row move predictor (Exact)"));
    let p = Predictor::parse(&first).unwrap();
    assert!(p.len() > 20, "{}", p.len());
    // Same input, same bytes; the earlier table kept as a backup.
    let again = katachi(&args);
    assert!(again.status.success());
    assert_eq!(std::fs::read_to_string(&table).unwrap(), first);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("five.gamma.bak")).unwrap(),
        first
    );
    // Measuring a table, and the built-in one, on held-out games.
    for extra in [&["--table", t][..], &[]] {
        let m = katachi(
            &[
                &["learn-moves", "--game", "five", "--holdout", "3", g][..],
                extra,
            ]
            .concat(),
        );
        assert!(m.status.success(), "{}", text(&m.stderr));
        assert!(
            text(&m.stdout).contains("held out: "),
            "{}",
            text(&m.stdout)
        );
    }
    // A bad table: every bad line, with its place and a caret.
    let bad = dir.path().join("bad.gamma");
    std::fs::write(&bad, "last 2 1.5\nshape 3 1\nlast 3 -2\n").unwrap();
    let b = katachi(&[
        "learn-moves",
        "--game",
        "five",
        "--table",
        bad.to_str().unwrap(),
        g,
    ]);
    assert_eq!(b.status.code(), Some(1));
    let err = text(&b.stderr);
    assert!(
        err.contains("bad.gamma:2:1: unknown group `shape`"),
        "{err}"
    );
    assert!(
        err.contains("bad.gamma:3:8: expected a strength above zero"),
        "{err}"
    );
    assert!(err.contains("       ^"), "{err}");
    // Freestyle has no predictor to fit; a folder without records.
    let f = katachi(&[
        "learn-moves",
        "--game",
        "five",
        "--rule",
        "freestyle",
        "-o",
        t,
        g,
    ]);
    assert_eq!(f.status.code(), Some(1));
    assert!(
        text(&f.stderr).contains("exact or renju"),
        "{}",
        text(&f.stderr)
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = katachi(&["learn-moves", "--game", "five", empty.to_str().unwrap()]);
    assert_eq!(e.status.code(), Some(1));
    assert!(
        text(&e.stderr).contains("no .psq file"),
        "{}",
        text(&e.stderr)
    );
}

/// The `(fitted positions, moves outside the proposed points)` a fit
/// reported on its standard error (`... fitted on (F positions, ...);
/// K moves outside the proposed points; ...`).
fn fitted_and_outside(err: &str) -> (usize, usize) {
    let number_after = |key: &str| -> usize {
        err.split(key)
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no number after `{key}` in {err}"))
    };
    (number_after("fitted on ("), number_after("); "))
}

#[test]
fn last_move_only_fits_each_labelled_position_once() {
    let dir = tempfile::tempdir().unwrap();
    let games = records(dir.path());
    // Labelled positions: the first game's moves up to the k-th, each a
    // record of its own (a stronger brain's choice would be the last).
    let first = std::fs::read_to_string(games.join("g0000.psq")).unwrap();
    let mut lines = first.lines();
    let header = lines.next().unwrap();
    let moves: Vec<&str> = lines.take_while(|l| l.split(',').count() == 3).collect();
    assert!(moves.len() >= 9, "{first}");
    let labelled = dir.path().join("labelled");
    std::fs::create_dir_all(&labelled).unwrap();
    for k in 4..=9 {
        let text = format!("{header}\n{}\n", moves[..k].join("\n"));
        std::fs::write(labelled.join(format!("p{k}.psq")), text).unwrap();
    }
    let l = labelled.to_str().unwrap();
    let table = dir.path().join("labelled.gamma");
    let fit = |extra: &[&str]| {
        let out = katachi(
            &[
                &[
                    "learn-moves",
                    "--game",
                    "five",
                    "--holdout",
                    "0",
                    "-o",
                    table.to_str().unwrap(),
                    l,
                ][..],
                extra,
            ]
            .concat(),
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        fitted_and_outside(&text(&out.stderr))
    };
    // One position a record (its last move) against every move after
    // the three of the opening: 1 + 2 + ... + 6 of them.
    let (fitted, outside) = fit(&["--last-move-only"]);
    assert_eq!(fitted + outside, 6);
    assert!(fitted > 0);
    // The table says what it was fitted on.
    let header = std::fs::read_to_string(&table).unwrap();
    assert!(
        header.contains("of 6 15x15 records, the last move of each, seed 1;"),
        "{header}"
    );
    let (all, all_outside) = fit(&["--every", "1"]);
    assert_eq!(all + all_outside, 21);
    // Refused, not ignored: `--every` samples games, and a labelled
    // record has one position; Go records have no labelled form.
    let refused = |args: &[&str], code: i32, why: &str| {
        let out = katachi(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
    };
    let five = ["learn-moves", "--game", "five", "--last-move-only"];
    refused(
        &[&five[..], &["--every", "2", l]].concat(),
        2,
        "cannot be used with",
    );
    refused(
        &["learn-moves", "--last-move-only", l],
        1,
        "--last-move-only: only for five in a row",
    );
}
