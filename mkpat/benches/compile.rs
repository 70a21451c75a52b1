//! Compiler benchmark: parse + check + expand of a database of 1000+
//! patterns, and code generation (quote + syn + prettyplease) timed apart.
//!
//! Databases: a synthetic seed-dialect one of 1200 random valid patterns
//! (generated here from a fixed seed), and GNU Go 2.6's own `patterns.db`
//! (read leniently) when `shared/conformance/gnugo-2.6/patterns.db` exists.
//! Target: parse + check + expand under 0.2 s in release.
//!
//! Run with `cargo bench -p mkpat --bench compile`.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use mkpat::codegen::{generate, CodegenOptions};
use mkpat::Options;

/// A small deterministic generator (xorshift64*), so that every run
/// benchmarks the same database.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` random valid seed patterns: 2..=7 by 2..=7 cells, one move, at
/// least one stone, an edge or corner on one pattern in four, wind on one
/// in five, all of class `8`.
fn synthetic(n: usize) -> String {
    const CELLS: &[u8] = b"??????....OXox";
    let mut rng = Rng(0x6b61_7461_6368_6921);
    let mut out = String::from("# Synthetic benchmark database.\n\n");
    for k in 1..=n {
        let rows = 2 + rng.below(6);
        let cols = 2 + rng.below(6);
        let mut cells: Vec<u8> = (0..rows * cols)
            .map(|_| CELLS[rng.below(CELLS.len())])
            .collect();
        let mv = rng.below(cells.len());
        let stone = (mv + 1 + rng.below(cells.len() - 1)) % cells.len();
        cells[mv] = b'*';
        cells[stone] = if rng.below(2) == 0 { b'O' } else { b'X' };
        let (north, west) = match rng.below(8) {
            0 => (true, false),
            1 => (false, true),
            2 => (true, true),
            _ => (false, false),
        };
        out.push_str(&format!("# pattern {k}\n\n"));
        if north {
            out.push_str(if west { "+" } else { "-" });
            out.push_str(&"-".repeat(cols - usize::from(!west)));
            out.push('\n');
        }
        for r in 0..rows {
            if west {
                out.push('|');
            }
            out.push_str(std::str::from_utf8(&cells[r * cols..(r + 1) * cols]).unwrap());
            if r == 0 {
                out.push_str("     synthetic pattern");
            }
            out.push('\n');
        }
        let wind = if rng.below(5) == 0 {
            "10,1,5,1"
        } else {
            "0,0,0,0"
        };
        let weight = 10 + rng.below(90);
        out.push_str(&format!(
            "\n:8,{weight},{wind},OX,{},NULL\n\n",
            2 * rng.below(3)
        ));
    }
    out
}

fn bench_database(c: &mut Criterion, label: &str, name: &str, bytes: &[u8], opts: &Options) {
    let compiled = mkpat::compile(name, bytes, opts);
    assert!(compiled.is_ok(), "{label}: {}", compiled.render());
    let db = compiled.database.as_ref().unwrap();
    eprintln!(
        "{label}: {} patterns, {} variants, {} elements, {} warning(s)",
        db.patterns.len(),
        db.variants.len(),
        db.elements.len(),
        compiled.warning_count()
    );

    let mut g = c.benchmark_group("parse+check+expand");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function(label, |b| {
        b.iter(|| mkpat::compile(name, black_box(bytes), opts))
    });
    g.finish();

    let mut g = c.benchmark_group("codegen+prettyplease");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let cg = CodegenOptions {
        input: name,
        dialect: compiled.dialect.name(),
        helpers: None,
        helper_fn_type: "crate::position::HelperFn",
        constraints: None,
    };
    g.bench_function(label, |b| {
        b.iter(|| generate(black_box(db), &compiled.checked, &cg))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let text = synthetic(1200);
    bench_database(
        c,
        "synthetic-1200",
        "synthetic.db",
        text.as_bytes(),
        &Options::default(),
    );

    let gnugo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance/gnugo-2.6/patterns.db");
    match std::fs::read(&gnugo) {
        Ok(bytes) => {
            let opts = Options {
                lenient: true,
                ..Options::default()
            };
            bench_database(c, "gnugo-2.6", "gnugo-2.6/patterns.db", &bytes, &opts);
        }
        Err(_) => eprintln!("{} not found: GNU Go 2.6 database skipped", gnugo.display()),
    }
}

criterion_group!(compile, benches);
criterion_main!(compile);
