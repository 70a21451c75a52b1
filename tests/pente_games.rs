//! Pente through `katachi tournament --game five --rule pente`: katachi
//! against the greedy baseline, and against Debian's `pente` (level 1,
//! `/usr/games/pente`, which `tests/run.sh` installs) through its text
//! mode; every record replays under Pente's rules (captures included) to
//! the ledger's result, and no game ends by a failure.
#![cfg(feature = "compiler")]

use std::path::Path;

use katachi::five::record::read_psq_for;
use katachi::five::{FiveBoard, Outcome, Rule};
use katachi::position::Color;
use serde_json::Value;

#[path = "support/tournaments.rs"]
mod support;
use support::{games, s};

fn pente_tournament(players: &[&str], dir: &Path) {
    let o = support::tournament(
        &["--game", "five", "--rule", "pente", "--size", "19"],
        players,
        &[
            "--openings",
            "1",
            "--opening-moves",
            "0",
            "--seed",
            "1",
            "-o",
            s(dir),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Replays a game's record under Pente: every move legal, and a game the
/// rules ended ends on its last move with the ledger's winner.
fn replay(dir: &Path, game: &Value) {
    let text = std::fs::read_to_string(dir.join(game["record"].as_str().unwrap())).unwrap();
    let r = read_psq_for(&text, Rule::Pente).unwrap();
    let mut b = FiveBoard::new(19, Rule::Pente).unwrap();
    let mut outcome = None;
    for (k, m) in r.moves.iter().enumerate() {
        assert!(outcome.is_none(), "{game}: a move after the end");
        outcome = b
            .play(m.point)
            .unwrap_or_else(|e| panic!("{game}: move {k}: {e}"));
    }
    assert_eq!(game["ending"], "rules", "{game}");
    let first = if game["winner"] == "first" {
        Color::Black
    } else {
        Color::White
    };
    assert_eq!(outcome, Some(Outcome::Win(first)), "{game}");
}

#[test]
fn katachi_plays_pente_against_the_greedy_baseline() {
    let dir = tempfile::tempdir().unwrap();
    pente_tournament(&["k=katachi:ms=50", "g=greedy"], dir.path());
    let games = games(dir.path());
    assert_eq!(games.len(), 2);
    for g in &games {
        replay(dir.path(), g);
    }
}

#[test]
fn debian_pente_is_an_opponent() {
    let program = katachi::tournament::pente::DEFAULT_PROGRAM;
    assert!(
        Path::new(program).exists(),
        "{program} is missing: tests/run.sh installs Debian's `pente`"
    );
    let dir = tempfile::tempdir().unwrap();
    pente_tournament(&["k=katachi:ms=50", "p1=pente:1"], dir.path());
    let games = games(dir.path());
    assert_eq!(games.len(), 2, "both colours");
    for g in &games {
        replay(dir.path(), g);
    }
}
