//! Writing an output file without clobbering what is at its path.
//!
//! This module is the one place where the mkpat library touches the file
//! system; the rest of the crate stays pure. Both binaries write every file
//! they are told to write through it: `mkpat compile -o`, `json -o`,
//! `html -o` and `renum`; `katachi gtp -o`, `match --stats-out` and
//! `hits --tsv`.
//!
//! What [`write()`] does depends on what is at the path:
//!
//! - nothing: a new file is created with the default mode (`0666` less the
//!   umask), written to a temporary file beside it and renamed into place;
//! - a regular file: it is replaced atomically (temporary file in the same
//!   folder, write, fsync, rename, fsync of the folder), so that a reader or
//!   a crash sees the old file or the new one, never half of one. The new
//!   file keeps the old one's mode and owner. A file whose owner may not
//!   write it (no `u+w` bit) is refused: "is read-only; not overwritten".
//!   When the file belongs to another user, the replacement is given back
//!   to that user (which only root may do); when that fails the file is
//!   refused rather than handed to us. When only its group cannot be kept,
//!   the replacement is written with our group and without group
//!   permissions, so that nobody gains access. A file with several hard
//!   links is replaced under this name only; the other names keep the old
//!   text;
//! - a symbolic link: the chain is followed to its end (relative links are
//!   resolved against the link's folder, at most [`MAX_LINKS`] links); the
//!   final target is written as above and the links are kept. A dangling
//!   link creates its target;
//! - a character or block device, a FIFO or a socket: it is written
//!   through (opened for writing, neither created nor truncated nor
//!   replaced), so `-o /dev/null` works. Opening a FIFO blocks until a
//!   reader opens the other end: that is what a user who names a FIFO asks
//!   for. A socket cannot be opened and is an error;
//! - a link into Linux's `/proc/PID/fd/` (`/dev/stdout`, `/dev/fd/3`): an
//!   open file, not a path; it is written through, appending, whatever it
//!   is (a pipe, a terminal, or a file the shell opened with `>` or `>>`);
//! - a folder: an error.
//!
//! [`replace_with_backup`] is `mkpat renum`'s writer: it keeps the old text
//! as `FILE.bak`, or the first free `FILE.bak.1`, `FILE.bak.2`, … (never
//! overwriting an existing file, link or folder), created exclusively
//! beside the link's final target, with the original's mode, and synced to
//! disk before the file itself is replaced.
//!
//! The checks and the final rename are separate system calls: a path that
//! another process changes in between may be judged on its old state, but
//! the rename itself is atomic and a temporary file never outlives a
//! failure. Extended attributes and ACLs of a replaced file are not copied.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many symbolic links a path may go through before it is an error
/// (Linux's own limit).
pub const MAX_LINKS: usize = 40;

/// The highest numbered backup `FILE.bak.N` [`replace_with_backup`] tries.
pub const MAX_BACKUPS: u32 = 9999;

/// A file that could not be written: which one, and why.
#[derive(Debug)]
pub struct Error {
    /// The path the caller named.
    pub path: PathBuf,
    /// Where its symbolic links lead, when that differs from `path`.
    pub target: Option<PathBuf>,
    pub kind: ErrorKind,
}

/// Why a file was not written.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A regular file its owner may not write; left as it is.
    ReadOnly,
    /// A folder is at the path.
    Directory,
    /// `renum` needs a regular file to back up and replace.
    NotRegular,
    /// More than [`MAX_LINKS`] symbolic links, or a loop.
    TooManyLinks,
    /// The file belongs to another user and the replacement could not be
    /// given back to them.
    Owner { owner: u32, us: u32 },
    /// `FILE.bak` and every `FILE.bak.N` up to [`MAX_BACKUPS`] exist.
    TooManyBackups,
    /// A system call failed.
    Io { step: Step, source: io::Error },
}

/// The step of a write that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    ReadLink,
    Inspect,
    Open,
    CreateTemp,
    CreateBackup,
    Write,
    Sync,
    Permissions,
    Rename,
    SyncFolder,
}

