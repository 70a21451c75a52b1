//! The checker's rules of GNU Go 3.x's dialect: directive lines, the
//! classification letters, the value functions of the database's
//! attribute map, and the labels the attribute line names.

use crate::ast::{self, Directive, Go38Attributes};
use crate::diag::{Diagnostic, Span};

use super::gnugo38::{class_bit, is_label, AttributeMap, Go38Values, ValueField, CLASS_LETTERS};

/// What the directive lines say for the whole database: its attribute
/// map (`none` when there is no `attribute_map` line).
#[derive(Clone, Copy, Debug, Default)]
pub struct DatabaseSettings {
    pub attribute_map: AttributeMap,
}

/// Checks the directive lines: known names and values, `attribute_map`
/// before the first pattern and at most once.
pub fn check_directives(directives: &[Directive], diags: &mut Vec<Diagnostic>) -> DatabaseSettings {
    let mut settings = DatabaseSettings::default();
    let mut map_line: Option<Span> = None;
    for d in directives {
        let value = d.value.text.as_str();
        match d.name.text.as_str() {
            "attribute_map" => {
                if let Some(first) = map_line {
                    diags.push(
                        Diagnostic::error(d.name.span, "a second `attribute_map` line")
                            .related(first, "the attribute map is chosen here"),
                    );
                    continue;
                }
                map_line = Some(d.name.span);
                if d.before > 0 {
                    diags.push(
                        Diagnostic::error(d.name.span, "`attribute_map` after the first pattern")
                            .note("the attribute map is chosen before the first pattern: it decides how attribute lines read"),
                    );
                }
                match AttributeMap::from_name(value) {
                    Some(m) => settings.attribute_map = m,
                    None => {
                        let names: Vec<&str> = AttributeMap::ALL.iter().map(|m| m.name()).collect();
                        let mut diag = Diagnostic::error(
                            d.value.span,
                            format!("unknown attribute map `{value}`"),
                        );
                        if let Some(c) = closest(value, &names) {
                            diag = diag.note(format!("did you mean `{c}`?"));
                        }
                        diags.push(diag.note(format!("expected one of {}", quoted(&names))));
                    }
                }
            }
            name => {
                // `goal_elements` and `callback_data`: `none` or cells.
                let allowed = ".XOxo,!";
                if value != "none" {
                    for (k, c) in value.char_indices() {
                        if !allowed.contains(c) {
                            let at = d.value.span.start + k;
                            diags.push(
                                Diagnostic::error(
                                    Span::new(at, at + c.len_utf8()),
                                    format!("`{c}` is not a diagram cell `{name}` can name"),
                                )
                                .note(format!(
                                    "`{name}` is `none` or made of the cells `. X O x o , !`"
                                )),
                            );
                        }
                    }
                }
            }
        }
    }
    settings
}

/// Checks a 3.x attribute line into its record. `labels` are the labels
/// of the pattern's constraint diagram (for `threatens_eye(a)` and the
/// like).
pub fn check_attributes(
    a: &Go38Attributes,
    settings: DatabaseSettings,
    labels: &[char],
    diags: &mut Vec<Diagnostic>,
) -> Go38Values {
    let mut v = Go38Values::default();
    for (off, c) in a.class.text.char_indices() {
        if c == '-' {
            continue;
        }
        match class_bit(c) {
            Some(b) => v.class |= b,
            None => {
                let at = a.class.span.start + off;
                diags.push(
                    Diagnostic::error(
                        Span::new(at, at + c.len_utf8()),
                        format!("unknown classification letter `{c}`"),
                    )
                    .note(format!(
                        "GNU Go 3.x's letters are `{CLASS_LETTERS}`; `-` is a placeholder"
                    )),
                );
            }
        }
    }
    let map = settings.attribute_map;
    for f in &a.values {
        let Some(field) = map.field(&f.name.text) else {
            let names: Vec<&str> = map.fields().iter().map(|(n, _)| *n).collect();
            let mut d = Diagnostic::error(
                f.name.span,
                format!(
                    "unknown value function `{}` for attribute map `{}`",
                    f.name.text,
                    map.name()
                ),
            );
            if let Some(c) = closest(&f.name.text, &names) {
                d = d.note(format!("did you mean `{c}`?"));
            }
            d = if names.is_empty() {
                d.note(
                    "a database with `attribute_map none` (or none at all) has no value functions",
                )
            } else {
                d.note(format!("this map has {}", quoted(&names)))
            };
            diags.push(d);
            continue;
        };
        if field.takes_label() {
            let ok = match f.arg.text.as_str() {
                "*" => true,
                t => {
                    let mut cs = t.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => labels.contains(&c),
                        _ => false,
                    }
                }
            };
            if !ok {
                diags.push(
                    Diagnostic::error(
                        f.arg.span,
                        format!(
                            "`{}` names `{}`, not a label of the constraint diagram",
                            f.name.text, f.arg.text
                        ),
                    )
                    .note(
                        "the argument is `*` or a letter the pattern's constraint diagram places",
                    ),
                );
                continue;
            }
            let l = f.arg.text.as_bytes()[0];
            match field {
                ValueField::ThreatensToCapture => v.threatens_to_capture = l,
                ValueField::ThreatensEye => v.threatens_eye = l,
                _ => v.reverse_sente = l,
            }
            continue;
        }
        let Some(n) = thousandths(&f.arg.text) else {
            diags.push(
                Diagnostic::error(
                    f.arg.span,
                    format!("expected a number for `{}`, found `{}`", f.name.text, f.arg.text),
                )
                .note("a value is a decimal number with at most three decimals, between -100000 and 100000"),
            );
            continue;
        };
        let slot = match field {
            ValueField::Value => &mut v.value,
            ValueField::MaxValue => &mut v.max_value,
            ValueField::MinTerri => &mut v.min_terri,
            ValueField::MaxTerri => &mut v.max_terri,
            ValueField::Shape => &mut v.shape,
            ValueField::Followup => &mut v.followup,
            _ => &mut v.reverse_followup,
        };
        *slot = n;
    }
    v
}

