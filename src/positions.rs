//! Reader of positions files, the conformance corpus's board format.
//!
//! A file is a sequence of positions separated by blank lines, each
//!
//! ```text
//! to_move X        X = black, O = white: the side to move
//! 9                board size, 1 to 26
//! 9 rows of `.`, `X` and `O`
//! ```
//!
//! A malformed file is never a panic: every problem becomes a located
//! [`Diagnostic`] (`file:line:col: error: message`, the line and a caret,
//! rendered by [`mkpat::diag::SourceFile`]), and after an error the reader
//! skips to the next blank line so that one run reports all of them.
//! A leading UTF-8 byte-order mark is skipped. `katachi match` reads a
//! file of at most [`crate::input::MAX_INPUT_BYTES`].

use mkpat::diag::{Diagnostic, SourceFile, Span};

use crate::board::{Board, MAX_SIZE};
use crate::position::{Color, Point};

/// One position read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionRecord {
    pub to_move: Color,
    pub board: Board,
    /// 1-based line of its `to_move` header.
    pub line: usize,
}

/// Every problem found in a positions file, with the file to render them.
#[derive(Debug)]
pub struct PositionsError {
    pub source: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for PositionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.source.render_all(&self.diagnostics))?;
        write!(
            f,
            "{}: {} error(s): not a valid positions file",
            self.source.name,
            self.diagnostics.len()
        )
    }
}

impl std::error::Error for PositionsError {}

/// A line of the file: its byte offset and text without the line ending.
struct Line<'a> {
    start: usize,
    text: &'a str,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
    /// The span of the trimmed content (or of the line start when empty).
    fn content_span(&self) -> Span {
        let lead = self.text.len() - self.text.trim_start().len();
        let len = self.text.trim().len().max(1);
        Span::new(self.start + lead, self.start + lead + len)
    }
}

