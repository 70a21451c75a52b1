//! One refereed game of any game: the loop that asks the players for
//! moves, checks each against the game's rules, keeps the clocks and
//! charges failures, whatever the game.
//!
//! A game comes in as a [`Referee`]: its rules (is this move legal, play
//! it, is the game over, who won) and its record (SGF for Go, `.psq` for
//! five in a row). The players come in as [`Side`]s of that referee. The
//! loop, [`referee`], is the one place where a tournament decides that a
//! crash, a move over the time limit, a malformed answer or an illegal
//! move loses, so that every game charges them alike; Go's
//! [`super::play_game_from`] and five in a row's
//! [`super::five::play_five_game`] are thin wrappers around it.

use std::time::{Duration, Instant};

use crate::position::Color;

/// A game's rules and record, as the referee applies them.
pub trait Referee {
    /// A move of the game (Go's includes a pass; five in a row's is a
    /// point).
    type Move: Copy;
    /// What every player is told when a game starts (Go: the board size
    /// and komi; five in a row: the board size and rule).
    type Setup;

    /// The conditions the players start their game with.
    fn setup(&self) -> Self::Setup;

    /// Plays `mv` for `color` if the rules allow it, recording the time
    /// its player took; otherwise says why not, and changes nothing.
    fn play(&mut self, color: Color, mv: Self::Move, took: Duration) -> Result<(), String>;

    /// [`Referee::play`] for a move of the opening, which the referee
    /// plays for both sides.
    fn play_opening(&mut self, color: Color, mv: Self::Move) -> Result<(), String> {
        self.play(color, mv, Duration::ZERO)
    }

    /// Whether the rules ended the game (two passes, a five, a full
    /// board).
    fn over(&self) -> bool;

    /// Moves played so far, the opening's included.
    fn moves(&self) -> usize;

    /// The game's verdict as it stands when no player failed: the winner
    /// (`None` for a draw) and the first player's margin in the game's
    /// unit (Go's area score after komi; 0 where the game has none).
    fn verdict(&self) -> (Option<Color>, f64);

    /// The record's file extension (`sgf`, `psq`).
    fn extension(&self) -> &'static str;

    /// The game's record, naming the players and the result (`result` is
    /// SGF's `RE` text, which a format without a result field leaves out).
    fn record(&self, black: &str, white: &str, result: &str) -> String;

    /// The moves played so far, the opening's included, folded into one
    /// [`Fingerprint`]: a tournament compares them to count the games
    /// that repeat another move for move.
    fn fingerprint(&self) -> Fingerprint;
}

/// A game's moves folded into 64 bits (FNV-1a over each move's two
/// coordinates), the same on every machine and build, which std's
/// hashers do not promise: two games with the same moves have the same
/// fingerprint, and two different games almost never do. Shown as 16
/// hexadecimal digits, the ledger's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fingerprint(u64);

