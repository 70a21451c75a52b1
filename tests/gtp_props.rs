//! GTP never breaks: random lines — raw bytes, or commands from the
//! command list with random arguments, ids, comments and control
//! characters — always get well-formed responses (`=` or `?`, the id
//! echoed, text, a blank line), the engine's incremental structures stay
//! consistent with the stones, and the session goes on working afterwards.
//! The same holds for the `katachi gtp` process fed random bytes.
#![cfg(feature = "compiler")]

use std::io::Write;
use std::process::{Command, Stdio};

use katachi::gtp::{Gtp, COMMANDS};
use proptest::prelude::*;

/// Checks one response: status, optional id equal to `id`, no blank line
/// inside, a blank line at the end.
fn well_formed(reply: &str, id: Option<&str>) -> Result<(), String> {
    let body = reply
        .strip_suffix("\n\n")
        .ok_or_else(|| format!("no blank line at the end: {reply:?}"))?;
    if body.contains("\n\n") {
        return Err(format!("blank line inside: {reply:?}"));
    }
    let rest = body
        .strip_prefix('=')
        .or_else(|| body.strip_prefix('?'))
        .ok_or_else(|| format!("no status: {reply:?}"))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if let Some(id) = id {
        if digits != id {
            return Err(format!("id {id} not echoed: {reply:?}"));
        }
    }
    let after = &rest[digits.len()..];
    if !(after.is_empty() || after.starts_with(' ') || after.starts_with('\n')) {
        return Err(format!(
            "status not followed by space or newline: {reply:?}"
        ));
    }
    Ok(())
}

fn arg() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("b".to_string()),
        Just("WHITE".to_string()),
        Just("pass".to_string()),
        Just("PaSs".to_string()),
        ("[a-zA-Z]", 0u32..30).prop_map(|(l, n)| format!("{l}{n}")),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u32..25).prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        "[ -~]{0,8}",
        "\\PC{0,6}",
    ]
}

fn command_line() -> impl Strategy<Value = (Option<u32>, String)> {
    let name = prop_oneof![
        4 => proptest::sample::select(COMMANDS).prop_map(str::to_string),
        1 => "[a-z_]{1,12}",
        1 => proptest::sample::select(COMMANDS).prop_map(|c| c.to_uppercase()),
    ];
    (
        proptest::option::of(0u32..1000),
        name,
        proptest::collection::vec(arg(), 0..4),
        prop_oneof![
            Just(""),
            Just(" # comment"),
            Just("\r"),
            Just("\t"),
            Just("\x07")
        ],
    )
        .prop_map(|(id, name, args, tail)| {
            let mut line = match id {
                Some(id) => format!("{id} {name}"),
                None => name,
            };
            for a in args {
                line.push(' ');
                line.push_str(&a);
            }
            line.push_str(tail);
            (id, line)
        })
}

/// A line as bytes, and the id the response must echo (when known).
fn any_line() -> impl Strategy<Value = (Option<u32>, Vec<u8>)> {
    prop_oneof![
        3 => command_line().prop_map(|(id, l)| (id, l.into_bytes())),
        1 => proptest::collection::vec(any::<u8>(), 0..40).prop_map(|b| (None, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_line_gets_a_well_formed_response_and_the_state_survives(
        lines in proptest::collection::vec(any_line(), 1..40),
    ) {
        let mut gtp = Gtp::new();
        for (id, raw) in &lines {
            // One physical line at a time, as `run` splits them.
            for part in raw.split(|&b| b == b'\n') {
                let reply = gtp.handle_line(part);
                if let Some(reply) = reply {
                    let id = id.map(|i| i.to_string());
                    // An id is only known to be echoed for a whole line.
                    let expect = if part.len() == raw.len() { id.as_deref() } else { None };
                    prop_assert!(well_formed(&reply, expect).is_ok(), "{:?} -> {:?}", String::from_utf8_lossy(part), reply);
                }
                prop_assert!(gtp.game().goban().verify().is_ok(), "after {:?}", String::from_utf8_lossy(part));
            }
        }
        // Still a working engine.
        prop_assert_eq!(gtp.handle_line(b"boardsize 9"), Some("=\n\n".to_string()));
        prop_assert_eq!(gtp.handle_line(b"play b E5"), Some("=\n\n".to_string()));
        prop_assert_eq!(gtp.handle_line(b"play w e5"), Some("? illegal move\n\n".to_string()));
        prop_assert_eq!(gtp.handle_line(b"5 protocol_version"), Some("=5 2\n\n".to_string()));
        let g = gtp.handle_line(b"genmove w").unwrap();
        prop_assert!(g.starts_with("= ") && g.ends_with("\n\n"), "{:?}", g);
    }

    /// Lines with no response (empty, blank, comments) give none.
    #[test]
    fn blank_and_comment_lines_get_no_response(line in "[ \t]{0,4}(#[ -~]{0,10})?") {
        prop_assert_eq!(Gtp::new().handle_line(line.as_bytes()), None);
    }
}

proptest! {
    // Each case starts a process: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn the_process_survives_random_bytes(input in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_katachi"))
            .arg("gtp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("katachi starts");
        {
            let mut stdin = child.stdin.take().expect("piped");
            // Random bytes may hold `quit`; the process may then have
            // closed its input already, which is fine.
            let _ = stdin.write_all(&input);
            let _ = stdin.write_all(b"\nprotocol_version\n");
        }
        let out = child.wait_with_output().expect("katachi runs");
        prop_assert!(out.status.success(), "exit status {:?}", out.status);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        for reply in text.split_inclusive("\n\n") {
            prop_assert!(well_formed(reply, None).is_ok(), "{:?}", reply);
        }
    }
}

/// The binary's search flags: a game with the search (a small number of
/// playouts, then a clock) answers well-formed moves; bad numbers are
/// refused by the argument parser with exit status 2, before any GTP.
#[test]
fn the_search_flags_of_katachi_gtp() {
    let run = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_katachi"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("katachi starts");
        // A refused argument ends katachi before it reads: the pipe may
        // then be closed under the write, which is not a failure here
        // (the exit status is checked).
        match child
            .stdin
            .take()
            .expect("piped")
            .write_all(input.as_bytes())
        {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            r => r.expect("katachi reads"),
        }
        child.wait_with_output().expect("katachi runs")
    };
    let out = run(
        &["--playouts", "200", "--prior-visits", "5", "--knowledge-visits", "50"],
        "boardsize 9\ngenmove b\ngenmove w\ntime_settings 5 0 0\ntime_left b 1 0\ngenmove b\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let replies: Vec<&str> = text.split_inclusive("\n\n").collect();
    assert_eq!(replies.len(), 7, "{text}");
    for r in &replies {
        assert!(well_formed(r, None).is_ok(), "{r:?}");
    }
    for i in [1, 2, 5] {
        let v = replies[i].trim_start_matches("= ").trim();
        assert!(
            katachi::go::notation::parse_move(v, 9).is_ok() && !v.eq_ignore_ascii_case("pass"),
            "a move on the board: {v:?}"
        );
    }
    for bad in [
        &["--prior-visits=-1"][..],
        &["--prior-visits", "nan"],
        &["--playouts=-5"],
        &["--knowledge-visits", "x"],
    ] {
        let out = run(bad, "quit\n");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("invalid value '"), "{bad:?}: {err}");
    }
}
