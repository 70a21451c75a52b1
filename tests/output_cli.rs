//! What `katachi match --stats-out`, `hits --tsv` and `gtp -o` do to what
//! is already at the path (`mkpat::output`): a link is kept and its target
//! replaced, a mode kept, a read-only file refused, a FIFO or a device
//! written through.
#![cfg(all(unix, feature = "compiler"))]

use std::fs;
use std::io::Write;
use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use mkpat::hits::Hits;

#[path = "support/files.rs"]
mod files;
use files::{is_link, mkfifo, mode, names, read_fifo_while};

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn katachi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(args)
        .output()
        .expect("katachi runs")
}

fn positions() -> String {
    root("tests/data/positions/sample.txt")
        .to_str()
        .unwrap()
        .to_string()
}

fn stats_out(out: &Path) -> Output {
    katachi(&["match", "--stats-out", out.to_str().unwrap(), &positions()])
}

fn hits_tsv(out: &Path) -> Output {
    let game = root("tests/data/sgf/capture.sgf");
    katachi(&[
        "hits",
        "--tsv",
        out.to_str().unwrap(),
        game.to_str().unwrap(),
    ])
}

/// `katachi gtp -o OUT` playing two moves.
fn gtp_record(out: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(["gtp", "--playouts", "0", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("katachi runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"boardsize 9\nplay b E5\nplay w C3\nquit\n")
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

#[test]
fn stats_out_and_tsv_replace_a_symlinks_target_keeping_the_link_and_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    for (write, name) in [
        (stats_out as fn(&Path) -> Output, "stats.tsv"),
        (hits_tsv, "hits.tsv"),
    ] {
        let target = dir.path().join("real").join(name);
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join(name);
        symlink(Path::new("real").join(name), &link).unwrap();
        let inode = fs::metadata(&target).unwrap().ino();
        ok(&write(&link));
        assert!(is_link(&link), "{name}");
        // Replaced by a rename, not truncated and rewritten in place.
        assert_ne!(fs::metadata(&target).unwrap().ino(), inode, "{name}");
        assert_eq!(mode(&target), 0o600, "{name}");
        let text = fs::read_to_string(&target).unwrap();
        assert!(Hits::parse_tsv(&text).is_ok(), "{name}: {text}");
    }
    assert_eq!(names(dir.path()), ["hits.tsv", "real", "stats.tsv"]);
    assert_eq!(names(&dir.path().join("real")), ["hits.tsv", "stats.tsv"]);
}

#[test]
fn stats_out_and_tsv_refuse_a_read_only_file() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("hits.tsv");
    fs::write(&ro, "keep me").unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
    for o in [stats_out(&ro), hits_tsv(&ro)] {
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            format!(
                "katachi: error: {}: is read-only; not overwritten\n",
                ro.display()
            )
        );
        assert_eq!(fs::read_to_string(&ro).unwrap(), "keep me");
    }
    assert_eq!(mode(&ro), 0o444);
    assert_eq!(names(dir.path()), ["hits.tsv"]);
}

#[test]
fn stats_out_writes_through_a_fifo_and_dev_null() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    if mkfifo(&fifo) {
        let (o, read) = read_fifo_while(&fifo, || stats_out(&fifo));
        ok(&o);
        let hits = Hits::parse_tsv(&read).unwrap();
        assert_eq!(hits.positions, Some(3));
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(names(dir.path()), ["fifo"]);
    }
    let null = Path::new("/dev/null");
    ok(&stats_out(null));
    ok(&hits_tsv(null));
    assert!(fs::metadata(null).unwrap().file_type().is_char_device());
}

#[test]
fn gtp_record_keeps_a_link_and_a_private_mode() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("games")).unwrap();
    let target = dir.path().join("games/game.sgf");
    fs::write(&target, "old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("game.sgf");
    symlink("games/game.sgf", &link).unwrap();
    ok(&gtp_record(&link));
    assert!(is_link(&link));
    assert_eq!(mode(&target), 0o600);
    let text = fs::read_to_string(&target).unwrap();
    assert_eq!(katachi::sgf::load(&text, None).unwrap().moves, 2, "{text}");
    assert_eq!(names(dir.path()), ["game.sgf", "games"]);
    assert_eq!(names(&dir.path().join("games")), ["game.sgf"]);
}

#[test]
fn gtp_record_refuses_a_read_only_file_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("game.sgf");
    fs::write(&ro, "keep me").unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o444)).unwrap();
    let o = gtp_record(&ro);
    ok(&o);
    let replies = String::from_utf8(o.stdout.clone()).unwrap();
    assert_eq!(replies.matches("=").count(), 4, "{replies}");
    let line = format!(
        "katachi: error: {}: is read-only; not overwritten",
        ro.display()
    );
    assert!(stderr(&o).lines().all(|l| l == line), "{}", stderr(&o));
    assert!(stderr(&o).contains(&line));
    assert_eq!(fs::read_to_string(&ro).unwrap(), "keep me");
    assert_eq!(names(dir.path()), ["game.sgf"]);
}

#[test]
fn gtp_record_writes_through_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.sgf");
    if !mkfifo(&fifo) {
        return;
    }
    let (o, read) = read_fifo_while(&fifo, || gtp_record(&fifo));
    ok(&o);
    // The whole game after every recorded command, one after the other.
    assert!(read.starts_with("(;"), "{read}");
    assert!(read.matches("(;").count() >= 3, "{read}");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(dir.path()), ["game.sgf"]);
}
