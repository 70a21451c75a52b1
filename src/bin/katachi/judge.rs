//! `katachi judge`: the command line of `katachi::tournament::judge`,
//! the move-quality screen for five in a row.

use std::path::PathBuf;
use std::process::ExitCode;

use katachi::tournament::judge::{
    colour_table, colours, draw_positions, figures, fill, phase_table, phases, table, Asking,
    Brain, Draw, Screen, ScreenLock,
};

/// `katachi judge`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct JudgeArgs {
    /// The screen file (JSON): the positions, every candidate's moves and
    /// the judge's verdicts. When it exists its positions are used and
    /// only what it lacks is asked. It is saved every few answers, so a
    /// stopped run keeps what it asked, and a run holds FILE.lock while
    /// it goes: a second run on the same file is refused.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// The judge: a Gomocup brain's command line that prints its
    /// evaluation in a MESSAGE or DEBUG line before its move. Give it a
    /// fixed amount of work (a node limit), so that it judges alike under
    /// any load.
    #[arg(long, value_name = "COMMAND")]
    judge: String,
    /// The word after which the judge prints its evaluation, for the side
    /// to move: an integer, or M and the plies to a mate, signed
    /// (Rapfi's `Eval -62`, `Eval +M19`).
    #[arg(long, value_name = "WORD", default_value = "Eval")]
    eval_word: String,
    /// Judge units to e on the logistic curve from an evaluation to a
    /// win rate.
    #[arg(long, default_value_t = 250.0, value_parser = positive)]
    scale: f64,
    /// A candidate, NAME=COMMAND (a Gomocup brain's command line); two or
    /// more are compared with the first, on the same positions.
    #[arg(
        short = 'p',
        long = "player",
        value_name = "NAME=COMMAND",
        required = true
    )]
    players: Vec<String>,
    /// Tournament folders to draw positions from (their ledger and
    /// records), when the screen file does not exist yet.
    #[arg(long, value_name = "DIR", num_args = 1..)]
    games: Vec<PathBuf>,
    /// Draw the positions where this player (as the ledgers name it) was
    /// to move.
    #[arg(long, value_name = "NAME")]
    from_player: Option<String>,
    /// The rule the games were played under (exactly five or renju;
    /// freestyle).
    #[arg(long, value_enum, default_value_t = crate::args::RuleArg::Freestyle)]
    rule: crate::args::RuleArg,
    /// Positions with at least this many stones (drawing: 3 unless
    /// given). With a screen file that exists, only its positions with
    /// as many stones as these two allow are asked and counted: a screen
    /// of the first moves from one of whole games.
    #[arg(long)]
    min_stones: Option<usize>,
    /// Positions with at most this many stones (drawing: 40 unless
    /// given).
    #[arg(long)]
    max_stones: Option<usize>,
    /// How many positions to draw at most.
    #[arg(long, default_value_t = 600)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `INFO timeout_turn` sent to every brain, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    move_ms: u64,
    /// Brains asked at once.
    #[arg(short, long, default_value_t = 1)]
    jobs: usize,
    /// Also print the comparison band by band of the game, N stones to a
    /// band (0–N-1, N–2N-1, ...): where the candidates' moves part.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    by_stones: Option<u16>,
    /// Also print the comparison for each colour to move (Black when an
    /// even number of moves has been played): the openings favour one
    /// side, and the two sides' positions differ.
    #[arg(long)]
    by_colour: bool,
}

/// A scale above zero (the curve divides by it).
fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("`{s}` is not a number above zero")),
    }
}

pub(crate) fn run(a: JudgeArgs) -> ExitCode {
    crate::report(judge_cli(a))
}

