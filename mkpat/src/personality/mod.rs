//! Personalities: named sets of factors that re-weigh a pattern database
//! at run time, written by people as TOML files.
//!
//! Seed 004 (Span-It!) weighs every point by factors a user edits; a
//! personality is such a set of values. A file has a name, a
//! description, the game whose engine reads it, the fingerprint of the
//! database it was written for, and two kinds of factors:
//!
//! - **pattern factors**, each a percentage of the database's own weight:
//!   `[patterns]` by pattern name, `[classes]` by Go class letter,
//!   `[kinds]` by five-in-a-row threat kind. This module checks them
//!   against a database and turns them into an [`Overlay`];
//! - **engine factors** (`[engine]`), which only an engine understands:
//!   the engine hands its table of [`FactorDef`]s (key, default, bounds,
//!   a one-line definition) to [`Personality::check_engine`]. This module
//!   names no game and no engine factor.
//!
//! Every problem is a [`Diagnostic`] located in the file (`file:line:col`
//! with a caret when rendered by [`crate::diag::SourceFile`]), all of them in one run:
//! unknown keys (with the nearest known one), bad values, names that match
//! no pattern, and a fingerprint that is not the database's — a
//! personality is never applied to a database it was not written for.
//! `mkpat renum` keeps the files beside a database in step
//! ([`rename_patterns`]).

pub mod json;
mod write;

pub use write::{rename_patterns, set_factors, template, RenameError};

use std::collections::BTreeSet;
use std::ops::Range;

use toml_edit::{Document, Item, Key, TableLike};

use crate::diag::{Diagnostic, Span};
use crate::dialect::{Dialect, Kind};
use crate::overlay::{Overlay, Selector};
use crate::tables::{class, Pattern};

/// One factor an engine reads, with its default, its bounds and what it
/// means (Span-It's "factor definitions").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactorDef {
    pub key: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// One line: what the factor scales, and in what unit.
    pub definition: &'static str,
}

/// The bounds of every pattern factor, in percent.
pub const PATTERN_FACTOR_MAX: i64 = 1000;

/// One `key = value` of a section, with where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    pub value: i64,
    pub key_span: Span,
    pub value_span: Span,
}

/// A parsed personality file (its values checked for type and range;
/// checked against a database by [`Personality::check_database`] and
/// against an engine by [`Personality::check_engine`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Personality {
    pub name: String,
    pub description: String,
    pub game: String,
    pub game_span: Span,
    pub fingerprint: String,
    pub fingerprint_span: Span,
    /// `[patterns]`: pattern name → percent.
    pub patterns: Vec<Setting>,
    /// `[classes]`: Go class letter → percent.
    pub classes: Vec<Setting>,
    /// `[kinds]`: five-in-a-row threat kind → percent.
    pub kinds: Vec<Setting>,
    /// `[engine]`: the engine's factors, as written.
    pub engine: Vec<Setting>,
}

const TOP_KEYS: [&str; 8] = [
    "name",
    "description",
    "game",
    "fingerprint",
    "patterns",
    "classes",
    "kinds",
    "engine",
];

fn span(r: Option<Range<usize>>) -> Span {
    r.map_or(Span::at(0), |r| Span::new(r.start, r.end.max(r.start + 1)))
}

fn key_span(k: &Key) -> Span {
    span(k.span())
}

/// `did you mean` for `word` among `known`, when one is close.
pub fn nearest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

fn unknown(span: Span, what: &str, word: &str, known: &[&str]) -> Diagnostic {
    let d = Diagnostic::error(span, format!("unknown {what} `{word}`"));
    match nearest(word, known.iter().copied()) {
        Some(k) => d.note(format!("did you mean `{k}`?")),
        None => d.note(format!("expected one of: {}", known.join(", "))),
    }
}

impl Personality {
    /// Parses a personality file. A TOML syntax error is the only
    /// diagnostic (the file cannot be read further); otherwise every
    /// problem of structure, type and range is reported, and the
    /// personality is returned when there is none.
    pub fn parse(text: &str) -> Result<Personality, Vec<Diagnostic>> {
        match Personality::parse_all(text) {
            (Some(p), d) if d.is_empty() => Ok(p),
            (_, d) => Err(d),
        }
    }

