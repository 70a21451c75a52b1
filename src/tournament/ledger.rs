//! A tournament's ledger — one JSON line per finished game — and the
//! standings computed from it.
//!
//! The ledger is what makes a tournament resumable and splittable: a game
//! is appended (and flushed) when it ends, so a run that is killed loses
//! at most the games in flight, and its next run plays only the games
//! whose ids are missing ([`super::schedule::to_play`]). Shards write their
//! own ledgers; [`merge`] joins them into the ledger of one whole run.
//! The game records themselves (SGF for Go, the game's own format
//! otherwise) are files beside it, named in [`GameRecord::record`].
//!
//! Nothing here knows a game: a result is a winner, a margin in the
//! game's own unit (Go's area score, or 0), a number of moves, the time
//! each side thought and how the game ended.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ratings::{Fit, Outcome, Rating, Results};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// By the rules: a count, five in a row, a draw.
    Rules,
    /// The loser resigned.
    Resigned,
    /// The loser played an illegal move.
    Illegal,
    /// The loser's program failed (crashed, closed its pipe, answered
    /// nonsense).
    Crash,
    /// The loser ran out of time.
    Timeout,
    /// The move cap was reached; counted as it stood.
    Cap,
}

/// The winner, from the schedule's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    First,
    Second,
    Draw,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The schedule's id (`g0042`).
    pub id: String,
    /// The players' names; `first` moved first.
    pub first: String,
    pub second: String,
    pub opening: usize,
    pub winner: Winner,
    /// The first player's margin in the game's unit (Go: area points
    /// after komi; 0 where the game has none).
    pub margin: f64,
    pub moves: u32,
    /// Seconds each side thought, first then second.
    pub seconds: [f64; 2],
    pub ending: Ending,
    /// The game record's file name beside the ledger, if one was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The moves' [`Fingerprint`](super::Fingerprint) in hexadecimal (absent
    /// from ledgers written before it was kept): the standings name the
    /// games that repeat an earlier one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// What the referee saw when a player failed (a time over its limit,
    /// an illegal move, a program's answer that was not a move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One game as its ledger line, without the line end.
fn line(game: &GameRecord) -> Result<String, String> {
    serde_json::to_string(game).map_err(|e| e.to_string())
}

/// Appends one game to the ledger at `path` (created when missing) and
/// flushes it.
pub fn append(path: &Path, game: &GameRecord) -> Result<(), String> {
    let line = line(game)?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}")
        .and_then(|()| f.flush())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Replaces the ledger at `path` with `games` (atomically, through
/// `mkpat::output`): a repaired ledger, its cut last line dropped.
pub fn write(path: &Path, games: &[GameRecord]) -> Result<(), String> {
    let mut text = String::new();
    for g in games {
        text += &line(g)?;
        text.push('\n');
    }
    crate::mkpat::output::write(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// Reads a ledger: the games, and a warning for a last line cut short (a
/// run killed while writing it: that game is played again). Any other bad
/// line is an error naming `path:line`. A missing file is an empty ledger.
pub fn read(path: &Path) -> Result<(Vec<GameRecord>, Option<String>), String> {
    if !path.exists() {
        return Ok((Vec::new(), None));
    }
    let bytes = crate::input::read_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: the ledger is not UTF-8", path.display()))?;
    let mut games = Vec::new();
    let mut warning = None;
    let lines: Vec<&str> = text.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(g) => games.push(g),
            Err(_) if k + 1 == lines.len() && !text.ends_with('\n') => {
                warning = Some(format!(
                    "{}:{}: the last line is cut short (a run stopped while writing it); that game is played again",
                    path.display(),
                    k + 1
                ));
            }
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), k + 1)),
        }
    }
    Ok((games, warning))
}

/// Joins ledgers (shards of one tournament, or one run and its resumption)
/// into one, in schedule order. The same game twice is kept once when the
/// two agree; two different results for one id are an error.
pub fn merge(ledgers: &[Vec<GameRecord>]) -> Result<Vec<GameRecord>, String> {
    let mut by_id: BTreeMap<&str, &GameRecord> = BTreeMap::new();
    for g in ledgers.iter().flatten() {
        match by_id.get(g.id.as_str()) {
            Some(old) if !same_game(old, g) => {
                return Err(format!(
                    "game {} is in two ledgers with different results ({} vs {} against {} vs {})",
                    g.id, old.first, old.second, g.first, g.second
                ));
            }
            Some(_) => {}
            None => {
                by_id.insert(&g.id, g);
            }
        }
    }
    Ok(by_id.into_values().cloned().collect())
}

