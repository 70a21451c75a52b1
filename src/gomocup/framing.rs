//! The session's threads: one reads bounded lines from the input, a
//! worker runs each search, and the caller's thread owns the session and
//! the output, so that `END` and `YXSTOP` are read while the brain thinks.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::session::{Session, Step};
use super::{Brain, Limits, Log};
use crate::position::Point;

/// The longest line read: 64 KiB, far above any command of the protocol
/// (a `BOARD` block comes a stone a line). The rest of a longer line is
/// skipped to its line break without being kept, so a manager that never
/// ends a line cannot make the brain allocate without end.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Reads one line (without its line break) into `line`, keeping at most
/// [`MAX_LINE_BYTES`] of it. `None` at the end of the input; `Some(true)`
/// when the line was too long: the framing GTP's front end uses too
/// ([`crate::input::read_bounded_line`]); a `\r` before the `\n` is the
/// session's to trim.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    crate::input::read_bounded_line(input, line, MAX_LINE_BYTES)
}

/// What the session's thread waits for.
enum Event<B> {
    /// A line of input, and whether it was cut.
    Line(Vec<u8>, bool),
    /// The end of the input, or the error that ended it.
    Closed(Option<io::Error>),
    /// A search's result, with the brain handed back.
    Moved(B, Result<Point, String>),
    /// A `MESSAGE` or `DEBUG` line from the thinking brain.
    Said(String),
}

/// A search under way on the worker thread.
struct Search {
    stop: Arc<AtomicBool>,
    /// When its budget is spent (`None`: no limit, or already stopped).
    deadline: Option<Instant>,
}

impl Search {
    fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.deadline = None;
    }
}

/// Runs the protocol with `brain` until `END` or the end of the input,
/// reading commands from `input` and writing replies to `output` (flushed
/// after every line). `input` is read on a thread of its own, which this
/// function does not wait for: with a pipe or a terminal it may still be
/// blocked in a read when `run` returns. An error reading the input or
/// writing the output ends the session, once any search has stopped, and
/// is returned.
pub fn run<B: Brain + Send + 'static>(
    brain: B,
    mut input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<Event<B>>();
    let reader = tx.clone();
    thread::Builder::new()
        .name("gomocup-input".into())
        .spawn(move || {
            let mut line = Vec::new();
            loop {
                let event = match read_line(&mut input, &mut line) {
                    Ok(Some(cut)) => Event::Line(std::mem::take(&mut line), cut),
                    Ok(None) => Event::Closed(None),
                    Err(e) => Event::Closed(Some(e)),
                };
                let last = matches!(event, Event::Closed(_));
                // The session has ended when nobody receives.
                if reader.send(event).is_err() || last {
                    return;
                }
            }
        })?;
    let mut driver = Driver {
        session: Session::new(),
        brain: Some(brain),
        search: None,
        queue: VecDeque::new(),
        closing: false,
        failure: None,
        tx,
    };
    let result = driver.drive(&rx, &mut output);
    // Never leave a search running behind a failed write: stop it and
    // wait for it, so that the brain is dropped on this thread.
    if let Some(search) = &mut driver.search {
        search.stop();
        while let Ok(event) = rx.recv() {
            if let Event::Moved(..) = event {
                break;
            }
        }
    }
    result.and(driver.failure.map_or(Ok(()), Err))
}

struct Driver<B> {
    session: Session,
    /// The brain, when it is not on the worker thread.
    brain: Option<B>,
    search: Option<Search>,
    /// Lines read during a search, answered after its move.
    queue: VecDeque<(Vec<u8>, bool)>,
    /// `END` or the end of the input has been read: no more lines are
    /// taken, every search stops at once, and the session ends when the
    /// queue is empty.
    closing: bool,
    /// The input's error, returned once the session has ended.
    failure: Option<io::Error>,
    tx: Sender<Event<B>>,
}

