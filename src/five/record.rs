//! Five-in-a-row games and openings as Gomocup's tools write them.
//!
//! A piskvork game record (`.psq`) is a header line and one move a line:
//!
//! ```text
//! Piskvorky 20x20, 11:11, 0
//! 10,10,0
//! 11,10,1523
//! pbrain-someengine.zip
//! -1
//! ```
//!
//! The header gives the board's width and height (the rest of it, which
//! piskvork fills with a position and a flag, is read past and written as
//! zeros); a move is `x,y,milliseconds` with `x` the column and `y` the
//! row, both from 1. Reading stops at the first line that is not a move
//! (piskvork follows the moves with the engines' names and a result).
//!
//! A Gomocup openings file has one opening a line: `x, y` pairs separated
//! by commas, relative to the centre of the board (`size / 2` from 0 on
//! either axis), stones alternately Black and White, Black first:
//! `-1, 0, 0, 0, 1, 1` is three stones.
//!
//! Reading never panics: a bad header, a move off the board or played
//! twice, a number that is not one is a [`RecordError`] with its line,
//! column and the line itself. These formats are read by the engine
//! layer because they hold nothing but points; the protocol that plays
//! through them (Gomocup's `pbrain`) will be a front end.

use std::fmt;

use super::rules::{BoardSizeError, FiveBoard, IllegalMove, Rule, MAX_SIZE, MIN_SIZE};
use crate::position::Point;

/// A game: the board's size and the moves, Black first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub width: usize,
    pub height: usize,
    pub moves: Vec<TimedMove>,
}

/// Why a record cannot be replayed under a rule.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// Five in a row here is played on square boards.
    NotSquare {
        width: usize,
        height: usize,
    },
    Size(BoardSizeError),
    /// Move `number` (from 1) at `point` breaks the rule (`GameOver`:
    /// the game ended before it).
    Move {
        number: usize,
        point: Point,
        error: IllegalMove,
    },
}

impl Record {
    /// The game after its first `moves` moves (all of them when there are
    /// fewer), played under `rule`.
    pub fn replay(&self, rule: Rule, moves: usize) -> Result<FiveBoard, ReplayError> {
        if self.width != self.height {
            return Err(ReplayError::NotSquare {
                width: self.width,
                height: self.height,
            });
        }
        let mut board = FiveBoard::new(self.width, rule).map_err(ReplayError::Size)?;
        for (k, m) in self.moves.iter().take(moves).enumerate() {
            board.play(m.point).map_err(|error| ReplayError::Move {
                number: k + 1,
                point: m.point,
                error,
            })?;
        }
        Ok(board)
    }
}

/// A move and the time its player took.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimedMove {
    /// `i` the row (`y - 1`), `j` the column (`x - 1`).
    pub point: Point,
    pub millis: u32,
}

/// What is wrong with a line of a record or an openings file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordErrorKind {
    /// The first line is not `Piskvorky WxH, ...`.
    Header,
    /// A board side outside 5 to 26.
    BoardSize { width: usize, height: usize },
    /// A field that should be a number (or a time that does not fit).
    Number(String),
    /// A move off the board, as written.
    OffBoard { x: i64, y: i64 },
    /// A point played twice, as written.
    Repeated { x: i64, y: i64 },
    /// An opening line with an odd number of coordinates.
    OddCount(usize),
}

/// A located problem in a record or an openings file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The offending line.
    pub text: String,
    pub kind: RecordErrorKind,
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordErrorKind::Header => {
                write!(f, "not a piskvork header (`Piskvorky WxH, X:Y, N`)")
            }
            RecordErrorKind::BoardSize { width, height } => write!(
                f,
                "a {width}x{height} board: a side is {MIN_SIZE} to {MAX_SIZE}"
            ),
            RecordErrorKind::Number(s) => write!(f, "`{s}` is not a number here"),
            RecordErrorKind::OffBoard { x, y } => write!(f, "{x},{y} is off the board"),
            RecordErrorKind::Repeated { x, y } => write!(f, "{x},{y} is played twice"),
            RecordErrorKind::OddCount(n) => {
                write!(f, "{n} coordinates: an opening is `x, y` pairs")
            }
        }
    }
}

