//! Five in a row's side of tournaments: its referee on a [`FiveBoard`],
//! its built-in players, its random openings and [`play_five_game`].
//!
//! The referee owns the rules: a move off the board, on a stone or — for
//! Black under renju — on a forbidden point (double three, double four,
//! overline) is illegal and loses; five in a row by the rule wins; a full
//! board is a draw, and so is a game stopped at the move cap. The record
//! is piskvork's `.psq` with each move's thinking time.
//!
//! The players: katachi's engine ([`FiveKatachi`], its search bounded by
//! the referee's clock), the seed's player and the greedy one
//! ([`Baseline`]), a random legal move ([`RandomFive`]), and any Gomocup
//! brain in a child process ([`super::gomocup::GomocupPlayer`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::referee::{self, Clock, Fingerprint, Referee, Refereed, Side};
use crate::five::database::FiveDatabase;
use crate::five::engine::{Engine, Limits};
use crate::five::line_records::line_records;
use crate::five::record::{self, TimedMove};
use crate::five::{players, FiveBoard, Outcome, Rule};
use crate::gomocup::{budget, Timing};
use crate::position::{Color, Point};
use mkpat::geometry::Hexagon;

/// What every five-in-a-row player is told when a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FiveSetup {
    /// The square board's side, or the hexagon's (9 for the contest's 217
    /// cells).
    pub size: usize,
    pub rule: Rule,
    /// The hexagonal board of seed 003's contest ([`FiveBoard::hexagon`])
    /// instead of the square one; its record is the contest's game log
    /// ([`super::contest`]).
    pub hexagon: bool,
    /// The referee's clocks, for a player that tells its engine (a
    /// Gomocup brain's `INFO timeout_turn` and `timeout_match`).
    pub move_time: Option<Duration>,
    pub game_time: Option<Duration>,
}

/// The referee of a game of five in a row.
#[derive(Clone, Debug)]
pub struct FiveReferee {
    board: FiveBoard,
    record: record::Record,
    setup: FiveSetup,
    /// Stones the referee played for the opening.
    opening: usize,
}

impl FiveReferee {
    /// An empty board of `setup`'s size and rule.
    pub fn new(setup: FiveSetup) -> Result<FiveReferee, String> {
        let board = new_board(&setup)?;
        Ok(FiveReferee {
            board,
            record: record::Record {
                width: setup.size,
                height: setup.size,
                moves: Vec::new(),
            },
            setup,
            opening: 0,
        })
    }

    /// The position as it stands.
    pub fn board(&self) -> &FiveBoard {
        &self.board
    }

    /// Each move's thinking time in milliseconds, in playing order
    /// (`None` for the opening's stones).
    pub fn millis(&self) -> impl Iterator<Item = Option<u32>> + '_ {
        self.record
            .moves
            .iter()
            .enumerate()
            .map(|(k, m)| (k >= self.opening).then_some(m.millis))
    }
}

impl Referee for FiveReferee {
    type Move = Point;
    type Setup = FiveSetup;

    fn setup(&self) -> FiveSetup {
        self.setup
    }

    fn play(&mut self, color: Color, p: Point, took: Duration) -> Result<(), String> {
        if color != self.board.to_move() {
            return Err(format!("it is not {color:?}'s turn"));
        }
        self.board.play(p).map_err(|e| e.to_string())?;
        self.record.moves.push(TimedMove {
            point: p,
            millis: u32::try_from(took.as_millis()).unwrap_or(u32::MAX),
        });
        Ok(())
    }

    fn play_opening(&mut self, color: Color, p: Point) -> Result<(), String> {
        self.play(color, p, Duration::ZERO)?;
        self.opening += 1;
        Ok(())
    }

    fn over(&self) -> bool {
        self.board.outcome().is_some()
    }

    fn moves(&self) -> usize {
        self.board.moves().len()
    }

    fn verdict(&self) -> (Option<Color>, f64) {
        match self.board.outcome() {
            Some(Outcome::Win(c)) => (Some(c), 0.0),
            Some(Outcome::Draw) | None => (None, 0.0),
        }
    }

