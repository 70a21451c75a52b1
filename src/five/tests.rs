//! The rules on positions written down from their definitions, and the
//! fast renju check against a plain model on random positions.

use proptest::prelude::*;

use super::rules::{FiveBoard, IllegalMove, Outcome, Rule};
use crate::position::{Color, Point, Position};

/// A board from a diagram: one row a line (blank lines and leading spaces
/// skipped), `.` empty, `X` Black, `O` White, `*` an empty point of
/// interest (returned in reading order). The side is the number of rows;
/// the stones are set up, not played; Black is to move.
pub(super) fn diagram(rule: Rule, text: &str) -> (FiveBoard, Vec<Point>) {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut board = FiveBoard::new(rows.len(), rule).expect("a board side");
    let mut marks = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), rows.len(), "row {i} of a square diagram: {row}");
        for (j, c) in row.chars().enumerate() {
            let p = Point::new(i as i32, j as i32);
            match c {
                'X' => board.put(p, Color::Black).unwrap(),
                'O' => board.put(p, Color::White).unwrap(),
                '*' => marks.push(p),
                '.' => {}
                _ => panic!("`{c}` in a diagram"),
            }
        }
    }
    (board, marks)
}

/// The one marked point of a diagram.
fn marked(rule: Rule, text: &str) -> (FiveBoard, Point) {
    let (board, marks) = diagram(rule, text);
    assert_eq!(marks.len(), 1, "one `*` in {text}");
    (board, marks[0])
}

/// Whether the marked point is forbidden, checked by the fast rule and
/// by the model alike.
fn forbidden(text: &str) -> bool {
    let (board, p) = marked(Rule::Renju, text);
    let fast = board.is_forbidden(p);
    assert_eq!(
        fast,
        reference::forbidden(&board, p),
        "model disagrees:\n{text}"
    );
    fast
}

/// What Black's move on the marked point does under `rule`.
fn black_plays(rule: Rule, text: &str) -> Result<Option<Outcome>, IllegalMove> {
    let (mut board, p) = marked(rule, text);
    board.play(p)
}

const BLACK_WINS: Result<Option<Outcome>, IllegalMove> = Ok(Some(Outcome::Win(Color::Black)));

#[test]
fn five_wins_under_every_rule() {
    let five = "
        .......
        .......
        .XX*XX.
        .......
        .......
        .......
        .......";
    for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
        assert_eq!(black_plays(rule, five), BLACK_WINS, "{rule:?}");
    }
    // Along a diagonal, and against the edge.
    let diagonal = "
        X......
        .X.....
        ..*....
        ...X...
        ....X..
        .......
        .......";
    assert_eq!(black_plays(Rule::Renju, diagonal), BLACK_WINS);
    let edge = "
        ..X....
        ..X....
        ..X....
        ..X....
        ..*....
        .......
        .......";
    assert_eq!(black_plays(Rule::Exact, edge), BLACK_WINS);
    let four = "
        .......
        .......
        .XX*X..
        .......
        .......
        .......
        .......";
    assert_eq!(black_plays(Rule::Freestyle, four), Ok(None));
}

#[test]
fn an_overline_wins_only_under_freestyle() {
    let six = "
        ........
        ........
        .XX*XXX.
        ........
        ........
        ........
        ........
        ........";
    assert_eq!(black_plays(Rule::Freestyle, six), BLACK_WINS);
    assert_eq!(black_plays(Rule::Exact, six), Ok(None));
    assert!(forbidden(six));
    let (_, p) = marked(Rule::Renju, six);
    assert_eq!(
        black_plays(Rule::Renju, six),
        Err(IllegalMove::Forbidden(p))
    );
    // White's overline wins under renju (and exact five does not count it).
    let white = six.replace('X', "O");
    for (rule, won) in [(Rule::Renju, true), (Rule::Exact, false)] {
        let (mut board, p) = marked(rule, &white);
        board.set_to_move(Color::White);
        assert!(!board.is_forbidden(p));
        let expect = won.then_some(Outcome::Win(Color::White));
        assert_eq!(board.play(p), Ok(expect), "{rule:?}");
    }
}

