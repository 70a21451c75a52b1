//! The rules of five in a row on a square or a hexagonal board: [`Rule`]
//! and [`FiveBoard`].
//!
//! - [`Rule::Freestyle`]: five or more in a row wins, for either side;
//! - [`Rule::Exact`]: exactly five wins; an overline (six or more) is an
//!   ordinary move that wins nothing;
//! - [`Rule::Renju`]: Black (who moves first) wins with exactly five, and
//!   may not make a double three, a double four or an overline — such a
//!   move is *forbidden*, illegal for Black ([`FiveBoard::is_forbidden`],
//!   defined in `renju.rs`); a five wins even when it
//!   also makes a forbidden shape. White wins with five or more.
//!
//! - [`Rule::Pente`]: five or more in a row wins, and stones are
//!   captured in pairs: a move that brackets exactly two opponent stones
//!   takes them, and the fifth pair taken wins; the first stone goes on
//!   the centre and the first player's second outside the central 5×5
//!   (the tournament rule). Defined in `pente.rs`; square boards only.
//!
//! A full board without a win is a draw. The board keeps a move stack for
//! [`FiveBoard::undo`], so a search plays and takes back moves on one
//! board; a move looks only at the lines through its point and
//! allocates nothing (the stones live in a fixed array with a margin of
//! five off-board cells on every side, so a line is read without bounds
//! checks).
//!
//! The geometry is the board's: a square board's lines run in the four
//! [`DIRECTIONS`], a hexagonal board's ([`FiveBoard::hexagon`], the
//! contest's 217 cells in axial coordinates, [`crate::hexagon`]) along its
//! three axes, the first three of them less the second diagonal
//! ([`FiveBoard::directions`]); the array's cells off the hexagon are
//! edge cells, as the margin is. Renju is a square board's rule only.

use std::fmt;

use mkpat::geometry::Geometry;

use super::{pente, renju};
use crate::hexagon::HexLayout;
use crate::position::{Color, Point, Position};

/// The smallest board side.
pub const MIN_SIZE: usize = 5;
/// The largest board side (the core's diagrams and vertices stop at 26).
pub const MAX_SIZE: usize = 26;

/// The four line directions as `(di, dj)`: along a row, down a column,
/// and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Which rows of stones win, and what Black may not play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five in a row wins; an overline does not.
    Exact,
    /// Renju: Black wins with exactly five and may not play a double three,
    /// a double four or an overline; White wins with five or more.
    Renju,
    /// Pente: five or more in a row wins, pairs are captured and the
    /// fifth captured pair wins; the tournament rule restricts the first
    /// player's first two stones.
    Pente,
}

impl Rule {
    /// Whether `color` wins only with exactly five (an overline wins
    /// nothing).
    pub fn exact_for(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Pente => false,
            Rule::Exact => true,
            Rule::Renju => color == Color::Black,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Color),
    /// The board filled up without a win.
    Draw,
}

/// Why a move or a set-up stone was refused.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IllegalMove {
    OffBoard(Point),
    Occupied(Point),
    /// A double three, double four or overline for Black under renju.
    Forbidden(Point),
    /// Pente's tournament rule: the first stone off the centre, or the
    /// first player's second inside the central 5×5.
    Tournament(Point),
    /// The game is over: no more moves.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(p) => write!(f, "({}, {}) is off the board", p.i, p.j),
            IllegalMove::Occupied(p) => write!(f, "({}, {}) is occupied", p.i, p.j),
            IllegalMove::Forbidden(p) => write!(
                f,
                "({}, {}) is forbidden for Black (double three, double four or overline)",
                p.i, p.j
            ),
            IllegalMove::Tournament(p) => write!(
                f,
                "({}, {}) breaks the tournament rule (the first stone on the centre, the first player's second outside the central 5x5)",
                p.i, p.j
            ),
            IllegalMove::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A board side outside [`MIN_SIZE`]`..=`[`MAX_SIZE`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardSizeError(pub usize);

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a five-in-a-row board is {MIN_SIZE} to {MAX_SIZE} points a side, not {}",
            self.0
        )
    }
}

