//! The judge's game log, `game-log-FIRST-SECOND.txt`: written by the
//! judge, read back by `katachi hex show` (true colours, the last move,
//! the winning row).
//!
//! ```text
//! katachi hex game log
//! first 1
//! second 2
//! rule five-or-more
//! limit-ms 5000
//! 1 1 108 -
//! 2 2 92 -
//! 3 1 109 412
//! 4 2 91 380
//! …
//! result win 1 five 60 75 91 108 124
//! ```
//!
//! A header (the teams in the order they play — the first plays the odd
//! moves, drawn black —, the rule `five-or-more` or `exact-five`, the
//! limit a move in milliseconds); then one line a move: the move number,
//! the team, the cell and the milliseconds from the state file written to
//! the move file read (`-` for an opening stone the judge placed itself);
//! then one result line:
//!
//! - `result win TEAM five CELL…`: the winner and its row;
//! - `result win TEAM VIOLATION LOSER: DETAIL`: the loser broke a rule,
//!   `VIOLATION` one of `late`, `outside`, `taken`, `malformed`,
//!   `tampered` ([`Violation`]), the detail says how;
//! - `result draw full-board`.

use std::fmt;

/// A rule broken: the team that broke it loses at once.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Violation {
    /// No move file within the limit.
    Late,
    /// A cell outside 0–216.
    Outside,
    /// A cell already taken.
    Taken,
    /// A move file that does not parse, or names another move number.
    Malformed,
    /// The state file was changed or removed.
    Tampered,
}

impl Violation {
    pub const ALL: [Violation; 5] = [
        Violation::Late,
        Violation::Outside,
        Violation::Taken,
        Violation::Malformed,
        Violation::Tampered,
    ];

    /// Its word in the log.
    pub fn word(self) -> &'static str {
        match self {
            Violation::Late => "late",
            Violation::Outside => "outside",
            Violation::Taken => "taken",
            Violation::Malformed => "malformed",
            Violation::Tampered => "tampered",
        }
    }
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Ending {
    /// `winner` (0 first, 1 second) made a row: its cells.
    Five { winner: usize, row: Vec<u32> },
    /// `loser` broke a rule.
    Violation {
        loser: usize,
        violation: Violation,
        detail: String,
    },
    /// The board filled up.
    FullBoard,
}

/// One move of a log.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LoggedMove {
    pub number: u32,
    /// 0 the first team, 1 the second.
    pub side: usize,
    pub cell: u32,
    /// `None` for an opening stone the judge placed.
    pub millis: Option<u64>,
}

/// A game as the log tells it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameLog {
    /// The teams, first to move first.
    pub teams: [String; 2],
    /// Exactly five wins (else five or more).
    pub exact: bool,
    pub limit_ms: u64,
    pub moves: Vec<LoggedMove>,
    /// `None` while the game goes on (a log cut short).
    pub ending: Option<Ending>,
}

impl GameLog {
    /// The winner's index, if there is one.
    pub fn winner(&self) -> Option<usize> {
        match &self.ending {
            Some(Ending::Five { winner, .. }) => Some(*winner),
            Some(Ending::Violation { loser, .. }) => Some(1 - loser),
            _ => None,
        }
    }
}

impl fmt::Display for GameLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "katachi hex game log")?;
        writeln!(f, "first {}", self.teams[0])?;
        writeln!(f, "second {}", self.teams[1])?;
        let rule = if self.exact {
            "exact-five"
        } else {
            "five-or-more"
        };
        writeln!(f, "rule {rule}")?;
        writeln!(f, "limit-ms {}", self.limit_ms)?;
        for m in &self.moves {
            let ms = m.millis.map_or("-".to_string(), |t| t.to_string());
            writeln!(f, "{} {} {} {ms}", m.number, self.teams[m.side], m.cell)?;
        }
        match &self.ending {
            None => Ok(()),
            Some(Ending::Five { winner, row }) => {
                let cells: Vec<String> = row.iter().map(u32::to_string).collect();
                writeln!(
                    f,
                    "result win {} five {}",
                    self.teams[*winner],
                    cells.join(" ")
                )
            }
            Some(Ending::Violation {
                loser,
                violation,
                detail,
            }) => writeln!(
                f,
                "result win {} {} {}: {}",
                self.teams[1 - loser],
                violation.word(),
                self.teams[*loser],
                detail.replace('\n', " ")
            ),
            Some(Ending::FullBoard) => writeln!(f, "result draw full-board"),
        }
    }
}

/// A log line that is not what the format says.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LogError {
    pub file: String,
    pub line: usize,
    pub text: String,
    pub message: String,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:1: error: {}\n  {}\n  ^",
            self.file, self.line, self.message, self.text
        )
    }
}

impl std::error::Error for LogError {}

