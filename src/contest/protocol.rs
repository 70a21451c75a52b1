//! The hexagonal contest's file protocol (seed 003): the judge's
//! `state_N.txt` and the player's `move_N.txt`, read with located errors
//! and written atomically.
//!
//! `N` is a team's number, not a move number. The judge writes
//! `state_N.txt` for the team to move:
//!
//! ```text
//! 5
//! 0 1 0 2 1 0 0 … (217 numbers)
//! ```
//!
//! line 1 the number of the move about to be played (5: four stones are on
//! the board and the team places the fifth; a game starts at 1 for the
//! first player and 2 for the second), line 2 the cells in the contest's
//! numbering ([`crate::hexagon`]), separated by spaces: 0 empty, 1 the
//! team's own stone, 2 the opponent's. The team answers with
//! `move_N.txt`: one line, the move number and the cell (`5 17`).
//!
//! Both sides write their file whole under a temporary name and rename it
//! into place ([`write_atomically`], `mkpat::output`), so that the other
//! side never reads half a file; the judge deletes the old `move_N.txt`
//! before it writes a new state, so a stale answer is never read.
//! Readers accept `\r\n` line ends, spaces or tabs between numbers and a
//! missing last newline; anything else is an error that names the file,
//! line and column.

use std::fmt;
use std::path::{Path, PathBuf};

/// The contest board's cells.
pub const CELLS: usize = 217;

/// What a state file says a cell holds, from the reader's side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Mine,
    Theirs,
}

impl Cell {
    fn digit(self) -> char {
        match self {
            Cell::Empty => '0',
            Cell::Mine => '1',
            Cell::Theirs => '2',
        }
    }
}

/// A state file: the move about to be played and the board as the team
/// to move sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    /// The number of the move to play, from 1.
    pub move_number: u32,
    /// The [`CELLS`] cells in number order.
    pub cells: Vec<Cell>,
}

/// A move file: the move's number and its cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Move {
    pub move_number: u32,
    pub cell: u32,
}

/// A file that does not say what the protocol says it must: where, and
/// what was expected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The file's name, as the caller named it.
    pub file: String,
    /// 1-based line and column (in characters).
    pub line: usize,
    pub column: usize,
    /// The offending line, without its line end.
    pub text: String,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.column, self.message
        )?;
        // Long lines (a board is 433 characters) are shown around the
        // caret.
        let chars: Vec<char> = self.text.chars().collect();
        let start = self.column.saturating_sub(1).saturating_sub(40);
        let end = (start + 80).min(chars.len());
        let shown: String = chars[start.min(end)..end].iter().collect();
        let lead = if start > 0 { "…" } else { "" };
        writeln!(f, "  {lead}{shown}")?;
        let pad = self.column.saturating_sub(1) - start + lead.chars().count();
        write!(f, "  {}^", " ".repeat(pad))
    }
}

impl std::error::Error for ParseError {}

/// The words of a line with their 1-based columns.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, (byte, ch)) in line.char_indices().enumerate() {
        if ch == ' ' || ch == '\t' {
            if let Some((c, b)) = start.take() {
                out.push((c, &line[b..byte]));
            }
        } else if start.is_none() {
            start = Some((k + 1, byte));
        }
    }
    if let Some((c, b)) = start {
        out.push((c, &line[b..]));
    }
    out
}

/// The file's lines without their ends, and whether the text was UTF-8.
fn lines_of(bytes: &[u8]) -> Result<Vec<String>, usize> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())?;
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
        .collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    Ok(lines)
}

struct Reader<'a> {
    file: &'a str,
    lines: Vec<String>,
}

impl Reader<'_> {
    fn error(&self, line: usize, column: usize, message: String) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column,
            text: self.lines.get(line - 1).cloned().unwrap_or_default(),
            message,
        }
    }

    /// The number at `word` of line `line`, within `range`.
    fn number(
        &self,
        line: usize,
        (column, word): (usize, &str),
        what: &str,
        range: std::ops::RangeInclusive<u32>,
    ) -> Result<u32, ParseError> {
        match word.parse::<u32>() {
            Ok(n) if range.contains(&n) && word.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            Ok(_) => Err(self.error(
                line,
                column,
                format!(
                    "{what} must be {} to {}, found `{word}`",
                    range.start(),
                    range.end()
                ),
            )),
            Err(_) => Err(self.error(
                line,
                column,
                format!("expected {what} (a number), found `{word}`"),
            )),
        }
    }
}

