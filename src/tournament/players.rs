//! The players of `katachi tournament` as the command line names them
//! (`NAME=KIND`), read, checked against the game, and started: Go's
//! through [`super::Player`], five in a row's as
//! [`Side`]s of its referee.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use super::contest::ContestPlayer;
use super::five::{Baseline, FiveKatachi, FiveReferee, FiveWork, RandomFive};
use super::gomocup::GomocupPlayer;
use super::referee::Side;
use super::runner::Game;
use super::{GtpPlayer, Katachi, Player, RandomPlayer};
use crate::five::database::FiveDatabase;
use crate::five::Rule;
use crate::go::evaluation::EvalOptions;
use crate::go::movegen::PatternSet;
use crate::go::search::SearchOptions;
use crate::go::Move;
use crate::position::Color;

/// A player as named on the command line: `NAME=KIND`, where KIND is
/// `katachi` (for Go optionally `katachi:playouts=N,db=FILE,personality=FILE`,
/// for five in a row `katachi:ms=N,db=FILE,personality=FILE` or `depth=N` or
/// `nodes=N` for fixed work; `personality=` takes a `game = "five"` file, under Pente a
/// `game = "pente"` one, on the hexagon a `game = "hex"` one), `random`, `gtp:COMMAND ARGS…` (any GTP engine,
/// e.g. `gtp:gnugo --mode gtp`; Go), or for five in a row `seed` (the
/// seed's player), `greedy` and `gomocup:COMMAND ARGS…` (any Gomocup
/// brain, e.g. `gomocup:pbrain-katachi`), and for Pente (five in a row
/// under `--rule pente`) `pente:LEVEL[:PROGRAM]`, Debian's `pente` at
/// level 1 to 9.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub name: String,
    pub kind: PlayerKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// katachi's engine: pattern moves only (`search` none) or the
    /// search; `all_patterns` values every pattern (no best-first).
    Katachi {
        search: Option<SearchOptions>,
        db: Option<String>,
        all_patterns: bool,
        /// A personality file (`personality=FILE`) re-weighing the
        /// database and setting the engine's factors.
        personality: Option<String>,
    },
    /// A random legal move that does not fill its own eye.
    Random,
    /// An external engine over GTP: the program and its arguments.
    Gtp(Vec<String>),
    /// katachi's five-in-a-row engine with its work a move: thinking time
    /// (`katachi:ms=N`), a depth (`depth=N`) or a node budget
    /// (`nodes=N`); plain `katachi` is [`PlayerKind::Katachi`], which
    /// five in a row plays with the clock's time.
    FiveKatachi {
        work: FiveWork,
        db: Option<String>,
        personality: Option<String>,
    },
    /// Five in a row: the seed's player (Pishquorky's minimax).
    Seed,
    /// Five in a row: the greedy baseline.
    Greedy,
    /// A Gomocup brain: the program and its arguments.
    Gomocup(Vec<String>),
    /// The hexagon: the plan of seed 003's notes (on the square board
    /// too).
    LineRecords,
    /// The hexagon: a program that speaks the contest's file protocol,
    /// as a shell command naming its team with `{team}`
    /// ([`super::contest`]).
    File(String),
    /// Pente: Debian's `pente` at a level, the program's path.
    Pente { level: u8, program: String },
}

