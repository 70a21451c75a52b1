//! SGF games named on the command line: files and folders walked in
//! order, and the count of those that failed, reported as they are met.

/// The SGF inputs read and those that could not be, each reported on
/// stderr as it is met, so that one bad file among many does not stop a
/// run.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    pub(crate) read: usize,
    failed: usize,
}

impl Failures {
    /// Reports `katachi: error: PATH: message` and counts it.
    pub(crate) fn report(&mut self, path: &std::path::Path, msg: &str) {
        eprintln!("katachi: error: {}: {msg}", path.display());
        self.failed += 1;
    }

    /// The run's verdict once every input was tried: an error with the
    /// count when any failed.
    pub(crate) fn verdict(&self) -> Result<(), String> {
        if self.failed == 0 {
            return Ok(());
        }
        Err(format!(
            "katachi: error: {} of {} SGF input(s) failed",
            self.failed,
            self.failed + self.read
        ))
    }
}

/// Is this a file name ending in `.sgf` (any case)?
pub(crate) fn is_sgf(p: &std::path::Path) -> bool {
    p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf"))
}

/// The SGF files named, folders expanded to the `*.sgf` files found in
/// them and their subfolders, depth first, each folder's entries in
/// sorted order. A folder reached twice (a symbolic link back up the
/// tree) is walked once; one that cannot be read is reported and skipped.
pub(crate) fn sgf_files(
    paths: &[std::path::PathBuf],
    failures: &mut Failures,
) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut seen, &mut out, failures);
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// Adds the `*.sgf` files under `dir` to `out` (see [`sgf_files`]);
/// `seen` holds the real paths of the folders walked.
pub(crate) fn walk(
    dir: &std::path::Path,
    seen: &mut std::collections::HashSet<std::path::PathBuf>,
    out: &mut Vec<std::path::PathBuf>,
    failures: &mut Failures,
) {
    let entries = dir.canonicalize().and_then(|real| {
        let first = seen.insert(real);
        Ok((first, std::fs::read_dir(dir)?))
    });
    let mut found: Vec<std::path::PathBuf> = match entries {
        Ok((false, _)) => return,
        Ok((true, entries)) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => return failures.report(dir, &format!("cannot read the folder: {e}")),
    };
    found.sort();
    for p in found {
        if p.is_dir() {
            walk(&p, seen, out, failures);
        } else if is_sgf(&p) {
            out.push(p);
        }
    }
}
