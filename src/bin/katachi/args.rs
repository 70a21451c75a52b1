//! The command line: clap's definitions of every subcommand and flag, and
//! what `--help` prints.

use clap::{Parser, Subcommand};
use katachi::go::search::SearchOptions;

#[derive(Parser, Debug)]
#[command(
    name = "katachi",
    version,
    about = "Pattern matcher for board games, fed by mkpat-compiled pattern databases",
    long_about = "katachi matches pattern databases (GNU Go's patterns.db language, \
                  compiled by mkpat) against board positions with GNU Go's \
                  grid-optimised matcher."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Print every geometric match of a database in a positions file.
    ///
    /// Only the diagrams are tested, with their edge and corner markers:
    /// no class letters, helpers, weights or constraints. Output is one
    /// line per match, `pos pattern trans move_i move_j` (pos counts
    /// positions from 0; move is the board point under `*`, row from the
    /// top, column from the left), sorted per position by pattern name
    /// (byte order), then trans, then move.
    ///
    /// Positions file format (blank line between positions):
    /// `to_move X` or `to_move O` (X = black, O = white), the board size,
    /// then that many rows of `.`, `X` and `O`.
    #[command(verbatim_doc_comment)]
    Match {
        /// Pattern database to compile in memory (leniently: wrong
        /// symmetry classes and unknown helpers are warnings, printed on
        /// stderr), in any dialect. Given more than once, the files make
        /// one table, as GNU Go builds `patterns.db` and `patterns2.db`
        /// into one. Without it, the database built into katachi is used.
        #[arg(long, value_name = "FILE")]
        db: Vec<String>,
        /// Scan all positions K times and print one throughput summary
        /// line (positions/s, matches/s, matches per pass) instead of the
        /// matches.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
        repeat: Option<u32>,
        /// Print per-pattern hit counts instead of the matches: a table
        /// sorted by matches, patterns that never matched flagged.
        #[arg(long, conflicts_with = "repeat")]
        stats: bool,
        /// Also write the hit counts as TSV to FILE, for `mkpat html
        /// --hits FILE` (implies --stats).
        #[arg(long, value_name = "FILE", conflicts_with = "repeat")]
        stats_out: Option<String>,
        /// Draw each position with the points patterns propose, and list
        /// the patterns behind each point, instead of the conformance
        /// format.
        #[arg(long, conflicts_with_all = ["repeat", "stats", "stats_out"])]
        show: bool,
        /// The positions file, or SGF games (a `.sgf` file or a folder of
        /// them) replayed position by position.
        #[arg(value_name = "POSITIONS")]
        positions: String,
    },
    /// Play Go over the Go Text Protocol (version 2) on stdin and stdout.
    Gtp {
        /// Record the game as SGF to FILE (GNU Go's `-o`), rewritten
        /// atomically after every move, with an `LB` label showing the
        /// value of every move considered.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Evaluate every pattern, no best-first pruning (GNU Go's `-a`):
        /// the SGF labels then show every pattern's value (`24/8/5`).
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// Play by the pattern database in FILE, compiled in memory
        /// (leniently: a pattern naming a helper katachi lacks is a
        /// warning and proposes nothing; 2.6 constraints interpreted),
        /// instead of the builtin one.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// A personality (TOML: `katachi personality new go`) that
        /// re-weighs the database and sets the engine's factors, loaded
        /// at start; its errors are reported located and GTP does not
        /// start.
        #[arg(long, value_name = "FILE")]
        personality: Option<String>,
        /// The rule set: chinese (area; also `area`), japanese (territory;
        /// also `territory`), tromp-taylor (area counting every stone,
        /// positional superko, suicide allowed), aga, new_zealand (suicide
        /// allowed). A controller may change it with `kgs-rules`.
        #[arg(long, value_name = "RULES", default_value = "chinese", value_parser = rules)]
        rules: katachi::go::rules::RuleSet,
        /// The seed of the engine's random choices (the playouts, the
        /// patterns' random terms): without it every game replays the
        /// same way.
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Think this long a move (seconds) when the controller sets no
        /// clock: every answer comes within SECS (the search stops at
        /// 90 % of it), with as many playouts as fit, at most 100 times
        /// the fixed number. A controller's `time_settings` replaces it.
        #[arg(long, value_name = "SECS", value_parser = seconds)]
        move_time: Option<std::time::Duration>,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// Why this move? Explain the best candidates at a move of a game.
    ///
    /// Loads FILE, replays its main line up to, not including, move N
    /// (GNU Go's `-l FILE -L N`), and explains the move of the player to
    /// move.
    ///
    /// An SGF file is a game of Go: for the best K candidates every
    /// pattern behind each (name, source line, transformation, the
    /// diagram as it lies on the board, weight, wind, bonuses, helper,
    /// class checks), the rejected reasons, and how much each candidate's
    /// value must rise to beat the chosen move.
    ///
    /// A `.psq` file (piskvork's record) is a game of five in a row: the
    /// board, the engine's move at a fixed depth with its reason (the
    /// forced line when the threat search found one), and the patterns
    /// behind it and the best K-1 other points, and with --by-depth their
    /// scores depth by depth (--rule and --depth apply; -a, --playouts
    /// and --prior-visits do not).
    #[command(verbatim_doc_comment)]
    Explain {
        /// The game: SGF (Go) or `.psq` (five in a row).
        #[arg(short = 'l', long = "load", value_name = "FILE")]
        load: String,
        /// Stop before move N (moves count from 1, passes included);
        /// without it, after the last move.
        #[arg(short = 'L', long = "until", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        until: Option<u32>,
        /// Evaluate every pattern, no best-first pruning (GNU Go's `-a`).
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// How many candidates to explain.
        #[arg(long, value_name = "K", default_value_t = 5)]
        top: usize,
        /// Pattern database to compile in memory instead of the builtin one
        /// (a Go database for SGF, a five-in-a-row one for `.psq`).
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
        /// Five in a row: the rule the game was played under (a `.psq`
        /// record does not say).
        #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
        rule: RuleArg,
        /// Five in a row: the search's depth in plies (no clock: the same
        /// answer every time).
        #[arg(long, value_name = "PLIES", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// Five in a row: also print the main search's exact score of
        /// each explained point at every depth from 1 to --depth (each
        /// searched with a full window, where a choice learns only its
        /// best move's): how the scores move as the search deepens.
        #[arg(long)]
        by_depth: bool,
        /// Also run the search with N playouts, as `katachi gtp` does by
        /// default, and show how it spent them and which move it chose
        /// (0: the pattern evaluation alone).
        #[arg(long, value_name = "N", default_value_t = 0)]
        playouts: u32,
        /// Virtual visits of each root prior (see `gtp --prior-visits`).
        #[arg(long, value_name = "V", default_value_t = SearchOptions::default().prior_visits, value_parser = visits)]
        prior_visits: f32,
    },
    /// Count, over SGF games, how often each pattern fires and how often
    /// it is behind the move played and the move the engine would choose.
    Hits {
        /// SGF files, or folders whose `*.sgf` files are read.
        #[arg(value_name = "GAMES", required = true)]
        games: Vec<std::path::PathBuf>,
        /// Also write the counts as TSV for `mkpat html --hits FILE`.
        #[arg(long, value_name = "FILE")]
        tsv: Option<String>,
        /// Evaluate every pattern, no best-first pruning.
        #[arg(short = 'a', long)]
        all_patterns: bool,
        /// Pattern database to compile in memory instead of the builtin one.
        #[arg(long, value_name = "FILE")]
        db: Option<String>,
    },
    /// Play a tournament of Go or five in a row between engines into a
    /// folder, or merge the folders of its shards.
    ///
    /// Every pairing plays every opening twice, colours swapped (seeded
    /// random openings: deterministic engines would otherwise replay one
    /// game). Each game is refereed (an illegal move, a crash, a move over
    /// the time limit or a resignation loses), recorded as DIR/gNNNN.sgf
    /// (Go) or DIR/gNNNN.psq (five in a row) and appended to
    /// DIR/ledger.jsonl; DIR/standings.{md,csv,json} (W-D-L by colour,
    /// margins, seconds per move, failures, Bradley-Terry Elo with 95%
    /// intervals) are rewritten after each game. Run again over the same
    /// folder to resume: only the games the ledger lacks are played.
    ///
    /// Examples:
    ///   katachi tournament -p k=katachi -p r=random -o /tmp/t
    ///   katachi tournament -p k=katachi:playouts=1000 \
    ///       -p gnugo0="gtp:gnugo --mode gtp --level 0 --chinese-rules --capture-all-dead" \
    ///       --openings 20 --shard 3/8 -o runs/part3
    ///   katachi tournament --merge runs/part1 runs/part2 …
    ///
    /// Five in a row (--game five): the players are katachi[:ms=N] (the
    /// engine, N ms a move), seed (the seed's Pishquorky minimax), greedy,
    /// random and gomocup:COMMAND (any Gomocup brain, e.g. pbrain-katachi):
    ///   katachi tournament --game five --rule freestyle --size 15 \
    ///       -p k=katachi -p s=seed -p g=greedy -p b=gomocup:pbrain-katachi \
    ///       --openings 10 --opening-moves 3 --move-time 0.5 -o runs/five
    #[command(verbatim_doc_comment)]
    Tournament(TournamentArgs),
    /// Play five in a row in the terminal: against a person, against the
    /// computer, or watch the computer play itself.
    ///
    /// What the flags leave out is asked on a start screen. Moves by the
    /// arrows and Enter, a click, or a point typed and Enter (`h8`);
    /// typed commands: u undo, h hint, n new game, s FILE save, l FILE
    /// load (`.psq`), q quit.
    Play(crate::play::PlayArgs),
    /// The hexagonal contest (seed 003): five in a row on the 217-cell
    /// board through state and move files; a judge, katachi's player, and
    /// pictures of the board. See docs/hex.md.
    Hex(crate::hex::HexArgs),
    /// Personalities: named sets of factors (TOML) that re-weigh a
    /// database and an engine at run time. `new GAME` writes one with
    /// every factor at its default; `check`, `show`, `diff`.
    ///
    /// Load one with `katachi gtp --personality FILE`, `katachi play
    /// --personality FILE`, `pbrain-katachi --personality FILE` or a
    /// tournament player `NAME=katachi:personality=FILE`.
    #[command(verbatim_doc_comment)]
    Personality(crate::personality::PersonalityArgs),
    /// Improve a personality's factors by self-play (SPSA), its games
    /// played by the tournament machinery, then measure the result
    /// against the start in a fresh tournament with error bars.
    Tune(crate::tune::TuneArgs),
    /// Five in a row: the quality of single moves. Draws positions from
    /// tournaments' games, asks each candidate brain its move, and a
    /// judge (a stronger brain that prints its evaluation) what each
    /// move leaves; prints each candidate's mean win rate after its
    /// moves, the moves that walk into a mate, and the paired difference
    /// from the first candidate with its standard error.
    ///
    /// A change worth a few games in a hundred shows here in minutes:
    ///   katachi judge -o screen.json --games runs/a runs/b --from-player k \
    ///       --rule exact --judge "rapfi-nodes.sh 300000" --jobs 2 \
    ///       -p "base=pbrain-katachi --nodes 150000" \
    ///       -p "more=pbrain-katachi --nodes 450000"
    #[command(verbatim_doc_comment)]
    Judge(crate::judge::JudgeArgs),
    /// Fit a move predictor to the moves of game records, by
    /// minorization–maximization, and write its table; without
    /// `--output`, measure a table on held-out games instead.
    ///
    /// Go (SGF records): the predictor the tree search orders its root
    /// by (strengths of point features: 3x3 shape with ataris, distance
    /// to the last two moves, lines, captures, escapes, self-ataris,
    /// ataris, the nearest stone).
    ///
    /// Five in a row (--game five, piskvork .psq records such as
    /// `katachi tournament` writes, under --rule exact or renju): the
    /// predictor the search orders its candidates by (the combinations
    /// of line shapes a stone makes and takes, distance to the last two
    /// moves and to the edge, the stones around, the rank by the
    /// pattern values); the first --opening-moves of a record (a
    /// tournament's random opening) are not fitted on. The built-in
    /// tables were made with:
    ///   katachi learn-moves --game five --rule exact --every 1 \
    ///       --holdout 100 --games 5000 -o patterns/five-exact.gamma DIRS
    /// `pbrain-katachi --predictor` plays by the built-in table,
    /// `--predictor-table FILE` by another.
    ///
    /// The built-in Go table, patterns/go-moves.gamma, was made with:
    ///   katachi learn-moves -o patterns/go-moves.gamma DIR
    /// and is measured by:
    ///   katachi learn-moves --holdout 100 DIR
    /// `katachi gtp --predictor-table FILE` plays by another table.
    #[command(verbatim_doc_comment)]
    LearnMoves(crate::learn::LearnArgs),
}

