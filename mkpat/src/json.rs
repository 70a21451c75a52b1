//! The compiled database as JSON: `mkpat json`, and the data of `mkpat html`.
//!
//! Tools outside Rust (a pattern viewer, a notebook, a diff of two
//! databases) need the tables as plain data, with what the Rust tables leave
//! out because the matcher does not need it: the diagrams as drawn, every
//! transformation's diagram and transformed elements, the masks as 4x4
//! pictures. The schema types here are that contract (documented in
//! `docs/json.md`); [`export`] fills them from a compilation and
//! [`JsonDatabase::to_database`] rebuilds the matcher's tables from them, so
//! a JSON file is a complete description of what the matcher tries.
//!
//! Pure functions, like the rest of the library: no file access.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::check::CheckedPattern;
use crate::geometry::Geometry;
use crate::show::mask_rows;
use crate::tables::{
    class, Assistance, Cell, Database, Element, Extent, FiveValues, GoValues, Kind, Pattern,
    Span32, Values, Variant,
};
use crate::transform::side;

/// The version of the schema below; bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// A whole compiled database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonDatabase {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The source database's name as given to the compiler.
    pub source: String,
    /// `"seed"` or `"gnugo-2.6"`.
    pub dialect: String,
    /// `"square"` or `"hexagon"` (absent in files written before
    /// hexagonal diagrams: the square).
    #[serde(default = "square")]
    pub geometry: String,
    /// The patterns in table order: by max weight, descending, ties in
    /// file order (the order the matcher's best-first scan uses).
    pub patterns: Vec<JsonPattern>,
}

fn square() -> String {
    Geometry::Square.name().to_string()
}

/// A side of the board that a diagram lies on. On the hexagon (axial
/// coordinates) `north` and `south` are the top and bottom sides, `west`
/// the lower-left (least `j`), `east` the upper-right (greatest `j`),
/// `least_sum` the upper-left and `most_sum` the lower-right (least and
/// greatest `i + j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    North,
    South,
    West,
    East,
    LeastSum,
    MostSum,
}

impl Side {
    pub const ALL: [Side; 6] = [
        Side::North,
        Side::South,
        Side::West,
        Side::East,
        Side::LeastSum,
        Side::MostSum,
    ];

    pub const fn bit(self) -> u8 {
        match self {
            Side::North => side::NORTH,
            Side::South => side::SOUTH,
            Side::West => side::WEST,
            Side::East => side::EAST,
            Side::LeastSum => side::LEAST_SUM,
            Side::MostSum => side::MOST_SUM,
        }
    }

    /// The sides set in a [`side`] bit set, in the order N, S, W, E (then
    /// the hexagon's two others).
    pub fn from_bits(bits: u8) -> Vec<Side> {
        Side::ALL
            .into_iter()
            .filter(|s| bits & s.bit() != 0)
            .collect()
    }

    pub fn to_bits(sides: &[Side]) -> u8 {
        sides.iter().fold(0, |b, s| b | s.bit())
    }
}

/// Where on the board a pattern can match, from its edge sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Region {
    /// No edge: anywhere the diagram fits.
    Centre,
    /// One edge, or two opposite ones.
    Edge,
    /// A north or south edge and a west or east one.
    Corner,
}

impl Region {
    pub fn of_edges(bits: u8) -> Region {
        // Sides along two different axes meet in a corner (on the square
        // N/S with W/E; the hexagon has a third pair).
        let axes = [
            side::NORTH | side::SOUTH,
            side::WEST | side::EAST,
            side::LEAST_SUM | side::MOST_SUM,
        ]
        .iter()
        .filter(|&&pair| bits & pair != 0)
        .count();
        match axes {
            0 => Region::Centre,
            1 => Region::Edge,
            _ => Region::Corner,
        }
    }
}

/// An offset `(di, dj)` from the anchor: rows down, columns right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offset {
    pub di: i32,
    pub dj: i32,
}

/// A bounding box relative to the anchor, `?` cells included; on the
/// hexagon also the range of `i + j` (axial coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonExtent {
    pub min_i: i32,
    pub min_j: i32,
    pub max_i: i32,
    pub max_j: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_s: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_s: Option<i32>,
}