impl Fingerprint {
    /// The fingerprint of a game without moves.
    pub fn empty() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }

    /// Folds in one move given by two coordinates (a pass by `(-1, -1)`,
    /// which no point has).
    pub fn push(&mut self, a: i32, b: i32) {
        for byte in a.to_le_bytes().into_iter().chain(b.to_le_bytes()) {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The fingerprint of `moves`, in order.
    pub fn of(moves: impl IntoIterator<Item = (i32, i32)>) -> Fingerprint {
        let mut f = Fingerprint::empty();
        for (a, b) in moves {
            f.push(a, b);
        }
        f
    }
}

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// One side of a game of `R`, as the referee drives it.
pub trait Side<R: Referee + ?Sized> {
    /// A short name for tables and records.
    fn name(&self) -> String;
    /// Starts a new game; `seed` varies from game to game.
    fn new_game(&mut self, setup: &R::Setup, seed: u64) -> Result<(), String>;
    /// The opponent (or this player, in the opening) played `mv`.
    fn play(&mut self, color: Color, mv: R::Move) -> Result<(), String>;
    /// This player's move for `color` (already played on its own board,
    /// if it keeps one); `None` to resign.
    fn genmove(&mut self, color: Color) -> Result<Option<R::Move>, String>;
    /// The referee's limit on the next move, and what is left of this
    /// side's game time: a player in another process stops waiting after
    /// the first and may tell its engine both. The referee charges a move
    /// over the limit as lost on time either way.
    fn set_move_limit(&mut self, limit: Option<Duration>, game_left: Option<Duration>) {
        let _ = (limit, game_left);
    }
    /// This side's clocks for the coming game, after any time odds: the
    /// most one move may take and all its moves together. Told before
    /// [`Side::new_game`], for a player that tells its engine at the start
    /// (a Gomocup brain's `INFO timeout_turn`), since the setup both sides
    /// share names the match's clocks, not this side's.
    fn set_clocks(&mut self, move_time: Option<Duration>, game_time: Option<Duration>) {
        let _ = (move_time, game_time);
    }
}

/// The clocks and the cap every game of a match is played with.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Moves (the opening's included) after which a game is stopped and
    /// judged as it stands.
    pub move_cap: usize,
    /// The most one move may take.
    pub move_time: Option<Duration>,
    /// The most all of one side's moves of a game may take together.
    pub game_time: Option<Duration>,
    /// Time odds: Black's and White's clocks are the two above times
    /// these factors ([`EVEN`] for the same time).
    pub odds: [f64; 2],
}

/// Time odds of an even game: each side has the match's clocks.
pub const EVEN: [f64; 2] = [1.0, 1.0];

