//! The parser: database text to [`crate::ast::Database`], with every syntax error.
//!
//! A database is line-oriented, so the parser is a small state machine over
//! lines (header, comments, diagram, attribute line, constraint) and each
//! kind of line has its own nom grammar. It never stops at the first error:
//! a bad line is reported and skipped, and a pattern that cannot be read is
//! dropped while the next header starts afresh. The grammar is written down
//! for users in `docs/language.md`.
//!
//! The dialect is decided by a `dialect:` line, else by the first header
//! line: `# pattern N` is the seed's; `Pattern NAME` is GNU Go 3.x's when
//! the first attribute line's second field is classification letters (or
//! `-`, or empty) rather than 2.6's weight, or when a 3.x directive line
//! (`attribute_map`, `goal_elements`, `callback_data`) comes first, and
//! GNU Go 2.6's otherwise.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::ast::*;
use crate::diag::{Diagnostic, Span};
use crate::geometry::Geometry;

/// Parses a whole database. `force` overrides dialect detection.
pub fn parse(text: &str, force: Option<Dialect>) -> (Database, Vec<Diagnostic>) {
    let lines = split_lines(text);
    let dialect = force.unwrap_or_else(|| detect_dialect(&lines));
    let mut p = Parser_ {
        lines,
        pos: 0,
        dialect,
        geometry: Geometry::Square,
        geometry_line: None,
        dialect_line: None,
        directives: Vec::new(),
        diags: Vec::new(),
    };
    let patterns = p.database();
    if patterns.is_empty() {
        let start = if text.starts_with(crate::diag::BOM) {
            crate::diag::BOM.len_utf8()
        } else {
            0
        };
        let header = dialect.header_form();
        p.diags.push(
            Diagnostic::error(Span::at(start), "no pattern in this file").note(format!(
                "a pattern starts with a header line {header}, then its diagram"
            )),
        );
    }
    let geometry = p.geometry;
    let directives = std::mem::take(&mut p.directives);
    (
        Database {
            dialect,
            geometry,
            patterns,
            directives,
        },
        p.diags,
    )
}

/// The dialect a `dialect:` line names, or else that of the first header
/// line (for `Pattern NAME`, told apart by the first attribute line or a
/// 3.x directive); the seed's when there is neither.
pub fn detect_dialect(lines: &[Line<'_>]) -> Dialect {
    let mut named = false;
    for l in lines {
        if let Some(d) = l
            .text
            .strip_prefix("dialect:")
            .and_then(|v| Dialect::from_name(v.trim()))
        {
            return d;
        }
        if directive(l.text).is_some() {
            return Dialect::GnuGo38;
        }
        if !named && header_seed(l.text).is_some() {
            return Dialect::Seed;
        }
        if header_26(l.text).is_some() {
            named = true;
        }
        if named && l.text.starts_with(':') {
            // 3.x's second field is the classification (letters or `-`),
            // 2.6's the weight.
            let second = l.text.split(',').nth(1).unwrap_or("").trim();
            let letters = crate::dialect::gnugo38::CLASS_LETTERS;
            let is_class = second.chars().all(|c| c == '-' || letters.contains(c));
            return if is_class && !is_number_token(second) {
                Dialect::GnuGo38
            } else {
                Dialect::GnuGo26
            };
        }
    }
    if named {
        Dialect::GnuGo26
    } else {
        Dialect::Seed
    }
}

/// The names of GNU Go 3.x's directive lines.
pub const DIRECTIVES: [&str; 3] = ["attribute_map", "goal_elements", "callback_data"];

/// A 3.x directive line `NAME VALUE` (a comment may follow the value):
/// the name and the value.
fn directive(line: &str) -> Option<(&str, &str)> {
    let name = DIRECTIVES.into_iter().find(|d| {
        line.strip_prefix(d)
            .is_some_and(|rest| rest.starts_with([' ', '\t']))
    })?;
    let value = line[name.len()..].split_whitespace().next()?;
    Some((name, value))
}

/// One line of the source, without its line ending.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    pub start: usize,
    pub text: &'a str,
}

impl Line<'_> {
    fn span(&self) -> Span {
        Span::new(self.start, self.start + self.text.len().max(1))
    }
    /// The byte offset of a suffix of this line's text.
    fn offset_of(&self, rest: &str) -> usize {
        self.start + (self.text.len() - rest.len())
    }
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// The lines of `text` ([`crate::diag::lines`]: `\n`, `\r\n` or a lone `\r`
/// ends a line; a byte-order mark is skipped).
pub fn split_lines(text: &str) -> Vec<Line<'_>> {
    crate::diag::lines(text)
        .map(|(start, text, _)| Line { start, text })
        .collect()
}

// ---- line grammars (nom) ----

type Res<'a, T> = IResult<&'a str, T>;

/// `# pattern N`, strictly: one `#`, `pattern`, a number, nothing else.
pub(crate) fn header_seed(line: &str) -> Option<&str> {
    let r: Res<'_, &str> =
        all_consuming((char('#'), space1, tag("pattern"), space1, digit1, space0))
            .map(|(_, _, _, _, n, _)| n)
            .parse(line);
    r.ok().map(|(_, n)| n)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'
}

/// `Pattern NAME`, optionally followed by a comment after whitespace.
fn header_26(line: &str) -> Option<&str> {
    let r: Res<'_, &str> = (tag("Pattern"), space1, take_while1(is_name_char))
        .map(|(_, _, n)| n)
        .parse(line);
    match r {
        Ok((rest, n)) if rest.trim().is_empty() || rest.starts_with([' ', '\t']) => Some(n),
        _ => None,
    }
}