/// How `katachi gtp` chooses among the pattern candidates.
#[derive(clap::Args, Debug)]
pub(crate) struct SearchArgs {
    /// Random games per move for the pattern-guided search: the pattern
    /// candidates are the root's moves, their values its priors, and the
    /// most played wins. 0 plays the heaviest candidate, as the seed's
    /// engine (and `katachi explain` without `--playouts`). By default
    /// the board's size decides, so that a move early in a game stays
    /// within 2 s on one idle core: 40,000 up to 9x9, 20,000 up to 13x13,
    /// 8,000 above.
    #[arg(long, value_name = "N")]
    playouts: Option<u32>,
    /// Virtual visits of each root prior: how many playouts a pattern
    /// value is worth against what the random games say (0: no priors,
    /// the candidates alone come from the patterns).
    #[arg(long, value_name = "V", default_value_t = SearchOptions::default().prior_visits, value_parser = visits)]
    prior_visits: f32,
    /// Playouts without the shapes of `patterns/playout.db` (captures,
    /// escapes and random moves only).
    #[arg(long)]
    no_shapes: bool,
    /// Below the root, give a node visited N times the pattern
    /// evaluation of its position as priors for its replies (0: the root
    /// only).
    #[arg(long, value_name = "N", default_value_t = SearchOptions::default().knowledge_visits)]
    knowledge_visits: u32,
    /// Open every candidate at the root from the first playout, instead
    /// of the pattern engine's best few first and one more as the visits
    /// grow (progressive widening, on boards of 13x13 and up: 8 at first
    /// and one more per quarter more visits; from 17x17, 4 and one more
    /// per half).
    #[arg(long)]
    no_widening: bool,
    /// Let the search choose freely in the opening of a board of 17x17
    /// and up, instead of among the key points of the open corners (no
    /// stone in the corner, or one away from them), the moves the
    /// patterns value as much, and the captures, saves and weak-dragon
    /// moves.
    #[arg(long)]
    no_corners: bool,
    /// Below the root, priors from what a point looks like as well as
    /// from its tactics: a shape of `patterns/playout.db` or a point next
    /// to the last move up, an empty first-line point down.
    #[arg(long)]
    tree_priors: bool,
    /// On boards of 17x17 and up, the root's moves in the pattern
    /// engine's order, with their pattern priors alone, instead of in the
    /// move predictor's (strengths of point features fitted to strong
    /// games, `katachi learn-moves`), which orders them by default.
    #[arg(long, conflicts_with = "predictor_table")]
    no_predictor: bool,
    /// The move predictor's strength table (`katachi learn-moves -o`)
    /// instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub(crate) predictor_table: Option<std::path::PathBuf>,
    /// Playouts without ladder reading: an own string in atari runs
    /// wherever the extension has two liberties, even into a ladder.
    #[arg(long)]
    no_ladders: bool,
    /// Playouts that fill the board: before a random move, a few random
    /// points are tried for one whose eight neighbours are all empty.
    #[arg(long)]
    fill_board: bool,
    /// Playouts that learn the last good replies: each stores the
    /// winner's answers to moves (and forgets the loser's), and later
    /// playouts of the same search play a stored answer again.
    #[arg(long)]
    last_good_reply: bool,
    /// Playouts that answer a capture leaving a dead eye shape (three in
    /// a row or bent, the pyramid four, the bulky or crossed five, the
    /// rabbity six) on its vital point, as the defender's group could
    /// otherwise live in them.
    #[arg(long)]
    nakade: bool,
    /// How much of a playout's worth is its margin rather than its
    /// result, from 0 (win or loss only) to 1: with it the search prefers
    /// the move that wins by more among those that win alike, and loses
    /// by less among lost ones; the win rates it reports are these
    /// worths.
    #[arg(long, value_name = "W", default_value_t = SearchOptions::default().score_weight, value_parser = share)]
    score_weight: f32,
    /// A safety margin when far ahead (a dynamic komi): when the first
    /// quarter of the playouts wins at least 80 % for the side to move,
    /// the rest are judged against a komi raised against it by half its
    /// median margin, so that the search keeps a lead instead of giving
    /// points away.
    #[arg(long)]
    dynamic_komi: bool,
    /// Search threads: each grows its own tree with its share of the
    /// playouts (or the whole clock budget) and the root statistics are
    /// summed. With a fixed number of playouts the moves are a function
    /// of the position, the seed and the number of threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Resign when the best move wins less than this share of its
    /// playouts (after the first third of the board's points in moves).
    #[arg(long, value_name = "F", default_value_t = SearchOptions::default().resign_threshold, value_parser = share)]
    resign_threshold: f32,
    /// Never resign (the same as `--resign-threshold 0`).
    #[arg(long)]
    never_resign: bool,
}

