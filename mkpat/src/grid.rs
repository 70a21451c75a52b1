//! A diagram as a rectangle of cells with edge sides: the checked form.
//!
//! The checker builds one [`Grid`] per pattern once the rows are known to be
//! well formed; symmetry detection, duplicate detection and expansion all
//! work on it, never on the text again. A hexagonal diagram is a grid in
//! axial coordinates ([`crate::geometry`]): its rows offset by half a cell
//! make a parallelogram of the rectangle, and the cells the drawing does
//! not cover are [`Spec::Absent`].

use crate::geometry::{Geometry, Symmetries};
use crate::tables::Cell;
use crate::transform::side;

/// One diagram cell after checking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Spec {
    /// `?`: anything, but on the board.
    Any,
    /// `*`: the move, an empty point.
    Move,
    Is(Cell),
    /// Not part of the diagram: a hexagonal diagram's rectangle holds
    /// cells its drawing leaves out. Anything, even off the board.
    Absent,
}

impl Spec {
    pub fn from_char(c: char) -> Option<Spec> {
        Some(match c {
            '?' => Spec::Any,
            '*' => Spec::Move,
            // GNU Go 3.x's `,` and `!` are empty points (which the engine
            // reads differently), `Q` and `Y` its anchor's `O` and `X`.
            '.' | ',' | '!' => Spec::Is(Cell::Empty),
            'O' | 'Q' => Spec::Is(Cell::Mine),
            'X' | 'Y' => Spec::Is(Cell::Theirs),
            'o' => Spec::Is(Cell::NotTheirs),
            'x' => Spec::Is(Cell::NotMine),
            '=' => Spec::Is(Cell::Blocked),
            _ => return None,
        })
    }
    pub fn as_char(self) -> char {
        match self {
            Spec::Any => '?',
            Spec::Move => '*',
            Spec::Is(c) => c.as_char(),
            Spec::Absent => ' ',
        }
    }
}

/// A rectangular diagram: `rows × cols` cells and the sides on the edge.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Grid {
    pub geometry: Geometry,
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Spec>,
    pub edges: u8,
}

impl Grid {
    pub fn get(&self, r: usize, c: usize) -> Spec {
        self.cells[r * self.cols + c]
    }