/// A line that was probably meant as a seed header but is not one.
fn near_header_seed(line: &str) -> bool {
    let t = line.trim_start_matches('#').trim_start();
    line.starts_with('#') && t.to_ascii_lowercase().starts_with("pattern") && {
        let rest = t["pattern".len()..].trim();
        !rest.is_empty() && rest.split_whitespace().count() == 1
    }
}

/// An edge line: `+`? `-`+ `+`?, then an optional comment.
fn edge_line(line: &str) -> Res<'_, (Option<&str>, &str, Option<&str>)> {
    (
        opt(alt((tag("+"), tag("|")))),
        take_while1(|c| c == '-'),
        opt(tag("+")),
    )
        .parse(line)
}

fn is_number_token(s: &str) -> bool {
    let r: Res<'_, &str> = all_consuming(recognize(preceded(
        opt(alt((char('-'), char('+')))),
        digit1,
    )))
    .parse(s);
    r.is_ok()
}

fn identifier(s: &str) -> Res<'_, &str> {
    recognize((
        take_while1(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))
    .parse(s)
}

// ---- the state machine ----

struct Parser_<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    dialect: Dialect,
    /// The geometry declared so far, and the line that declared it.
    geometry: Geometry,
    geometry_line: Option<Span>,
    /// The `dialect:` line, once seen.
    dialect_line: Option<Span>,
    /// GNU Go 3.x's directive lines so far.
    directives: Vec<Directive>,
    diags: Vec<Diagnostic>,
}

