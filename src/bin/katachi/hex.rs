//! `katachi hex`: the hexagonal contest of seed 003 (`katachi::contest`):
//! `judge` plays two teams through the file protocol, `player` is
//! katachi's team, `show` draws a board.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use katachi::contest::judge::{random_opening, Judge, Started};
use katachi::contest::log::{parse_log, Ending};
use katachi::contest::picture::Picture;
use katachi::contest::player::{HexEngine, PlayerOptions};
use katachi::contest::protocol::parse_state;

/// `katachi hex`'s subcommands.
#[derive(clap::Args, Debug)]
pub(crate) struct HexArgs {
    #[command(subcommand)]
    command: HexCommand,
}

#[derive(clap::Subcommand, Debug)]
enum HexCommand {
    /// Judge two teams through the file protocol: both orders, a log each.
    ///
    /// Writes state_TEAM.txt for the team to move and waits for its
    /// move_TEAM.txt; a team loses at once when late, on a cell outside
    /// 0-216 or taken, with a malformed move file, or when its state file
    /// was changed. Writes game-log-TEAM1-TEAM2.txt (TEAM1 first) and
    /// game-log-TEAM2-TEAM1.txt. The players are started first, by hand,
    /// or by the judge (--run1, --run2). See docs/hex.md.
    #[command(verbatim_doc_comment)]
    Judge(JudgeArgs),
    /// katachi's team: answers state_TEAM.txt with move_TEAM.txt, game
    /// after game, until ended (or idle for --idle).
    ///
    /// Start it before the judge, in the judge's folder. Its moves and
    /// anything odd it reads are logged on standard error.
    #[command(verbatim_doc_comment)]
    Player(PlayerArgs),
    /// Draw the board of a state file or a game log as SVG or PNG (by
    /// the output's extension).
    ///
    /// From a game log: true colours (the first team black), the last
    /// move and the winning row. From a state file: the file's own stones
    /// and the opponent's (it knows no more), --last to mark a move.
    #[command(verbatim_doc_comment)]
    Show(ShowArgs),
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
    /// A state file (state_N.txt) or a game log (game-log-A-B.txt).
    file: PathBuf,
    /// The picture: FILE.svg, or FILE.png.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Mark this cell as the last move (a state file knows no order).
    #[arg(long, value_name = "CELL", value_parser = clap::value_parser!(u32).range(0..217))]
    last: Option<u32>,
    /// Write every cell's number on it.
    #[arg(long)]
    numbers: bool,
}

#[derive(clap::Args, Debug)]
struct PlayerArgs {
    /// The team's number (or name), as the judge was given it.
    #[arg(long, value_name = "N")]
    team: String,
    /// The folder of the state and move files.
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// The time a move may take (the judge allows 5s: keep a margin for
    /// a loaded machine).
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = duration)]
    budget: Duration,
    /// Exactly five wins, as the judge's --exact.
    #[arg(long)]
    exact: bool,
    /// Stop after this long without a new state (default: never).
    #[arg(long, value_name = "TIME", value_parser = duration)]
    idle: Option<Duration>,
    /// Who chooses the moves: katachi's engine, or a baseline: the plan
    /// of seed 003's notes (depth-2 minimax scored by line records) or a
    /// greedy player.
    #[arg(long, value_enum, default_value = "katachi")]
    engine: EngineArg,
    /// A hexagon personality (`game = "hex"`, `katachi personality new
    /// hex`) re-weighing patterns/hexfive.db and setting the engine's
    /// factors, read at start: its errors located, nothing played.
    #[arg(long, value_name = "FILE")]
    personality: Option<String>,
    /// Search every move to this depth with no clock instead of within
    /// --budget: the same answer on any machine, whatever its load.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: Option<u32>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum EngineArg {
    Katachi,
    LineRecords,
    Greedy,
}

#[derive(clap::Args, Debug)]
struct JudgeArgs {
    /// The first team's number (or name: letters, digits, - and _).
    team1: String,
    /// The second team's.
    team2: String,
    /// The folder of the state, move and log files.
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// The time a move may take: `5s`, `500ms`, `2.5s`.
    #[arg(long, value_name = "TIME", default_value = "5s", value_parser = duration)]
    limit: Duration,
    /// Exactly five wins (an overline does not); the players must be told
    /// the same (`katachi hex player --exact`).
    #[arg(long)]
    exact: bool,
    /// Start the first team's player with this shell command (in DIR, its
    /// output in player-TEAM1.log); ended after the games.
    #[arg(long, value_name = "COMMAND")]
    run1: Option<String>,
    /// Start the second team's player with this shell command.
    #[arg(long, value_name = "COMMAND")]
    run2: Option<String>,
    /// How long started players get to start before the first state file.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = duration)]
    startup: Duration,
    /// Pairs of games to play (each in both orders); logs get a
    /// `-K` suffix when more than one.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10000))]
    games: u32,
    /// Stones the judge places near the centre before the teams play
    /// (alternately the first team's and the second's), drawn from
    /// --seed: varied games between deterministic players.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=19))]
    opening_moves: u32,
    /// The openings' seed (pair K uses SEED + K).
    #[arg(long, value_name = "SEED", default_value_t = 1)]
    seed: u64,
}