    fn extension(&self) -> &'static str {
        if self.setup.hexagon {
            "txt"
        } else {
            "psq"
        }
    }

    /// The `.psq` record; the players and the result are in the ledger
    /// (the format has no field for them that piskvork reads back). On
    /// the hexagon, the contest's game log, its ending read from the
    /// board alone ([`super::contest::game_log`] knows failures too).
    fn record(&self, black: &str, white: &str, _result: &str) -> String {
        if self.setup.hexagon {
            super::contest::game_log(self, [black, white], None).to_string()
        } else {
            record::write_psq(&self.record)
        }
    }

    fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(self.record.moves.iter().map(|m| (m.point.i, m.point.j)))
    }
}

/// Plays one game of five in a row after `opening` (stones the referee
/// plays for both sides, Black first; a stone the rules refuse stops the
/// opening there), Black and White with `odds` times `setup`'s clocks
/// ([`referee::EVEN`] for the same).
pub fn play_five_game(
    black: &mut dyn Side<FiveReferee>,
    white: &mut dyn Side<FiveReferee>,
    setup: FiveSetup,
    move_cap: usize,
    odds: [f64; 2],
    seed: u64,
    opening: &[Point],
) -> Result<Refereed<FiveReferee>, String> {
    let clock = Clock {
        move_cap,
        move_time: setup.move_time,
        game_time: setup.game_time,
        odds,
    };
    Ok(referee::referee(
        FiveReferee::new(setup)?,
        black,
        white,
        clock,
        seed,
        opening,
    ))
}

/// The text of a five-in-a-row result: `B+5` (five in a row), `W+F`,
/// `B+T`, `B+R`, `0` for a draw.
pub fn result_text(r: &Refereed<FiveReferee>) -> String {
    let Some(winner) = r.winner() else {
        return "0".into();
    };
    let w = if winner == Color::Black { 'B' } else { 'W' };
    match r.end {
        referee::End::Resigned(_) => format!("{w}+R"),
        referee::End::Forfeit(_) | referee::End::Illegal(_) => format!("{w}+F"),
        referee::End::Timeout(_) => format!("{w}+T"),
        _ => format!("{w}+5"),
    }
}

/// `n` openings of `stones` random stones each, near the centre of an
/// empty `size` board (within three points of it, or the whole of a
/// smaller board), Black first, legal under `rule` and ending nothing;
/// the same for every run with the same arguments.
pub fn random_openings(
    size: usize,
    rule: Rule,
    n: usize,
    stones: usize,
    seed: u64,
) -> Result<Vec<Vec<Point>>, String> {
    let empty = FiveBoard::new(size, rule).map_err(|e| e.to_string())?;
    let centre = (size / 2) as i32;
    let near: Vec<Point> = (0..size as i32)
        .flat_map(|i| (0..size as i32).map(move |j| Point::new(i, j)))
        .filter(|p| (p.i - centre).abs() <= 3 && (p.j - centre).abs() <= 3)
        .collect();
    Ok((0..n)
        .map(|k| {
            let mut x = crate::seeding::stream(seed, k as u64);
            let mut board = empty.clone();
            let mut out = Vec::new();
            for _ in 0..stones {
                let choices: Vec<Point> = near
                    .iter()
                    .copied()
                    .filter(|&p| board.is_legal(p) && !board.wins_at(p, board.to_move()))
                    .collect();
                if choices.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let p = choices[(x % choices.len() as u64) as usize];
                if board.play(p).is_err() {
                    break;
                }
                out.push(p);
            }
            out
        })
        .collect())
}

/// The stones of an opening replayed by the rules: the first that is
/// illegal (a forbidden point under renju) or ends the game, as an index
/// and a reason.
pub fn check_opening(opening: &[Point], size: usize, rule: Rule) -> Result<(), (usize, String)> {
    let mut board = FiveBoard::new(size, rule).map_err(|e| (0, e.to_string()))?;
    for (k, &p) in opening.iter().enumerate() {
        match board.play(p) {
            Err(e) => return Err((k, e.to_string())),
            Ok(Some(_)) => return Err((k, "it ends the game".into())),
            Ok(None) => {}
        }
    }
    Ok(())
}

/// A player's own board, kept in step with the game.
fn follow(board: &mut FiveBoard, color: Color, p: Point) -> Result<(), String> {
    if board.to_move() != color {
        return Err(format!("{color:?} moved out of turn"));
    }
    board.play(p).map(|_| ()).map_err(|e| e.to_string())
}

