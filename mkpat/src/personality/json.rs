//! A personality as JSON, with the tables' schema conventions
//! (`schema_version`, `source`, `dialect`; docs/json.md): its factors as
//! written and every pattern's weight under it, for the catalogue and
//! for tools.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Personality, Setting};
use crate::dialect::{Dialect, Values};
use crate::tables::Pattern;

/// The personality export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonPersonality {
    /// [`crate::json::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// `"personality"`: what this file is (a database export has none).
    pub kind: &'static str,
    /// The personality file's name as given.
    pub source: String,
    /// The database's name and dialect the weights are of.
    pub database: String,
    pub dialect: String,
    pub name: String,
    pub description: String,
    pub game: String,
    pub fingerprint: String,
    /// The factors as written, by section, then key (sorted).
    pub factors: BTreeMap<&'static str, BTreeMap<String, i64>>,
    /// Every pattern's weights under the personality's pattern factors,
    /// in the tables' order (one entry per name).
    pub patterns: Vec<JsonWeights>,
}

/// One pattern's weights: Go's `weight`, five in a row's `mine` and
/// `theirs` (the engine's own factors, such as five in a row's
/// per-side kind factors, are not applied: the engine reads them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonWeights {
    pub name: String,
    /// The database's own, then the personality's.
    pub default: Vec<i64>,
    pub weights: Vec<i64>,
}

fn numbers(v: &Values) -> Vec<i64> {
    match v {
        Values::Go(g) => vec![g.weight.into()],
        Values::Five(f) => vec![f.mine.into(), f.theirs.into()],
        Values::Go38(g) => vec![g.value.into()],
    }
}

/// `p` (checked against the database) as JSON data.
pub fn export(
    p: &Personality,
    source: &str,
    database: &str,
    dialect: Dialect,
    patterns: &[Pattern],
) -> JsonPersonality {
    let overlay = p.overlay(dialect, patterns);
    let section = |s: &[Setting]| -> BTreeMap<String, i64> {
        s.iter().map(|x| (x.key.clone(), x.value)).collect()
    };
    let mut seen = std::collections::BTreeSet::new();
    let weights = patterns
        .iter()
        .enumerate()
        .filter(|(_, q)| seen.insert(q.name.to_string()))
        .map(|(k, q)| JsonWeights {
            name: q.name.to_string(),
            default: numbers(&q.values),
            weights: numbers(overlay.values(k)),
        })
        .collect();
    JsonPersonality {
        schema_version: crate::json::SCHEMA_VERSION,
        kind: "personality",
        source: source.to_string(),
        database: database.to_string(),
        dialect: dialect.name().to_string(),
        name: p.name.clone(),
        description: p.description.clone(),
        game: p.game.clone(),
        fingerprint: p.fingerprint.clone(),
        factors: [
            ("patterns", section(&p.patterns)),
            ("classes", section(&p.classes)),
            ("kinds", section(&p.kinds)),
            ("engine", section(&p.engine)),
        ]
        .into(),
        patterns: weights,
    }
}

impl JsonPersonality {
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("plain data serializes");
        s.push('\n');
        s
    }
}

/// Parses and checks a personality against a database's patterns (not
/// its engine factors, which only the engine knows), every error
/// rendered: what `mkpat json --personality` and `mkpat html
/// --personality` read.
pub fn read_for_database(
    name: &str,
    bytes: &[u8],
    dialect: Dialect,
    patterns: &[Pattern],
) -> Result<Personality, super::Rejected> {
    let (file, mut diags) = crate::diag::SourceFile::from_bytes(name, bytes);
    let p = if diags.is_empty() {
        let (p, d) = Personality::parse_all(&file.text);
        diags.extend(d);
        if let Some(p) = &p {
            diags.extend(p.check_database(dialect, patterns));
        }
        p
    } else {
        None
    };
    match p {
        Some(p) if diags.is_empty() => Ok(p),
        _ => Err(super::Rejected {
            rendered: file.render_all(&diags),
            errors: diags.iter().filter(|d| d.is_error()).count(),
        }),
    }
}
