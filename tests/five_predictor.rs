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