impl Clock {
    /// `color`'s move limit and game time: the match's times its odds.
    pub fn of(&self, color: Color) -> (Option<Duration>, Option<Duration>) {
        let factor = self.odds[index(color)];
        let scale = |t: Option<Duration>| t.map(|t| t.mul_f64(factor));
        (scale(self.move_time), scale(self.game_time))
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum End {
    /// By the rules: two passes in a row (Go), a five or a full board
    /// (five in a row).
    Rules,
    /// The move cap was reached.
    Cap,
    /// This colour resigned.
    Resigned(Color),
    /// This colour's engine failed (crashed, closed its pipe, answered
    /// nonsense).
    Forfeit(Color),
    /// This colour played an illegal move.
    Illegal(Color),
    /// This colour's move took longer than the limit.
    Timeout(Color),
}

impl End {
    /// The colour charged with the game, when a player failed or
    /// resigned.
    pub fn loser(self) -> Option<Color> {
        match self {
            End::Resigned(c) | End::Forfeit(c) | End::Illegal(c) | End::Timeout(c) => Some(c),
            End::Rules | End::Cap => None,
        }
    }
}

/// A game the referee has finished.
#[derive(Debug)]
pub struct Refereed<R> {
    /// The referee, with the final position and the record.
    pub referee: R,
    pub end: End,
    /// Total thinking time and number of moves asked, per colour (black,
    /// white).
    pub time: [(Duration, usize); 2],
    /// What went wrong, for a failure.
    pub error: Option<String>,
}

impl<R: Referee> Refereed<R> {
    /// The winner: the failing side's opponent, else the rules' verdict
    /// (`None` for a draw).
    pub fn winner(&self) -> Option<Color> {
        match self.end.loser() {
            Some(c) => Some(c.other()),
            None => self.referee.verdict().0,
        }
    }
}

pub(super) fn index(c: Color) -> usize {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Plays one game on `referee`: both players start it (`seed` for Black,
/// a variant for White), the referee plays `opening` for both sides
/// (Black first; a move the rules refuse stops the opening there), then
/// the players move in turn until the rules end the game, the cap is
/// reached or a player fails.
pub fn referee<R: Referee>(
    mut referee: R,
    black: &mut dyn Side<R>,
    white: &mut dyn Side<R>,
    clock: Clock,
    seed: u64,
    opening: &[R::Move],
) -> Refereed<R> {
    let mut time = [(Duration::ZERO, 0usize); 2];
    let mut end = End::Cap;
    let mut error = None;
    let clocks = [clock.of(Color::Black), clock.of(Color::White)];
    // The limit on `color`'s next move: its move limit, or what is left
    // of its game time if that is less.
    let left =
        |color: Color, spent: Duration| clocks[index(color)].1.map(|g| g.saturating_sub(spent));
    let limit = |color: Color, spent: Duration| -> Option<Duration> {
        match (clocks[index(color)].0, left(color, spent)) {
            (Some(m), Some(l)) => Some(m.min(l)),
            (m, l) => m.or(l),
        }
    };
    let setup = referee.setup();
    black.set_clocks(clocks[0].0, clocks[0].1);
    white.set_clocks(clocks[1].0, clocks[1].1);
    // A player that cannot start its game forfeits it.
    if let Err(e) = black.new_game(&setup, seed) {
        error = Some(e);
        end = End::Forfeit(Color::Black);
    } else if let Err(e) = white.new_game(&setup, seed ^ 0x5bd1_e995) {
        error = Some(e);
        end = End::Forfeit(Color::White);
    }
    let mut color = Color::Black;
    for &mv in opening {
        if error.is_some() || referee.play_opening(color, mv).is_err() {
            break;
        }
        if let Err(e) = black.play(color, mv) {
            error = Some(e);
            end = End::Forfeit(Color::Black);
        } else if let Err(e) = white.play(color, mv) {
            error = Some(e);
            end = End::Forfeit(Color::White);
        }
        color = color.other();
    }
    if error.is_none() && referee.over() {
        end = End::Rules;
    }
    while error.is_none() && !referee.over() && referee.moves() < clock.move_cap {
        let (me, other): (&mut dyn Side<R>, &mut dyn Side<R>) = match color {
            Color::Black => (&mut *black, &mut *white),
            Color::White => (&mut *white, &mut *black),
        };
        let spent = time[index(color)].0;
        let allowed = limit(color, spent);
        me.set_move_limit(allowed, left(color, spent));
        let t0 = Instant::now();
        let answer = me.genmove(color);
        let took = t0.elapsed();
        let slot = &mut time[index(color)];
        slot.0 += took;
        slot.1 += 1;
        if let Some(allowed) = allowed.filter(|&l| took > l) {
            error = Some(format!(
                "{} took {:.2} s for a move, over the {:.2} s it had",
                me.name(),
                took.as_secs_f64(),
                allowed.as_secs_f64()
            ));
            end = End::Timeout(color);
            break;
        }
        let mv = match answer {
            Ok(Some(mv)) => mv,
            Ok(None) => {
                end = End::Resigned(color);
                break;
            }
            Err(e) => {
                error = Some(e);
                end = End::Forfeit(color);
                break;
            }
        };
        if let Err(e) = referee.play(color, mv, took) {
            error = Some(format!("{} played an illegal move: {e}", me.name()));
            end = End::Illegal(color);
            break;
        }
        if let Err(e) = other.play(color, mv) {
            error = Some(e);
            end = End::Forfeit(color.other());
            break;
        }
        if referee.over() {
            end = End::Rules;
            break;
        }
        color = color.other();
    }
    Refereed {
        referee,
        end,
        time,
        error,
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    #[test]
    fn a_fingerprint_is_fnv1a_over_the_moves_in_order() {
        // FNV-1a 64's offset basis, and its value for the eight bytes of
        // the move (0, 0).
        assert_eq!(Fingerprint::empty().to_string(), "cbf29ce484222325");
        assert_eq!(Fingerprint::of([(0, 0)]).to_string(), "a8c7f832281a39c5");
        let game = [(3, 4), (4, 4), (-1, -1), (9, 0)];
        assert_eq!(Fingerprint::of(game), Fingerprint::of(game));
        // Order, a pass and one coordinate more or less all count.
        let swapped = [(4, 4), (3, 4), (-1, -1), (9, 0)];
        let no_pass = [(3, 4), (4, 4), (9, 0)];
        let transposed = [(4, 3), (4, 4), (-1, -1), (0, 9)];
        for other in [&swapped[..], &no_pass, &transposed, &game[..3]] {
            assert_ne!(
                Fingerprint::of(game),
                Fingerprint::of(other.iter().copied())
            );
        }
    }
}