/// A whole number above 0 (an option's count of nodes or milliseconds).
fn positive(n: &str) -> Option<u64> {
    n.parse::<u64>().ok().filter(|&n| n > 0)
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let usage = "a player is NAME=katachi[:playouts=N,db=FILE], NAME=random or \
                     NAME=gtp:COMMAND [ARGS] (Go); NAME=katachi[:ms=N|depth=N|nodes=N], NAME=seed, NAME=greedy, \
                     NAME=line-records, NAME=random or NAME=gomocup:COMMAND [ARGS] (five in a row); \
                     NAME=pente:LEVEL[:PROGRAM] (Pente); \
                     NAME=katachi[:ms=N], NAME=greedy, NAME=line-records, NAME=random or \
                     NAME=file:COMMAND naming {team} (the hexagon)";
        let (name, kind) = s.split_once('=').ok_or_else(|| format!("`{s}`: {usage}"))?;
        if name.is_empty() || name.contains(['/', '\\', '\n']) {
            return Err(format!("`{s}`: a player's name is a word without slashes"));
        }
        let kind = if let Some(cmd) = kind.strip_prefix("gtp:") {
            let words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                return Err(format!("`{s}`: `gtp:` needs the engine's command"));
            }
            PlayerKind::Gtp(words)
        } else if let Some(cmd) = kind.strip_prefix("gomocup:") {
            let words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                return Err(format!("`{s}`: `gomocup:` needs the brain's command"));
            }
            PlayerKind::Gomocup(words)
        } else if let Some(cmd) = kind.strip_prefix("file:") {
            if cmd.trim().is_empty() {
                return Err(format!("`{s}`: `file:` needs the player's command"));
            }
            PlayerKind::File(cmd.trim().to_string())
        } else if kind == "line-records" {
            PlayerKind::LineRecords
        } else if let Some(rest) = kind.strip_prefix("pente:") {
            let (level, program) = rest
                .split_once(':')
                .unwrap_or((rest, super::pente::DEFAULT_PROGRAM));
            let level = level
                .parse::<u8>()
                .ok()
                .filter(|l| (1..=9).contains(l))
                .ok_or_else(|| format!("`{s}`: pente's level is 1 to 9, not `{level}`"))?;
            if program.is_empty() {
                return Err(format!("`{s}`: `pente:{level}:` needs the program's path"));
            }
            PlayerKind::Pente {
                level,
                program: program.to_string(),
            }
        } else if kind == "random" {
            PlayerKind::Random
        } else if kind == "seed" {
            PlayerKind::Seed
        } else if kind == "greedy" {
            PlayerKind::Greedy
        } else if kind == "katachi" || kind.starts_with("katachi:") {
            let mut playouts = 0;
            let mut db = None;
            let mut ms = None;
            let mut depth = None;
            let mut nodes = None;
            let mut personality = None;
            for opt in kind
                .strip_prefix("katachi:")
                .unwrap_or("")
                .split(',')
                .filter(|o| !o.is_empty())
            {
                match opt.split_once('=') {
                    Some(("playouts", n)) => {
                        playouts = n
                            .parse()
                            .map_err(|_| format!("`{s}`: playouts={n} is not a number"))?
                    }
                    Some(("db", f)) => db = Some(f.to_string()),
                    Some(("personality", f)) => personality = Some(f.to_string()),
                    Some(("depth", n)) => {
                        depth = Some(
                            n.parse::<u32>()
                                .ok()
                                .filter(|n| (1..=20).contains(n))
                                .ok_or_else(|| format!("`{s}`: depth={n} is not a depth of 1 to 20"))?,
                        )
                    }
                    Some(("nodes", n)) => {
                        nodes = Some(positive(n).ok_or_else(|| {
                            format!("`{s}`: nodes={n} is not a number of nodes")
                        })?)
                    }
                    Some(("ms", n)) => {
                        ms = Some(positive(n).ok_or_else(|| {
                            format!("`{s}`: ms={n} is not a number of milliseconds")
                        })?)
                    }
                    _ => {
                        return Err(format!(
                            "`{s}`: unknown katachi option `{opt}` (playouts=N, db=FILE, personality=FILE for Go; ms=N, depth=N or nodes=N, db=FILE, personality=FILE for five in a row)"
                        ))
                    }
                }
            }
            if ms.is_some() || depth.is_some() || nodes.is_some() {
                if playouts > 0 {
                    return Err(format!(
                        "`{s}`: ms=, depth= and nodes= are five in a row's, playouts= is Go's"
                    ));
                }
                let work = match (ms, depth, nodes) {
                    (Some(ms), None, None) => FiveWork::Time(Some(Duration::from_millis(ms))),
                    (None, Some(depth), None) => FiveWork::Depth(depth),
                    (None, None, Some(nodes)) => FiveWork::Nodes(nodes),
                    _ => {
                        return Err(format!(
                            "`{s}`: one of ms= (thinking time), depth= or nodes= (fixed work)"
                        ))
                    }
                };
                return Ok(PlayerSpec {
                    name: name.to_string(),
                    kind: PlayerKind::FiveKatachi {
                        work,
                        db,
                        personality,
                    },
                });
            }
            PlayerKind::Katachi {
                search: (playouts > 0).then(|| SearchOptions {
                    playouts,
                    ..SearchOptions::default()
                }),
                db,
                all_patterns: false,
                personality,
            }
        } else {
            return Err(format!("`{s}`: unknown kind `{kind}`; {usage}"));
        };
        Ok(PlayerSpec {
            name: name.to_string(),
            kind,
        })
    }
}