/// A decimal with at most three decimals, within ±100000, in thousandths.
pub fn thousandths(t: &str) -> Option<i32> {
    let (neg, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && frac.is_empty()
        || !all_digits(whole)
        || !all_digits(frac)
        || frac.len() > 3
        || whole.len() > 6
    {
        return None;
    }
    let w: i32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let f: i32 = match frac.len() {
        0 => 0,
        n => frac.parse::<i32>().ok()? * 10i32.pow(3 - n as u32),
    };
    if w > 100_000 {
        return None;
    }
    let v = w * 1000 + f;
    Some(if neg { -v } else { v })
}

/// The labels of a 3.x constraint diagram (GNU Go's: every letter but
/// `o x O Q X Y`), in reading order, each once.
pub fn labels_of(k: Option<&ast::Constraint>) -> Vec<char> {
    let mut out = Vec::new();
    let Some(k) = k else { return out };
    for row in &k.diagram.rows {
        for (c, _) in &row.cells {
            if is_label(*c) && !out.contains(c) {
                out.push(*c);
            }
        }
    }
    out
}

fn closest<'a>(name: &str, among: &[&'a str]) -> Option<&'a str> {
    among
        .iter()
        .map(|c| (strsim::damerau_levenshtein(name, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min()
        .map(|(_, c)| c)
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A 3.x constraint diagram against its pattern's, as GNU Go 3.8 checks
/// it: the same number of rows, each as wide as the pattern's (errors,
/// warnings when `lenient`); an unlabelled cell that differs from the
/// pattern's is a warning (the pattern diagram is the one matched).
pub fn check_constraint_diagram(
    pattern: &ast::Diagram,
    k: &ast::Constraint,
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let d = &k.diagram;
    if d.rows.is_empty() {
        return;
    }
    let bad = |span: Span, msg: String| {
        if lenient {
            Diagnostic::warning(span, msg)
        } else {
            Diagnostic::error(span, msg)
        }
    };
    let first = |g: &ast::Diagram| g.lines.first().copied().unwrap_or_default();
    if d.rows.len() != pattern.rows.len() {
        diags.push(
            bad(
                first(d),
                format!(
                    "the constraint diagram has {} rows, the pattern diagram {}",
                    d.rows.len(),
                    pattern.rows.len()
                ),
            )
            .related(first(pattern), "the pattern diagram"),
        );
        return;
    }
    let mut differ: Vec<(Span, char, char)> = Vec::new();
    for (cr, pr) in d.rows.iter().zip(&pattern.rows) {
        if cr.cells.len() != pr.cells.len() {
            diags.push(
                bad(
                    cr.span,
                    format!(
                        "this constraint row has {} cells, the pattern's row {}",
                        cr.cells.len(),
                        pr.cells.len()
                    ),
                )
                .related(pr.span, "the pattern's row"),
            );
            return;
        }
        for ((cc, cs), (pc, _)) in cr.cells.iter().zip(&pr.cells) {
            if !is_label(*cc) && cc != pc {
                differ.push((*cs, *cc, *pc));
            }
        }
    }
    if let Some((at, cc, pc)) = differ.first() {
        diags.push(
            Diagnostic::warning(*at, "the constraint diagram differs from the pattern diagram")
                .related(first(pattern), "the pattern diagram")
                .note(format!(
                    "`{cc}` here, `{pc}` in the pattern diagram ({} cell(s) differ); the pattern diagram is the one matched",
                    differ.len()
                )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousandths_read_decimals_exactly() {
        assert_eq!(thousandths("30"), Some(30000));
        assert_eq!(thousandths("0.5"), Some(500));
        assert_eq!(thousandths("2.98"), Some(2980));
        assert_eq!(thousandths("-0.75"), Some(-750));
        assert_eq!(thousandths(".025"), Some(25));
        assert_eq!(thousandths("1.2345"), None);
        assert_eq!(thousandths("a"), None);
        assert_eq!(thousandths(""), None);
        assert_eq!(thousandths("-"), None);
        assert_eq!(thousandths("1000000"), None);
    }

    #[test]
    fn labels_leave_out_the_stones() {
        for c in "oxOQXY".chars() {
            assert!(!is_label(c));
        }
        for c in "abAZtW".chars() {
            assert!(is_label(c));
        }
    }
}
