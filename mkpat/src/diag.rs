//! Diagnostics as data, and their rendering.
//!
//! Every problem the parser or checker finds becomes a [`Diagnostic`]: a
//! severity, a primary span, a message, optional notes and related spans
//! ("first defined here"). They are collected for the whole file and only
//! rendered at the end, so one run reports everything. Rendering is plain
//! text (no colour) so that snapshot tests can pin it:
//!
//! ```text
//! patterns/x.db:12:3: error: pattern has two move marks `*`
//!    |
//! 12 | ?*.*
//!    |    ^
//!    = note: the first `*` is at 12:2
//! ```

use std::fmt::Write;

/// A byte range in a source file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn at(pos: usize) -> Span {
        Span {
            start: pos,
            end: pos + 1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a source file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    pub notes: Vec<String>,
    /// Secondary locations, each with a label ("first defined here").
    pub related: Vec<(Span, String)>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            notes: Vec::new(),
            related: Vec::new(),
        }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    pub fn related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A source file: its display name, its text, and where its lines start.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let line_starts = lines(&text)
            .map(|(start, _, _)| start)
            .chain(text.ends_with(['\n', '\r']).then_some(text.len()))
            .collect::<Vec<_>>();
        let line_starts = if line_starts.is_empty() {
            vec![text.len()]
        } else {
            line_starts
        };
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// Decodes bytes that may not be UTF-8. Invalid sequences become U+FFFD
    /// and each line holding one gets an error, so that the rest of the file
    /// is still checked.
    pub fn from_bytes(name: impl Into<String>, bytes: &[u8]) -> (SourceFile, Vec<Diagnostic>) {
        match std::str::from_utf8(bytes) {
            Ok(s) => (SourceFile::new(name, s), Vec::new()),
            Err(_) => {
                let text = String::from_utf8_lossy(bytes).into_owned();
                let mut diags = Vec::new();
                let mut last_line = usize::MAX;
                let file = SourceFile::new(name, text);
                for (pos, _) in file.text.match_indices('\u{FFFD}') {
                    let (line, _) = file.line_col(pos);
                    if line != last_line {
                        last_line = line;
                        diags.push(Diagnostic::error(
                            Span::new(pos, pos + '\u{FFFD}'.len_utf8()),
                            "invalid UTF-8 in the database",
                        ));
                    }
                }
                (file, diags)
            }
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, pos: usize) -> (usize, usize) {
        let pos = pos.min(self.text.len());
        // A position before the first line (in a byte-order mark) is on it.
        let line = self
            .line_starts
            .partition_point(|&s| s <= pos)
            .saturating_sub(1);
        let start = self.line_starts[line].min(pos);
        let col = self.text[start..floor_char_boundary(&self.text, pos)]
            .chars()
            .count();
        (line + 1, col + 1)
    }

    /// The text of 1-based line `line`, without its line ending.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self
            .line_starts
            .get(line)
            .copied()
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// Renders one diagnostic (see the module docs for the layout).
    pub fn render(&self, d: &Diagnostic) -> String {
        let mut out = String::new();
        let (line, col) = self.line_col(d.span.start);
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{}:{}:{}: {}: {}",
            self.name, line, col, sev, d.message
        );
        self.snippet(&mut out, d.span, None);
        for (span, label) in &d.related {
            let (l, c) = self.line_col(span.start);
            let _ = writeln!(out, "  --> {}:{}:{}", self.name, l, c);
            self.snippet(&mut out, *span, Some(label));
        }
        let width = line.to_string().len();
        for note in &d.notes {
            let _ = writeln!(out, "{} = note: {}", " ".repeat(width), note);
        }
        out
    }

    /// Writes the source line and the carets under `span`. A line longer
    /// than [`MAX_SHOWN`] characters is shown as a window of that many
    /// characters starting a little before the caret, with `…` where text
    /// is cut, so that a caret far out on a huge line stays readable; the
    /// caret line is built with `repeat`, which has no width limit (format
    /// widths stop at 65,535).
    fn snippet(&self, out: &mut String, span: Span, label: Option<&str>) {
        let (line, col) = self.line_col(span.start);
        let text = self.line_text(line);
        let width = line.to_string().len();
        // Tabs are shown as one space so that the caret lines up.
        let chars: Vec<char> = text
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let (end_line, end_col) = self.line_col(span.end.max(span.start + 1) - 1);
        let mut carets = if end_line == line {
            (end_col + 1).saturating_sub(col).max(1)
        } else {
            1
        };
        let mut pad = col - 1;
        let shown: String = if chars.len() <= MAX_SHOWN {
            chars.iter().collect()
        } else {
            let from = pad.saturating_sub(MAX_SHOWN / 4).min(chars.len());
            let to = (from + MAX_SHOWN).min(chars.len());
            let mut s = String::new();
            if from > 0 {
                s.push('…');
                pad = pad - from + 1;
            }
            s.extend(&chars[from..to]);
            if to < chars.len() {
                s.push('…');
            }
            carets = carets.min(s.chars().count().saturating_sub(pad)).max(1);
            s
        };
        let _ = writeln!(out, "{} |", " ".repeat(width));
        let _ = writeln!(out, "{line:>width$} | {shown}");
        let _ = write!(
            out,
            "{} | {}{}",
            " ".repeat(width),
            " ".repeat(pad),
            "^".repeat(carets)
        );
        match label {
            Some(l) => {
                let _ = writeln!(out, " {l}");
            }
            None => out.push('\n'),
        }
    }

    /// Renders all diagnostics, sorted by position (errors first on a tie).
    pub fn render_all(&self, diags: &[Diagnostic]) -> String {
        let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
        sorted.sort_by_key(|d| (d.span.start, d.severity));
        sorted.iter().map(|d| self.render(d)).collect()
    }
}