impl std::error::Error for BoardSizeError {}

/// Why a hexagonal board was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HexBoardError {
    /// Its array (`2·side − 1`) would be wider than [`MAX_SIZE`], or the
    /// side is below 3 (no line of five fits).
    Side(usize),
    /// Renju's forbidden shapes (and Pente's captures) are defined on the
    /// square only.
    Renju,
}

impl fmt::Display for HexBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexBoardError::Side(n) => write!(
                f,
                "a hexagonal five-in-a-row board is 3 to {} cells a side, not {n}",
                MAX_SIZE.div_ceil(2)
            ),
            HexBoardError::Renju => write!(f, "renju and pente are played on a square board only"),
        }
    }
}

impl std::error::Error for HexBoardError {}

/// The off-board margin of the cell array: every point within five steps
/// of a board point along a line is in the array.
const PAD: usize = 5;
const MAX_STRIDE: usize = MAX_SIZE + 2 * PAD;

pub(super) const EMPTY: u8 = 0;
pub(super) const BLACK: u8 = 1;
pub(super) const WHITE: u8 = 2;
pub(super) const EDGE: u8 = 3;

const fn color_index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

pub(super) fn cell_of(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The stones in a padded array: the board's points hold `EMPTY`,
/// `BLACK` or `WHITE`, the margin (and a hexagon's corners of the array)
/// `EDGE`.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Grid {
    pub(super) cells: [u8; MAX_STRIDE * MAX_STRIDE],
    /// The side of the array the board lies in.
    size: usize,
    stride: usize,
    /// The hexagon, for a hexagonal board.
    hex: Option<HexLayout>,
    /// The index steps of the board's line directions (the unused last
    /// one 0 on the hexagon).
    steps: [isize; 4],
    /// How many line directions: 4 on the square, 3 on the hexagon.
    lines: usize,
}

impl Grid {
    fn new(size: usize, hex: Option<HexLayout>) -> Grid {
        let stride = size + 2 * PAD;
        let mut cells = [EDGE; MAX_STRIDE * MAX_STRIDE];
        for i in 0..size {
            let row = (i + PAD) * stride + PAD;
            match hex {
                None => cells[row..row + size].fill(EMPTY),
                Some(h) => {
                    for j in h.row(i as i32) {
                        cells[row + j as usize] = EMPTY;
                    }
                }
            }
        }
        let geometry = if hex.is_some() {
            Geometry::Hexagon
        } else {
            Geometry::Square
        };
        let mut steps = [0; 4];
        let directions = geometry.line_directions();
        for (s, &(di, dj)) in steps.iter_mut().zip(directions) {
            *s = di as isize * stride as isize + dj as isize;
        }
        Grid {
            cells,
            size,
            stride,
            hex,
            steps,
            lines: directions.len(),
        }
    }

    fn on_board(&self, p: Point) -> bool {
        match self.hex {
            None => {
                let n = self.size as i32;
                (0..n).contains(&p.i) && (0..n).contains(&p.j)
            }
            Some(h) => h.contains(p),
        }
    }

    /// How many cells the board has.
    fn cells_on_board(&self) -> usize {
        self.hex.map_or(self.size * self.size, HexLayout::cells)
    }

    /// The board point of a cell index.
    pub(super) fn point(&self, k: usize) -> Point {
        Point::new(
            (k / self.stride) as i32 - PAD as i32,
            (k % self.stride) as i32 - PAD as i32,
        )
    }

    /// The cell index of a board point.
    pub(super) fn index(&self, p: Point) -> usize {
        debug_assert!(self.on_board(p));
        (p.i as usize + PAD) * self.stride + p.j as usize + PAD
    }

    /// The index steps of the board's line directions ([`DIRECTIONS`] on
    /// the square).
    pub(super) fn steps(&self) -> &[isize] {
        &self.steps[..self.lines]
    }

    /// The stones of `cell` in a row through `at` along `step`, counting
    /// `at` as one of them whatever it holds.
    pub(super) fn run(&self, at: usize, step: isize, cell: u8) -> usize {
        let mut n = 1;
        for sign in [-1, 1] {
            let mut k = at as isize + sign * step;
            while self.cells[k as usize] == cell {
                n += 1;
                k += sign * step;
            }
        }
        n
    }
}

