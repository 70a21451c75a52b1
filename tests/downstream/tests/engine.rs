//! The engine plays five in a row's forced moves, and its helper decides
//! its shapes, through the tables its own build compiled.

use katachi::board::Board;
use katachi::{Color, Point};
use lines::{best_move, helpers, lines as line_db, shapes, values};

fn board(size: usize, black: &[(i32, i32)], white: &[(i32, i32)]) -> Board {
    let mut b = Board::new(size);
    for &(i, j) in black {
        b.place(Point::new(i, j), Color::Black);
    }
    for &(i, j) in white {
        b.place(Point::new(i, j), Color::White);
    }
    b
}

#[test]
fn the_generated_tables_are_the_databases() {
    // Five line patterns, each laid along the rows and the diagonals.
    let names: Vec<&str> = line_db::PATTERNS.iter().map(|p| &*p.name).collect();
    for name in [
        "five",
        "five-inside",
        "five-middle",
        "open-four",
        "open-three",
    ] {
        assert_eq!(names.iter().filter(|n| **n == name).count(), 2, "{name}");
    }
    assert_eq!(shapes::PATTERNS.len(), 1);
    assert_eq!(shapes::PATTERNS[0].helper.as_deref(), Some("room_for_five"));
    let registry: Vec<&str> = shapes::HELPERS.iter().map(|(n, _)| *n).collect();
    assert_eq!(registry, ["room_for_five"]);
    assert!(std::ptr::fn_addr_eq(
        shapes::HELPERS[0].1,
        helpers::room_for_five as lines::HelperFn
    ));
}

#[test]
fn completes_its_own_four_on_a_diagonal() {
    let b = board(15, &[(3, 3), (4, 4), (5, 5), (6, 6)], &[(2, 2), (9, 1)]);
    assert_eq!(best_move(&b, Color::Black), Some(Point::new(7, 7)));
}

#[test]
fn stops_the_opponents_four_when_it_has_none() {
    let b = board(15, &[(7, 1), (0, 14)], &[(7, 3), (7, 4), (7, 5), (7, 6)]);
    let m = best_move(&b, Color::Black);
    assert!(
        m == Some(Point::new(7, 2)) || m == Some(Point::new(7, 7)),
        "{m:?}"
    );
    // Both ends stop it; either is worth White's five to Black.
    let v = values(&b, Color::Black);
    assert_eq!(v[7 * 15 + 7], 9000);
}

#[test]
fn wins_rather_than_blocks() {
    let b = board(
        15,
        &[(0, 0), (0, 1), (0, 2), (0, 3)],
        &[(9, 3), (9, 4), (9, 5), (9, 6)],
    );
    // Either end wins; the first in reading order is played.
    assert_eq!(best_move(&b, Color::White), Some(Point::new(9, 2)));
    assert_eq!(best_move(&b, Color::Black), Some(Point::new(0, 4)));
}

#[test]
fn the_helper_values_two_with_room_and_rejects_two_without() {
    // Two in a row in open space: each end makes an open three (300) and
    // extends the two, which the helper accepts at the pattern's weight (40).
    let open = board(15, &[(7, 6), (7, 7)], &[]);
    let v = values(&open, Color::Black);
    assert_eq!((v[7 * 15 + 5], v[7 * 15 + 8]), (340, 340));
    // One point further only the helper's shape is missing: 0 there.
    assert_eq!(v[7 * 15 + 4], 0);
    // Hemmed in by White at columns 4 and 9: four points, no room for
    // five, so the helper rejects every extension along the row.
    let closed = board(15, &[(7, 6), (7, 7)], &[(7, 4), (7, 9)]);
    let v = values(&closed, Color::Black);
    assert_eq!((v[7 * 15 + 5], v[7 * 15 + 8]), (0, 0));
    // The same shape against the board's edge: columns 0..3 hold only four.
    let edge = board(15, &[(7, 1), (7, 2)], &[(7, 4)]);
    let v = values(&edge, Color::Black);
    assert_eq!((v[7 * 15], v[7 * 15 + 3]), (0, 0));
}

#[test]
fn an_empty_board_has_no_move() {
    assert_eq!(best_move(&Board::new(9), Color::Black), None);
}
