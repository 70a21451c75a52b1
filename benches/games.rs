//! The tournament runner as a benchmark: katachi's playing strength as
//! win rates and ratings, a benchmark rather than a test (games take
//! minutes, and a win rate is a figure to watch, not a yes or no).
//!
//! ```text
//! cargo bench --bench games -- [--games N] [--opponent random|gnugo:LEVEL|gtp:COMMAND]
//!     [--db FILE] [--all-patterns] [--playouts N …] [--size N] [--komi K] [--cap MOVES]
//!     [--opening-moves M] [--seed S] [--out DIR]
//! ```
//!
//! Plays N games between katachi — on its builtin database, or on `--db
//! FILE` compiled at run time, with the search's options — and the
//! opponent: `random` (a random legal move that does not fill its own
//! eye), `gnugo:LEVEL` (`/usr/games/gnugo --mode gtp --level LEVEL
//! --chinese-rules --capture-all-dead`), or any GTP engine command line.
//! It is `katachi tournament` with two players ([`katachi::tournament::runner`]):
//! N/2 openings (of `--opening-moves` random moves, 0 by default: the
//! engines' seeds vary the games), each played with both colours, every
//! game kept as SGF in `--out` (default `target/games/<player>-<opponent>`)
//! with the ledger and the standings, which are printed at the end. Run
//! it again with the same arguments to resume.

use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use katachi::go::search::SearchOptions;
use katachi::tournament::ratings::Fit;
use katachi::tournament::runner::{self, Config, Game, PlayerKind, PlayerSpec, Progress};
use katachi::tournament::schedule::Format;
use katachi::tournament::Settings;

struct Args {
    games: usize,
    opponent: String,
    db: Option<String>,
    all_patterns: bool,
    search: SearchOptions,
    settings: Settings,
    opening_moves: usize,
    seed: u64,
    out: Option<PathBuf>,
}

const USAGE: &str = "usage: cargo bench --bench games -- [--games N] \
[--opponent random|gnugo:LEVEL|gtp:COMMAND] [--db FILE] [--all-patterns] \
[--playouts N] [--prior-visits V] [--no-shapes] [--knowledge-visits N] [--no-widening] [--no-corners] [--tree-priors] [--no-predictor] [--no-ladders] [--fill-board] [--last-good-reply] [--nakade] [--dynamic-komi] [--score-weight W] \
[--size N] [--komi K] [--cap MOVES] [--opening-moves M] [--seed S] [--out DIR]";

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
        opening_moves: 0,
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
            "--no-corners" => a.search.corners = false,
            "--tree-priors" => a.search.tree_priors = true,
            "--no-predictor" => a.search.predictor = None,
            "--no-ladders" => a.search.ladders = false,
            "--last-good-reply" => a.search.last_good_reply = true,
            "--fill-board" => a.search.fill_board = true,
            "--nakade" => a.search.nakade = true,
            "--dynamic-komi" => a.search.dynamic_komi = true,
            "--score-weight" => a.search.score_weight = num(value("--score-weight")?)? as f32,
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
            "--opening-moves" => a.opening_moves = num(value("--opening-moves")?)? as usize,
            "--out" => a.out = Some(PathBuf::from(value("--out")?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
        }
    }
    Ok(a)
}

/// The opponent's player spec.
fn opponent(spec: &str) -> Result<PlayerSpec, String> {
    let kind = if spec == "random" {
        PlayerKind::Random
    } else if let Some(level) = spec.strip_prefix("gnugo:") {
        PlayerKind::Gtp(
            [
                "/usr/games/gnugo",
                "--mode",
                "gtp",
                "--level",
                level,
                "--chinese-rules",
                "--capture-all-dead",
            ]
            .map(String::from)
            .into(),
        )
    } else if let Some(cmd) = spec.strip_prefix("gtp:") {
        let words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        if words.is_empty() {
            return Err("gtp: needs a command".into());
        }
        PlayerKind::Gtp(words)
    } else {
        return Err(format!("unknown opponent `{spec}`\n{USAGE}"));
    };
    let name = match spec.strip_prefix("gnugo:") {
        Some(level) => format!("gnugo-{level}"),
        None => spec.replace(['/', ' '], "_"),
    };
    Ok(PlayerSpec { name, kind })
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
    let db_name = match &args.db {
        None => "builtin".to_string(),
        Some(path) => std::path::Path::new(path)
            .parent()
            .and_then(|d| d.file_name())
            .map_or(path.clone(), |d| d.to_string_lossy().into_owned()),
    };
    let search = (args.search.playouts > 0).then_some(args.search);
    let words = search.map(|s| search_words(&s)).unwrap_or_default();
    let me_name = if words.is_empty() {
        format!("katachi[{db_name}]")
    } else {
        format!("katachi[{db_name}, {}]", words.join(", "))
    };
    let me = PlayerSpec {
        name: me_name.clone(),
        kind: PlayerKind::Katachi {
            search,
            db: args.db.clone(),
            all_patterns: args.all_patterns,
            personality: None,
        },
    };
    let them = opponent(&args.opponent)?;
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
    let config = Config {
        game: Game::Go,
        players: vec![me, them.clone()],
        format: Format::RoundRobin,
        openings: args.games.div_ceil(2),
        openings_file: None,
        opening_moves: args.opening_moves,
        seed: args.seed,
        settings: args.settings,
        time_odds: Vec::new(),
        out: out.clone(),
        shard: None,
        fit: Fit::default(),
    };
    let bar = ProgressBar::new(config.openings as u64 * 2);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} games, {msg}",
        )
        .map_err(|e| e.to_string())?,
    );
    bar.set_prefix(format!("{me_name} vs {}", them.name));
    let standings = runner::run(&config, |p| match p {
        Progress::Start {
            to_play,
            done_before,
        } => {
            bar.set_length((to_play + done_before) as u64);
            bar.set_position(done_before as u64);
        }
        Progress::Game {
            line, standings, ..
        } => {
            bar.inc(1);
            let me = standings.players.iter().find(|s| s.player == me_name);
            if let Some(me) = me {
                bar.set_message(format!(
                    "katachi won {}/{}; last: {line}",
                    me.wins, me.games
                ));
            }
        }
        Progress::Note(text) => bar.println(text),
    })?;
    bar.finish();
    println!("{}", standings.markdown());
    println!(
        "SGF of every game, the ledger and standings.{{md,csv,json}} in {}",
        out.display()
    );
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
    if s.tree_priors {
        w.push("tree priors".into());
    }
    if s.predictor.is_none() {
        w.push("no move predictor".into());
    }
    w
}
