//! GTP's clock: `time_settings`, `kgs-time_settings` and `time_left`, and
//! how they turn the search's playouts into a time budget for one move.
//!
//! A move may take its *share* of the time: in byo-yomi the period over
//! its stones (Canadian) or the period itself (Japanese byo-yomi, KGS's
//! `byoyomi`); in main time what is left over the moves still to come (a
//! third of the empty points, at least 15), or a byo-yomi share when
//! that is more, since a move that runs into byo-yomi starts a fresh
//! period. The search gets [`SPEND`] of the share from the moment the
//! command arrives, so that the answer, evaluation, thread joins and
//! output included, comes within 80% of it.

use std::time::Duration;

use super::{want, Gtp, Reply};
use crate::go::deadline::Since;
use crate::go::Game;
use crate::notation::parse_color;
use crate::position::{Color, Position};

/// The part of a move's share the search may spend.
pub const SPEND: f64 = 0.65;

/// The part of `katachi gtp --move-time` the search may spend: the rest
/// covers the evaluation before it and the answer after it, so that the
/// answer comes within the time on an idle machine.
pub const MOVE_TIME_SPEND: f64 = 0.9;

/// A time control, as `time_settings` or `kgs-time_settings` gave it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No limit.
    None,
    /// Main time only, for the whole game.
    Absolute { main: f64 },
    /// Main time, then `stones` moves in every `byo` seconds.
    Canadian { main: f64, byo: f64, stones: u32 },
    /// Main time, then every move within one `period` (of `periods`).
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
}

/// The controller's time control and the last `time_left` per colour
/// (black, white): seconds and stones (periods under byo-yomi).
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    control: TimeControl,
    left: [Option<(f64, u32)>; 2],
}

/// A move's share of the clock under `control`, with `left` seconds and
/// `stones` (Canadian) or periods (byo-yomi) as the last `time_left` said
/// (the main time and 0 before any), on a board with `empty` empty
/// points; `None` without a limit.
pub fn move_share(
    control: TimeControl,
    left: Option<(f64, u32)>,
    empty: usize,
) -> Option<Duration> {
    let moves = (empty / 3).max(15) as f64;
    let secs = match control {
        TimeControl::None => return None,
        TimeControl::Absolute { main } => left.map_or(main, |(t, _)| t) / moves,
        TimeControl::Canadian { main, byo, stones } => match left {
            Some((t, s)) if s > 0 => t / f64::from(s),
            other => {
                let t = other.map_or(main, |(t, _)| t);
                let from_main = t / moves;
                if stones > 0 {
                    from_main.max(byo / f64::from(stones))
                } else {
                    from_main
                }
            }
        },
        TimeControl::Byoyomi { main, period, .. } => match left {
            // In byo-yomi: what is left of the current period.
            Some((t, p)) if p > 0 && t <= period => t,
            other => (other.map_or(main, |(t, _)| t) / moves).max(period),
        },
    };
    Some(Duration::from_secs_f64(secs.clamp(0.0, 3600.0)))
}

/// What the search may spend of a move's `share`: [`SPEND`] of it, at
/// least 10 ms.
pub fn search_budget(share: Duration) -> Duration {
    share.mul_f64(SPEND).max(Duration::from_millis(10))
}

impl Gtp {
    /// `time_settings MAIN BYO STONES`: from now on the search plays by
    /// the clock. GTP's conventions: byo-yomi time without stones is no
    /// limit, no byo-yomi time is absolute time.
    pub(super) fn time_settings(&mut self, args: &[&str]) -> Reply {
        want(args, 3)?;
        let num = |a: &str| a.parse::<u32>().map_err(|_| "syntax error");
        let (main, byo, stones) = (num(args[0])?, num(args[1])?, num(args[2])?);
        let control = if byo > 0 && stones == 0 {
            TimeControl::None
        } else if byo == 0 {
            TimeControl::Absolute {
                main: f64::from(main),
            }
        } else {
            TimeControl::Canadian {
                main: f64::from(main),
                byo: f64::from(byo),
                stones,
            }
        };
        self.set_clock(control);
        Ok(String::new())
    }

