//! Per-pattern hit counts: how often each pattern matched over a corpus.
//!
//! `katachi match --stats --stats-out FILE` writes them, `mkpat html --hits
//! FILE` reads them so that the catalogue shows which patterns fire and
//! which never do (dead patterns, or a corpus that misses a shape). The
//! format lives here, beside its reader, so that writer and reader cannot
//! drift apart. It is a TSV that `sort` and a spreadsheet read:
//!
//! ```text
//! # katachi match --stats
//! # positions<TAB>12
//! pattern<TAB>matches<TAB>positions
//! 12<TAB>34<TAB>5
//! 7<TAB>0<TAB>0
//! ```
//!
//! `matches` counts every match (a pattern can match several times in one
//! position, in several transformations); `positions` counts the positions
//! with at least one match. Lines starting with `#` are comments, except
//! `# positions<TAB>N`, the size of the corpus.

use std::collections::BTreeMap;
use std::fmt::Write;

/// One pattern's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HitCount {
    pub matches: u64,
    pub positions: u64,
}

/// Hit counts of a database over a corpus of positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hits {
    /// How many positions were scanned, when known.
    pub positions: Option<u64>,
    /// Counts by pattern name, in the order written.
    pub counts: Vec<(String, HitCount)>,
}

impl Hits {
    /// The counts by name.
    pub fn by_name(&self) -> BTreeMap<&str, HitCount> {
        self.counts.iter().map(|(n, c)| (n.as_str(), *c)).collect()
    }

    /// The TSV text (see the module documentation).
    pub fn to_tsv(&self) -> String {
        let mut out = String::from("# katachi match --stats\n");
        if let Some(n) = self.positions {
            let _ = writeln!(out, "# positions\t{n}");
        }
        out.push_str("pattern\tmatches\tpositions\n");
        for (name, c) in &self.counts {
            let _ = writeln!(out, "{name}\t{}\t{}", c.matches, c.positions);
        }
        out
    }

    /// Reads the TSV text; errors name the line.
    pub fn parse_tsv(text: &str) -> Result<Hits, String> {
        let mut hits = Hits::default();
        for (k, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            let at = |msg: &str| format!("line {}: {msg}", k + 1);
            if let Some(rest) = line.strip_prefix('#') {
                if let Some(n) = rest.trim_start().strip_prefix("positions\t") {
                    hits.positions = Some(n.trim().parse().map_err(|_| at("bad positions count"))?);
                }
                continue;
            }
            if line.trim().is_empty() || line.starts_with("pattern\t") {
                continue;
            }
            let mut fields = line.split('\t');
            let name = fields.next().unwrap_or_default().to_string();
            let num = |f: Option<&str>| -> Result<Option<u64>, String> {
                f.map(|s| s.trim().parse().map_err(|_| at("a count is not a number")))
                    .transpose()
            };
            let matches =
                num(fields.next())?.ok_or_else(|| at("expected `pattern<TAB>matches`"))?;
            let positions = num(fields.next())?.unwrap_or(0);
            hits.counts.push((name, HitCount { matches, positions }));
        }
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_round_trips() {
        let h = Hits {
            positions: Some(12),
            counts: vec![
                (
                    "12".into(),
                    HitCount {
                        matches: 34,
                        positions: 5,
                    },
                ),
                ("EB1".into(), HitCount::default()),
            ],
        };
        assert_eq!(Hits::parse_tsv(&h.to_tsv()), Ok(h));
    }

    #[test]
    fn two_columns_and_errors() {
        let h = Hits::parse_tsv("a\t3\n").unwrap();
        assert_eq!(
            h.counts[0].1,
            HitCount {
                matches: 3,
                positions: 0
            }
        );
        assert_eq!(h.positions, None);
        assert_eq!(
            Hits::parse_tsv("a\tmany\n"),
            Err("line 1: a count is not a number".into())
        );
        assert!(Hits::parse_tsv("a\n").unwrap_err().contains("line 1"));
    }
}
