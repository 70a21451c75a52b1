//! The protocol's state, one line at a time and without threads: the
//! board as the manager has set it, the time limits, the `INFO` values the
//! brain refused, and a `BOARD` block being read. [`run`](super::run)
//! drives it from its threads; tests and the fuzz target drive it
//! directly.

use std::borrow::Cow;
use std::time::Duration;

use super::clock::{budget, Timing, NO_TIME_LIMIT_MS};
use super::command::{self, board_line, count, shorten, Command, Xy};
use super::{Brain, Info, Limits, Stone};
use crate::position::Point;

/// The widest and tallest board the session accepts, before the brain is
/// asked: the session's own record is allocated from `START`'s numbers,
/// so a huge size must be refused before anything is. Far above the
/// boards managers use (15 and 20 in Gomocup).
pub const MAX_SIDE: usize = 128;

/// What the session does after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing to write (`INFO`, `BOARD`'s data lines, empty lines).
    Quiet,
    /// One line to write (without its line break).
    Reply(String),
    /// A move is wanted: call [`Brain::think`] with these limits, then
    /// [`Session::finish`] with its point.
    Think(Limits),
    /// `END`: the session is over.
    End,
}

/// The stones on the board, as the protocol has placed them.
#[derive(Clone, Debug)]
struct Record {
    width: usize,
    height: usize,
    cells: Vec<Option<Stone>>,
}

impl Record {
    fn new(width: usize, height: usize) -> Record {
        Record {
            width,
            height,
            cells: vec![None; width * height],
        }
    }

    /// The point at `xy` and its index, when it is on the board.
    fn locate(&self, xy: Xy) -> Option<(Point, usize)> {
        let x = usize::try_from(xy.x).ok().filter(|&x| x < self.width)?;
        let y = usize::try_from(xy.y).ok().filter(|&y| y < self.height)?;
        // Both are below MAX_SIDE, so they fit an i32.
        Some((Point::new(y as i32, x as i32), y * self.width + x))
    }

    fn index_of(&self, p: Point) -> Option<usize> {
        let x = usize::try_from(p.j).ok().filter(|&x| x < self.width)?;
        let y = usize::try_from(p.i).ok().filter(|&y| y < self.height)?;
        Some(y * self.width + x)
    }

    fn empty_points(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }
}

/// A `BOARD` block between `BOARD` and `DONE`: its stones so far, and the
/// first problem with a data line.
#[derive(Debug, Default)]
struct BoardBlock {
    stones: Vec<(Xy, Stone)>,
    problem: Option<String>,
}

/// The protocol's state between lines.
#[derive(Debug, Default)]
pub struct Session {
    board: Option<Record>,
    timing: Timing,
    max_memory: Option<u64>,
    /// `INFO` values refused (by the brain, or `rule` unreadable), by key,
    /// with the reason: the next request for a move is answered with it.
    refused: Vec<(String, String)>,
    block: Option<BoardBlock>,
}

fn error(message: impl AsRef<str>) -> Step {
    Step::Reply(format!("ERROR {}", message.as_ref()))
}

