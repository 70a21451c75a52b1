//! The Gomocup front end (`katachi::gomocup`) as a manager sees it:
//! scripted sessions, input text in and reply lines out, for every command
//! and reply rule; random input that never breaks the protocol; and
//! searches stopped by `END`, `YXSTOP` and a zero budget.
#![cfg(feature = "compiler")]

#[path = "support/gomocup_brains.rs"]
mod brains;

use std::io::{self, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use brains::{drive, run_lines, well_formed, FirstEmpty};
use katachi::gomocup::{
    self, About, Brain, Info, Limits, Log, Session, Step, Stone, MAX_LINE_BYTES,
};
use katachi::Point;
use proptest::prelude::*;

/// The replies of a whole session through `run` (threads and all), checked
/// against the same session driven on one thread.
fn script(input: &str) -> Vec<String> {
    let replies = run_lines(FirstEmpty::new(), input.as_bytes());
    assert_eq!(replies, drive(&mut FirstEmpty::new(), input.as_bytes()));
    replies
}

fn is_error(line: &str) -> bool {
    line.starts_with("ERROR ")
}

#[test]
fn start_and_about() {
    assert_eq!(
        script("START 20\nABOUT\nEND\n"),
        [
            "OK",
            r#"name="first-empty", version="1", author="test", country="none""#
        ]
    );
}

#[test]
fn start_refused_sizes() {
    let r = script("START 31\nSTART 0\nSTART 200\nSTART 99999999999999999999999\nSTART -1\nSTART\nSTART x\nSTART 20\n");
    assert_eq!(r.len(), 8);
    assert!(r[..7].iter().all(|l| is_error(l)), "{r:?}");
    // The brain's reason is passed on.
    assert_eq!(r[0], "ERROR 31 is too big for the test brain");
    assert_eq!(r[7], "OK");
}

#[test]
fn rectstart() {
    let r = script("RECTSTART 20,20\nRECTSTART 20,15\nRECTSTART 20\nRECTSTART 15, 15\n");
    assert_eq!(r[0], "OK");
    assert_eq!(r[1], "ERROR square boards only");
    assert!(is_error(&r[2]));
    assert_eq!(r[3], "OK");
}

#[test]
fn a_refused_start_leaves_no_board() {
    let r = script("START 20\nSTART 31\nBEGIN\n");
    assert_eq!(r[0], "OK");
    assert!(is_error(&r[1]) && is_error(&r[2]), "{r:?}");
}

#[test]
fn begin_and_turn() {
    assert_eq!(
        script("START 20\nBEGIN\nTURN 1,0\nTURN 5,5\n"),
        ["OK", "0,0", "2,0", "3,0"]
    );
}

#[test]
fn moves_before_start_are_errors() {
    let r = script("BEGIN\nTURN 1,1\nTAKEBACK 1,1\nRESTART\nBOARD\n1,1,1\nDONE\n");
    assert_eq!(r.len(), 5, "{r:?}");
    assert!(r.iter().all(|l| is_error(l)), "{r:?}");
}

#[test]
fn turns_off_the_board_or_on_a_stone() {
    let r = script(
        "START 20\nTURN 0,0\nTURN 0,0\nTURN 1,0\nTURN 20,0\nTURN 0,20\nTURN 99999999999999999999,1\nTURN -1,0\nTURN 1\nTURN a,b\nTURN 2,0\n",
    );
    assert_eq!(r[0], "OK");
    assert_eq!(r[1], "1,0");
    assert_eq!(r[2], "ERROR 0,0 is occupied");
    assert_eq!(r[3], "ERROR 1,0 is occupied");
    assert_eq!(r[4], "ERROR 20,0 is off the board");
    assert_eq!(r[5], "ERROR 0,20 is off the board");
    assert!(r[6..10].iter().all(|l| is_error(l)), "{r:?}");
    // Nothing changed: the brain's next move is the next empty point.
    assert_eq!(r[10], "3,0");
    assert_eq!(r.len(), 11);
}

#[test]
fn case_line_ends_and_spaces() {
    assert_eq!(
        script("start 20\r\n\r\n  begin  \r\nTuRn 5 , 5\r\ntakeBACK 5,5\r\nabout\r\nend\r\n"),
        [
            "OK",
            "0,0",
            "1,0",
            "OK",
            r#"name="first-empty", version="1", author="test", country="none""#
        ]
    );
}

#[test]
fn board_sets_the_position_and_asks_for_a_move() {
    let r = script("START 20\nBOARD\n0,0,1\n1,0,2\n2,0,3\n 4 , 0 , 1 \n\nDONE\nBEGIN\n");
    assert_eq!(r, ["OK", "3,0", "5,0"]);
}

#[test]
fn board_replaces_the_previous_position() {
    let r = script("START 20\nBEGIN\nTURN 1,0\nBOARD\n1,0,2\ndone\n");
    assert_eq!(r, ["OK", "0,0", "2,0", "0,0"]);
}

#[test]
fn a_bad_board_changes_nothing() {
    for bad in [
        "0,0,1\n0,0,2",
        "0,0,4",
        "0,0,0",
        "20,0,1",
        "0,0",
        "x",
        "DONE 1",
        "0,0,1,1",
    ] {
        let input = format!("START 20\nBEGIN\nBOARD\n1,0,1\n{bad}\n3,3,2\nDONE\nBEGIN\n");
        let r = script(&input);
        assert_eq!(r.len(), 4, "{bad}: {r:?}");
        assert!(is_error(&r[2]), "{bad}: {r:?}");
        // Still the position before BOARD: only 0,0 taken.
        assert_eq!(r[3], "1,0", "{bad}: {r:?}");
    }
}

#[test]
fn board_lines_get_no_reply_and_board_needs_done() {
    // Without DONE at the end of the input: no reply, no hang.
    assert_eq!(script("START 20\nBOARD\n0,0,1\n1,1,2\n"), ["OK"]);
    // END inside a block ends the session.
    assert_eq!(script("START 20\nBOARD\n0,0,1\nEND\nABOUT\n"), ["OK"]);
    // DONE alone.
    let r = script("DONE\n");
    assert!(is_error(&r[0]), "{r:?}");
}

#[test]
fn takeback() {
    let r = script("START 20\nBEGIN\nTAKEBACK 0,0\nBEGIN\nTAKEBACK 5,5\nTAKEBACK 20,20\nTAKEBACK\nTURN 1,0\nTAKEBACK 1,0\nTURN 1,0\n");
    assert_eq!(r[..4], ["OK", "0,0", "OK", "0,0"]);
    assert_eq!(r[4], "ERROR no stone at 5,5");
    assert!(is_error(&r[5]) && is_error(&r[6]), "{r:?}");
    assert_eq!(r[7..], ["2,0", "OK", "3,0"]);
}

#[test]
fn restart_empties_the_board() {
    assert_eq!(
        script("START 20\nBEGIN\nRESTART\nBEGIN\n"),
        ["OK", "0,0", "OK", "0,0"]
    );
}

#[test]
fn a_full_board_has_no_move() {
    let r = script("START 1\nBEGIN\nBEGIN\nSTART 2\nBOARD\n0,0,1\n1,0,2\n0,1,1\n1,1,2\nDONE\n");
    assert_eq!(r[..2], ["OK", "0,0"]);
    assert_eq!(r[2], "ERROR the board is full");
    assert_eq!(r[3], "OK");
    assert_eq!(r[4], "ERROR the board is full");
}

#[test]
fn info_gets_no_reply_and_reaches_the_brain() {
    let input = "INFO timeout_turn 1000\nINFO timeout_match 0\nINFO time_left 2147483647\n\
                 INFO max_memory 83886080\nINFO game_type 1\nINFO RULE 1\nINFO folder C:\\brains\\x y\n\
                 INFO unknown_key x\nINFO\nINFO timeout_turn -5\nINFO time_left 99999999999999999999999\n\
                 START 20\nINFO evaluate 1,2\nINFO evaluate 20,2\nBEGIN\n";
    let brain = FirstEmpty::new();
    let seen = Arc::clone(&brain.seen);
    assert_eq!(run_lines(brain, input.as_bytes()), ["OK", "0,0"]);
    let seen = seen.lock().unwrap();
    let ms = Duration::from_millis;
    assert_eq!(
        seen.infos,
        [
            Info::TimeoutTurn(ms(1000)),
            Info::TimeoutMatch(None),
            Info::TimeLeft(None),
            Info::MaxMemory(Some(83_886_080)),
            Info::GameType(1),
            Info::Rule(1),
            Info::Folder("C:\\brains\\x y".into()),
            Info::TimeLeft(None),
            Info::Evaluate(Point::new(2, 1)),
        ]
    );
    assert_eq!(
        seen.limits,
        [Limits {
            budget: Some(ms(900)),
            max_memory: Some(83_886_080)
        }]
    );
}

#[test]
fn a_refused_rule_is_an_error_on_the_next_move() {
    let r = script(
        "START 20\nINFO rule 4\nBEGIN\nTURN 1,1\nBOARD\n1,1,2\nDONE\nINFO rule 1\nBEGIN\nINFO rule x\nTURN 5,5\nINFO rule 0\nTURN 5,5\n",
    );
    assert_eq!(r[0], "OK");
    assert_eq!(r[1], "ERROR INFO rule refused: rule 4 is not played");
    assert!(is_error(&r[2]) && is_error(&r[3]), "{r:?}");
    // Accepted again: the TURN and BOARD refused before changed nothing.
    assert_eq!(r[4], "0,0");
    assert_eq!(r[5], "ERROR INFO rule refused: 'x' is not a rule");
    assert_eq!(r[6], "1,0");
    assert_eq!(r.len(), 7);
}

#[test]
fn unknown_and_malformed_commands() {
    let r = script("FOO\nswap2board\nPLAY 1,1\nBEGIN now\nABOUT me\n\n   \nYXSTOP\n");
    assert_eq!(r.len(), 5, "{r:?}");
    assert_eq!(r[0], "UNKNOWN unknown command 'FOO'");
    assert!(r[1].starts_with("UNKNOWN ") && r[2].starts_with("UNKNOWN "));
    assert!(is_error(&r[3]) && is_error(&r[4]));
}

#[test]
fn invalid_utf8_and_long_lines() {
    let mut input = b"\xff\xfe\nTURN \xff,1\nSTART 20\n".to_vec();
    input.extend(vec![b'X'; MAX_LINE_BYTES + 100]);
    input.extend_from_slice(b"\nINFO folder ");
    input.extend(vec![b'Y'; MAX_LINE_BYTES * 2]);
    input.extend_from_slice(b"\nBOARD\n");
    input.extend(vec![b'1'; MAX_LINE_BYTES + 1]);
    input.extend_from_slice(b"\nDONE\nBEGIN\n");
    let r = run_lines(FirstEmpty::new(), &input);
    assert_eq!(r, drive(&mut FirstEmpty::new(), &input));
    assert!(r[0].starts_with("UNKNOWN "), "{r:?}");
    assert!(is_error(&r[1]));
    assert_eq!(r[2], "OK");
    assert_eq!(r[3], "ERROR line too long");
    assert_eq!(r[4], "ERROR a BOARD line is too long");
    assert_eq!(r[5], "0,0");
    assert_eq!(r.len(), 6);
    // A reply quotes at most a little of the line.
    assert!(r.iter().all(|l| l.len() < 200));
}

#[test]
fn control_characters_quoted_in_a_reply_become_spaces() {
    // Found by the fuzzer: a manager may read a `\r` as a line break.
    let r = script("START 20\nTURN 12,I\r2\nFOO\x0bBAR\tBAZ\x07\n");
    assert_eq!(
        r,
        [
            "OK",
            "ERROR TURN wants x,y, not '12,I 2'",
            "UNKNOWN unknown command 'FOO'"
        ]
    );
    let r = script("START 20\nINFO rule 1\x1b\nBEGIN\n");
    assert_eq!(r[1], "ERROR INFO rule refused: '1 ' is not a rule");
}

/// A brain that answers what it is told to, to test the session's checks
/// on the brain's own moves.
struct Scripted {
    inner: FirstEmpty,
    answer: fn(&FirstEmpty) -> Point,
}

impl Brain for Scripted {
    fn about(&self) -> About {
        About {
            name: "say \"hi\"\nnow".into(),
            ..About::new("x", "0.1")
        }
    }
    fn start(&mut self, w: usize, h: usize) -> Result<(), String> {
        self.inner.start(w, h)
    }
    fn play(&mut self, p: Point, s: Stone) -> Result<(), String> {
        self.inner.play(p, s)
    }
    fn take_back(&mut self, p: Point) -> Result<(), String> {
        self.inner.take_back(p)
    }
    fn think(&mut self, _: &Limits, _: &AtomicBool, log: &Log) -> Point {
        log.message("thinking\nhard");
        log.debug("depth 1");
        (self.answer)(&self.inner)
    }
}

#[test]
fn the_brains_own_moves_are_checked_and_its_messages_written() {
    let off = Scripted {
        inner: FirstEmpty::new(),
        answer: |_| Point::new(-1, 3),
    };
    let r = run_lines(off, b"START 20\nBEGIN\nABOUT\n");
    assert_eq!(
        r,
        [
            "OK",
            "MESSAGE thinking hard",
            "DEBUG depth 1",
            "ERROR the brain chose a point off the board (3,-1)",
            r#"name="say 'hi' now", version="0.1", author="", country="""#
        ]
    );
    let taken = Scripted {
        inner: FirstEmpty::new(),
        answer: |_| Point::new(0, 0),
    };
    let r = run_lines(taken, b"START 20\nTURN 0,0\nBEGIN\n");
    assert_eq!(r[3], "ERROR the brain chose an occupied point (0,0)");
    let panics = Scripted {
        inner: FirstEmpty::new(),
        answer: |_| panic!("no idea"),
    };
    let r = run_lines(panics, b"START 20\nBEGIN\nTURN 1,1\nABOUT\n");
    assert_eq!(r[3], "ERROR the brain failed: no idea");
    // The session goes on after a panic, the brain with it.
    assert_eq!(r[6], "ERROR the brain failed: no idea");
    assert!(r[7].starts_with("name="));
}

/// Input fed line by line by the test; blocks until a line is sent, ends
/// when the sender is dropped.
struct Fed {
    lines: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Fed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.pending = line,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Output handed to the test line by line.
struct Lines(Sender<String>, Vec<u8>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(k) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=k).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line[..k]).into_owned());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A brain that thinks until it is stopped, and says when it starts and
/// whether it saw the flag.
struct Stubborn {
    inner: FirstEmpty,
    started: Sender<()>,
    stopped: Arc<AtomicBool>,
}

