//! Five in a row's rules at search speed: a move and its undo, renju's
//! forbidden-point check over a crowded board, the legal moves, and a
//! whole move of each baseline player, on 15x15 middle games played by
//! the greedy player.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use katachi::five::players::{greedy, pishquorky};
use katachi::five::{FiveBoard, Rule};
use katachi::position::Point;

/// A 15x15 middle game: the greedy player against itself for `moves`
/// moves, from a fixed opening.
fn middle_game(rule: Rule, moves: usize) -> FiveBoard {
    let mut b = FiveBoard::new(15, rule).unwrap();
    for p in [(7, 7), (7, 8), (8, 6), (6, 9), (9, 7)] {
        b.play(Point::new(p.0, p.1)).unwrap();
    }
    while b.moves().len() < moves {
        let Some(p) = greedy(&b) else { break };
        if b.play(p).unwrap().is_some() {
            b.undo();
            break;
        }
    }
    b
}

fn rules(c: &mut Criterion) {
    let mid = middle_game(Rule::Renju, 40);
    let empty: Vec<Point> = (0..15)
        .flat_map(|i| (0..15).map(move |j| Point::new(i, j)))
        .filter(|&p| mid.legal_moves().any(|q| q == p))
        .collect();
    let mut group = c.benchmark_group("five rules 15x15 renju");
    group.throughput(Throughput::Elements(empty.len() as u64));
    group.bench_function("play and undo every legal move", |bench| {
        let mut b = mid.clone();
        bench.iter(|| {
            for &p in &empty {
                black_box(b.play(p).unwrap());
                b.undo();
            }
        })
    });
    group.bench_function("is_forbidden on every legal move", |bench| {
        bench.iter(|| empty.iter().filter(|&&p| mid.is_forbidden(p)).count())
    });
    group.bench_function("legal_moves", |bench| {
        bench.iter(|| mid.legal_moves().count())
    });
    group.finish();
}

fn players(c: &mut Criterion) {
    let mid = middle_game(Rule::Freestyle, 20);
    let mut group = c.benchmark_group("five players 15x15");
    group.sample_size(10);
    group.bench_function("greedy", |bench| bench.iter(|| greedy(black_box(&mid))));
    group.bench_function("pishquorky (depth 3)", |bench| {
        bench.iter(|| pishquorky(black_box(&mid)))
    });
    group.finish();
}

criterion_group!(benches, rules, players);
criterion_main!(benches);