#[test]
fn a_full_board_is_a_draw() {
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let points = |c: char| -> Vec<Point> {
        (0..5)
            .flat_map(|i| (0..5).map(move |j| Point::new(i, j)))
            .filter(|p| rows[p.i as usize].as_bytes()[p.j as usize] == c as u8)
            .collect()
    };
    let (black, white) = (points('X'), points('O'));
    let mut board = FiveBoard::new(5, Rule::Freestyle).unwrap();
    for k in 0..25 {
        let p = if k % 2 == 0 {
            black[k / 2]
        } else {
            white[k / 2]
        };
        let expect = (k == 24).then_some(Outcome::Draw);
        assert_eq!(board.play(p), Ok(expect), "move {k}");
    }
    assert_eq!(board.play(Point::new(0, 0)), Err(IllegalMove::GameOver));
    assert_eq!(board.legal_moves().count(), 0);
    board.undo();
    assert_eq!(board.outcome(), None);
    assert_eq!(board.legal_moves().count(), 1);
}

#[test]
fn moves_are_taken_back() {
    let mut board = FiveBoard::new(15, Rule::Renju).unwrap();
    let empty = board.clone();
    let moves = [(7, 7), (7, 8), (8, 8), (6, 6), (9, 9)].map(|(i, j)| Point::new(i, j));
    for &p in &moves {
        board.play(p).unwrap();
    }
    assert_eq!(board.moves(), moves);
    assert_eq!(board.to_move(), Color::White);
    assert_eq!(board.stone(Point::new(7, 8)), Some(Color::White));
    assert_eq!(board.play(moves[0]), Err(IllegalMove::Occupied(moves[0])));
    let off = Point::new(15, 0);
    assert_eq!(board.play(off), Err(IllegalMove::OffBoard(off)));
    while board.undo().is_some() {}
    assert_eq!(board, empty);
    assert!(FiveBoard::new(4, Rule::Exact).is_err());
    assert!(FiveBoard::new(27, Rule::Exact).is_err());
    assert!(FiveBoard::new(26, Rule::Exact).is_ok());
}

#[test]
fn renju_double_three_is_forbidden() {
    let double_three = "
        .........
        .........
        .....X...
        .....X...
        ...XX*...
        .........
        .........
        .........
        .........";
    assert!(forbidden(double_three));
    assert!(!FiveBoard::new(9, Rule::Freestyle)
        .unwrap()
        .is_forbidden(Point::new(4, 5)));
    let (mut board, p) = marked(Rule::Renju, double_three);
    assert_eq!(board.play(p), Err(IllegalMove::Forbidden(p)));
    assert!(!board.legal_moves().any(|q| q == p));
    // White may play there.
    board.set_to_move(Color::White);
    assert!(board.is_legal(p));
    // Split threes count: `X.X*` along the row, `X.*X` on the diagonal.
    assert!(forbidden(
        "
        .........
        .........
        ..X......
        .........
        .X.X*....
        .....X...
        .........
        .........
        ........."
    ));
}

#[test]
fn renju_a_false_three_does_not_count() {
    // The vertical three has one end blocked one point away: no straight
    // four can come of it.
    assert!(!forbidden(
        "
        .........
        .....O...
        .....X...
        .....X...
        ...XX*...
        .........
        .........
        .........
        ........."
    ));
    // The horizontal three's two straight-four points are each an
    // overline point for Black: forbidden, so the three is false.
    let false_three = "
        ...........
        ..X...X....
        ..X..XX....
        ..X..XX....
        ...XX*.....
        ..X...X....
        ..X...X....
        ...........
        ...........
        ...........
        ...........";
    assert!(!forbidden(false_three));
    // Without the column through one of those points it is a real three
    // again.
    assert!(forbidden(
        "
        ...........
        ..X........
        ..X..X.....
        ..X..X.....
        ...XX*.....
        ..X........
        ..X........
        ...........
        ...........
        ...........
        ..........."
    ));
    // `X..XX*..X`: either four in a row it can make has a Black stone
    // beyond an end (filling that end is an overline), so it is no three.
    assert!(!forbidden(
        "
        ..........
        ..........
        .....X....
        .....X....
        X..XX*..X.
        ..........
        ..........
        ..........
        ..........
        .........."
    ));
}

#[test]
fn renju_double_four_is_forbidden_also_on_one_line() {
    // Two lines.
    assert!(forbidden(
        "
        .........
        ....X....
        ....X....
        ....X....
        .XXX*....
        .........
        .........
        .........
        ........."
    ));
    // One line: X.XXX.X played in the middle, and XX.XX.XX.
    assert!(forbidden(
        "
        .........
        .........
        .........
        .........
        .X.X*X.X.
        .........
        .........
        .........
        ........."
    ));
    assert!(forbidden(
        "
        ..........
        ..........
        ..........
        ..........
        .XX.X*.XX.
        ..........
        ..........
        ..........
        ..........
        .........."
    ));
    // A straight four is one four.
    assert!(!forbidden(
        "
        .........
        .........
        .........
        .........
        ..XX*X...
        .........
        .........
        .........
        ........."
    ));
}

