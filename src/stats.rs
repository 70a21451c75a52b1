//! Per-pattern hit statistics over a corpus: `katachi match --stats`.
//!
//! A pattern that never matches over a representative corpus is dead weight
//! or a mistake (a wrong edge, a cell that cannot occur); one that matches
//! everywhere may be too loose. Counting matches per pattern tells an author
//! which is which. The counts are [`mkpat::hits::Hits`], whose TSV form
//! `mkpat html --hits` reads to show them in the catalogue.

use std::fmt::Write;

use mkpat::hits::{HitCount, Hits};

use crate::matcher::Matcher;
use crate::positions::PositionRecord;

/// Counts every geometric match of every pattern over `positions`, in table
/// order of the patterns; then sorts by matches, most first, ties by name
/// (byte order), so the never-matching patterns come last.
pub fn hit_counts(matcher: &Matcher<'_>, positions: &[PositionRecord]) -> Hits {
    let tables = matcher.tables();
    let n = tables.patterns.len();
    let mut counts = vec![HitCount::default(); n];
    let mut seen = vec![usize::MAX; n];
    for (k, p) in positions.iter().enumerate() {
        matcher.scan_unordered(&p.board, p.to_move, |m| {
            let i = m.pattern as usize;
            counts[i].matches += 1;
            if seen[i] != k {
                seen[i] = k;
                counts[i].positions += 1;
            }
        });
    }
    let mut counts: Vec<(String, HitCount)> = tables
        .patterns
        .iter()
        .zip(counts)
        .map(|(p, c)| (p.name.to_string(), c))
        .collect();
    counts.sort_by(|(na, a), (nb, b)| {
        b.matches
            .cmp(&a.matches)
            .then_with(|| na.as_bytes().cmp(nb.as_bytes()))
    });
    Hits {
        positions: Some(positions.len() as u64),
        counts,
    }
}

/// The table `katachi match --stats` prints: one line a pattern, most
/// matches first, never-matching patterns flagged, then a summary.
pub fn table(hits: &Hits) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{:>9} {:>9}  pattern", "matches", "positions");
    for (name, c) in &hits.counts {
        let flag = if c.matches == 0 {
            "  never matched"
        } else {
            ""
        };
        let _ = writeln!(out, "{:>9} {:>9}  {name}{flag}", c.matches, c.positions);
    }
    let never: Vec<&str> = hits
        .counts
        .iter()
        .filter(|(_, c)| c.matches == 0)
        .map(|(n, _)| n.as_str())
        .collect();
    let total: u64 = hits.counts.iter().map(|(_, c)| c.matches).sum();
    let _ = writeln!(
        out,
        "{} patterns, {total} matches over {} positions; {} never matched{}",
        hits.counts.len(),
        hits.positions.unwrap_or(0),
        never.len(),
        if never.is_empty() {
            String::new()
        } else {
            format!(": {}", never.join(" "))
        }
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::parse_positions;

    #[test]
    fn counts_matches_and_positions_and_flags_the_dead() {
        let src = b"# pattern 1\n\nXO\n.*\n\n:8,50,0,0,0,0,-,0,NULL\n\n\
                    # pattern 2\n\nXXX\nX*X\nXXX\n\n:8,40,0,0,0,0,-,0,NULL\n";
        let c = mkpat::compile("t.db", src, &mkpat::Options::default());
        let db = c.database.expect("compiles");
        let positions = b"to_move O\n5\n.....\n.XO..\n.....\n.....\n.....\n\n\
                          to_move O\n5\n.....\n.....\n.....\n.....\n.....\n";
        let positions = parse_positions("p.txt", positions).expect("parses");
        let matcher = Matcher::new(db.tables());
        let hits = hit_counts(&matcher, &positions);
        assert_eq!(hits.positions, Some(2));
        assert_eq!(hits.counts[0].0, "1");
        assert!(hits.counts[0].1.matches >= 1);
        assert_eq!(hits.counts[0].1.positions, 1);
        assert_eq!(hits.counts[1], ("2".to_string(), HitCount::default()));
        let t = table(&hits);
        assert!(t.contains("  2  never matched\n"), "{t}");
        assert!(t.ends_with("1 never matched: 2\n"), "{t}");
    }
}
