//! The Gomoku AI protocol ("pbrain"), as the Gomocup manager and piskvork
//! run a brain, for any engine that implements [`Brain`].
//!
//! The protocol is line based: the manager writes one command a line to
//! the brain's standard input, the brain answers on its standard output.
//! This module knows no game: it keeps its own record of the stones (to
//! refuse a move on an occupied point and to answer `TAKEBACK`), turns the
//! manager's time information into a per-move budget, and hands the
//! engine stones, settings and requests for a move through the small
//! [`Brain`] trait. Five in a row's rules (who won, forbidden points) are
//! the engine's.
//!
//! # The commands
//!
//! Command names and `INFO` keys are case-insensitive. Coordinates are
//! 0-based `x,y`, `x` the column and `y` the row; they become a core
//! [`Point`] with `i = y` (row) and `j = x` (column), as the matcher's
//! boards count.
//!
//! | command | reply |
//! | --- | --- |
//! | `START n` | `OK`, or `ERROR message` when the brain refuses an `n`x`n` board |
//! | `RECTSTART w,h` | `OK` or `ERROR message` (a brain that plays square boards only refuses `w != h`) |
//! | `RESTART` | `OK`: a new game on the same board |
//! | `BEGIN` | the brain's move `x,y` |
//! | `TURN x,y` | the opponent's move; the brain's move `x,y` |
//! | `BOARD`, lines `x,y,field`, `DONE` | a whole new position, then the brain's move |
//! | `TAKEBACK x,y` | `OK`: the stone at `x,y` is removed |
//! | `ABOUT` | `name="...", version="...", author="...", country="..."` |
//! | `INFO key value` | none |
//! | `END` | none: the session ends |
//! | `YXSTOP` | none: the search under way stops and its move is sent (Yixin's extension, sent by several GUIs); ignored when no search is under way or a command read before it waits |
//!
//! A command the protocol does not have gets `UNKNOWN message`; a known
//! command that is malformed or cannot be done (a move off the board or on
//! a stone, a move before `START`, a `DONE` without `BOARD`) gets `ERROR
//! message` and changes nothing. Empty lines are ignored, a line is at
//! most [`MAX_LINE_BYTES`] long (a longer one is cut and answered `ERROR`
//! unless it is an `INFO`), and bytes that are not UTF-8 are replaced.
//!
//! `BOARD`'s data lines get no reply: their field is `1` for the brain's
//! own stone, `2` for the opponent's and `3` for a stone of a five already
//! made in a continuous game (`INFO rule` bit 2), which belongs to neither
//! side any more ([`Stone::WinningLine`]). The lines are checked when
//! `DONE` arrives and the position is then set as a whole or, when a line
//! is malformed, off the board or repeats a point, not at all (`ERROR`).
//!
//! `INFO` is never answered. Its values go to [`Brain::set_info`] as an
//! [`Info`]; the time values also feed the session's budget
//! ([`budget`]). A value the brain refuses (say a `rule` it does not
//! play), and a `rule` that is not a number, is remembered and the next
//! command that asks for a move (`BEGIN`, `TURN`, `BOARD`) is answered
//! `ERROR` with the brain's reason instead of a move, until an `INFO`
//! with the same key is accepted: the manager learns of it at the first
//! point where it is waiting for an answer, and the brain never plays a
//! game by rules it does not know. Other malformed values (a negative
//! time) are ignored; unknown keys too.
//!
//! # Thinking while reading
//!
//! [`run`] reads the input on a thread of its own and runs
//! [`Brain::think`] on a worker thread, so that commands keep arriving
//! while the brain thinks. `END` (and the end of the input) raises the
//! search's stop flag, the move under way is still written (a manager
//! that has gone ignores it), commands read before `END` are still
//! answered, each with its search stopped from the start, and the session
//! ends: so `END` is prompt whenever the brain honours the flag, and the
//! replies do not depend on when `END` arrived. Other commands read during
//! a search wait for its move. The session also raises the flag when the
//! move's time budget is spent; a budget of zero (`INFO timeout_turn 0`:
//! play as fast as possible) raises it from the start.
//!
//! # Plugging in an engine
//!
//! A `pbrain-NAME` binary (Gomocup's name for a brain) is a shell around
//! [`run`]:
//!
//! ```no_run
//! # use katachi::gomocup::{Brain, About, Info, Limits, Log, Stone};
//! # use katachi::Point;
//! # use std::sync::atomic::AtomicBool;
//! # struct Engine;
//! # impl Brain for Engine {
//! #     fn about(&self) -> About { About::new("katachi", "0") }
//! #     fn start(&mut self, _: usize, _: usize) -> Result<(), String> { Ok(()) }
//! #     fn play(&mut self, _: Point, _: Stone) -> Result<(), String> { Ok(()) }
//! #     fn take_back(&mut self, _: Point) -> Result<(), String> { Ok(()) }
//! #     fn think(&mut self, _: &Limits, _: &AtomicBool, _: &Log) -> Point { Point::new(0, 0) }
//! # }
//! fn main() -> std::io::Result<()> {
//!     let input = std::io::BufReader::new(std::io::stdin());
//!     katachi::gomocup::run(Engine, input, std::io::stdout().lock())
//! }
//! ```
//!
//! The session flushes after every line it writes. When `run` returns,
//! the input thread may still be blocked reading standard input: the
//! binary returns from `main` and the process ends with it.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::position::Point;

