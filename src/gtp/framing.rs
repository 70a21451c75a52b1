//! GTP's framing: one command a line, one response a command, read from
//! any `BufRead` within a bound on the line's length, written and flushed
//! to any `Write`; the session ends at `quit` or the end of the input.

use std::io::{self, BufRead, Write};

use super::{Gtp, GtpOptions};

/// Runs the protocol until `quit` or the end of the input.
pub fn run(input: impl BufRead, output: impl Write) -> io::Result<()> {
    run_with(input, output, GtpOptions::default())
}

/// Runs the protocol with `options`; the record, when asked for, is
/// written after every move and once more at the end.
pub fn run_with(
    mut input: impl BufRead,
    mut output: impl Write,
    options: GtpOptions,
) -> io::Result<()> {
    let mut gtp = Gtp::with_options(options);
    let result = session(&mut gtp, &mut input, &mut output);
    gtp.write_record();
    result
}

/// The longest command line read: 64 KiB, far above any GTP command.
/// A longer line is answered `? line too long` (with its id when one
/// starts it) and skipped to its newline without being buffered, so a
/// peer that never sends a newline cannot make the engine allocate
/// without end.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Reads one line (without its newline) into `line`, keeping at most
/// [`MAX_LINE_BYTES`] of it and discarding the rest up to the newline.
/// `None` at the end of the input; `Some(true)` when the line was too
/// long.
pub(super) fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    crate::input::read_bounded_line(input, line, MAX_LINE_BYTES)
}

/// The response to a line over [`MAX_LINE_BYTES`]: `?ID line too long`
/// when the kept start of the line begins with an id, else without one.
fn too_long_reply(head: &[u8]) -> String {
    let text = String::from_utf8_lossy(head);
    let id = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .find(|t| !t.is_empty())
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or("");
    format!("?{id} line too long\n\n")
}

fn session(gtp: &mut Gtp, input: &mut impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let mut line = Vec::new();
    while let Some(too_long) = read_line(input, &mut line)? {
        let reply = if too_long {
            Some(too_long_reply(&line))
        } else {
            gtp.handle_line(&line)
        };
        if let Some(reply) = reply {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
        }
        if gtp.quit_requested() {
            return Ok(());
        }
    }
    Ok(())
}