fn judge_cli(a: JudgeArgs) -> Result<(), String> {
    let candidates = a
        .players
        .iter()
        .map(|p| {
            let (name, command) = p
                .split_once('=')
                .ok_or_else(|| format!("katachi: -p {p}: expected NAME=COMMAND"))?;
            Brain::from_command(name, command).map_err(|e| format!("katachi: {e}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let judge = Brain::from_command("judge", &a.judge).map_err(|e| format!("katachi: {e}"))?;
    let judge_key = format!("{} [{}]", judge.command(), a.eval_word);
    // Held until the run ends: taken before the file is read.
    let _lock = ScreenLock::take(&a.output).map_err(|e| format!("katachi: {e}"))?;
    let loaded = Screen::load(&a.output).map_err(|e| format!("katachi: {e}"))?;
    let existed = loaded.is_some();
    let mut screen = match loaded {
        Some(s) if s.judge != judge_key => {
            return Err(format!(
                "katachi: {}: judged by `{}`, not `{judge_key}`: use another file",
                a.output.display(),
                s.judge
            ))
        }
        Some(s) => {
            eprintln!(
                "{} positions from {}",
                s.positions.len(),
                a.output.display()
            );
            s
        }
        None => {
            let player = a.from_player.clone().ok_or(
                "katachi: a new screen needs --games and --from-player to draw its positions",
            )?;
            if a.games.is_empty() {
                return Err("katachi: a new screen needs --games to draw its positions".into());
            }
            let draw = Draw {
                folders: a.games.clone(),
                player,
                rule: a.rule.into(),
                from: a.min_stones.unwrap_or(3),
                to: a.max_stones.unwrap_or(40),
                count: a.count,
                seed: a.seed,
            };
            let positions = draw_positions(&draw).map_err(|e| format!("katachi: {e}"))?;
            if positions.is_empty() {
                return Err(format!(
                    "katachi: no position with {} to move and {} to {} stones in those games",
                    draw.player, draw.from, draw.to
                ));
            }
            eprintln!("{} positions drawn", positions.len());
            Screen {
                judge: judge_key,
                positions,
                ..Screen::default()
            }
        }
    };
    let asking = Asking {
        judge,
        key: a.eval_word.clone(),
        move_ms: a.move_ms,
        jobs: a.jobs,
    };
    // The part asked and counted: the whole screen, or the positions
    // within the stones asked of a file that exists (a new one was drawn
    // within them). Its answers go back into the whole at every save.
    let banded = existed && (a.min_stones.is_some() || a.max_stones.is_some());
    let (mut part, index) = match (a.min_stones, a.max_stones) {
        _ if !banded => screen.within(&(0..=usize::MAX)),
        (from, to) => {
            let stones = from.unwrap_or(0)..=to.unwrap_or(usize::MAX);
            let (part, index) = screen.within(&stones);
            let shown = format!(
                "{} to {} stones",
                stones.start(),
                to.map_or("any".into(), |t| t.to_string())
            );
            if part.positions.is_empty() {
                return Err(format!(
                    "katachi: {}: no position with {shown}",
                    a.output.display()
                ));
            }
            eprintln!(
                "{} of them with {shown}: only those are asked and counted",
                part.positions.len()
            );
            (part, index)
        }
    };
    let mut save = |p: &Screen| {
        screen.absorb(p, &index);
        screen.save(&a.output)
    };
    fill(&mut part, &candidates, &asking, &mut save, &|m| {
        eprintln!("{m}")
    })
    .map_err(|e| format!("katachi: {e}"))?;
    let screen = part;
    let unread = screen.verdicts.values().filter(|v| v.is_none()).count();
    if unread > 0 {
        eprintln!(
            "katachi: the judge printed no `{}` for {unread} positions; they are left out",
            a.eval_word
        );
    }
    print!("{}", table(&figures(&screen, &candidates, a.scale)));
    if a.by_colour {
        println!();
        print!("{}", colour_table(&colours(&screen, &candidates, a.scale)));
    }
    if let Some(width) = a.by_stones {
        println!();
        print!(
            "{}",
            phase_table(&phases(&screen, &candidates, a.scale, usize::from(width)))
        );
    }
    Ok(())
}