/// A rule set by name.
pub(crate) fn rules(s: &str) -> Result<katachi::go::rules::RuleSet, String> {
    katachi::go::rules::RuleSet::parse(s).ok_or_else(|| {
        format!("`{s}` is not a rule set: chinese, japanese, tromp-taylor, aga or new_zealand")
    })
}

/// A time in seconds: finite, above 0 and at most an hour.
pub(crate) fn seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 3600.0 => {
            Ok(std::time::Duration::from_secs_f64(v))
        }
        _ => Err(format!(
            "`{s}` is not a time in seconds (above 0, at most 3600)"
        )),
    }
}

/// A share between 0 and 1.
pub(crate) fn share(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a share between 0 and 1")),
    }
}

/// A number of (virtual) visits: finite and not negative.
pub(crate) fn visits(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a number of visits (0 or more)")),
    }
}

impl SearchArgs {
    /// Are the playouts left to the board's size (no `--playouts`)?
    pub(crate) fn playouts_by_size(&self) -> bool {
        self.playouts.is_none()
    }

    pub(crate) fn options(&self) -> Option<SearchOptions> {
        let playouts = self
            .playouts
            .unwrap_or_else(|| katachi::go::search::default_playouts(19));
        (playouts > 0).then_some(SearchOptions {
            playouts,
            prior_visits: self.prior_visits,
            shapes: !self.no_shapes,
            knowledge_visits: self.knowledge_visits,
            widening: !self.no_widening,
            corners: !self.no_corners,
            time_budget: None,
            threads: self.threads as usize,
            resign_threshold: if self.never_resign {
                0.0
            } else {
                self.resign_threshold
            },
            cleanup: false,
            tree_priors: self.tree_priors,
            predictor: (!self.no_predictor).then(katachi::go::predictor::Predictor::builtin),
            ladders: !self.no_ladders,
            fill_board: self.fill_board,
            last_good_reply: self.last_good_reply,
            nakade: self.nakade,
            score_weight: self.score_weight,
            dynamic_komi: self.dynamic_komi,
        })
    }
}

