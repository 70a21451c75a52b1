//! Reading input files within a bound.
//!
//! Every file either binary reads whole — pattern databases (`mkpat`'s
//! commands, `katachi --db`), SGF games, positions files, hit counts —
//! goes through [`read_file`], so that a
//! huge file (or a device such as `/dev/zero`) is refused with a message
//! instead of exhausting memory. The limit is one constant,
//! [`MAX_INPUT_BYTES`] (64 MiB), far above any real game, corpus or
//! database.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// The largest input file mkpat or katachi reads: 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The limit in words, for messages.
fn limit() -> String {
    format!("the {MAX_INPUT_BYTES}-byte (64 MiB) limit")
}

/// Reads the file at `path` whole, refusing one larger than
/// [`MAX_INPUT_BYTES`]: first by its length on disk, then by capping the
/// read itself (a file that grows, or a device, cannot slip through).
/// The error does not name the path: callers prefix it (`PATH: ...`).
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read the file: {e}"))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > MAX_INPUT_BYTES {
        return Err(format!("the file is {len} bytes, more than {}", limit()));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "the file is more than {MAX_INPUT_BYTES} bytes long, more than {}",
            limit()
        ));
    }
    Ok(bytes)
}

/// Reads one line (without its `\n`) into `line`, keeping at most `max`
/// bytes of it and consuming the rest up to the line break unkept, so that
/// a peer that never ends a line cannot make the reader allocate without
/// end. `None` at the end of the input; `Some(true)` when the line was cut.
/// A `\r` before the `\n` is left for the caller. The line framing of
/// every protocol front end (GTP, Gomocup).
pub fn read_bounded_line(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let (content, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (&buf[..k], true),
            None => (buf, false),
        };
        if !too_long {
            let room = max - line.len();
            if content.len() > room {
                line.extend_from_slice(&content[..room]);
                too_long = true;
            } else {
                line.extend_from_slice(content);
            }
        }
        let used = content.len() + usize::from(ends);
        input.consume(used);
        if ends {
            return Ok(Some(too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_limit_are_refused_by_their_length() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.sgf");
        let f = std::fs::File::create(&path).unwrap();
        // A sparse file: its length is over the limit without the bytes
        // being written.
        f.set_len(MAX_INPUT_BYTES + 1).unwrap();
        let err = read_file(&path).unwrap_err();
        assert!(
            err.contains(&format!("is {} bytes", MAX_INPUT_BYTES + 1)),
            "{err}"
        );
        assert!(err.contains("67108864-byte (64 MiB) limit"), "{err}");
        std::fs::write(&path, b"(;SZ[9])").unwrap();
        assert_eq!(read_file(&path).unwrap(), b"(;SZ[9])");
    }

    #[cfg(unix)]
    #[test]
    fn endless_devices_are_cut_at_the_limit() {
        // `/dev/zero` has length 0 on disk and never ends: the capped read
        // stops after the limit.
        let err = read_file(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("more than 67108864 bytes long"), "{err}");
    }
}
