//! The parsed form of a pattern database: what the text says, with spans.
//!
//! Nothing here is validated beyond the grammar; the checker turns these
//! into [`crate::check::CheckedPattern`]s. Both dialects parse into the same
//! types: fields a dialect lacks are `None` or zero.

use crate::diag::Span;
use crate::geometry::Geometry;

pub use crate::dialect::Dialect;

/// A whole parsed database.
#[derive(Clone, Debug)]
pub struct Database {
    pub dialect: Dialect,
    /// The board geometry declared by a `geometry:` line (the square when
    /// there is none).
    pub geometry: Geometry,
    pub patterns: Vec<PatternAst>,
    /// GNU Go 3.x's directive lines (`attribute_map`, `goal_elements`,
    /// `callback_data`), in file order.
    pub directives: Vec<Directive>,
}

/// A GNU Go 3.x directive line: `NAME VALUE`.
#[derive(Clone, Debug)]
pub struct Directive {
    pub name: Text,
    pub value: Text,
    /// How many patterns come before it (a directive applies to the
    /// patterns after it).
    pub before: usize,
}

/// A number with its place in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    pub value: i64,
    pub span: Span,
}

/// A piece of text with its place in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub text: String,
    pub span: Span,
}

/// One pattern as written.
#[derive(Clone, Debug)]
pub struct PatternAst {
    /// The number (seed) or name (2.6) from the header.
    pub name: Text,
    /// The whole header line.
    pub header: Span,
    pub diagram: Diagram,
    /// `None` when the attribute line is missing or did not parse (an error
    /// has been reported).
    pub attributes: Option<AttributeLine>,
    pub constraint: Option<Constraint>,
    /// GNU Go 3.x's `>` action lines, joined (the `expr` of a
    /// [`Constraint`] without its diagram).
    pub action: Option<Constraint>,
}

/// A diagram: its rows of cells and its edges.
#[derive(Clone, Debug, Default)]
pub struct Diagram {
    pub rows: Vec<Row>,
    /// An edge line of `-` above the rows, and below them.
    pub north: Option<EdgeLine>,
    pub south: Option<EdgeLine>,
    /// Edge lines found between rows or repeated (always an error).
    pub misplaced_edges: Vec<EdgeLine>,
    /// Rows after the south edge line (always an error, reported by the
    /// parser): not part of the diagram, kept so that the checker does not
    /// also report what they hold (a `*`) as missing.
    pub dropped_rows: Vec<Row>,
    /// The comment written beside the diagram (the seed's description).
    pub description: String,
    /// Spans of every line of the diagram, edge lines included.
    pub lines: Vec<Span>,
}

impl Diagram {
    /// Files an edge line: the north one before any row, the south one
    /// after them, any other misplaced (the checker reports it).
    pub fn add_edge_line(&mut self, e: EdgeLine) {
        if self.rows.is_empty() && self.north.is_none() {
            self.north = Some(e);
        } else if self.south.is_none() && !self.rows.is_empty() {
            self.south = Some(e);
        } else {
            self.misplaced_edges.push(e);
        }
    }
}

/// One diagram row: `|`? cells `|`? (a hexagonal row: a side mark
/// `\ / <`? before its cells and `\ / >`? after them).
#[derive(Clone, Debug)]
pub struct Row {
    pub span: Span,
    pub west: Option<Span>,
    pub east: Option<Span>,
    /// A hexagonal row's side marks, the characters at `west` and `east`.
    pub west_mark: Option<char>,
    pub east_mark: Option<char>,
    pub cells: Vec<(char, Span)>,
}

/// A line of `-`, with optional corner marks `+` at its ends.
#[derive(Clone, Debug)]
pub struct EdgeLine {
    pub span: Span,
    /// `+` at the start (a west corner) and at the end (an east corner).
    pub west_corner: Option<Span>,
    pub east_corner: Option<Span>,
    /// Number of characters between the corners (or the line's cells).
    pub width: usize,
    /// Offset in characters of the first `-` from the line's start.
    pub indent: usize,
}

/// An attribute line in its dialect's form.
#[derive(Clone, Debug)]
pub enum AttributeLine {
    /// Both GNU Go dialects' (boxed: ten fields with spans).
    Go(Box<Attributes>),
    /// The five-in-a-row dialect's.
    Five(FiveAttributes),
    /// GNU Go 3.x's.
    Go38(Go38Attributes),
}

/// GNU Go 3.x's attribute line, `:SYMMETRY,CLASSES[,FUNCTION(ARG)…][,HELPER]`.
#[derive(Clone, Debug)]
pub struct Go38Attributes {
    pub span: Span,
    pub symmetry: Text,
    /// The classification letters as written (`-` or empty for none).
    pub class: Text,
    /// The value functions: name, argument text, the whole field.
    pub values: Vec<ValueAst>,
    /// The helper function's name, if one is given (`NULL` is none).
    pub helper: Option<Text>,
}

/// One `name(arg)` field of a 3.x attribute line.
#[derive(Clone, Debug)]
pub struct ValueAst {
    pub name: Text,
    pub arg: Text,
    pub span: Span,
}

impl AttributeLine {
    /// GNU Go's line, if this is one.
    pub fn go(&self) -> Option<&Attributes> {
        match self {
            AttributeLine::Go(a) => Some(a),
            AttributeLine::Five(_) | AttributeLine::Go38(_) => None,
        }
    }

    /// The symmetry field, first in every dialect.
    pub fn symmetry(&self) -> &Text {
        match self {
            AttributeLine::Go(a) => &a.symmetry,
            AttributeLine::Five(a) => &a.symmetry,
            AttributeLine::Go38(a) => &a.symmetry,
        }
    }
}

/// The five-in-a-row dialect's attribute line,
/// `:symmetry,kind,mine,theirs`.
#[derive(Clone, Debug)]
pub struct FiveAttributes {
    pub span: Span,
    /// A class letter of the geometry, or `line`.
    pub symmetry: Text,
    pub kind: Text,
    pub mine: Num,
    pub theirs: Num,
}

/// GNU Go's attribute line (both dialects).
#[derive(Clone, Debug)]
pub struct Attributes {
    pub span: Span,
    pub symmetry: Text,
    pub weight: Num,
    pub assistance: AssistanceAst,
    pub class: Text,
    /// Seed: `bonus`. 2.6: `obonus`.
    pub bonus: Num,
    /// 2.6 only.
    pub xbonus: Option<Num>,
    pub splitbonus: Option<Num>,
    pub minrand: Option<Num>,
    pub maxrand: Option<Num>,
    /// `None` for `NULL`.
    pub helper: Option<Text>,
}

/// The assistance written on an attribute line.
#[derive(Clone, Debug)]
pub enum AssistanceAst {
    /// Seed `0,0,0,0` or 2.6 `0`.
    None(Span),
    /// Seed `ucutoff,uvalue,mycutoff,myvalue` or 2.6 `wind(...)`.
    Wind {
        span: Span,
        ucutoff: Num,
        uvalue: Num,
        mycutoff: Num,
        myvalue: Num,
    },
    /// 2.6 `moyo(cutoff,value)`.
    Moyo { span: Span, cutoff: Num, value: Num },
}

/// A 2.6 or 3.x constraint: the labelled diagram and the `;` expression
/// text (in 3.x the text may be empty: a diagram whose labels only the
/// actions or the attribute line use).
#[derive(Clone, Debug)]
pub struct Constraint {
    pub diagram: Diagram,
    /// The expression: the `;` lines' text joined with newlines.
    pub expr: Text,
    /// Where each `;` line's text starts (for spans into the expression).
    pub pieces: Vec<(usize, Span)>,
}
