//! Pente's rules on diagrams written from their definitions, and random
//! games against a plain model of the board (a grid of cells, captures
//! looked for in the eight directions, rows counted from scratch).

use proptest::prelude::*;

use super::pente::{tournament_forbids, CAPTURES_TO_WIN};
use super::rules::{FiveBoard, IllegalMove, Outcome, Rule};
use super::tests::diagram;
use crate::position::{Color, Point, Position};

/// Black's move on the one `*` of a Pente diagram: the board after it,
/// and the outcome.
fn black_plays(text: &str) -> (FiveBoard, Option<Outcome>) {
    let (mut board, marks) = diagram(Rule::Pente, text);
    assert_eq!(marks.len(), 1, "one `*` in {text}");
    let outcome = board.play(marks[0]).expect("legal");
    (board, outcome)
}

/// The White stones of a board, in reading order.
fn white_stones(board: &FiveBoard) -> Vec<Point> {
    board
        .points()
        .filter(|&p| board.stone(p) == Some(Color::White))
        .collect()
}

#[test]
fn a_pair_is_captured_along_each_direction_both_ways() {
    // Each diagram: Black's move brackets one White pair.
    let cases = [
        // along a row, the pair to the right and to the left
        ".......\n.......\n.......\n.*OOX..\n.......\n.......\n.......",
        ".......\n.......\n.......\n..XOO*.\n.......\n.......\n.......",
        // down a column, both ways
        ".......\n...*...\n...O...\n...O...\n...X...\n.......\n.......",
        ".......\n...X...\n...O...\n...O...\n...*...\n.......\n.......",
        // the diagonal, both ways
        "*......\n.O.....\n..O....\n...X...\n.......\n.......\n.......",
        ".......\n.......\n.......\n...X...\n....O..\n.....O.\n......*",
        // the other diagonal, both ways
        "......*\n.....O.\n....O..\n...X...\n.......\n.......\n.......",
        ".......\n.......\n.......\n...X...\n..O....\n.O.....\n*......",
    ];
    for text in cases {
        let (board, outcome) = black_plays(text);
        assert_eq!(outcome, None, "{text}");
        assert_eq!(board.captures(Color::Black), 1, "{text}");
        assert_eq!(board.last_captured().len(), 2, "{text}");
        assert!(white_stones(&board).is_empty(), "{text}");
        assert_eq!(board.stone_count(), 2, "{text}");
    }
}

#[test]
fn a_capture_at_the_edge_and_none_against_it() {
    // The capturing stone on the edge row.
    let (board, _) = black_plays("*OOX...\n.......\n.......\n.......\n.......\n.......\n.......");
    assert_eq!(board.captures(Color::Black), 1);
    // A pair against the edge has no bracket: the edge captures nothing.
    let (board, _) = black_plays("OO*....\n.......\n.......\n.......\n.......\n.......\n.......");
    assert_eq!(board.captures(Color::Black), 0);
    assert_eq!(white_stones(&board).len(), 2);
    // Into the corner along the diagonal.
    let (board, _) = black_plays(".......\n.......\n.......\n...X...\n....O..\n.....O.\n......*");
    assert_eq!(board.captures(Color::Black), 1);
}

#[test]
fn one_stone_or_three_are_not_captured() {
    let one = ".......\n.......\n.......\n.*OX...\n.......\n.......\n.......";
    let three = ".......\n.......\n.......\n*OOOX..\n.......\n.......\n.......";
    // A pair with a gap is not a pair either.
    let gap = ".......\n.......\n.......\n*OO.X..\n.......\n.......\n.......";
    // Nor two of ours, nor a mixed pair.
    let mixed = ".......\n.......\n.......\n*OXX...\n.......\n.......\n.......";
    for text in [one, three, gap, mixed] {
        let (before, _) = diagram(Rule::Pente, text);
        let (board, _) = black_plays(text);
        assert_eq!(board.captures(Color::Black), 0, "{text}");
        assert_eq!(white_stones(&board), white_stones(&before), "{text}");
    }
}

#[test]
fn playing_into_a_bracketed_gap_is_safe() {
    // White plays the gap of X O . X: its pair is bracketed, but only the
    // mover captures.
    let (mut board, marks) = diagram(
        Rule::Pente,
        ".......\n.......\n.......\n.XO*X..\n.......\n.......\n.......",
    );
    board.set_to_move(Color::White);
    board.play(marks[0]).unwrap();
    assert_eq!(board.captures(Color::Black), 0);
    assert_eq!(board.captures(Color::White), 0);
    assert_eq!(white_stones(&board).len(), 2);
    assert!(board.last_captured().is_empty());
}

