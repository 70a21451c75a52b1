//! Complete 9x9 games against a real peer, GNU Go 3.8 (Debian's `gnugo`,
//! which `tests/run.sh` installs): katachi's GTP library loop plays
//! `gnugo --mode gtp --level 0`, moves relayed both ways, and GNU Go checks
//! every katachi move with `is_legal` before playing it.
//!
//! Scores are compared only where they must agree. GNU Go's `final_score`
//! removes the stones it thinks dead, katachi's (Chinese rules, its
//! default) the stones its ownership playouts find dead. So the games are
//! played out: the pattern engine never passes while it has a move that
//! neither fills its own one-point eye nor is self-atari, the search
//! passes after GNU Go only when it wins by both its count and every
//! stone's, and GNU Go runs with `--capture-all-dead` and
//! `--chinese-rules` (area scoring) so it removes katachi's dead stones
//! before passing. A game that ended with two passes, where neither
//! engine's `final_status_list dead` nor GNU Go's `final_status_list
//! seki` lists a stone, must then have the same score from both (after
//! taking off the point per handicap stone that GNU Go's Chinese rules
//! give white); a game with dead stones left, a seki, or cut at the move
//! cap is reported, not compared. GNU Go runs with a fixed `--seed`:
//! unseeded, it plays (and scores) differently from run to run.
//!
//! Odd-numbered games run the pattern-guided search (`go::search`), the
//! others the pattern engine alone.
//!
//! The test fails with a clear message when GNU Go is missing: CI installs
//! it, and a silent pass would hide that the peer was never played.
#![cfg(feature = "compiler")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use katachi::go::search::SearchOptions;
use katachi::gtp::{Gtp, GtpOptions};

const GNUGO: &str = "/usr/games/gnugo";
/// Games with katachi alternating colours; the last one gives katachi
/// (black) a 9-stone handicap, which also checks the handicap points.
const GAMES: u64 = 5;
/// Moves (passes included) after which a game is stopped.
const MOVE_CAP: usize = 400;
const KOMI: &str = "7.5";