fn new_board(setup: &FiveSetup) -> Result<FiveBoard, String> {
    if setup.hexagon {
        FiveBoard::hexagon(setup.size, setup.rule).map_err(|e| e.to_string())
    } else {
        FiveBoard::new(setup.size, setup.rule).map_err(|e| e.to_string())
    }
}

/// How long katachi thinks without `ms=` and without a clock.
pub const DEFAULT_THINK: Duration = Duration::from_secs(1);

/// How much a five-in-a-row katachi player searches a move: one bound,
/// so that thinking time and fixed work cannot be asked for together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FiveWork {
    /// Thinking time a move (`ms=`), within the referee's move limit
    /// (less a margin) and a share of what is left of the game time;
    /// `None`: that share alone, or [`DEFAULT_THINK`] without clocks.
    Time(Option<Duration>),
    /// Every move searched to this depth with no clock (`depth=`; fixed
    /// work: the same moves under any load).
    Depth(u32),
    /// The full search (threat searches included) bounded by this many
    /// nodes a move instead of a clock (`nodes=`; fixed work at the
    /// settings of thinking time).
    Nodes(u64),
}

/// katachi's five-in-a-row engine ([`crate::five::engine`]), searching
/// a move as its [`FiveWork`] says; by the clock, within the referee's
/// move limit and a share of what is left of its game time, as
/// Gomocup's brains share theirs ([`budget`]).
#[derive(Debug)]
pub struct FiveKatachi {
    name: String,
    work: FiveWork,
    /// The database; the builtin one for the game's rule when `None`.
    db: Option<Arc<FiveDatabase>>,
    /// The hexagon's database (a personality's re-weighing); the builtin
    /// one when `None`.
    hex_db: Option<Arc<FiveDatabase<Hexagon>>>,
    board: Option<FiveBoard>,
    limit: Option<Duration>,
    game_left: Option<Duration>,
    /// The game's seed: equally valued candidates are ordered by it
    /// ([`Engine::with_salt`]), so that games against a deterministic
    /// opponent differ from game to game, each the same for its seed.
    salt: u64,
}

impl FiveKatachi {
    pub fn new(name: &str, work: FiveWork) -> FiveKatachi {
        FiveKatachi {
            name: name.to_string(),
            work,
            db: None,
            hex_db: None,
            board: None,
            limit: None,
            game_left: None,
            salt: 0,
        }
    }

    /// The player valuing with `db` instead of the builtin database.
    pub fn with_database(mut self, db: Arc<FiveDatabase>) -> FiveKatachi {
        self.db = Some(db);
        self
    }

    /// The player valuing the hexagon with `db` instead of its builtin
    /// database.
    pub fn with_hex_database(mut self, db: Arc<FiveDatabase<Hexagon>>) -> FiveKatachi {
        self.hex_db = Some(db);
        self
    }

    /// The time to spend on the next move, with `empty` empty points.
    fn budget(&self, empty: usize) -> Duration {
        let clock = budget(
            &Timing {
                turn: self.limit,
                match_total: None,
                left: self.game_left,
            },
            empty,
        );
        let think = match self.work {
            FiveWork::Time(think) => think,
            FiveWork::Depth(_) | FiveWork::Nodes(_) => None,
        };
        match (think, clock) {
            (Some(t), Some(c)) => t.min(c),
            (t, c) => t.or(c).unwrap_or(DEFAULT_THINK),
        }
    }
}