/// Reads a positions file. `name` is the path shown in diagnostics.
pub fn parse_positions(name: &str, bytes: &[u8]) -> Result<Vec<PositionRecord>, PositionsError> {
    // A byte-order mark (editors on Windows write one) is not part of the
    // first header; columns count from after it, as editors show them.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (source, mut diags) = SourceFile::from_bytes(name, bytes);
    let mut lines = Vec::new();
    let mut start = 0;
    for raw in source.text.split_inclusive('\n') {
        lines.push(Line {
            start,
            text: raw.trim_end_matches(['\n', '\r']),
        });
        start += raw.len();
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].is_blank() {
            k += 1;
            continue;
        }
        match read_position(&lines, &mut k, &source) {
            Ok(rec) => out.push(rec),
            Err(d) => {
                diags.push(d);
                // Resynchronise at the next blank line.
                while k < lines.len() && !lines[k].is_blank() {
                    k += 1;
                }
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(PositionsError {
            source,
            diagnostics: diags,
        })
    }
}

/// Reads one position starting at the non-blank line `*k`, leaving `*k`
/// after it; on error `*k` is at the offending line.
fn read_position(
    lines: &[Line<'_>],
    k: &mut usize,
    source: &SourceFile,
) -> Result<PositionRecord, Diagnostic> {
    let header = &lines[*k];
    let header_line = *k + 1;
    let mut words = header.text.split_whitespace();
    let to_move = match (words.next(), words.next(), words.next()) {
        (Some("to_move"), Some("X"), None) => Color::Black,
        (Some("to_move"), Some("O"), None) => Color::White,
        (Some("to_move"), Some(other), None) => {
            let at = header.start + header.text.find(other).unwrap_or(0);
            return Err(Diagnostic::error(
                Span::new(at, at + other.len()),
                format!("unknown side to move `{other}`"),
            )
            .note("write `to_move X` (black to move) or `to_move O` (white to move)"));
        }
        _ => {
            return Err(Diagnostic::error(
                header.content_span(),
                "expected a position header `to_move X` or `to_move O`",
            )
            .note("positions are separated by one blank line"));
        }
    };
    *k += 1;
    let end_of_file = Span::at(source.text.len());
    let Some(size_line) = lines.get(*k).filter(|l| !l.is_blank()) else {
        let span = lines.get(*k).map_or(end_of_file, |l| Span::at(l.start));
        return Err(Diagnostic::error(
            span,
            "expected the board size after the header",
        ));
    };
    let size: usize = match size_line.text.trim().parse() {
        Ok(n) if (1..=MAX_SIZE).contains(&n) => n,
        Ok(n) => {
            return Err(Diagnostic::error(
                size_line.content_span(),
                format!("board size {n} is outside 1..={MAX_SIZE}"),
            ))
        }
        Err(_) => {
            return Err(Diagnostic::error(
                size_line.content_span(),
                format!(
                    "expected the board size, a number, found `{}`",
                    size_line.text.trim()
                ),
            ))
        }
    };
    *k += 1;
    let mut board = Board::new(size);
    for i in 0..size {
        let Some(row) = lines.get(*k).filter(|l| !l.is_blank()) else {
            let span = lines.get(*k).map_or(end_of_file, |l| Span::at(l.start));
            return Err(Diagnostic::error(
                span,
                format!("expected {size} board rows, found {i}"),
            ));
        };
        let text = row.text.trim_end();
        for (j, (off, ch)) in text.char_indices().enumerate() {
            if j >= size {
                return Err(Diagnostic::error(
                    Span::new(row.start + off, row.start + text.len()),
                    format!("board row is longer than the board size {size}"),
                ));
            }
            let stone = match ch {
                '.' => None,
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => {
                    return Err(Diagnostic::error(
                        Span::new(row.start + off, row.start + off + ch.len_utf8()),
                        format!("unexpected `{ch}` in a board row"),
                    )
                    .note("a point is `.` (empty), `X` (black) or `O` (white)"))
                }
            };
            if let Some(c) = stone {
                board.place(Point::new(i as i32, j as i32), c);
            }
        }
        let width = text.chars().count();
        if width < size {
            return Err(Diagnostic::error(
                Span::at(row.start + text.len()),
                format!("board row has {width} points, the board size is {size}"),
            ));
        }
        *k += 1;
    }
    if let Some(extra) = lines.get(*k).filter(|l| !l.is_blank()) {
        return Err(Diagnostic::error(
            extra.content_span(),
            format!("expected a blank line after the {size} board rows"),
        ));
    }
    Ok(PositionRecord {
        to_move,
        board,
        line: header_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn reads_positions_separated_by_blank_lines() {
        let src = "to_move X\n3\n.X.\nO..\n...\n\nto_move O\n1\nX\n";
        let ps = parse_positions("p.txt", src.as_bytes()).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].to_move, Color::Black);
        assert_eq!(ps[0].board.stone(Point::new(0, 1)), Some(Color::Black));
        assert_eq!(ps[0].board.stone(Point::new(1, 0)), Some(Color::White));
        assert_eq!(
            (ps[1].to_move, ps[1].board.size(), ps[1].line),
            (Color::White, 1, 7)
        );
    }

    #[test]
    fn reports_every_error_located_with_a_caret() {
        let src =
            "to_move Y\n3\n...\n...\n...\n\nto_move X\n3\n..#\n...\n...\n\nto_move O\n3\n..\n";
        let err = parse_positions("bad.txt", src.as_bytes()).unwrap_err();
        assert_eq!(err.diagnostics.len(), 3);
        let text = err.to_string();
        assert!(
            text.contains("bad.txt:1:9: error: unknown side to move `Y`"),
            "{text}"
        );
        assert!(
            text.contains("bad.txt:9:3: error: unexpected `#` in a board row"),
            "{text}"
        );
        assert!(text.contains("9 | ..#\n  |   ^"), "{text}");
        assert!(
            text.contains("bad.txt:15:3: error: board row has 2 points"),
            "{text}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let ps = parse_positions("p.txt", b"\xEF\xBB\xBFto_move O\n1\nX\n").unwrap();
        assert_eq!((ps[0].to_move, ps[0].line), (Color::White, 1));
        // Columns count from after the mark.
        let err = parse_positions("p.txt", b"\xEF\xBB\xBFto_move Y\n1\nX\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("p.txt:1:9: error: unknown side to move `Y`"),
            "{err}"
        );
    }

    #[test]
    fn truncated_and_oversized_inputs_are_errors_not_panics() {
        for src in [
            "to_move X\n",
            "to_move X\n19\n...\n",
            "to_move X\n26\n",
            "to_move X\nx\n",
            "hello\n",
            "to_move X\n2\n...\n..\n",
            "to_move X\n1\n.\n.\n",
            "to_move X\n1\n\u{e9}\n",
        ] {
            let err = parse_positions("t.txt", src.as_bytes()).unwrap_err();
            assert!(!err.diagnostics.is_empty(), "{src:?}");
        }
        assert!(parse_positions("t.txt", b"to_move X\n1\n\xff\n").is_err());
        assert_eq!(parse_positions("t.txt", b"\n\n").unwrap().len(), 0);
    }
}