impl Step {
    fn describe(self) -> &'static str {
        match self {
            Step::ReadLink => "reading a symbolic link",
            Step::Inspect => "looking at the path",
            Step::Open => "opening it for writing",
            Step::CreateTemp => "creating a temporary file beside it",
            Step::CreateBackup => "creating the backup",
            Step::Write => "writing",
            Step::Sync => "syncing to disk",
            Step::Permissions => "setting mode and owner",
            Step::Rename => "renaming the temporary file over it",
            Step::SyncFolder => "syncing its folder to disk",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let link = match &self.target {
            Some(t) => format!(" (a link to {})", t.display()),
            None => String::new(),
        };
        match &self.kind {
            ErrorKind::ReadOnly => write!(f, "{path}{link}: is read-only; not overwritten"),
            ErrorKind::Directory => write!(f, "{path}{link}: is a folder; not overwritten"),
            ErrorKind::NotRegular => write!(f, "{path}{link}: is not a regular file; not replaced"),
            ErrorKind::TooManyLinks => write!(
                f,
                "{path}: more than {MAX_LINKS} symbolic links (a loop?); not written"
            ),
            ErrorKind::Owner { owner, us } => write!(
                f,
                "{path}{link}: belongs to uid {owner} and its replacement, written by uid {us}, cannot be given back; not overwritten"
            ),
            ErrorKind::TooManyBackups => write!(
                f,
                "{path}{link}: .bak and .bak.1 to .bak.{MAX_BACKUPS} all exist; not overwritten"
            ),
            ErrorKind::Io { step, source } => write!(
                f,
                "cannot write {path}{link}: {}: {source}",
                step.describe()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Where a path leads: the path named, and the end of its link chain.
struct Dest<'a> {
    path: &'a Path,
    target: PathBuf,
    /// The chain ends in one of Linux's `/proc/PID/fd/N` links (as
    /// `/dev/stdout` does): not a path but an open file, which only the
    /// kernel can follow.
    open_file: bool,
}

impl Dest<'_> {
    /// Follows `path`'s symbolic links to the first path that is not one
    /// (which may not exist: a dangling link).
    fn resolve(path: &Path) -> Result<Dest<'_>, Error> {
        let mut dest = Dest {
            path,
            target: path.to_path_buf(),
            open_file: false,
        };
        for _ in 0..=MAX_LINKS {
            match fs::symlink_metadata(&dest.target) {
                Ok(m) if m.file_type().is_symlink() && dest.target.starts_with("/proc") => {
                    dest.open_file = true;
                    return Ok(dest);
                }
                Ok(m) if m.file_type().is_symlink() => {
                    let to = fs::read_link(&dest.target).map_err(|e| dest.io(Step::ReadLink, e))?;
                    // A relative link is relative to the folder holding it.
                    // The join is not normalised: the kernel resolves `..`
                    // the way it would through the link.
                    dest.target = match dest.target.parent() {
                        Some(dir) if to.is_relative() => dir.join(to),
                        _ => to,
                    };
                }
                Ok(_) => return Ok(dest),
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(dest),
                Err(e) => return Err(dest.io(Step::Inspect, e)),
            }
        }
        Err(dest.error(ErrorKind::TooManyLinks))
    }

    fn error(&self, kind: ErrorKind) -> Error {
        Error {
            path: self.path.to_path_buf(),
            target: (self.target != self.path).then(|| self.target.clone()),
            kind,
        }
    }

    fn io(&self, step: Step, source: io::Error) -> Error {
        self.error(ErrorKind::Io { step, source })
    }

    /// The folder holding the target (`.` for a bare name).
    fn folder(&self) -> &Path {
        match self.target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        }
    }

    fn file_name(&self) -> Result<String, Error> {
        self.target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                self.io(
                    Step::Inspect,
                    io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"),
                )
            })
    }
}

/// Writes `bytes` to `path` without clobbering what is there: see the
/// module documentation for what happens to each kind of file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dest = Dest::resolve(path)?;
    if dest.open_file {
        return write_to_open_file(&dest, bytes);
    }
    match fs::metadata(&dest.target) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            replace(&dest, None, bytes, None).map(drop)
        }
        Err(e) => Err(dest.io(Step::Inspect, e)),
        Ok(m) if m.is_dir() => Err(dest.error(ErrorKind::Directory)),
        Ok(m) if m.is_file() => {
            refuse_read_only(&dest, &m)?;
            replace(&dest, Some(&m), bytes, None).map(drop)
        }
        Ok(_) => write_through(&dest, bytes),
    }
}

