//! `katachi match`'s two outputs: the conformance format, made for
//! `diff` ([`conformance_lines`], the default), and `--show`, matches as
//! a person reads them ([`listing`]). This listing is for looking: each position drawn with its
//! coordinates, every move point some pattern proposes marked with a
//! letter, and under it the patterns behind each point with their
//! descriptions and weights.

use std::collections::BTreeMap;
use std::fmt::Write;

use mkpat::tables::Tables;

use crate::board::Board;
use crate::matcher::Match;
use crate::notation::{color_word, vertex};
use crate::position::{Color, Point, Position};

/// Marks for proposed moves on the drawn board, in order of first use.
const MARKS: &[u8] = b"abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNPQRSTUVWYZ";

/// The side to move, with its letter in the diagrams.
/// A pattern's own weight, whatever its dialect (the five-in-a-row
/// dialect's value for the side to move; GNU Go 3.x's `value`, in whole
/// units).
fn weight_of(p: &mkpat::tables::Pattern) -> i32 {
    match &p.values {
        mkpat::tables::Values::Go(g) => g.weight,
        mkpat::tables::Values::Five(f) => f.mine,
        mkpat::tables::Values::Go38(g) => g.value / 1000,
    }
}

fn color_name(c: Color) -> String {
    let letter = match c {
        Color::Black => 'X',
        Color::White => 'O',
    };
    format!("{} ({letter})", color_word(c))
}

/// One position's listing. `matches` may come in any order.
pub fn listing(
    tables: Tables<'_>,
    index: usize,
    board: &Board,
    to_move: Color,
    matches: &[Match],
) -> String {
    let n = board.size();
    // Move point -> its matches, points in board reading order.
    let mut by_point: BTreeMap<Point, Vec<&Match>> = BTreeMap::new();
    for m in matches {
        by_point.entry(m.move_point).or_default().push(m);
    }
    let marks: BTreeMap<Point, char> = by_point
        .keys()
        .zip(
            MARKS
                .iter()
                .map(|&b| b as char)
                .chain(std::iter::repeat('*')),
        )
        .map(|(p, c)| (*p, c))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "position {index}: {n}x{n}, {} to move; {} match(es) at {} point(s)",
        color_name(to_move),
        matches.len(),
        by_point.len()
    );
    let letters: String = (0..n as i32)
        .map(|j| {
            format!(
                " {}",
                vertex(Point::new(0, j), n).chars().next().unwrap_or('?')
            )
        })
        .collect();
    let _ = writeln!(out, "   {letters}");
    for i in 0..n as i32 {
        let row: String = (0..n as i32)
            .map(|j| {
                let p = Point::new(i, j);
                let ch = match board.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => marks.get(&p).copied().unwrap_or('.'),
                };
                format!(" {ch}")
            })
            .collect();
        let _ = writeln!(out, "{:>3}{row}", n as i32 - i);
    }
    for (p, ms) in &by_point {
        let _ = writeln!(out, "  {} {}:", marks[p], vertex(*p, n));
        let mut ms = ms.clone();
        ms.sort_by_key(|m| (m.pattern, m.trans));
        for m in ms {
            let pat = &tables.patterns[m.pattern as usize];
            let descr = if pat.description.is_empty() {
                String::new()
            } else {
                format!(" {}", pat.description)
            };
            let _ = writeln!(
                out,
                "      pattern {}{descr} (line {}, transformation {}, weight {}, max {})",
                pat.name,
                pat.line,
                m.trans,
                weight_of(pat),
                pat.max_weight
            );
        }
    }
    out
}

/// The conformance format of `katachi match`: one line per match, `pos
/// pattern trans move_i move_j`, sorted per position by pattern name (byte
/// order), then `trans`, then the move — the format and order of GNU Go's
/// expected files, so that a diff is exact. `matches(k)` gives position
/// `k`'s matches.
pub fn conformance_lines(
    tables: Tables<'_>,
    positions: usize,
    mut matches: impl FnMut(usize) -> Vec<Match>,
) -> String {
    let mut out = String::new();
    for n in 0..positions {
        let mut found = matches(n);
        found.sort_by(|a, b| {
            let (pa, pb) = (
                &tables.patterns[a.pattern as usize],
                &tables.patterns[b.pattern as usize],
            );
            pa.name
                .as_bytes()
                .cmp(pb.name.as_bytes())
                .then(a.trans.cmp(&b.trans))
                .then(a.move_point.cmp(&b.move_point))
        });
        for m in &found {
            let name = &tables.patterns[m.pattern as usize].name;
            let _ = writeln!(
                out,
                "{n} {name} {} {} {}",
                m.trans, m.move_point.i, m.move_point.j
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matcher::Matcher;

    #[test]
    fn marks_every_proposed_point_and_names_its_patterns() {
        // `O*` is symmetric under flip upside down: class `-`, so each
        // placement is tried once.
        let src = b"# pattern 1\n\nO*          jump\n\n:-,30,0,0,0,0,-,0,NULL\n";
        let c = mkpat::compile("t.db", src, &mkpat::Options::default());
        assert!(c.diagnostics.is_empty(), "{}", c.render());
        let db = c.database.expect("compiles");
        let mut board = Board::new(5);
        board.place(Point::new(2, 2), Color::Black);
        let matcher = Matcher::new(db.tables());
        let found = matcher.matches(&board, Color::Black);
        assert_eq!(found.len(), 4, "one per side of the stone");
        let text = listing(db.tables(), 0, &board, Color::Black, &found);
        assert!(text.starts_with("position 0: 5x5, black (X) to move; 4 match(es) at 4 point(s)\n"));
        // The four neighbours of C3 are marked a..d in reading order.
        assert!(text.contains("\n  4 . . a . .\n"), "{text}");
        assert!(text.contains("\n  3 . b X c .\n"), "{text}");
        assert!(text.contains("\n  2 . . d . .\n"), "{text}");
        assert!(text.contains("  a C4:\n      pattern 1 jump (line 1, transformation"));
    }
}
