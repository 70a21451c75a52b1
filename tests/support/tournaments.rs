//! What the tournament tests share: running `katachi tournament` and
//! reading the folder it writes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `katachi tournament LEAD… -p PLAYER … FLAGS…`.
pub fn tournament(lead: &[&str], players: &[&str], flags: &[&str]) -> Output {
    let mut args = vec!["tournament"];
    args.extend_from_slice(lead);
    for p in players {
        args.extend(["-p", p]);
    }
    args.extend_from_slice(flags);
    Command::new(env!("CARGO_BIN_EXE_katachi"))
        .args(&args)
        .output()
        .expect("katachi runs")
}

/// The ledger's games, by id, without thinking times (which differ run
/// to run).
pub fn games(dir: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join("ledger.jsonl")).unwrap();
    let mut out: Vec<Value> = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect();
    out.sort_by_key(|v| v["id"].as_str().unwrap().to_string());
    out
}

/// The command succeeded (its stderr shown when not).
pub fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `DIR/standings.json`.
pub fn standings(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("standings.json")).unwrap()).unwrap()
}

/// One player's line of the standings.
pub fn line(standings: &Value, name: &str) -> Value {
    standings["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player"] == name)
        .unwrap_or_else(|| panic!("{name} in {standings}"))
        .clone()
}

/// Writes `text` to `path` as an executable script.
pub fn executable(path: PathBuf, text: &str) -> PathBuf {
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}
