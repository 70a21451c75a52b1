//! The declared symmetry class against the diagram's own symmetry.

use super::*;

pub(super) fn check_symmetry(
    grid: &Grid,
    declared: &ClassDef,
    span: Span,
    lenient: bool,
    diags: &mut Vec<Diagnostic>,
) -> Symmetries {
    let g = grid.geometry;
    let actual = grid.symmetry_group();
    let want = declared.group;
    if !want.is_subset_of(actual) {
        let fits = g.largest_class_within(actual);
        let msg = format!(
            "symmetry class `{}` does not hold for this diagram: it has {}",
            declared.letter,
            g.describe_group(actual)
        );
        let d = if lenient {
            Diagnostic::warning(span, msg).note(format!(
                "read leniently: expanded for the symmetry the diagram has (class `{}`)",
                fits.letter
            ))
        } else {
            Diagnostic::error(span, msg)
        };
        diags.push(d.note(format!("the class that holds is `{}`", fits.letter)));
        return if lenient { actual } else { want };
    }
    if actual != want {
        let d = match g.class_of_group(actual) {
            Some(c) => Diagnostic::warning(
                span,
                format!(
                    "the diagram has more symmetry than class `{}`: class `{}` fits",
                    declared.letter, c.letter
                ),
            )
            .note(format!(
                "with `{}`, {} transformations are tried instead of {}",
                c.letter,
                c.group.coset_representatives(g).len(),
                want.coset_representatives(g).len()
            )),
            None => {
                let best = g.largest_class_within(actual);
                let mut d = Diagnostic::warning(
                    span,
                    format!(
                        "the diagram has {}, which no class describes: its matches will repeat",
                        g.describe_group(actual)
                    ),
                )
                .note(format!(
                    "each placement is found {} times",
                    actual.len() / want.len()
                ));
                if best.letter != declared.letter {
                    d = d.note(format!("class `{}` is the closest that holds", best.letter));
                }
                d
            }
        };
        diags.push(d);
    }
    want
}
