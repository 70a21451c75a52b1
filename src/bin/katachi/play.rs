//! `katachi play`'s flags and how they become the game's settings
//! (`katachi::play`). What a flag leaves out is asked on the start
//! screen; the rule, the board and the players all given skip it.

use std::process::ExitCode;
use std::time::Duration;

use katachi::five::Rule;
use katachi::play::{Choices, Mode, Settings, Symbol};

use crate::args::RuleArg;

/// `katachi play`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct PlayArgs {
    /// The rule: five or more wins (freestyle), exactly five wins
    /// (exact), or renju (the first player, Black, wins with exactly five
    /// and may not make a double three, a double four or an overline), or
    /// pente (five or more, pairs captured, the fifth pair wins, the
    /// tournament rule; play it with --size 19).
    #[arg(long, value_enum)]
    rule: Option<RuleArg>,
    /// The board's side, 5 to 26 (the start screen offers 15, 19, 20).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(5..=26))]
    size: Option<u16>,
    /// Who plays: human vs human, human vs computer, computer vs computer
    /// (or hvh, hvc, cvc).
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// The human's symbol (in a game between humans, the first player's).
    #[arg(long, value_enum)]
    symbol: Option<SymbolArg>,
    /// Who moves first: you, or the other side.
    #[arg(long, value_enum)]
    first: Option<FirstArg>,
    /// The computer's time for a move, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, value_parser = seconds)]
    think: f64,
    /// The computer's deepest search, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Computer vs computer: the pause between moves, in milliseconds
    /// (`+` and `-` change it while playing, space pauses, `.` steps).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pace: u64,
    /// Do not read the mouse (the terminal can then select text).
    #[arg(long)]
    no_mouse: bool,
    /// No colours (as when NO_COLOR is set).
    #[arg(long)]
    no_color: bool,
    /// A five-in-a-row pattern database to compile at start and play
    /// with instead of the builtin `patterns/five.db` (its errors are
    /// reported located, and the game does not start).
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// A personality (TOML: `katachi personality new five`) that
    /// re-weighs the database for the computer and the hint (its errors
    /// are reported located, and the game does not start).
    #[arg(long, value_name = "FILE")]
    personality: Option<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ModeArg {
    #[value(alias = "hvh")]
    HumanHuman,
    #[value(alias = "hvc")]
    HumanComputer,
    #[value(alias = "cvc")]
    ComputerComputer,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum SymbolArg {
    X,
    O,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FirstArg {
    You,
    Other,
}

/// A time in seconds: finite, not negative, at most an hour.
fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=3600.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a number of seconds (0 to 3600)")),
    }
}

pub(crate) fn run(args: PlayArgs) -> ExitCode {
    let choices = Choices {
        rule: args.rule.map(Rule::from),
        size: args.size.map(usize::from),
        mode: args.mode.map(|m| match m {
            ModeArg::HumanHuman => Mode::HumanHuman,
            ModeArg::HumanComputer => Mode::HumanComputer,
            ModeArg::ComputerComputer => Mode::ComputerComputer,
        }),
        symbol: args.symbol.map(|s| match s {
            SymbolArg::X => Symbol::X,
            SymbolArg::O => Symbol::O,
        }),
        human_first: args.first.map(|f| matches!(f, FirstArg::You)),
    };
    let settings = Settings {
        think: Duration::from_secs_f64(args.think),
        depth: args.depth,
        pace: Duration::from_millis(args.pace),
        colour: !args.no_color && !katachi::play::no_color(),
        ..Settings::new(choices)
    };
    let db = match args.db.as_deref() {
        // Pente (only by `--rule pente`: the start screen does not offer
        // it) plays with its own database.
        None => katachi::five::database::FiveDatabase::for_rule(
            choices.rule.unwrap_or(katachi::five::Rule::Freestyle),
        ),
        Some(path) => match katachi::five::database::FiveDatabase::load(path) {
            Ok(db) => std::sync::Arc::new(db),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let db = match args.personality.as_deref() {
        None => db,
        Some(path) => match katachi::five::personality::load_file(path, &db) {
            Ok(loaded) => loaded.database,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    match katachi::play::run(choices, settings, db, !args.no_mouse) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi play: {e}");
            ExitCode::FAILURE
        }
    }
}