/// `katachi tournament`'s flags.
#[derive(clap::Args, Debug)]
pub(crate) struct TournamentArgs {
    /// A player (two or more). Go: NAME=katachi[:playouts=N,db=FILE],
    /// NAME=random or NAME=gtp:COMMAND [ARGS]. Five in a row:
    /// NAME=katachi[:ms=N] (thinking N ms a move; without it, within the
    /// clocks, or 1 s; depth=N or nodes=N instead: fixed work a move),
    /// NAME=seed, NAME=greedy, NAME=random or
    /// NAME=gomocup:COMMAND [ARGS] (a Gomocup brain in a child process);
    /// for Pente also NAME=pente:LEVEL[:PROGRAM] (Debian's `pente` at
    /// level 1 to 9, /usr/games/pente by default).
    /// The hexagon: NAME=katachi[:ms=N], NAME=greedy, NAME=line-records
    /// (seed 003's plan), NAME=random or NAME=file:COMMAND, a player of the
    /// contest's file protocol started in DIR/players/NAME/ with `{team}`
    /// replaced by NAME and `{dir}` by its folder (e.g.
    /// `me=file:katachi hex player --team {team}`).
    #[arg(short = 'p', long = "player", value_name = "NAME=KIND")]
    pub(crate) players: Vec<katachi::tournament::runner::PlayerSpec>,
    /// The game: go, five (five in a row), or hex (five in a row on the
    /// 217-cell hexagon of seed 003's contest; records in the judge's log
    /// format).
    #[arg(long, value_enum, default_value_t = GameArg::Go)]
    pub(crate) game: GameArg,
    /// Five in a row's rule: freestyle (five or more win), exact (exactly
    /// five), renju (Black exactly five, and no double three, double four
    /// or overline: such a move by Black is illegal and loses), pente
    /// (five or more, pairs captured, the fifth pair wins, the
    /// tournament rule; play it with --size 19). The hexagon is played
    /// freestyle or exact.
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub(crate) rule: RuleArg,
    /// The first player against each other one, instead of every pair.
    #[arg(long)]
    pub(crate) gauntlet: bool,
    /// Distinct random openings, each played twice per pairing.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub(crate) openings: usize,
    /// Moves in each random opening [default: 2 for Go; 3 for five in a
    /// row, stones within three points of the centre; 2 on the hexagon,
    /// within two steps of the centre, at most 19].
    #[arg(long, value_name = "M")]
    pub(crate) opening_moves: Option<usize>,
    /// Openings from a file instead of random ones. Go: one a line, GTP
    /// vertices separated by spaces (`D4 F6`), Black first; `#` starts
    /// a comment. Five in a row: a Gomocup openings file, one a line,
    /// `x, y` pairs from the centre (`-1, 0, 0, 0, 1, 1`).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openings", "opening_moves"])]
    pub(crate) openings_file: Option<std::path::PathBuf>,
    /// The seed of the openings and of the engines' own randomness.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// The board's side [default: 9 for Go, 15 for five in a row].
    #[arg(long, value_name = "N")]
    pub(crate) size: Option<usize>,
    /// Go's komi.
    #[arg(long, value_name = "K", default_value_t = 7.5)]
    pub(crate) komi: f32,
    /// Moves after which a game is stopped and counted as it stands (a
    /// draw in five in a row) [default: 400 for Go; the board's points
    /// for five in a row, where a full board is a draw].
    #[arg(long, value_name = "MOVES")]
    pub(crate) cap: Option<usize>,
    /// The most one move may take, in seconds: a player over it loses
    /// on time (an external engine is not waited for beyond it; a
    /// Gomocup brain is told it as `INFO timeout_turn`).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) move_time: Option<f64>,
    /// The most all of one side's moves in a game may take, in
    /// seconds: a player over it loses on time (a Gomocup brain is told
    /// it as `INFO timeout_match`, and `time_left` before each move).
    #[arg(long, value_name = "SECONDS")]
    pub(crate) game_time: Option<f64>,
    /// Time odds: NAME's move and game time are the others' times
    /// FACTOR, as either colour (`--move-time 1 --time-odds k=3`: k
    /// has 3 s a move, its opponents 1 s). Repeat for more players.
    #[arg(long, value_name = "NAME=FACTOR", value_parser = time_odds)]
    pub(crate) time_odds: Vec<(String, f64)>,
    /// Play the K-th of N disjoint parts of the schedule.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<katachi::tournament::schedule::Shard>,
    /// Virtual drawn games per player in the rating fit (0: plain
    /// maximum likelihood, which has no answer for a perfect score).
    #[arg(long, value_name = "G", default_value_t = 1.0)]
    pub(crate) prior: f64,
    /// The tournament's folder (created when missing).
    #[arg(
        short = 'o',
        long,
        value_name = "DIR",
        required_unless_present = "merge"
    )]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Print the standings of these folders' ledgers merged (shards of
    /// one tournament) instead of playing.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["players", "out", "shard"])]
    pub(crate) merge: Vec<std::path::PathBuf>,
}

/// `--game`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameArg {
    Go,
    Five,
    Hex,
}

/// `--rule`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuleArg {
    Freestyle,
    Exact,
    Renju,
    /// Pente: five in a row with captures of pairs.
    Pente,
}

impl From<RuleArg> for katachi::five::Rule {
    fn from(r: RuleArg) -> katachi::five::Rule {
        match r {
            RuleArg::Freestyle => katachi::five::Rule::Freestyle,
            RuleArg::Exact => katachi::five::Rule::Exact,
            RuleArg::Renju => katachi::five::Rule::Renju,
            RuleArg::Pente => katachi::five::Rule::Pente,
        }
    }
}

/// `--time-odds NAME=FACTOR`: a player's name and a positive factor.
fn time_odds(s: &str) -> Result<(String, f64), String> {
    let (name, factor) = s.split_once('=').ok_or(
        "expected NAME=FACTOR, a player's name and how many times the others' time it has",
    )?;
    let factor: f64 = factor
        .trim()
        .parse()
        .map_err(|_| format!("`{factor}` is not a number"))?;
    if !(factor.is_finite() && factor > 0.0) {
        return Err(format!("the factor {factor} is not a positive number"));
    }
    Ok((name.trim().to_string(), factor))
}
