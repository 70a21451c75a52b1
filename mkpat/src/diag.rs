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
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
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
        let line = self.line_starts.partition_point(|&s| s <= pos) - 1;
        let start = self.line_starts[line];
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
            let _ = writeln!(out, "{:width$} = note: {}", "", note);
        }
        out
    }

    fn snippet(&self, out: &mut String, span: Span, label: Option<&str>) {
        let (line, col) = self.line_col(span.start);
        let text = self.line_text(line);
        let width = line.to_string().len();
        // Tabs are shown as one space so that the caret lines up.
        let shown: String = text
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let (end_line, end_col) = self.line_col(span.end.max(span.start + 1) - 1);
        let carets = if end_line == line {
            (end_col + 1).saturating_sub(col).max(1)
        } else {
            1
        };
        let _ = writeln!(out, "{:width$} |", "");
        let _ = writeln!(out, "{line:>width$} | {shown}");
        let _ = write!(
            out,
            "{:width$} | {:pad$}{}",
            "",
            "",
            "^".repeat(carets),
            pad = col - 1
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
    fn invalid_utf8_is_located() {
        let (f, d) = SourceFile::from_bytes("b.db", b"ok\nbad \xff here\n");
        assert_eq!(d.len(), 1);
        assert_eq!(f.line_col(d[0].span.start), (2, 5));
    }
}