impl Side<FiveReferee> for FiveKatachi {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, setup: &FiveSetup, seed: u64) -> Result<(), String> {
        self.board = Some(new_board(setup)?);
        self.salt = seed;
        Ok(())
    }
    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        let board = self.board.as_mut().ok_or("no game")?;
        follow(board, color, p)
    }
    fn set_move_limit(&mut self, limit: Option<Duration>, game_left: Option<Duration>) {
        self.limit = limit;
        self.game_left = game_left;
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        let board = self.board.as_ref().ok_or("no game")?;
        let empty = board.points().count() - board.stone_count();
        let budget = self.budget(empty);
        let start = Instant::now();
        let elapsed = || start.elapsed();
        let stop = AtomicBool::new(false);
        let nodes = match self.work {
            FiveWork::Nodes(n) => Some(n),
            FiveWork::Time(_) | FiveWork::Depth(_) => None,
        };
        let limits = match self.work {
            // As `katachi personality diff` searches.
            FiveWork::Depth(depth) => Limits::at_depth(depth, &stop),
            FiveWork::Time(_) | FiveWork::Nodes(_) => Limits {
                elapsed: &elapsed,
                // A node budget replaces the clock.
                budget: nodes.is_none().then_some(budget),
                stop: &stop,
                // The clock or the node budget ends the deepening; a
                // cap of 8 left most of a large budget unspent.
                max_depth: 20,
                vcf_depth: 12,
                vct_depth: 4,
                table_bytes: crate::five::engine::DEFAULT_TABLE_BYTES,
                proof_search: false,
                max_nodes: nodes,
            },
        };
        let found = if board.hex_layout().is_some() {
            match &self.hex_db {
                None => Engine::<Hexagon>::on(board.clone())
                    .with_salt(self.salt)
                    .choose(&limits),
                Some(db) => Engine::with_database(board.clone(), db.clone())
                    .with_salt(self.salt)
                    .choose(&limits),
            }
        } else {
            let db = self
                .db
                .clone()
                .unwrap_or_else(|| FiveDatabase::for_rule(board.rule()));
            Engine::with_database(board.clone(), db)
                .with_salt(self.salt)
                .choose(&limits)
        };
        let Some((p, _)) = found else {
            return Ok(None);
        };
        follow(self.board.as_mut().ok_or("no game")?, color, p)?;
        Ok(Some(p))
    }
}

/// One of the engine layer's deterministic baselines:
/// [`players::pishquorky`] (the seed's player), [`players::greedy`] or
/// [`line_records`] (seed 003's).
#[derive(Debug)]
pub struct Baseline {
    name: String,
    choose: fn(&FiveBoard) -> Option<Point>,
    board: Option<FiveBoard>,
}

impl Baseline {
    /// The seed's player, Pishquorky's depth-3 minimax.
    pub fn seed(name: &str) -> Baseline {
        Baseline {
            name: name.to_string(),
            choose: players::pishquorky,
            board: None,
        }
    }

    /// Win, block, stop open threes, else near the centre.
    pub fn greedy(name: &str) -> Baseline {
        Baseline {
            name: name.to_string(),
            choose: players::greedy,
            board: None,
        }
    }

    /// The plan of seed 003's notes: depth-2 minimax over the line
    /// records ([`line_records`]).
    pub fn line_records(name: &str) -> Baseline {
        Baseline {
            name: name.to_string(),
            choose: line_records,
            board: None,
        }
    }
}

impl Side<FiveReferee> for Baseline {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, setup: &FiveSetup, _seed: u64) -> Result<(), String> {
        self.board = Some(new_board(setup)?);
        Ok(())
    }
    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        follow(self.board.as_mut().ok_or("no game")?, color, p)
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        let board = self.board.as_mut().ok_or("no game")?;
        let Some(p) = (self.choose)(board) else {
            return Ok(None);
        };
        follow(board, color, p)?;
        Ok(Some(p))
    }
}

/// A uniformly random legal move, from the game's seed; it resigns only
/// when no point is legal.
#[derive(Debug)]
pub struct RandomFive {
    name: String,
    board: Option<FiveBoard>,
    rng: u64,
}

impl RandomFive {
    pub fn new(name: &str) -> RandomFive {
        RandomFive {
            name: name.to_string(),
            board: None,
            rng: 1,
        }
    }
}

