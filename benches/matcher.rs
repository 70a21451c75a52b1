//! Matcher throughput: full scans of the builtin database and of GNU Go
//! 2.6's (compiled in memory) over the real-game positions (and, for GNU
//! Go's, the random ones), the re-scan after one move (place a stone,
//! update the merged board incrementally, re-match what covers it), and
//! the index build; and the hexagonal database on the 217-cell contest
//! board (full scan and one-move re-scan). The GNU Go benches are skipped when `/work/shared`
//! (the conformance corpus) is absent.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use katachi::board::Board;
use katachi::matcher::Matcher;
use katachi::mkpat::geometry::{Hexagon, Shape};
use katachi::position::{Color, Point, Position};
use katachi::positions::{parse_positions, PositionRecord};

const CORPUS: &str = "/work/shared/conformance/gnugo-2.6";

fn corpus_positions(which: &str) -> Option<Vec<PositionRecord>> {
    let path = Path::new(CORPUS).join(format!("positions_{which}.txt"));
    let bytes = std::fs::read(&path).ok()?;
    parse_positions(&path.display().to_string(), &bytes).ok()
}

fn full_scan<G: Shape>(
    c: &mut Criterion,
    name: &str,
    matcher: &Matcher<'_, G>,
    positions: &[(Board<G>, Color)],
) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("full scan", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (board, to_move) in positions {
                matcher.scan(black_box(board), *to_move, |_| n += 1);
            }
            n
        })
    });
    g.bench_function("full scan, key-stone index", |b| {
        // The first call builds the key-stone index, outside the timing.
        if let Some((board, to_move)) = positions.first() {
            matcher.scan_unordered(board, *to_move, |_| {});
        }
        b.iter(|| {
            let mut n = 0usize;
            for (board, to_move) in positions {
                matcher.scan_unordered(black_box(board), *to_move, |_| n += 1);
            }
            n
        })
    });
    // One move per position: the first empty point from the centre; the
    // stone is placed, the region within reach re-matched, then removed.
    let moves: Vec<Point> = positions
        .iter()
        .map(|(board, _)| {
            let n = board.size() as i32;
            let c = Point::new(n / 2, n / 2);
            board
                .points()
                .filter(|&q| board.is_empty(q))
                .min_by_key(|q| (q.i - c.i).abs() + (q.j - c.j).abs())
                .unwrap_or(c)
        })
        .collect();
    let mut boards: Vec<_> = positions.to_vec();
    g.bench_function("place one stone + rescan near it", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for ((board, to_move), &mv) in boards.iter_mut().zip(&moves) {
                board.place(mv, *to_move);
                matcher.scan_near(black_box(board), to_move.other(), mv, |_| n += 1);
                board.remove(mv);
            }
            n
        })
    });
    g.finish();
}

/// `board` with about a third of its points taken, black and white alike,
/// from the xorshift stream `x`.
fn scatter<G: Shape>(mut board: Board<G>, x: &mut u64) -> Board<G> {
    for p in board.points().collect::<Vec<_>>() {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        match *x % 6 {
            0 => drop(board.place(p, Color::Black)),
            1 => drop(board.place(p, Color::White)),
            _ => {}
        }
    }
    board
}

/// Stand-in positions when the corpus is absent: 19x19 boards with about
/// a third of the points taken, from a fixed xorshift stream.
fn synthetic_positions() -> Vec<PositionRecord> {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..100)
        .map(|k| {
            let board = scatter(katachi::board::Board::new(19), &mut x);
            let to_move = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            PositionRecord {
                to_move,
                board,
                line: 0,
            }
        })
        .collect()
}

/// Boards and colours to move, as `full_scan` takes them.
fn pairs(positions: &[PositionRecord]) -> Vec<(Board, Color)> {
    positions
        .iter()
        .map(|p| (p.board.clone(), p.to_move))
        .collect()
}

/// The hexagonal database (`patterns/hexagon.db`, static tables) on 100
/// contest boards (217 cells) with about a third of the cells taken, from
/// a fixed xorshift stream.
fn hexagon(c: &mut Criterion) {
    mod hexagon_db {
        #![allow(clippy::all, dead_code)]
        include!(concat!(env!("OUT_DIR"), "/hexagon.rs"));
    }
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let boards: Vec<(Board<Hexagon>, Color)> = (0..100)
        .map(|k| {
            let board = scatter(Board::hexagon(katachi::hexagon::CONTEST_SIDE), &mut x);
            let to_move = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            (board, to_move)
        })
        .collect();
    let matcher = Matcher::new(hexagon_db::TABLES);
    full_scan(c, "hexagon db, 217-cell boards", &matcher, &boards);
}

fn benches(c: &mut Criterion) {
    hexagon(c);
    let corpus = corpus_positions("real");
    let builtin = Matcher::new(katachi::go::builtin::TABLES);
    let Some(positions) = corpus else {
        eprintln!("{CORPUS} is absent: benching the builtin db on synthetic positions, skipping GNU Go 2.6's");
        full_scan(
            c,
            "builtin db (synthetic positions)",
            &builtin,
            &pairs(&synthetic_positions()),
        );
        return;
    };
    full_scan(c, "builtin db", &builtin, &pairs(&positions));
    let db_path = Path::new(CORPUS).join("patterns.db");
    if let Ok(bytes) = std::fs::read(&db_path) {
        let compiled = mkpat::compile(
            &db_path.display().to_string(),
            &bytes,
            &mkpat::Options {
                lenient: true,
                ..Default::default()
            },
        );
        if let Some(db) = compiled.database.as_ref() {
            let matcher = Matcher::new(db.tables());
            full_scan(c, "gnugo-2.6 db", &matcher, &pairs(&positions));
            if let Some(random) = corpus_positions("random") {
                full_scan(
                    c,
                    "gnugo-2.6 db, random positions",
                    &matcher,
                    &pairs(&random),
                );
            }
            let mut g = c.benchmark_group("gnugo-2.6 db");
            g.sample_size(10);
            g.bench_function("build the index", |b| {
                b.iter(|| Matcher::new(black_box(db.tables())))
            });
            g.finish();
        }
    }
}

criterion_group!(matcher, benches);
criterion_main!(matcher);