/// The fives a stone makes possible ([`FiveBoard::fives_through`]).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Fives {
    /// How many empty points make five.
    pub count: usize,
    /// The first of them (by line, then along it).
    pub first: Option<Point>,
    /// How many lie on each of the board's line directions
    /// ([`FiveBoard::directions`]; the fourth 0 on the hexagon): two on
    /// one line is a straight four (or a four-four on one line).
    pub on_line: [u8; 4],
}

/// A five-in-a-row board: stones, side to move (Black first), the rule,
/// the moves played and the outcome.
#[derive(Clone, PartialEq, Eq)]
pub struct FiveBoard {
    grid: Grid,
    rule: Rule,
    to_move: Color,
    /// The moves played (not set-up stones), for undo.
    moves: Vec<Point>,
    stones: usize,
    outcome: Option<Outcome>,
    /// Pente: the pairs each colour has captured (Black's, White's).
    captures: [u8; 2],
    /// Pente: the stones captured, oldest first, and how many each move
    /// took (beside `moves`), for undo.
    taken: Vec<Point>,
    taken_by: Vec<u8>,
    /// Whether stones were set up ([`FiveBoard::put`]): the tournament
    /// rule holds only for games from the empty board.
    set_up: bool,
}

impl FiveBoard {
    /// An empty `size × size` board, Black to move.
    pub fn new(size: usize, rule: Rule) -> Result<FiveBoard, BoardSizeError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardSizeError(size));
        }
        Ok(FiveBoard {
            grid: Grid::new(size, None),
            rule,
            to_move: Color::Black,
            // A game has at most `size²` moves: the stack never grows
            // during a game.
            moves: Vec::with_capacity(size * size),
            stones: 0,
            outcome: None,
            captures: [0; 2],
            taken: Vec::new(),
            taken_by: Vec::new(),
            set_up: false,
        })
    }

    /// An empty hexagonal board of side `side` (9: the contest's 217
    /// cells), Black to move, freestyle or exact five.
    pub fn hexagon(side: usize, rule: Rule) -> Result<FiveBoard, HexBoardError> {
        if !(3..=MAX_SIZE.div_ceil(2)).contains(&side) {
            return Err(HexBoardError::Side(side));
        }
        if matches!(rule, Rule::Renju | Rule::Pente) {
            return Err(HexBoardError::Renju);
        }
        let layout = HexLayout::new(side);
        Ok(FiveBoard {
            grid: Grid::new(layout.array_side(), Some(layout)),
            rule,
            to_move: Color::Black,
            moves: Vec::with_capacity(layout.cells()),
            stones: 0,
            outcome: None,
            captures: [0; 2],
            taken: Vec::new(),
            taken_by: Vec::new(),
            set_up: false,
        })
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The board's geometry.
    pub fn geometry(&self) -> Geometry {
        if self.grid.hex.is_some() {
            Geometry::Hexagon
        } else {
            Geometry::Square
        }
    }

    /// The hexagon's layout, for a hexagonal board.
    pub fn hex_layout(&self) -> Option<HexLayout> {
        self.grid.hex
    }

    /// The directions lines run in, as `(di, dj)`: the four
    /// [`DIRECTIONS`] on the square, the hexagon's three axes (the same
    /// less `(1, 1)`, which is not a line there).
    pub fn directions(&self) -> &'static [(i32, i32)] {
        self.geometry().line_directions()
    }

    /// How many cells the board has (`size²`, or 217 on the contest's
    /// hexagon).
    pub fn cells(&self) -> usize {
        self.grid.cells_on_board()
    }

    /// Every cell of the board in reading order (on the hexagon, its
    /// number order).
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.grid.size as i32;
        (0..n)
            .flat_map(move |i| (0..n).map(move |j| Point::new(i, j)))
            .filter(|&p| self.grid.on_board(p))
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the side to move (for set-up positions).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The moves played since the board was set up, oldest first.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    /// The number of stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// How the game ended, or `None` while it goes on. Decided by the
    /// moves played ([`FiveBoard::play`]), not by set-up stones.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Puts a set-up stone: not a move (not on the move stack, so never
    /// undone), with no check for a win or a forbidden point; the side to
    /// move stays.
    pub fn put(&mut self, p: Point, color: Color) -> Result<(), IllegalMove> {
        self.check_empty(p)?;
        let at = self.grid.index(p);
        self.grid.cells[at] = cell_of(color);
        self.stones += 1;
        self.set_up = true;
        Ok(())
    }

    /// Pente: the pairs `color` has captured (0 under the other rules).
    pub fn captures(&self, color: Color) -> u8 {
        self.captures[color_index(color)]
    }

    /// Pente: the stones the last move captured (none under the other
    /// rules), of the colour that did not play it.
    pub fn last_captured(&self) -> &[Point] {
        let n = self.taken_by.last().map_or(0, |&n| n as usize);
        &self.taken[self.taken.len() - n..]
    }

    /// Pente: the pairs `color` would capture by playing the empty point
    /// `p` (0 under the other rules, or when `p` is not empty).
    pub fn pairs_captured_at(&self, p: Point, color: Color) -> u8 {
        if self.rule != Rule::Pente || !self.is_empty(p) {
            return 0;
        }
        pente::pairs_captured(&self.grid, self.grid.index(p), cell_of(color))
    }

    /// Whether Pente's tournament rule forbids `p` as the next move.
    fn tournament_forbids(&self, p: Point) -> bool {
        self.rule == Rule::Pente
            && !self.set_up
            && pente::tournament_forbids(self.grid.size, self.moves.len(), p)
    }

    /// Plays the side to move's stone on `p` and passes the move; returns
    /// the outcome if this move ended the game.
    pub fn play(&mut self, p: Point) -> Result<Option<Outcome>, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.check_empty(p)?;
        let color = self.to_move;
        if color == Color::Black && self.rule == Rule::Renju && self.is_forbidden(p) {
            return Err(IllegalMove::Forbidden(p));
        }
        if self.tournament_forbids(p) {
            return Err(IllegalMove::Tournament(p));
        }
        let wins = self.wins_at(p, color);
        let at = self.grid.index(p);
        if self.rule == Rule::Pente {
            let (cells, n) = pente::captured_by(&self.grid, at, cell_of(color));
            pente::remove(&mut self.grid, &cells[..n]);
            for &k in &cells[..n] {
                self.taken.push(self.grid.point(k));
            }
            self.taken_by.push(n as u8);
            self.stones -= n;
            self.captures[color_index(color)] += (n / 2) as u8;
        }
        self.grid.cells[at] = cell_of(color);
        self.stones += 1;
        self.moves.push(p);
        self.to_move = color.other();
        self.outcome = if wins {
            Some(Outcome::Win(color))
        } else if self.stones == self.grid.cells_on_board() {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(self.outcome)
    }

    /// Takes back the last move; returns its point, or `None` when no move
    /// was played (set-up stones stay).
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        let at = self.grid.index(p);
        self.grid.cells[at] = EMPTY;
        self.stones -= 1;
        self.to_move = self.to_move.other();
        if self.rule == Rule::Pente {
            let n = self.taken_by.pop().expect("a count for each move");
            let theirs = cell_of(self.to_move.other());
            for _ in 0..n {
                let q = self.taken.pop().expect("a taken stone for each counted");
                let k = self.grid.index(q);
                self.grid.cells[k] = theirs;
            }
            self.stones += n as usize;
            self.captures[color_index(self.to_move)] -= n / 2;
        }
        // Play refuses moves once the game is over, so before the last
        // move it was not.
        self.outcome = None;
        Some(p)
    }

    /// Whether `color` on the empty point `p` would win by the rule: five
    /// or more in a row under freestyle and Pente (and for White under
    /// renju), exactly five otherwise; under Pente also the fifth pair
    /// captured.
    pub fn wins_at(&self, p: Point, color: Color) -> bool {
        if !self.is_empty(p) {
            return false;
        }
        let exact = self.rule.exact_for(color);
        let at = self.grid.index(p);
        let own = cell_of(color);
        // Line by line, stopping at the first five.
        self.grid.steps().iter().any(|&step| {
            let n = self.grid.run(at, step, own);
            if exact {
                n == 5
            } else {
                n >= 5
            }
        }) || (self.rule == Rule::Pente
            && self.captures(color) + self.pairs_captured_at(p, color) >= pente::CAPTURES_TO_WIN)
    }

    /// The empty points where `color` would make five by the rule on the
    /// lines through `s` (each of [`FiveBoard::directions`]) within four
    /// steps of it, counting `s` as
    /// `color`'s whether it is empty or already holds the stone: the fives
    /// a stone on `s` makes possible. Points off these lines are not
    /// looked at, so a threat search that knows there were no fives before
    /// learns every new one from the stone that made it. `s` must be on
    /// the board.
    pub fn fives_through(&self, s: Point, color: Color) -> Fives {
        let mut out = Fives::default();
        for d in 0..self.grid.steps().len() {
            self.fives_along(s, color, d, &mut out);
        }
        out
    }

    /// [`FiveBoard::fives_through`] on the line of direction `d` alone
    /// (its `on_line[d]`): what a threat search asks of one line.
    pub fn fives_on_line(&self, s: Point, color: Color, d: usize) -> u8 {
        let mut out = Fives::default();
        self.fives_along(s, color, d, &mut out);
        out.on_line[d]
    }

    /// Adds the fives on the line of direction `d` through `s` to `out`.
    /// The cells are read straight from the padded array: the points
    /// looked at lie within four steps of `s`, the rows through them are
    /// read once to the fifth step and followed further only through
    /// `color`'s stones, which are on the board, so no read goes past the
    /// margin ([`PAD`] is five), whose edge stops a row. Each empty
    /// point's row is then the runs before and after it, summed (this
    /// is asked at most nodes of the threat searches: one pass over the
    /// line, not one walk a point).
    fn fives_along(&self, s: Point, color: Color, d: usize, out: &mut Fives) {
        let exact = self.rule.exact_for(color);
        let own = cell_of(color);
        let at = self.grid.index(s) as isize;
        let step = self.grid.steps()[d];
        let cells = &self.grid.cells;
        let read = |k: isize| cells[(at + k * step) as usize];
        // The window's nine cells, `s` counted as `color`'s, read once:
        // `line[k + 4]` is step `k`.
        let mut line = [own; 9];
        for k in (-4isize..=4).filter(|&k| k != 0) {
            line[(k + 4) as usize] = read(k);
        }
        // `before[i]`: how many of `color`'s stones run back from the cell
        // just before `line[i]`; `after[i]`, forward from the cell just
        // after it. Past the window the rows are followed in the array
        // (through `color`'s stones only, so never beyond the margin's
        // first cell).
        let beyond = |from: isize, dir: isize| {
            let mut n = 0;
            let mut k = from;
            while read(k) == own {
                n += 1;
                k += dir;
            }
            n
        };
        let (far_back, far_on) = (beyond(-5, -1), beyond(5, 1));
        // A five needs four of `color`'s stones beside its empty point,
        // `s` among them or not: with fewer within reach, none.
        let near = line.iter().filter(|&&c| c == own).count();
        if near + far_back + far_on < 4 {
            return;
        }
        let mut before = [0usize; 9];
        before[0] = far_back;
        for i in 1..9 {
            before[i] = if line[i - 1] == own {
                before[i - 1] + 1
            } else {
                0
            };
        }
        let mut after = [0usize; 9];
        after[8] = far_on;
        for i in (0..8).rev() {
            after[i] = if line[i + 1] == own {
                after[i + 1] + 1
            } else {
                0
            };
        }
        for i in (0..9).filter(|&i| i != 4 && line[i] == EMPTY) {
            let n = 1 + before[i] + after[i];
            if if exact { n == 5 } else { n >= 5 } {
                let k = i as i32 - 4;
                let (di, dj) = self.directions()[d];
                let q = Point::new(s.i + di * k, s.j + dj * k);
                out.count += 1;
                out.on_line[d] += 1;
                out.first.get_or_insert(q);
            }
        }
    }

    /// The stones of the row that won the game, from one end to the
    /// other, or nothing while no one has won.
    pub fn win_row(&self) -> Vec<Point> {
        let (Some(Outcome::Win(c)), Some(p)) = (self.outcome, self.last_move()) else {
            return Vec::new();
        };
        let exact = self.rule.exact_for(c);
        let runs = self.runs_through(p, c);
        for (k, &(di, dj)) in self.directions().iter().enumerate() {
            if (exact && runs[k] == 5) || (!exact && runs[k] >= 5) {
                let mut start = p;
                while self.stone(Point::new(start.i - di, start.j - dj)) == Some(c) {
                    start = Point::new(start.i - di, start.j - dj);
                }
                return (0..runs[k] as i32)
                    .map(|t| Point::new(start.i + t * di, start.j + t * dj))
                    .collect();
            }
        }
        Vec::new()
    }

    /// The lengths of the rows of `color` through `p` in each of the
    /// board's [`directions`](FiveBoard::directions), counting `p` as
    /// `color`'s whatever it holds (the fourth 0 on the hexagon).
    pub fn runs_through(&self, p: Point, color: Color) -> [usize; 4] {
        let mut out = [0; 4];
        if !self.on_board(p) {
            return out;
        }
        let at = self.grid.index(p);
        for (n, &step) in out.iter_mut().zip(self.grid.steps()) {
            *n = self.grid.run(at, step, cell_of(color));
        }
        out
    }

    /// Whether Black may not play on `p` under renju: a double three, a
    /// double four or an overline that is not also an exact five. Always
    /// `false` under the other rules, and for points off the board or
    /// occupied.
    pub fn is_forbidden(&self, p: Point) -> bool {
        if self.rule != Rule::Renju || !self.is_empty(p) {
            return false;
        }
        let at = self.grid.index(p);
        if !renju::may_be_forbidden(&self.grid, at) {
            return false;
        }
        // The check places stones to look ahead (recursively for the
        // threes); it does so on a copy of the array, on the stack.
        let mut grid = self.grid.clone();
        renju::forbidden(&mut grid, at)
    }

    /// Whether the side to move may play on `p`.
    pub fn is_legal(&self, p: Point) -> bool {
        self.outcome.is_none()
            && self.is_empty(p)
            && !(self.to_move == Color::Black && self.is_forbidden(p))
            && !self.tournament_forbids(p)
    }

    /// The points the side to move may play, in reading order (none once
    /// the game is over).
    pub fn legal_moves(&self) -> impl Iterator<Item = Point> + '_ {
        self.points().filter(|&p| self.is_legal(p))
    }

    fn check_empty(&self, p: Point) -> Result<(), IllegalMove> {
        if !self.on_board(p) {
            Err(IllegalMove::OffBoard(p))
        } else if self.stone(p).is_some() {
            Err(IllegalMove::Occupied(p))
        } else {
            Ok(())
        }
    }
}

impl Position for FiveBoard {
    fn size(&self) -> usize {
        self.grid.size
    }

    fn stone(&self, p: Point) -> Option<Color> {
        if !self.grid.on_board(p) {
            return None;
        }
        match self.grid.cells[self.grid.index(p)] {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// On the square, its `size × size` points; on the hexagon, the
    /// array's cells on the hexagon.
    fn on_board(&self, p: Point) -> bool {
        self.grid.on_board(p)
    }
}

/// The board drawn as rows of `.`, `X` (Black) and `O` (White).
impl fmt::Debug for FiveBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "FiveBoard {}x{} {:?}, {:?} to move, outcome {:?}",
            self.grid.size, self.grid.size, self.rule, self.to_move, self.outcome
        )?;
        let n = self.grid.size as i32;
        for i in 0..n {
            let row: String = (0..n)
                .map(|j| match self.stone(Point::new(i, j)) {
                    _ if !self.grid.on_board(Point::new(i, j)) => ' ',
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}
