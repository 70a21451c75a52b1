//! Debian's `pente` (William Shubert's Pente 2.2.5) as a tournament
//! player, through its text mode (`pente -text`).
//!
//! What the program says, found by running it: it asks `Level of player
//! 1 [0=Player, 1..9=Computer]: ` and the same for player 2 (a number a
//! line; 0 is a human, whose moves are read from standard input). It then
//! draws the board after every move and says each move on a line of its
//! own, `Comp Lv9 [O] moved at l9.` or `Player 1 [#] moved at k13.`:
//! `[#]` is player 1 (the first to move, Black here), `[O]` player 2,
//! the point a column letter (`a` to `t` without `i`) and a row number
//! counted from the bottom. It plays the first stone on the centre by
//! itself, for a human as for the computer (the tournament rule). A
//! human's move it refuses (occupied, or inside the central 5x5 for the
//! first player's second stone) is not said: the board is drawn again
//! and the prompt repeated. A win is `... has won!`, then it asks for the
//! levels of a new game; at the end of its input it says `Bye!` and
//! exits. The computer's play varies from game to game by itself.
//!
//! Its standard output is a pipe here, which the C library buffers by
//! blocks: the program is run under `stdbuf -oL` (coreutils) so that each
//! line arrives when said. The adapter starts the program afresh for every game, at the first
//! move it is asked to play or told, when it learns its colour: as
//! Black it is player 1 at the chosen level and katachi's moves are typed
//! as player 2's, and the other way round. Every move is confirmed by
//! the program's `moved at` line (a move it does not confirm in time is
//! the adapter's failure, charged to it); the referee judges the game
//! with its own rules.

use std::time::{Duration, Instant};

use super::five::{FiveReferee, FiveSetup};
use super::referee::Side;
use super::{Engine, SETUP_LIMIT};
use crate::five::Rule;
use crate::position::{Color, Point};

/// Where Debian installs the program.
pub const DEFAULT_PROGRAM: &str = "/usr/games/pente";

/// Pente's board side (it plays on no other).
pub const SIZE: usize = 19;

/// Debian's `pente` at a level, one process a game.
#[derive(Debug)]
pub struct PentePlayer {
    name: String,
    program: String,
    level: u8,
    engine: Option<Engine>,
    /// The program's colour in the game, once known.
    color: Option<Color>,
    /// The moves the program has said in this game.
    moves: usize,
    move_limit: Option<Duration>,
}

impl PentePlayer {
    /// The player at `level` (1 to 9), run as `program -text`.
    pub fn new(name: &str, program: &str, level: u8) -> Result<PentePlayer, String> {
        if !(1..=9).contains(&level) {
            return Err(format!("pente's levels are 1 to 9, not {level}"));
        }
        Ok(PentePlayer {
            name: name.to_string(),
            program: program.to_string(),
            level,
            engine: None,
            color: None,
            moves: 0,
            move_limit: None,
        })
    }

    /// Starts the program with the program's colour `me`: the levels of
    /// player 1 and player 2 (0, a human, for katachi's side).
    fn start(&mut self, me: Color) -> Result<(), String> {
        // Its output is a pipe, which the C library buffers by blocks:
        // `stdbuf` (coreutils) makes it flush every line, as on a terminal.
        let args = ["-oL".to_string(), self.program.clone(), "-text".to_string()];
        let mut e = Engine::spawn("stdbuf", &args)?;
        let level = self.level.to_string();
        let levels = match me {
            Color::Black => [level.as_str(), "0"],
            Color::White => ["0", level.as_str()],
        };
        e.send(&self.name, &levels)?;
        self.engine = Some(e);
        self.color = Some(me);
        self.moves = 0;
        Ok(())
    }

    /// Starts the program at the first move of a game: `mover` moves,
    /// and is the program when it is asked (`asked`).
    fn ensure_started(&mut self, mover: Color, asked: bool) -> Result<(), String> {
        if self.engine.is_none() {
            self.start(if asked { mover } else { mover.other() })?;
        }
        Ok(())
    }

    /// Waits for the program to say `color`'s move, within `limit`.
    fn read_move(&mut self, color: Color, limit: Duration) -> Result<Point, String> {
        let name = self.name.clone();
        let e = self
            .engine
            .as_ref()
            .ok_or_else(|| format!("{name} is not running"))?;
        let deadline = Instant::now() + limit;
        loop {
            let line = e.next_line(&name, "a move", deadline, limit)?;
            if let Some((c, p)) = parse_moved(&line) {
                if c != color {
                    return Err(format!("{name}: `{}` out of turn", line.trim()));
                }
                self.moves += 1;
                return p.ok_or_else(|| format!("{name}: cannot read `{}`", line.trim()));
            }
            if line.contains("has won!") {
                return Err(format!("{name} ended the game: `{}`", line.trim()));
            }
        }
    }

    fn fail(&mut self, e: String) -> String {
        self.quit();
        e
    }

    fn quit(&mut self) {
        if let Some(mut e) = self.engine.take() {
            let _ = e.child.kill();
            let _ = e.child.wait();
        }
        self.color = None;
    }
}

/// A `... [#] moved at k10.` line: the mover's colour and the point
/// (`None` when it cannot be read).
pub fn parse_moved(line: &str) -> Option<(Color, Option<Point>)> {
    let (who, rest) = line.split_once(" moved at ")?;
    let color = if who.trim_end().ends_with("[#]") {
        Color::Black
    } else if who.trim_end().ends_with("[O]") {
        Color::White
    } else {
        return None;
    };
    Some((color, parse_point(rest.trim().trim_end_matches('.'))))
}

