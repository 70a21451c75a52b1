//! `mkpat html`: a static catalogue of a database that a browser opens from
//! `file://`.
//!
//! Reading 1153 patterns as ASCII is slow work; seeing them as small boards,
//! filtering them by class, weight and board region, and stepping through
//! the transformations the matcher really tries (with their 4x4 masks) is
//! how an author reviews a database. The site is four files: `index.html`,
//! `style.css`, `app.js` (hand-written, in `src/site/`, compiled into this
//! crate) and `data.js`, the database as one `window.KATACHI = {...}`
//! assignment. Data is loaded by `<script src>`, never `fetch()`, because
//! browsers refuse `fetch()` of `file://` URLs; nothing is loaded from the
//! network. One page holds both views, routed by the URL hash (`#/p/NAME`).
//!
//! Pure: the files come back as strings for the binary to write.

use serde::Serialize;

use crate::hits::Hits;
use crate::json::{JsonAssistance, JsonDatabase, JsonPattern, Region, Side};
use crate::personality::json::JsonPersonality;
use crate::tables::class;

const INDEX_HTML: &str = include_str!("site/index.html");
const STYLE_CSS: &str = include_str!("site/style.css");
const APP_JS: &str = include_str!("site/app.js");

/// One file of the site: its path relative to the site's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteFile {
    pub path: &'static str,
    pub text: String,
}

/// What `data.js` holds: the catalogue's view of the database, smaller than
/// the full JSON export (no element lists; diagrams without edge marks, the
/// edges as bits for drawing).
#[derive(Serialize)]
struct SiteData<'a> {
    schema_version: u32,
    source: &'a str,
    dialect: &'a str,
    /// `"square"` or `"hexagon"`: how the boards are drawn.
    geometry: &'a str,
    /// Class letters in printing order, for the filter.
    class_letters: String,
    /// `null` without hit counts; the corpus size when known.
    hits: Option<SiteHits>,
    patterns: Vec<SitePattern<'a>>,
    /// The personalities loaded (`--personality`), each pattern's weights
    /// under each in the patterns' order: `[weight]` (Go) or `[mine,
    /// theirs]` (five in a row), `null` for a name it does not have.
    personalities: Vec<SitePersonality<'a>>,
}

#[derive(Serialize)]
struct SitePersonality<'a> {
    name: &'a str,
    description: &'a str,
    source: &'a str,
    /// Engine factors that differ from nothing here: as written.
    engine: &'a std::collections::BTreeMap<String, i64>,
    weights: Vec<Option<&'a [i64]>>,
}

#[derive(Serialize)]
struct SiteHits {
    positions: Option<u64>,
}

#[derive(Serialize)]
struct SitePattern<'a> {
    name: &'a str,
    line: u32,
    description: &'a str,
    symmetry: char,
    anchor: char,
    class: &'a str,
    region: Region,
    weight: i32,
    max_weight: i64,
    /// `bonus xbonus splitbonus minrand maxrand`.
    bonuses: [i32; 5],
    assistance: String,
    /// The five dialect's record (`weight` is then its `mine`).
    five: Option<&'a crate::json::JsonFive>,
    helper: Option<&'a str>,
    constraint: Option<&'a str>,
    labels: Vec<(char, i32, i32)>,
    /// Cell rows, without edge marks.
    rows: Vec<String>,
    /// [`crate::transform::side`] bits.
    edges: u8,
    /// The anchor's row and column in `rows`.
    anchor_at: [i32; 2],
    /// The move relative to the anchor.
    move_at: [i32; 2],
    elements: usize,
    /// `[matches, positions]` when hit counts were given.
    hits: Option<[u64; 2]>,
    transformations: Vec<SiteTrans<'a>>,
}

#[derive(Serialize)]
struct SiteTrans<'a> {
    trans: u8,
    name: &'a str,
    rows: Vec<String>,
    edges: u8,
    /// `[min_i, min_j, max_i, max_j]` relative to the anchor.
    extent: [i32; 4],
    move_at: [i32; 2],
    and_mask: u32,
    val_mask: u32,
}

/// A drawn diagram's cell rows: edge lines and `|` marks removed.
pub fn cell_rows(diagram: &[String], edges: &[Side]) -> Vec<String> {
    let has = |s: Side| edges.contains(&s);
    let mut rows: &[String] = diagram;
    if has(Side::North) && !rows.is_empty() {
        rows = &rows[1..];
    }
    if has(Side::South) && !rows.is_empty() {
        rows = &rows[..rows.len() - 1];
    }
    rows.iter()
        .map(|r| {
            let mut s = r.as_str();
            if has(Side::West) {
                s = s.strip_prefix('|').unwrap_or(s);
            }
            if has(Side::East) {
                s = s.strip_suffix('|').unwrap_or(s);
            }
            s.to_string()
        })
        .collect()
}

/// The assistance as written on a 2.6 attribute line.
pub fn assistance_text(a: JsonAssistance) -> String {
    crate::show::assistance_text(a.into())
}