#[test]
fn several_pairs_are_captured_at_once() {
    // Three pairs: along the row, the column and a diagonal.
    let text = "
        .........
        .........
        .........
        ...*OOX..
        ...OO....
        ...O.O...
        ...X..X..
        .........
        .........";
    let (board, outcome) = black_plays(text);
    assert_eq!(outcome, None);
    assert_eq!(board.captures(Color::Black), 3);
    assert_eq!(board.last_captured().len(), 6);
    assert!(white_stones(&board).is_empty());
}

#[test]
fn undo_puts_the_captured_stones_back() {
    let (mut board, marks) = diagram(
        Rule::Pente,
        ".......\n.......\n.......\n.*OOX..\n...O...\n...O...\n...X...",
    );
    let before = board.clone();
    board.play(marks[0]).unwrap();
    assert_eq!(board.captures(Color::Black), 1);
    board.undo();
    assert_eq!(board, before);
    assert_eq!(board.captures(Color::Black), 0);
}

/// Black captures one pair a move (White answering far away) until its
/// fifth: only the fifth wins.
#[test]
fn the_fifth_captured_pair_wins() {
    let mut board = FiveBoard::new(19, Rule::Pente).unwrap();
    // Five White pairs on separate rows, each bracketed on the left.
    for r in 0..5 {
        let i = 1 + 3 * r;
        board.put(Point::new(i, 2), Color::Black).unwrap();
        board.put(Point::new(i, 3), Color::White).unwrap();
        board.put(Point::new(i, 4), Color::White).unwrap();
    }
    for r in 0..5 {
        let i = 1 + 3 * r;
        let outcome = board.play(Point::new(i, 5)).unwrap();
        assert_eq!(board.captures(Color::Black), r as u8 + 1);
        if r + 1 < CAPTURES_TO_WIN as i32 {
            assert_eq!(outcome, None, "after {} pairs", r + 1);
            assert!(!board.wins_at(Point::new(i + 3, 6), Color::Black));
            board.play(Point::new(18, 2 * r)).unwrap();
        } else {
            assert_eq!(outcome, Some(Outcome::Win(Color::Black)));
        }
    }
    // The winning capture was known as a win before it was played.
    board.undo();
    assert!(board.wins_at(Point::new(13, 5), Color::Black));
}

#[test]
fn five_or_more_in_a_row_wins() {
    let (_, outcome) = black_plays(".......\n.......\n.XX*XX.\n.......\n.......\n.......\n.......");
    assert_eq!(outcome, Some(Outcome::Win(Color::Black)));
    let (_, outcome) = black_plays(
        "........\n........\n.XX*XXX.\n........\n........\n........\n........\n........",
    );
    assert_eq!(outcome, Some(Outcome::Win(Color::Black)));
}

#[test]
fn a_capture_breaks_an_open_four() {
    let text = "
        ..........
        ..........
        .....O....
        .....O....
        ...XOO*...
        .....O....
        ..........
        ..........
        ..........
        ..........";
    // White's straight four down column 5 (rows 2-5, open at 1 and 6).
    let (mut board, marks) = diagram(Rule::Pente, text);
    let white_five = [Point::new(1, 5), Point::new(6, 5)];
    board.set_to_move(Color::White);
    for &p in &white_five {
        assert!(board.wins_at(p, Color::White), "{p:?}");
    }
    board.set_to_move(Color::Black);
    // Black's * brackets O O at (4,4),(4,5) with X at (4,3): takes (4,5),
    // a stone of the four.
    board.play(marks[0]).unwrap();
    assert_eq!(board.captures(Color::Black), 1);
    assert_eq!(board.stone(Point::new(4, 5)), None);
    for &p in &white_five {
        assert!(!board.wins_at(p, Color::White), "{p:?} after the capture");
    }
}

#[test]
fn the_tournament_rule() {
    let mut board = FiveBoard::new(19, Rule::Pente).unwrap();
    let centre = Point::new(9, 9);
    let off = Point::new(3, 3);
    assert!(!board.is_legal(off));
    assert_eq!(board.play(off), Err(IllegalMove::Tournament(off)));
    assert_eq!(board.legal_moves().collect::<Vec<_>>(), vec![centre]);
    board.play(centre).unwrap();
    // White's first stone anywhere, next to the centre too.
    board.play(Point::new(10, 10)).unwrap();
    // Black's second: not within the central 5x5.
    for p in [Point::new(7, 7), Point::new(11, 11), Point::new(9, 11)] {
        assert_eq!(board.play(p), Err(IllegalMove::Tournament(p)), "{p:?}");
    }
    assert_eq!(board.legal_moves().count(), 19 * 19 - 25);
    board.play(Point::new(9, 12)).unwrap();
    // From then on anything goes, inside the square too.
    board.play(Point::new(8, 8)).unwrap();
    board.play(Point::new(8, 9)).unwrap();
    // Set-up positions are not games from the empty board.
    let (board, _) = diagram(
        Rule::Pente,
        ".......\n.......\n.......\n...X...\n.......\n.......\n.......",
    );
    assert!(board.is_legal(Point::new(0, 0)));
    // The rule is Pente's only.
    assert!(FiveBoard::new(19, Rule::Freestyle).unwrap().is_legal(off));
    assert!(tournament_forbids(19, 0, off));
    assert!(!tournament_forbids(19, 1, off));
}