fn reader<'a>(file: &'a str, bytes: &[u8]) -> Result<Reader<'a>, ParseError> {
    match lines_of(bytes) {
        Ok(lines) => Ok(Reader { file, lines }),
        Err(at) => {
            let before = &bytes[..at];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |k| k + 1);
            let text = String::from_utf8_lossy(&bytes[start..at]).into_owned();
            Err(ParseError {
                file: file.to_string(),
                line,
                column: text.chars().count() + 1,
                text,
                message: "the file is not text (not UTF-8)".into(),
            })
        }
    }
}

/// Reads a state file (named `file` in errors).
pub fn parse_state(file: &str, bytes: &[u8]) -> Result<State, ParseError> {
    let r = reader(file, bytes)?;
    if r.lines.is_empty() {
        return Err(r.error(1, 1, "empty file: expected the move number".into()));
    }
    let first = words(&r.lines[0]);
    let move_number = match first.as_slice() {
        [] => return Err(r.error(1, 1, "expected the move number".into())),
        [w] => r.number(1, *w, "the move number", 1..=CELLS as u32)?,
        [_, (c, _), ..] => {
            return Err(r.error(1, *c, "expected only the move number on line 1".into()))
        }
    };
    if r.lines.len() < 2 {
        let end = r.lines[0].chars().count() + 1;
        return Err(r.error(1, end, format!("expected line 2: the {CELLS} cells")));
    }
    let board = words(&r.lines[1]);
    let mut cells = Vec::with_capacity(CELLS);
    for &(column, word) in &board {
        if cells.len() == CELLS {
            return Err(r.error(2, column, format!("more than {CELLS} cells")));
        }
        cells.push(match word {
            "0" => Cell::Empty,
            "1" => Cell::Mine,
            "2" => Cell::Theirs,
            _ => {
                return Err(r.error(
                    2,
                    column,
                    format!(
                        "expected 0, 1 or 2 for cell {}, found `{word}`",
                        cells.len()
                    ),
                ))
            }
        });
    }
    if cells.len() < CELLS {
        let end = r.lines[1].chars().count() + 1;
        return Err(r.error(
            2,
            end,
            format!("expected {CELLS} cells, found {}", cells.len()),
        ));
    }
    if let Some((k, line)) = r
        .lines
        .iter()
        .enumerate()
        .skip(2)
        .find(|(_, l)| !l.trim().is_empty())
    {
        let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
        return Err(r.error(k + 1, column, "expected nothing after the cells".into()));
    }
    Ok(State { move_number, cells })
}

/// Reads a move file (named `file` in errors).
pub fn parse_move(file: &str, bytes: &[u8]) -> Result<Move, ParseError> {
    let r = reader(file, bytes)?;
    if r.lines.is_empty() {
        return Err(r.error(1, 1, "empty file: expected `MOVE CELL`".into()));
    }
    let w = words(&r.lines[0]);
    let (a, b) = match w.as_slice() {
        [a, b] => (*a, *b),
        [] => return Err(r.error(1, 1, "expected `MOVE CELL`".into())),
        [_] => {
            let end = r.lines[0].chars().count() + 1;
            return Err(r.error(1, end, "expected the cell after the move number".into()));
        }
        [_, _, (c, _), ..] => {
            return Err(r.error(1, *c, "expected only `MOVE CELL` on the line".into()))
        }
    };
    let move_number = r.number(1, a, "the move number", 1..=CELLS as u32)?;
    // Any number parses here: a cell outside the board is the judge's
    // "outside" charge, not a malformed file.
    let cell = r.number(1, b, "the cell", 0..=u32::MAX)?;
    if let Some((k, _)) = r
        .lines
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, l)| !l.trim().is_empty())
    {
        return Err(r.error(k + 1, 1, "expected one line".into()));
    }
    Ok(Move { move_number, cell })
}

impl State {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.move_number);
        for (k, c) in self.cells.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push(c.digit());
        }
        out.push('\n');
        out
    }
}

impl Move {
    /// The file's text.
    pub fn to_text(&self) -> String {
        format!("{} {}\n", self.move_number, self.cell)
    }
}

/// `DIR/state_TEAM.txt`.
pub fn state_path(dir: &Path, team: &str) -> PathBuf {
    dir.join(format!("state_{team}.txt"))
}

/// `DIR/move_TEAM.txt`.
pub fn move_path(dir: &Path, team: &str) -> PathBuf {
    dir.join(format!("move_{team}.txt"))
}

