//! A diagram as a rectangle of cells with edge sides: the checked form.
//!
//! The checker builds one [`Grid`] per pattern once the rows are known to be
//! well formed; symmetry detection, duplicate detection and expansion all
//! work on it, never on the text again.

use crate::tables::Cell;
use crate::transform::{self, side, TransformSet};

/// One diagram cell after checking.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Spec {
    /// `?`: anything, but on the board.
    Any,
    /// `*`: the move, an empty point.
    Move,
    Is(Cell),
}

impl Spec {
    pub fn from_char(c: char) -> Option<Spec> {
        Some(match c {
            '?' => Spec::Any,
            '*' => Spec::Move,
            '.' => Spec::Is(Cell::Empty),
            'O' => Spec::Is(Cell::Mine),
            'X' => Spec::Is(Cell::Theirs),
            'o' => Spec::Is(Cell::NotTheirs),
            'x' => Spec::Is(Cell::NotMine),
            _ => return None,
        })
    }
    pub fn as_char(self) -> char {
        match self {
            Spec::Any => '?',
            Spec::Move => '*',
            Spec::Is(c) => c.as_char(),
        }
    }
}

/// A rectangular diagram: `rows × cols` cells and the sides on the edge.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Grid {
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

    /// The diagram as it looks after transformation `t`.
    pub fn transformed(&self, t: u8) -> Grid {
        let placed: Vec<(i32, i32, Spec)> = self
            .iter()
            .map(|(r, c, s)| {
                let (i, j) = transform::apply(t, r as i32, c as i32);
                (i, j, s)
            })
            .collect();
        let min_i = placed.iter().map(|p| p.0).min().unwrap_or(0);
        let min_j = placed.iter().map(|p| p.1).min().unwrap_or(0);
        let (rows, cols) = if transform::apply(t, 1, 0).0 == 0 {
            (self.cols, self.rows)
        } else {
            (self.rows, self.cols)
        };
        let mut cells = vec![Spec::Any; rows * cols];
        for (i, j, s) in placed {
            cells[(i - min_i) as usize * cols + (j - min_j) as usize] = s;
        }
        Grid {
            rows,
            cols,
            cells,
            edges: transform::transform_sides(t, self.edges),
        }
    }

    /// The transformations that leave the diagram unchanged.
    pub fn symmetry_group(&self) -> TransformSet {
        let mut g = 0u8;
        for t in 0..8 {
            if self.transformed(t) == *self {
                g |= 1 << t;
            }
        }
        TransformSet(g)
    }

    /// A representative of the diagram's orbit under the eight
    /// transformations: equal for two diagrams iff one is a transformation
    /// of the other.
    pub fn canonical(&self) -> Grid {
        (0..8)
            .map(|t| self.transformed(t))
            .min()
            .expect("eight transformations")
    }

    /// The diagram as text, edges drawn, one row a line.
    pub fn draw(&self) -> String {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str], edges: u8) -> Grid {
        Grid {
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
        assert_eq!(g.symmetry_group(), TransformSet(1 | 1 << 7));
        // An edge breaks the symmetry.
        let g = grid(&["O.O", "?*?"], side::WEST);
        assert_eq!(g.symmetry_group(), TransformSet::IDENTITY);
    }

    #[test]
    fn draws_edges_and_corners() {
        let g = grid(&["O*", ".X"], side::SOUTH | side::WEST);
        assert_eq!(g.draw(), "|O*\n|.X\n+--\n");
    }
}