enum LineKind<'a> {
    Blank,
    Comment,
    /// `geometry: NAME`, the value's text.
    Geometry(&'a str),
    /// `dialect: NAME`, the value's text.
    Dialect(&'a str),
    Header(&'a str),
    /// A 3.x directive: its name and value.
    Directive(&'a str, &'a str),
    Attributes,
    Constraint,
    /// A 3.x `>` action line.
    Action,
    Other,
}

impl<'a> Parser_<'a> {
    fn classify(&self, l: &Line<'a>) -> LineKind<'a> {
        if l.is_blank() {
            return LineKind::Blank;
        }
        if let Some(value) = l.text.strip_prefix("geometry:") {
            return LineKind::Geometry(value);
        }
        if let Some(value) = l.text.strip_prefix("dialect:") {
            return LineKind::Dialect(value);
        }
        let header = if self.dialect.named_headers() {
            header_26(l.text)
        } else {
            header_seed(l.text)
        };
        if let Some(n) = header {
            return LineKind::Header(n);
        }
        if self.dialect == Dialect::GnuGo38 {
            if let Some((name, value)) = directive(l.text) {
                return LineKind::Directive(name, value);
            }
            if l.text.starts_with('>') {
                return LineKind::Action;
            }
        }
        if self.dialect.is_comment(l.text) {
            return LineKind::Comment;
        }
        if self.dialect.has_constraints() && l.text.starts_with(';') {
            return LineKind::Constraint;
        }
        if l.text.starts_with(':') {
            LineKind::Attributes
        } else {
            LineKind::Other
        }
    }

    fn database(&mut self) -> Vec<PatternAst> {
        let mut patterns = Vec::new();
        while self.pos < self.lines.len() {
            let l = self.lines[self.pos];
            match self.classify(&l) {
                LineKind::Header(name) => {
                    self.pos += 1;
                    if let Some(p) = self.pattern(l, name) {
                        patterns.push(p);
                    }
                }
                LineKind::Blank => self.pos += 1,
                LineKind::Comment => {
                    self.near_header(&l);
                    self.pos += 1;
                }
                LineKind::Geometry(value) => {
                    self.geometry_line(&l, value, patterns.is_empty());
                    self.pos += 1;
                }
                LineKind::Dialect(value) => {
                    self.dialect_line(&l, value, patterns.is_empty());
                    self.pos += 1;
                }
                LineKind::Directive(name, value) => {
                    self.directive_line(&l, name, value, patterns.len());
                    self.pos += 1;
                }
                _ => {
                    self.diags.push(self.unexpected_outside(&l));
                    self.pos += 1;
                    // Skip the rest of the stray block quietly.
                    while self.pos < self.lines.len()
                        && matches!(
                            self.classify(&self.lines[self.pos]),
                            LineKind::Other
                                | LineKind::Attributes
                                | LineKind::Constraint
                                | LineKind::Action
                        )
                    {
                        self.pos += 1;
                    }
                }
            }
        }
        patterns
    }

    /// A `geometry: NAME` line: once, before the first pattern.
    fn geometry_line(&mut self, l: &Line<'_>, value: &str, before_patterns: bool) {
        let name = value.trim();
        let at = l.offset_of(value) + (value.len() - value.trim_start().len());
        let span = Span::new(at, at + name.len().max(1));
        if let Some(first) = self.geometry_line {
            self.diags.push(
                Diagnostic::error(l.span(), "a second `geometry:` line")
                    .related(first, "the geometry is declared here")
                    .note("a database has one geometry, declared once before its first pattern"),
            );
            return;
        }
        if !before_patterns {
            self.diags.push(
                Diagnostic::error(l.span(), "`geometry:` after the first pattern")
                    .note("the geometry is declared before the first pattern: it decides how diagrams read"),
            );
            return;
        }
        self.geometry_line = Some(l.span());
        match Geometry::from_name(name) {
            Some(g) => self.geometry = g,
            None => self.diags.push(
                Diagnostic::error(span, format!("unknown geometry `{name}`"))
                    .note("expected `square` or `hexagon`"),
            ),
        }
    }

    /// A `dialect: NAME` line: once, before the first pattern, naming the
    /// dialect the file is read in (detection read it already; here it is
    /// checked).
    fn dialect_line(&mut self, l: &Line<'_>, value: &str, before_patterns: bool) {
        let name = value.trim();
        let at = l.offset_of(value) + (value.len() - value.trim_start().len());
        let span = Span::new(at, at + name.len().max(1));
        if let Some(first) = self.dialect_line {
            self.diags.push(
                Diagnostic::error(l.span(), "a second `dialect:` line")
                    .related(first, "the dialect is declared here"),
            );
            return;
        }
        if !before_patterns {
            self.diags.push(
                Diagnostic::error(l.span(), "`dialect:` after the first pattern")
                    .note("the dialect is declared before the first pattern: it decides how patterns read"),
            );
            return;
        }
        self.dialect_line = Some(l.span());
        match Dialect::from_name(name) {
            Some(d) if d == self.dialect => {}
            Some(d) => self.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "the file says dialect `{d}`, but it is read as `{}`",
                        self.dialect
                    ),
                )
                .note("`--dialect` overrides what the file says: drop one of them"),
            ),
            None => self.diags.push(
                Diagnostic::error(span, format!("unknown dialect `{name}`")).note(format!(
                    "expected one of {}",
                    Dialect::ALL.map(|d| format!("`{d}`")).join(", ")
                )),
            ),
        }
    }

    /// A 3.x directive line, recorded for the checker (which knows the
    /// values and where each may stand).
    fn directive_line(&mut self, l: &Line<'_>, name: &str, value: &str, before: usize) {
        let at = |part: &str| {
            let s = l.offset_of(&l.text[l.text.find(part).unwrap_or(0)..]);
            Span::new(s, s + part.len().max(1))
        };
        let value_start = name.len() + l.text[name.len()..].find(value).unwrap_or(0);
        let vs = l.start + value_start;
        self.directives.push(Directive {
            name: Text {
                text: name.to_string(),
                span: at(name),
            },
            value: Text {
                text: value.to_string(),
                span: Span::new(vs, vs + value.len().max(1)),
            },
            before,
        });
    }

    fn unexpected_outside(&self, l: &Line<'_>) -> Diagnostic {
        let expected = self.dialect.between_patterns();
        Diagnostic::error(l.span(), "text outside any pattern").note(format!("expected {expected}"))
    }

    /// Warns about a comment that was probably meant as a seed header.
    fn near_header(&mut self, l: &Line<'_>) {
        if self.dialect == Dialect::Seed && near_header_seed(l.text) {
            self.diags.push(
                Diagnostic::warning(
                    l.span(),
                    "this comment looks like a pattern header but is not one",
                )
                .note("a header is exactly `# pattern N`, N a number"),
            );
        }
    }

    fn skip_blank_and_comments(&mut self) {
        while let Some(l) = self.lines.get(self.pos).copied() {
            match self.classify(&l) {
                LineKind::Blank => {}
                LineKind::Comment => self.near_header(&l),
                _ => break,
            }
            self.pos += 1;
        }
    }

    fn pattern(&mut self, header: Line<'a>, name: &str) -> Option<PatternAst> {
        let name_start = header.offset_of(&header.text[header.text.find(name)?..]);
        let name = Text {
            text: name.to_string(),
            span: Span::new(name_start, name_start + name.len()),
        };
        self.skip_blank_and_comments();
        let diagram = self.diagram(false);
        if diagram.lines.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    header.span(),
                    format!("pattern {} has no diagram", name.text),
                )
                .note("the diagram's rows follow the header"),
            );
        }
        self.skip_blank_and_comments();
        let attributes = match self.lines.get(self.pos).copied() {
            Some(l) if matches!(self.classify(&l), LineKind::Attributes) => {
                self.pos += 1;
                self.attributes(l)
            }
            other => {
                let (span, found) = match other {
                    Some(l) if !matches!(self.classify(&l), LineKind::Header(_)) => {
                        (l.span(), "this line")
                    }
                    _ => (header.span(), "nothing"),
                };
                self.diags.push(
                    Diagnostic::error(
                        span,
                        format!("pattern {} has no attribute line: found {found}", name.text),
                    )
                    .note(format!(
                        "expected `{}` after the diagram",
                        self.dialect.attribute_form()
                    )),
                );
                if found == "this line" {
                    self.skip_to_next_header();
                }
                None
            }
        };
        let constraint = if self.dialect.has_constraints() {
            self.constraint()
        } else {
            None
        };
        let action = if self.dialect.has_actions() {
            self.skip_blank_and_comments();
            self.joined_lines(LineKind::Action)
                .map(|(expr, pieces)| Constraint {
                    diagram: Diagram::default(),
                    expr,
                    pieces,
                })
        } else {
            None
        };
        // Anything else before the next header is stray text.
        loop {
            self.skip_blank_and_comments();
            match self.lines.get(self.pos).copied() {
                None => break,
                // A `geometry:` line is the database loop's to report.
                Some(l)
                    if matches!(
                        self.classify(&l),
                        LineKind::Header(_)
                            | LineKind::Geometry(_)
                            | LineKind::Dialect(_)
                            | LineKind::Directive(..)
                    ) =>
                {
                    break
                }
                Some(l) => {
                    let d = match self.classify(&l) {
                        LineKind::Attributes => Diagnostic::error(
                            l.span(),
                            format!("pattern {} has a second attribute line", name.text),
                        ),
                        LineKind::Constraint if self.dialect.has_actions() => Diagnostic::error(
                            l.span(),
                            "a `;` constraint line after the `>` action lines",
                        )
                        .note("a pattern's `;` lines come before its `>` lines"),
                        LineKind::Constraint => Diagnostic::error(
                            l.span(),
                            "a `;` constraint line must follow the constraint diagram or another `;` line",
                        ),
                        LineKind::Action => Diagnostic::error(
                            l.span(),
                            "a `>` action line separated from the pattern's other `>` lines",
                        )
                        .note("a pattern's `>` lines follow one another"),
                        _ => Diagnostic::error(
                            l.span(),
                            format!("unexpected text after the attribute line of pattern {}", name.text),
                        )
                        .note(self.dialect.after_attributes()),
                    };
                    self.diags.push(d);
                    self.skip_to_next_header();
                }
            }
        }
        Some(PatternAst {
            name,
            header: header.span(),
            diagram,
            attributes,
            constraint,
            action,
        })
    }

    fn skip_to_next_header(&mut self) {
        while self.pos < self.lines.len()
            && !matches!(self.classify(&self.lines[self.pos]), LineKind::Header(_))
        {
            self.pos += 1;
        }
    }

    /// The next line of a diagram (recorded in `d.lines`), or `None` at
    /// the first blank, comment, attribute, constraint or header line.
    fn next_diagram_line(&mut self, d: &mut Diagram) -> Option<Line<'a>> {
        let l = self.lines.get(self.pos).copied()?;
        if !matches!(self.classify(&l), LineKind::Other) {
            return None;
        }
        self.pos += 1;
        d.lines.push(l.span());
        Some(l)
    }

    /// Reads diagram lines up to the first blank, comment, attribute,
    /// constraint or header line. `labels` allows letters (constraint
    /// diagrams).
    fn diagram(&mut self, labels: bool) -> Diagram {
        if self.geometry == Geometry::Hexagon && !labels {
            return self.hex_diagram();
        }
        let mut d = Diagram::default();
        let mut descriptions = Vec::new();
        while let Some(l) = self.next_diagram_line(&mut d) {
            let body_len = l.text.find([' ', '\t']).unwrap_or(l.text.len());
            let (body, comment) = l.text.split_at(body_len);
            let comment = comment.trim();
            if !comment.is_empty() {
                descriptions.push(comment.to_string());
            }
            if let Ok((rest, (c1, dashes, c2))) = edge_line(body) {
                if rest.is_empty() {
                    let west_corner = c1.filter(|c| *c == "+").map(|_| Span::at(l.start));
                    let east_corner = c2.map(|_| Span::at(l.start + body.len() - 1));
                    if c1 == Some("|") {
                        self.diags.push(
                            Diagnostic::error(Span::at(l.start), "an edge line starts with `|`")
                                .note("a corner where a west edge meets this line is written `+`"),
                        );
                    }
                    let e = EdgeLine {
                        span: l.span(),
                        west_corner,
                        east_corner,
                        width: dashes.len(),
                        indent: usize::from(c1.is_some()),
                    };
                    d.add_edge_line(e);
                    continue;
                }
            }
            if body.is_empty() {
                self.diags.push(
                    Diagnostic::error(Span::at(l.start), "diagram row starts with whitespace")
                        .note("a row's cells start in the first column; text after whitespace is a comment"),
                );
                continue;
            }
            let row = self.row(l, body, labels);
            self.add_row(&mut d, row, "south");
        }
        d.description = descriptions.join(" ");
        d
    }

    /// Adds a row to `d`, or drops it with an error when it comes after
    /// the edge line below the rows (named `below`: "south", "bottom").
    fn add_row(&mut self, d: &mut Diagram, row: Row, below: &str) {
        if d.south.is_some() {
            self.diags.push(
                Diagnostic::error(row.span, format!("diagram row after the {below} edge line"))
                    .note(
                    "a line of `-` below the rows is the board's edge: nothing can lie beyond it",
                ),
            );
            d.dropped_rows.push(row);
        } else {
            d.rows.push(row);
        }
    }

    /// A hexagonal diagram: rows of cells one space apart, each row offset
    /// by half a cell (one column) from its neighbours, indented freely;
    /// two spaces or a tab after the cells start a comment. A line of `-`
    /// (spaces allowed) above or below the rows is the top or bottom edge;
    /// a row's side marks are its other edges.
    fn hex_diagram(&mut self) -> Diagram {
        let mut d = Diagram::default();
        let mut descriptions = Vec::new();
        while let Some(l) = self.next_diagram_line(&mut d) {
            let body = l.text.trim_end();
            if body.contains('-') && body.chars().all(|c| c == '-' || c == ' ') {
                let indent = body.len() - body.trim_start().len();
                let e = EdgeLine {
                    span: l.span(),
                    west_corner: None,
                    east_corner: None,
                    width: body.trim().len(),
                    indent,
                };
                d.add_edge_line(e);
                continue;
            }
            let (row, comment) = self.hex_row(l);
            if !comment.is_empty() {
                descriptions.push(comment.to_string());
            }
            self.add_row(&mut d, row, "bottom");
        }
        d.description = descriptions.join(" ");
        d
    }

    /// One hexagonal row: `mark? cell (' ' cell)* mark?`, one space
    /// between items, then an optional comment after two spaces or a tab.
    fn hex_row(&mut self, l: Line<'a>) -> (Row, &'a str) {
        let text = l.text;
        let bytes = text.as_bytes();
        // The items and where the comment starts.
        let mut items: Vec<(char, Span)> = Vec::new();
        let mut k = text.len() - text.trim_start_matches(' ').len();
        let mut comment = "";
        while k < text.len() {
            let c = text[k..].chars().next().expect("inside the line");
            if c == '\t' {
                comment = text[k..].trim();
                break;
            }
            items.push((c, Span::new(l.start + k, l.start + k + c.len_utf8())));
            k += c.len_utf8();
            match (bytes.get(k), bytes.get(k + 1)) {
                (None, _) => break,
                (Some(b' '), Some(b' ') | Some(b'\t') | None) | (Some(b'\t'), _) => {
                    comment = text[k..].trim();
                    break;
                }
                (Some(b' '), Some(_)) => k += 1,
                (Some(_), _) => {
                    let next = text[k..].chars().next().expect("inside the line");
                    self.diags.push(
                        Diagnostic::error(
                            Span::new(l.start + k, l.start + k + next.len_utf8()),
                            "cells of a hexagonal row are one space apart",
                        )
                        .note("write `. O *`, not `.O*`: each row sits half a cell from the next"),
                    );
                }
            }
        }
        let mut row = Row {
            span: l.span(),
            west: None,
            east: None,
            west_mark: None,
            east_mark: None,
            cells: Vec::new(),
        };
        let n = items.len();
        for (at, (c, span)) in items.into_iter().enumerate() {
            match c {
                'O' | 'X' | 'o' | 'x' | '.' | '*' | '?' => row.cells.push((c, span)),
                '=' if self.dialect.cell_chars().contains('=') => row.cells.push((c, span)),
                '\\' | '/' | '<' if at == 0 && n > 1 => {
                    row.west = Some(span);
                    row.west_mark = Some(c);
                }
                '\\' | '/' | '>' if at + 1 == n && at > 0 => {
                    row.east = Some(span);
                    row.east_mark = Some(c);
                }
                '\\' | '/' | '<' | '>' => {
                    let (place, marks) = if at == 0 {
                        ("start", "`\\`, `/` or `<`")
                    } else if at + 1 == n {
                        ("end", "`\\`, `/` or `>`")
                    } else {
                        ("middle", "none")
                    };
                    self.diags.push(
                        Diagnostic::error(span, format!("`{c}` at the {place} of a hexagonal row"))
                            .note(format!("a side mark stands before a row's cells or after them; here: {marks}"))
                            .note("a row of cells needs at least one cell beside its marks"),
                    );
                    row.cells.push(('?', span));
                }
                '-' | '|' | '+' => {
                    self.diags.push(
                        Diagnostic::error(span, format!("`{c}` inside a hexagonal row"))
                            .note("a hexagonal diagram's top and bottom edges are lines of `-` above or below the rows; its other sides are `\\ / <` before a row and `\\ / >` after it"),
                    );
                    row.cells.push(('?', span));
                }
                _ => {
                    let shown = if c.is_control() || c == '\u{FFFD}' {
                        format!("{c:?}")
                    } else {
                        format!("`{c}`")
                    };
                    self.diags.push(
                        Diagnostic::error(span, format!("unexpected character {shown} in a diagram"))
                            .note(format!("a cell is one of `{}`, one space between cells; two spaces or a tab start a comment", self.cells_list())),
                    );
                    row.cells.push(('?', span));
                }
            }
        }
        (row, comment)
    }

    /// The dialect's cells, for notes: `O X o x . * ?` and more.
    fn cells_list(&self) -> String {
        // `O X o x . * ?` first, as every dialect writes them.
        let order = "OXox.*?=";
        let cells = self.dialect.cell_chars();
        let list: Vec<String> = order
            .chars()
            .filter(|c| cells.contains(*c))
            .map(String::from)
            .collect();
        list.join(" ")
    }

    fn row(&mut self, l: Line<'a>, body: &str, labels: bool) -> Row {
        let mut cells = Vec::new();
        let mut west = None;
        let mut east = None;
        let n = body.chars().count();
        for (k, (off, c)) in body.char_indices().enumerate() {
            let span = Span::new(l.start + off, l.start + off + c.len_utf8());
            match c {
                '|' if k == 0 => west = Some(span),
                '|' if k + 1 == n => east = Some(span),
                'O' | 'X' | 'o' | 'x' | '.' | '*' | '?' => cells.push((c, span)),
                '=' if self.dialect.cell_chars().contains('=') && !labels => cells.push((c, span)),
                ',' | '!' | 'Q' | 'Y' if self.dialect.cell_chars().contains(c) => {
                    cells.push((c, span))
                }
                c if labels && c.is_ascii_alphabetic() => cells.push((c, span)),
                '|' => {
                    self.diags.push(
                        Diagnostic::error(span, "`|` inside a diagram row")
                            .note("an edge `|` stands only at the start or the end of a row"),
                    );
                    cells.push(('?', span));
                }
                '+' | '-' => {
                    self.diags.push(
                        Diagnostic::error(span, format!("`{c}` inside a diagram row"))
                            .note("`-` and `+` belong on an edge line above or below the rows"),
                    );
                    cells.push(('?', span));
                }
                _ => {
                    let shown = if c.is_control() || c == '\u{FFFD}' {
                        format!("{:?}", c)
                    } else {
                        format!("`{c}`")
                    };
                    self.diags.push(
                        Diagnostic::error(span, format!("unexpected character {shown} in a diagram"))
                            .note(format!("a cell is one of `{}`; `|` marks an edge at a row's end; a comment follows whitespace", self.cells_list())),
                    );
                    cells.push(('?', span));
                }
            }
        }
        Row {
            span: l.span(),
            west,
            east,
            west_mark: None,
            east_mark: None,
            cells,
        }
    }

    /// Splits the attribute line into fields at top-level commas. Spaces
    /// may pad a field; text after whitespace in the last field is a comment.
    fn fields(l: &Line<'_>) -> Vec<Text> {
        let body = &l.text[1..];
        let body_start = l.start + 1;
        let mut bounds = Vec::new();
        let mut depth = 0i32;
        let mut field_start = 0;
        for (i, c) in body.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    bounds.push((field_start, i));
                    field_start = i + 1;
                }
                _ => {}
            }
        }
        let last = &body[field_start..];
        let lead = last.len() - last.trim_start().len();
        let last_end = last[lead..]
            .find([' ', '\t'])
            .map_or(body.len(), |k| field_start + lead + k);
        bounds.push((field_start, last_end));
        bounds
            .into_iter()
            .map(|(a, b)| {
                let raw = &body[a..b];
                let lead = raw.len() - raw.trim_start().len();
                let t = raw.trim();
                let s = body_start + a + lead;
                // An empty last field points at the comma before it, so
                // that the span stays inside the line (and the file).
                let line_end = l.start + l.text.len();
                let span = if t.is_empty() && s >= line_end {
                    Span::at(line_end - 1)
                } else {
                    Span::new(s, s + t.len().max(1))
                };
                Text {
                    text: t.to_string(),
                    span,
                }
            })
            .collect()
    }

    fn attributes(&mut self, l: Line<'_>) -> Option<AttributeLine> {
        let fields = Self::fields(&l);
        let before = self.diags.len();
        let attrs = match self.dialect {
            Dialect::Seed => self
                .attributes_seed(&l, &fields)
                .map(|a| AttributeLine::Go(Box::new(a))),
            Dialect::GnuGo26 => self
                .attributes_26(&l, &fields)
                .map(|a| AttributeLine::Go(Box::new(a))),
            Dialect::Five => self.attributes_five(&l, &fields).map(AttributeLine::Five),
            Dialect::GnuGo38 => self.attributes_38(&l, &fields).map(AttributeLine::Go38),
        };
        if self.diags[before..].iter().any(|d| d.is_error()) {
            None
        } else {
            attrs
        }
    }

    fn num(&mut self, f: &Text, what: &str) -> Num {
        if is_number_token(&f.text) {
            match f.text.parse::<i64>() {
                Ok(v) => {
                    return Num {
                        value: v,
                        span: f.span,
                    }
                }
                Err(_) => {
                    self.diags.push(
                        Diagnostic::error(f.span, format!("{what} `{}` is out of range", f.text))
                            .note(format!(
                                "numbers must lie between {} and {}",
                                -crate::check::NUM_LIMIT,
                                crate::check::NUM_LIMIT
                            )),
                    );
                    return Num {
                        value: 0,
                        span: f.span,
                    };
                }
            }
        }
        let found = if f.text.is_empty() {
            "nothing".to_string()
        } else {
            format!("`{}`", f.text)
        };
        self.diags.push(Diagnostic::error(
            f.span,
            format!("expected an integer for {what}, found {found}"),
        ));
        Num {
            value: 0,
            span: f.span,
        }
    }

    fn symmetry(&mut self, f: &Text) -> Text {
        let mut letters = f.text.chars();
        let ok = match (letters.next(), letters.next()) {
            (Some(l), None) => {
                self.geometry.class(l).is_some()
                    || (l == 'O'
                        && self.dialect == Dialect::GnuGo38
                        && self.geometry == Geometry::Square)
            }
            _ => false,
        };
        if !ok {
            let message = if f.text.is_empty() {
                "no symmetry class: the attribute line starts with an empty field".to_string()
            } else {
                format!("unknown symmetry class `{}`", f.text)
            };
            let note = match self.geometry {
                Geometry::Square if self.dialect == Dialect::GnuGo38 => {
                    "the first field is one of `8 | \\ / - + X O`".to_string()
                }
                Geometry::Square => "the first field is one of `8 | \\ / - + X`".to_string(),
                g => format!(
                    "on the {}, the first field is one of {}",
                    g.name(),
                    g.class_letters()
                ),
            };
            self.diags
                .push(Diagnostic::error(f.span, message).note(note));
        }
        f.clone()
    }

    fn helper(&mut self, f: &Text) -> Option<Text> {
        if f.text == "NULL" {
            return None;
        }
        match all_consuming(identifier).parse(f.text.as_str()) {
            Ok(_) => Some(f.clone()),
            Err(_) => {
                self.diags.push(Diagnostic::error(
                    f.span,
                    format!(
                        "expected a helper function name or `NULL`, found `{}`",
                        f.text
                    ),
                ));
                None
            }
        }
    }

    fn wrong_count(&mut self, l: &Line<'_>, fields: &[Text], want: usize, form: &str) {
        let span = if fields.len() > want {
            fields[want].span
        } else {
            Span::at(l.start + l.text.len().saturating_sub(1))
        };
        self.diags.push(
            Diagnostic::error(
                span,
                format!(
                    "the attribute line has {} fields, expected {want}",
                    fields.len()
                ),
            )
            .note(format!("the form is `{form}`")),
        );
    }

    /// `:symmetry,kind,mine,theirs`; the symmetry `line` or a class
    /// letter, the kind a name the checker knows.
    fn attributes_five(&mut self, l: &Line<'_>, f: &[Text]) -> Option<FiveAttributes> {
        if f.len() != 4 {
            self.wrong_count(l, f, 4, Dialect::Five.attribute_form());
            return None;
        }
        let symmetry = if f[0].text == "line" {
            f[0].clone()
        } else {
            self.symmetry(&f[0])
        };
        let mine = self.num(&f[2], "the value for the side to move (mine)");
        let theirs = self.num(&f[3], "the value for the opponent (theirs)");
        Some(FiveAttributes {
            span: l.span(),
            symmetry,
            kind: f[1].clone(),
            mine,
            theirs,
        })
    }

    fn attributes_seed(&mut self, l: &Line<'_>, f: &[Text]) -> Option<Attributes> {
        const FORM: &str =
            ":trfno,patwt,ucutoff,uvalue,mycutoff,myvalue,classification,bonus,helper";
        if f.len() != 9 {
            self.wrong_count(l, f, 9, FORM);
            return None;
        }
        let symmetry = self.symmetry(&f[0]);
        let weight = self.num(&f[1], "the weight");
        let ucutoff = self.num(&f[2], "ucutoff");
        let uvalue = self.num(&f[3], "uvalue");
        let mycutoff = self.num(&f[4], "mycutoff");
        let myvalue = self.num(&f[5], "myvalue");
        let bonus = self.num(&f[7], "the bonus");
        let helper = self.helper(&f[8]);
        let assistance = if [ucutoff, uvalue, mycutoff, myvalue]
            .iter()
            .all(|n| n.value == 0)
        {
            AssistanceAst::None(Span::new(f[2].span.start, f[5].span.end))
        } else {
            AssistanceAst::Wind {
                span: Span::new(f[2].span.start, f[5].span.end),
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            }
        };
        Some(Attributes {
            span: l.span(),
            symmetry,
            weight,
            assistance,
            class: f[6].clone(),
            bonus,
            xbonus: None,
            splitbonus: None,
            minrand: None,
            maxrand: None,
            helper,
        })
    }

    fn assistance_26(&mut self, f: &Text) -> AssistanceAst {
        let t = f.text.as_str();
        if t == "0" {
            return AssistanceAst::None(f.span);
        }
        let call = (identifier, char('('), take_while(|c| c != ')'), char(')')).parse(t);
        if let Ok(("", (name, _, args, _))) = call {
            let args_start = f.span.start + name.len() + 1;
            let mut nums = Vec::new();
            let mut off = 0;
            for a in args.split(',') {
                let lead = a.len() - a.trim_start().len();
                let s = args_start + off + lead;
                let text = Text {
                    text: a.trim().to_string(),
                    span: Span::new(s, s + a.trim().len().max(1)),
                };
                nums.push(self.num(&text, &format!("an argument of `{name}`")));
                off += a.len() + 1;
            }
            match (name, nums.as_slice()) {
                ("wind", [a, b, c, d]) => {
                    return AssistanceAst::Wind {
                        span: f.span,
                        ucutoff: *a,
                        uvalue: *b,
                        mycutoff: *c,
                        myvalue: *d,
                    }
                }
                ("moyo", [a, b]) => {
                    return AssistanceAst::Moyo {
                        span: f.span,
                        cutoff: *a,
                        value: *b,
                    }
                }
                ("wind", _) | ("moyo", _) => {
                    let want = if name == "wind" { 4 } else { 2 };
                    self.diags.push(Diagnostic::error(
                        f.span,
                        format!("`{name}` takes {want} numbers, found {}", nums.len()),
                    ));
                    return AssistanceAst::None(f.span);
                }
                _ => {}
            }
        }
        self.diags.push(
            Diagnostic::error(f.span, format!("unknown assistance `{t}`"))
                .note("the assistance is `0`, `wind(ucutoff,uvalue,mycutoff,myvalue)` or `moyo(cutoff,value)`"),
        );
        AssistanceAst::None(f.span)
    }

    fn attributes_26(&mut self, l: &Line<'_>, f: &[Text]) -> Option<Attributes> {
        const FORM: &str =
            ":sym,weight,assistance,class,obonus,xbonus,splitbonus,minrand,maxrand,helper";
        let mut fields = f.to_vec();
        if fields.len() == 9 && !is_number_token(&fields[8].text) {
            // GNU Go 2.6's own CC156 and CC157 leave out one number: the
            // helper is still the last field, the missing number is 0.
            self.diags.push(
                Diagnostic::warning(
                    Span::at(fields[8].span.start),
                    "the attribute line has 9 fields, expected 10: the missing number is taken as 0",
                )
                .note(format!("the form is `{FORM}`")),
            );
            let helper = fields.pop().expect("nine fields");
            fields.push(Text {
                text: "0".into(),
                span: Span::at(helper.span.start),
            });
            fields.push(helper);
        }
        if fields.len() != 10 {
            self.wrong_count(l, f, 10, FORM);
            return None;
        }
        let symmetry = self.symmetry(&fields[0]);
        let weight = self.num(&fields[1], "the weight");
        let assistance = self.assistance_26(&fields[2]);
        let bonus = self.num(&fields[4], "obonus");
        let xbonus = self.num(&fields[5], "xbonus");
        let splitbonus = self.num(&fields[6], "splitbonus");
        let minrand = self.num(&fields[7], "minrand");
        let maxrand = self.num(&fields[8], "maxrand");
        let helper = self.helper(&fields[9]);
        Some(Attributes {
            span: l.span(),
            symmetry,
            weight,
            assistance,
            class: fields[3].clone(),
            bonus,
            xbonus: Some(xbonus),
            splitbonus: Some(splitbonus),
            minrand: Some(minrand),
            maxrand: Some(maxrand),
            helper,
        })
    }

    /// GNU Go 3.x: `:SYMMETRY,CLASSES` then, in any order, value
    /// functions `name(arg)` and at most one helper name (`NULL` is none).
    /// Which functions exist is the database's `attribute_map`: the
    /// checker knows it; here only the form is read.
    fn attributes_38(&mut self, l: &Line<'_>, f: &[Text]) -> Option<Go38Attributes> {
        if f.len() < 2 {
            self.wrong_count_at_least(l, f, 2, Dialect::GnuGo38.attribute_form());
            return None;
        }
        let symmetry = self.symmetry(&f[0]);
        let mut values = Vec::new();
        let mut helper: Option<Text> = None;
        for field in &f[2..] {
            let t = field.text.as_str();
            let call = (
                identifier,
                space0,
                char('('),
                take_while(|c| c != ')'),
                char(')'),
            )
                .parse(t);
            match call {
                Ok(("", (name, gap, _, arg, _))) => {
                    let n = field.span.start;
                    let a = n + name.len() + gap.len() + 1;
                    let lead = arg.len() - arg.trim_start().len();
                    values.push(ValueAst {
                        name: Text {
                            text: name.to_string(),
                            span: Span::new(n, n + name.len()),
                        },
                        arg: Text {
                            text: arg.trim().to_string(),
                            span: Span::new(a + lead, a + lead + arg.trim().len().max(1)),
                        },
                        span: field.span,
                    });
                }
                _ if t.contains('(') => {
                    self.diags.push(
                        Diagnostic::error(field.span, format!("malformed value function `{t}`"))
                            .note(
                            "a value function is written `name(argument)`, for example `value(30)`",
                        ),
                    );
                }
                _ => {
                    if let Some(first) = &helper {
                        self.diags.push(
                            Diagnostic::error(field.span, "a second helper on the attribute line")
                                .related(first.span, "the helper is named here"),
                        );
                    } else if t != "NULL" {
                        helper = self.helper(field);
                    }
                }
            }
        }
        Some(Go38Attributes {
            span: l.span(),
            symmetry,
            class: f[1].clone(),
            values,
            helper,
        })
    }

    fn wrong_count_at_least(&mut self, l: &Line<'_>, fields: &[Text], want: usize, form: &str) {
        let span = Span::at(l.start + l.text.len().saturating_sub(1));
        self.diags.push(
            Diagnostic::error(
                span,
                format!(
                    "the attribute line has {} field(s), expected at least {want}",
                    fields.len()
                ),
            )
            .note(format!("the form is `{form}`")),
        );
    }

    /// The consecutive lines of `kind` (`;` or `>`) from here, their
    /// text after the mark joined with newlines, with where each starts.
    fn joined_lines(&mut self, kind: LineKind<'_>) -> Option<(Text, Vec<(usize, Span)>)> {
        let mut expr = String::new();
        let mut pieces = Vec::new();
        let mut span: Option<Span> = None;
        while let Some(l) = self.lines.get(self.pos).copied() {
            if std::mem::discriminant(&self.classify(&l)) != std::mem::discriminant(&kind) {
                break;
            }
            self.pos += 1;
            if !expr.is_empty() {
                expr.push('\n');
            }
            pieces.push((expr.len(), Span::new(l.start + 1, l.start + l.text.len())));
            expr.push_str(&l.text[1..]);
            span = Some(match span {
                None => l.span(),
                Some(s) => Span::new(s.start, l.start + l.text.len()),
            });
        }
        span.map(|span| (Text { text: expr, span }, pieces))
    }

    /// GNU Go 2.6 and 3.x: an optional constraint diagram, then `;` lines
    /// (in 3.x a diagram may stand alone: its labels serve the `>` lines
    /// or the attribute line).
    fn constraint(&mut self) -> Option<Constraint> {
        self.skip_blank_and_comments();
        let l = self.lines.get(self.pos).copied()?;
        let diagram = match self.classify(&l) {
            LineKind::Other => {
                let d = self.diagram(true);
                self.skip_blank_and_comments();
                d
            }
            LineKind::Constraint => Diagram::default(),
            _ => return None,
        };
        match self.joined_lines(LineKind::Constraint) {
            Some((expr, pieces)) => Some(Constraint {
                diagram,
                expr,
                pieces,
            }),
            None if self.dialect == Dialect::GnuGo38 => {
                let at = diagram.lines.first().copied().unwrap_or(l.span());
                Some(Constraint {
                    diagram,
                    expr: Text {
                        text: String::new(),
                        span: Span::at(at.start),
                    },
                    pieces: Vec::new(),
                })
            }
            None => {
                let at = diagram.lines.first().copied().unwrap_or(l.span());
                self.diags.push(
                    Diagnostic::error(at, "a constraint diagram without `;` lines")
                        .note("after the constraint diagram, `;` lines give the expression"),
                );
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_header_is_strict() {
        assert_eq!(header_seed("# pattern 552"), Some("552"));
        assert_eq!(header_seed("# pattern 552  "), Some("552"));
        assert_eq!(header_seed("#pattern 552"), None);
        assert_eq!(header_seed("# pattern 552 x"), None);
        assert_eq!(header_seed("# patterns 5"), None);
        assert!(near_header_seed("# pattern five"));
        assert!(!near_header_seed("# patterns are below"));
    }

    #[test]
    fn parses_the_seed_example() {
        let src = "# pattern 552\n\n??o|          sente hane\n?Oo|\nXX*|\n...|\n?.?|\n\n:8,70,0,0,0,0,O,0,sente_hane_helper\n";
        let (db, diags) = parse(src, None);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(db.dialect, Dialect::Seed);
        let p = &db.patterns[0];
        assert_eq!(p.name.text, "552");
        assert_eq!(p.diagram.rows.len(), 5);
        assert!(p
            .diagram
            .rows
            .iter()
            .all(|r| r.east.is_some() && r.west.is_none()));
        assert_eq!(p.diagram.description, "sente hane");
        let a = p.attributes.as_ref().and_then(|a| a.go()).unwrap();
        assert_eq!(a.weight.value, 70);
        assert_eq!(a.helper.as_ref().unwrap().text, "sente_hane_helper");
    }

    #[test]
    fn attribute_fields_allow_spaces_after_commas() {
        let src = "# pattern 1\nO*\n: 8, 70, 0, 0, 0, 0, OX, 0, NULL\n";
        let (db, diags) = parse(src, None);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            db.patterns[0]
                .attributes
                .as_ref()
                .and_then(|a| a.go())
                .unwrap()
                .class
                .text,
            "OX"
        );
    }

    #[test]
    fn parses_a_26_pattern_with_a_constraint() {
        let src = "Pattern ES1\n\n?..O?     press along the side\n?X...\n?.*..\n.....\n-----\n\n:8,40,moyo(12,1),O,10,4,4,0,0,NULL\n\n?..O?\n?A...\n?.*..\n.....\n-----\n\n;lib(A)>2\n";
        let (db, diags) = parse(src, None);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(db.dialect, Dialect::GnuGo26);
        let p = &db.patterns[0];
        assert!(p.diagram.south.is_some());
        assert!(matches!(
            p.attributes
                .as_ref()
                .and_then(|a| a.go())
                .unwrap()
                .assistance,
            AssistanceAst::Moyo { .. }
        ));
        let c = p.constraint.as_ref().unwrap();
        assert_eq!(c.expr.text, "lib(A)>2");
        assert_eq!(c.diagram.rows.len(), 4);
    }
}