/// Two records of one game agree on who played and what happened (thinking
/// times may differ between machines that replayed it).
fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    (&a.first, &a.second, a.opening, a.winner, a.moves, a.ending)
        == (&b.first, &b.second, b.opening, b.winner, b.moves, b.ending)
        && a.margin == b.margin
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub player: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins, draws and losses when moving first.
    pub first: [u32; 3],
    pub second: [u32; 3],
    /// Mean margin from this player's side.
    pub mean_margin: f64,
    pub seconds_per_move: f64,
    pub elo: f64,
    /// Half the 95 % interval of `elo`.
    pub elo_margin95: f64,
    /// Games lost by failure, by kind (illegal, crash, timeout).
    pub failures: BTreeMap<String, u32>,
}

/// Two players' games against each other, from the first's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pair {
    pub player: String,
    pub opponent: String,
    pub games: u32,
    /// Wins, draws and losses of `player`.
    pub wdl: [u32; 3],
    /// Of them, when `player` moved first, and second.
    pub first: [u32; 3],
    pub second: [u32; 3],
    /// Mean margin from `player`'s side.
    pub mean_margin: f64,
}

/// One player's results against one opponent as it is counted: as
/// first, as second, and the summed margin.
type PairTally = ([u32; 3], [u32; 3], f64);

/// A game that repeats an earlier one move for move, with the same
/// players in the same colours.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Repeat {
    /// The later game's id.
    pub game: String,
    /// The first game (in schedule order) with those players and moves.
    pub of: String,
}

/// The standings: one line per player, strongest first, and one per
/// pair of players who met (the stronger first, in the players' order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    pub games: usize,
    pub players: Vec<Standing>,
    pub pairs: Vec<Pair>,
    /// Games whose ledger line has a fingerprint (the others, from older
    /// ledgers, cannot be compared).
    pub fingerprinted: usize,
    /// The games that repeat an earlier one: a deterministic pairing
    /// replays its games, and a win rate over copies of one game is a
    /// measure of fewer games than it seems.
    pub repeats: Vec<Repeat>,
}

/// The games among `games` (with fingerprints) that repeat an earlier
/// one, "earlier" in the order of the schedule's ids.
fn repeats(games: &[GameRecord]) -> Vec<Repeat> {
    let mut by_id: Vec<&GameRecord> = games.iter().filter(|g| g.fingerprint.is_some()).collect();
    by_id.sort_by(|a, b| a.id.cmp(&b.id));
    let mut first_seen: BTreeMap<(&str, &str, &str), &str> = BTreeMap::new();
    let mut out = Vec::new();
    for g in by_id {
        let key = (
            g.first.as_str(),
            g.second.as_str(),
            g.fingerprint.as_deref().unwrap_or_default(),
        );
        let of = *first_seen.entry(key).or_insert(&g.id);
        if of != g.id {
            out.push(Repeat {
                game: g.id.clone(),
                of: of.to_string(),
            });
        }
    }
    out
}