impl Brain for Stubborn {
    fn about(&self) -> About {
        About::new("stubborn", "1")
    }
    fn start(&mut self, w: usize, h: usize) -> Result<(), String> {
        self.inner.start(w, h)
    }
    fn play(&mut self, p: Point, s: Stone) -> Result<(), String> {
        self.inner.play(p, s)
    }
    fn take_back(&mut self, p: Point) -> Result<(), String> {
        self.inner.take_back(p)
    }
    fn think(&mut self, _: &Limits, stop: &AtomicBool, _: &Log) -> Point {
        let _ = self.started.send(());
        while !stop.load(Ordering::Relaxed) {
            thread::yield_now();
        }
        self.stopped.store(true, Ordering::Relaxed);
        self.inner.first_empty()
    }
}

/// A session over fed input with a stubborn brain: the line feeder, the
/// replies, "a search started", the brain's "I saw the flag", and the
/// session's thread.
type Live = (
    Sender<Vec<u8>>,
    Receiver<String>,
    Receiver<()>,
    Arc<AtomicBool>,
    thread::JoinHandle<io::Result<()>>,
);

fn live() -> Live {
    let (feed, lines) = mpsc::channel();
    let (reply, replies) = mpsc::channel();
    let (started, thinking) = mpsc::channel();
    let stopped = Arc::new(AtomicBool::new(false));
    let brain = Stubborn {
        inner: FirstEmpty::new(),
        started,
        stopped: Arc::clone(&stopped),
    };
    let input = BufReader::new(Fed {
        lines,
        pending: Vec::new(),
    });
    let session = thread::spawn(move || gomocup::run(brain, input, Lines(reply, Vec::new())));
    (feed, replies, thinking, stopped, session)
}