impl PlayerSpec {
    /// Whether the player plays `game`: the reason why not.
    pub fn check(&self, game: &Game) -> Result<(), String> {
        let name = &self.name;
        match (game, &self.kind) {
            (Game::Go | Game::Five { .. }, PlayerKind::File(_)) => Err(format!(
                "player `{name}` speaks the hexagonal contest's file protocol (--game hex)"
            )),
            (
                Game::Go,
                PlayerKind::FiveKatachi { .. }
                | PlayerKind::Seed
                | PlayerKind::Greedy
                | PlayerKind::LineRecords
                | PlayerKind::Gomocup(_)
                | PlayerKind::Pente { .. },
            ) => Err(format!(
                "player `{name}` plays five in a row only (--game five or hex)"
            )),
            (Game::Five { rule, .. }, PlayerKind::Pente { .. }) if *rule != Rule::Pente => Err(
                format!("player `{name}` plays Pente only (--game five --rule pente --size 19)"),
            ),
            (
                Game::Five {
                    rule: Rule::Pente,
                    ..
                },
                PlayerKind::Gomocup(_),
            ) => Err(format!(
                "player `{name}`: the Gomocup protocol has no Pente rule (its boards cannot say a capture)"
            )),
            (
                Game::Five { .. },
                PlayerKind::Katachi {
                    search: None,
                    all_patterns: false,
                    ..
                },
            ) => Ok(()),
            (
                Game::Hex { .. },
                PlayerKind::Katachi {
                    search: None,
                    all_patterns: false,
                    db: None,
                    ..
                }
                | PlayerKind::FiveKatachi { db: None, .. },
            ) => Ok(()),
            (Game::Hex { .. }, PlayerKind::Katachi { db: Some(_), .. } | PlayerKind::FiveKatachi { db: Some(_), .. }) => Err(format!(
                "player `{name}`: db= is read for the square board; the hexagon plays patterns/hexfive.db"
            )),
            (Game::Five { .. } | Game::Hex { .. }, PlayerKind::Katachi { .. }) => Err(format!(
                "player `{name}`: playouts= is Go's option; five in a row's katachi takes ms=N and db=FILE"
            )),
            (Game::Five { .. } | Game::Hex { .. }, PlayerKind::Gtp(_)) => Err(format!(
                "player `{name}`: gtp: engines play Go; a five-in-a-row engine is gomocup:COMMAND"
            )),
            (Game::Hex { .. }, PlayerKind::Gomocup(_)) => Err(format!(
                "player `{name}`: Gomocup brains play on the square board; a contest player is file:COMMAND"
            )),
            (Game::Hex { .. }, PlayerKind::Pente { .. }) => Err(format!(
                "player `{name}` plays Pente only (--game five --rule pente --size 19)"
            )),
            (Game::Hex { .. }, PlayerKind::Seed) => Err(format!(
                "player `{name}`: the seed's player reads the square board's eight neighbours; on the hexagon the baseline is line-records"
            )),
            _ => Ok(()),
        }
    }

    /// Starts the player for Go (loads its database, spawns its program).
    pub fn start(&self) -> Result<Box<dyn Player>, String> {
        self.check(&Game::Go)?;
        Ok(match &self.kind {
            PlayerKind::Random => Box::new(Named(self.name.clone(), RandomPlayer::new())),
            PlayerKind::Gtp(cmd) => Box::new(GtpPlayer::spawn(&self.name, &cmd[0], &cmd[1..])?),
            PlayerKind::FiveKatachi { .. }
            | PlayerKind::Seed
            | PlayerKind::Greedy
            | PlayerKind::LineRecords
            | PlayerKind::File(_)
            | PlayerKind::Gomocup(_)
            | PlayerKind::Pente { .. } => unreachable!("refused by check"),
            PlayerKind::Katachi {
                search,
                db,
                all_patterns,
                personality,
            } => {
                let mut patterns = match db {
                    None => PatternSet::builtin(),
                    Some(path) => Arc::new(PatternSet::load(path).map_err(|e| e.to_string())?),
                };
                let mut search = *search;
                if let Some(path) = personality {
                    let loaded = crate::go::personality::load_file(path, &patterns)?;
                    search = search.map(|s| loaded.factors.search(s));
                    patterns = loaded.patterns;
                }
                let eval = EvalOptions {
                    all_patterns: *all_patterns,
                };
                Box::new(Katachi::new(&self.name, patterns, eval).with_search(search))
            }
        })
    }
}