/// A millisecond count as a duration.
fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// Handles one line of input (without its line break); the brain is
    /// told what changed. Any bytes are accepted.
    pub fn handle_line<B: Brain + ?Sized>(&mut self, brain: &mut B, raw: &[u8]) -> Step {
        match self.step(brain, raw) {
            // A reply may quote the line, whose `\r` or other control
            // characters a manager could take for a line break.
            Step::Reply(reply) => Step::Reply(one_line(&reply)),
            step => step,
        }
    }

    fn step<B: Brain + ?Sized>(&mut self, brain: &mut B, raw: &[u8]) -> Step {
        let text: Cow<str> = String::from_utf8_lossy(raw);
        let line = text.trim();
        if self.block.is_some() {
            return self.board_block_line(brain, line);
        }
        if line.is_empty() {
            return Step::Quiet;
        }
        match command::parse(line) {
            Ok(c) => self.command(brain, c),
            Err(refusal) => Step::Reply(refusal.to_string()),
        }
    }

    /// The reply to a line longer than the input's bound, of which `head`
    /// was kept: `INFO` gets none, as always; anything else `ERROR`.
    pub fn too_long(&mut self, head: &[u8]) -> Step {
        let text = String::from_utf8_lossy(head);
        let word = text.split_whitespace().next().unwrap_or("");
        if let Some(block) = &mut self.block {
            block
                .problem
                .get_or_insert_with(|| "a BOARD line is too long".to_string());
            Step::Quiet
        } else if word.eq_ignore_ascii_case("INFO") {
            Step::Quiet
        } else {
            error("line too long")
        }
    }

    /// The reply to the move `think` chose (`Err` when it failed): the
    /// move is checked against the record, played, and written `x,y`.
    pub fn finish<B: Brain + ?Sized>(
        &mut self,
        brain: &mut B,
        chosen: Result<Point, String>,
    ) -> String {
        let p = match chosen {
            Ok(p) => p,
            Err(why) => return format!("ERROR the brain failed: {}", one_line(&why)),
        };
        let Some(board) = &mut self.board else {
            return "ERROR no board".to_string();
        };
        let Some(k) = board.index_of(p) else {
            return format!(
                "ERROR the brain chose a point off the board ({},{})",
                p.j, p.i
            );
        };
        if board.cells[k].is_some() {
            return format!("ERROR the brain chose an occupied point ({},{})", p.j, p.i);
        }
        if let Err(why) = brain.play(p, Stone::Own) {
            return format!("ERROR {}", one_line(&why));
        }
        board.cells[k] = Some(Stone::Own);
        format!("{},{}", p.j, p.i)
    }

    fn command<B: Brain + ?Sized>(&mut self, brain: &mut B, c: Command) -> Step {
        match c {
            Command::Start { width, height } => self.start(brain, width, height),
            Command::Restart => match &self.board {
                Some(b) => {
                    let (w, h) = (b.width, b.height);
                    self.board = None;
                    self.start(brain, w as u64, h as u64)
                }
                None => error("no board to restart: START first"),
            },
            Command::Begin => {
                if self.board.is_none() {
                    return error("no board: START first");
                }
                self.think()
            }
            Command::Turn(xy) => self.turn(brain, xy),
            Command::Board => {
                self.block = Some(BoardBlock::default());
                Step::Quiet
            }
            Command::Done => error("DONE without BOARD"),
            Command::TakeBack(xy) => self.take_back(brain, xy),
            Command::End => Step::End,
            Command::About => Step::Reply(brain.about().reply()),
            Command::Info { key, value } => {
                self.info(brain, &key, &value);
                Step::Quiet
            }
            // Outside a search there is nothing to stop.
            Command::Stop => Step::Quiet,
        }
    }

    fn start<B: Brain + ?Sized>(&mut self, brain: &mut B, width: u64, height: u64) -> Step {
        let side = |n: u64| {
            usize::try_from(n)
                .ok()
                .filter(|n| (1..=MAX_SIDE).contains(n))
        };
        let (Some(w), Some(h)) = (side(width), side(height)) else {
            return error(format!(
                "unsupported size {width}x{height} (1 to {MAX_SIDE})"
            ));
        };
        // A refused size leaves no board: moves wait for a START that works.
        self.board = None;
        match brain.start(w, h) {
            Ok(()) => {
                self.board = Some(Record::new(w, h));
                Step::Reply("OK".to_string())
            }
            Err(why) => error(one_line(&why)),
        }
    }

    /// A request for a move in the current position, or the reason why
    /// there is none.
    fn think(&self) -> Step {
        if let Some((key, why)) = self.refused.first() {
            return error(format!("INFO {key} refused: {}", one_line(why)));
        }
        let Some(board) = &self.board else {
            return error("no board: START first");
        };
        let empty = board.empty_points();
        if empty == 0 {
            return error("the board is full");
        }
        Step::Think(Limits {
            budget: budget(&self.timing, empty),
            max_memory: self.max_memory,
        })
    }

    fn turn<B: Brain + ?Sized>(&mut self, brain: &mut B, xy: Xy) -> Step {
        if let Some((key, why)) = self.refused.first() {
            return error(format!("INFO {key} refused: {}", one_line(why)));
        }
        let Some(board) = &mut self.board else {
            return error("no board: START first");
        };
        let Some((p, k)) = board.locate(xy) else {
            return error(format!("{},{} is off the board", xy.x, xy.y));
        };
        if board.cells[k].is_some() {
            return error(format!("{},{} is occupied", xy.x, xy.y));
        }
        if let Err(why) = brain.play(p, Stone::Opponent) {
            return error(one_line(&why));
        }
        board.cells[k] = Some(Stone::Opponent);
        self.think()
    }

    fn take_back<B: Brain + ?Sized>(&mut self, brain: &mut B, xy: Xy) -> Step {
        let Some(board) = &mut self.board else {
            return error("no board: START first");
        };
        let Some((p, k)) = board.locate(xy) else {
            return error(format!("{},{} is off the board", xy.x, xy.y));
        };
        if board.cells[k].is_none() {
            return error(format!("no stone at {},{}", xy.x, xy.y));
        }
        if let Err(why) = brain.take_back(p) {
            return error(one_line(&why));
        }
        board.cells[k] = None;
        Step::Reply("OK".to_string())
    }

    /// A line inside a `BOARD` block: a stone, `DONE`, or `END` (which
    /// ends the session even there).
    fn board_block_line<B: Brain + ?Sized>(&mut self, brain: &mut B, line: &str) -> Step {
        if line.is_empty() {
            return Step::Quiet;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("END") {
            self.block = None;
            return Step::End;
        }
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.block.take().unwrap_or_default();
            return self.set_board(brain, block);
        }
        let block = self.block.get_or_insert_with(BoardBlock::default);
        if block.problem.is_some() {
            return Step::Quiet;
        }
        // No more stones than a board can hold: the block's memory is
        // bounded by the largest board however long the manager goes on.
        if block.stones.len() >= MAX_SIDE * MAX_SIDE {
            block.problem = Some("more BOARD lines than points".to_string());
            return Step::Quiet;
        }
        match board_line(line) {
            Some((xy, 1)) => block.stones.push((xy, Stone::Own)),
            Some((xy, 2)) => block.stones.push((xy, Stone::Opponent)),
            Some((xy, 3)) => block.stones.push((xy, Stone::WinningLine)),
            Some((_, field)) => {
                block.problem = Some(format!("BOARD field {field} is not 1, 2 or 3"))
            }
            None => {
                block.problem = Some(format!("BOARD wants x,y,field, not '{}'", shorten(line)));
            }
        }
        Step::Quiet
    }

    /// `DONE`: the block's stones replace the position, all or none, and
    /// the brain is asked for a move.
    fn set_board<B: Brain + ?Sized>(&mut self, brain: &mut B, block: BoardBlock) -> Step {
        if let Some(problem) = block.problem {
            return error(problem);
        }
        let Some(old) = &self.board else {
            return error("no board: START first");
        };
        if let Some((key, why)) = self.refused.first() {
            return error(format!("INFO {key} refused: {}", one_line(why)));
        }
        let mut new = Record::new(old.width, old.height);
        let mut placed = Vec::with_capacity(block.stones.len());
        for (xy, stone) in block.stones {
            let Some((p, k)) = new.locate(xy) else {
                return error(format!("BOARD stone {},{} is off the board", xy.x, xy.y));
            };
            if new.cells[k].is_some() {
                return error(format!("BOARD has two stones at {},{}", xy.x, xy.y));
            }
            new.cells[k] = Some(stone);
            placed.push((p, stone));
        }
        // The block is good: the brain starts again and gets the stones in
        // the manager's order. Should it refuse one, the record keeps
        // exactly what it accepted.
        let mut record = Record::new(new.width, new.height);
        let result = brain.start(record.width, record.height).and_then(|()| {
            placed.iter().try_for_each(|&(p, stone)| {
                brain.play(p, stone)?;
                if let Some(k) = record.index_of(p) {
                    record.cells[k] = Some(stone);
                }
                Ok(())
            })
        });
        self.board = Some(record);
        match result {
            Ok(()) => self.think(),
            Err(why) => error(one_line(&why)),
        }
    }

    /// An `INFO` line: the value read, told to the brain, and kept for the
    /// budget when it is a time.
    fn info<B: Brain + ?Sized>(&mut self, brain: &mut B, key: &str, value: &str) {
        let info = match key {
            "timeout_turn" => count(value).map(|n| Info::TimeoutTurn(ms(n))),
            "timeout_match" => count(value).map(|n| Info::TimeoutMatch((n > 0).then(|| ms(n)))),
            "time_left" => {
                count(value).map(|n| Info::TimeLeft((n < NO_TIME_LIMIT_MS).then(|| ms(n))))
            }
            "max_memory" => count(value).map(|n| Info::MaxMemory((n > 0).then_some(n))),
            "game_type" => count(value)
                .and_then(|n| u32::try_from(n).ok())
                .map(Info::GameType),
            "rule" => match count(value).and_then(|n| u32::try_from(n).ok()) {
                Some(bits) => Some(Info::Rule(bits)),
                None => {
                    // Playing by rules nobody understood is worse than not
                    // playing: an unreadable rule is refused.
                    self.refuse(key, format!("'{}' is not a rule", shorten(value)));
                    return;
                }
            },
            "evaluate" => command::xy(value)
                .and_then(|xy| self.board.as_ref()?.locate(xy))
                .map(|(p, _)| Info::Evaluate(p)),
            "folder" => Some(Info::Folder(value.to_string())),
            _ => None,
        };
        let Some(info) = info else { return };
        match brain.set_info(&info) {
            Ok(()) => {
                self.refused.retain(|(k, _)| k != key);
                match info {
                    Info::TimeoutTurn(t) => self.timing.turn = Some(t),
                    Info::TimeoutMatch(t) => self.timing.match_total = t,
                    Info::TimeLeft(t) => self.timing.left = t,
                    Info::MaxMemory(m) => self.max_memory = m,
                    _ => {}
                }
            }
            Err(why) => self.refuse(key, why),
        }
    }

    fn refuse(&mut self, key: &str, why: String) {
        self.refused.retain(|(k, _)| k != key);
        self.refused.push((key.to_string(), why));
    }

    /// The time limits as the manager last set them.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// The stone at `point`, as the session's record has it (`None` when
    /// empty, off the board, or before `START`).
    pub fn stone(&self, point: Point) -> Option<Stone> {
        let board = self.board.as_ref()?;
        board.cells[board.index_of(point)?]
    }

    /// The board's width and height, once a `START` has been accepted.
    pub fn size(&self) -> Option<(usize, usize)> {
        self.board.as_ref().map(|b| (b.width, b.height))
    }
}

fn one_line(text: &str) -> String {
    super::one_line(text)
}