impl Side<FiveReferee> for RandomFive {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(&mut self, setup: &FiveSetup, seed: u64) -> Result<(), String> {
        self.board = Some(new_board(setup)?);
        self.rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        Ok(())
    }
    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        follow(self.board.as_mut().ok_or("no game")?, color, p)
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        let board = self.board.as_mut().ok_or("no game")?;
        let legal: Vec<Point> = board.legal_moves().collect();
        if legal.is_empty() {
            return Ok(None);
        }
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        let p = legal[(x % legal.len() as u64) as usize];
        follow(board, color, p)?;
        Ok(Some(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(size: usize, rule: Rule) -> FiveSetup {
        FiveSetup {
            size,
            rule,
            hexagon: false,
            move_time: None,
            game_time: None,
        }
    }

    /// A player that plays a fixed list of points, then resigns.
    struct Script(Vec<Point>);

    impl Side<FiveReferee> for Script {
        fn name(&self) -> String {
            "script".into()
        }
        fn new_game(&mut self, _: &FiveSetup, _: u64) -> Result<(), String> {
            Ok(())
        }
        fn play(&mut self, _: Color, _: Point) -> Result<(), String> {
            Ok(())
        }
        fn genmove(&mut self, _: Color) -> Result<Option<Point>, String> {
            Ok((!self.0.is_empty()).then(|| self.0.remove(0)))
        }
    }

    /// A [`Script`] that takes `pause` over each move and writes down
    /// the clocks the referee gives it.
    struct Slow {
        script: Script,
        pause: Duration,
        clocks: Option<(Option<Duration>, Option<Duration>)>,
        limits: Vec<Option<Duration>>,
    }

    impl Side<FiveReferee> for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn new_game(&mut self, _: &FiveSetup, _: u64) -> Result<(), String> {
            Ok(())
        }
        fn play(&mut self, _: Color, _: Point) -> Result<(), String> {
            Ok(())
        }
        fn set_clocks(&mut self, move_time: Option<Duration>, game_time: Option<Duration>) {
            self.clocks = Some((move_time, game_time));
        }
        fn set_move_limit(&mut self, limit: Option<Duration>, _: Option<Duration>) {
            self.limits.push(limit);
        }
        fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
            std::thread::sleep(self.pause);
            self.script.genmove(color)
        }
    }

    #[test]
    fn time_odds_give_each_colour_its_own_clocks() {
        let slow = |pause: u64, row: i32| Slow {
            script: Script((0..5).map(|j| Point::new(row, j)).collect()),
            pause: Duration::from_millis(pause),
            clocks: None,
            limits: Vec::new(),
        };
        let timed = FiveSetup {
            move_time: Some(Duration::from_millis(50)),
            game_time: Some(Duration::from_secs(10)),
            ..setup(15, Rule::Freestyle)
        };
        // Black takes 100 ms a move: over the match's 50 ms, well within
        // the 2 s that forty times the time gives it.
        let (mut black, mut white) = (slow(100, 7), slow(0, 9));
        let r = play_five_game(&mut black, &mut white, timed, 400, [40.0, 1.0], 1, &[]).unwrap();
        assert_eq!(
            (r.end, r.winner()),
            (referee::End::Rules, Some(Color::Black))
        );
        let ms = Duration::from_millis;
        assert_eq!(black.clocks, Some((Some(ms(2000)), Some(ms(400_000)))));
        assert_eq!(white.clocks, Some((Some(ms(50)), Some(ms(10_000)))));
        assert_eq!(black.limits.len(), 5);
        assert!(black.limits.iter().all(|&l| l == Some(ms(2000))));
        assert!(white.limits.iter().all(|&l| l == Some(ms(50))));
        // The same game at even time is lost on time at Black's first
        // move; and the odds follow the colour, not the player.
        let (mut black, mut white) = (slow(100, 7), slow(0, 9));
        let r = play_five_game(&mut black, &mut white, timed, 400, referee::EVEN, 1, &[]).unwrap();
        assert_eq!(r.end, referee::End::Timeout(Color::Black));
        let (mut black, mut white) = (slow(0, 7), slow(100, 9));
        let r = play_five_game(&mut black, &mut white, timed, 400, [1.0, 40.0], 1, &[]).unwrap();
        assert_eq!(
            (r.end, r.winner()),
            (referee::End::Rules, Some(Color::Black))
        );
        assert_eq!(white.limits, vec![Some(ms(2000)); 4]);
    }

    #[test]
    fn five_in_a_row_wins_and_the_record_reads_back() {
        let mut black = Script((0..5).map(|j| Point::new(7, j)).collect());
        let mut white = Script((0..5).map(|j| Point::new(9, j)).collect());
        let r = play_five_game(
            &mut black,
            &mut white,
            setup(15, Rule::Freestyle),
            400,
            referee::EVEN,
            1,
            &[],
        )
        .unwrap();
        assert_eq!(r.end, referee::End::Rules);
        assert_eq!(r.winner(), Some(Color::Black));
        assert_eq!(result_text(&r), "B+5");
        let text = r.referee.record("script", "script", "B+5");
        let back = record::read_psq(&text).unwrap();
        assert_eq!(back.moves.len(), 9);
        assert_eq!(back.moves[8].point, Point::new(7, 4));
    }

