//! The tournament runner: katachi's playing strength as win rates, a
//! benchmark rather than a test (games take minutes, and a win rate is a
//! figure to watch, not a yes or no).
//!
//! ```text
//! cargo bench --bench games -- [--games N] [--opponent random|gnugo:LEVEL|gtp:COMMAND]
//!     [--db FILE] [--all-patterns] [--size N] [--komi K] [--cap MOVES]
//!     [--seed S] [--out DIR]
//! ```
//!
//! Plays N games (colours alternating) between katachi — on its builtin
//! database, or on `--db FILE` compiled at run time — and the opponent:
//! `random` (a random legal move that does not fill its own eye),
//! `gnugo:LEVEL` (`/usr/games/gnugo --mode gtp --level LEVEL
//! --chinese-rules --capture-all-dead`), or any GTP engine command line.
//! A progress bar shows the running score; every game is kept as SGF in
//! `--out` (default `target/games/<opponent>`), and a results table
//! (win rate overall and per colour, mean margin, seconds per move of each
//! side) is printed and written to `results.md` there. The work itself is
//! `katachi::tournament`, which any two players can use.

use std::path::PathBuf;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};
use katachi::go::evaluation::EvalOptions;
use katachi::go::movegen::PatternSet;
use katachi::go::search::SearchOptions;
use katachi::tournament::{run_match, GtpPlayer, Katachi, Player, RandomPlayer, Settings, Summary};

struct Args {
    games: usize,
    opponent: String,
    db: Option<String>,
    all_patterns: bool,
    search: SearchOptions,
    settings: Settings,
    seed: u64,
    out: Option<PathBuf>,
}

const USAGE: &str = "usage: cargo bench --bench games -- [--games N] \
[--opponent random|gnugo:LEVEL|gtp:COMMAND] [--db FILE] [--all-patterns] \
[--playouts N] [--prior-visits V] [--no-shapes] [--knowledge-visits N] [--no-widening] \
[--size N] [--komi K] [--cap MOVES] [--seed S] [--out DIR]";

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        games: 100,
        opponent: "random".into(),
        db: None,
        all_patterns: false,
        search: SearchOptions {
            playouts: 0,
            ..SearchOptions::default()
        },
        settings: Settings::default(),
        seed: 1,
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value\n{USAGE}"));
        let num = |s: String| s.parse::<u64>().map_err(|_| format!("not a number: {s}"));
        match arg.as_str() {
            // `cargo bench` passes `--bench` to every benchmark binary.
            "--bench" => {}
            "--games" => a.games = num(value("--games")?)? as usize,
            "--opponent" => a.opponent = value("--opponent")?,
            "--db" => a.db = Some(value("--db")?),
            "--all-patterns" => a.all_patterns = true,
            "--playouts" => a.search.playouts = num(value("--playouts")?)? as u32,
            "--prior-visits" => a.search.prior_visits = num(value("--prior-visits")?)? as f32,
            "--no-shapes" => a.search.shapes = false,
            "--no-widening" => a.search.widening = false,
            "--knowledge-visits" => {
                a.search.knowledge_visits = num(value("--knowledge-visits")?)? as u32
            }
            "--size" => a.settings.size = num(value("--size")?)? as usize,
            "--komi" => {
                let k = value("--komi")?;
                a.settings.komi = k.parse().map_err(|_| format!("not a number: {k}"))?;
            }
            "--cap" => a.settings.move_cap = num(value("--cap")?)? as usize,
            "--seed" => a.seed = num(value("--seed")?)?,
            "--out" => a.out = Some(PathBuf::from(value("--out")?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(a)
}

fn opponent(spec: &str) -> Result<Box<dyn Player>, String> {
    if spec == "random" {
        return Ok(Box::new(RandomPlayer::new()));
    }
    if let Some(level) = spec.strip_prefix("gnugo:") {
        let args: Vec<String> = [
            "--mode",
            "gtp",
            "--level",
            level,
            "--chinese-rules",
            "--capture-all-dead",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let name = format!("gnugo-{level}");
        return Ok(Box::new(GtpPlayer::spawn(
            &name,
            "/usr/games/gnugo",
            &args,
        )?));
    }
    if let Some(cmd) = spec.strip_prefix("gtp:") {
        let mut words = cmd.split_whitespace().map(str::to_string);
        let program = words.next().ok_or("gtp: needs a command")?;
        let args: Vec<String> = words.collect();
        return Ok(Box::new(GtpPlayer::spawn(cmd, &program, &args)?));
    }
    Err(format!("unknown opponent `{spec}`\n{USAGE}"))
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(2);
        }
    };
    if let Err(msg) = run(args) {
        eprintln!("games: {msg}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<(), String> {
    let (patterns, db_name) = match &args.db {
        None => (PatternSet::builtin(), "builtin".to_string()),
        Some(path) => {
            let set = PatternSet::load(path).map_err(|e| e.to_string())?;
            eprintln!(
                "{path}: {} patterns, {} warning(s) at load (helpers katachi lacks are valued as no helper)",
                set.tables().patterns.len(),
                set.warnings().len()
            );
            let name = std::path::Path::new(path)
                .parent()
                .and_then(|d| d.file_name())
                .map_or(path.clone(), |d| d.to_string_lossy().into_owned());
            (Arc::new(set), name)
        }
    };
    let search = (args.search.playouts > 0).then_some(args.search);
    let words = search.map(|s| search_words(&s)).unwrap_or_default();
    let me_name = if words.is_empty() {
        format!("katachi[{db_name}]")
    } else {
        format!("katachi[{db_name}, {}]", words.join(", "))
    };
    let mut me = Katachi::new(
        &me_name,
        patterns,
        EvalOptions {
            all_patterns: args.all_patterns,
        },
    )
    .with_search(search);
    let mut them = opponent(&args.opponent)?;
    let out = args.out.clone().unwrap_or_else(|| {
        let search: String = words
            .iter()
            .map(|w| format!("-{}", w.replace(' ', "")))
            .collect();
        let label = format!(
            "{}{search}-{}",
            db_name,
            args.opponent.replace([':', ' ', '/'], "_")
        );
        PathBuf::from("target/games").join(label)
    });
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} games, {msg}",
        )
        .map_err(|e| e.to_string())?,
    );
    bar.set_prefix(format!("{me_name} vs {}", them.name()));
    let mut wins = 0;
    let mut problems = Vec::new();
    let summary = run_match(
        &mut me,
        them.as_mut(),
        args.games,
        args.settings,
        args.seed,
        |k, r, a_color| {
            wins += usize::from(r.winner == a_color);
            let file = out.join(format!("game-{:03}.sgf", k + 1));
            if let Err(e) = std::fs::write(&file, &r.sgf) {
                problems.push(format!("{}: {e}", file.display()));
            }
            if let Some(e) = &r.error {
                problems.push(format!("game {}: {e}", k + 1));
            }
            bar.inc(1);
            bar.set_message(format!(
                "katachi won {wins} ({:.0}%), last {} in {} moves",
                100.0 * wins as f64 / (k + 1) as f64,
                r.result_text(),
                r.moves
            ));
        },
    );
    bar.finish();
    for p in &problems {
        eprintln!("{p}");
    }
    let table = results_table(&me_name, &them.name(), &args, &summary);
    println!("{table}");
    let md = out.join("results.md");
    std::fs::write(&md, &table).map_err(|e| format!("{}: {e}", md.display()))?;
    println!("SGF of every game and results.md in {}", out.display());
    Ok(())
}

