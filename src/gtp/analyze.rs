//! The analysis commands for GoGui (`katachi-explain`,
//! `katachi-values`, `katachi-value-labels`, `katachi-patterns-at`,
//! `gogui-analyze_commands`): the move generator's verdict as text and
//! boards.

use super::{want, Gtp, Reply, ANALYZE_COMMANDS};
use crate::go::evaluation::Evaluation;
use crate::go::notation::parse_move;
use crate::go::{explain, movegen, Move};
use crate::notation::parse_color;
use crate::position::Color;
use crate::tuning;

impl Gtp {
    /// One analysis command (`cmd` is one of the module's).
    pub(super) fn analyze(&mut self, cmd: &str, args: &[&str]) -> Reply {
        let want = |n: usize| want(args, n);
        match cmd {
            "katachi-explain" => {
                let (c, top) = match args {
                    [c] => (c, 5),
                    [c, k] => (c, k.parse::<usize>().map_err(|_| "syntax error")?),
                    _ => return Err("syntax error".into()),
                };
                let c = parse_color(c).ok_or("syntax error")?;
                let eval = self.evaluate(c);
                let ctx = self.context(c, top);
                Ok(explain::explain(&eval, self.game.goban(), &ctx))
            }
            "katachi-values" | "katachi-value-labels" => {
                want(1)?;
                let c = parse_color(args[0]).ok_or("syntax error")?;
                let eval = self.evaluate(c);
                let n = self.game.size();
                let board = if cmd == "katachi-values" {
                    explain::values_dboard(&eval, n)
                } else {
                    explain::values_sboard(&eval, n)
                };
                Ok(format!("\n{board}"))
            }
            "katachi-patterns-at" => {
                want(2)?;
                let c = parse_color(args[0]).ok_or("syntax error")?;
                let p = match parse_move(args[1], self.game.size()).map_err(|e| e.to_string())? {
                    Move::Play(p) => p,
                    Move::Pass => return Err("syntax error".into()),
                };
                let eval = self.evaluate(c);
                let ctx = self.context(c, 1);
                Ok(explain::patterns_at(&eval, p, self.game.goban(), &ctx))
            }
            "gogui-analyze_commands" => want(0).map(|()| ANALYZE_COMMANDS.join("\n")),
            _ => Err("unknown command".into()),
        }
    }

    /// The move generator's verdict for `color` on the current position.
    pub(super) fn evaluate(&mut self, color: Color) -> Evaluation {
        movegen::evaluate(&self.game, color, self.game.eval_options())
    }

    pub(super) fn context(&self, color: Color, top: usize) -> explain::Context<'_> {
        explain::Context {
            tables: self.game.patterns().tables(),
            db: tuning::source_name(self.game.patterns()),
            color,
            top,
            all_patterns: self.options.all_patterns,
        }
    }
}