/// A plain model of Pente: a grid, the eight directions, rows counted
/// from scratch.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Model {
    n: i32,
    cells: Vec<Option<Color>>,
    captures: [u8; 2],
    moves: usize,
    to_move: Color,
    winner: Option<Color>,
}

impl Model {
    fn new(n: usize) -> Model {
        Model {
            n: n as i32,
            cells: vec![None; n * n],
            captures: [0; 2],
            moves: 0,
            to_move: Color::Black,
            winner: None,
        }
    }

    fn at(&self, i: i32, j: i32) -> Option<Color> {
        if (0..self.n).contains(&i) && (0..self.n).contains(&j) {
            self.cells[(i * self.n + j) as usize]
        } else {
            None
        }
    }

    fn legal(&self, p: Point) -> bool {
        let c = self.n / 2;
        self.winner.is_none()
            && self.at(p.i, p.j).is_none()
            && match self.moves {
                0 => p == Point::new(c, c),
                2 => (p.i - c).abs() > 2 || (p.j - c).abs() > 2,
                _ => true,
            }
    }

    fn play(&mut self, p: Point) {
        let me = self.to_move;
        let them = me.other();
        self.cells[(p.i * self.n + p.j) as usize] = Some(me);
        for di in -1..=1 {
            for dj in -1..=1 {
                if (di, dj) == (0, 0) {
                    continue;
                }
                let q = |k: i32| (p.i + k * di, p.j + k * dj);
                let (a, b, c) = (q(1), q(2), q(3));
                if self.at(a.0, a.1) == Some(them)
                    && self.at(b.0, b.1) == Some(them)
                    && self.at(c.0, c.1) == Some(me)
                {
                    self.cells[(a.0 * self.n + a.1) as usize] = None;
                    self.cells[(b.0 * self.n + b.1) as usize] = None;
                    self.captures[me as usize] += 1;
                }
            }
        }
        let five = [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(di, dj)| {
            let run = |s: i32| {
                (1..)
                    .take_while(|&k| self.at(p.i + s * k * di, p.j + s * k * dj) == Some(me))
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        });
        if five || self.captures[me as usize] >= 5 {
            self.winner = Some(me);
        }
        self.moves += 1;
        self.to_move = them;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Random games (moves drawn near the stones, where captures happen):
    /// legality, stones, capture counts and the winner are the model's
    /// after every move, and undo takes the board back.
    #[test]
    fn games_follow_the_model_and_undo(
        n in 7usize..=11,
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..120),
    ) {
        let mut board = FiveBoard::new(n, Rule::Pente).unwrap();
        let mut model = Model::new(n);
        let mut history = vec![board.clone()];
        for pick in picks {
            let legal: Vec<Point> = board.points().filter(|&p| model.legal(p)).collect();
            prop_assert_eq!(&board.legal_moves().collect::<Vec<_>>(), &legal);
            if legal.is_empty() {
                break;
            }
            let p = legal[pick.index(legal.len())];
            let wins = board.wins_at(p, board.to_move());
            let outcome = board.play(p).unwrap();
            model.play(p);
            for q in board.points() {
                prop_assert_eq!(board.stone(q), model.at(q.i, q.j), "{:?} after {:?}", q, p);
            }
            for c in [Color::Black, Color::White] {
                prop_assert_eq!(board.captures(c), model.captures[c as usize]);
            }
            let won = model.winner.map(Outcome::Win);
            // A full board with no winner is a draw (the rules' word for
            // a game that cannot go on; the model only keeps winners).
            let full = model.cells.iter().all(|c| c.is_some());
            let expected = won.or(full.then_some(Outcome::Draw));
            prop_assert_eq!(outcome, expected);
            prop_assert_eq!(wins, won.is_some());
            prop_assert_eq!(
                board.stone_count(),
                model.cells.iter().filter(|c| c.is_some()).count()
            );
            history.push(board.clone());
        }
        history.pop();
        while let Some(before) = history.pop() {
            board.undo().unwrap();
            prop_assert_eq!(&board, &before);
        }
    }
}
