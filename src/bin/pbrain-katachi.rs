//! `pbrain-katachi`: katachi's five-in-a-row engine as a Gomocup brain.
//!
//! The Gomocup manager and piskvork start a brain by its file name (the
//! `pbrain-` prefix) and speak the Gomoku AI protocol on its standard
//! input and output; `katachi::gomocup` speaks it, this binary supplies
//! the brain: `katachi::five::engine` over the builtin pattern database.
//! Rules: `INFO rule` 0 freestyle, 1 exactly five, 4 renju; other rules
//! (continuous games, caro) are refused with `ERROR`. Square boards of
//! side 5 to 26. A manager passes no argument; `--db FILE` plays with
//! another five-in-a-row database, `--personality FILE` re-weighs it,
//! `--predictor` or `--predictor-table FILE` orders the search's
//! candidates by a move predictor; `--leaf FILE` scores the search's
//! leaves by another leaf table, `--pattern-sums` by the pattern values;
//! `--nodes N` and `--max-depth D` fix the work a move, for screens and
//! benchmarks.
//! Pente is not played: the protocol has no Pente rule and cannot say
//! that stones were captured, so a `game = "pente"` personality is
//! refused (located, by its `game` line) like any other game's.

use std::io::BufReader;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use katachi::five::database::FiveDatabase;
use katachi::five::engine::{rule_of_gomocup, Engine, Limits, Reason, DEFAULT_TABLE_BYTES};
use katachi::five::leaf::LeafWeights;
use katachi::five::predictor::Predictor;
use katachi::five::rules::{FiveBoard, Rule};
use katachi::gomocup::{self, About, Brain, Info, Log, Stone};
use katachi::{Color, Point};

/// The brain: the stones the session reported, and the rule.
#[derive(Debug)]
struct FiveBrain {
    db: Arc<FiveDatabase>,
    size: usize,
    rule: Rule,
    own: Vec<Point>,
    theirs: Vec<Point>,
    /// Fixed work a move (`--nodes`), within the manager's clock.
    nodes: Option<u64>,
    /// The main search's deepest iteration (`--max-depth`).
    max_depth: u32,
    /// How threats are read (`--threats`).
    threats: Threats,
    /// The move predictor (`--predictor`, `--predictor-table`).
    predictor: PredictorChoice,
    /// How the search's leaves are scored (`--leaf`, `--pattern-sums`).
    leaf: LeafChoice,
}

/// How the search's leaves are scored.
#[derive(Clone, Copy, Debug)]
enum LeafChoice {
    /// The engine's default: the rule's built-in leaf table with the
    /// built-in database, else the pattern sums.
    Default,
    /// The pattern sums, under every rule.
    PatternSums,
    /// This table, under every rule.
    Table(&'static LeafWeights),
}

/// Which move predictor orders the engine's candidates.
#[derive(Clone, Copy, Debug)]
enum PredictorChoice {
    /// None: the pattern values' order (the default).
    None,
    /// The rule's built-in table (exactly five and renju; none under
    /// freestyle).
    Builtin,
    Table(&'static Predictor),
}

impl FiveBrain {
    fn new(
        db: Arc<FiveDatabase>,
        nodes: Option<u64>,
        max_depth: u32,
        threats: Threats,
        predictor: PredictorChoice,
        leaf: LeafChoice,
    ) -> FiveBrain {
        FiveBrain {
            db,
            nodes,
            max_depth,
            threats,
            predictor,
            leaf,
            size: 15,
            rule: Rule::Freestyle,
            own: Vec::new(),
            theirs: Vec::new(),
        }
    }

    /// The game as the engine sees it: Black is who moved first, so the
    /// side to move (us) is Black when the counts are equal. The stones
    /// are replayed as moves, Black's and White's in turn in the order
    /// they were reported, so that the engine knows the last two moves
    /// (its move predictor reads their distance); when that order cannot
    /// have been the game's (the counts, a forbidden point, a five on
    /// the way), they are set up instead.
    fn game(&self) -> Option<(FiveBoard, Color)> {
        let me = if self.own.len() == self.theirs.len() {
            Color::Black
        } else {
            Color::White
        };
        if let Some(b) = self.replayed(me) {
            return Some((b, me));
        }
        let mut b = FiveBoard::new(self.size, self.rule).ok()?;
        for &p in &self.own {
            b.put(p, me).ok()?;
        }
        for &p in &self.theirs {
            b.put(p, me.other()).ok()?;
        }
        b.set_to_move(me);
        Some((b, me))
    }

    /// The stones played as moves, Black first, or `None`.
    fn replayed(&self, me: Color) -> Option<FiveBoard> {
        let (black, white) = match me {
            Color::Black => (&self.own, &self.theirs),
            Color::White => (&self.theirs, &self.own),
        };
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return None;
        }
        let mut b = FiveBoard::new(self.size, self.rule).ok()?;
        for (k, &p) in black.iter().enumerate() {
            if b.play(p).ok()?.is_some() {
                return None;
            }
            if let Some(&q) = white.get(k) {
                if b.play(q).ok()?.is_some() {
                    return None;
                }
            }
        }
        (b.to_move() == me).then_some(b)
    }
}

impl Brain for FiveBrain {
    fn about(&self) -> About {
        About {
            author: "the katachi developers".into(),
            country: "-".into(),
            ..About::new("katachi", env!("CARGO_PKG_VERSION"))
        }
    }