#[test]
fn renju_four_three_is_allowed_and_a_five_wins_over_everything() {
    let four_three = "
        .........
        .........
        ....X....
        ....X....
        .XXX*....
        .........
        .........
        .........
        .........";
    assert!(!forbidden(four_three));
    assert_eq!(black_plays(Rule::Renju, four_three), Ok(None));
    // The move makes five along the row and two more fours besides.
    let five_and_fours = "
        ..........
        .X..X.....
        ..X.X.....
        ...XX.....
        XXXX*.....
        ..........
        ..........
        ..........
        ..........
        ..........";
    assert!(!forbidden(five_and_fours));
    assert_eq!(black_plays(Rule::Renju, five_and_fours), BLACK_WINS);
    // A five and an overline at once: the five wins.
    let five_and_six = "
        ..........
        ....X.....
        ....X.....
        ....X.....
        XXXX*.....
        ....X.....
        ....X.....
        ..........
        ..........
        ..........";
    assert!(!forbidden(five_and_six));
    assert_eq!(black_plays(Rule::Renju, five_and_six), BLACK_WINS);
}

#[test]
fn renju_shapes_at_the_edge() {
    // The column's three stands against the edge and cannot become a
    // straight four: with one real three along the row the move is
    // allowed.
    assert!(!forbidden(
        "
        .XX*.....
        ...X.....
        ...X.....
        .........
        .........
        .........
        .........
        .........
        ........."
    ));
    // One point away from the edge it is a three: double three.
    assert!(forbidden(
        "
        .........
        .XX*.....
        ...X.....
        ...X.....
        .........
        .........
        .........
        .........
        ........."
    ));
    // A four closed by the edge is still a four: double four.
    assert!(forbidden(
        "
        XXX*.....
        ...X.....
        ...X.....
        ...X.....
        .........
        .........
        .........
        .........
        ........."
    ));
    // In the corner, on the diagonal.
    assert!(forbidden(
        "
        X........
        .X.......
        ..X......
        ...*XXX..
        .........
        .........
        .........
        .........
        ........."
    ));
}

/// A plain model of renju's forbidden points, written from the
/// definitions with whole-board copies and walks along lines: slow and
/// easy to read.
mod reference {
    use super::super::DIRECTIONS;
    use super::*;

    #[derive(Clone)]
    struct Stones {
        n: i32,
        cells: Vec<Option<Color>>,
    }

    impl Stones {
        fn on(&self, p: Point) -> bool {
            (0..self.n).contains(&p.i) && (0..self.n).contains(&p.j)
        }
        fn get(&self, p: Point) -> Option<Color> {
            if self.on(p) {
                self.cells[(p.i * self.n + p.j) as usize]
            } else {
                None
            }
        }
        fn with(&self, p: Point) -> Stones {
            let mut s = self.clone();
            s.cells[(p.i * self.n + p.j) as usize] = Some(Color::Black);
            s
        }
        fn empty(&self, p: Point) -> bool {
            self.on(p) && self.get(p).is_none()
        }
        /// The Black stones in a row through `p` along `d`, end to end.
        fn row(&self, p: Point, d: (i32, i32)) -> Vec<Point> {
            let step = |q: Point, s: i32| Point::new(q.i + s * d.0, q.j + s * d.1);
            let mut a = p;
            while self.get(step(a, -1)) == Some(Color::Black) {
                a = step(a, -1);
            }
            let mut row = vec![a];
            while self.get(step(*row.last().unwrap(), 1)) == Some(Color::Black) {
                row.push(step(*row.last().unwrap(), 1));
            }
            row
        }
        /// The empty points of the line through `p` along `d`.
        fn line(&self, p: Point, d: (i32, i32)) -> Vec<Point> {
            (-self.n..=self.n)
                .map(|k| Point::new(p.i + k * d.0, p.j + k * d.1))
                .filter(|&q| self.empty(q))
                .collect()
        }
    }

    pub(super) fn forbidden(board: &FiveBoard, p: Point) -> bool {
        let n = board.size() as i32;
        let stones = Stones {
            n,
            cells: (0..n * n)
                .map(|k| board.stone(Point::new(k / n, k % n)))
                .collect(),
        };
        stones.empty(p) && forbidden_in(&stones, p)
    }