mod clock;
mod command;
mod framing;
mod session;

pub use clock::{budget, Timing, NO_TIME_LIMIT_MS};
pub use framing::{run, MAX_LINE_BYTES};
pub use session::{Session, Step, MAX_SIDE};

/// `INFO rule` bits, as the manager sends them (0 is freestyle: five or
/// more in a row win).
pub mod rule {
    /// Exactly five in a row win; six or more do not.
    pub const EXACTLY_FIVE: u32 = 1;
    /// A continuous game: play goes on after a five (`BOARD` field 3).
    pub const CONTINUOUS: u32 = 2;
    /// Renju: black's forbidden points.
    pub const RENJU: u32 = 4;
    /// Caro: a five blocked at both ends does not win.
    pub const CARO: u32 = 8;
}

/// Whose a stone is, as `TURN`, `BOARD` and the brain's own moves place it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stone {
    /// The brain's own stone (`BOARD` field 1, and every move it plays).
    Own,
    /// The opponent's stone (`TURN`, `BOARD` field 2).
    Opponent,
    /// `BOARD` field 3: a stone of a five already made in a continuous
    /// game; the point is taken but the stone counts for neither side.
    WinningLine,
}

/// What `ABOUT` answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    pub name: String,
    pub version: String,
    pub author: String,
    pub country: String,
}

impl About {
    /// A brain's name and version; author and country empty.
    pub fn new(name: &str, version: &str) -> About {
        About {
            name: name.to_string(),
            version: version.to_string(),
            author: String::new(),
            country: String::new(),
        }
    }

    /// The `ABOUT` reply: `name="..", version="..", author="..",
    /// country=".."`. A `"` inside a value becomes `'` and a line break a
    /// space, so that the reply stays one line a manager can split.
    pub fn reply(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| match c {
                    '"' => '\'',
                    c if c.is_control() => ' ',
                    c => c,
                })
                .collect()
        };
        format!(
            "name=\"{}\", version=\"{}\", author=\"{}\", country=\"{}\"",
            clean(&self.name),
            clean(&self.version),
            clean(&self.author),
            clean(&self.country)
        )
    }
}

/// One `INFO` value, read and checked, as the brain receives it. Times are
/// the manager's milliseconds; "no limit" is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: the most a move may take; zero means play as fast
    /// as possible.
    TimeoutTurn(Duration),
    /// `timeout_match`: the whole match's time (`0`: no limit).
    TimeoutMatch(Option<Duration>),
    /// `time_left`: what is left of the match's time
    /// ([`NO_TIME_LIMIT_MS`] or more: no limit).
    TimeLeft(Option<Duration>),
    /// `max_memory` in bytes (`0`: no limit).
    MaxMemory(Option<u64>),
    /// `game_type`: 0 a human opponent, 1 a brain, 2 a tournament, 3 a
    /// network tournament.
    GameType(u32),
    /// `rule`: a set of [`rule`] bits; the brain refuses what it does not
    /// play.
    Rule(u32),
    /// `evaluate x,y`: the point under a GUI's mouse, for a brain that
    /// shows its evaluation in `MESSAGE`s (ignored when off the board).
    Evaluate(Point),
    /// `folder`: where the brain may keep files between matches.
    Folder(String),
}