/// A point in pente's words: a column letter (`a`–`t`, no `i`), then the
/// row counted from the bottom.
pub fn parse_point(s: &str) -> Option<Point> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() || letter == 'i' || letter > 't' {
        return None;
    }
    let j = letter as i32 - 'a' as i32 - i32::from(letter > 'i');
    let row: i32 = chars.as_str().parse().ok()?;
    let n = SIZE as i32;
    (1..=n).contains(&row).then(|| Point::new(n - row, j))
}

/// A point as pente reads it.
pub fn point_text(p: Point) -> String {
    let j = p.j as u8;
    let letter = (b'a' + j + u8::from(j >= 8)) as char;
    format!("{letter}{}", SIZE as i32 - p.i)
}

impl Drop for PentePlayer {
    fn drop(&mut self) {
        self.quit();
    }
}

impl Side<FiveReferee> for PentePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, setup: &FiveSetup, _seed: u64) -> Result<(), String> {
        self.quit();
        if setup.rule != Rule::Pente || setup.size != SIZE {
            return Err(format!(
                "{} plays Pente on 19x19 only (--rule pente --size 19)",
                self.name
            ));
        }
        Ok(())
    }

    fn set_move_limit(&mut self, limit: Option<Duration>, _game_left: Option<Duration>) {
        self.move_limit = limit;
    }

    /// katachi's move (or an opening stone): typed as the human's, and
    /// confirmed; the first stone, which pente places itself on the
    /// centre, only confirmed.
    fn play(&mut self, color: Color, p: Point) -> Result<(), String> {
        self.ensure_started(color, false)?;
        if self.color == Some(color) {
            return Err(self.fail(format!(
                "{}: the program plays {color:?}; its stones cannot be imposed (no opening stones against pente beyond the first)",
                self.name
            )));
        }
        let name = self.name.clone();
        // The first stone pente places itself, on the centre.
        if self.moves > 0 {
            let e = self.engine.as_mut().ok_or("not running")?;
            if let Err(err) = e.send(&name, &[point_text(p)]) {
                return Err(self.fail(err));
            }
        }
        match self.read_move(color, SETUP_LIMIT) {
            Ok(q) if q == p => Ok(()),
            Ok(q) => Err(self.fail(format!(
                "{name} placed {} for {}",
                point_text(q),
                point_text(p)
            ))),
            Err(e) => Err(self.fail(format!("{e} (was {} refused?)", point_text(p)))),
        }
    }

    fn genmove(&mut self, color: Color) -> Result<Option<Point>, String> {
        self.ensure_started(color, true)?;
        if self.color != Some(color) {
            return Err(self.fail(format!("{}: asked for the other side's move", self.name)));
        }
        // The referee stops waiting at the limit; wait a little longer so
        // that it, not the adapter, charges the time.
        let limit = self
            .move_limit
            .map_or(Duration::from_secs(600), |l| l + Duration::from_secs(1));
        match self.read_move(color, limit) {
            Ok(p) => Ok(Some(p)),
            Err(e) => Err(self.fail(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_and_write_as_pente_says_them() {
        assert_eq!(parse_point("k10"), Some(Point::new(9, 9)));
        assert_eq!(parse_point("a19"), Some(Point::new(0, 0)));
        assert_eq!(parse_point("t1"), Some(Point::new(18, 18)));
        assert_eq!(parse_point("j5"), Some(Point::new(14, 8)));
        for bad in ["i5", "u3", "k0", "k20", "", "10", "kk"] {
            assert_eq!(parse_point(bad), None, "{bad}");
        }
        for i in 0..19 {
            for j in 0..19 {
                let p = Point::new(i, j);
                assert_eq!(parse_point(&point_text(p)), Some(p));
            }
        }
    }

    #[test]
    fn move_lines_name_the_colour_and_the_point() {
        assert_eq!(
            parse_moved("                  Comp Lv9 [O] moved at l9."),
            Some((Color::White, Some(Point::new(10, 10))))
        );
        assert_eq!(
            parse_moved("   Player 1 [#] moved at k10."),
            Some((Color::Black, Some(Point::new(9, 9))))
        );
        assert_eq!(
            parse_moved("Player 1 [#] moved at z99."),
            Some((Color::Black, None))
        );
        assert_eq!(parse_moved("Comp Lv1 [#] has won!"), None);
        assert_eq!(parse_moved("I'm thinking...k12...k11..."), None);
    }

    #[test]
    fn levels_and_rules_are_checked() {
        assert!(PentePlayer::new("p", DEFAULT_PROGRAM, 0).is_err());
        assert!(PentePlayer::new("p", DEFAULT_PROGRAM, 10).is_err());
        let mut p = PentePlayer::new("p", DEFAULT_PROGRAM, 9).unwrap();
        let setup = |rule, size| FiveSetup {
            size,
            rule,
            hexagon: false,
            move_time: None,
            game_time: None,
        };
        assert!(p.new_game(&setup(Rule::Freestyle, 19), 0).is_err());
        assert!(p.new_game(&setup(Rule::Pente, 15), 0).is_err());
        assert!(p.new_game(&setup(Rule::Pente, 19), 0).is_ok());
    }
}