/// A time: a number with `s` or `ms`.
fn duration(s: &str) -> Result<Duration, String> {
    let (number, scale) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else {
        return Err(format!("`{s}`: a time is written `5s` or `500ms`"));
    };
    match number.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * scale <= 3600.0 => {
            Ok(Duration::from_secs_f64(v * scale))
        }
        _ => Err(format!(
            "`{s}`: a time is written `5s` or `500ms` (at most an hour)"
        )),
    }
}

pub(crate) fn run(args: HexArgs) -> ExitCode {
    match args.command {
        HexCommand::Judge(a) => judge(a),
        HexCommand::Player(a) => player(a),
        HexCommand::Show(a) => show(a),
    }
}

fn show(a: ShowArgs) -> ExitCode {
    let name = a.file.display().to_string();
    let bytes = match katachi::input::read_file(&a.file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("katachi hex show: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let picture = if text.starts_with("katachi hex game log") {
        parse_log(&name, &text)
            .map(|log| Picture::of_log(&log))
            .map_err(|e| e.to_string())
    } else {
        parse_state(&name, &bytes)
            .map(|s| Picture::of_state(&s))
            .map_err(|e| e.to_string())
    };
    let mut picture = match picture {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if a.last.is_some() {
        picture.last = a.last;
    }
    picture.numbers = a.numbers;
    let svg = katachi::contest::picture::svg(&picture);
    let png = a
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let out = if png {
        match katachi::contest::picture::png(&svg) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("katachi hex show: drawing the PNG: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        svg.into_bytes()
    };
    match katachi::mkpat::output::write(&a.output, &out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi hex show: {e}");
            ExitCode::FAILURE
        }
    }
}

fn player(a: PlayerArgs) -> ExitCode {
    let mut options = PlayerOptions::new(a.dir, &a.team);
    options.budget = a.budget;
    options.exact = a.exact;
    options.idle = a.idle;
    options.depth = a.depth;
    options.engine = match a.engine {
        EngineArg::Katachi => HexEngine::Katachi,
        EngineArg::LineRecords => HexEngine::LineRecords,
        EngineArg::Greedy => HexEngine::Greedy,
    };
    if let Some(path) = &a.personality {
        if !matches!(options.engine, HexEngine::Katachi) {
            eprintln!("katachi hex player: --personality re-weighs katachi's engine, not a baseline's (--engine katachi)");
            return ExitCode::FAILURE;
        }
        match katachi::five::personality::load_hex_file(path) {
            Ok(l) => options.database = Some(l.database),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    match katachi::contest::player::run(&options, &mut std::io::stderr()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi hex player: {e}");
            ExitCode::FAILURE
        }
    }
}

fn judge(a: JudgeArgs) -> ExitCode {
    let mut judge = Judge::new(a.dir.clone(), [a.team1.clone(), a.team2.clone()], a.limit);
    judge.exact = a.exact;
    let commands: Vec<(String, String)> = [(&a.team1, &a.run1), (&a.team2, &a.run2)]
        .into_iter()
        .filter_map(|(t, c)| Some((t.clone(), c.clone()?)))
        .collect();
    let started = match Started::start(&a.dir, &commands) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("katachi hex judge: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !commands.is_empty() {
        std::thread::sleep(a.startup);
    }
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for g in 0..a.games {
        let opening = random_opening(a.opening_moves as usize, a.seed + u64::from(g));
        for first in [0, 1] {
            let log = match judge.play(first, &opening) {
                Ok(log) => log,
                Err(e) => {
                    eprintln!("katachi hex judge: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut name = judge.log_name(first);
            if a.games > 1 {
                name = name.replace(".txt", &format!("-{}.txt", g + 1));
            }
            if let Err(e) = judge.write_log(&name, &log) {
                eprintln!("katachi hex judge: {e}");
                return ExitCode::FAILURE;
            }
            let result = match (&log.ending, log.winner()) {
                (Some(Ending::FullBoard), _) => {
                    draws += 1;
                    "a draw: full board".to_string()
                }
                (Some(Ending::Five { .. }), Some(w)) => {
                    wins[(w + first) % 2] += 1;
                    format!("{} wins: five", log.teams[w])
                }
                (
                    Some(Ending::Violation {
                        violation, detail, ..
                    }),
                    Some(w),
                ) => {
                    wins[(w + first) % 2] += 1;
                    format!("{} wins: {} {detail}", log.teams[w], violation.word())
                }
                _ => "unfinished".to_string(),
            };
            println!("{name}: {} moves, {result}", log.moves.len());
        }
    }
    drop(started);
    println!(
        "{} {} - {} {} ({draws} drawn)",
        a.team1, wins[0], wins[1], a.team2
    );
    ExitCode::SUCCESS
}