    /// Cells in reading order with their coordinates.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, Spec)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .map(move |(k, s)| (k / self.cols, k % self.cols, *s))
    }

    /// The first `O` or `X` in reading order.
    pub fn anchor(&self) -> Option<(usize, usize)> {
        self.iter()
            .find(|(_, _, s)| matches!(s, Spec::Is(c) if c.is_stone()))
            .map(|(r, c, _)| (r, c))
    }

    pub fn move_point(&self) -> Option<(usize, usize)> {
        self.iter()
            .find(|(_, _, s)| *s == Spec::Move)
            .map(|(r, c, _)| (r, c))
    }

    /// The diagram's cells (those it draws), with their offsets.
    pub fn present(&self) -> impl Iterator<Item = (usize, usize, Spec)> + '_ {
        self.iter().filter(|(_, _, s)| *s != Spec::Absent)
    }

    /// A grid of `geometry` from cells at offsets `(i, j)`, moved so that
    /// the smallest row and column are 0; the rest is [`Spec::Absent`].
    pub fn from_cells(geometry: Geometry, cells: &[(i32, i32, Spec)], edges: u8) -> Grid {
        let min_i = cells.iter().map(|p| p.0).min().unwrap_or(0);
        let min_j = cells.iter().map(|p| p.1).min().unwrap_or(0);
        let max_i = cells.iter().map(|p| p.0).max().unwrap_or(-1);
        let max_j = cells.iter().map(|p| p.1).max().unwrap_or(-1);
        let (rows, cols) = ((max_i - min_i + 1) as usize, (max_j - min_j + 1) as usize);
        let mut out = vec![Spec::Absent; rows * cols];
        for &(i, j, s) in cells {
            out[(i - min_i) as usize * cols + (j - min_j) as usize] = s;
        }
        Grid {
            geometry,
            rows,
            cols,
            cells: out,
            edges,
        }
    }

    /// The diagram as it looks after transformation `t` of its geometry.
    pub fn transformed(&self, t: u8) -> Grid {
        let g = self.geometry;
        let placed: Vec<(i32, i32, Spec)> = self
            .present()
            .map(|(r, c, s)| {
                let (i, j) = g.apply(t, r as i32, c as i32);
                (i, j, s)
            })
            .collect();
        Grid::from_cells(g, &placed, g.transform_sides(t, self.edges))
    }

    /// The transformations that leave the diagram unchanged.
    pub fn symmetry_group(&self) -> Symmetries {
        let mut bits = 0u16;
        for t in 0..self.geometry.order() {
            if self.transformed(t) == *self {
                bits |= 1 << t;
            }
        }
        Symmetries(bits)
    }

    /// A representative of the diagram's orbit under its geometry's
    /// transformations: equal for two diagrams iff one is a transformation
    /// of the other.
    pub fn canonical(&self) -> Grid {
        (0..self.geometry.order())
            .map(|t| self.transformed(t))
            .min()
            .expect("some transformations")
    }

    /// The diagram as text, edges drawn, one row a line; a hexagonal one
    /// as it is written, cells a space apart and rows offset by half a cell.
    pub fn draw(&self) -> String {
        if self.geometry == Geometry::Hexagon {
            return self.draw_hexagonal();
        }
        let mut out = String::new();
        let w = self.edges & side::WEST != 0;
        let e = self.edges & side::EAST != 0;
        let edge_line = |out: &mut String| {
            out.push(if w { '+' } else { '-' });
            out.extend(std::iter::repeat_n(
                '-',
                self.cols.saturating_sub(usize::from(!w)),
            ));
            if e {
                out.push('+');
            }
            out.push('\n');
        };
        if self.edges & side::NORTH != 0 {
            edge_line(&mut out);
        }
        for r in 0..self.rows {
            if w {
                out.push('|');
            }
            for c in 0..self.cols {
                out.push(self.get(r, c).as_char());
            }
            if e {
                out.push('|');
            }
            out.push('\n');
        }
        if self.edges & side::SOUTH != 0 {
            edge_line(&mut out);
        }
        out
    }

    fn draw_hexagonal(&self) -> String {
        use side::*;
        // Cell (r, c) sits `2c + r` half cells from the left; two columns
        // are kept on the left for a side mark.
        let x = |r: usize, c: usize| 2 * c + r;
        let left = self.present().map(|(r, c, _)| x(r, c)).min().unwrap_or(0);
        let at = |r: usize, c: usize| x(r, c) + 2 - left;
        let (min_j, max_j) = (0, self.cols - 1);
        let sums: Vec<usize> = self.present().map(|(r, c, _)| r + c).collect();
        let min_s = sums.iter().copied().min().unwrap_or(0);
        let max_s = sums.iter().copied().max().unwrap_or(0);
        let e = self.edges;
        let mut lines: Vec<String> = Vec::new();
        for r in 0..self.rows {
            let row: Vec<usize> = (0..self.cols)
                .filter(|&c| self.get(r, c) != Spec::Absent)
                .collect();
            let mut line = String::new();
            let put = |line: &mut String, col: usize, ch: char| {
                while line.chars().count() < col {
                    line.push(' ');
                }
                line.push(ch);
            };
            if let (Some(&first), Some(&last)) = (row.first(), row.last()) {
                let west = side_mark(
                    '<',
                    e & WEST != 0 && first == min_j,
                    e & LEAST_SUM != 0 && r + first == min_s,
                );
                if let Some(m) = west {
                    put(&mut line, at(r, first) - 2, m);
                }
                for &c in &row {
                    put(&mut line, at(r, c), self.get(r, c).as_char());
                }
                let east = side_mark(
                    '>',
                    e & EAST != 0 && last == max_j,
                    e & MOST_SUM != 0 && r + last == max_s,
                );
                if let Some(m) = east {
                    put(&mut line, at(r, last) + 2, m);
                }
            }
            lines.push(line);
        }
        let indent = lines
            .iter()
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let width = lines.iter().map(|l| l.len()).max().unwrap_or(0);
        let dashes = |out: &mut String| {
            let row: String = (indent..width)
                .map(|k| if (k - indent) % 2 == 0 { '-' } else { ' ' })
                .collect();
            out.push_str(row.trim_end());
            out.push('\n');
        };
        let mut out = String::new();
        if e & NORTH != 0 {
            dashes(&mut out);
        }
        for l in &lines {
            out.push_str(&l[indent.min(l.len())..]);
            out.push('\n');
        }
        if e & SOUTH != 0 {
            dashes(&mut out);
        }
        out
    }
}

/// A hexagonal row end's side mark: `\\` when the end cell is on the
/// side bounding `j`, `/` on the side bounding `i + j`, `corner` (`<` or
/// `>`) on both.
fn side_mark(corner: char, on_j: bool, on_sum: bool) -> Option<char> {
    match (on_j, on_sum) {
        (true, true) => Some(corner),
        (true, false) => Some('\\'),
        (false, true) => Some('/'),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str], edges: u8) -> Grid {
        Grid {
            geometry: Geometry::Square,
            rows: rows.len(),
            cols: rows[0].len(),
            cells: rows
                .iter()
                .flat_map(|r| r.chars().map(|c| Spec::from_char(c).unwrap()))
                .collect(),
            edges,
        }
    }

    #[test]
    fn rotation_moves_cells_and_edges() {
        let g = grid(&["O.", "X*"], side::NORTH);
        let r = g.transformed(1);
        assert_eq!(r, grid(&["XO", "*."], side::EAST));
    }

    #[test]
    fn symmetry_group_of_a_mirror_diagram() {
        let g = grid(&["O.O", "?*?"], 0);
        assert_eq!(g.symmetry_group(), Symmetries(1 | 1 << 7));
        // An edge breaks the symmetry.
        let g = grid(&["O.O", "?*?"], side::WEST);
        assert_eq!(g.symmetry_group(), Symmetries::IDENTITY);
    }

    #[test]
    fn draws_edges_and_corners() {
        let g = grid(&["O*", ".X"], side::SOUTH | side::WEST);
        assert_eq!(g.draw(), "|O*\n|.X\n+--\n");
    }
}
