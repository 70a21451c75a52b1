//! GNU Go 3.x's matching semantics, against a plain model.
//!
//! For random databases in the 3.x dialect (every cell `. , ! * X Y O Q x
//! o ?`, every class letter including `O`, patterns with and without `*`,
//! north and west edges) on random boards, the matcher's lines `(pattern,
//! trans, move)` are exactly, as a multiset, those of the definition: for
//! each pattern and each transformation GNU Go tries for its declared
//! class (whatever symmetry the diagram really has), the transformed
//! diagram laid at every offset where each of its cells is on the board,
//! each edge side on the board's edge, and each cell accepts the point
//! under it; the move is the point under `*`, or under the diagram's
//! top-left cell when there is none (`katachi::reference::gnugo_lines`).
#![cfg(feature = "compiler")]

use katachi::board::Board;
use katachi::matcher::Matcher;
use katachi::position::Color;
use katachi::reference::{gnugo_lines, GnuGoLine as Line};
use proptest::prelude::*;

/// A diagram: rows of 3.x cells, at most one `*`, at least one stone.
fn diagram() -> impl Strategy<Value = Vec<String>> {
    (1usize..=3, 1usize..=4, any::<bool>()).prop_flat_map(|(rows, cols, star)| {
        let cell = prop::sample::select(vec!['.', ',', '!', 'X', 'Y', 'O', 'Q', 'x', 'o', '?']);
        (
            prop::collection::vec(cell, rows * cols),
            0..rows * cols,
            0..rows * cols,
            prop::sample::select(vec!['O', 'X', 'Q', 'Y']),
        )
            .prop_map(move |(mut cells, stone_at, star_at, stone)| {
                cells[stone_at] = stone;
                if star && star_at != stone_at {
                    cells[star_at] = '*';
                }
                cells
                    .chunks(cols)
                    .map(|r| r.iter().collect::<String>())
                    .collect()
            })
    })
}

fn database() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            diagram(),
            prop::sample::select(vec!['8', '|', '-', '\\', '/', 'X', '+', 'O']),
            any::<bool>(),
            any::<bool>(),
        ),
        1..5,
    )
    .prop_map(|patterns| {
        let mut s = String::from("attribute_map none\n\n");
        for (k, (rows, class, north, west)) in patterns.into_iter().enumerate() {
            s += &format!("Pattern P{k}\n\n");
            if north {
                s += &format!(
                    "{}{}\n",
                    if west { "+" } else { "" },
                    "-".repeat(rows[0].len())
                );
            }
            for r in &rows {
                s += &format!("{}{r}\n", if west { "|" } else { "" });
            }
            s += &format!("\n:{class},-\n\n");
        }
        s
    })
}

fn board() -> impl Strategy<Value = (Board, Color)> {
    (3usize..=8, 0u32..=80, any::<bool>(), any::<u64>()).prop_map(|(size, density, black, seed)| {
        let mut b = Board::new(size);
        let mut x = seed | 1;
        for p in b.points().collect::<Vec<_>>() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if (x % 100) < u64::from(density) {
                let c = if (x >> 32) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                b.place(p, c);
            }
        }
        (b, if black { Color::Black } else { Color::White })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_matcher_finds_gnu_go_s_lines(src in database(), (b, me) in board()) {
        let c = mkpat::compile(
            "random.db",
            src.as_bytes(),
            &mkpat::Options { lenient: true, ..Default::default() },
        );
        prop_assert!(c.is_ok(), "{}", c.render());
        prop_assert_eq!(c.dialect, mkpat::Dialect::GnuGo38);
        let db = c.database.as_ref().unwrap();
        let matcher = Matcher::new(db.tables());
        let mut found: Vec<Line> = matcher
            .matches(&b, me)
            .into_iter()
            .map(|m| (db.patterns[m.pattern as usize].name.to_string(), m.trans, m.move_point))
            .collect();
        found.sort();
        prop_assert_eq!(found, gnugo_lines(&c.checked, &b, me), "{}", src);
    }
}
