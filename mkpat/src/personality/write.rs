//! Writing personality files: a new file listing every factor with its
//! default and definition, and the renaming `mkpat renum` applies to the
//! files beside a database it renumbers (comments and layout kept).

use std::collections::BTreeMap;
use std::fmt::Write;

use toml_edit::{DocumentMut, Item, Key, Value};

use super::FactorDef;
use crate::dialect::{Dialect, Kind};

/// What each Go class letter's factor re-weighs (the letters' meanings
/// are `docs/language.md`'s).
const CLASS_DEFINITIONS: [(char, &str); 11] = [
    (
        's',
        "sacrifice patterns (the stone played may be capturable)",
    ),
    (
        'n',
        "patterns whose move must also be safe for the opponent",
    ),
    ('O', "patterns for own stones that are alive"),
    ('o', "patterns for own stones that are weak or dead"),
    ('X', "patterns against opponent stones that are alive"),
    (
        'x',
        "patterns against opponent stones that are weak or dead",
    ),
    ('D', "defence patterns (save an own string)"),
    ('C', "connection patterns (join two own dragons)"),
    ('B', "cutting patterns (keep two opponent dragons apart)"),
    ('A', "attack patterns (capture an opponent string)"),
    ('L', "patterns run even when their weight cannot win"),
];

fn quote(s: &str) -> String {
    Value::from(s).to_string().trim().to_string()
}

/// A new personality listing every factor at its default with its
/// one-line definition: the pattern factors the dialect has (class
/// letters for Go's dialects, threat kinds for five in a row's; names
/// as a commented example) and the engine's `defs`.
pub fn template(
    game: &str,
    name: &str,
    description: &str,
    dialect: Dialect,
    fingerprint: &str,
    example_pattern: Option<&str>,
    defs: &[FactorDef],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# A katachi personality for {game}: factors that re-weigh the pattern\n\
         # database and the engine at run time, without a rebuild. Every factor\n\
         # is listed at its default; `katachi personality check FILE` checks it."
    );
    let _ = writeln!(out, "name = {}", quote(name));
    let _ = writeln!(out, "description = {}", quote(description));
    let _ = writeln!(out, "game = {}", quote(game));
    let _ = writeln!(
        out,
        "# The database it was written for (`mkpat renum` keeps it in step)."
    );
    let _ = writeln!(out, "fingerprint = {}", quote(fingerprint));
    let _ = writeln!(
        out,
        "\n# Pattern factors: percent of the database's own weight (0 to 1000,\n\
         # 100 leaves it). A pattern's factors multiply: class or kind, then name."
    );
    let _ = writeln!(out, "[patterns]");
    let _ = writeln!(
        out,
        "# {} = 100  # the pattern of that name",
        quote(example_pattern.unwrap_or("NAME"))
    );
    if matches!(dialect, Dialect::Seed | Dialect::GnuGo26) {
        let _ = writeln!(out, "\n[classes]");
        for (c, def) in CLASS_DEFINITIONS {
            let _ = writeln!(out, "{c} = 100  # {def}");
        }
    }
    if dialect == Dialect::Five {
        let _ = writeln!(out, "\n[kinds]");
        for k in Kind::ALL {
            let _ = writeln!(
                out,
                "{} = 100  # patterns of kind `{}`, both sides' values",
                k.name(),
                k.name()
            );
        }
    }
    let _ = writeln!(out, "\n# Engine factors: {game}'s engine reads them.");
    let _ = writeln!(out, "[engine]");
    for d in defs {
        let _ = writeln!(
            out,
            "{} = {}  # {} ({} to {})",
            d.key, d.default, d.definition, d.min, d.max
        );
    }
    out
}

/// Why a personality could not be renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenameError(pub String);

impl std::fmt::Display for RenameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RenameError {}

/// The personality `text` with its `[patterns]` keys renamed by `renames`
/// (old name → the new names of the patterns that bore it: a duplicated
/// number becomes several) and its fingerprint set to `fingerprint`;
/// every other byte (comments, order, layout) is kept where TOML allows.
/// A name `renames` does not mention is kept.
pub fn rename_patterns(
    text: &str,
    renames: &BTreeMap<String, Vec<String>>,
    fingerprint: &str,
) -> Result<String, RenameError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| RenameError(e.message().trim_end().to_string()))?;
    if let Some(Item::Value(v)) = doc.get_mut("fingerprint") {
        let decor = v.decor().clone();
        *v = Value::from(fingerprint);
        *v.decor_mut() = decor;
    } else {
        return Err(RenameError("no `fingerprint = \"...\"` line".into()));
    }
    let Some(table) = doc.get_mut("patterns").and_then(Item::as_table_like_mut) else {
        return Ok(doc.to_string());
    };
    let old: Vec<(Key, Item)> = table
        .iter()
        .map(|(k, v)| (table.key(k).expect("iterated").clone(), v.clone()))
        .collect();
    if old.iter().all(|(k, _)| !renames.contains_key(k.get())) {
        return Ok(doc.to_string());
    }
    // Rebuilt in the old order, so that two names swapping places do not
    // collide halfway; keys keep their comments, values theirs.
    table.clear();
    for (k, v) in old {
        let news = renames
            .get(k.get())
            .cloned()
            .unwrap_or_else(|| vec![k.get().to_string()]);
        for n in news {
            if table.contains_key(&n) {
                return Err(RenameError(format!(
                    "two factors would be named `{n}` after renumbering"
                )));
            }
            let key = Key::new(n).with_leaf_decor(k.leaf_decor().clone());
            let _ = table.entry_format(&key).or_insert(v.clone());
        }
    }
    Ok(doc.to_string())
}

/// The personality `text` with the factors `values` set (section such as
/// `engine` or `classes`, key, value), written where they are or added
/// to their section (created when missing); every other byte is kept
/// where TOML allows. What `katachi tune` writes.
pub fn set_factors(text: &str, values: &[(String, String, i64)]) -> Result<String, RenameError> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| RenameError(e.message().trim_end().to_string()))?;
    for (section, key, value) in values {
        if doc.get(section).is_none() {
            doc.insert(section, Item::Table(toml_edit::Table::new()));
        }
        let table = doc
            .get_mut(section)
            .and_then(Item::as_table_like_mut)
            .ok_or_else(|| RenameError(format!("`{section}` is not a table")))?;
        match table.get_mut(key) {
            Some(Item::Value(v)) => {
                let decor = v.decor().clone();
                *v = Value::from(*value);
                *v.decor_mut() = decor;
            }
            _ => {
                table.insert(key, toml_edit::value(*value));
            }
        }
    }
    Ok(doc.to_string())
}
