//! The helper functions a database may name, read from the engine's source.
//!
//! The build names one Rust module as the home of helpers; this module reads
//! its source with `syn` and lists every `pub fn` there. A helper must have
//! the one signature katachi defines:
//!
//! ```text
//! pub fn name(ctx: &HelperContext<'_>) -> i32
//! ```
//!
//! (any path ending in `HelperContext`, any lifetime). The checker uses the
//! list to reject databases that name a missing helper, and the code
//! generator uses it to emit the registry that maps names to functions.

use std::collections::BTreeMap;

/// What the checker knows about the helpers module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HelperSet {
    /// Every `pub fn` of the module: `Ok(())` when it has the helper
    /// signature, `Err(found)` with the signature found otherwise.
    pub functions: BTreeMap<String, Result<(), String>>,
}

/// How deeply brackets (`()`, `[]`, `{}`) may nest in a helpers module:
/// syn's parser recurses at each level, and this bound keeps it within a
/// 2 MiB stack in a debug build. Real helpers nest a handful of levels.
pub const MAX_NESTING: usize = 64;

/// Refuses token trees nested deeper than [`MAX_NESTING`], located at the
/// first bracket too deep. Walks with an explicit stack.
fn check_nesting(tokens: &proc_macro2::TokenStream) -> Result<(), String> {
    let mut stack = vec![(tokens.clone().into_iter(), 0usize)];
    while let Some((iter, depth)) = stack.last_mut() {
        let depth = *depth;
        match iter.next() {
            None => {
                stack.pop();
            }
            Some(proc_macro2::TokenTree::Group(g)) => {
                if depth + 1 > MAX_NESTING {
                    let at = g.span_open().start();
                    return Err(format!(
                        "{}:{}: brackets nested too deeply (more than {MAX_NESTING} levels)",
                        at.line,
                        at.column + 1
                    ));
                }
                stack.push((g.stream().into_iter(), depth + 1));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The signature every helper has, as shown to users.
pub const SIGNATURE: &str = "pub fn NAME(ctx: &HelperContext<'_>) -> i32";

impl HelperSet {
    /// Reads a helpers module's source. Fails with syn's message when the
    /// source is not valid Rust.
    pub fn from_source(source: &str) -> Result<HelperSet, String> {
        let located = |e: syn::Error| {
            let at = e.span().start();
            format!("{}:{}: {e}", at.line, at.column + 1)
        };
        // Lexing into token trees is iterative in proc-macro2 (its parser
        // and its drop keep their own stack), but syn's parser recurses at
        // every bracket: refuse deep nesting before syn sees it.
        let tokens: proc_macro2::TokenStream =
            source.parse().map_err(|e: proc_macro2::LexError| {
                let at = e.span().start();
                format!("{}:{}: {e}", at.line, at.column + 1)
            })?;
        check_nesting(&tokens)?;
        let file: syn::File = syn::parse2(tokens).map_err(located)?;
        let mut functions = BTreeMap::new();
        for item in &file.items {
            if let syn::Item::Fn(f) = item {
                if !matches!(f.vis, syn::Visibility::Public(_)) {
                    continue;
                }
                functions.insert(f.sig.ident.to_string(), check_signature(&f.sig));
            }
        }
        Ok(HelperSet { functions })
    }

    /// The helpers with the right signature, sorted by name.
    pub fn valid(&self) -> impl Iterator<Item = &str> {
        self.functions
            .iter()
            .filter(|(_, r)| r.is_ok())
            .map(|(n, _)| n.as_str())
    }

    /// The closest valid helper name, for "did you mean".
    pub fn closest(&self, name: &str) -> Option<&str> {
        self.valid()
            .map(|n| (strsim::damerau_levenshtein(name, n), n))
            .filter(|(d, n)| *d <= 3.max(n.len() / 4))
            .min()
            .map(|(_, n)| n)
    }
}

fn check_signature(sig: &syn::Signature) -> Result<(), String> {
    let shown = {
        let inputs: Vec<String> = sig
            .inputs
            .iter()
            .map(|a| quote::ToTokens::to_token_stream(a).to_string())
            .collect();
        let output = match &sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, t) => {
                format!(" -> {}", quote::ToTokens::to_token_stream(t))
            }
        };
        format!("fn {}({}){}", sig.ident, inputs.join(", "), output)
    };
    let arg_ok = sig.inputs.len() == 1
        && match &sig.inputs[0] {
            syn::FnArg::Typed(pt) => match &*pt.ty {
                syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
                    syn::Type::Path(p) => p
                        .path
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "HelperContext"),
                    _ => false,
                },
                _ => false,
            },
            syn::FnArg::Receiver(_) => false,
        };
    let ret_ok = match &sig.output {
        syn::ReturnType::Type(_, t) => matches!(&**t, syn::Type::Path(p) if p.path.is_ident("i32")),
        syn::ReturnType::Default => false,
    };
    let plain = sig.asyncness.is_none() && sig.generics.params.is_empty() && sig.unsafety.is_none();
    if arg_ok && ret_ok && plain {
        Ok(())
    } else {
        Err(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(open: &str, close: &str, n: usize) -> String {
        format!(
            "pub fn deep(ctx: &HelperContext<'_>) -> i32 {{\n    let _ = {}0{};\n    1\n}}\n",
            open.repeat(n),
            close.repeat(n)
        )
    }

    #[test]
    fn deep_nesting_is_refused_before_syn_overflows_its_stack() {
        // Run on a 2 MiB stack, the default of spawned threads.
        let run = |src: String| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || HelperSet::from_source(&src))
                .unwrap()
                .join()
                .expect("no stack overflow")
        };
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
            let err = run(body(open, close, 10_000)).unwrap_err();
            assert_eq!(
                err,
                format!(
                    "2:{}: brackets nested too deeply (more than 64 levels)",
                    13 + 63
                )
            );
            // The deepest accepted nesting parses (one level is the body).
            let set = run(body(open, close, MAX_NESTING - 1)).unwrap();
            assert_eq!(set.valid().collect::<Vec<_>>(), ["deep"]);
        }
        // Brackets inside strings and comments do not count.
        let src = format!(
            "// {}\npub fn s() -> &'static str {{ \"{}\" }}\n",
            "(".repeat(10_000),
            "[".repeat(10_000)
        );
        assert!(run(src).is_ok());
    }

    #[test]
    fn lists_public_helpers_and_checks_signatures() {
        let src = r#"
            use crate::position::HelperContext;
            pub fn good(ctx: &HelperContext<'_>) -> i32 { 0 }
            pub fn also_good(c: &crate::position::HelperContext) -> i32 { 1 }
            pub fn bad(x: u32) -> i32 { 0 }
            fn private(ctx: &HelperContext<'_>) -> i32 { 0 }
        "#;
        let h = HelperSet::from_source(src).unwrap();
        assert_eq!(h.valid().collect::<Vec<_>>(), vec!["also_good", "good"]);
        assert_eq!(
            h.functions["bad"],
            Err("fn bad(x : u32) -> i32".to_string())
        );
        assert!(!h.functions.contains_key("private"));
        assert_eq!(h.closest("god"), Some("good"));
        assert_eq!(h.closest("completely_else"), None);
    }

    #[test]
    fn bad_rust_is_an_error() {
        assert!(HelperSet::from_source("pub fn (").is_err());
    }
}
