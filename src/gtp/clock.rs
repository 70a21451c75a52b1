//! GTP's clock: `time_settings` and `time_left`, and how they turn the
//! search's playouts into a time budget for one move.

use super::{want, Gtp, Reply};
use crate::go::Game;
use crate::notation::parse_color;
use crate::position::{Color, Position};

/// The controller's time settings (`time_settings`) and the last
/// `time_left` per colour (black, white).
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    main: f64,
    byo: f64,
    byo_stones: u32,
    left: [Option<(f64, u32)>; 2],
}

impl Gtp {
    /// `time_settings MAIN BYO STONES`: from now on the search plays by
    /// the clock.
    pub(super) fn time_settings(&mut self, args: &[&str]) -> Reply {
        want(args, 3)?;
        let num = |a: &str| a.parse::<u32>().map_err(|_| "syntax error");
        self.clock = Some(Clock {
            main: f64::from(num(args[0])?),
            byo: f64::from(num(args[1])?),
            byo_stones: num(args[2])?,
            left: [None, None],
        });
        Ok(String::new())
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

    /// Runs `f` with the search's clock budget for `color` set from the
    /// time settings, when there are some and the engine searches.
    pub(super) fn timed<T>(&mut self, color: Color, f: impl FnOnce(&mut Game) -> T) -> T {
        let saved = self.game.search_options();
        if let (Some(clock), Some(search)) = (&self.clock, saved) {
            let (left, stones) =
                clock.left[usize::from(color == Color::White)].unwrap_or((clock.main, 0));
            let empty = self
                .game
                .goban()
                .points()
                .filter(|&p| self.game.goban().stone(p).is_none())
                .count();
            let budget = crate::go::search::move_budget(
                clock.main,
                clock.byo,
                clock.byo_stones,
                left,
                stones,
                empty,
            );
            self.game.set_search(Some(crate::go::search::SearchOptions {
                time_budget: budget,
                ..search
            }));
        }
        let out = f(&mut self.game);
        self.game.set_search(saved);
        out
    }
}
