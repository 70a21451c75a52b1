//! The search in use: its first move from the empty board, and its
//! threads (deterministic for a seed, never an illegal move).

use katachi::go::evaluation::EvalOptions;
use katachi::go::movegen;
use katachi::go::search::{self, SearchOptions};
use katachi::go::{Game, Move};
use katachi::position::{Color, Point, Position};

fn options(playouts: u32, threads: usize) -> SearchOptions {
    SearchOptions {
        playouts,
        threads,
        resign_threshold: 0.0,
        ..SearchOptions::default()
    }
}

/// The line of a point, 1 on the edge.
fn line(p: Point, n: usize) -> i32 {
    let n = n as i32;
    1 + p.i.min(p.j).min(n - 1 - p.i).min(n - 1 - p.j)
}

#[test]
fn the_first_move_is_on_the_third_to_fifth_line() {
    for size in [9, 13, 19] {
        for colour in [Color::Black, Color::White] {
            for seed in 1..=2 {
                let mut g = Game::new(size);
                g.set_komi(7.5);
                g.seed(seed);
                g.set_search(Some(options(200, 1)));
                let Move::Play(p) = g.choose_move(colour) else {
                    panic!("{size}x{size}: a move from the empty board");
                };
                assert!(
                    (3..=5).contains(&line(p, size)),
                    "{size}x{size}, {colour:?}, seed {seed}: {p:?} is on line {}",
                    line(p, size)
                );
            }
        }
    }
}

/// A game of `moves` random legal moves from seed `seed` on `size`.
fn random_game(size: usize, moves: usize, seed: u64) -> Game {
    let mut g = Game::new(size);
    g.set_komi(7.5);
    g.seed(seed);
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut colour = Color::Black;
    for _ in 0..moves {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let empty: Vec<Point> = g
            .goban()
            .points()
            .filter(|&p| g.goban().stone(p).is_none())
            .collect();
        if empty.is_empty() {
            break;
        }
        let start = (x % empty.len() as u64) as usize;
        let played = (0..empty.len())
            .map(|k| empty[(start + k) % empty.len()])
            .any(|p| g.play(colour, Move::Play(p)).is_ok());
        if !played {
            g.play(colour, Move::Pass).unwrap();
        }
        colour = colour.other();
    }
    g
}

#[test]
fn one_thread_repeats_itself_and_several_threads_play_legal_moves() {
    for seed in 0..12u64 {
        let size = [7, 9, 13][seed as usize % 3];
        let g = random_game(size, 10 + 7 * seed as usize, seed);
        let colour = if g.history().len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let eval = movegen::evaluate(&g, colour, EvalOptions::default());
        let one = search::search(&g, colour, &eval, options(300, 1));
        assert_eq!(
            one,
            search::search(&g, colour, &eval, options(300, 1)),
            "seed {seed}: one thread is a function of the position and seed"
        );
        for threads in [2, 3] {
            let Some(r) = search::search(&g, colour, &eval, options(300, threads)) else {
                continue;
            };
            assert_eq!(r.playouts, 300, "seed {seed}: the playouts are shared");
            let visits: u32 = r.children.iter().map(|c| c.visits).sum();
            assert_eq!(visits, 300);
            let mut after = g.clone();
            assert!(
                after.play(colour, r.best).is_ok(),
                "seed {seed}, {threads} threads: {:?} is illegal",
                r.best
            );
            // With a fixed number of playouts, several threads repeat
            // themselves too.
            assert_eq!(
                Some(r),
                search::search(&g, colour, &eval, options(300, threads))
            );
        }
    }
}

#[test]
fn a_clock_budget_with_threads_still_plays_a_legal_move() {
    let g = random_game(9, 20, 4);
    let eval = movegen::evaluate(&g, Color::Black, EvalOptions::default());
    let opts = SearchOptions {
        time_budget: Some(std::time::Duration::from_millis(50)),
        ..options(100, 2)
    };
    let r = search::search(&g, Color::Black, &eval, opts).expect("moves exist");
    // Each thread stops at the deadline or at 100 times its playouts.
    assert!(r.playouts <= 2 * 100 * 100, "{}", r.playouts);
    assert!(g.clone().play(Color::Black, r.best).is_ok());
}