#[test]
fn end_during_a_search_stops_it_and_ends_the_session() {
    let (feed, replies, thinking, stopped, session) = live();
    feed.send(b"START 20\r\nBEGIN\r\n".to_vec()).unwrap();
    assert_eq!(replies.recv().unwrap(), "OK");
    thinking.recv().unwrap();
    // The search runs until END arrives; the input stays open.
    feed.send(b"END\r\n".to_vec()).unwrap();
    session.join().unwrap().unwrap();
    assert!(
        stopped.load(Ordering::Relaxed),
        "the brain saw the stop flag"
    );
    // The move under way is still written, and nothing after it.
    assert_eq!(replies.recv().unwrap(), "0,0");
    assert!(replies.recv().is_err());
    drop(feed);
}

#[test]
fn commands_read_during_a_search_wait_for_its_move() {
    let (feed, replies, thinking, stopped, session) = live();
    feed.send(b"START 20\nBEGIN\n".to_vec()).unwrap();
    thinking.recv().unwrap();
    // Queued behind the search, then END: the queued TURN is still
    // answered, its search stopped from the start.
    feed.send(b"ABOUT\nTURN 5,5\nEND\n".to_vec()).unwrap();
    session.join().unwrap().unwrap();
    assert!(stopped.load(Ordering::Relaxed));
    let r: Vec<String> = replies.iter().collect();
    assert_eq!(
        r,
        [
            "OK",
            "0,0",
            r#"name="stubborn", version="1", author="", country="""#,
            "1,0"
        ]
    );
    drop(feed);
}