/// Replaces the regular file at `path` (or at the end of its links) with
/// `bytes`, after keeping `original` (the text the caller read from it) in
/// a new backup file beside it: `FILE.bak`, or the first free
/// `FILE.bak.N`. The backup is on disk before the file is replaced.
/// Returns the backup's path.
pub fn replace_with_backup(path: &Path, original: &[u8], bytes: &[u8]) -> Result<PathBuf, Error> {
    let dest = Dest::resolve(path)?;
    let meta = match fs::metadata(&dest.target) {
        Err(e) => return Err(dest.io(Step::Inspect, e)),
        Ok(m) if m.is_dir() => return Err(dest.error(ErrorKind::Directory)),
        Ok(m) if !m.is_file() || dest.open_file => return Err(dest.error(ErrorKind::NotRegular)),
        Ok(m) => m,
    };
    refuse_read_only(&dest, &meta)?;
    let backup = replace(&dest, Some(&meta), bytes, Some(original))?;
    Ok(backup.unwrap_or_default())
}

/// A regular file whose owner may not write it is left alone.
fn refuse_read_only(dest: &Dest<'_>, meta: &fs::Metadata) -> Result<(), Error> {
    #[cfg(unix)]
    let read_only = {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o200 == 0
    };
    #[cfg(not(unix))]
    let read_only = meta.permissions().readonly();
    if read_only {
        Err(dest.error(ErrorKind::ReadOnly))
    } else {
        Ok(())
    }
}

/// A device, FIFO or socket: opened for writing, never created, truncated
/// or replaced.
fn write_through(dest: &Dest<'_>, bytes: &[u8]) -> Result<(), Error> {
    let mut f = OpenOptions::new()
        .write(true)
        .open(&dest.target)
        .map_err(|e| dest.io(Step::Open, e))?;
    // Had a regular file taken the special file's place meanwhile, writing
    // without truncating would leave its old tail behind.
    if f.metadata()
        .map_err(|e| dest.io(Step::Inspect, e))?
        .is_file()
    {
        return Err(dest.io(
            Step::Open,
            io::Error::other("the special file was replaced by a regular file meanwhile"),
        ));
    }
    f.write_all(bytes)
        .and_then(|()| f.flush())
        .map_err(|e| dest.io(Step::Write, e))
}

/// `/dev/stdout` and other `/proc/PID/fd/N` links: written through the
/// kernel's link, appending, so that `-o /dev/stdout >> log` neither
/// truncates nor overwrites the log.
fn write_to_open_file(dest: &Dest<'_>, bytes: &[u8]) -> Result<(), Error> {
    if fs::metadata(&dest.target).is_ok_and(|m| m.is_dir()) {
        return Err(dest.error(ErrorKind::Directory));
    }
    let mut f = OpenOptions::new()
        .append(true)
        .open(&dest.target)
        .map_err(|e| dest.io(Step::Open, e))?;
    f.write_all(bytes)
        .and_then(|()| f.flush())
        .map_err(|e| dest.io(Step::Write, e))
}

/// A file this process created that is removed unless `keep` is called.
struct Created {
    path: PathBuf,
    keep: bool,
}

impl Created {
    fn keep(mut self) -> PathBuf {
        self.keep = true;
        std::mem::take(&mut self.path)
    }
}

