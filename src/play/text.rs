//! `katachi play`'s words for the board and the engine: points as the
//! players write them (`H8`), the engine's reasons and its hint.

use super::app::Hint;
use crate::five::engine::Reason;
use crate::five::explain::Explanation;
use crate::position::Point;

/// The column letters: all 26, as five-in-a-row records write them (Go
/// skips `I`; renju's notation does not, and a 26-point side needs it).
const COLUMNS: &[u8; 26] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A point as the screen writes it: the column's letter, then the row
/// counted from the bottom (`H8` is the centre of 15x15).
pub fn vertex(p: Point, size: usize) -> String {
    let letter = COLUMNS.get(p.j as usize).map_or('?', |&b| b as char);
    format!("{letter}{}", size as i32 - p.i)
}

/// Reads `h8`, `H8`, `h 8` on a board of side `size`.
pub fn parse_vertex(s: &str, size: usize) -> Option<Point> {
    let s = s.trim();
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let j = COLUMNS.iter().position(|&b| b as char == letter)?;
    let row: usize = chars.as_str().trim().parse().ok()?;
    (j < size && (1..=size).contains(&row)).then(|| Point::new((size - row) as i32, j as i32))
}

/// Why the engine chose its move, in words, with the board's coordinates.
pub fn reason_text(why: &Reason, size: usize) -> String {
    match why {
        Reason::Opening => "the opening point".into(),
        Reason::Wins => "it makes five".into(),
        Reason::Blocks => "it stops a five".into(),
        Reason::Vcf(line) => format!(
            "a forced win by fours: {}",
            line.iter()
                .map(|&p| vertex(p, size))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Reason::Vct(line) => format!(
            "a forced win by threes and fours: {}",
            line.iter()
                .map(|&p| vertex(p, size))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Reason::Search {
            depth,
            defends: true,
            ..
        } => format!("it stops a forced win (search depth {depth})"),
        Reason::Search { depth, .. } => format!("its search's best (depth {depth})"),
        Reason::OnlyDefence => "the one move that stops a forced win".to_string(),
    }
}

/// The hint the panel shows: the engine's move, its reason, the best
/// candidates and the patterns behind them.
pub fn hint_of(e: &Explanation, size: usize) -> Hint {
    let mut lines = Vec::new();
    let point = e.chosen.as_ref().map(|(p, _)| *p);
    if let Some((p, why)) = &e.chosen {
        lines.push(format!("{}: {}", vertex(*p, size), reason_text(why, size)));
    }
    for c in e.candidates.iter().take(3) {
        lines.push(format!("{} worth {}", vertex(c.point, size), c.value));
        for b in c.because.iter().take(2) {
            let whose = if b.maker == e.to_move {
                "makes"
            } else {
                "stops"
            };
            lines.push(format!("  {whose} {} +{}", b.kind.name(), b.value));
        }
    }
    Hint { point, lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_use_all_26_letters() {
        assert_eq!(vertex(Point::new(7, 7), 15), "H8");
        assert_eq!(vertex(Point::new(0, 8), 15), "I15");
        assert_eq!(vertex(Point::new(25, 25), 26), "Z1");
        for n in [5, 15, 26] {
            for i in 0..n as i32 {
                for j in 0..n as i32 {
                    let p = Point::new(i, j);
                    assert_eq!(parse_vertex(&vertex(p, n), n), Some(p));
                    assert_eq!(parse_vertex(&vertex(p, n).to_lowercase(), n), Some(p));
                }
            }
        }
        assert_eq!(parse_vertex("p1", 15), None);
        assert_eq!(parse_vertex("a16", 15), None);
        assert_eq!(parse_vertex("a0", 15), None);
        assert_eq!(parse_vertex("undo", 15), None);
        assert_eq!(parse_vertex("h", 15), None);
    }
}