    /// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD
    /// PERIODS | canadian MAIN BYO STONES` (KGS's extension).
    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let Some((kind, rest)) = args.split_first() else {
            return Err("syntax error".into());
        };
        let num = |a: &str| a.parse::<u32>().map_err(|_| "syntax error");
        let control = match kind.to_ascii_lowercase().as_str() {
            "none" => {
                want(rest, 0)?;
                TimeControl::None
            }
            "absolute" => {
                want(rest, 1)?;
                TimeControl::Absolute {
                    main: f64::from(num(rest[0])?),
                }
            }
            "byoyomi" => {
                want(rest, 3)?;
                let (main, period, periods) = (num(rest[0])?, num(rest[1])?, num(rest[2])?);
                if period == 0 || periods == 0 {
                    TimeControl::Absolute {
                        main: f64::from(main),
                    }
                } else {
                    TimeControl::Byoyomi {
                        main: f64::from(main),
                        period: f64::from(period),
                        periods,
                    }
                }
            }
            "canadian" => {
                want(rest, 3)?;
                let (main, byo, stones) = (num(rest[0])?, num(rest[1])?, num(rest[2])?);
                if byo == 0 || stones == 0 {
                    TimeControl::Absolute {
                        main: f64::from(main),
                    }
                } else {
                    TimeControl::Canadian {
                        main: f64::from(main),
                        byo: f64::from(byo),
                        stones,
                    }
                }
            }
            _ => return Err("syntax error".into()),
        };
        self.set_clock(control);
        Ok(String::new())
    }

    fn set_clock(&mut self, control: TimeControl) {
        self.clock = Some(Clock {
            control,
            left: [None, None],
        });
    }

    /// `time_left COLOUR SECONDS STONES`.
    pub(super) fn time_left(&mut self, args: &[&str]) -> Reply {
        want(args, 3)?;
        let c = parse_color(args[0]).ok_or("syntax error")?;
        let t: f64 = args[1].parse().map_err(|_| "syntax error")?;
        let stones: u32 = args[2].parse().map_err(|_| "syntax error")?;
        if !t.is_finite() || t < 0.0 {
            return Err("syntax error".into());
        }
        if let Some(clock) = &mut self.clock {
            clock.left[usize::from(c == Color::White)] = Some((t, stones));
        }
        Ok(String::new())
    }

    /// Runs `f` with the search's playouts for the board's size (when
    /// [`GtpOptions::playouts_by_size`](super::GtpOptions) is set) and
    /// its clock budget for `color` set from the time settings, when
    /// there are some and the engine searches, else from the session's
    /// move time, and the clock it counts on, from the command's
    /// arrival.
    pub(super) fn timed<T>(
        &mut self,
        color: Color,
        f: impl FnOnce(&mut Game, &dyn crate::go::deadline::Clock) -> T,
    ) -> T {
        let saved = self.game.search_options();
        if let Some(mut search) = saved {
            if self.options.playouts_by_size {
                search.playouts = crate::go::search::default_playouts(self.game.size());
            }
            // The controller's clock decides when it set one, else the
            // session's move time; without either the playouts are fixed.
            if let Some(clock) = &self.clock {
                let left = clock.left[usize::from(color == Color::White)];
                let goban = self.game.goban();
                let empty = goban.points().filter(|&p| goban.stone(p).is_none()).count();
                search.time_budget = move_share(clock.control, left, empty).map(search_budget);
            } else if let Some(time) = self.options.move_time {
                search.time_budget = Some(time.mul_f64(MOVE_TIME_SPEND));
            }
            self.game.set_search(Some(search));
        }
        let since = Since {
            clock: &*self.timer,
            origin: self.arrived,
        };
        let out = f(&mut self.game, &since);
        self.game.set_search(saved);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Option<Duration>) -> f64 {
        d.expect("a limit").as_secs_f64()
    }

    #[test]
    fn shares_follow_the_clock() {
        assert_eq!(move_share(TimeControl::None, None, 81), None);
        // Absolute 60 s on an empty 9x9: 60 / 27.
        let abs = TimeControl::Absolute { main: 60.0 };
        assert!((secs(move_share(abs, None, 81)) - 60.0 / 27.0).abs() < 1e-9);
        assert!((secs(move_share(abs, Some((30.0, 0)), 81)) - 30.0 / 27.0).abs() < 1e-9);
        // Canadian: late in main time, at least a byo-yomi stone's share.
        let can = TimeControl::Canadian {
            main: 60.0,
            byo: 30.0,
            stones: 10,
        };
        assert!((secs(move_share(can, Some((1.0, 0)), 20)) - 3.0).abs() < 1e-9);
        // In Canadian byo-yomi: the period over its stones.
        assert!((secs(move_share(can, Some((20.0, 5)), 40)) - 4.0).abs() < 1e-9);
        // Japanese byo-yomi: the period left, or in main time at least
        // a period.
        let byo = TimeControl::Byoyomi {
            main: 0.0,
            period: 1.0,
            periods: 5,
        };
        assert!((secs(move_share(byo, Some((1.0, 5)), 81)) - 1.0).abs() < 1e-9);
        assert!((secs(move_share(byo, None, 81)) - 1.0).abs() < 1e-9);
        // The search spends 70%, never less than 10 ms.
        let one = Duration::from_secs(1);
        assert_eq!(search_budget(one), Duration::from_millis(650));
        assert_eq!(search_budget(Duration::ZERO), Duration::from_millis(10));
    }
}