impl RecordError {
    /// The error as a compiler reports it, in file `name`:
    /// `name:line:column: error: what`, the line, a caret under the place.
    pub fn located(&self, name: &str) -> String {
        let caret = " ".repeat(self.column.saturating_sub(1));
        format!(
            "{name}:{}:{}: error: {}\n{}\n{caret}^",
            self.line, self.column, self.kind, self.text
        )
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let caret = " ".repeat(self.column.saturating_sub(1));
        write!(
            f,
            "line {}, column {}: {}\n{}\n{caret}^",
            self.line, self.column, self.kind, self.text
        )
    }
}

impl std::error::Error for RecordError {}

/// A line's comma-separated fields: each trimmed, with its 1-based
/// column.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for field in line.split(',') {
        let lead = field.len() - field.trim_start().len();
        let column = line[..start + lead].chars().count() + 1;
        out.push((column, field.trim()));
        start += field.len() + 1;
    }
    out
}

/// The text without a byte-order mark, line by line (1-based), without
/// line endings.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .map(|(k, l)| (k + 1, l))
}

/// Reads a `.psq` game record (a point played twice is an error).
pub fn read_psq(text: &str) -> Result<Record, RecordError> {
    read_psq_for(text, Rule::Freestyle)
}

/// Reads a `.psq` game record of a game under `rule`: under Pente a
/// point may be played again once its stone was captured, so a repeated
/// point is left to [`Record::replay`], which refuses it when occupied.
pub fn read_psq_for(text: &str, rule: Rule) -> Result<Record, RecordError> {
    let mut lines = numbered_lines(text);
    let (_, header) = lines.next().unwrap_or((1, ""));
    let error = |line: usize, column: usize, text: &str, kind| RecordError {
        line,
        column,
        text: text.to_string(),
        kind,
    };
    let (width, height) = read_header(header).map_err(|(c, k)| error(1, c, header, k))?;
    let mut moves: Vec<TimedMove> = Vec::new();
    for (n, line) in lines {
        let f = fields(line);
        let numbers: Vec<Option<i64>> = f.iter().map(|(_, s)| s.parse().ok()).collect();
        let (Some(x), Some(y)) = (numbers[0], numbers.get(1).copied().flatten()) else {
            break;
        };
        if numbers.len() > 3 || numbers.get(2) == Some(&None) {
            break;
        }
        let millis = match numbers.get(2).copied().flatten() {
            None => 0,
            Some(t) => u32::try_from(t)
                .map_err(|_| error(n, f[2].0, line, RecordErrorKind::Number(f[2].1.into())))?,
        };
        if !(1..=width as i64).contains(&x) || !(1..=height as i64).contains(&y) {
            return Err(error(n, f[0].0, line, RecordErrorKind::OffBoard { x, y }));
        }
        let point = Point::new(y as i32 - 1, x as i32 - 1);
        if rule != Rule::Pente && moves.iter().any(|m| m.point == point) {
            return Err(error(n, f[0].0, line, RecordErrorKind::Repeated { x, y }));
        }
        moves.push(TimedMove { point, millis });
    }
    Ok(Record {
        width,
        height,
        moves,
    })
}

/// `Piskvorky WxH, ...`: the width and height, or the column and kind of
/// the problem.
fn read_header(line: &str) -> Result<(usize, usize), (usize, RecordErrorKind)> {
    let rest = line
        .strip_prefix("Piskvorky")
        .ok_or((1, RecordErrorKind::Header))?;
    let size_at = line.len() - rest.trim_start().len();
    let column = line[..size_at].chars().count() + 1;
    let size = rest.trim_start().split(',').next().unwrap_or("").trim();
    let (w, h) = size
        .split_once('x')
        .ok_or((column, RecordErrorKind::Header))?;
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| (column, RecordErrorKind::Number(s.trim().into())))
    };
    let (width, height) = (number(w)?, number(h)?);
    let ok = |n| (MIN_SIZE..=MAX_SIZE).contains(&n);
    if !ok(width) || !ok(height) {
        return Err((column, RecordErrorKind::BoardSize { width, height }));
    }
    Ok((width, height))
}