/// What a move may cost, from the manager's `INFO` values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The time to spend on this move ([`budget`]); `None` when the
    /// manager set no limit at all. The session raises the stop flag when
    /// it is spent, so a brain may simply search until stopped.
    pub budget: Option<Duration>,
    /// `max_memory`, in bytes; `None` for no limit.
    pub max_memory: Option<u64>,
}

/// Where a thinking brain's `MESSAGE` and `DEBUG` lines go: the session
/// writes them as they come, between its replies. A line break in the text
/// becomes a space (a line of the protocol is one line).
pub struct Log<'a> {
    sink: &'a (dyn Fn(String) + Sync),
}

impl<'a> Log<'a> {
    /// A log that hands each protocol line (`MESSAGE text`, `DEBUG text`)
    /// to `sink`.
    pub fn new(sink: &'a (dyn Fn(String) + Sync)) -> Log<'a> {
        Log { sink }
    }

    /// `MESSAGE text`: shown to the user by the manager.
    pub fn message(&self, text: &str) {
        (self.sink)(format!("MESSAGE {}", one_line(text)));
    }

    /// `DEBUG text`: kept in the manager's log.
    pub fn debug(&self, text: &str) {
        (self.sink)(format!("DEBUG {}", one_line(text)));
    }
}

impl std::fmt::Debug for Log<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Log")
    }
}

fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A five-in-a-row engine as the protocol drives it. The session checks
/// the protocol's side of every command first (a board exists, a point is
/// on it and empty, a stone is there to take back), so a brain sees only
/// well-formed requests; it answers `Err(reason)` for what its game or
/// its rules refuse, and the session replies `ERROR reason`.
///
/// The calls come in the protocol's order: `start`, then stones through
/// `play` and `take_back`, `set_info` at any time, `think` when a move is
/// wanted. `think` runs on a worker thread (hence `Send` in [`run`]), never
/// at the same time as another call. A panic in `think` is answered
/// `ERROR the brain failed: ...` and the session goes on with the same
/// brain; a panic in any other method unwinds out of [`run`].
pub trait Brain {
    /// What `ABOUT` answers.
    fn about(&self) -> About;

    /// A new, empty game on a `width` x `height` board (`START`,
    /// `RECTSTART`, `RESTART`, and before `BOARD`'s stones). Both are at
    /// least 1 and at most [`MAX_SIDE`]; refuse what the engine does not
    /// play.
    fn start(&mut self, width: usize, height: usize) -> Result<(), String>;

    /// A stone on an empty point of the board: the opponent's (`TURN`),
    /// any of `BOARD`'s, or the brain's own move just returned by
    /// [`think`](Brain::think), which does not place it itself.
    fn play(&mut self, point: Point, stone: Stone) -> Result<(), String>;

    /// `TAKEBACK`: the stone at `point` (there is one) is removed.
    fn take_back(&mut self, point: Point) -> Result<(), String>;

    /// An `INFO` value; refuse what the engine cannot honour (a `rule` it
    /// does not play): the next request for a move is then answered
    /// `ERROR reason`. The default accepts everything.
    fn set_info(&mut self, info: &Info) -> Result<(), String> {
        let _ = info;
        Ok(())
    }

    /// The brain's move in the current position, which has at least one
    /// empty point. It must return soon after `stop` becomes true (it may
    /// be true from the start) and always return a point; one off the
    /// board or on a stone is answered `ERROR` instead of being played.
    /// `MESSAGE` and `DEBUG` lines go through `log`.
    fn think(&mut self, limits: &Limits, stop: &AtomicBool, log: &Log) -> Point;
}