/// The most characters of a source line a snippet shows (see
/// [`SourceFile::snippet`]).
const MAX_SHOWN: usize = 160;

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BOM: char = '\u{FEFF}';

/// The lines of a text: the byte offset where each starts, its text and its
/// line ending. `\n`, `\r\n` and a lone `\r` (old Mac files) each end a
/// line. A byte-order mark at the start of the text belongs to no line: the
/// first line starts after it, so that its columns count from its first
/// visible character. Every consumer of a database's lines (the parser,
/// `renum`, the diagnostics' line numbers) splits them here.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    let mut pos = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let start = pos;
        let rest = &text[start..];
        let (body, ending) = match rest.find(['\n', '\r']) {
            None => (rest, ""),
            Some(k) if rest[k..].starts_with("\r\n") => (&rest[..k], &rest[k..k + 2]),
            Some(k) => (&rest[..k], &rest[k..k + 1]),
        };
        pos += body.len() + ending.len();
        Some((start, body, ending))
    })
}

fn floor_char_boundary(s: &str, mut pos: usize) -> usize {
    while !s.is_char_boundary(pos) {
        pos -= 1;
    }
    pos
}

/// Counts errors and warnings in a list of diagnostics.
pub fn summary(diags: &[Diagnostic]) -> (usize, usize) {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    (errors, diags.len() - errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let f = SourceFile::new("x.db", "abc\n?*.*\n");
        let d = Diagnostic::error(Span::at(7), "two moves").note("first at 2:2");
        assert_eq!(
            f.render(&d),
            "x.db:2:4: error: two moves\n  |\n2 | ?*.*\n  |    ^\n  = note: first at 2:2\n"
        );
    }

    #[test]
    fn a_caret_far_out_on_a_huge_line_is_shown_in_a_window() {
        let mut text = "x".repeat(70_000);
        text.push('!');
        text.push_str(&"y".repeat(500));
        let f = SourceFile::new("long.db", format!("{text}\n"));
        let out = f.render(&Diagnostic::error(Span::at(70_000), "bang").note("n"));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "long.db:1:70001: error: bang");
        let shown = lines[2].strip_prefix("1 | ").unwrap();
        let caret = lines[3].strip_prefix("  | ").unwrap();
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert_eq!(shown.chars().count(), MAX_SHOWN + 2);
        let at = caret.len() - 1;
        assert_eq!(caret.trim_start(), "^");
        assert_eq!(shown.chars().nth(at), Some('!'), "{shown}\n{caret}");
        // Near the start of a long line: no leading ellipsis.
        let out = f.render(&Diagnostic::error(Span::new(3, 5), "early"));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[2].starts_with("1 | xxxx") && lines[2].ends_with('…'));
        assert_eq!(lines[3], "  |    ^^");
    }

    #[test]
    fn lf_crlf_and_lone_cr_end_lines_and_a_bom_is_before_line_one() {
        for nl in ["\n", "\r\n", "\r"] {
            let text = format!("ab{nl}{nl}cde{nl}f");
            let f = SourceFile::new("x.db", text.clone());
            let e = text.find('e').unwrap();
            assert_eq!(f.line_col(e), (3, 3), "{nl:?}");
            assert_eq!(f.line_text(3), "cde");
            assert_eq!(f.line_col(text.len() - 1), (4, 1));
            let got: Vec<&str> = lines(&text).map(|(_, b, _)| b).collect();
            assert_eq!(got, ["ab", "", "cde", "f"]);
        }
        let f = SourceFile::new("b.db", "\u{FEFF}ab\ncd\n");
        assert_eq!(f.line_col(3), (1, 1));
        assert_eq!(f.line_col(4), (1, 2));
        assert_eq!(f.line_text(1), "ab");
        assert_eq!(f.line_col(7), (2, 2));
        let (start, body, _) = lines(&f.text).next().unwrap();
        assert_eq!((start, body), (3, "ab"));
    }

    #[test]
    fn invalid_utf8_is_located() {
        let (f, d) = SourceFile::from_bytes("b.db", b"ok\nbad \xff here\n");
        assert_eq!(d.len(), 1);
        assert_eq!(f.line_col(d[0].span.start), (2, 5));
    }
}
