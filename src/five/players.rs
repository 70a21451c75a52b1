//! Two baseline players: functions from a position to a move for the side
//! to move, deterministic (no randomness), and `None` only when the game
//! is over or no move is legal.
//!
//! [`pishquorky`] is the seed's player (seed 001, "Pishquorky"), as its
//! author documents it:
//!
//! - the candidates are the empty points next to a stone (the eight
//!   neighbours; on a hexagonal board the six), or the centre on an
//!   empty board;
//! - plain minimax to depth 3: our move, their reply, our move; a line
//!   that ends the game (a win, or a full board) stops there;
//! - a leaf is scored by the rows through the last two moves played
//!   only. A row (the stones of one colour in a line through the move)
//!   counts when it is open at both ends (an empty point beyond each end;
//!   the board's edge closes a row), or is a four closed at one end, or is
//!   five or longer; it is worth its length, at most 5. Each of the two
//!   moves is worth its best counting row; the leaf's value is the larger
//!   of the two, positive when the side that made it is the root player;
//!   a tie goes to the earlier move's side, the side to move at the leaf,
//!   who extends first. A win scores ±5; nothing counting, or a draw, 0;
//! - each node hands its parent its value and how many leaves below it
//!   reach that value (the sum over its children that reach it). At the
//!   root, of the moves with the best value the player takes the one that
//!   reaches it most often when the value is not negative (more ways to
//!   the long row) and least often when it is (fewer ways for the
//!   opponent), then the first in reading order.
//!
//! Differences from the original: its board's border cells were empty
//! buttons, so a row against the edge counted as open there; here the
//! edge closes a row. A move that wins at once is played at once (by the
//! counts alone, a win two moves later reached by more lines could
//! outrank it). And it played freestyle only; here the rule's win
//! counts, and Black's forbidden points under renju are never
//! candidates.
//!
//! Both play on any [`FiveBoard`], square or hexagonal (its line
//! directions and neighbours).
//!
//! [`greedy`] looks one move ahead: it wins if it can, else blocks the
//! opponent's five, else takes a point where the opponent would make a
//! straight four (blocking an open three), else plays next to the stones
//! nearest the centre.

use super::rules::{FiveBoard, Outcome};
use mkpat::geometry::Geometry;

use crate::position::{Color, Point, Position, EIGHT_NEIGHBOURS};

/// How deep [`pishquorky`] looks: our move, their reply, our move.
pub const PISHQUORKY_DEPTH: u32 = 3;

/// The seed's player's move for the side to move (see the module doc).
pub fn pishquorky(board: &FiveBoard) -> Option<Point> {
    if board.outcome().is_some() {
        return None;
    }
    let me = board.to_move();
    let mut b = board.clone();
    let mut best: Option<(Point, Score)> = None;
    for p in candidates(&b) {
        match b.play(p) {
            Err(_) => continue,
            // A win now: the counts below would rank it level with, or
            // under, a win two moves later.
            Ok(Some(Outcome::Win(_))) => return Some(p),
            Ok(_) => {}
        }
        let s = minimax(&mut b, me, PISHQUORKY_DEPTH - 1);
        b.undo();
        let better = match best {
            None => true,
            Some((_, old)) => {
                s.value > old.value
                    || s.value == old.value
                        && if s.value >= 0 {
                            s.count > old.count
                        } else {
                            s.count < old.count
                        }
            }
        };
        if better {
            best = Some((p, s));
        }
    }
    // No candidate is legal (all forbidden for Black): any legal move.
    best.map(|(p, _)| p).or_else(|| board.legal_moves().next())
}

/// A node's value for the root player and how many leaves reach it.
#[derive(Clone, Copy, Debug)]
struct Score {
    value: i32,
    count: u64,
}

fn minimax(b: &mut FiveBoard, me: Color, depth: u32) -> Score {
    if b.outcome().is_some() || depth == 0 {
        return Score {
            value: leaf_value(b, me),
            count: 1,
        };
    }
    let maximise = b.to_move() == me;
    let mut best: Option<Score> = None;
    for p in candidates(b) {
        if b.play(p).is_err() {
            continue;
        }
        let s = minimax(b, me, depth - 1);
        b.undo();
        best = Some(match best {
            None => s,
            Some(old) if s.value == old.value => Score {
                value: old.value,
                count: old.count + s.count,
            },
            Some(old) if (s.value > old.value) == maximise => s,
            Some(old) => old,
        });
    }
    best.unwrap_or(Score {
        value: leaf_value(b, me),
        count: 1,
    })
}