    /// [`Personality::parse`] that keeps going: the personality made of
    /// what was well written (`None` only for a TOML syntax error) with
    /// every diagnostic, so that a caller can check the rest against a
    /// database and an engine and report everything at once.
    pub fn parse_all(text: &str) -> (Option<Personality>, Vec<Diagnostic>) {
        let doc = match Document::parse(text) {
            Ok(d) => d,
            Err(e) => {
                return (
                    None,
                    vec![Diagnostic::error(
                        span(e.span()),
                        format!("not TOML: {}", e.message().trim_end()),
                    )],
                )
            }
        };
        let mut diags = Vec::new();
        let root = doc.as_table();
        for (k, _) in root.iter() {
            if !TOP_KEYS.contains(&k) {
                let key = root.key(k).expect("iterated");
                diags.push(unknown(key_span(key), "key", k, &TOP_KEYS));
            }
        }
        let mut text_of = |key: &str| -> (String, Span) {
            match root.get_key_value(key) {
                None => {
                    diags.push(Diagnostic::error(
                        Span::at(0),
                        format!("missing `{key} = \"...\"`"),
                    ));
                    (String::new(), Span::at(0))
                }
                Some((_, item)) => match item.as_str() {
                    Some(s) => (s.to_string(), span(item.span())),
                    None => {
                        diags.push(Diagnostic::error(
                            span(item.span()),
                            format!("`{key}` must be a string"),
                        ));
                        (String::new(), span(item.span()))
                    }
                },
            }
        };
        let (name, _) = text_of("name");
        let (description, _) = text_of("description");
        let (game, game_span) = text_of("game");
        let (fingerprint, fingerprint_span) = text_of("fingerprint");
        let mut section = |name: &str, max: Option<i64>| -> Vec<Setting> {
            let Some((key, item)) = root.get_key_value(name) else {
                return Vec::new();
            };
            let Some(table) = item.as_table_like() else {
                diags.push(Diagnostic::error(
                    span(item.span().or(key.span())),
                    format!("`{name}` must be a table: `[{name}]` with `key = value` lines"),
                ));
                return Vec::new();
            };
            settings(table, name, max, &mut diags)
        };
        let patterns = section("patterns", Some(PATTERN_FACTOR_MAX));
        let classes = section("classes", Some(PATTERN_FACTOR_MAX));
        let kinds = section("kinds", Some(PATTERN_FACTOR_MAX));
        let engine = section("engine", None);
        (
            Some(Personality {
                name,
                description,
                game,
                game_span,
                fingerprint,
                fingerprint_span,
                patterns,
                classes,
                kinds,
                engine,
            }),
            diags,
        )
    }

    /// Checks the `[engine]` factors against an engine's table, and that
    /// the file is for `game`.
    pub fn check_engine(&self, game: &str, defs: &[FactorDef]) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        if self.game != game {
            diags.push(
                Diagnostic::error(
                    self.game_span,
                    format!("this personality is for `{}`, not `{game}`", self.game),
                )
                .note(format!(
                    "`katachi personality new {game}` writes one for {game}"
                )),
            );
        }
        let keys: Vec<&str> = defs.iter().map(|d| d.key).collect();
        for s in &self.engine {
            match defs.iter().find(|d| d.key == s.key) {
                None => diags.push(unknown(s.key_span, "engine factor", &s.key, &keys)),
                Some(d) if !(d.min..=d.max).contains(&s.value) => diags.push(
                    Diagnostic::error(
                        s.value_span,
                        format!(
                            "`{}` = {} is out of range: expected {} to {}",
                            s.key, s.value, d.min, d.max
                        ),
                    )
                    .note(format!("{}: {}", d.key, d.definition)),
                ),
                Some(_) => {}
            }
        }
        diags
    }

    /// Checks the pattern factors against a database: the fingerprint,
    /// names that match a pattern, class letters of a Go dialect, threat
    /// kinds of the five dialect.
    pub fn check_database(&self, dialect: Dialect, patterns: &[Pattern]) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        let names: BTreeSet<&str> = patterns.iter().map(|p| p.name.as_ref()).collect();
        let want = fingerprint(dialect, names.iter().copied());
        if self.fingerprint != want {
            diags.push(
                Diagnostic::error(
                    self.fingerprint_span,
                    format!(
                        "the fingerprint `{}` is not the database's (`{want}`): this personality was written for another database",
                        self.fingerprint
                    ),
                )
                .note("`mkpat renum` updates the personalities beside a database it renumbers; `katachi personality new` writes one for this database"),
            );
        }
        for s in &self.patterns {
            if !names.contains(s.key.as_str()) {
                let d = Diagnostic::error(
                    s.key_span,
                    format!("no pattern of the database is named `{}`", s.key),
                );
                diags.push(match nearest(&s.key, names.iter().copied()) {
                    Some(k) => d.note(format!("did you mean `{k}`?")),
                    None => d,
                });
            }
        }
        let letters: Vec<String> = class::LETTERS.iter().map(|(c, _)| c.to_string()).collect();
        let letters: Vec<&str> = letters.iter().map(String::as_str).collect();
        for s in &self.classes {
            if !matches!(dialect, Dialect::Seed | Dialect::GnuGo26) {
                diags.push(Diagnostic::error(
                    s.key_span,
                    format!(
                        "class factors re-weigh Go databases (seed, gnugo-2.6); this one is `{}`",
                        dialect.name()
                    ),
                ));
            } else if !letters.contains(&s.key.as_str()) {
                diags.push(unknown(s.key_span, "class letter", &s.key, &letters));
            }
        }
        let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        for s in &self.kinds {
            if dialect != Dialect::Five {
                diags.push(Diagnostic::error(
                    s.key_span,
                    format!(
                        "threat-kind factors re-weigh five-in-a-row databases; this one is `{}`",
                        dialect.name()
                    ),
                ));
            } else if Kind::from_name(&s.key).is_none() {
                diags.push(unknown(s.key_span, "threat kind", &s.key, &kinds));
            }
        }
        diags
    }

    /// The database's values re-weighed by the pattern factors: class
    /// factors, then kind factors, then name factors, each a percentage of
    /// what the previous left (so that they compose by multiplication).
    /// Call it on a personality [`Personality::check_database`] accepted.
    pub fn overlay(&self, dialect: Dialect, patterns: &[Pattern]) -> Overlay {
        let mut o = Overlay::identity(dialect, patterns);
        for s in &self.classes {
            if let Some(bits) = s.key.chars().next().and_then(class::from_char) {
                o.scale(patterns, &Selector::Class(bits), s.value as i32);
            }
        }
        for s in &self.kinds {
            if let Some(k) = Kind::from_name(&s.key) {
                o.scale(patterns, &Selector::Kind(k), s.value as i32);
            }
        }
        for s in &self.patterns {
            o.scale(patterns, &Selector::Name(s.key.clone()), s.value as i32);
        }
        o
    }

    /// The engine factor `key`: the file's value or the table's default.
    pub fn engine_value(&self, defs: &[FactorDef], key: &str) -> i64 {
        self.engine
            .iter()
            .find(|s| s.key == key)
            .map(|s| s.value)
            .or_else(|| defs.iter().find(|d| d.key == key).map(|d| d.default))
            .unwrap_or(0)
    }

    /// Every pattern factor as (section, key, percent), in file order.
    pub fn pattern_factors(&self) -> impl Iterator<Item = (&'static str, &Setting)> {
        self.classes
            .iter()
            .map(|s| ("classes", s))
            .chain(self.kinds.iter().map(|s| ("kinds", s)))
            .chain(self.patterns.iter().map(|s| ("patterns", s)))
    }
}