fn site_pattern<'a>(p: &'a JsonPattern, hits: Option<&Hits>) -> SitePattern<'a> {
    let hits = hits.map(|h| {
        let c = h
            .counts
            .iter()
            .find(|(n, _)| *n == p.name)
            .map(|(_, c)| *c)
            .unwrap_or_default();
        [c.matches, c.positions]
    });
    SitePattern {
        name: &p.name,
        line: p.line,
        description: &p.description,
        symmetry: p.symmetry,
        anchor: p.anchor,
        class: &p.class,
        region: p.region,
        weight: p.five.as_ref().map_or(p.weights.weight, |f| f.mine),
        max_weight: p.weights.max_weight,
        bonuses: [
            p.weights.bonus,
            p.weights.xbonus,
            p.weights.splitbonus,
            p.weights.minrand,
            p.weights.maxrand,
        ],
        assistance: assistance_text(p.assistance),
        five: p.five.as_ref(),
        helper: p.helper.as_deref(),
        constraint: p.constraint.as_ref().map(|c| c.text.as_str()),
        labels: p
            .constraint
            .iter()
            .flat_map(|c| c.labels.iter().map(|l| (l.name, l.di, l.dj)))
            .collect(),
        rows: cell_rows(&p.diagram, &p.edges),
        edges: Side::to_bits(&p.edges),
        anchor_at: [-p.extent.min_i, -p.extent.min_j],
        move_at: [p.move_offset.di, p.move_offset.dj],
        elements: p.elements.len(),
        hits,
        transformations: p
            .transformations
            .iter()
            .map(|t| SiteTrans {
                trans: t.trans,
                name: &t.name,
                rows: cell_rows(&t.diagram, &t.edges),
                edges: Side::to_bits(&t.edges),
                extent: [
                    t.extent.min_i,
                    t.extent.min_j,
                    t.extent.max_i,
                    t.extent.max_j,
                ],
                move_at: [t.move_offset.di, t.move_offset.dj],
                and_mask: t.and_mask,
                val_mask: t.val_mask,
            })
            .collect(),
    }
}

/// Escapes text for HTML content and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The `data.js` text: one assignment of the site's data.
fn data_js(db: &JsonDatabase, hits: Option<&Hits>, personalities: &[JsonPersonality]) -> String {
    let data = SiteData {
        schema_version: db.schema_version,
        source: &db.source,
        dialect: &db.dialect,
        geometry: &db.geometry,
        class_letters: class::LETTERS.iter().map(|(l, _)| *l).collect(),
        hits: hits.map(|h| SiteHits {
            positions: h.positions,
        }),
        patterns: db.patterns.iter().map(|p| site_pattern(p, hits)).collect(),
        personalities: personalities
            .iter()
            .map(|x| SitePersonality {
                name: &x.name,
                description: &x.description,
                source: &x.source,
                engine: &x.factors["engine"],
                weights: db
                    .patterns
                    .iter()
                    .map(|p| {
                        x.patterns
                            .iter()
                            .find(|w| w.name == p.name)
                            .map(|w| &w.weights[..])
                    })
                    .collect(),
            })
            .collect(),
    };
    let json = serde_json::to_string(&data).expect("plain data serializes");
    // `</` cannot close anything in a script file, but keep the data safe
    // to inline as well.
    format!(
        "// Generated by mkpat html from {}: the database for app.js.\nwindow.KATACHI = {};\n",
        db.source.replace('\n', " "),
        json.replace("</", "<\\/")
    )
}

/// The site's files for a database, with hit counts when given.
pub fn site(db: &JsonDatabase, hits: Option<&Hits>) -> Vec<SiteFile> {
    site_with(db, hits, &[])
}

/// [`site`] with personalities: each pattern's weight under each, side
/// by side, one of them the current "player" of the index.
pub fn site_with(
    db: &JsonDatabase,
    hits: Option<&Hits>,
    personalities: &[JsonPersonality],
) -> Vec<SiteFile> {
    let title = format!("{} — pattern catalogue", db.source);
    vec![
        SiteFile {
            path: "index.html",
            text: INDEX_HTML.replace("{{TITLE}}", &escape_html(&title)),
        },
        SiteFile {
            path: "style.css",
            text: STYLE_CSS.to_string(),
        },
        SiteFile {
            path: "app.js",
            text: APP_JS.to_string(),
        },
        SiteFile {
            path: "data.js",
            text: data_js(db, hits, personalities),
        },
    ]
}

/// Names in the hit counts that the database does not have (a counts file
/// of another database, or of an older version of this one).
pub fn unknown_hit_names<'h>(db: &JsonDatabase, hits: &'h Hits) -> Vec<&'h str> {
    hits.counts
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !db.patterns.iter().any(|p| p.name == *n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_rows_strip_the_edge_marks() {
        let d: Vec<String> = ["+---", "|OX.", "|.*."].map(String::from).to_vec();
        assert_eq!(cell_rows(&d, &[Side::North, Side::West]), ["OX.", ".*."]);
        let d: Vec<String> = ["OX|", ".*|", "--+"].map(String::from).to_vec();
        assert_eq!(cell_rows(&d, &[Side::South, Side::East]), ["OX", ".*"]);
    }

    #[test]
    fn the_site_is_four_files_with_the_data_inline() {
        let src = b"# pattern 1\n\nXO.\n.*.   a <b>\n\n:8,50,0,0,0,0,OX,0,NULL\n";
        let c = crate::compile("demo.db", src, &crate::Options::default());
        let j = crate::json::export_compiled(&c).unwrap();
        let files = site(&j, None);
        let paths: Vec<_> = files.iter().map(|f| f.path).collect();
        assert_eq!(paths, ["index.html", "style.css", "app.js", "data.js"]);
        let index = &files[0].text;
        assert!(index.contains("<script src=\"data.js\"></script>"));
        assert!(!index.contains("http://") && !index.contains("https://"));
        assert!(!files[2].text.contains("fetch("));
        let data = &files[3].text;
        assert!(data.contains("window.KATACHI = {"));
        assert!(data.contains(r#""rows":["XO.",".*."]"#), "{data}");
    }
}