/// The seed's evaluation of a position by its last two moves.
fn leaf_value(b: &FiveBoard, me: Color) -> i32 {
    let sign = |c: Color| if c == me { 1 } else { -1 };
    match b.outcome() {
        Some(Outcome::Win(c)) => return 5 * sign(c),
        Some(Outcome::Draw) => return 0,
        None => {}
    }
    let moves = b.moves();
    let worth = |k: usize| {
        moves
            .len()
            .checked_sub(k)
            .map(|n| moves[n])
            .and_then(|p| Some((b.stone(p)?, threat(b, p))))
    };
    match (worth(1), worth(2)) {
        (Some((last, a)), Some((_, e))) if a > e => a as i32 * sign(last),
        (_, Some((earlier, e))) if e > 0 => e as i32 * sign(earlier),
        (Some((last, a)), _) => a as i32 * sign(last),
        _ => 0,
    }
}

/// The longest counting row through the stone on `p` (0 if none counts).
fn threat(b: &FiveBoard, p: Point) -> usize {
    let Some(color) = b.stone(p) else { return 0 };
    b.directions()
        .iter()
        .map(|&d| {
            let r = row(b, p, d, color);
            let open = [r.before, r.after]
                .iter()
                .filter(|&&q| b.is_empty(q))
                .count();
            let counts = r.len >= 5 || open == 2 || (r.len == 4 && open == 1);
            if counts {
                r.len.min(5)
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// A row of one colour through a point along a direction: its length
/// (counting the point) and the points just beyond its ends.
struct Row {
    len: usize,
    before: Point,
    after: Point,
}

fn row(b: &FiveBoard, p: Point, d: (i32, i32), color: Color) -> Row {
    let step = |q: Point, s: i32| Point::new(q.i + s * d.0, q.j + s * d.1);
    let mut len = 1;
    let mut ends = [p, p];
    for (k, s) in [-1, 1].into_iter().enumerate() {
        let mut q = step(p, s);
        while b.stone(q) == Some(color) {
            len += 1;
            q = step(q, s);
        }
        ends[k] = q;
    }
    Row {
        len,
        before: ends[0],
        after: ends[1],
    }
}

/// The cells next to a cell: the eight neighbours on the square, the six
/// on the hexagon.
pub(super) fn neighbourhood(b: &FiveBoard) -> &'static [(i32, i32)] {
    match b.geometry() {
        Geometry::Square => &EIGHT_NEIGHBOURS,
        Geometry::Hexagon => Geometry::Hexagon.adjacent(),
    }
}

/// The legal empty points next to a stone ([`neighbourhood`]), in
/// reading order; the centre on an empty board.
pub(super) fn candidates(b: &FiveBoard) -> Vec<Point> {
    let n = b.size() as i32;
    if b.stone_count() == 0 {
        let centre = Point::new(n / 2, n / 2);
        return if b.is_legal(centre) {
            vec![centre]
        } else {
            Vec::new()
        };
    }
    let near = neighbourhood(b);
    b.points()
        .filter(|&p| {
            b.is_empty(p)
                && near
                    .iter()
                    .any(|&(di, dj)| b.stone(Point::new(p.i + di, p.j + dj)).is_some())
                && b.is_legal(p)
        })
        .collect()
}

/// The greedy player's move for the side to move (see the module doc).
/// Among equal choices it takes the point nearest the centre, then the
/// first in reading order.
pub fn greedy(board: &FiveBoard) -> Option<Point> {
    if board.outcome().is_some() {
        return None;
    }
    let me = board.to_move();
    let them = me.other();
    let n = board.size() as i32;
    let centre = Point::new(n / 2, n / 2);
    let mut legal: Vec<Point> = board.legal_moves().collect();
    legal.sort_by_key(|p| ((p.i - centre.i).pow(2) + (p.j - centre.j).pow(2), p.i, p.j));
    if let Some(&p) = legal.iter().find(|&&p| board.wins_at(p, me)) {
        return Some(p);
    }
    if let Some(&p) = legal.iter().find(|&&p| board.wins_at(p, them)) {
        return Some(p);
    }
    // Where would the opponent make a straight four (four in a row with a
    // winning point at each end)? Taking that point stops the three.
    let mut theirs = board.clone();
    theirs.set_to_move(them);
    let block = legal.iter().copied().find(|&p| {
        if theirs.play(p).is_err() {
            return false;
        }
        let straight = theirs.directions().iter().any(|&d| {
            let r = row(&theirs, p, d, them);
            r.len == 4 && theirs.wins_at(r.before, them) && theirs.wins_at(r.after, them)
        });
        theirs.undo();
        straight
    });
    if block.is_some() {
        return block;
    }
    let near = candidates(board);
    legal
        .iter()
        .copied()
        .find(|p| near.contains(p))
        .or_else(|| legal.first().copied())
}

#[cfg(test)]
mod tests {
    use super::super::tests::diagram;
    use super::*;
    use crate::five::Rule;

    /// The points where `color` would win.
    fn wins(b: &FiveBoard, color: Color) -> Vec<Point> {
        let n = b.size() as i32;
        (0..n)
            .flat_map(|i| (0..n).map(move |j| Point::new(i, j)))
            .filter(|&p| b.wins_at(p, color))
            .collect()
    }

    const WIN_IN_ONE: &str = "
        .........
        .........
        .........
        ..OOOO...
        .........
        ...XXXX..
        .........
        .........
        .........";

    #[test]
    fn both_players_win_in_one_rather_than_block() {
        for player in [pishquorky, greedy] {
            let (mut b, _) = diagram(Rule::Freestyle, WIN_IN_ONE);
            let p = player(&b).unwrap();
            assert_eq!(b.play(p), Ok(Some(Outcome::Win(Color::Black))), "{p:?}");
        }
        // With no threat against it, an open four still wins at once
        // rather than later.
        let calm = WIN_IN_ONE.replace("..OOOO...", "..O.O.O..");
        for player in [pishquorky, greedy] {
            let (mut b, _) = diagram(Rule::Freestyle, &calm);
            let p = player(&b).unwrap();
            assert_eq!(b.play(p), Ok(Some(Outcome::Win(Color::Black))), "{p:?}");
        }
    }

    #[test]
    fn both_players_block_a_five() {
        let four = "
            .........
            .........
            .........
            .........
            ..XOOOO..
            ..X......
            ...X.....
            .........
            .........";
        for player in [pishquorky, greedy] {
            let (b, _) = diagram(Rule::Exact, four);
            assert_eq!(player(&b), Some(Point::new(4, 7)));
        }
    }

    #[test]
    fn pishquorky_makes_an_open_four_from_an_open_three() {
        let three = "
            .........
            .........
            .........
            .........
            ...XXX...
            ..O......
            ...O.....
            .........
            .........";
        let (mut b, _) = diagram(Rule::Freestyle, three);
        let p = pishquorky(&b).unwrap();
        b.play(p).unwrap();
        assert!(wins(&b, Color::Black).len() >= 2, "{p:?}\n{b:?}");
    }

    #[test]
    fn greedy_blocks_an_open_three() {
        let three = "
            .........
            .........
            .........
            .........
            ...OOO...
            .........
            ...X.....
            .........
            .........";
        let (b, _) = diagram(Rule::Freestyle, three);
        let p = greedy(&b).unwrap();
        assert!([Point::new(4, 2), Point::new(4, 6)].contains(&p), "{p:?}");
        // A split three is stopped in its gap.
        let split = three.replace("...OOO...", "..OO.O...");
        let (b, _) = diagram(Rule::Freestyle, &split);
        assert_eq!(greedy(&b), Some(Point::new(4, 4)));
    }

    #[test]
    fn the_players_open_in_the_centre_and_play_next_to_stones() {
        let b = FiveBoard::new(15, Rule::Renju).unwrap();
        assert_eq!(pishquorky(&b), Some(Point::new(7, 7)));
        assert_eq!(greedy(&b), Some(Point::new(7, 7)));
        let (b, _) = diagram(
            Rule::Freestyle,
            "
            X.......
            ........
            ........
            ........
            ........
            ........
            ........
            .......O",
        );
        let p = greedy(&b).unwrap();
        assert_eq!(p, Point::new(6, 6));
        assert!(pishquorky(&b).is_some());
    }

    #[test]
    fn players_never_play_a_forbidden_point() {
        // Black's best-looking point is a double three.
        let (b, marks) = diagram(
            Rule::Renju,
            "
            .........
            .........
            .....X...
            .....X...
            ...XX*...
            .........
            .......O.
            .........
            ........O",
        );
        assert!(b.is_forbidden(marks[0]));
        for player in [pishquorky, greedy] {
            let p = player(&b).unwrap();
            assert!(b.is_legal(p), "{p:?}");
        }
    }

    #[test]
    fn games_between_the_players_are_played_to_their_end() {
        // Greedy against itself under every rule: only legal moves, to a
        // result.
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
            let mut b = FiveBoard::new(15, rule).unwrap();
            while b.outcome().is_none() {
                let p = greedy(&b).expect("a move while the game goes on");
                b.play(p).unwrap();
            }
        }
        // The seed's player against the greedy one for a few moves each.
        let mut b = FiveBoard::new(9, Rule::Renju).unwrap();
        for k in 0..12 {
            let player = if k % 2 == 0 { pishquorky } else { greedy };
            let p = player(&b).expect("a move");
            if b.play(p).unwrap().is_some() {
                break;
            }
        }
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let (mut b, _) = diagram(Rule::Freestyle, WIN_IN_ONE);
        b.play(Point::new(5, 7)).unwrap();
        assert_eq!(pishquorky(&b), None);
        assert_eq!(greedy(&b), None);
    }
}