/// The record as piskvork writes it (the header's position and flag as
/// zeros), one line each, `\n` line endings.
pub fn write_psq(record: &Record) -> String {
    let mut out = format!("Piskvorky {}x{}, 0:0, 0\n", record.width, record.height);
    for m in &record.moves {
        out += &format!("{},{},{}\n", m.point.j + 1, m.point.i + 1, m.millis);
    }
    out
}

/// Reads a Gomocup openings file for a `size × size` board: each opening
/// its stones in order, Black first. Blank lines are skipped. Every bad
/// line gives one error (its first problem); all of them are returned.
pub fn read_openings(text: &str, size: usize) -> Result<Vec<Vec<Point>>, Vec<RecordError>> {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    for (n, line) in numbered_lines(text) {
        if line.trim().is_empty() {
            continue;
        }
        match read_opening(line, size) {
            Ok(opening) => openings.push(opening),
            Err((column, kind)) => errors.push(RecordError {
                line: n,
                column,
                text: line.to_string(),
                kind,
            }),
        }
    }
    if errors.is_empty() {
        Ok(openings)
    } else {
        Err(errors)
    }
}

fn read_opening(line: &str, size: usize) -> Result<Vec<Point>, (usize, RecordErrorKind)> {
    let f = fields(line);
    let mut numbers = Vec::with_capacity(f.len());
    for &(column, s) in &f {
        let v: i64 = s
            .parse()
            .map_err(|_| (column, RecordErrorKind::Number(s.into())))?;
        numbers.push(v);
    }
    if numbers.len() % 2 == 1 {
        return Err((f[f.len() - 1].0, RecordErrorKind::OddCount(numbers.len())));
    }
    let centre = (size / 2) as i64;
    let mut opening = Vec::with_capacity(numbers.len() / 2);
    for (k, xy) in numbers.chunks(2).enumerate() {
        let (x, y) = (xy[0], xy[1]);
        let column = f[2 * k].0;
        let (i, j) = (centre.saturating_add(y), centre.saturating_add(x));
        if !(0..size as i64).contains(&i) || !(0..size as i64).contains(&j) {
            return Err((column, RecordErrorKind::OffBoard { x, y }));
        }
        let p = Point::new(i as i32, j as i32);
        if opening.contains(&p) {
            return Err((column, RecordErrorKind::Repeated { x, y }));
        }
        opening.push(p);
    }
    Ok(opening)
}