impl Standings {
    /// Standings of `players` (in any order; the lines come out by rating)
    /// over `games`.
    pub fn new(players: &[String], games: &[GameRecord], fit: Fit) -> Result<Standings, String> {
        let index = |name: &str| {
            players
                .iter()
                .position(|p| p == name)
                .ok_or_else(|| format!("the ledger names `{name}`, who is not a player here"))
        };
        let mut results = Results::new(players.len());
        let mut lines: Vec<Standing> = players
            .iter()
            .map(|p| Standing {
                player: p.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                first: [0; 3],
                second: [0; 3],
                mean_margin: 0.0,
                seconds_per_move: 0.0,
                elo: 0.0,
                elo_margin95: 0.0,
                failures: BTreeMap::new(),
            })
            .collect();
        let mut time = vec![(0.0f64, 0u32); players.len()];
        // Per ordered pair (i, j): i's results against j, by colour, and
        // i's summed margin.
        let mut pair: BTreeMap<(usize, usize), PairTally> = BTreeMap::new();
        for g in games {
            let (a, b) = (index(&g.first)?, index(&g.second)?);
            if a == b {
                return Err(format!("game {}: `{}` plays itself", g.id, g.first));
            }
            let outcome = match g.winner {
                Winner::First => Outcome::Win,
                Winner::Second => Outcome::Loss,
                Winner::Draw => Outcome::Draw,
            };
            results.add(a, b, outcome);
            let slot = |o: Outcome| match o {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
            };
            let flip = |o: Outcome| match o {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                Outcome::Draw => Outcome::Draw,
            };
            for (who, o, as_first, margin) in [
                (a, outcome, true, g.margin),
                (b, flip(outcome), false, -g.margin),
            ] {
                let s = &mut lines[who];
                s.games += 1;
                match o {
                    Outcome::Win => s.wins += 1,
                    Outcome::Draw => s.draws += 1,
                    Outcome::Loss => {
                        s.losses += 1;
                        let kind = match g.ending {
                            Ending::Illegal => Some("illegal"),
                            Ending::Crash => Some("crash"),
                            Ending::Timeout => Some("timeout"),
                            _ => None,
                        };
                        if let Some(kind) = kind {
                            *s.failures.entry(kind.to_string()).or_default() += 1;
                        }
                    }
                }
                let by_colour = if as_first {
                    &mut s.first
                } else {
                    &mut s.second
                };
                by_colour[slot(o)] += 1;
                s.mean_margin += margin;
                let other = if who == a { b } else { a };
                let e = pair.entry((who, other)).or_insert(([0; 3], [0; 3], 0.0));
                if as_first {
                    e.0[slot(o)] += 1;
                } else {
                    e.1[slot(o)] += 1;
                }
                e.2 += margin;
            }
            // Each side made about half the moves.
            let (first_moves, second_moves) = (g.moves.div_ceil(2), g.moves / 2);
            time[a].0 += g.seconds[0];
            time[a].1 += first_moves;
            time[b].0 += g.seconds[1];
            time[b].1 += second_moves;
        }
        let ratings: Vec<Rating> = results.ratings(fit);
        for (k, s) in lines.iter_mut().enumerate() {
            if s.games > 0 {
                s.mean_margin /= f64::from(s.games);
            }
            if time[k].1 > 0 {
                s.seconds_per_move = time[k].0 / f64::from(time[k].1);
            }
            s.elo = ratings[k].elo;
            s.elo_margin95 = ratings[k].margin95();
        }
        lines.sort_by(|x, y| {
            y.elo
                .total_cmp(&x.elo)
                .then_with(|| x.player.cmp(&y.player))
        });
        // Each pair once, from the side of the one listed higher.
        let rank = |k: usize| {
            lines
                .iter()
                .position(|l| l.player == players[k])
                .unwrap_or(usize::MAX)
        };
        let mut pairs: Vec<(usize, Pair)> = pair
            .iter()
            .filter(|((i, j), _)| rank(*i) < rank(*j))
            .map(|(&(i, j), &(first, second, margin))| {
                let wdl = [0, 1, 2].map(|k| first[k] + second[k]);
                let n = wdl.iter().sum::<u32>();
                let p = Pair {
                    player: players[i].clone(),
                    opponent: players[j].clone(),
                    games: n,
                    wdl,
                    first,
                    second,
                    mean_margin: if n > 0 { margin / f64::from(n) } else { 0.0 },
                };
                (rank(i) * players.len() + rank(j), p)
            })
            .collect();
        pairs.sort_by_key(|(k, _)| *k);
        Ok(Standings {
            games: games.len(),
            players: lines,
            pairs: pairs.into_iter().map(|(_, p)| p).collect(),
            fingerprinted: games.iter().filter(|g| g.fingerprint.is_some()).count(),
            repeats: repeats(games),
        })
    }