#[test]
fn yxstop_ends_the_search_and_the_session_goes_on() {
    let (feed, replies, thinking, stopped, session) = live();
    feed.send(b"START 20\nBEGIN\n".to_vec()).unwrap();
    thinking.recv().unwrap();
    feed.send(b"YXSTOP\n".to_vec()).unwrap();
    assert_eq!(replies.recv().unwrap(), "OK");
    assert_eq!(replies.recv().unwrap(), "0,0");
    assert!(stopped.load(Ordering::Relaxed));
    stopped.store(false, Ordering::Relaxed);
    feed.send(b"TURN 1,0\n".to_vec()).unwrap();
    thinking.recv().unwrap();
    feed.send(b"yxstop\n".to_vec()).unwrap();
    assert_eq!(replies.recv().unwrap(), "2,0");
    assert!(stopped.load(Ordering::Relaxed));
    // YXSTOP outside a search is no command to answer.
    feed.send(b"YXSTOP\nEND\n".to_vec()).unwrap();
    session.join().unwrap().unwrap();
    assert!(replies.recv().is_err());
}

#[test]
fn zero_turn_time_stops_the_search_from_the_start() {
    let (feed, replies, thinking, stopped, session) = live();
    feed.send(b"INFO timeout_turn 0\nSTART 20\nBEGIN\n".to_vec())
        .unwrap();
    thinking.recv().unwrap();
    assert_eq!(replies.recv().unwrap(), "OK");
    // No further input: the move comes because the flag was raised.
    assert_eq!(replies.recv().unwrap(), "0,0");
    assert!(stopped.load(Ordering::Relaxed));
    feed.send(b"END\n".to_vec()).unwrap();
    session.join().unwrap().unwrap();
}