impl JsonExtent {
    fn of(geometry: Geometry, e: Extent) -> JsonExtent {
        let hex = geometry == Geometry::Hexagon;
        JsonExtent {
            min_i: e.min_i.into(),
            min_j: e.min_j.into(),
            max_i: e.max_i.into(),
            max_j: e.max_j.into(),
            min_s: hex.then_some(e.min_s.into()),
            max_s: hex.then_some(e.max_s.into()),
        }
    }
}

/// One checked point: its offset from the anchor and the diagram character
/// it must satisfy (`.` for the move point too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonElement {
    pub di: i32,
    pub dj: i32,
    pub cell: char,
}

/// The numbers of a pattern's attribute line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weights {
    pub weight: i32,
    pub bonus: i32,
    pub xbonus: i32,
    pub splitbonus: i32,
    pub minrand: i32,
    pub maxrand: i32,
    /// The most the pattern can be worth: the table's sort key.
    pub max_weight: i64,
}

/// A five-in-a-row pattern's record (the `five` dialect).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonFive {
    /// The threat kind's name (`open-four`, `split-three`, …).
    pub kind: String,
    pub mine: i32,
    pub theirs: i32,
    /// Written as a line pattern.
    pub line: bool,
}

/// A GNU Go 3.x pattern's values (the `gnugo-3.8` dialect), in
/// thousandths (`value(2.5)` is 2500); its classification letters are the
/// pattern's `class`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonGo38 {
    pub value: i32,
    pub max_value: i32,
    pub min_terri: i32,
    pub max_terri: i32,
    pub shape: i32,
    pub followup: i32,
    pub reverse_followup: i32,
    /// The owl maps' label attributes: a label letter or `*`.
    pub threatens_to_capture: Option<char>,
    pub threatens_eye: Option<char>,
    pub reverse_sente: Option<char>,
}

/// Wind or moyo assistance, tagged by `"kind"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum JsonAssistance {
    None,
    Wind {
        ucutoff: i32,
        uvalue: i32,
        mycutoff: i32,
        myvalue: i32,
    },
    Moyo {
        cutoff: i32,
        value: i32,
    },
}

impl From<Assistance> for JsonAssistance {
    fn from(a: Assistance) -> Self {
        match a {
            Assistance::None => JsonAssistance::None,
            Assistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            } => JsonAssistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            },
            Assistance::Moyo { cutoff, value } => JsonAssistance::Moyo { cutoff, value },
        }
    }
}

impl From<JsonAssistance> for Assistance {
    fn from(a: JsonAssistance) -> Self {
        match a {
            JsonAssistance::None => Assistance::None,
            JsonAssistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            } => Assistance::Wind {
                ucutoff,
                uvalue,
                mycutoff,
                myvalue,
            },
            JsonAssistance::Moyo { cutoff, value } => Assistance::Moyo { cutoff, value },
        }
    }
}

/// A labelled point of a constraint diagram, relative to the anchor,
/// untransformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonLabel {
    pub name: char,
    pub di: i32,
    pub dj: i32,
}

/// A 2.6 `;` constraint: its source text and its labels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonConstraint {
    pub text: String,
    /// Empty when the compilation did not have the checked constraint.
    pub labels: Vec<JsonLabel>,
}

/// One transformation of a pattern, as the matcher tries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonTransformation {
    /// The transformation number: on the square GNU Go 2.6's, 0..8; on the
    /// hexagon 0..12 (`mkpat::geometry`).
    pub trans: u8,
    /// A human name of the transformation.
    pub name: String,
    /// The transformed diagram as drawn, edges included.
    pub diagram: Vec<String>,
    pub edges: Vec<Side>,
    pub extent: JsonExtent,
    #[serde(rename = "move")]
    pub move_offset: Offset,
    /// The pattern's elements, in table order, at their transformed offsets.
    pub elements: Vec<JsonElement>,
    /// The 4x4 grid masks (window (-1,-1)..(+2,+2) around the anchor, two
    /// bits a cell from the top bit): a window matches when
    /// `point & and_mask == val_mask`.
    pub and_mask: u32,
    pub val_mask: u32,
    /// The same masks as four rows of four 2-bit cells, e.g. `"11 00 11 01"`.
    pub and_rows: Vec<String>,
    pub val_rows: Vec<String>,
}