/// Writes `bytes` to `path` whole or not at all: a temporary file beside
/// it, renamed into place (`mkpat::output::write`).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), mkpat::output::Error> {
    mkpat::output::write(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn board(fill: impl Fn(usize) -> Cell) -> Vec<Cell> {
        (0..CELLS).map(fill).collect()
    }

    #[test]
    fn a_state_reads_back_what_was_written() {
        let s = State {
            move_number: 5,
            cells: board(|k| match k % 7 {
                0 => Cell::Mine,
                3 => Cell::Theirs,
                _ => Cell::Empty,
            }),
        };
        let text = s.to_text();
        assert!(text.starts_with("5\n1 0 0 2 0 0 0 1 "));
        assert_eq!(parse_state("s", text.as_bytes()), Ok(s.clone()));
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(parse_state("s", crlf.as_bytes()), Ok(s.clone()));
        let bare = text.trim_end().replace(' ', "\t");
        assert_eq!(parse_state("s", bare.as_bytes()), Ok(s));
    }

    #[test]
    fn a_move_reads_back_and_the_seed_s_example_parses() {
        assert_eq!(
            parse_move("m", b"5 17"),
            Ok(Move {
                move_number: 5,
                cell: 17
            })
        );
        let m = Move {
            move_number: 12,
            cell: 216,
        };
        assert_eq!(parse_move("m", m.to_text().as_bytes()), Ok(m));
        // Outside the board is still a well-formed file.
        assert_eq!(parse_move("m", b"3 999\n").unwrap().cell, 999);
    }

    fn error(r: Result<impl fmt::Debug, ParseError>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn malformed_moves_are_located() {
        assert_eq!(
            error(parse_move("move_1.txt", b"")),
            "move_1.txt:1:1: error: empty file: expected `MOVE CELL`\n  \n  ^"
        );
        assert_eq!(
            error(parse_move("move_1.txt", b"5 x7\n")),
            "move_1.txt:1:3: error: expected the cell (a number), found `x7`\n  5 x7\n    ^"
        );
        assert_eq!(
            error(parse_move("move_1.txt", b"5\n")),
            "move_1.txt:1:2: error: expected the cell after the move number\n  5\n   ^"
        );
        assert!(error(parse_move("m", b"5 17 3")).contains("m:1:6: error: expected only"));
        assert!(error(parse_move("m", b"5 17\n6 18\n")).contains("m:2:1: error: expected one line"));
        assert!(error(parse_move("m", b"0 17")).contains("the move number must be 1 to 217"));
        assert!(error(parse_move("m", b"+5 17")).contains("must be 1 to 217"));
        assert!(error(parse_move("m", b"5 -1")).contains("the cell (a number), found `-1`"));
        assert!(error(parse_move("m", b"5 \xff")).contains("m:1:3: error: the file is not text"));
    }

    #[test]
    fn malformed_states_are_located() {
        let good = State {
            move_number: 1,
            cells: board(|_| Cell::Empty),
        }
        .to_text();
        let e = error(parse_state(
            "state_1.txt",
            good.replacen(" 0", " 3", 1).as_bytes(),
        ));
        assert!(
            e.starts_with("state_1.txt:2:3: error: expected 0, 1 or 2 for cell 1, found `3`"),
            "{e}"
        );
        let short = good.replacen("0 ", "", 1);
        let e = error(parse_state("s", short.as_bytes()));
        assert!(
            e.contains("s:2:432: error: expected 217 cells, found 216"),
            "{e}"
        );
        let long = good.trim_end().to_string() + " 0\n";
        assert!(error(parse_state("s", long.as_bytes())).contains("s:2:435: error: more than 217"));
        assert!(error(parse_state("s", b"")).contains("s:1:1: error: empty file"));
        assert!(error(parse_state("s", b"1\n")).contains("s:1:2: error: expected line 2"));
        assert!(error(parse_state("s", b"1 2\n")).contains("s:1:3: error: expected only"));
        assert!(error(parse_state("s", b"x\n")).contains("expected the move number (a number)"));
        let trailing = good.clone() + "junk\n";
        assert!(
            error(parse_state("s", trailing.as_bytes())).contains("s:3:1: error: expected nothing")
        );
        // The caret under a cell far along the line.
        let far = good.replacen("0\n", "7\n", 2);
        let e = error(parse_state("s", far.as_bytes()));
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(
            lines[1].chars().position(|c| c == '7'),
            lines[2].find('^'),
            "{e}"
        );
    }

    proptest! {
        #[test]
        fn no_text_makes_a_reader_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            let _ = parse_state("s", &bytes);
            let _ = parse_move("m", &bytes);
        }

        #[test]
        fn states_round_trip(n in 1u32..=217, cells in prop::collection::vec(0u8..3, CELLS)) {
            let s = State {
                move_number: n,
                cells: cells.iter().map(|&c| [Cell::Empty, Cell::Mine, Cell::Theirs][c as usize]).collect(),
            };
            prop_assert_eq!(parse_state("s", s.to_text().as_bytes()), Ok(s));
        }
    }
}