/// Reads a game log (named `file` in errors).
pub fn parse_log(file: &str, text: &str) -> Result<GameLog, LogError> {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let err = |k: usize, message: String| LogError {
        file: file.to_string(),
        line: k + 1,
        text: lines.get(k).unwrap_or(&"").to_string(),
        message,
    };
    let header = |k: usize, key: &str| -> Result<String, LogError> {
        lines
            .get(k)
            .and_then(|l| l.strip_prefix(key))
            .and_then(|v| v.strip_prefix(' '))
            .map(str::to_string)
            .ok_or_else(|| err(k, format!("expected `{key} …`")))
    };
    if lines.first() != Some(&"katachi hex game log") {
        return Err(err(0, "expected `katachi hex game log`".into()));
    }
    let teams = [header(1, "first")?, header(2, "second")?];
    let exact = match header(3, "rule")?.as_str() {
        "five-or-more" => false,
        "exact-five" => true,
        _ => {
            return Err(err(
                3,
                "expected `rule five-or-more` or `rule exact-five`".into(),
            ))
        }
    };
    let limit_ms = header(4, "limit-ms")?
        .parse()
        .map_err(|_| err(4, "expected the limit in milliseconds".into()))?;
    let side_of = |k: usize, t: &str| -> Result<usize, LogError> {
        teams
            .iter()
            .position(|x| x == t)
            .ok_or_else(|| err(k, format!("`{t}` is neither team")))
    };
    let mut moves = Vec::new();
    let mut ending = None;
    for (k, line) in lines.iter().enumerate().skip(5) {
        if line.trim().is_empty() {
            continue;
        }
        if ending.is_some() {
            return Err(err(k, "expected nothing after the result".into()));
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        if w[0] == "result" {
            ending = Some(match w.get(1..) {
                Some(["draw", "full-board"]) => Ending::FullBoard,
                Some(["win", team, "five", cells @ ..]) => Ending::Five {
                    winner: side_of(k, team)?,
                    row: cells
                        .iter()
                        .map(|c| c.parse().map_err(|_| err(k, format!("bad cell `{c}`"))))
                        .collect::<Result<_, _>>()?,
                },
                Some(["win", team, v, loser, ..]) => {
                    let violation = Violation::ALL
                        .into_iter()
                        .find(|x| x.word() == *v)
                        .ok_or_else(|| err(k, format!("unknown reason `{v}`")))?;
                    let loser = side_of(k, loser.trim_end_matches(':'))?;
                    if loser == side_of(k, team)? {
                        return Err(err(k, "the winner is the loser".into()));
                    }
                    let detail = line
                        .split_once(": ")
                        .map_or(String::new(), |(_, d)| d.to_string());
                    Ending::Violation {
                        loser,
                        violation,
                        detail,
                    }
                }
                _ => return Err(err(k, "expected `result win …` or `result draw …`".into())),
            });
            continue;
        }
        let [number, team, cell, ms] = w.as_slice() else {
            return Err(err(k, "expected `MOVE TEAM CELL MILLISECONDS`".into()));
        };
        let number: u32 = number
            .parse()
            .map_err(|_| err(k, format!("bad move number `{number}`")))?;
        if number as usize != moves.len() + 1 {
            return Err(err(k, format!("expected move {}", moves.len() + 1)));
        }
        moves.push(LoggedMove {
            number,
            side: side_of(k, team)?,
            cell: cell
                .parse()
                .map_err(|_| err(k, format!("bad cell `{cell}`")))?,
            millis: match *ms {
                "-" => None,
                t => Some(t.parse().map_err(|_| err(k, format!("bad time `{t}`")))?),
            },
        });
    }
    Ok(GameLog {
        teams,
        exact,
        limit_ms,
        moves,
        ending,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(ending: Ending) -> GameLog {
        GameLog {
            teams: ["7".into(), "alpha".into()],
            exact: true,
            limit_ms: 5000,
            moves: vec![
                LoggedMove {
                    number: 1,
                    side: 0,
                    cell: 108,
                    millis: None,
                },
                LoggedMove {
                    number: 2,
                    side: 1,
                    cell: 92,
                    millis: Some(412),
                },
            ],
            ending: Some(ending),
        }
    }

    #[test]
    fn logs_read_back_what_was_written() {
        for ending in [
            Ending::Five {
                winner: 1,
                row: vec![60, 75, 91, 108, 124],
            },
            Ending::FullBoard,
            Ending::Violation {
                loser: 0,
                violation: Violation::Taken,
                detail: "move 3 on cell 108, already taken".into(),
            },
        ] {
            let log = sample(ending);
            let text = log.to_string();
            assert_eq!(parse_log("g", &text), Ok(log), "{text}");
        }
        let text = sample(Ending::FullBoard).to_string();
        assert_eq!(
            text,
            "katachi hex game log\nfirst 7\nsecond alpha\nrule exact-five\nlimit-ms 5000\n\
             1 7 108 -\n2 alpha 92 412\nresult draw full-board\n"
        );
    }

    #[test]
    fn bad_logs_are_located() {
        let text = sample(Ending::FullBoard)
            .to_string()
            .replace("2 alpha 92", "3 alpha 92");
        let e = parse_log("g.txt", &text).unwrap_err().to_string();
        assert!(e.starts_with("g.txt:7:1: error: expected move 2"), "{e}");
        let e = parse_log("g.txt", "hello").unwrap_err().to_string();
        assert!(
            e.starts_with("g.txt:1:1: error: expected `katachi hex game log`"),
            "{e}"
        );
    }
}