#[test]
fn the_spent_budget_stops_the_search() {
    let (feed, replies, thinking, stopped, session) = live();
    // A 50 ms turn: a budget of 45 ms, after which the session raises the
    // flag (no assertion on how long that took).
    feed.send(b"INFO timeout_turn 50\nSTART 20\nBEGIN\n".to_vec())
        .unwrap();
    thinking.recv().unwrap();
    assert_eq!(replies.recv().unwrap(), "OK");
    assert_eq!(replies.recv().unwrap(), "0,0");
    assert!(stopped.load(Ordering::Relaxed));
    feed.send(b"END\n".to_vec()).unwrap();
    session.join().unwrap().unwrap();
}

#[test]
fn the_end_of_the_input_stops_a_search() {
    let (feed, replies, thinking, stopped, session) = live();
    feed.send(b"START 20\nBEGIN\n".to_vec()).unwrap();
    thinking.recv().unwrap();
    drop(feed);
    session.join().unwrap().unwrap();
    assert!(stopped.load(Ordering::Relaxed));
    assert_eq!(replies.iter().collect::<Vec<_>>(), ["OK", "0,0"]);
}

#[test]
fn session_record_answers_questions() {
    let mut s = Session::new();
    let mut b = FirstEmpty::new();
    assert_eq!(s.handle_line(&mut b, b"START 15"), Step::Reply("OK".into()));
    assert_eq!(s.size(), Some((15, 15)));
    let Step::Think(limits) = s.handle_line(&mut b, b"TURN 7,3") else {
        panic!("TURN asks for a move");
    };
    assert_eq!(limits, Limits::default());
    assert_eq!(s.stone(Point::new(3, 7)), Some(Stone::Opponent));
    assert_eq!(s.finish(&mut b, Ok(Point::new(0, 1))), "1,0");
    assert_eq!(s.stone(Point::new(0, 1)), Some(Stone::Own));
    assert_eq!(s.stone(Point::new(15, 0)), None);
}