impl Drop for Created {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Creates `path` exclusively (never through a symbolic link): mode 0600
/// when it will get an existing file's mode, so that private text is never
/// readable by others even for a moment, else the default `0666 & !umask`.
fn create_new(path: &Path, private: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    options.open(path)
}

/// Writes `bytes` to a new temporary file beside the target and renames
/// it over the target. With `like`, the new file gets that file's mode and
/// owner. With `original` (and `like`), that text is first written to a
/// new backup file, whose path is returned.
fn replace(
    dest: &Dest<'_>,
    like: Option<&fs::Metadata>,
    bytes: &[u8],
    original: Option<&[u8]>,
) -> Result<Option<PathBuf>, Error> {
    let folder = dest.folder();
    let name = dest.file_name()?;
    let (mut file, temp) = (0..1000)
        .find_map(|n| {
            let path = folder.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
            match create_new(&path, like.is_some()) {
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => None,
                r => Some(r.map(|f| (f, Created { path, keep: false }))),
            }
        })
        .unwrap_or_else(|| Err(io::Error::from(io::ErrorKind::AlreadyExists)))
        .map_err(|e| dest.io(Step::CreateTemp, e))?;
    if let Some(like) = like {
        adopt(dest, &file, like, true)?;
    }
    file.write_all(bytes).map_err(|e| dest.io(Step::Write, e))?;
    file.sync_all().map_err(|e| dest.io(Step::Sync, e))?;
    drop(file);
    let backup = match (original, like) {
        (Some(original), Some(like)) => Some(write_backup(dest, &name, like, original)?),
        _ => None,
    };
    fs::rename(&temp.path, &dest.target).map_err(|e| dest.io(Step::Rename, e))?;
    temp.keep();
    sync_folder(folder).map_err(|e| dest.io(Step::SyncFolder, e))?;
    Ok(backup)
}

/// Writes `original` to the first free `NAME.bak`, `NAME.bak.1`, … beside
/// the target, with the target's mode, synced with its folder.
fn write_backup(
    dest: &Dest<'_>,
    name: &str,
    like: &fs::Metadata,
    original: &[u8],
) -> Result<PathBuf, Error> {
    let folder = dest.folder();
    let mut found = None;
    for n in 0..=MAX_BACKUPS {
        let path = match n {
            0 => folder.join(format!("{name}.bak")),
            n => folder.join(format!("{name}.bak.{n}")),
        };
        match create_new(&path, true) {
            Ok(f) => {
                found = Some((f, Created { path, keep: false }));
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(dest.io(Step::CreateBackup, e)),
        }
    }
    let (mut file, created) = found.ok_or_else(|| dest.error(ErrorKind::TooManyBackups))?;
    adopt(dest, &file, like, false)?;
    file.write_all(original)
        .map_err(|e| dest.io(Step::Write, e))?;
    file.sync_all().map_err(|e| dest.io(Step::Sync, e))?;
    sync_folder(folder).map_err(|e| dest.io(Step::SyncFolder, e))?;
    Ok(created.keep())
}

/// Gives `file` the mode and owner of `like`. `strict`: a file of another
/// user that cannot be given back to them is an error (the replacement of
/// their file); otherwise (a backup) it stays ours. A group that cannot be
/// kept takes the group permission bits with it.
#[cfg(unix)]
fn adopt(dest: &Dest<'_>, file: &File, like: &fs::Metadata, strict: bool) -> Result<(), Error> {
    use std::os::unix::fs::{fchown, MetadataExt, PermissionsExt};
    let ours = file.metadata().map_err(|e| dest.io(Step::Permissions, e))?;
    // The special bits only for the replacement, and only after the chown
    // (which clears them).
    let mut mode = like.mode() & if strict { 0o7777 } else { 0o777 };
    if ours.uid() != like.uid() {
        if fchown(file, Some(like.uid()), Some(like.gid())).is_err() {
            if strict {
                return Err(dest.error(ErrorKind::Owner {
                    owner: like.uid(),
                    us: ours.uid(),
                }));
            }
            if ours.gid() != like.gid() {
                mode &= !0o070;
            }
        }
    } else if ours.gid() != like.gid() && fchown(file, None, Some(like.gid())).is_err() {
        mode &= !0o070;
    }
    file.set_permissions(fs::Permissions::from_mode(mode))
        .map_err(|e| dest.io(Step::Permissions, e))
}

#[cfg(not(unix))]
fn adopt(dest: &Dest<'_>, file: &File, like: &fs::Metadata, _strict: bool) -> Result<(), Error> {
    file.set_permissions(like.permissions())
        .map_err(|e| dest.io(Step::Permissions, e))
}

/// Makes a rename or a creation in `folder` durable. File systems that
/// cannot sync a folder say so with `InvalidInput`; that is not an error.
fn sync_folder(folder: &Path) -> io::Result<()> {
    if !cfg!(unix) {
        // Other systems cannot open a folder as a file.
        return Ok(());
    }
    match File::open(folder).and_then(|d| d.sync_all()) {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
            ) =>
        {
            Ok(())
        }
        r => r,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, PermissionsExt};

    fn mode(p: &Path) -> u32 {
        fs::metadata(p).unwrap().mode() & 0o7777
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn umask() -> u32 {
        // The mode a plain new file gets is the umask's complement.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("probe");
        File::create(&p).unwrap();
        0o666 & !mode(&p)
    }

    #[test]
    fn a_new_file_gets_the_default_mode_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("new.txt");
        write(&p, b"hello").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"hello");
        assert_eq!(mode(&p), 0o666 & !umask());
        assert_eq!(names(dir.path()), ["new.txt"]);
    }

