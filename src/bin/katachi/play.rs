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
    /// with instead of the builtin `patterns/five.db` (under --rule pente,
    /// instead of `patterns/pente.db`; its errors are reported located,
    /// and the game does not start).
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// A personality that re-weighs the database for the computer and the
    /// hint: `katachi personality new five` for freestyle, exact five and
    /// renju, `katachi personality new pente` for Pente (without --rule,
    /// a Pente personality chooses Pente). Its errors, a file for the
    /// other database among them, are reported located, and the game does
    /// not start.
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
    // The rule whose database `--db` and the personality replace: the
    // one given, else a Pente personality's (which then chooses Pente),
    // else the square rules'.
    let given = args.rule.map(Rule::from);
    let target = given.unwrap_or_else(|| match args.personality.as_deref().and_then(game_of) {
        Some(g) => katachi::five::personality::own_rule(&g),
        None => Rule::Freestyle,
    });
    let choices = Choices {
        rule: given.or((target == Rule::Pente).then_some(Rule::Pente)),
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
        // Pente is played on 19x19, as the start screen sets it.
        size: args
            .size
            .map_or(if target == Rule::Pente { 19 } else { 15 }, usize::from),
        think: Duration::from_secs_f64(args.think),
        depth: args.depth,
        pace: Duration::from_millis(args.pace),
        colour: !args.no_color && !katachi::play::no_color(),
        ..Settings::new(choices)
    };
    // Pente plays with its own database, whether chosen by `--rule` or on
    // the start screen; `--db` and the personality replace the target
    // rule's.
    let dbs = katachi::play::worker::Databases::builtin();
    let db = match args.db.as_deref() {
        None => dbs.for_rule(target).clone(),
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
        Some(path) => match katachi::five::personality::load_rule_file(path, target, &db) {
            Ok(loaded) => loaded.database,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
    };
    match katachi::play::run(choices, settings, dbs.with(target, db), !args.no_mouse) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("katachi play: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The `game` a personality file names, if it reads as one (its errors
/// are the loader's to locate).
fn game_of(path: &str) -> Option<String> {
    let bytes = mkpat::input::read_file(std::path::Path::new(path)).ok()?;
    mkpat::personality::Personality::parse(&String::from_utf8_lossy(&bytes))
        .ok()
        .map(|p| p.game)
}
