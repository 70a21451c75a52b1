//! The attribute line: numbers in range, wind signs, class letters, the
//! helper's name.

use super::*;

pub(super) fn check_numbers(a: &ast::Attributes, dialect: Dialect, diags: &mut Vec<Diagnostic>) {
    let mut nums = vec![("the weight", a.weight), ("the bonus", a.bonus)];
    for (n, v) in [
        ("xbonus", a.xbonus),
        ("splitbonus", a.splitbonus),
        ("minrand", a.minrand),
        ("maxrand", a.maxrand),
    ] {
        if let Some(v) = v {
            nums.push((n, v));
        }
    }
    match a.assistance {
        AssistanceAst::None(_) => {}
        AssistanceAst::Wind {
            ucutoff,
            uvalue,
            mycutoff,
            myvalue,
            ..
        } => {
            nums.extend([
                ("ucutoff", ucutoff),
                ("uvalue", uvalue),
                ("mycutoff", mycutoff),
                ("myvalue", myvalue),
            ]);
            for (value, cutoff, vn, cn) in [
                (uvalue, ucutoff, "uvalue", "ucutoff"),
                (myvalue, mycutoff, "myvalue", "mycutoff"),
            ] {
                if value.value != 0
                    && cutoff.value != 0
                    && value.value.signum() != cutoff.value.signum()
                {
                    diags.push(
                        Diagnostic::warning(
                            value.span,
                            format!("{vn} {} has the opposite sign to {cn} {}", value.value, cutoff.value),
                        )
                        .note(format!("only the cutoff's size counts, `{vn}·min(power, |{cn}|)`: a negative cutoff reads as positive and a negative value works against the weight, so one of the two signs is likely a slip")),
                    );
                }
            }
        }
        AssistanceAst::Moyo { cutoff, value, .. } => {
            nums.extend([("the moyo cutoff", cutoff), ("the moyo value", value)])
        }
    }
    for (name, n) in nums {
        if n.value.abs() > NUM_LIMIT {
            diags.push(
                Diagnostic::error(n.span, format!("{name} {} is out of range", n.value)).note(
                    format!("numbers must lie between {} and {NUM_LIMIT}", -NUM_LIMIT),
                ),
            );
        }
    }
    if dialect == Dialect::Seed && a.bonus.value % 2 != 0 {
        diags.push(
            Diagnostic::warning(a.bonus.span, format!("the bonus {} is odd", a.bonus.value))
                .note("the bonus is awarded two points at a time, so it should be even"),
        );
    }
}

pub(super) fn check_class(t: &ast::Text, dialect: Dialect, diags: &mut Vec<Diagnostic>) -> u16 {
    let mut bits = 0;
    for (off, c) in t.text.char_indices() {
        if c == '-' {
            continue;
        }
        let allowed = dialect.class_letters();
        match class::from_char(c) {
            Some(b) if allowed.contains(c) => bits |= b,
            _ => {
                let at = t.span.start + off;
                diags.push(
                    Diagnostic::warning(
                        Span::new(at, at + c.len_utf8()),
                        format!("unknown classification letter `{c}` is ignored"),
                    )
                    .note(format!(
                        "the classification is made of {}; `-` is a placeholder",
                        allowed
                            .chars()
                            .map(|c| format!("`{c}`"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    )),
                );
            }
        }
    }
    bits
}

pub(super) fn check_helper(h: &ast::Text, opts: &CheckOptions<'_>, diags: &mut Vec<Diagnostic>) {
    let Some(set) = opts.helpers else {
        return;
    };
    let mk = |msg: String| {
        if opts.lenient {
            Diagnostic::warning(h.span, msg)
        } else {
            Diagnostic::error(h.span, msg)
        }
    };
    match set.functions.get(&h.text) {
        Some(Ok(())) => {}
        Some(Err(found)) => diags.push(
            mk(format!(
                "helper `{}` does not have the helper signature",
                h.text
            ))
            .note(format!("found `{found}`"))
            .note(format!("a helper is `{SIGNATURE}`")),
        ),
        None => {
            let mut d = mk(format!("unknown helper `{}`", h.text));
            if let Some(close) = set.closest(&h.text) {
                d = d.note(format!("did you mean `{close}`?"));
            }
            diags.push(d.note(format!("a helper is `{SIGNATURE}` in the helpers module")));
        }
    }
}