    fn forbidden_in(s: &Stones, p: Point) -> bool {
        let b = s.with(p);
        let rows = DIRECTIONS.map(|d| b.row(p, d).len());
        if rows.contains(&5) {
            return false;
        }
        if rows.iter().any(|&r| r > 5) {
            return true;
        }
        let fours = DIRECTIONS.map(|d| fours(&b, p, d));
        if fours.iter().sum::<usize>() >= 2 {
            return true;
        }
        let threes = DIRECTIONS
            .iter()
            .zip(fours)
            .filter(|&(&d, f)| f == 0 && three(&b, p, d))
            .count();
        threes >= 2
    }

    /// Each point of the line that makes an exact five through `p`, with
    /// the four stones it completes.
    fn completions(b: &Stones, p: Point, d: (i32, i32)) -> Vec<(Point, Vec<Point>)> {
        b.line(p, d)
            .into_iter()
            .filter_map(|q| {
                let row = b.with(q).row(p, d);
                (row.len() == 5).then(|| (q, row.into_iter().filter(|&r| r != q).collect()))
            })
            .collect()
    }

    /// The number of different fours through `p`: different sets of four
    /// stones.
    fn fours(b: &Stones, p: Point, d: (i32, i32)) -> usize {
        let mut sets: Vec<Vec<Point>> = completions(b, p, d).into_iter().map(|c| c.1).collect();
        sets.sort();
        sets.dedup();
        sets.len()
    }

    /// Whether one more stone on the line makes a straight four through
    /// `p` (four in a row, both ends making a five) and is not forbidden.
    fn three(b: &Stones, p: Point, d: (i32, i32)) -> bool {
        b.line(p, d).into_iter().any(|q| {
            let c = b.with(q);
            let row = c.row(p, d);
            if row.len() != 4 {
                return false;
            }
            let first = Point::new(row[0].i - d.0, row[0].j - d.1);
            let last = Point::new(row[3].i + d.0, row[3].j + d.1);
            let ends: Vec<Point> = completions(&c, p, d).into_iter().map(|x| x.0).collect();
            ends.contains(&first) && ends.contains(&last) && !forbidden_in(b, q)
        })
    }
}

