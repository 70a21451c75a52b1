//! How points and colours of a square board are written for people:
//! vertices (`D4`: a column letter, `I` skipped, then the row counted from
//! the bottom) and colour words. Every board game katachi plays on a
//! square grid uses these (GTP, GoGui, the Gomocup managers' displays), so
//! they live here once; a game whose notation differs (a hexagon) gets its
//! own module.

use crate::position::{Color, Point};

/// Column letters, `I` left out (a board has at most 25 columns).
pub const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The vertex of a point on a board of side `size` (`D4`); a point off the
/// board gets `?` for a column it has no letter for.
pub fn vertex(p: Point, size: usize) -> String {
    format!("{}{}", column_letter(p.j), size as i32 - p.i)
}

/// The letter of column `j` (0 is `A`), `?` when there is none.
pub fn column_letter(j: i32) -> char {
    usize::try_from(j)
        .ok()
        .and_then(|j| COLUMN_LETTERS.get(j))
        .map_or('?', |&b| b as char)
}

/// Why a vertex could not be read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VertexError {
    /// Not a letter followed by at most three digits.
    Syntax,
    /// Well formed, but off a board of the given size.
    OffBoard,
}

impl VertexError {
    /// The words GTP answers with.
    pub fn as_str(self) -> &'static str {
        match self {
            VertexError::Syntax => "syntax error",
            VertexError::OffBoard => "invalid coordinate",
        }
    }
}

impl std::fmt::Display for VertexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::error::Error for VertexError {}

/// Reads a vertex (`D4`, `q16`, any case) on a board of side `size`.
pub fn parse_vertex(s: &str, size: usize) -> Result<Point, VertexError> {
    let bytes = s.as_bytes();
    let (first, digits) = match bytes.split_first() {
        Some((f, d)) if f.is_ascii_alphabetic() && !d.is_empty() => (*f, d),
        _ => return Err(VertexError::Syntax),
    };
    if !digits.iter().all(u8::is_ascii_digit) || digits.len() > 3 {
        return Err(VertexError::Syntax);
    }
    let letter = first.to_ascii_uppercase();
    let col = COLUMN_LETTERS
        .iter()
        .position(|&l| l == letter)
        .ok_or(VertexError::OffBoard)?;
    let row: usize = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse().ok())
        .ok_or(VertexError::Syntax)?;
    if col >= size || row == 0 || row > size {
        return Err(VertexError::OffBoard);
    }
    Ok(Point::new((size - row) as i32, col as i32))
}

/// `black` or `white`.
pub const fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `b`, `black`, `w`, `white`, in any case.
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_every_size() {
        for size in 1..=25 {
            for i in 0..size as i32 {
                for j in 0..size as i32 {
                    let p = Point::new(i, j);
                    let v = vertex(p, size);
                    assert_eq!(parse_vertex(&v, size), Ok(p), "{v} on {size}");
                    assert_eq!(parse_vertex(&v.to_lowercase(), size), Ok(p));
                }
            }
        }
    }

    #[test]
    fn the_column_letters_skip_i() {
        assert_eq!(vertex(Point::new(0, 8), 19), "J19");
        assert_eq!(parse_vertex("I5", 19), Err(VertexError::OffBoard));
    }

    #[test]
    fn malformed_and_off_board_vertices_are_told_apart() {
        for s in ["", "D", "4", "DD4", "D4x", "D1234", "D-1"] {
            assert_eq!(parse_vertex(s, 19), Err(VertexError::Syntax), "{s:?}");
        }
        for s in ["D0", "D20", "U1", "Z1"] {
            assert_eq!(parse_vertex(s, 19), Err(VertexError::OffBoard), "{s:?}");
        }
    }

    #[test]
    fn colour_words_read_back() {
        for c in [Color::Black, Color::White] {
            assert_eq!(parse_color(color_word(c)), Some(c));
            assert_eq!(parse_color(&color_word(c)[..1].to_uppercase()), Some(c));
        }
        assert_eq!(parse_color("red"), None);
    }
}