    #[test]
    fn a_regular_file_is_replaced_keeping_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("secret.txt");
        fs::write(&p, b"old text, longer than the new").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        let inode = fs::metadata(&p).unwrap().ino();
        write(&p, b"new").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        assert_eq!(mode(&p), 0o600);
        assert_ne!(
            fs::metadata(&p).unwrap().ino(),
            inode,
            "replaced, not rewritten"
        );
        assert_eq!(names(dir.path()), ["secret.txt"]);
    }

    #[test]
    fn a_read_only_file_and_a_folder_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ro.txt");
        fs::write(&p, b"keep me").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
        let e = write(&p, b"x").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::ReadOnly), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("{}: is read-only; not overwritten", p.display())
        );
        let e = replace_with_backup(&p, b"keep me", b"x").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::ReadOnly), "{e:?}");
        assert_eq!(fs::read(&p).unwrap(), b"keep me");
        assert_eq!(names(dir.path()), ["ro.txt"]);

        let e = write(dir.path(), b"x").unwrap_err();
        assert!(
            e.to_string().ends_with(": is a folder; not overwritten"),
            "{e}"
        );
    }

    #[test]
    fn a_symlink_chain_is_kept_and_its_final_target_replaced() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/out.txt");
        fs::write(&target, b"old").unwrap();
        // link -> sub/../real/hop (relative), hop -> out.txt (relative).
        fs::create_dir(dir.path().join("sub")).unwrap();
        symlink("out.txt", dir.path().join("real/hop")).unwrap();
        symlink("../real/hop", dir.path().join("sub/link")).unwrap();
        let link = dir.path().join("sub/link");
        write(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(fs::symlink_metadata(dir.path().join("real/hop"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(names(&dir.path().join("real")), ["hop", "out.txt"]);
        assert_eq!(names(&dir.path().join("sub")), ["link"]);
    }

    #[test]
    fn a_dangling_link_creates_its_target_and_a_loop_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        symlink("made.txt", &link).unwrap();
        write(&link, b"made").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(dir.path().join("made.txt")).unwrap(), b"made");

        let a = dir.path().join("a");
        symlink("b", &a).unwrap();
        symlink("a", dir.path().join("b")).unwrap();
        let e = write(&a, b"x").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::TooManyLinks), "{e:?}");
    }

    #[test]
    fn dev_null_is_written_through_and_stays_a_device() {
        let null = Path::new("/dev/null");
        write(null, b"discarded").unwrap();
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_open_file_named_through_proc_is_appended_to() {
        use std::os::fd::AsRawFd;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        fs::write(&log, b"before\n").unwrap();
        let inode = fs::metadata(&log).unwrap().ino();
        let open = OpenOptions::new().append(true).open(&log).unwrap();
        let fd = PathBuf::from(format!("/proc/self/fd/{}", open.as_raw_fd()));
        write(&fd, b"after\n").unwrap();
        assert_eq!(fs::read(&log).unwrap(), b"before\nafter\n");
        assert_eq!(fs::metadata(&log).unwrap().ino(), inode);
        assert_eq!(names(dir.path()), ["log"]);
        let e = replace_with_backup(&fd, b"", b"x").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::NotRegular), "{e:?}");
    }

    #[test]
    fn a_fifo_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        let written = write(&fifo, b"through the pipe");
        if written.is_err() {
            // Let the reader go rather than hang.
            let _ = OpenOptions::new().write(true).open(&fifo);
        }
        written.unwrap();
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_socket_is_an_error_and_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let sock = dir.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let e = write(&sock, b"x").unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::Io {
                    step: Step::Open,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().starts_with(&format!(
            "cannot write {}: opening it for writing: ",
            sock.display()
        )));
        assert!(fs::metadata(&sock).unwrap().file_type().is_socket());
    }

    #[test]
    fn a_failure_removes_the_temporary_file() {
        // The rename of a file over a folder fails after the temporary file
        // was written (the public functions refuse a folder before that).
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        fs::write(folder.join("inside"), b"").unwrap();
        let dest = Dest {
            path: &folder,
            target: folder.clone(),
            open_file: false,
        };
        let e = replace(&dest, None, b"x", None).unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::Io {
                    step: Step::Rename,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(names(dir.path()), ["folder"]);

        // A missing folder: nothing is created.
        let p = dir.path().join("missing/out.txt");
        let e = write(&p, b"x").unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::Io {
                    step: Step::CreateTemp,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(names(dir.path()), ["folder"]);
    }

    #[test]
    fn backups_never_overwrite_and_never_follow_links() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("db");
        fs::write(&p, b"first").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        let bak = replace_with_backup(&p, b"first", b"second").unwrap();
        assert_eq!(bak, dir.path().join("db.bak"));
        assert_eq!(fs::read(&bak).unwrap(), b"first");
        assert_eq!(mode(&bak), 0o640);
        assert_eq!(mode(&p), 0o640);
        let bak1 = replace_with_backup(&p, b"second", b"third").unwrap();
        assert_eq!(bak1, dir.path().join("db.bak.1"));
        assert_eq!(
            fs::read(&bak).unwrap(),
            b"first",
            "the first original is kept"
        );
        assert_eq!(fs::read(&bak1).unwrap(), b"second");
        assert_eq!(fs::read(&p).unwrap(), b"third");
        assert_eq!(names(dir.path()), ["db", "db.bak", "db.bak.1"]);

        // A `.bak` that is a link to the file itself is skipped.
        let q = dir.path().join("other");
        fs::write(&q, b"original").unwrap();
        symlink("other", dir.path().join("other.bak")).unwrap();
        let bak = replace_with_backup(&q, b"original", b"renumbered").unwrap();
        assert_eq!(bak, dir.path().join("other.bak.1"));
        assert_eq!(fs::read(&bak).unwrap(), b"original");
        assert_eq!(fs::read(&q).unwrap(), b"renumbered");
        assert!(fs::symlink_metadata(dir.path().join("other.bak"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn a_backup_of_a_link_lies_beside_its_target() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("real")).unwrap();
        fs::write(dir.path().join("real/db"), b"old").unwrap();
        symlink("real/db", dir.path().join("link")).unwrap();
        let bak = replace_with_backup(&dir.path().join("link"), b"old", b"new").unwrap();
        assert_eq!(bak, dir.path().join("real/db.bak"));
        assert_eq!(fs::read(dir.path().join("link")).unwrap(), b"new");
        assert!(fs::symlink_metadata(dir.path().join("link"))
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn the_owner_is_kept_when_we_may_give_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("theirs");
        fs::write(&p, b"old").unwrap();
        let me = fs::metadata(&p).unwrap();
        if std::os::unix::fs::chown(&p, Some(me.uid() + 4242), Some(me.gid() + 4242)).is_err() {
            // Not root: the replacement of another user's file is refused.
            return;
        }
        write(&p, b"new").unwrap();
        let m = fs::metadata(&p).unwrap();
        assert_eq!((m.uid(), m.gid()), (me.uid() + 4242, me.gid() + 4242));
        assert_eq!(fs::read(&p).unwrap(), b"new");
    }
}
