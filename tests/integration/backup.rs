//! `damka backup --to FILE` while games are being played: the copy holds every move
//! acknowledged before the backup began, replays, and serves as a fresh server's database.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::processes::{Server, all_games, create_admin, http};

use std::collections::{BTreeMap, HashMap};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Every game's ply as the API reports it.
fn plies(port: u16) -> HashMap<i64, u64> {
    all_games(port)
        .iter()
        .map(|g| {
            let id = g["id"].as_i64().unwrap();
            let read = http(
                port,
                "GET",
                &format!("/api/v1/games/{id}"),
                &BTreeMap::new(),
                None,
            )
            .unwrap();
            assert_eq!(read.status, 200, "game {id} replays: {}", read.body);
            let view: serde_json::Value = serde_json::from_str(&read.body).unwrap();
            (id, view["ply"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn a_backup_taken_under_load_holds_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("club.db").display());
    let server = Server::start(&url);
    create_admin(&url, "arbiter@club.org", "arbiter-password-1");
    let mut load = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args(["--url", &format!("http://127.0.0.1:{}/", server.port)])
        .args(["--login", "arbiter@club.org:arbiter-password-1"])
        .args([
            "--play-games",
            "4",
            "--seed",
            "9",
            "--duration",
            "4s",
            "--json",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // Every move the API shows now was acknowledged before the backup begins.
    let before = plies(server.port);
    assert!(
        before.values().sum::<u64>() > 0,
        "the load plays: {before:?}"
    );
    let copy = dir.path().join("copy.db");
    let backup = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["backup", "--to", copy.to_str().unwrap()])
        .args(["--database-url", &url])
        .output()
        .unwrap();
    assert!(
        backup.status.success(),
        "{}",
        String::from_utf8_lossy(&backup.stderr)
    );
    assert!(String::from_utf8_lossy(&backup.stderr).contains("wrote"));
    assert!(load.wait().unwrap().success(), "the load went on meanwhile");
    let after = plies(server.port);
    drop(server);

    let restored = Server::start(&format!("sqlite://{}", copy.display()));
    let in_copy = plies(restored.port);
    for (game, ply) in &before {
        let kept = in_copy.get(game).copied().unwrap_or(0);
        assert!(
            kept >= *ply,
            "game {game}: {ply} plies acknowledged before the backup, {kept} in it"
        );
        assert!(kept <= after[game], "nothing invented");
    }

    // A second backup to the same file is refused: a copy is never overwritten.
    let again = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["backup", "--to", copy.to_str().unwrap()])
        .args(["--database-url", &url])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let postgres = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["backup", "--to", dir.path().join("pg.db").to_str().unwrap()])
        .args(["--database-url", "postgres://nobody@127.0.0.1:1/none"])
        .output()
        .unwrap();
    assert_eq!(postgres.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&postgres.stderr).contains("pg_dump"));
}