/// A personality file rejected: every diagnostic rendered with its
/// source line, and how many errors there were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    pub rendered: String,
    pub errors: usize,
}

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{} error(s) in the personality",
            self.rendered, self.errors
        )
    }
}

impl std::error::Error for Rejected {}

/// Reads a personality file's bytes for an engine (`game`, its factor
/// table `defs`) and a database (`dialect`, `patterns`): parsed, checked
/// against both, every error of the file rendered at once.
pub fn load(
    name: &str,
    bytes: &[u8],
    game: &str,
    defs: &[FactorDef],
    dialect: Dialect,
    patterns: &[Pattern],
) -> Result<Personality, Rejected> {
    let (file, mut diags) = crate::diag::SourceFile::from_bytes(name, bytes);
    let p = if diags.is_empty() {
        let (p, d) = Personality::parse_all(&file.text);
        diags.extend(d);
        if let Some(p) = &p {
            diags.extend(p.check_engine(game, defs));
            diags.extend(p.check_database(dialect, patterns));
        }
        p
    } else {
        None
    };
    match p {
        Some(p) if diags.is_empty() => Ok(p),
        _ => Err(Rejected {
            rendered: file.render_all(&diags),
            errors: diags.iter().filter(|d| d.is_error()).count(),
        }),
    }
}

/// The settings of one section: integers (in `0..=max` when given), keys
/// unique (TOML guarantees it).
fn settings(
    table: &dyn TableLike,
    section: &str,
    max: Option<i64>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Setting> {
    let mut out = Vec::new();
    for (k, item) in table.iter() {
        let key = table.key(k).expect("iterated");
        let value_span = span(item.span());
        let value = match item {
            Item::Value(v) => v.as_integer(),
            _ => None,
        };
        let Some(value) = value else {
            let found = if item.is_float() {
                "a decimal number"
            } else if item.is_str() {
                "a string"
            } else if item.is_table_like() {
                "a table"
            } else {
                "another kind of value"
            };
            diags.push(Diagnostic::error(
                if item.span().is_some() {
                    value_span
                } else {
                    key_span(key)
                },
                format!(
                    "`{section}.{k}` must be a whole number{}, not {found}",
                    if max.is_some() { " (percent)" } else { "" }
                ),
            ));
            continue;
        };
        if let Some(max) = max {
            if !(0..=max).contains(&value) {
                diags.push(Diagnostic::error(
                    value_span,
                    format!(
                        "`{section}.{k}` = {value} is out of range: expected 0 to {max} (percent)"
                    ),
                ));
                continue;
            }
        }
        out.push(Setting {
            key: k.to_string(),
            value,
            key_span: key_span(key),
            value_span,
        });
    }
    out
}

/// A database's fingerprint: its dialect and the set of its pattern
/// names (FNV-1a, 64 bits, in hexadecimal). Renaming or renumbering
/// patterns changes it; re-weighing or redrawing them does not, so that
/// a personality's names keep meaning the same patterns.
pub fn fingerprint<'a>(dialect: Dialect, names: impl IntoIterator<Item = &'a str>) -> String {
    let names: BTreeSet<&str> = names.into_iter().collect();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    eat(dialect.name().as_bytes());
    for n in names {
        eat(n.as_bytes());
    }
    format!("{}-{:016x}", dialect.name(), h)
}

#[cfg(test)]
mod tests;
