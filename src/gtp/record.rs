//! The game as an SGF record (`katachi gtp -o`), and `loadsgf`.

use super::{Gtp, Reply};
use crate::go::Game;
use crate::notation::color_word;
use crate::position::Color;
use crate::sgf::Record;

impl Gtp {
    /// `loadsgf FILE [N]`: the game up to move N, the player to move
    /// answered.
    pub(super) fn loadsgf(&mut self, args: &[&str]) -> Reply {
        if args.is_empty() || args.len() > 2 {
            return Err("syntax error".into());
        }
        let until = match args.get(1) {
            Some(n) => Some(n.parse::<usize>().map_err(|_| "syntax error")?),
            None => None,
        };
        let loaded = crate::sgf::load_file(std::path::Path::new(args[0]), until)
            .map_err(|e| format!("cannot load file: {e}"))?;
        let mut game = loaded.game;
        game.adopt_engine(&self.game);
        self.game = game;
        self.handicap = 0;
        self.setup = loaded.setup;
        self.labels.clear();
        Ok(color_word(loaded.to_move).into())
    }

    /// The game so far as an SGF record, labels included.
    pub fn record(&self) -> Record {
        let mut r = Record::new(self.game.size(), self.game.komi());
        r.handicap = self.handicap;
        r.setup = if self.handicap > 0 {
            Game::handicap_points(self.game.size(), self.handicap)
                .unwrap_or_default()
                .into_iter()
                .map(|p| (Color::Black, p))
                .collect()
        } else {
            self.setup.clone()
        };
        r.moves = self
            .game
            .history()
            .iter()
            .enumerate()
            .map(|(k, &(c, m))| (c, m, self.labels.get(&k).cloned().unwrap_or_default()))
            .collect();
        r
    }

    /// Writes the record when recording (the whole game, after each move
    /// and at the end); a failure is reported on stderr and never breaks
    /// the session.
    pub(super) fn write_record(&self) {
        if let Some(path) = &self.options.record {
            if let Err(e) = self.record().write(path) {
                eprintln!("katachi: error: {e}");
            }
        }
    }
}