/// Whole GTP sessions under time controls, on a clock the test drives:
/// every read of it advances it by a fixed step, as if each batch of
/// playouts took that long.
#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::go::deadline::Clock as _;
    use crate::gtp::GtpOptions;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    #[derive(Debug)]
    struct Ticking {
        step_us: u64,
        reads: AtomicU64,
    }

    impl crate::go::deadline::Clock for Ticking {
        fn now(&self) -> Duration {
            Duration::from_micros(self.step_us * self.reads.fetch_add(1, Ordering::Relaxed))
        }
    }

    /// The clock's time taken by answering `line`, the test's own two
    /// reads left out.
    fn answer_time(g: &mut Gtp, clock: &Ticking, line: &str) -> (String, Duration) {
        let before = clock.now();
        let reply = g.handle_line(line.as_bytes()).unwrap();
        let after = clock.now();
        let own = Duration::from_micros(clock.step_us);
        (reply, after - before - own)
    }

    fn session(step_us: u64, threads: usize) -> (Gtp, Arc<Ticking>) {
        session_with(step_us, threads, None)
    }

    /// A 9x9 session after one move, on a clock advancing `step_us` a
    /// read, with `--move-time` set to `move_time`.
    fn session_with(
        step_us: u64,
        threads: usize,
        move_time: Option<Duration>,
    ) -> (Gtp, Arc<Ticking>) {
        let clock = Arc::new(Ticking {
            step_us,
            reads: AtomicU64::new(0),
        });
        let search = crate::go::search::SearchOptions {
            threads,
            ..Default::default()
        };
        let mut g = Gtp::with_options(GtpOptions {
            search: Some(search),
            move_time,
            ..GtpOptions::default()
        })
        .with_timer(Box::new(clock.clone()));
        for line in ["boardsize 9", "clear_board", "komi 7.5", "play b E5"] {
            assert_eq!(g.handle_line(line.as_bytes()).unwrap(), "=\n\n");
        }
        (g, clock)
    }

    /// Every answer comes within 80% of its share and uses more than
    /// half of it: Japanese and Canadian byo-yomi, main time, and main
    /// time running out into byo-yomi, with one and two threads.
    #[test]
    fn answers_come_within_80_percent_of_the_share() {
        let cases: [(&[&str], f64); 4] = [
            (&["kgs-time_settings byoyomi 0 1 5", "time_left w 1 5"], 1.0),
            (&["time_settings 0 10 5", "time_left w 10 5"], 2.0),
            // 30 s of main time over the 27 moves of an empty 9x9.
            (&["time_settings 30 0 0", "time_left w 30 0"], 30.0 / 27.0),
            // 1 s of main time left, then 3 s periods: a period.
            (
                &["kgs-time_settings byoyomi 60 3 5", "time_left w 1 0"],
                3.0,
            ),
        ];
        for threads in [1, 2] {
            for (setup, share) in cases {
                let (mut g, clock) = session(20_000, threads);
                for line in setup {
                    assert_eq!(g.handle_line(line.as_bytes()).unwrap(), "=\n\n");
                }
                let (reply, took) = answer_time(&mut g, &clock, "genmove w");
                assert!(reply.starts_with("= "), "{reply}");
                let share = Duration::from_secs_f64(share);
                assert!(
                    took <= share.mul_f64(0.8),
                    "{setup:?}: {took:?} of {share:?}"
                );
                assert!(took > share / 2, "{setup:?}: only {took:?} of {share:?}");
            }
        }
    }

    /// With `--move-time` and no clock from the controller, every answer
    /// comes within the move time and uses most of it; once the
    /// controller sends `time_settings`, its clock decides instead.
    #[test]
    fn the_move_time_bounds_each_answer_until_the_controller_sets_a_clock() {
        let move_time = Duration::from_secs(2);
        for threads in [1, 2] {
            let (mut g, clock) = session_with(20_000, threads, Some(move_time));
            for color in ["w", "b", "w"] {
                let (reply, took) = answer_time(&mut g, &clock, &format!("genmove {color}"));
                assert!(reply.starts_with("= "), "{reply}");
                assert!(took <= move_time, "{threads} threads: {took:?}");
                assert!(
                    took >= move_time.mul_f64(MOVE_TIME_SPEND) - Duration::from_millis(100),
                    "{threads} threads: only {took:?}"
                );
            }
            assert_eq!(g.handle_line(b"time_settings 0 1 1").unwrap(), "=\n\n");
            let (reply, took) = answer_time(&mut g, &clock, "genmove b");
            assert!(reply.starts_with("= "), "{reply}");
            assert!(took <= Duration::from_millis(800), "{took:?}");
        }
    }

    /// A command whose evaluation alone took the budget gets no playouts
    /// and still answers, within the clock's next step.
    #[test]
    fn a_spent_budget_answers_at_once() {
        let (mut g, clock) = session(2_000_000, 1);
        for line in ["kgs-time_settings byoyomi 0 1 5", "time_left w 1 5"] {
            assert_eq!(g.handle_line(line.as_bytes()).unwrap(), "=\n\n");
        }
        let (reply, took) = answer_time(&mut g, &clock, "genmove w");
        assert!(reply.starts_with("= "), "{reply}");
        // Three reads: the arrival, the search's start and its first
        // check, which finds the time up.
        assert_eq!(took, Duration::from_secs(6));
    }

    /// Without `--playouts` each move searches the playouts of the board
    /// size it is played on, which the controller may change; with it,
    /// the given number on every board. The session keeps its options.
    #[test]
    fn the_default_playouts_follow_the_board_size() {
        use crate::go::search::{default_playouts, SearchOptions};
        let given = SearchOptions {
            playouts: 777,
            ..Default::default()
        };
        for by_size in [true, false] {
            let mut g = Gtp::with_options(GtpOptions {
                search: Some(given),
                playouts_by_size: by_size,
                ..GtpOptions::default()
            });
            let mut seen = Vec::new();
            for side in [7, 9, 13, 19, 9] {
                let line = format!("boardsize {side}");
                assert_eq!(g.handle_line(line.as_bytes()).unwrap(), "=\n\n");
                let used = g.timed(Color::Black, |game, _| {
                    game.search_options().map(|s| (s.playouts, s.threads))
                });
                seen.push(used);
                assert_eq!(g.game.search_options(), Some(given), "restored");
            }
            let want: Vec<_> = [7, 9, 13, 19, 9]
                .iter()
                .map(|&side| Some((if by_size { default_playouts(side) } else { 777 }, 1)))
                .collect();
            assert_eq!(seen, want, "by size: {by_size}");
        }
        // Bigger boards get fewer playouts (each is longer), 9x9 the
        // 40,000 its benchmark against GNU Go was measured at.
        assert_eq!(default_playouts(9), 40_000);
        assert!(default_playouts(13) < default_playouts(9));
        assert!(default_playouts(19) < default_playouts(13));
    }
}