/// One compiled pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonPattern {
    /// Position in [`JsonDatabase::patterns`] (and in the matcher's table).
    pub index: u32,
    pub name: String,
    /// Line of the header in the source (1-based).
    pub line: u32,
    /// The diagram as drawn, one row a string, edge lines and `|` included.
    pub diagram: Vec<String>,
    pub description: String,
    /// The declared symmetry class character.
    pub symmetry: char,
    /// The anchor's cell, `O` or `X`: the first stone in reading order.
    pub anchor: char,
    /// The classification letters, `""` for none.
    pub class: String,
    pub edges: Vec<Side>,
    pub region: Region,
    pub extent: JsonExtent,
    #[serde(rename = "move")]
    pub move_offset: Offset,
    /// The Go dialects' numbers (zeros in the five dialect, whose record
    /// is `five`) and the maximum weight, every dialect's sort key.
    pub weights: Weights,
    pub assistance: JsonAssistance,
    /// The five dialect's record; absent in the Go dialects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub five: Option<JsonFive>,
    /// GNU Go 3.x's values; absent in the other dialects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go38: Option<JsonGo38>,
    pub helper: Option<String>,
    pub constraint: Option<JsonConstraint>,
    /// The checked points, untransformed, in table order (stones first,
    /// empty points last, the anchor first).
    pub elements: Vec<JsonElement>,
    /// Every transformation the matcher tries, in table order.
    pub transformations: Vec<JsonTransformation>,
}

fn element(geometry: Geometry, e: Element, t: u8) -> JsonElement {
    let (di, dj) = geometry.apply(t, e.di(), e.dj());
    JsonElement {
        di,
        dj,
        cell: e.cell().as_char(),
    }
}

fn lines(s: &str) -> Vec<String> {
    s.lines().map(str::to_string).collect()
}

