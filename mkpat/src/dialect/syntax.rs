//! What each dialect looks like on the page: its header, its attribute
//! line, what may follow, and the words its diagnostics use. The parser and
//! the checker ask here instead of matching on the dialect themselves, so
//! that a new dialect is described in one place.

use super::Dialect;

impl Dialect {
    /// A header line, with an example, for "expected …" notes.
    pub const fn header_form(self) -> &'static str {
        match self {
            Dialect::Seed => "`# pattern N` (for example `# pattern 1`)",
            Dialect::GnuGo26 => "`Pattern NAME` (for example `Pattern EB101`)",
            Dialect::Five => "`Pattern NAME` (for example `Pattern open-four`)",
            Dialect::GnuGo38 => "`Pattern NAME` (for example `Pattern CC1`)",
        }
    }

    /// What may stand between patterns.
    pub const fn between_patterns(self) -> &'static str {
        match self {
            Dialect::Seed => "a `# pattern N` header, a `#` comment or a blank line",
            Dialect::GnuGo26 => "a `Pattern NAME` header, a `#` comment or a blank line",
            Dialect::Five => "a `Pattern NAME` header, a `#` comment or a blank line",
            Dialect::GnuGo38 => "a `Pattern NAME` header, an `attribute_map`, `goal_elements` or `callback_data` line, a `#` comment or a blank line",
        }
    }

    /// The attribute line's form, field by field.
    pub const fn attribute_form(self) -> &'static str {
        match self {
            Dialect::Seed => {
                ":trfno,patwt,ucutoff,uvalue,mycutoff,myvalue,classification,bonus,helper"
            }
            Dialect::GnuGo26 => {
                ":sym,weight,assistance,class,obonus,xbonus,splitbonus,minrand,maxrand,helper"
            }
            Dialect::Five => ":symmetry,kind,mine,theirs",
            Dialect::GnuGo38 => ":symmetry,classes[,value(N)…][,helper]",
        }
    }

    /// What may follow a pattern's attribute line.
    pub const fn after_attributes(self) -> &'static str {
        match self {
            Dialect::Seed => {
                "the next thing expected is a `# pattern N` header; a comment line starts with `#`"
            }
            Dialect::GnuGo26 => {
                "expected a constraint diagram, `;` lines, or the next `Pattern NAME` header"
            }
            Dialect::Five => {
                "the next thing expected is a `Pattern NAME` header; a comment line starts with `#`"
            }
            Dialect::GnuGo38 => {
                "expected a constraint diagram, `;` or `>` lines, or the next `Pattern NAME` header"
            }
        }
    }

    /// What a header's identifier is called.
    pub const fn name_word(self) -> &'static str {
        match self {
            Dialect::Seed => "pattern number",
            Dialect::GnuGo26 | Dialect::Five | Dialect::GnuGo38 => "pattern name",
        }
    }

    /// The classification letters the dialect knows (none for five).
    pub const fn class_letters(self) -> &'static str {
        match self {
            Dialect::Seed => "snOoXxDCB",
            Dialect::GnuGo26 => "snOoXxDCBAL",
            Dialect::Five => "",
            Dialect::GnuGo38 => super::gnugo38::CLASS_LETTERS,
        }
    }

    /// May patterns carry constraint diagrams and `;` lines?
    pub const fn has_constraints(self) -> bool {
        matches!(self, Dialect::GnuGo26 | Dialect::GnuGo38)
    }

    /// May patterns carry `>` action lines (after the constraint)?
    pub const fn has_actions(self) -> bool {
        matches!(self, Dialect::GnuGo38)
    }

    /// Headers are `Pattern NAME` (not `# pattern N`).
    pub const fn named_headers(self) -> bool {
        !matches!(self, Dialect::Seed)
    }

    /// Is this line a comment? (`#` in every dialect.)
    pub fn is_comment(self, line: &str) -> bool {
        line.starts_with('#')
    }

    /// The diagram characters that are cells.
    pub const fn cell_chars(self) -> &'static str {
        match self {
            Dialect::Five => ".*OXox?=",
            Dialect::GnuGo38 => ".*OXox?,!QY",
            _ => ".*OXox?",
        }
    }
}
