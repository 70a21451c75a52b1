//! Search speed: playouts per second on 9x9 (from the empty board and
//! from a middle-game position, with and without the playout shapes),
//! and a whole `genmove` with the default 3000-playout search (pattern
//! evaluation included); and the search's playouts per second with one
//! and two threads (root parallelism) on 9x9 and 19x19.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use katachi::go::evaluation::EvalOptions;
use katachi::go::fastboard::FastBoard;
use katachi::go::playout::{Playout, Rng};
use katachi::go::search::SearchOptions;
use katachi::go::shapes::ShapeTable;
use katachi::go::{Game, Move};
use katachi::position::Color;

/// A 9x9 middle game: 24 moves of katachi's pattern engine.
fn middle_game() -> Game {
    let mut g = Game::new(9);
    g.set_komi(7.5);
    g.seed(3);
    let mut c = Color::Black;
    for _ in 0..24 {
        g.genmove(c);
        c = c.other();
    }
    g
}

fn fast_board(g: &Game) -> FastBoard {
    FastBoard::from_goban(g.goban(), Color::Black)
}

fn playouts(c: &mut Criterion) {
    let mid = middle_game();
    let mut group = c.benchmark_group("playouts 9x9");
    group.throughput(Throughput::Elements(100));
    for (name, start) in [
        ("empty", FastBoard::new(9)),
        ("middle game", fast_board(&mid)),
    ] {
        for (shapes, table) in [
            ("shapes", ShapeTable::builtin()),
            ("no shapes", ShapeTable::none()),
        ] {
            let mut playout = Playout::with_shapes(table);
            let mut rng = Rng::new(1);
            group.bench_function(format!("{name}, {shapes}"), |b| {
                b.iter(|| {
                    let mut sum = 0;
                    for _ in 0..100 {
                        let mut board = start.clone();
                        sum += playout.run(&mut board, 1, None, &mut rng);
                    }
                    black_box(sum)
                })
            });
        }
    }
    group.finish();
    let mut group = c.benchmark_group("genmove 9x9");
    group.sample_size(10);
    let opts = SearchOptions::default();
    group.bench_function(format!("middle game, {} playouts", opts.playouts), |b| {
        let mut g = mid.clone();
        g.set_eval_options(EvalOptions::default());
        g.set_search(Some(opts));
        b.iter(|| black_box(g.choose_move(Color::Black)))
    });
    group.bench_function("middle game, patterns only", |b| {
        let mut g = mid.clone();
        b.iter(|| black_box(g.choose_move(Color::Black)))
    });
    group.finish();
    let _ = Move::Pass;
}

/// Playouts per second of whole searches (4000 playouts shared by the
/// threads) at one and two threads: the speed-up of `--threads`.
fn threads(c: &mut Criterion) {
    use katachi::go::movegen;
    use katachi::go::search;
    let mid = middle_game();
    let mut big = Game::new(19);
    big.set_komi(7.5);
    big.seed(3);
    let mut colour = Color::Black;
    for _ in 0..30 {
        big.genmove(colour);
        colour = colour.other();
    }
    let mut group = c.benchmark_group("search threads");
    group.sample_size(10);
    const PLAYOUTS: u32 = 4000;
    group.throughput(Throughput::Elements(u64::from(PLAYOUTS)));
    for (name, game) in [("9x9 middle game", &mid), ("19x19 after 30 moves", &big)] {
        let eval = movegen::evaluate(game, Color::Black, EvalOptions::default());
        for threads in [1, 2] {
            let opts = SearchOptions {
                playouts: PLAYOUTS,
                threads,
                ..SearchOptions::default()
            };
            group.bench_function(format!("{name}, {threads} thread(s)"), |b| {
                b.iter(|| black_box(search::search(game, Color::Black, &eval, opts)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, playouts, threads);
criterion_main!(benches);