    #[test]
    fn a_forbidden_point_under_renju_loses_for_black() {
        // Black's fourth stone at (7,7) makes two open threes: forbidden.
        let opening = [
            Point::new(7, 5),
            Point::new(0, 0),
            Point::new(7, 6),
            Point::new(0, 2),
            Point::new(5, 7),
            Point::new(0, 4),
            Point::new(6, 7),
            Point::new(0, 6),
        ];
        assert!(check_opening(&opening, 15, Rule::Renju).is_ok());
        let mut black = Script(vec![Point::new(7, 7)]);
        let mut white = Script(vec![Point::new(14, 14)]);
        let r = play_five_game(
            &mut black,
            &mut white,
            setup(15, Rule::Renju),
            400,
            referee::EVEN,
            1,
            &opening,
        )
        .unwrap();
        assert_eq!(r.end, referee::End::Illegal(Color::Black), "{:?}", r.error);
        assert_eq!(r.winner(), Some(Color::White));
        assert!(r.error.unwrap().contains("forbidden"));
        // The same move is fine in freestyle.
        let mut black = Script(vec![Point::new(7, 7)]);
        let mut white = Script(vec![]);
        let r = play_five_game(
            &mut black,
            &mut white,
            setup(15, Rule::Freestyle),
            400,
            referee::EVEN,
            1,
            &opening,
        )
        .unwrap();
        assert_eq!(r.end, referee::End::Resigned(Color::White));
    }

    #[test]
    fn a_full_board_is_a_draw_and_the_cap_too() {
        // Random players fill a 5x5 board, rarely with a five: play
        // seeds until one game ends full.
        let mut draws = 0;
        for seed in 0..40 {
            let r = play_five_game(
                &mut RandomFive::new("a"),
                &mut RandomFive::new("b"),
                setup(5, Rule::Exact),
                400,
                referee::EVEN,
                seed,
                &[],
            )
            .unwrap();
            assert!(r.error.is_none());
            if r.winner().is_none() {
                assert_eq!(r.referee.moves(), 25);
                assert_eq!(result_text(&r), "0");
                draws += 1;
            }
        }
        assert!(draws > 0);
        let r = play_five_game(
            &mut Baseline::greedy("g"),
            &mut Baseline::greedy("h"),
            setup(15, Rule::Freestyle),
            6,
            referee::EVEN,
            1,
            &[],
        )
        .unwrap();
        assert_eq!(
            (r.end, r.winner(), r.referee.moves()),
            (referee::End::Cap, None, 6)
        );
    }

    #[test]
    fn random_openings_are_seeded_legal_and_central() {
        let a = random_openings(15, Rule::Renju, 5, 4, 3).unwrap();
        assert_eq!(a, random_openings(15, Rule::Renju, 5, 4, 3).unwrap());
        assert_ne!(a, random_openings(15, Rule::Renju, 5, 4, 4).unwrap());
        // An even seed is not the odd seed after it (`crate::seeding`):
        // `--seed 8` and `--seed 9` drew the same openings before.
        for seed in [8u64, 10, 42] {
            let even = random_openings(15, Rule::Exact, 10, 3, seed).unwrap();
            let odd = random_openings(15, Rule::Exact, 10, 3, seed + 1).unwrap();
            let same = even.iter().zip(&odd).filter(|(x, y)| x == y).count();
            assert!(same <= 1, "seed {seed}: {same} of 10 the same");
        }
        for o in &a {
            assert_eq!(o.len(), 4);
            assert!(o
                .iter()
                .all(|p| (p.i - 7).abs() <= 3 && (p.j - 7).abs() <= 3));
            assert!(check_opening(o, 15, Rule::Renju).is_ok());
        }
    }

    #[test]
    fn katachi_beats_the_random_player() {
        let mut k = FiveKatachi::new("k", FiveWork::Time(Some(Duration::from_millis(20))));
        let mut r = RandomFive::new("r");
        let res = play_five_game(
            &mut k,
            &mut r,
            setup(15, Rule::Freestyle),
            400,
            referee::EVEN,
            2,
            &[],
        )
        .unwrap();
        assert_eq!(res.winner(), Some(Color::Black), "{:?}", res.error);
        assert_eq!(res.end, referee::End::Rules);
    }
}
