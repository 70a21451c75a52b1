//! `katachi play` in a real terminal: tmux runs the binary on an 80x24
//! screen, the tests type keys with `send-keys` and read the screen with
//! `capture-pane`, and play a game to its end in each mode: human vs
//! human by typed points, human vs computer, computer vs computer at the
//! fastest pace; and Pente chosen on the start screen, its panel counting
//! the pairs taken.
//!
//! `tests/run.sh` installs tmux when it is missing. Without it these
//! tests say so and pass, except under CI (`CI` set), where they fail:
//! there tmux must be installed. Each test has its own tmux server
//! (`tmux -L`), killed when the test ends. The waits below are bounds
//! against a hang, never measurements: a slow machine only waits longer.
#![cfg(feature = "compiler")]

use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_katachi");

/// What the shell prints before the program's exit status.
const EXIT: &str = "katachi-play-exit=";

/// The longest wait for a screen (a whole game between computers in a
/// debug build on a busy machine fits well within it).
const PATIENCE: Duration = Duration::from_secs(600);

/// Whether tmux runs here; `false` (with a message) when the tests
/// should be skipped, a panic under CI.
fn tmux_available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is missing under CI: tests/run.sh installs it (apt-get install tmux)"
        );
        eprintln!("skipped: tmux is not installed (bash tests/run.sh installs it)");
    }
    ok
}

/// A tmux server of our own running `katachi play` in one pane.
struct Session {
    socket: String,
}

impl Session {
    fn start(name: &str, env: &str, args: &str) -> Session {
        let socket = format!("katachi-play-{name}-{}", std::process::id());
        let s = Session { socket };
        // After the program the shell prints its exit status and waits
        // (tmux's own record of a dead pane's status is not always there
        // in time), until the server is killed.
        let command = format!("env {env} {BIN} play {args}; echo {EXIT}$?; exec sleep 3600");
        s.tmux(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "play",
            &command,
        ]);
        s
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `text` as it is, then Enter.
    fn line(&self, text: &str) {
        if !text.is_empty() {
            self.tmux(&["send-keys", "-t", "play", "-l", text]);
        }
        self.tmux(&["send-keys", "-t", "play", "Enter"]);
    }

    fn key(&self, name: &str) {
        self.tmux(&["send-keys", "-t", "play", name]);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-t", "play", "-p"])
    }

    /// The screen with its attributes as escape sequences.
    fn screen_styled(&self) -> String {
        self.tmux(&["capture-pane", "-t", "play", "-p", "-e"])
    }