struct Peer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Peer {
    fn start() -> Peer {
        assert!(
            std::path::Path::new(GNUGO).exists(),
            "{GNUGO} is missing: install GNU Go 3.8 (`apt-get install -y gnugo`, as tests/run.sh does) \
             to play the games against a real peer"
        );
        let mut child = Command::new(GNUGO)
            .args([
                "--mode",
                "gtp",
                "--level",
                "0",
                "--chinese-rules",
                "--capture-all-dead",
                "--never-resign",
                // GNU Go's random choices are seeded from the clock
                // otherwise, and its games (and scores) vary run to run.
                "--seed",
                "1",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gnugo starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Peer {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a command; returns (success, text).
    fn ask(&mut self, cmd: &str) -> (bool, String) {
        writeln!(self.stdin, "{cmd}").expect("gnugo reads");
        self.stdin.flush().expect("gnugo reads");
        let mut text = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("gnugo answers");
            assert!(n > 0, "gnugo closed its output after `{cmd}`");
            if line.trim().is_empty() && !text.is_empty() {
                break;
            }
            text.push_str(&line);
        }
        let ok = text.starts_with('=');
        assert!(
            ok || text.starts_with('?'),
            "malformed gnugo response {text:?}"
        );
        (ok, text[1..].trim().to_string())
    }

    fn must(&mut self, cmd: &str) -> String {
        let (ok, text) = self.ask(cmd);
        assert!(ok, "gnugo refused `{cmd}`: {text}");
        text
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// Sends a command to katachi's GTP loop; returns (success, text),
/// checking the response's form.
fn katachi(gtp: &mut Gtp, cmd: &str) -> (bool, String) {
    let reply = gtp
        .handle_line(cmd.as_bytes())
        .expect("a command gets a response");
    assert!(reply.ends_with("\n\n"), "{reply:?}");
    let ok = reply.starts_with('=');
    assert!(ok || reply.starts_with('?'), "{reply:?}");
    (ok, reply[1..].trim().to_string())
}

fn katachi_must(gtp: &mut Gtp, cmd: &str) -> String {
    let (ok, text) = katachi(gtp, cmd);
    assert!(ok, "katachi refused `{cmd}`: {text}");
    text
}

struct Outcome {
    moves: usize,
    ended: bool,
    katachi_score: String,
    gnugo_score: String,
    dead: String,
    seki: String,
    katachi_dead: String,
}

fn play_game(
    game: u64,
    katachi_colour: &str,
    handicap: usize,
    time: &mut Duration,
    gen_moves: &mut u32,
) -> Outcome {
    let mut peer = Peer::start();
    // Odd games: the search chooses among the pattern candidates, as
    // `katachi gtp` does by default (fewer playouts, to stay quick).
    let mut gtp = if game % 2 == 1 {
        Gtp::with_options(GtpOptions {
            search: Some(SearchOptions {
                playouts: 300,
                // Played to the end, as GNU Go is with --never-resign:
                // the test compares the two counts of a finished game.
                resign_threshold: 0.0,
                ..SearchOptions::default()
            }),
            ..GtpOptions::default()
        })
    } else {
        Gtp::new()
    };
    gtp.seed(game + 1);
    for cmd in ["boardsize 9", "clear_board", &format!("komi {KOMI}")] {
        peer.must(cmd);
        katachi_must(&mut gtp, cmd);
    }
    let mut colour = "black";
    if handicap > 0 {
        // Both place the same stones: GTP's standard points.
        let cmd = format!("fixed_handicap {handicap}");
        let sorted = |s: String| {
            let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
            v.sort();
            v
        };
        let theirs = sorted(peer.must(&cmd));
        let ours = sorted(katachi_must(&mut gtp, &cmd));
        // The same points; GNU Go lists them in another order.
        assert_eq!(ours, theirs, "handicap points differ");
        colour = "white";
    }
    let mut passes = 0;
    let mut moves = 0;
    while passes < 2 && moves < MOVE_CAP {
        let vertex = if colour == katachi_colour {
            let start = Instant::now();
            let v = katachi_must(&mut gtp, &format!("genmove {colour}"));
            *time += start.elapsed();
            *gen_moves += 1;
            if !v.eq_ignore_ascii_case("pass") {
                let legal = peer.must(&format!("is_legal {colour} {v}"));
                assert_eq!(
                    legal, "1",
                    "game {game}, move {moves}: katachi's {colour} {v} is illegal for gnugo"
                );
            }
            peer.must(&format!("play {colour} {v}"));
            v
        } else {
            let v = peer.must(&format!("genmove {colour}"));
            assert!(
                !v.eq_ignore_ascii_case("resign"),
                "gnugo resigned despite --never-resign"
            );
            katachi_must(&mut gtp, &format!("play {colour} {v}"));
            v
        };
        passes = if vertex.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        moves += 1;
        colour = if colour == "black" { "white" } else { "black" };
    }
    Outcome {
        moves,
        ended: passes >= 2,
        katachi_score: katachi_must(&mut gtp, "final_score"),
        gnugo_score: peer.must("final_score"),
        dead: peer.must("final_status_list dead"),
        seki: peer.must("final_status_list seki"),
        katachi_dead: katachi_must(&mut gtp, "final_status_list dead"),
    }
}

/// A GTP score (`B+3.5`, `W+7.5`, `0`) as black's lead.
fn score_value(s: &str) -> f64 {
    let parse = |v: &str| {
        v.parse::<f64>()
            .unwrap_or_else(|_| panic!("a score: {s:?}"))
    };
    match s.split_once('+') {
        Some(("B", v)) => parse(v),
        Some(("W", v)) => -parse(v),
        _ if s == "0" => 0.0,
        _ => panic!("not a GTP score: {s:?}"),
    }
}

#[test]
fn complete_games_against_gnugo_are_legal_and_scored_alike() {
    let mut time = Duration::ZERO;
    let mut gen_moves = 0;
    let mut compared = 0;
    let mut report = Vec::new();
    for game in 0..GAMES {
        let colour = if game % 2 == 0 { "black" } else { "white" };
        let handicap = if game == GAMES - 1 { 9 } else { 0 };
        let o = play_game(game, colour, handicap, &mut time, &mut gen_moves);
        let note = if !o.ended {
            format!("stopped at the {MOVE_CAP}-move cap, not compared")
        } else if !o.dead.is_empty() || !o.katachi_dead.is_empty() {
            format!(
                "dead stones left (gnugo: {}; katachi: {}), not compared",
                o.dead.replace('\n', " "),
                o.katachi_dead.replace('\n', " ")
            )
        } else if !o.seki.is_empty() {
            // GNU Go's Chinese count and Tromp–Taylor's may differ on the
            // eyes of a seki.
            format!("a seki ({}), not compared", o.seki.replace('\n', " "))
        } else {
            // GNU Go's Chinese rules give white one point per handicap
            // stone; katachi's area scoring (Tromp-Taylor) does not.
            assert_eq!(
                score_value(&o.katachi_score) - handicap as f64,
                score_value(&o.gnugo_score),
                "game {game} (katachi {colour}): the played-out scores differ: katachi {}, gnugo {}",
                o.katachi_score,
                o.gnugo_score
            );
            compared += 1;
            if handicap > 0 {
                format!("scores agree (gnugo adds {handicap} for white's handicap compensation)")
            } else {
                "scores agree".to_string()
            }
        };
        report.push(format!(
            "game {game}: katachi {colour}{}, {} moves, katachi {} / gnugo {}: {note}",
            if handicap > 0 {
                format!(" with {handicap} handicap stones")
            } else {
                String::new()
            },
            o.moves,
            o.katachi_score,
            o.gnugo_score
        ));
    }
    for line in &report {
        println!("{line}");
    }
    let per_move = time.as_secs_f64() * 1e3 / f64::from(gen_moves.max(1));
    println!(
        "{GAMES} games vs gnugo --level 0, {compared} scored and compared; katachi: {gen_moves} genmoves, {per_move:.3} ms per move"
    );
    // Every game is played out, so each one should be comparable; at
    // least one must be, or the comparison proves nothing.
    assert!(
        compared >= 1,
        "no game could be compared:\n{}",
        report.join("\n")
    );
}