/// How the search differs from plain pattern play, in words for the
/// player's name (and, without spaces, its folder).
fn search_words(s: &SearchOptions) -> Vec<String> {
    let d = SearchOptions::default();
    let mut w = vec![format!("{} playouts", s.playouts)];
    if s.prior_visits != d.prior_visits {
        w.push(format!("prior visits {}", s.prior_visits));
    }
    if !s.shapes {
        w.push("no shapes".into());
    }
    if s.knowledge_visits != d.knowledge_visits {
        w.push(format!("knowledge at {}", s.knowledge_visits));
    }
    if !s.widening {
        w.push("no widening".into());
    }
    w
}

fn results_table(me: &str, them: &str, args: &Args, s: &Summary) -> String {
    let pct = |w: usize, n: usize| {
        if n == 0 {
            "-".to_string()
        } else {
            format!("{w}/{n} ({:.0}%)", 100.0 * w as f64 / n as f64)
        }
    };
    let margin = if s.counted == 0 {
        0.0
    } else {
        s.a_margin / s.counted as f32
    };
    let mut t = String::new();
    t.push_str(&format!(
        "{}x{}, komi {}, area scoring (Tromp-Taylor), move cap {}, seeds {}..{}{}\n\n",
        args.settings.size,
        args.settings.size,
        args.settings.komi,
        args.settings.move_cap,
        args.seed,
        args.seed + args.games as u64,
        if args.all_patterns {
            ", all patterns"
        } else {
            ""
        }
    ));
    t.push_str("| player | opponent | games | wins | as black | as white | mean margin | katachi s/move (mean, worst game) | opponent s/move | capped | forfeits |\n");
    t.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    t.push_str(&format!(
        "| {me} | {them} | {} | {} | {} | {} | {margin:+.1} | {:.4}, {:.4} | {:.4} | {} | {} |\n",
        s.games,
        pct(s.a_wins, s.games),
        pct(s.a_black.0, s.a_black.1),
        pct(s.a_white.0, s.a_white.1),
        s.a_seconds_per_move(),
        s.a_slowest,
        s.b_seconds_per_move(),
        s.capped,
        s.forfeits,
    ));
    t
}