impl<B: Brain + Send + 'static> Driver<B> {
    fn drive(&mut self, rx: &Receiver<Event<B>>, output: &mut impl Write) -> io::Result<()> {
        loop {
            while self.search.is_none() {
                let Some((line, cut)) = self.queue.pop_front() else {
                    break;
                };
                let Some(brain) = self.brain.as_mut() else {
                    break;
                };
                let step = if cut {
                    self.session.too_long(&line)
                } else {
                    self.session.handle_line(brain, &line)
                };
                match step {
                    Step::Quiet => {}
                    Step::Reply(reply) => write_line(output, &reply)?,
                    Step::Think(limits) => self.think(limits)?,
                    Step::End => return Ok(()),
                }
            }
            if self.search.is_none() && self.closing {
                return Ok(());
            }
            let event = match self.search.as_mut().and_then(|s| s.deadline) {
                Some(deadline) => {
                    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            if let Some(s) = self.search.as_mut() {
                                s.stop();
                            }
                            continue;
                        }
                        // This thread holds a sender: never disconnected.
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match rx.recv() {
                    Ok(event) => event,
                    Err(_) => return Ok(()),
                },
            };
            match event {
                Event::Line(line, cut) => self.read(line, cut),
                Event::Closed(failure) => {
                    self.failure = failure;
                    self.close();
                }
                Event::Moved(brain, chosen) => {
                    let mut brain = brain;
                    let reply = self.session.finish(&mut brain, chosen);
                    self.brain = Some(brain);
                    self.search = None;
                    write_line(output, &reply)?;
                }
                Event::Said(line) => write_line(output, &line)?,
            }
        }
    }

    /// A line from the input: queued, or during a search acted on at once
    /// when it is `END` or `YXSTOP`.
    fn read(&mut self, line: Vec<u8>, cut: bool) {
        if self.closing {
            return;
        }
        let word = first_word(&line);
        if self.search.is_some() && !cut {
            // Only when nothing waits before it: a queued line may be a
            // `BOARD`, and then `YXSTOP` is one of its (bad) data lines.
            if word.eq_ignore_ascii_case("YXSTOP") && self.queue.is_empty() {
                if let Some(s) = self.search.as_mut() {
                    s.stop();
                }
                return;
            }
            if word.eq_ignore_ascii_case("END") {
                // Queued: the lines before it are still answered.
                self.queue.push_back((line, cut));
                self.close();
                return;
            }
        }
        self.queue.push_back((line, cut));
    }

    fn close(&mut self) {
        self.closing = true;
        if let Some(s) = self.search.as_mut() {
            s.stop();
        }
    }

    /// Starts a search on a worker thread; the brain goes with it and comes
    /// back with the move.
    fn think(&mut self, limits: Limits) -> io::Result<()> {
        let Some(mut brain) = self.brain.take() else {
            return Ok(());
        };
        let at_once = self.closing || limits.budget == Some(Duration::ZERO);
        let stop = Arc::new(AtomicBool::new(at_once));
        let deadline = match limits.budget {
            Some(b) if !at_once => Instant::now().checked_add(b),
            _ => None,
        };
        let search = Search {
            stop: Arc::clone(&stop),
            deadline,
        };
        let tx = self.tx.clone();
        thread::Builder::new()
            .name("gomocup-think".into())
            .spawn(move || {
                let said = tx.clone();
                let sink = move |line: String| {
                    let _ = said.send(Event::Said(line));
                };
                let log = Log::new(&sink);
                let chosen = catch_unwind(AssertUnwindSafe(|| brain.think(&limits, &stop, &log)))
                    .map_err(|panic| {
                        panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "it panicked".to_string())
                    });
                let _ = tx.send(Event::Moved(brain, chosen));
            })?;
        self.search = Some(search);
        Ok(())
    }
}

fn first_word(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(64)]);
    text.split_whitespace().next().unwrap_or("").to_string()
}

fn write_line(output: &mut impl Write, line: &str) -> io::Result<()> {
    output.write_all(line.as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_skipped() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nEND\r\n");
        let mut input = &text[..];
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line).unwrap(), Some(true));
        assert_eq!(line.len(), MAX_LINE_BYTES);
        assert_eq!(read_line(&mut input, &mut line).unwrap(), Some(false));
        assert_eq!(line, b"END\r");
        assert_eq!(read_line(&mut input, &mut line).unwrap(), None);
    }

    #[test]
    fn a_last_line_without_a_break_is_read() {
        let mut input = &b"ABOUT"[..];
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line).unwrap(), Some(false));
        assert_eq!(line, b"ABOUT");
        assert_eq!(read_line(&mut input, &mut line).unwrap(), None);
    }
}