    fn start(&mut self, width: usize, height: usize) -> Result<(), String> {
        if width != height {
            return Err("katachi plays square boards only".into());
        }
        FiveBoard::new(width, self.rule).map_err(|e| e.to_string())?;
        self.size = width;
        self.own.clear();
        self.theirs.clear();
        Ok(())
    }

    fn play(&mut self, point: Point, stone: Stone) -> Result<(), String> {
        match stone {
            Stone::Own => self.own.push(point),
            Stone::Opponent => self.theirs.push(point),
            // A continuous game's marker: katachi does not play those.
            Stone::WinningLine => return Err("continuous games are not supported".into()),
        }
        Ok(())
    }

    fn take_back(&mut self, point: Point) -> Result<(), String> {
        for v in [&mut self.own, &mut self.theirs] {
            if let Some(k) = v.iter().rposition(|&q| q == point) {
                v.remove(k);
                return Ok(());
            }
        }
        Err(format!("no stone at {},{}", point.j, point.i))
    }

    fn set_info(&mut self, info: &Info) -> Result<(), String> {
        if let Info::Rule(bits) = info {
            self.rule = rule_of_gomocup(*bits).ok_or_else(|| {
                format!("rule {bits} is not supported: 0 freestyle, 1 exactly five, 4 renju")
            })?;
        }
        Ok(())
    }

    fn think(&mut self, limits: &gomocup::Limits, stop: &AtomicBool, log: &Log) -> Point {
        let n = self.size as i32;
        let Some((game, _)) = self.game() else {
            return Point::new(n / 2, n / 2);
        };
        let fallback = game
            .legal_moves()
            .next()
            .unwrap_or(Point::new(n / 2, n / 2));
        let rule = game.rule();
        let mut engine =
            Engine::with_database(game, self.db.clone()).with_predictor(match self.predictor {
                PredictorChoice::Builtin => Predictor::builtin(rule),
                PredictorChoice::None => None,
                PredictorChoice::Table(p) => Some(p),
            });
        engine = match self.leaf {
            LeafChoice::Default => engine,
            LeafChoice::PatternSums => engine.with_leaf_weights(None),
            LeafChoice::Table(w) => engine.with_leaf_weights(Some(w)),
        };
        let start = Instant::now();
        let elapsed = || start.elapsed();
        let found = engine.choose(&Limits {
            elapsed: &elapsed,
            budget: limits.budget,
            stop,
            max_depth: self.max_depth,
            vcf_depth: 16,
            // Our VCT deepens to 8 while its share of the move lasts.
            vct_depth: 8,
            table_bytes: table_bytes(limits.max_memory),
            proof_search: self.threats == Threats::ProofNumber,
            max_nodes: self.nodes,
        });
        match found {
            Some((p, why)) => {
                match &why {
                    Reason::Vcf(line) => log.debug(&format!(
                        "a win by fours in {} moves",
                        line.len().div_ceil(2)
                    )),
                    Reason::Vct(line) => log.debug(&format!(
                        "a win by threes and fours in {} moves",
                        line.len().div_ceil(2)
                    )),
                    Reason::Search {
                        score,
                        depth,
                        defends,
                    } => log.debug(&format!(
                        "searched to depth {depth}: score {score}{}",
                        if *defends { ", a defence" } else { "" }
                    )),
                    Reason::OnlyDefence => {
                        log.debug("the one move that stops the opponent's forced win")
                    }
                    _ => {}
                }
                p
            }
            None => fallback,
        }
    }
}

/// The transposition table's share of the manager's memory limit: a
/// quarter (the rest is the process, its boards and valuation), within
/// 1 MiB and 256 MiB; the engine's default when there is no limit.
fn table_bytes(max_memory: Option<u64>) -> usize {
    match max_memory {
        None | Some(0) => DEFAULT_TABLE_BYTES,
        Some(m) => (m / 4).clamp(1 << 20, 256 << 20) as usize,
    }
}

/// katachi's five-in-a-row engine as a Gomocup brain.
///
/// Run by a Gomocup manager or piskvork, it speaks the Gomoku AI protocol
/// on standard input and output (START, BEGIN, TURN, BOARD, INFO, END,
/// ABOUT...). Rules: INFO rule 0 (freestyle), 1 (exactly five), 4
/// (renju); not Pente (the protocol has neither its rule nor its
/// captures). Square boards of side 5 to 26. A manager passes no argument.
#[derive(clap::Parser, Debug)]
#[command(name = "pbrain-katachi", version)]
struct Args {
    /// A five-in-a-row pattern database (the `five` dialect) instead of
    /// the builtin one, compiled at start; its errors are reported located
    /// and the brain does not start.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// A personality (TOML: `katachi personality new five`) that
    /// re-weighs the database at start; its errors are reported located
    /// and the brain does not start. The brain does not play Pente (the
    /// protocol has no Pente rule), so a `pente` personality is refused.
    #[arg(long, value_name = "FILE")]
    personality: Option<String>,
    /// Search at most N nodes a move (threat searches included), within
    /// the manager's time limits: the same work a move under any load,
    /// for benchmarks between engines (Rapfi's `INFO MAX_NODE` is the
    /// like of it).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The deepest iteration of the main search, in plies (the threat
    /// searches keep their own depths). Below the default, the brain
    /// plays the move of a shallower search with the same threat
    /// searches and safety check: for measuring what each ply of the
    /// search is worth (`docs/five-strength.md`, thirty-fourth sitting).
    #[arg(long, value_name = "PLIES", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=MAX_MAX_DEPTH))]
    max_depth: u32,
    /// How the brain reads forced wins by threes and fours, its own and
    /// the opponent's.
    #[arg(long, value_enum, default_value_t = Threats::ProofNumber)]
    threats: Threats,
    /// Order the search's candidates by the move predictor's built-in
    /// table for the rule (exactly five and renju; freestyle has none)
    /// instead of by the pattern values alone. It ranks a strong
    /// player's move first more often, yet measured no better moves
    /// (`docs/five-strength.md`): off by default.
    #[arg(long, conflicts_with = "predictor_table")]
    predictor: bool,
    /// Order the candidates by this move predictor table (`katachi
    /// learn-moves --game five`), under every rule; its errors are
    /// reported located and the brain does not start.
    #[arg(long, value_name = "FILE")]
    predictor_table: Option<std::path::PathBuf>,
    /// Score the search's leaves by this leaf table (`KIND MINE THEIRS`,
    /// `point CLASS MINE THEIRS` and `move-in-hand PERCENT` lines:
    /// `patterns/five-exact.leaf`),
    /// under every rule and with any database; its errors are reported
    /// located and the brain does not start. By default exactly five
    /// and renju with the built-in database read their built-in tables
    /// (`patterns/five-renju.leaf`), and freestyle, another database or
    /// a personality the pattern sums.
    #[arg(long, value_name = "FILE", conflicts_with = "pattern_sums")]
    leaf: Option<std::path::PathBuf>,
    /// Score the search's leaves by the pattern sums (each side's
    /// matches at the database's values, and half the best point for the
    /// side to move) under every rule, as before the leaf table.
    #[arg(long)]
    pattern_sums: bool,
}

/// The deepest `--max-depth` allowed: the engine keeps killer moves for
/// every ply up to the cap, so an unbounded one would be an allocation,
/// and no search on a Gomocup clock comes near 40 plies (at 1 s a move
/// katachi's searches reach depth 10 or 11).
const MAX_MAX_DEPTH: i64 = 40;

/// The threat searches a brain may use.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Threats {
    /// A proof-number search, as deep as the move's budget reaches.
    ProofNumber,
    /// A depth-first search to eight threats of ours at the root and
    /// four of the opponent's in the safety check.
    DepthFirst,
}

