//! The manager's time information and the per-move budget drawn from it:
//! a pure function of the `INFO` values and the number of empty points,
//! so that it is tested with explicit numbers and no clock.

use std::time::Duration;

/// `INFO time_left`'s value for a match without a time limit (the largest
/// 32-bit signed number); any larger value means the same.
pub const NO_TIME_LIMIT_MS: u64 = 2_147_483_647;

/// The most kept back from a limit for what the budget does not see: the
/// pipe, the operating system's scheduling, writing the move. A tenth of
/// the limit when that is less, so that short limits keep most of their
/// time.
const SAFETY: Duration = Duration::from_millis(100);

/// The fewest and the most moves the rest of a match's time is shared
/// between. Half the empty points is the most moves the brain may still
/// have to play; early on that is far more than a game lasts, late it
/// would hand the last moves all the time.
const MIN_MOVES_AHEAD: u64 = 5;
const MAX_MOVES_AHEAD: u64 = 30;

/// The time limits the manager announced, `None` when it set none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    /// `timeout_turn` (zero: play as fast as possible).
    pub turn: Option<Duration>,
    /// `timeout_match`: the whole match.
    pub match_total: Option<Duration>,
    /// `time_left`: what remains of `match_total`, as last reported; when
    /// the manager has not reported it yet, all of `match_total` is left.
    pub left: Option<Duration>,
}

fn with_margin(limit: Duration) -> Duration {
    limit.saturating_sub(SAFETY.min(limit / 10))
}

/// The time to spend on the next move with `empty` empty points on the
/// board: within the turn's limit and a share of what is left of the
/// match, each less a safety margin; `None` when neither limit is set.
pub fn budget(timing: &Timing, empty: usize) -> Option<Duration> {
    let turn = timing.turn.map(with_margin);
    let left = timing.left.or(timing.match_total);
    let share = left.map(|left| {
        let ahead = (empty as u64 / 2).clamp(MIN_MOVES_AHEAD, MAX_MOVES_AHEAD);
        let ahead = u32::try_from(ahead).unwrap_or(u32::MAX);
        with_margin(left) / ahead
    });
    match (turn, share) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn no_limit_no_budget() {
        assert_eq!(budget(&Timing::default(), 400), None);
    }

    #[test]
    fn the_turn_limit_less_its_margin() {
        let t = Timing {
            turn: Some(ms(5000)),
            ..Timing::default()
        };
        assert_eq!(budget(&t, 400), Some(ms(4900)));
        // A short limit keeps nine tenths.
        let t = Timing {
            turn: Some(ms(500)),
            ..Timing::default()
        };
        assert_eq!(budget(&t, 400), Some(ms(450)));
    }

    #[test]
    fn zero_turn_time_is_as_fast_as_possible() {
        let t = Timing {
            turn: Some(Duration::ZERO),
            match_total: Some(ms(180_000)),
            left: None,
        };
        assert_eq!(budget(&t, 400), Some(Duration::ZERO));
    }

    #[test]
    fn the_match_time_shared_between_the_moves_ahead() {
        // Gomocup's freestyle limits at the start of a 20x20 game: the
        // match's 180 s less 100 ms over 30 moves is 5997 ms, more than
        // the turn allows.
        let t = Timing {
            turn: Some(ms(5000)),
            match_total: Some(ms(180_000)),
            left: None,
        };
        assert_eq!(budget(&t, 400), Some(ms(4900)));
        // 30 s left: 29.9 s over 30 moves.
        let t = Timing {
            left: Some(ms(30_000)),
            ..t
        };
        assert_eq!(budget(&t, 400), Some(ms(29_900) / 30));
        // 30 s left and 20 empty points: ten moves ahead at most.
        assert_eq!(budget(&t, 20), Some(ms(2990)));
        // One empty point: still five moves ahead, never all the time,
        // and never more than the turn allows.
        assert_eq!(budget(&t, 1), Some(ms(4900)));
        let untimed_turn = Timing { turn: None, ..t };
        assert_eq!(budget(&untimed_turn, 1), Some(ms(5980)));
    }

    #[test]
    fn time_left_without_a_turn_limit() {
        let t = Timing {
            turn: None,
            match_total: None,
            left: Some(ms(60_000)),
        };
        assert_eq!(budget(&t, 100), Some(ms(59_900) / 30));
        assert_eq!(budget(&t, 10), Some(ms(59_900) / 5));
    }

    #[test]
    fn no_time_left_is_no_time() {
        let t = Timing {
            turn: Some(ms(5000)),
            match_total: Some(ms(180_000)),
            left: Some(Duration::ZERO),
        };
        assert_eq!(budget(&t, 400), Some(Duration::ZERO));
    }

    #[test]
    fn huge_limits_do_not_overflow() {
        let t = Timing {
            turn: Some(Duration::from_millis(u64::MAX)),
            match_total: Some(Duration::from_millis(u64::MAX)),
            left: Some(Duration::from_millis(u64::MAX)),
        };
        let b = budget(&t, usize::MAX).expect("limited");
        assert!(b > Duration::from_secs(1 << 40));
    }
}