/// An opening as a line of an openings file for a `size × size` board
/// (without the line ending).
pub fn write_opening(opening: &[Point], size: usize) -> String {
    let centre = (size / 2) as i32;
    opening
        .iter()
        .map(|p| format!("{}, {}", p.j - centre, p.i - centre))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_piskvork_record_is_read_up_to_its_trailer() {
        let text = "\u{feff}Piskvorky 20x20, 11:11, 0\r\n10,10,0\r\n11,10,1523\r\n 9 , 11 , 7\r\npbrain-x.zip\r\n-1\r\n";
        let r = read_psq(text).unwrap();
        assert_eq!((r.width, r.height), (20, 20));
        let moves: Vec<(i32, i32, u32)> = r
            .moves
            .iter()
            .map(|m| (m.point.i, m.point.j, m.millis))
            .collect();
        assert_eq!(moves, [(9, 9, 0), (9, 10, 1523), (10, 8, 7)]);
        // A header alone, and moves without times.
        assert!(read_psq("Piskvorky 15x15, 0:0, 0")
            .unwrap()
            .moves
            .is_empty());
        let r = read_psq("Piskvorky 15x15\n1,15\n").unwrap();
        assert_eq!(r.moves[0].point, Point::new(14, 0));
    }

    #[test]
    fn record_errors_are_located() {
        let e = read_psq("Piskvorky 20x20, 0:0, 0\n1,1,0\n21,3,0\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 1));
        assert_eq!(e.kind, RecordErrorKind::OffBoard { x: 21, y: 3 });
        assert_eq!(
            e.to_string(),
            "line 3, column 1: 21,3 is off the board\n21,3,0\n^"
        );
        let e = read_psq("Piskvorky 20x20, 0:0, 0\n1,1,0\n2,2,0\n 1,1,0\n").unwrap_err();
        assert_eq!((e.line, e.column), (4, 2));
        assert_eq!(e.kind, RecordErrorKind::Repeated { x: 1, y: 1 });
        let e = read_psq("Piskvorky 20x20, 0:0, 0\n1,1,-5\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 5, RecordErrorKind::Number("-5".into()))
        );
        let e = read_psq("Gomoku 20x20").unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (1, 1, RecordErrorKind::Header));
        let e = read_psq("Piskvorky 30x20, 0:0, 0").unwrap_err();
        assert_eq!(e.column, 11);
        assert_eq!(
            e.kind,
            RecordErrorKind::BoardSize {
                width: 30,
                height: 20
            }
        );
        assert!(read_psq("Piskvorky 2Ox20").is_err());
        assert!(read_psq("").is_err());
    }

    #[test]
    fn openings_are_read_relative_to_the_centre() {
        let text = "-1, 0, 0, 0, 1, 1\n\n0,0\n";
        let o = read_openings(text, 15).unwrap();
        assert_eq!(
            o,
            [
                vec![Point::new(7, 6), Point::new(7, 7), Point::new(8, 8)],
                vec![Point::new(7, 7)]
            ]
        );
        assert_eq!(write_opening(&o[0], 15), "-1, 0, 0, 0, 1, 1");
        // An even board's centre is `size / 2`.
        assert_eq!(read_openings("0, 0", 20).unwrap()[0], [Point::new(10, 10)]);
    }

    #[test]
    fn every_bad_opening_is_located() {
        let text = "0, 0, 8, 0\n0, 0, 1\n0, 0, 0, 0\n0, x\n-7, -7\n";
        let errors = read_openings(text, 15).unwrap_err();
        let got: Vec<(usize, usize, RecordErrorKind)> = errors
            .iter()
            .map(|e| (e.line, e.column, e.kind.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (1, 7, RecordErrorKind::OffBoard { x: 8, y: 0 }),
                (2, 7, RecordErrorKind::OddCount(3)),
                (3, 7, RecordErrorKind::Repeated { x: 0, y: 0 }),
                (4, 4, RecordErrorKind::Number("x".into())),
            ]
        );
        assert_eq!(
            errors[1].to_string(),
            "line 2, column 7: 3 coordinates: an opening is `x, y` pairs\n0, 0, 1\n      ^"
        );
    }

    fn record() -> impl Strategy<Value = Record> {
        (MIN_SIZE..=MAX_SIZE, MIN_SIZE..=MAX_SIZE).prop_flat_map(|(width, height)| {
            let mv = (0..height as i32, 0..width as i32, any::<u32>());
            prop::collection::vec(mv, 0..40).prop_map(move |moves| {
                let mut out: Vec<TimedMove> = Vec::new();
                for (i, j, millis) in moves {
                    let point = Point::new(i, j);
                    if !out.iter().any(|m| m.point == point) {
                        out.push(TimedMove { point, millis });
                    }
                }
                Record {
                    width,
                    height,
                    moves: out,
                }
            })
        })
    }

    proptest! {
        #[test]
        fn psq_round_trips(r in record(), trailer in "[a-z.-]{1,12}") {
            let text = write_psq(&r);
            prop_assert_eq!(read_psq(&text), Ok(r.clone()));
            // The engines' names and the result after the moves are
            // ignored.
            prop_assert_eq!(read_psq(&format!("{text}{trailer}\n-1\n")), Ok(r));
        }

        #[test]
        fn openings_round_trip(size in MIN_SIZE..=MAX_SIZE, r in record()) {
            let opening: Vec<Point> = r
                .moves
                .iter()
                .map(|m| m.point)
                .filter(|p| p.i < size as i32 && p.j < size as i32)
                .collect();
            if !opening.is_empty() {
                let line = write_opening(&opening, size);
                prop_assert_eq!(read_openings(&line, size), Ok(vec![opening]));
            }
        }

        #[test]
        fn any_text_is_read_without_panic(text in "\\PC{0,80}", size in MIN_SIZE..=MAX_SIZE) {
            let _ = read_psq(&text);
            let _ = read_psq(&format!("Piskvorky 15x15\n{text}"));
            let _ = read_openings(&text, size);
        }
    }
}
