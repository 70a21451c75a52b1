//! The declared symmetry class against the diagram's own symmetry.

use super::*;

pub(super) fn check_symmetry(
    grid: &Grid,
    declared: SymmetryClass,
    span: Span,
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) -> TransformSet {
    let actual = grid.symmetry_group();
    let want = declared.group();
    if !want.is_subset_of(actual) {
        let fits = SymmetryClass::ALL
            .into_iter()
            .filter(|c| c.group().is_subset_of(actual))
            .max_by_key(|c| c.group().len())
            .unwrap_or(SymmetryClass::None);
        let msg = format!(
            "symmetry class `{}` does not hold for this diagram: it has {}",
            declared.as_char(),
            describe_group(actual)
        );
        let d = if lenient {
            Diagnostic::warning(span, msg).note(format!(
                "read leniently: expanded for the symmetry the diagram has (class `{}`)",
                fits.as_char()
            ))
        } else {
            Diagnostic::error(span, msg)
        };
        diags.push(d.note(format!("the class that holds is `{}`", fits.as_char())));
        return if lenient { actual } else { want };
    }
    if actual != want {
        let d = match SymmetryClass::for_group(actual) {
            Some(c) => Diagnostic::warning(
                span,
                format!(
                    "the diagram has more symmetry than class `{}`: class `{}` fits",
                    declared.as_char(),
                    c.as_char()
                ),
            )
            .note(format!(
                "with `{}`, {} transformations are tried instead of {}",
                c.as_char(),
                c.transformations().len(),
                declared.transformations().len()
            )),
            None => {
                let best = SymmetryClass::ALL
                    .into_iter()
                    .filter(|c| c.group().is_subset_of(actual))
                    .max_by_key(|c| c.group().len())
                    .unwrap_or(SymmetryClass::None);
                let mut d = Diagnostic::warning(
                    span,
                    format!(
                        "the diagram has {}, which no class describes: its matches will repeat",
                        describe_group(actual)
                    ),
                )
                .note(format!(
                    "each placement is found {} times",
                    actual.len() / want.len()
                ));
                if best != declared {
                    d = d.note(format!(
                        "class `{}` is the closest that holds",
                        best.as_char()
                    ));
                }
                d
            }
        };
        diags.push(d);
    }
    want
}