/// A random position: stones gathered in a square of `spread` points in
/// the middle of the board, mostly Black so that shapes form.
fn position() -> impl Strategy<Value = FiveBoard> {
    (prop_oneof![Just(7usize), Just(9), Just(15)], 4usize..10)
        .prop_flat_map(|(n, spread)| {
            let spread = spread.min(n);
            let lo = (n - spread) / 2;
            let stone = (lo..lo + spread, lo..lo + spread, prop::bool::weighted(0.7));
            (
                Just(n),
                prop::collection::vec(stone, 0..(spread * spread * 3 / 4)),
            )
        })
        .prop_map(|(n, stones)| {
            let mut board = FiveBoard::new(n, Rule::Renju).unwrap();
            for (i, j, black) in stones {
                let color = if black { Color::Black } else { Color::White };
                let _ = board.put(Point::new(i as i32, j as i32), color);
            }
            board
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_fast_renju_check_agrees_with_the_model(board in position()) {
        let n = board.size() as i32;
        for p in (0..n).flat_map(|i| (0..n).map(move |j| Point::new(i, j))) {
            prop_assert_eq!(
                board.is_forbidden(p),
                reference::forbidden(&board, p),
                "at {:?} in {:?}", p, board
            );
        }
    }
}

/// Whether `color`'s stone on `last` (on the board) makes a winning row:
/// a window of five of its stones through `last` anywhere on the board,
/// with, when `exact`, no stone of its colour just outside the window.
fn model_wins(board: &FiveBoard, last: Point, color: Color, exact: bool) -> bool {
    let n = board.size() as i32;
    let at = |i: i32, j: i32| board.stone(Point::new(i, j));
    super::DIRECTIONS.iter().any(|&(di, dj)| {
        (-4..=0).any(|k| {
            let start = (last.i + k * di, last.j + k * dj);
            let cells: Vec<Point> = (0..5)
                .map(|s| Point::new(start.0 + s * di, start.1 + s * dj))
                .collect();
            let inside = |p: &Point| (0..n).contains(&p.i) && (0..n).contains(&p.j);
            cells
                .iter()
                .all(|p| inside(p) && board.stone(*p) == Some(color))
                && !(exact
                    && (at(start.0 - di, start.1 - dj) == Some(color)
                        || at(start.0 + 5 * di, start.1 + 5 * dj) == Some(color)))
        })
    })
}

fn rule() -> impl Strategy<Value = Rule> {
    prop_oneof![Just(Rule::Freestyle), Just(Rule::Exact), Just(Rule::Renju)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Random games: every move's outcome is the model's, `legal_moves` is
    /// what `play` accepts, and undo takes the board back to where it was.
    #[test]
    fn games_follow_the_model_and_undo(
        rule in rule(),
        n in 5usize..=12,
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..150),
    ) {
        let mut board = FiveBoard::new(n, rule).unwrap();
        let mut history = vec![board.clone()];
        for pick in picks {
            let legal: Vec<Point> = board.legal_moves().collect();
            let empty = (0..n as i32)
                .flat_map(|i| (0..n as i32).map(move |j| Point::new(i, j)))
                .filter(|&p| board.is_empty(p));
            for p in empty {
                let mut trial = board.clone();
                prop_assert_eq!(trial.play(p).is_ok(), legal.contains(&p), "{:?} {:?}", p, board);
            }
            if legal.is_empty() {
                break;
            }
            let p = legal[pick.index(legal.len())];
            let color = board.to_move();
            let outcome = board.play(p).unwrap();
            let exact = rule == Rule::Exact || rule == Rule::Renju && color == Color::Black;
            let expect = if model_wins(&board, p, color, exact) {
                Some(Outcome::Win(color))
            } else if board.stone_count() == n * n {
                Some(Outcome::Draw)
            } else {
                None
            };
            prop_assert_eq!(outcome, expect, "{:?} by {:?} in {:?}", p, color, board);
            history.push(board.clone());
            if outcome.is_some() {
                break;
            }
        }
        while let Some(before) = history.pop() {
            prop_assert_eq!(&board, &before);
            board.undo();
        }
    }
}

/// `fives_through` by a plain model: `color`'s stone put on `s` (when
/// empty), then every empty point within four steps of `s` along each
/// line asked for the length of `color`'s row through it on that line
/// (`runs_through`, the rules board's other row counter).
fn model_fives(board: &FiveBoard, s: Point, color: Color) -> super::rules::Fives {
    let mut b = board.clone();
    if b.is_empty(s) {
        b.put(s, color).unwrap();
    }
    let exact = match board.rule() {
        Rule::Exact => true,
        Rule::Renju => color == Color::Black,
        _ => false,
    };
    let mut out = super::rules::Fives::default();
    for (d, &(di, dj)) in b.directions().iter().enumerate() {
        for k in (-4..=4).filter(|&k| k != 0) {
            let q = Point::new(s.i + di * k, s.j + dj * k);
            if !b.on_board(q) || !b.is_empty(q) {
                continue;
            }
            let n = b.runs_through(q, color)[d];
            if if exact { n == 5 } else { n >= 5 } {
                out.count += 1;
                out.on_line[d] += 1;
                out.first.get_or_insert(q);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The fives a stone makes possible, read straight from the padded
    /// array, are the plain model's at every point, for both colours,
    /// on square boards (to the edge) and on the hexagon; one line's
    /// count is that line's share.
    #[test]
    fn fives_through_agrees_with_the_model(
        rule in rule(),
        hexagon in prop::bool::weighted(0.25),
        n in 5usize..=13,
        stones in prop::collection::vec((any::<prop::sample::Index>(), prop::bool::weighted(0.6)), 0..90),
    ) {
        // The hexagon has no renju.
        let mut board = if hexagon && rule != Rule::Renju {
            FiveBoard::hexagon(9, rule).unwrap()
        } else {
            FiveBoard::new(n, rule).unwrap()
        };
        let points: Vec<Point> = board.points().collect();
        for (pick, black) in stones {
            let color = if black { Color::Black } else { Color::White };
            let _ = board.put(points[pick.index(points.len())], color);
        }
        for &s in &points {
            for color in [Color::Black, Color::White] {
                if board.stone(s) == Some(color.other()) {
                    continue;
                }
                let fives = board.fives_through(s, color);
                prop_assert_eq!(fives, model_fives(&board, s, color), "{:?} at {:?} in {:?}", color, s, board);
                for d in 0..board.directions().len() {
                    prop_assert_eq!(board.fives_on_line(s, color, d), fives.on_line[d]);
                }
            }
        }
    }
}