/// The value of a file read at start, or its errors reported (located,
/// as the reader formats them) and the brain not started.
fn or_exit<T>(read: Result<T, impl std::fmt::Display>) -> T {
    read.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1);
    })
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let db = match &args.db {
        None => FiveDatabase::builtin(),
        Some(path) => Arc::new(or_exit(FiveDatabase::load(path))),
    };
    let db = match &args.personality {
        None => db,
        Some(path) => or_exit(katachi::five::personality::load_file(path, &db)).database,
    };
    // Tables are read once for the brain's whole life.
    let predictor = match (&args.predictor_table, args.predictor) {
        (Some(path), _) => {
            PredictorChoice::Table(Box::leak(Box::new(or_exit(Predictor::read_file(path)))))
        }
        (None, true) => PredictorChoice::Builtin,
        (None, false) => PredictorChoice::None,
    };
    let leaf = match (&args.leaf, args.pattern_sums) {
        (Some(path), _) => {
            let table = or_exit(LeafWeights::read_file(path));
            if table.reads_points() && db.lines().is_none() {
                or_exit::<()>(Err(format!(
                    "{}: the table weighs point classes, which are read along the lines of a \
                     database of line patterns reaching at most four steps from the move, without \
                     edge marks; `{}` has a pattern that is not one: give it a table without \
                     `point` lines",
                    path.display(),
                    db.name()
                )));
            }
            LeafChoice::Table(Box::leak(Box::new(table)))
        }
        (None, true) => LeafChoice::PatternSums,
        (None, false) => LeafChoice::Default,
    };
    let input = BufReader::new(std::io::stdin());
    if let Err(e) = gomocup::run(
        FiveBrain::new(
            db,
            args.nodes,
            args.max_depth,
            args.threats,
            predictor,
            leaf,
        ),
        input,
        std::io::stdout(),
    ) {
        eprintln!("pbrain-katachi: {e}");
        std::process::exit(1);
    }
}