impl PlayerSpec {
    /// Starts the player for five in a row on the square board or the
    /// hexagon (`game`), spawning its program (a file-protocol player in
    /// a folder under `out`).
    pub fn start_five(
        &self,
        game: &Game,
        out: &Path,
    ) -> Result<Box<dyn Side<FiveReferee>>, String> {
        let name = &self.name;
        self.check(game)?;
        let rule = match game {
            Game::Five { rule, .. } | Game::Hex { rule } => *rule,
            Game::Go => Rule::Freestyle,
        };
        Ok(match &self.kind {
            PlayerKind::Katachi {
                db, personality, ..
            } => Box::new(five_katachi(
                FiveKatachi::new(name, FiveWork::Time(None)),
                game,
                db,
                personality,
                rule,
            )?),
            PlayerKind::FiveKatachi {
                work,
                db,
                personality,
            } => Box::new(five_katachi(
                FiveKatachi::new(name, *work),
                game,
                db,
                personality,
                rule,
            )?),
            PlayerKind::Seed => Box::new(Baseline::seed(name)),
            PlayerKind::Greedy => Box::new(Baseline::greedy(name)),
            PlayerKind::LineRecords => Box::new(Baseline::line_records(name)),
            PlayerKind::File(cmd) => Box::new(ContestPlayer::spawn(name, cmd, out)?),
            PlayerKind::Random => Box::new(RandomFive::new(name)),
            PlayerKind::Gomocup(cmd) => Box::new(GomocupPlayer::spawn(name, &cmd[0], &cmd[1..])?),
            PlayerKind::Pente { level, program } => {
                Box::new(super::pente::PentePlayer::new(name, program, *level)?)
            }
            PlayerKind::Gtp(_) => unreachable!("refused by check"),
        })
    }
}

/// katachi's five-in-a-row `player` with its database: on the hexagon
/// the builtin hexagonal one, re-weighed by a hexagon personality
/// (`game = "hex"`); on the square board [`five_database`]'s.
fn five_katachi(
    player: FiveKatachi,
    game: &Game,
    db: &Option<String>,
    personality: &Option<String>,
    rule: Rule,
) -> Result<FiveKatachi, String> {
    if let Game::Hex { .. } = game {
        return Ok(match personality {
            None => player,
            Some(p) => {
                player.with_hex_database(crate::five::personality::load_hex_file(p)?.database)
            }
        });
    }
    Ok(player.with_database(five_database(db, personality, rule)?))
}

/// The builtin database for `rule` (Pente's under Pente), or the one at
/// `path` compiled (its errors located), re-weighed by the personality
/// file if any: `game = "pente"` under Pente, `game = "five"` under the
/// other rules (a file for the other database is refused, located).
fn five_database(
    path: &Option<String>,
    personality: &Option<String>,
    rule: Rule,
) -> Result<Arc<FiveDatabase>, String> {
    let db = match path {
        None => FiveDatabase::for_rule(rule),
        Some(p) => FiveDatabase::load(p)
            .map(Arc::new)
            .map_err(|e| e.to_string())?,
    };
    match personality {
        None => Ok(db),
        Some(p) => Ok(crate::five::personality::load_rule_file(p, rule, &db)?.database),
    }
}

/// A player under another name (the tournament's), so that two random
/// players can be told apart.
struct Named<P>(String, P);