/// Lines a manager might send, right and wrong.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        Just("START"),
        Just("RECTSTART"),
        Just("RESTART"),
        Just("BEGIN"),
        Just("TURN"),
        Just("BOARD"),
        Just("DONE"),
        Just("TAKEBACK"),
        Just("ABOUT"),
        Just("INFO"),
        Just("YXSTOP"),
        Just("turn"),
        Just("info timeout_turn"),
        Just("INFO rule"),
        Just("INFO time_left"),
        Just("INFO evaluate"),
        Just(""),
    ];
    let arg = prop_oneof![
        (0u64..25).prop_map(|n| n.to_string()),
        (0u64..25, 0u64..25).prop_map(|(x, y)| format!("{x},{y}")),
        (0u64..25, 0u64..25, 0u64..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| format!("{n},{n}")),
        Just(String::new()),
        "[ -~]{0,10}",
        "\\PC{0,6}",
    ];
    prop_oneof![
        4 => (word, arg).prop_map(|(w, a)| format!("{w} {a}").into_bytes()),
        2 => (0u64..22, 0u64..22, 1u64..4).prop_map(|(x, y, f)| format!("{x},{y},{f}").into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..40),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random sessions: `run` always returns, every line it writes is a
    /// reply a manager can read, and the replies are those of the session
    /// driven on one thread (so a search, a queue or `END` changes no
    /// reply).
    #[test]
    fn random_sessions_never_break_the_protocol(
        lines in proptest::collection::vec(line(), 0..60),
        end in any::<bool>(),
    ) {
        let mut input = b"START 20\n".to_vec();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        if end {
            input.extend_from_slice(b"END\n");
        }
        let replies = run_lines(FirstEmpty::new(), &input);
        for r in &replies {
            prop_assert!(well_formed(r, 30).is_ok(), "{:?}", well_formed(r, 30));
        }
        prop_assert_eq!(replies, drive(&mut FirstEmpty::new(), &input));
    }

    /// Any bytes at all.
    #[test]
    fn random_bytes_never_break_the_protocol(input in proptest::collection::vec(any::<u8>(), 0..400)) {
        let replies = run_lines(FirstEmpty::new(), &input);
        for r in &replies {
            prop_assert!(well_formed(r, 30).is_ok(), "{:?}", well_formed(r, 30));
        }
        prop_assert_eq!(replies, drive(&mut FirstEmpty::new(), &input));
    }
}
