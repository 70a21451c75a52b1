//! `katachi match --stats`: per-pattern hit counts over a positions file.
#![cfg(feature = "compiler")]

use std::path::{Path, PathBuf};
use std::process::Command;

use mkpat::hits::Hits;

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn katachi(args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(args)
        .output()
        .expect("katachi runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

#[test]
fn stats_count_every_match_and_flag_the_patterns_that_never_matched() {
    let positions = root("tests/data/positions/sample.txt");
    let positions = positions.to_str().unwrap();
    let plain = String::from_utf8(katachi(&["match", positions]).stdout).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("hits.tsv");
    let o = katachi(&[
        "match",
        "--stats",
        "--stats-out",
        tsv.to_str().unwrap(),
        positions,
    ]);
    let table = String::from_utf8(o.stdout).unwrap();
    let hits = Hits::parse_tsv(&std::fs::read_to_string(&tsv).unwrap()).unwrap();

    // One count per pattern of the database; they add up to the matches
    // that the plain command prints, pattern by pattern.
    assert_eq!(
        hits.counts.len(),
        katachi::go::builtin::TABLES.patterns.len()
    );
    assert_eq!(hits.positions, Some(3));
    for (name, c) in &hits.counts {
        let lines: Vec<&str> = plain
            .lines()
            .filter(|l| l.split(' ').nth(1) == Some(name.as_str()))
            .collect();
        assert_eq!(c.matches, lines.len() as u64, "pattern {name}");
        let mut pos: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
        pos.dedup();
        assert_eq!(c.positions, pos.len() as u64, "pattern {name}");
    }
    // Sorted by matches, most first.
    assert!(hits
        .counts
        .windows(2)
        .all(|w| w[0].1.matches >= w[1].1.matches));

    // The printed table: a header, one line a pattern, the never-matching
    // ones flagged, a summary naming them.
    let never: Vec<&str> = hits
        .counts
        .iter()
        .filter(|(_, c)| c.matches == 0)
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(!never.is_empty());
    assert_eq!(table.lines().count(), hits.counts.len() + 2);
    assert_eq!(table.matches("  never matched").count(), never.len());
    let last = table.lines().last().unwrap();
    assert!(
        last.ends_with(&format!(
            "{} never matched: {}",
            never.len(),
            never.join(" ")
        )),
        "{last}"
    );
    assert!(last.contains(&format!(
        "{} matches over 3 positions",
        plain.lines().count()
    )));

    // --stats-out alone implies --stats.
    let o = katachi(&["match", "--stats-out", tsv.to_str().unwrap(), positions]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), table);
}

#[test]
fn games_are_scanned_position_by_position() {
    // A game of n moves gives n + 1 positions (before each move, and
    // after the last); each is scanned like a positions-file entry.
    let game = root("tests/data/sgf/capture.sgf");
    let text = std::fs::read_to_string(&game).unwrap();
    let positions = katachi::sgf::positions(&text).unwrap();
    let moves = katachi::sgf::load(&text, None).unwrap().total_moves;
    assert_eq!(positions.len(), moves + 1);
    let listed =
        String::from_utf8(katachi(&["match", "--show", game.to_str().unwrap()]).stdout).unwrap();
    assert_eq!(
        listed.matches("\nposition ").count() + 1,
        moves + 1,
        "{listed}"
    );
    // The last position is the loaded game's final position.
    let last = katachi::sgf::load(&text, None).unwrap();
    assert_eq!(&positions[moves].0, last.game.goban().board());
    assert_eq!(positions[moves].1, last.to_move);
}

#[test]
fn show_lists_the_same_matches_as_the_conformance_format() {
    let positions = root("tests/data/positions/sample.txt");
    let positions = positions.to_str().unwrap();
    let plain = String::from_utf8(katachi(&["match", positions]).stdout).unwrap();
    let shown = String::from_utf8(katachi(&["match", "--show", positions]).stdout).unwrap();
    // One "pattern NAME" line under its point per conformance line.
    let listed = shown
        .lines()
        .filter(|l| l.trim_start().starts_with("pattern "))
        .count();
    assert_eq!(listed, plain.lines().count());
    assert!(
        shown.starts_with("position 0: 9x9, black (X) to move;"),
        "{shown}"
    );
}