impl<P: Player> Player for Named<P> {
    fn name(&self) -> String {
        self.0.clone()
    }
    fn new_game(&mut self, size: usize, komi: f32, seed: u64) -> Result<(), String> {
        self.1.new_game(size, komi, seed)
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.1.play(color, mv)
    }
    fn genmove(&mut self, color: Color) -> Result<Option<Move>, String> {
        self.1.genmove(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_specs_read_and_refuse() {
        let p: PlayerSpec = "gnugo=gtp:gnugo --mode gtp --level 0".parse().unwrap();
        assert_eq!(p.name, "gnugo");
        assert_eq!(
            p.kind,
            PlayerKind::Gtp(
                ["gnugo", "--mode", "gtp", "--level", "0"]
                    .map(String::from)
                    .into()
            )
        );
        let k: PlayerSpec = "k=katachi:playouts=500,db=x.db".parse().unwrap();
        assert_eq!(
            k.kind,
            PlayerKind::Katachi {
                search: Some(SearchOptions {
                    playouts: 500,
                    ..SearchOptions::default()
                }),
                db: Some("x.db".into()),
                all_patterns: false,
                personality: None,
            }
        );
        assert_eq!(
            "r=random".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::Random
        );
        // Five in a row's.
        assert_eq!(
            "k=katachi:ms=100".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::FiveKatachi {
                work: FiveWork::Time(Some(Duration::from_millis(100))),
                db: None,
                personality: None
            }
        );
        assert_eq!(
            "k=katachi:ms=50,db=f.db"
                .parse::<PlayerSpec>()
                .unwrap()
                .kind,
            PlayerKind::FiveKatachi {
                work: FiveWork::Time(Some(Duration::from_millis(50))),
                db: Some("f.db".into()),
                personality: None
            }
        );
        for (spec, work) in [
            ("k=katachi:depth=3", FiveWork::Depth(3)),
            ("k=katachi:nodes=30000", FiveWork::Nodes(30_000)),
        ] {
            assert_eq!(
                spec.parse::<PlayerSpec>().unwrap().kind,
                PlayerKind::FiveKatachi {
                    work,
                    db: None,
                    personality: None
                },
                "{spec}"
            );
        }
        assert!("k=katachi:ms=50,playouts=9"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .contains("playouts= is Go's"));
        assert_eq!(
            "s=seed".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::Seed
        );
        assert_eq!(
            "g=greedy".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::Greedy
        );
        assert_eq!(
            "b=gomocup:pbrain-x --fast"
                .parse::<PlayerSpec>()
                .unwrap()
                .kind,
            PlayerKind::Gomocup(["pbrain-x", "--fast"].map(String::from).into())
        );
        assert_eq!(
            "l=line-records".parse::<PlayerSpec>().unwrap().kind,
            PlayerKind::LineRecords
        );
        assert_eq!(
            "t=file:katachi hex player --team {team} "
                .parse::<PlayerSpec>()
                .unwrap()
                .kind,
            PlayerKind::File("katachi hex player --team {team}".into())
        );
        let five = Game::Five {
            rule: Rule::Renju,
            openings_file: None,
        };
        let hex = Game::Hex {
            rule: Rule::Freestyle,
        };
        for (spec, go, five_ok, hex_ok) in [
            ("k=katachi", true, true, true),
            ("k=katachi:ms=5", false, true, true),
            ("k=katachi:db=x.db", true, true, false),
            ("k=katachi:ms=5,db=x.db", false, true, false),
            ("k=katachi:depth=2", false, true, true),
            ("k=katachi:nodes=2000", false, true, true),
            ("k=katachi:personality=h.toml", true, true, true),
            ("k=katachi:depth=2,personality=h.toml", false, true, true),
            ("k=katachi:playouts=5", true, false, false),
            ("r=random", true, true, true),
            ("s=seed", false, true, false),
            ("g=greedy", false, true, true),
            ("l=line-records", false, true, true),
            ("b=gomocup:x", false, true, false),
            ("g=gtp:x", true, false, false),
            ("t=file:x --team {team}", false, false, true),
        ] {
            let p: PlayerSpec = spec.parse().unwrap();
            assert_eq!(p.check(&Game::Go).is_ok(), go, "{spec}");
            assert_eq!(p.check(&five).is_ok(), five_ok, "{spec}");
            assert_eq!(p.check(&hex).is_ok(), hex_ok, "{spec}");
        }
        for bad in [
            "a=gomocup:",
            "a=katachi:ms=0",
            "a=katachi:ms=5,playouts=3",
            "nameless",
            "a=chess",
            "a=gtp:",
            "a=file: ",
            "a=katachi:depth=0",
            "a=katachi:depth=3,ms=5",
            "a=katachi:nodes=0",
            "a=katachi:nodes=9,ms=5",
            "a=katachi:nodes=9,depth=2",
            "a=katachi:depth=3,playouts=5",
            "=random",
            "a/b=random",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }
}
