//! One line of the manager's input read as a command: the words and
//! numbers only. Whether a command can be done (a board, an empty point)
//! is the session's question.

use std::fmt;

/// A command as read, its coordinates not yet checked against a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Command {
    /// `START n` and `RECTSTART w,h`.
    Start {
        width: u64,
        height: u64,
    },
    Restart,
    Begin,
    Turn(Xy),
    Board,
    Done,
    TakeBack(Xy),
    End,
    About,
    /// `INFO key value`, the key in lower case, the value trimmed.
    Info {
        key: String,
        value: String,
    },
    /// Yixin's `YXSTOP`: stop the search under way.
    Stop,
}

/// A coordinate pair as written, `x` the column and `y` the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Xy {
    pub x: u64,
    pub y: u64,
}

/// Why a line is not a command: the reply's kind and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// `UNKNOWN`: a command the protocol does not have.
    Unknown(String),
    /// `ERROR`: a known command, malformed.
    Malformed(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Unknown(m) => write!(f, "UNKNOWN {m}"),
            Refusal::Malformed(m) => write!(f, "ERROR {m}"),
        }
    }
}

/// A decimal count of any length: `None` unless all ASCII digits; a
/// number too large for `u64` saturates (a huge time is no limit, a huge
/// coordinate is off any board).
pub(super) fn count(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

/// `x,y`, spaces allowed around either number.
pub(super) fn xy(text: &str) -> Option<Xy> {
    let (x, y) = text.split_once(',')?;
    Some(Xy {
        x: count(x.trim())?,
        y: count(y.trim())?,
    })
}

/// A `BOARD` data line `x,y,field`.
pub(super) fn board_line(text: &str) -> Option<(Xy, u64)> {
    let (pair, field) = text.rsplit_once(',')?;
    Some((xy(pair)?, count(field.trim())?))
}

/// Reads a trimmed, non-empty line.
pub(super) fn parse(line: &str) -> Result<Command, Refusal> {
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let name = word.to_ascii_uppercase();
    let bare = |c: Command| {
        if rest.is_empty() {
            Ok(c)
        } else {
            Err(Refusal::Malformed(format!("{name} takes no argument")))
        }
    };
    let point = |c: fn(Xy) -> Command| {
        xy(rest)
            .map(c)
            .ok_or_else(|| Refusal::Malformed(format!("{name} wants x,y, not '{}'", shorten(rest))))
    };
    match name.as_str() {
        "START" => count(rest)
            .map(|n| Command::Start {
                width: n,
                height: n,
            })
            .ok_or_else(|| {
                Refusal::Malformed(format!("START wants a size, not '{}'", shorten(rest)))
            }),
        "RECTSTART" => xy(rest)
            .map(|p| Command::Start {
                width: p.x,
                height: p.y,
            })
            .ok_or_else(|| {
                Refusal::Malformed(format!(
                    "RECTSTART wants width,height, not '{}'",
                    shorten(rest)
                ))
            }),
        "RESTART" => bare(Command::Restart),
        "BEGIN" => bare(Command::Begin),
        "TURN" => point(Command::Turn),
        "BOARD" => bare(Command::Board),
        "DONE" => bare(Command::Done),
        "TAKEBACK" => point(Command::TakeBack),
        // `END` ends the session whatever follows it.
        "END" => Ok(Command::End),
        "ABOUT" => bare(Command::About),
        "YXSTOP" => Ok(Command::Stop),
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_string(),
            })
        }
        _ => Err(Refusal::Unknown(format!(
            "unknown command '{}'",
            shorten(word)
        ))),
    }
}

/// At most 40 characters of a word, for a reply that quotes it: a reply
/// never grows with the input.
pub(super) fn shorten(word: &str) -> String {
    match word.char_indices().nth(40) {
        Some((k, _)) => format!("{}...", &word[..k]),
        None => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count("0"), Some(0));
        assert_eq!(count("2147483647"), Some(2_147_483_647));
        assert_eq!(count("99999999999999999999999999"), Some(u64::MAX));
        assert_eq!(count("-1"), None);
        assert_eq!(count("+1"), None);
        assert_eq!(count(""), None);
        assert_eq!(count("1.5"), None);
    }

    #[test]
    fn commands() {
        assert_eq!(
            parse("start 20"),
            Ok(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            parse("RectStart 30, 20"),
            Ok(Command::Start {
                width: 30,
                height: 20
            })
        );
        assert_eq!(parse("TURN 3 , 4"), Ok(Command::Turn(Xy { x: 3, y: 4 })));
        assert_eq!(
            parse("INFO Timeout_Turn  5000 "),
            Ok(Command::Info {
                key: "timeout_turn".into(),
                value: "5000".into()
            })
        );
        assert_eq!(parse("end now"), Ok(Command::End));
        assert!(matches!(parse("TURN 3"), Err(Refusal::Malformed(_))));
        assert!(matches!(parse("BEGIN 3"), Err(Refusal::Malformed(_))));
        assert!(matches!(parse("SWAP2BOARD"), Err(Refusal::Unknown(_))));
    }

    #[test]
    fn board_lines() {
        assert_eq!(board_line("1,2,1"), Some((Xy { x: 1, y: 2 }, 1)));
        assert_eq!(board_line(" 1 , 2 , 3"), Some((Xy { x: 1, y: 2 }, 3)));
        assert_eq!(board_line("1,2"), None);
        assert_eq!(board_line("1,2,x"), None);
    }

    #[test]
    fn replies_quote_at_most_forty_characters() {
        let long = "é".repeat(100);
        assert_eq!(shorten(&long).chars().count(), 43);
    }
}