/// The database as JSON schema values. `checked` supplies the diagrams and
/// constraint labels (matched to table patterns by source line); a pattern
/// without its checked form gets an empty diagram.
pub fn export(
    source: &str,
    dialect: crate::Dialect,
    db: &Database,
    checked: &[CheckedPattern],
) -> JsonDatabase {
    let tables = db.view();
    let g = db.geometry;
    let patterns = db
        .patterns
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let c = checked
                .iter()
                .find(|c| c.line == p.line && c.name == p.name);
            let elements = tables.elements_of(p);
            let transformations = tables
                .variants_of(p)
                .iter()
                .map(|v| JsonTransformation {
                    trans: v.trans,
                    name: g.transform_name(v.trans).to_string(),
                    diagram: c.map_or_else(Vec::new, |c| {
                        lines(&part_grid(&c.grid, p).transformed(v.trans).draw())
                    }),
                    edges: Side::from_bits(v.edges),
                    extent: JsonExtent::of(g, v.extent),
                    move_offset: Offset {
                        di: v.move_di.into(),
                        dj: v.move_dj.into(),
                    },
                    elements: elements.iter().map(|e| element(g, *e, v.trans)).collect(),
                    and_mask: v.and_mask,
                    val_mask: v.val_mask,
                    and_rows: mask_rows(v.and_mask).to_vec(),
                    val_rows: mask_rows(v.val_mask).to_vec(),
                })
                .collect();
            let labels = db
                .constraints
                .get(index)
                .and_then(Option::as_ref)
                .or_else(|| c.and_then(|c| c.constraint.as_ref()))
                .map(|k| {
                    k.labels
                        .iter()
                        .map(|l| JsonLabel {
                            name: l.name,
                            di: l.di,
                            dj: l.dj,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let go = p.values.go().copied().unwrap_or(NO_GO);
            JsonPattern {
                index: index as u32,
                name: p.name.to_string(),
                line: p.line,
                diagram: c.map_or_else(Vec::new, |c| lines(&part_grid(&c.grid, p).draw())),
                description: p.description.to_string(),
                symmetry: p.symmetry,
                anchor: p.anchor.as_char(),
                class: match p.values.go38() {
                    Some(v) => crate::dialect::gnugo38::class_text(v.class).replace('-', ""),
                    None => class_letters(go.class),
                },
                edges: Side::from_bits(p.edges),
                region: Region::of_edges(p.edges),
                extent: JsonExtent::of(g, p.extent),
                move_offset: Offset {
                    di: p.move_di.into(),
                    dj: p.move_dj.into(),
                },
                weights: Weights {
                    weight: go.weight,
                    bonus: go.bonus,
                    xbonus: go.xbonus,
                    splitbonus: go.splitbonus,
                    minrand: go.minrand,
                    maxrand: go.maxrand,
                    max_weight: p.max_weight,
                },
                assistance: go.assistance.into(),
                five: p.values.five().map(|f| JsonFive {
                    kind: f.kind.name().to_string(),
                    mine: f.mine,
                    theirs: f.theirs,
                    line: f.line,
                }),
                go38: p.values.go38().map(|v| {
                    let label = |b: u8| (b != 0).then_some(char::from(b));
                    JsonGo38 {
                        value: v.value,
                        max_value: v.max_value,
                        min_terri: v.min_terri,
                        max_terri: v.max_terri,
                        shape: v.shape,
                        followup: v.followup,
                        reverse_followup: v.reverse_followup,
                        threatens_to_capture: label(v.threatens_to_capture),
                        threatens_eye: label(v.threatens_eye),
                        reverse_sente: label(v.reverse_sente),
                    }
                }),
                helper: p.helper.as_deref().map(str::to_string),
                constraint: p.constraint.as_deref().map(|text| JsonConstraint {
                    text: text.to_string(),
                    labels,
                }),
                elements: elements.iter().map(|e| element(g, *e, 0)).collect(),
                transformations,
            }
        })
        .collect();
    JsonDatabase {
        schema_version: SCHEMA_VERSION,
        source: source.to_string(),
        dialect: dialect.name().to_string(),
        geometry: g.name().to_string(),
        patterns,
    }
}

/// The Go numbers a five-in-a-row pattern shows: none.
const NO_GO: GoValues = GoValues {
    weight: 0,
    assistance: Assistance::None,
    class: 0,
    bonus: 0,
    xbonus: 0,
    splitbonus: 0,
    minrand: 0,
    maxrand: 0,
};

/// The diagram of one tables pattern: a line pattern's row, or on the
/// square its diagonal part (the part whose extent spans rows).
fn part_grid(grid: &crate::grid::Grid, p: &Pattern) -> crate::grid::Grid {
    if grid.rows == 1 && p.extent.max_i > p.extent.min_i {
        crate::dialect::five::diagonal(grid)
    } else {
        grid.clone()
    }
}

/// [`export`] of a successful compilation; `None` when it had errors.
pub fn export_compiled(c: &crate::Compiled) -> Option<JsonDatabase> {
    let db = c.database.as_ref()?;
    Some(export(&c.source.name, c.dialect, db, &c.checked))
}

/// The class letters of a bit set, `""` for none.
pub fn class_letters(bits: u16) -> String {
    class::LETTERS
        .iter()
        .filter(|(_, b)| bits & b != 0)
        .map(|(l, _)| *l)
        .collect()
}

fn cell_of(c: char) -> Result<Cell, String> {
    Cell::ALL
        .into_iter()
        .find(|k| k.as_char() == c)
        .ok_or_else(|| format!("`{c}` is not an element cell"))
}

fn i8_of(v: i32, what: &str) -> Result<i8, String> {
    i8::try_from(v).map_err(|_| format!("{what} {v} is out of range"))
}

fn extent_of(geometry: Geometry, e: JsonExtent) -> Result<Extent, String> {
    let (a, b, c, d) = (
        i8_of(e.min_i, "extent")?,
        i8_of(e.min_j, "extent")?,
        i8_of(e.max_i, "extent")?,
        i8_of(e.max_j, "extent")?,
    );
    match (geometry, e.min_s, e.max_s) {
        (Geometry::Square, None, None) => Ok(Extent::new(a, b, c, d)),
        (Geometry::Hexagon, Some(s0), Some(s1)) => Ok(Extent::hexagonal(
            a,
            b,
            c,
            d,
            i8_of(s0, "extent")?,
            i8_of(s1, "extent")?,
        )),
        (Geometry::Square, ..) => Err("a square extent has no `min_s`/`max_s`".into()),
        (Geometry::Hexagon, ..) => Err("a hexagonal extent needs `min_s` and `max_s`".into()),
    }
}

/// Writes `v` as JSON at indentation `depth` (two spaces a level).
fn write_value(out: &mut String, v: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    let scalar = |v: &Value| !matches!(v, Value::Array(_) | Value::Object(_));
    let pad = |out: &mut String, d: usize| out.extend(std::iter::repeat_n("  ", d));
    match v {
        Value::Object(m) if !m.is_empty() && m.values().all(scalar) => {
            let fields: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{}: {v}", Value::String(k.clone())))
                .collect();
            out.push_str(&format!("{{ {} }}", fields.join(", ")));
        }
        Value::Array(a)
            if !a.is_empty() && a.iter().all(|v| scalar(v) && !v.is_string())
                || a.len() == 1 && scalar(&a[0]) =>
        {
            let items: Vec<String> = a.iter().map(Value::to_string).collect();
            out.push_str(&format!("[{}]", items.join(", ")));
        }
        Value::Object(m) if !m.is_empty() => {
            out.push_str("{\n");
            for (k, (key, v)) in m.iter().enumerate() {
                pad(out, depth + 1);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                write_value(out, v, depth + 1);
                out.push_str(if k + 1 < m.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push_str("[\n");
            for (k, v) in a.iter().enumerate() {
                pad(out, depth + 1);
                write_value(out, v, depth + 1);
                out.push_str(if k + 1 < a.len() { ",\n" } else { "\n" });
            }
            pad(out, depth);
            out.push(']');
        }
        v => out.push_str(&v.to_string()),
    }
}

impl JsonDatabase {
    /// Pretty-printed JSON text, ending with a newline: one line per
    /// element, offset or weight record (objects of scalars are written
    /// inline), diagram rows one per line, so that the text stays
    /// readable and a diff of two exports points at what changed.
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).expect("plain data serializes");
        let mut s = String::new();
        write_value(&mut s, &value, 0);
        s.push('\n');
        s
    }

    pub fn from_json(text: &str) -> Result<JsonDatabase, String> {
        let db: JsonDatabase = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if db.schema_version != SCHEMA_VERSION {
            return Err(format!(
                "schema version {} is not the supported {SCHEMA_VERSION}",
                db.schema_version
            ));
        }
        Ok(db)
    }

    /// Rebuilds the matcher's tables. Checked constraints (expression
    /// trees) are not part of the JSON: `constraints` is all `None`, and the
    /// patterns keep their constraint text.
    pub fn to_database(&self) -> Result<Database, String> {
        let geometry = Geometry::from_name(&self.geometry)
            .ok_or_else(|| format!("unknown geometry `{}`", self.geometry))?;
        let dialect = crate::Dialect::from_name(&self.dialect)
            .ok_or_else(|| format!("unknown dialect `{}`", self.dialect))?;
        let mut db = Database {
            geometry,
            dialect,
            ..Database::default()
        };
        for (index, p) in self.patterns.iter().enumerate() {
            let at = |e: String| format!("pattern {}: {e}", p.name);
            let elements_start = db.elements.len() as u32;
            for e in &p.elements {
                db.elements.push(Element::new(
                    i8_of(e.di, "offset").map_err(at)?,
                    i8_of(e.dj, "offset").map_err(at)?,
                    cell_of(e.cell).map_err(at)?,
                ));
            }
            let variants_start = db.variants.len() as u32;
            for t in &p.transformations {
                db.variants.push(Variant {
                    pattern: index as u32,
                    trans: t.trans,
                    edges: Side::to_bits(&t.edges),
                    extent: extent_of(geometry, t.extent).map_err(at)?,
                    move_di: i8_of(t.move_offset.di, "move").map_err(at)?,
                    move_dj: i8_of(t.move_offset.dj, "move").map_err(at)?,
                    and_mask: t.and_mask,
                    val_mask: t.val_mask,
                });
            }
            let mut class_bits = 0;
            let mut class38 = 0;
            for l in p.class.chars() {
                if p.go38.is_some() {
                    class38 |= crate::dialect::gnugo38::class_bit(l)
                        .ok_or_else(|| at(format!("`{l}` is not a class letter")))?;
                } else {
                    class_bits |= class::from_char(l)
                        .ok_or_else(|| at(format!("`{l}` is not a class letter")))?;
                }
            }
            let label = |c: Option<char>| -> Result<u8, String> {
                match c {
                    None => Ok(0),
                    Some(c) if c == '*' || crate::dialect::gnugo38::is_label(c) => Ok(c as u8),
                    Some(c) => Err(at(format!("`{c}` is not a label"))),
                }
            };
            let values = match (&p.five, &p.go38) {
                (_, Some(g)) => Values::Go38(crate::dialect::gnugo38::Go38Values {
                    class: class38,
                    value: g.value,
                    max_value: g.max_value,
                    min_terri: g.min_terri,
                    max_terri: g.max_terri,
                    shape: g.shape,
                    followup: g.followup,
                    reverse_followup: g.reverse_followup,
                    threatens_to_capture: label(g.threatens_to_capture)?,
                    threatens_eye: label(g.threatens_eye)?,
                    reverse_sente: label(g.reverse_sente)?,
                }),
                (Some(f), None) => Values::Five(FiveValues {
                    kind: Kind::from_name(&f.kind)
                        .ok_or_else(|| at(format!("unknown kind `{}`", f.kind)))?,
                    mine: f.mine,
                    theirs: f.theirs,
                    line: f.line,
                }),
                (None, None) => Values::Go(GoValues {
                    weight: p.weights.weight,
                    assistance: p.assistance.into(),
                    class: class_bits,
                    bonus: p.weights.bonus,
                    xbonus: p.weights.xbonus,
                    splitbonus: p.weights.splitbonus,
                    minrand: p.weights.minrand,
                    maxrand: p.weights.maxrand,
                }),
            };
            db.patterns.push(Pattern {
                name: Cow::Owned(p.name.clone()),
                line: p.line,
                symmetry: p.symmetry,
                anchor: cell_of(p.anchor).map_err(at)?,
                move_di: i8_of(p.move_offset.di, "move").map_err(at)?,
                move_dj: i8_of(p.move_offset.dj, "move").map_err(at)?,
                extent: extent_of(geometry, p.extent).map_err(at)?,
                edges: Side::to_bits(&p.edges),
                values,
                max_weight: p.weights.max_weight,
                always_run: values.always_run(),
                helper: p.helper.clone().map(Cow::Owned),
                description: Cow::Owned(p.description.clone()),
                constraint: p.constraint.as_ref().map(|c| Cow::Owned(c.text.clone())),
                elements: Span32::new(elements_start, p.elements.len() as u32),
                variants: Span32::new(variants_start, p.transformations.len() as u32),
            });
            db.constraints.push(None);
        }
        Ok(db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_follow_the_edges() {
        assert_eq!(Region::of_edges(0), Region::Centre);
        assert_eq!(Region::of_edges(side::NORTH), Region::Edge);
        assert_eq!(Region::of_edges(side::WEST | side::EAST), Region::Edge);
        assert_eq!(Region::of_edges(side::SOUTH | side::EAST), Region::Corner);
    }

    #[test]
    fn sides_round_trip_through_bits() {
        for bits in 0..16u8 {
            assert_eq!(Side::to_bits(&Side::from_bits(bits)), bits);
        }
    }

    #[test]
    fn a_small_database_round_trips() {
        let src = b"# pattern 1\n\nXO.\n.*.\n---\n\n:8,50,0,0,0,0,OX,0,NULL\n";
        let c = crate::compile("demo.db", src, &crate::Options::default());
        let j = export_compiled(&c).expect("compiles");
        assert_eq!(j.patterns[0].diagram, ["XO.", ".*.", "---"]);
        assert_eq!(j.patterns[0].region, Region::Edge);
        let back = JsonDatabase::from_json(&j.to_json()).unwrap();
        assert_eq!(back, j);
        assert_eq!(back.to_database().unwrap(), *c.database.as_ref().unwrap());
    }
}