    /// Waits for a screen `done` says yes to; returns it.
    fn wait(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no screen with {what} in {PATIENCE:?}; the last:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the program to end; its exit status, as the shell after
    /// it prints it on the terminal it gave back.
    fn exit_status(&self) -> String {
        let screen = self.wait("the program's end", |t| t.contains(EXIT));
        let at = screen.find(EXIT).unwrap() + EXIT.len();
        screen[at..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_string()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// Whether a screen drawn with `capture-pane -e` has a foreground or
/// background colour in it (SGR 30-38, 40-48, 90-97, 100-107; 39 and 49
/// are the terminal's own colours back).
fn has_colour(styled: &str) -> bool {
    styled.split("\x1b[").skip(1).any(|seq| {
        let Some(end) = seq.find('m') else {
            return false;
        };
        seq[..end].split(';').any(|p| {
            p.parse::<u32>().is_ok_and(|n| {
                [30..=38, 40..=48, 90..=97, 100..=107]
                    .iter()
                    .any(|r| r.contains(&n))
            })
        })
    })
}

/// The move number the panel shows as `move N: ...`.
fn move_number(screen: &str) -> Option<usize> {
    let at = screen.find("move ")?;
    screen[at + 5..].split(':').next()?.trim().parse().ok()
}

#[test]
fn human_against_human_by_typed_points_without_colours() {
    if !tmux_available() {
        return;
    }
    let s = Session::start(
        "hvh",
        "NO_COLOR=1",
        "--rule freestyle --size 15 --mode hvh --no-mouse",
    );
    s.wait("the board", |t| t.contains("move 1: X to play"));
    for (k, m) in ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"]
        .iter()
        .enumerate()
    {
        s.line(m);
        s.wait("the next move", |t| t.contains(&format!("move {}:", k + 2)));
    }
    s.line("e1");
    let end = s.wait("the win", |t| t.contains("Play again?"));
    assert!(end.contains("X wins with E1"), "{end}");
    assert!(end.contains(" 1 X X X X[X]"), "{end}");
    assert!(end.contains(" 2 O O O O ."), "{end}");
    assert!(!has_colour(&s.screen_styled()), "{}", s.screen_styled());
    s.key("n");
    assert_eq!(s.exit_status(), "0");
}

#[test]
fn human_against_the_computer_to_the_end() {
    if !tmux_available() {
        return;
    }
    let s = Session::start(
        "hvc",
        "TERM=xterm-256color",
        "--rule freestyle --size 15 --mode hvc --symbol x --first you --think 0.2",
    );
    s.wait("the board", |t| t.contains("move 1: you (X) to play"));
    assert!(has_colour(&s.screen_styled()), "colours are on by default");
    // Points two apart every way: the human never makes five, the
    // computer wins.
    let points: Vec<String> = (0..8)
        .flat_map(|r| (0..8).map(move |c| (c, r)))
        .map(|(c, r)| format!("{}{}", (b'A' + 2 * c) as char, 1 + 2 * r))
        .collect();
    let mut over = false;
    for p in &points {
        let t = s.wait("the human's turn or the end", |t| {
            t.contains("you (X) to play") || t.contains("Play again?")
        });
        if t.contains("Play again?") {
            over = true;
            break;
        }
        let n = move_number(&t).expect("a move number");
        s.line(p);
        s.wait("an answer", |t| {
            t.contains(&format!("move {}: you (X) to play", n + 2))
                || t.contains("is taken")
                || t.contains("Play again?")
        });
    }
    let end = if over {
        s.screen()
    } else {
        s.wait("the end", |t| t.contains("Play again?"))
    };
    assert!(end.contains("computer (O) wins"), "{end}");
    s.key("n");
    assert_eq!(s.exit_status(), "0");
}

#[test]
fn computer_against_computer_at_the_fastest_pace() {
    if !tmux_available() {
        return;
    }
    let s = Session::start(
        "cvc",
        "TERM=xterm-256color",
        "--rule renju --size 15 --mode cvc --pace 0 --think 0.05",
    );
    let end = s.wait("the end of the game", |t| t.contains("Play again?"));
    assert!(end.contains("wins") || end.contains("draw"), "{end}");
    // The board ended in a real position: stones of both sides.
    assert!(end.contains(" X") && end.contains(" O"), "{end}");
    // Another game, quit from it by a typed command.
    s.key("y");
    s.wait("a new game", |t| !t.contains("Play again?"));
    s.line("q");
    assert_eq!(s.exit_status(), "0");
}

#[test]
fn pente_from_the_start_screen_counts_the_pairs_taken() {
    if !tmux_available() {
        return;
    }
    // No rule on the command line: the start screen asks, and Pente is
    // the last of its rules (Left from the first wraps to it).
    let s = Session::start("pente", "NO_COLOR=1", "--mode hvh --no-mouse");
    s.wait("the start screen", |t| t.contains("pente"));
    s.key("Left");
    s.wait("Pente chosen on 19x19", |t| {
        t.contains("[pente]") && t.contains("[19x19]")
    });
    s.key("Enter");
    s.wait("the board", |t| t.contains("move 1: X to play"));
    assert!(
        s.screen().contains("pairs taken: X 0, O 0"),
        "{}",
        s.screen()
    );
    // The centre first (the tournament rule), then X brackets O's pair
    // K10 L10 from J10 and M10 and takes it.
    for (k, m) in ["j10", "k10", "a1", "l10"].iter().enumerate() {
        s.line(m);
        s.wait("the next move", |t| t.contains(&format!("move {}:", k + 2)));
    }
    s.line("m10");
    let t = s.wait("the capture", |t| t.contains("move 6:"));
    assert!(t.contains("pairs taken: X 1, O 0"), "{t}");
    s.line("q");
    assert_eq!(s.exit_status(), "0");
}
