//! GNU Go 3.8's fourteen tables, compiled in memory, each scanned over the
//! conformance corpus's 200 real-game positions: positions per second per
//! table, to set beside GNU Go 3.8's own matcher's figures in
//! `../shared/conformance/gnugo-3.8/README.md`, through the scan `katachi
//! match` uses (`Matcher::scan_unordered`). Skipped when the corpus
//! is absent. `cargo bench --bench gnugo38` (criterion's positions/s is
//! its `thrpt`, in elements/s); `-- TABLE` benches one table.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use katachi::matcher::Matcher;
use katachi::positions::parse_positions;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/conformance");

/// GNU Go's table names and their files.
const TABLES: [(&str, &[&str]); 14] = [
    ("patterns", &["patterns.db", "patterns2.db"]),
    ("attpat", &["attack.db"]),
    ("defpat", &["defense.db"]),
    ("conn", &["conn.db"]),
    ("endpat", &["endgame.db"]),
    ("influencepat", &["influence.db"]),
    ("barrierspat", &["barriers.db"]),
    ("aa_attackpat", &["aa_attackpats.db"]),
    ("owl_attackpat", &["owl_attackpats.db"]),
    ("owl_defendpat", &["owl_defendpats.db"]),
    ("owl_vital_apat", &["owl_vital_apats.db"]),
    ("fusekipat", &["fuseki.db"]),
    ("handipat", &["handicap.db"]),
    ("oracle", &["oracle.db"]),
];

fn benches(c: &mut Criterion) {
    let dir = Path::new(CORPUS);
    let Ok(bytes) = std::fs::read(dir.join("gnugo-2.6/positions_real.txt")) else {
        eprintln!("{CORPUS} is absent: no GNU Go 3.8 benchmark");
        return;
    };
    let positions = parse_positions("positions_real.txt", &bytes).expect("the corpus parses");
    let mut g = c.benchmark_group("gnugo-3.8 full scan, real positions");
    g.throughput(Throughput::Elements(positions.len() as u64));
    for (table, files) in TABLES {
        let read: Vec<(String, Vec<u8>)> = files
            .iter()
            .filter_map(|f| {
                Some((
                    f.to_string(),
                    std::fs::read(dir.join("gnugo-3.8").join(f)).ok()?,
                ))
            })
            .collect();
        if read.len() != files.len() {
            eprintln!("{table}: files missing, skipped");
            continue;
        }
        let refs: Vec<(&str, &[u8])> = read.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
        let set = mkpat::compile_many(
            &refs,
            &mkpat::Options {
                lenient: true,
                ..Default::default()
            },
        );
        let Some(db) = set.database else {
            eprintln!("{table}: does not compile, skipped");
            continue;
        };
        let matcher = Matcher::new(db.tables());
        // `katachi match`'s scan; its first call builds the key-stone
        // index, outside the timing.
        if let Some(p) = positions.first() {
            matcher.scan_unordered(&p.board, p.to_move, |_| {});
        }
        g.bench_function(table, |b| {
            b.iter(|| {
                let mut n = 0usize;
                for p in &positions {
                    matcher.scan_unordered(black_box(&p.board), p.to_move, |_| n += 1);
                }
                n
            })
        });
    }
    g.finish();
}

criterion_group!(gnugo38, benches);
criterion_main!(gnugo38);
