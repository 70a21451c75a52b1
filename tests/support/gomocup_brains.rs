//! Test brains for the Gomocup front end, and the checks its tests share
//! with the `gomocup` fuzz target (`tests/gomocup.rs`,
//! `tests/fuzz/bodies.rs`).

#![allow(dead_code)] // each user takes what it needs

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use katachi::gomocup::{rule, About, Brain, Info, Limits, Log, Session, Step, MAX_LINE_BYTES};
use katachi::Point;

/// What a [`FirstEmpty`] was told, shared with the test that made it.
#[derive(Debug, Default)]
pub struct Seen {
    pub infos: Vec<Info>,
    pub limits: Vec<Limits>,
}

/// A deterministic brain: it plays the first empty point in reading order
/// (row by row, `x` fastest) and ignores the stop flag. It plays square
/// boards of 1 to 30 points a side and the rules 0 (freestyle) and 1
/// (exactly five); `BOARD`'s field 3 is a taken point like any other.
#[derive(Debug, Default)]
pub struct FirstEmpty {
    width: usize,
    height: usize,
    taken: Vec<bool>,
    pub seen: Arc<Mutex<Seen>>,
}

impl FirstEmpty {
    pub fn new() -> FirstEmpty {
        FirstEmpty::default()
    }

    fn index(&self, p: Point) -> Result<usize, String> {
        let (x, y) = (p.j as usize, p.i as usize);
        if p.i < 0 || p.j < 0 || x >= self.width || y >= self.height {
            return Err(format!("({},{}) off the test brain's board", p.j, p.i));
        }
        Ok(y * self.width + x)
    }

    /// The first empty point in reading order.
    pub fn first_empty(&self) -> Point {
        let k = self.taken.iter().position(|t| !t).unwrap_or(0);
        let w = self.width.max(1);
        Point::new((k / w) as i32, (k % w) as i32)
    }
}

impl Brain for FirstEmpty {
    fn about(&self) -> About {
        About {
            name: "first-empty".into(),
            version: "1".into(),
            author: "test".into(),
            country: "none".into(),
        }
    }

    fn start(&mut self, width: usize, height: usize) -> Result<(), String> {
        if width != height {
            return Err("square boards only".into());
        }
        if width > 30 {
            return Err(format!("{width} is too big for the test brain"));
        }
        self.width = width;
        self.height = height;
        self.taken = vec![false; width * height];
        Ok(())
    }

    fn play(&mut self, point: Point, _stone: katachi::gomocup::Stone) -> Result<(), String> {
        let k = self.index(point)?;
        if self.taken[k] {
            return Err("the test brain has a stone there".into());
        }
        self.taken[k] = true;
        Ok(())
    }

    fn take_back(&mut self, point: Point) -> Result<(), String> {
        let k = self.index(point)?;
        self.taken[k] = false;
        Ok(())
    }

    fn set_info(&mut self, info: &Info) -> Result<(), String> {
        self.seen.lock().unwrap().infos.push(info.clone());
        match info {
            Info::Rule(bits) if bits & !rule::EXACTLY_FIVE != 0 => {
                Err(format!("rule {bits} is not played"))
            }
            _ => Ok(()),
        }
    }

    fn think(&mut self, limits: &Limits, _stop: &AtomicBool, _log: &Log) -> Point {
        self.seen.lock().unwrap().limits.push(*limits);
        self.first_empty()
    }
}

/// Drives a [`Session`] on this thread over `input` as `run` reads it
/// (lines split at `\n`, cut at [`MAX_LINE_BYTES`]), each search run at
/// once with its stop flag raised: the replies `run` must write for a
/// brain that ignores the flag.
pub fn drive<B: Brain>(brain: &mut B, input: &[u8]) -> Vec<String> {
    let mut session = Session::new();
    let mut out = Vec::new();
    let stop = AtomicBool::new(true);
    let said = Mutex::new(Vec::new());
    let sink = |line: String| said.lock().unwrap().push(line);
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") {
        lines.pop();
    }
    for line in lines {
        let step = if line.len() > MAX_LINE_BYTES {
            session.too_long(&line[..MAX_LINE_BYTES])
        } else {
            session.handle_line(brain, line)
        };
        match step {
            Step::Quiet => {}
            Step::Reply(r) => out.push(r),
            Step::Think(limits) => {
                let p = brain.think(&limits, &stop, &Log::new(&sink));
                out.append(&mut said.lock().unwrap());
                out.push(session.finish(brain, Ok(p)));
            }
            Step::End => break,
        }
    }
    out
}

/// Runs `katachi::gomocup::run` over `input` in memory; its output lines.
pub fn run_lines<B: Brain + Send + 'static>(brain: B, input: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    katachi::gomocup::run(brain, std::io::Cursor::new(input.to_vec()), &mut out)
        .expect("in-memory input and output never fail");
    let text = String::from_utf8(out).expect("replies are UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "unterminated output {text:?}"
    );
    text.lines().map(str::to_string).collect()
}

/// Whether `line` is something a brain may write: `OK`, `ERROR ...`,
/// `UNKNOWN ...`, `MESSAGE ...`, `DEBUG ...`, the `ABOUT` line, or a move
/// `x,y` on a board of at most `side` points a side.
pub fn well_formed(line: &str, side: usize) -> Result<(), String> {
    if line.contains(['\r', '\n']) {
        return Err(format!("a line break inside {line:?}"));
    }
    if line == "OK"
        || line.starts_with("ERROR ")
        || line.starts_with("UNKNOWN ")
        || line.starts_with("MESSAGE ")
        || line.starts_with("DEBUG ")
        || line.starts_with("name=\"")
    {
        return Ok(());
    }
    let Some((x, y)) = line.split_once(',') else {
        return Err(format!("not a reply: {line:?}"));
    };
    match (x.parse::<usize>(), y.parse::<usize>()) {
        (Ok(x), Ok(y)) if x < side && y < side => Ok(()),
        _ => Err(format!("not a move on the board: {line:?}")),
    }
}