    /// A Markdown table.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "{} games; Elo from a Bradley–Terry fit (draws half a point), ± the 95 % interval\n\n\
             | player | Elo | games | W-D-L | as first | as second | mean margin | s/move | lost by failure |\n\
             | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
            self.games
        );
        for s in &self.players {
            let wdl = |x: [u32; 3]| format!("{}-{}-{}", x[0], x[1], x[2]);
            let failures = if s.failures.is_empty() {
                "none".to_string()
            } else {
                s.failures
                    .iter()
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out += &format!(
                "| {} | {:+.0} ± {:.0} | {} | {} | {} | {} | {:+.1} | {:.3} | {} |\n",
                s.player,
                s.elo,
                s.elo_margin95,
                s.games,
                wdl([s.wins, s.draws, s.losses]),
                wdl(s.first),
                wdl(s.second),
                s.mean_margin,
                s.seconds_per_move,
                failures
            );
        }
        if !self.pairs.is_empty() {
            out += "\nHead to head, from the first-named player's side\n\n\
                    | player | opponent | games | W-D-L | as first | as second | mean margin |\n\
                    | --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
            let wdl = |x: [u32; 3]| format!("{}-{}-{}", x[0], x[1], x[2]);
            for p in &self.pairs {
                out += &format!(
                    "| {} | {} | {} | {} | {} | {} | {:+.1} |\n",
                    p.player,
                    p.opponent,
                    p.games,
                    wdl(p.wdl),
                    wdl(p.first),
                    wdl(p.second),
                    p.mean_margin
                );
            }
        }
        out += &self.repeats_text();
        out
    }

    /// What the Markdown says of repeated games (nothing when no game has
    /// a fingerprint).
    fn repeats_text(&self) -> String {
        let n = self.fingerprinted;
        let unknown = match self.games - n {
            0 => String::new(),
            k => format!(
                " ({k} game{} from an older ledger, without a fingerprint, not compared)",
                if k == 1 { "" } else { "s" }
            ),
        };
        match self.repeats.len() {
            _ if n == 0 => String::new(),
            0 => format!(
                "\nNo game repeats another: the {n} games' moves all differ, \
                 for the same players in the same colours{unknown}.\n"
            ),
            k => {
                let list: Vec<String> = self
                    .repeats
                    .iter()
                    .map(|r| format!("{} (as {})", r.game, r.of))
                    .collect();
                format!(
                    "\n{k} of the {n} games repeat an earlier one move for move, with the \
                     same players in the same colours{unknown}: {}.\n",
                    list.join(", ")
                )
            }
        }
    }

    /// CSV of the pairs, one line per pair of players who met, with a
    /// header (`pairs.csv` beside `standings.csv`).
    pub fn pairs_csv(&self) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut out = String::from(
            "player,opponent,games,wins,draws,losses,first_wins,first_draws,first_losses,second_wins,second_draws,second_losses,mean_margin\n",
        );
        for p in &self.pairs {
            out += &format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.2}\n",
                quote(&p.player),
                quote(&p.opponent),
                p.games,
                p.wdl[0],
                p.wdl[1],
                p.wdl[2],
                p.first[0],
                p.first[1],
                p.first[2],
                p.second[0],
                p.second[1],
                p.second[2],
                p.mean_margin
            );
        }
        out
    }

    /// CSV, one line per player, with a header.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "player,elo,elo_margin95,games,wins,draws,losses,first_wins,first_draws,first_losses,second_wins,second_draws,second_losses,mean_margin,seconds_per_move,illegal,crash,timeout\n",
        );
        for s in &self.players {
            let f = |k: &str| s.failures.get(k).copied().unwrap_or(0);
            let name = if s.player.contains([',', '"', '\n']) {
                format!("\"{}\"", s.player.replace('"', "\"\""))
            } else {
                s.player.clone()
            };
            out += &format!(
                "{},{:.1},{:.1},{},{},{},{},{},{},{},{},{},{},{:.2},{:.4},{},{},{}\n",
                name,
                s.elo,
                s.elo_margin95,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                s.first[0],
                s.first[1],
                s.first[2],
                s.second[0],
                s.second[1],
                s.second[2],
                s.mean_margin,
                s.seconds_per_move,
                f("illegal"),
                f("crash"),
                f("timeout")
            );
        }
        out
    }

    /// JSON.
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).expect("standings serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::super::schedule::{schedule, to_play, Format, Shard};
    use super::*;

    fn game(id: usize, first: &str, second: &str, winner: Winner, ending: Ending) -> GameRecord {
        GameRecord {
            id: format!("g{id:04}"),
            first: first.into(),
            second: second.into(),
            opening: 0,
            winner,
            margin: match winner {
                Winner::First => 4.5,
                Winner::Second => -2.5,
                Winner::Draw => 0.0,
            },
            moves: 41,
            seconds: [2.1, 1.0],
            ending,
            record: Some(format!("g{id:04}.sgf")),
            fingerprint: Some(format!("{id:016x}")),
            reason: None,
        }
    }

    #[test]
    fn the_ledger_round_trips_and_survives_a_cut_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ledger.jsonl");
        let a = game(0, "a", "b", Winner::First, Ending::Rules);
        let b = game(1, "b", "a", Winner::Draw, Ending::Cap);
        append(&path, &a).unwrap();
        append(&path, &b).unwrap();
        assert_eq!(read(&path).unwrap(), (vec![a.clone(), b.clone()], None));
        // A run killed in the middle of a line.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str(r#"{"id":"g0002","first":"a"#);
        std::fs::write(&path, &text).unwrap();
        let (games, warning) = read(&path).unwrap();
        assert_eq!(games, vec![a, b]);
        assert!(warning
            .unwrap()
            .contains("ledger.jsonl:3: the last line is cut short"));
        // A bad line in the middle is an error with its place.
        std::fs::write(&path, "not json\n{}\n").unwrap();
        let err = read(&path).unwrap_err();
        assert!(err.contains("ledger.jsonl:1:"), "{err}");
        assert_eq!(
            read(&dir.path().join("none.jsonl")).unwrap(),
            (vec![], None)
        );
    }

    #[test]
    fn shards_merged_are_the_whole_run() {
        let players = ["a", "b", "c"].map(String::from);
        let all = schedule(3, Format::RoundRobin, 2);
        let play = |g: &super::super::schedule::Scheduled| {
            let (f, s) = (&players[g.first], &players[g.second]);
            // A fixed rule for the result: the lower-numbered player wins
            // as first, draws as second.
            let w = if g.first < g.second {
                Winner::First
            } else {
                Winner::Draw
            };
            game(g.index, f, s, w, Ending::Rules)
        };
        let whole: Vec<GameRecord> = all.iter().map(play).collect();
        let shards: Vec<Vec<GameRecord>> = (1..=3)
            .map(|k| {
                to_play(&all, Some(Shard { k, n: 3 }), &Default::default())
                    .iter()
                    .map(play)
                    .collect()
            })
            .collect();
        let merged = merge(&shards).unwrap();
        assert_eq!(merged, whole);
        let fit = Fit::default();
        assert_eq!(
            Standings::new(&players, &merged, fit).unwrap(),
            Standings::new(&players, &whole, fit).unwrap()
        );
        // A shard replayed with another result is refused.
        let mut bad = shards[0].clone();
        bad[0].winner = Winner::Second;
        assert!(merge(&[shards[0].clone(), bad])
            .unwrap_err()
            .contains("different results"));
        // The same game from a resumed run is kept once.
        assert_eq!(merge(&[whole.clone(), whole.clone()]).unwrap(), whole);
    }

    #[test]
    fn standings_count_colours_margins_time_and_failures() {
        let players = ["a", "b"].map(String::from);
        let games = [
            game(0, "a", "b", Winner::First, Ending::Rules),
            game(1, "b", "a", Winner::First, Ending::Rules),
            game(2, "a", "b", Winner::First, Ending::Timeout),
            game(3, "b", "a", Winner::Second, Ending::Illegal),
        ];
        let s = Standings::new(&players, &games, Fit { prior_games: 0.0 }).unwrap();
        let a = &s.players[0];
        assert_eq!(a.player, "a");
        assert_eq!((a.wins, a.draws, a.losses), (3, 0, 1));
        assert_eq!(a.first, [2, 0, 0]);
        assert_eq!(a.second, [1, 0, 1]);
        // Margins from a's side: +4.5, −4.5 (b won as first), +4.5, +2.5.
        assert!((a.mean_margin - (4.5 - 4.5 + 4.5 + 2.5) / 4.0).abs() < 1e-9);
        // a thought 2.1 s as first (21 moves) twice and 1.0 s as second
        // (20 moves) twice.
        assert!((a.seconds_per_move - 6.2 / 82.0).abs() < 1e-9);
        let b = &s.players[1];
        assert_eq!(
            b.failures,
            [("illegal".to_string(), 1), ("timeout".to_string(), 1)].into()
        );
        // 3 wins in 4: 400·log10 3 apart.
        assert!((a.elo - b.elo - 400.0 * 3f64.log10()).abs() < 1e-6);
        let md = s.markdown();
        assert!(
            md.contains("| a | +95 ± 197 | 4 | 3-0-1 | 2-0-0 | 1-0-1 | +1.8 | 0.076 | none |"),
            "{md}"
        );
        assert!(md.contains("1 illegal, 1 timeout"), "{md}");
        let csv = s.csv();
        assert_eq!(csv.lines().count(), 3);
        assert!(
            csv.lines()
                .nth(2)
                .unwrap()
                .starts_with("b,-95.4,196.6,4,1,0,3,"),
            "{csv}"
        );
        let json: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(json["players"][0]["player"], "a");
        assert_eq!(json["games"], 4);
    }

    #[test]
    fn head_to_head_counts_each_pair_once_by_colour() {
        let players = ["a", "b", "c"].map(String::from);
        let games = [
            game(0, "a", "b", Winner::First, Ending::Rules),
            game(1, "b", "a", Winner::First, Ending::Rules),
            game(2, "a", "c", Winner::First, Ending::Rules),
            game(3, "c", "a", Winner::Second, Ending::Rules),
            game(4, "b", "c", Winner::Draw, Ending::Cap),
        ];
        let s = Standings::new(&players, &games, Fit { prior_games: 0.0 }).unwrap();
        assert_eq!(s.players[0].player, "a");
        // Three pairs, each once, from the higher-listed player's side.
        assert_eq!(s.pairs.len(), 3);
        let ab = &s.pairs[0];
        assert_eq!((ab.player.as_str(), ab.opponent.as_str()), ("a", "b"));
        assert_eq!(
            (ab.games, ab.wdl, ab.first, ab.second),
            (2, [1, 0, 1], [1, 0, 0], [0, 0, 1])
        );
        // +4.5 as first, then −4.5 (b won as first).
        assert!(ab.mean_margin.abs() < 1e-9);
        let ac = s
            .pairs
            .iter()
            .find(|p| p.opponent == "c" && p.player == "a")
            .unwrap();
        assert_eq!(
            (ac.wdl, ac.first, ac.second),
            ([2, 0, 0], [1, 0, 0], [1, 0, 0])
        );
        let bc = s
            .pairs
            .iter()
            .find(|p| [p.player.as_str(), p.opponent.as_str()].contains(&"c") && p.player != "a")
            .unwrap();
        assert_eq!(bc.wdl, [0, 1, 0]);
        let md = s.markdown();
        assert!(
            md.contains("| a | b | 2 | 1-0-1 | 1-0-0 | 0-0-1 | +0.0 |"),
            "{md}"
        );
        let csv = s.pairs_csv();
        assert_eq!(csv.lines().count(), 4);
        assert!(
            csv.lines()
                .nth(1)
                .unwrap()
                .starts_with("a,b,2,1,0,1,1,0,0,0,0,1,"),
            "{csv}"
        );
        let json: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(json["pairs"][0]["opponent"], "b");
    }

    #[test]
    fn standings_name_the_games_that_repeat_an_earlier_one() {
        let players = ["a", "b"].map(String::from);
        let with = |id: usize, first: &str, second: &str, print: Option<&str>| GameRecord {
            fingerprint: print.map(String::from),
            ..game(id, first, second, Winner::First, Ending::Rules)
        };
        // Listed out of schedule order, as a parallel run appends them.
        let games = [
            with(3, "a", "b", Some("0123")),
            with(0, "a", "b", Some("0123")),
            with(1, "b", "a", Some("0123")),
            with(2, "a", "b", Some("4567")),
            with(5, "a", "b", Some("0123")),
            with(4, "b", "a", Some("0123")),
            with(6, "a", "b", None),
        ];
        let s = Standings::new(&players, &games, Fit { prior_games: 0.0 }).unwrap();
        // The same moves with the colours swapped are another game.
        let named: Vec<(&str, &str)> = s
            .repeats
            .iter()
            .map(|r| (r.game.as_str(), r.of.as_str()))
            .collect();
        assert_eq!(
            named,
            [("g0003", "g0000"), ("g0004", "g0001"), ("g0005", "g0000")]
        );
        assert_eq!(s.fingerprinted, 6);
        let md = s.markdown();
        assert!(
            md.contains(
                "3 of the 6 games repeat an earlier one move for move, with the same players \
                 in the same colours (1 game from an older ledger, without a fingerprint, \
                 not compared): g0003 (as g0000), g0004 (as g0001), g0005 (as g0000)."
            ),
            "{md}"
        );
        let json: serde_json::Value = serde_json::from_str(&s.json()).unwrap();
        assert_eq!(json["repeats"][2]["of"], "g0000");

        // Without g0004 and g0005, g0003 alone repeats g0000.
        let first_four = Standings::new(&players, &games[..4], Fit { prior_games: 0.0 }).unwrap();
        assert_eq!(first_four.repeats.len(), 1, "{}", first_four.markdown());
        let fresh = Standings::new(&players, &games[1..4], Fit { prior_games: 0.0 }).unwrap();
        assert!(
            fresh.markdown().contains(
                "No game repeats another: the 3 games' moves all differ, for the same \
                 players in the same colours."
            ),
            "{}",
            fresh.markdown()
        );
        let old = Standings::new(&players, &games[6..], Fit { prior_games: 0.0 }).unwrap();
        assert!(!old.markdown().contains("repeat"), "{}", old.markdown());
    }
}
