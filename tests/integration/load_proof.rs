//! The real binaries under load, then checked game by game (`damka-load --verify`): no
//! acknowledged move missing, no illegal game stored, every finished event game's result on
//! its board. Then the same through a `kill -9` of the server, through a crash and restart
//! of PostgreSQL itself (a private server started for the test), and over three instances
//! sharing one PostgreSQL database.
//!
//! The load and the kill run on the suite's database (SQLite in the README's command,
//! PostgreSQL in the suite's second run). The PostgreSQL restart and the three instances
//! need PostgreSQL and run in the PostgreSQL suite; in the SQLite run they say so and
//! return (CI runs both suites).
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::common;
use crate::common::private_postgres::PrivatePostgres;
use crate::processes::{
    Server, api_game, api_players, create_admin, csrf_of, http, postgres_or_skip, register,
    remember, sign_in,
};

use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ARBITER: &str = "arbiter@club.org";
const PASSWORD: &str = "arbiter-password-1";

/// Seconds of load in each run: `DAMKA_LOAD_SECONDS` (default 20).
fn load_seconds() -> u64 {
    std::env::var("DAMKA_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

fn base(port: u16) -> String {
    format!("http://127.0.0.1:{port}/")
}

/// `damka-load --play-games` on Swiss events with verification, started in the background.
fn start_load(ports: &[u16], games: u16, seconds: u64, outage: bool) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_damka-load"));
    command
        .args(["--url", &base(ports[0])])
        .args(["--login", &format!("{ARBITER}:{PASSWORD}")])
        .args([
            "--play-games",
            &games.to_string(),
            "--in-events",
            "--verify",
            // A busy machine (CI's two cores under the whole suite) may play too slowly for
            // a game to end in the load's seconds; the run goes on until one has.
            "--min-finished",
            "1",
        ])
        .args([
            "--duration",
            &format!("{seconds}s"),
            "--timeout",
            "5s",
            "--json",
        ]);
    for port in &ports[1..] {
        command.args(["--also-url", &base(*port)]);
    }
    if outage {
        command.arg("--expect-outage");
    }
    command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The JSON report of a finished `damka-load` run and whether it exited 0.
fn finish_load(load: Child) -> (bool, serde_json::Value) {
    let out = load.wait_with_output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "damka-load printed no report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    eprintln!(
        "damka-load: {} moves, {} games finished, {} events; verify {}",
        report["moves"], report["games_finished"], report["events"], report["verify"]
    );
    (out.status.success(), report)
}

/// What every verified run must show: games played to their end on event boards, and
/// every stored game exactly as acknowledged.
fn assert_verified(report: &serde_json::Value) {
    let verify = &report["verify"];
    assert_eq!(verify["ok"], true, "{report:#}");
    for problem in [
        "acknowledged_missing",
        "illegal_games",
        "wrong_status",
        "results_missing",
        "unreadable",
    ] {
        assert_eq!(verify[problem]["count"], 0, "{problem}: {report:#}");
    }
    let acknowledged = verify["acknowledged_moves"].as_u64().unwrap();
    assert!(acknowledged > 0, "{report:#}");
    assert!(
        verify["plies_replayed"].as_u64().unwrap() >= acknowledged,
        "{report:#}"
    );
    assert!(verify["finished_games"].as_u64().unwrap() > 0, "{report:#}");
    assert!(verify["event_games"].as_u64().unwrap() > 0, "{report:#}");
    assert!(report["events"].as_u64().unwrap() >= 1, "{report:#}");
}

/// Requests the run saw refused or failed: moves not answered 201 (a 503 while the database
/// was away, a transport failure while the server was down) and other failed requests.
fn failed_requests(report: &serde_json::Value) -> u64 {
    report["non_201_or_failed"].as_u64().unwrap() + report["other_errors"].as_u64().unwrap()
}

#[test]
fn games_under_load_are_stored_exactly_as_acknowledged() {
    let db = common::TestDatabase::new();
    let server = Server::start(&db.url.target);
    create_admin(&db.url.target, ARBITER, PASSWORD);
    let load = start_load(&[server.port], 8, load_seconds(), false);
    let (success, report) = finish_load(load);
    assert!(success, "{report:#}");
    assert_eq!(report["non_201_or_failed"], 0, "{report:#}");
    assert_verified(&report);
    // Rounds were paired as their games ended: more finished games than one round has.
    assert!(report["games_finished"].as_u64().unwrap() > 8, "{report:#}");
}

#[test]
fn a_server_killed_under_load_keeps_every_acknowledged_move() {
    let db = common::TestDatabase::new();
    let mut server = Server::start(&db.url.target);
    let port = server.port;
    create_admin(&db.url.target, ARBITER, PASSWORD);
    let seconds = load_seconds().max(8);
    let load = start_load(&[port], 8, seconds, true);
    std::thread::sleep(Duration::from_secs(seconds / 3));
    server.kill_hard();
    std::thread::sleep(Duration::from_millis(500));
    let restarted = Server::start_on(&db.url.target, port);
    let (success, report) = finish_load(load);
    assert!(success, "{report:#}");
    assert_verified(&report);
    assert!(
        failed_requests(&report) > 0,
        "the run did not notice the kill: {report:#}"
    );
    drop(restarted);
}

/// The heavy PostgreSQL tests run in the PostgreSQL suite (CI's second run).
fn in_the_postgres_suite(test: &str) -> bool {
    if common::uses_postgres() {
        return postgres_or_skip();
    }
    eprintln!("{test}: runs in the PostgreSQL suite (DAMKA_TEST_DATABASE=postgres)");
    false
}

#[test]
fn postgres_crashed_and_restarted_under_load_loses_nothing_acknowledged() {
    if !in_the_postgres_suite("postgres_crashed_and_restarted_under_load") {
        return;
    }
    let Some(postgres) = PrivatePostgres::start() else {
        return;
    };
    let url = postgres.url();
    let a = Server::start(&url);
    let b = Server::start(&url);
    create_admin(&url, ARBITER, PASSWORD);
    let seconds = load_seconds().max(10);
    // Sixteen games keep enough connections busy that some are in use when the server goes
    // away (with eight, dead connections back in the pool went unnoticed).
    let load = start_load(&[a.port, b.port], 16, seconds, true);
    std::thread::sleep(Duration::from_secs(seconds / 3));
    postgres.crash();
    // While the database is away the service says so: 503 with a page, and /healthz.
    let health = http(a.port, "GET", "/healthz", &BTreeMap::new(), None).unwrap();
    assert_eq!(health.status, 503, "{}", health.body);
    let page = http(b.port, "GET", "/events", &BTreeMap::new(), None).unwrap();
    assert_eq!(page.status, 503, "{}", page.body);
    assert!(page.body.contains("<html"), "{}", page.body);
    std::thread::sleep(Duration::from_secs(2));
    postgres.pg_ctl_start();
    let (success, report) = finish_load(load);
    assert!(success, "{report:#}");
    assert_verified(&report);
    assert!(
        failed_requests(&report) > 0,
        "the run did not notice the crash: {report:#}"
    );
    // Both instances found the database again by themselves.
    for server in [&a, &b] {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let health = http(server.port, "GET", "/healthz", &BTreeMap::new(), None).unwrap();
            if health.status == 200 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "instance on {} still unhealthy: {} {}",
                server.port,
                health.status,
                health.body
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    // And serve a clean run through both, every move accepted.
    let clean = start_load(&[a.port, b.port], 4, 3, false);
    let (success, report) = finish_load(clean);
    assert!(success, "{report:#}");
    assert_eq!(report["non_201_or_failed"], 0, "{report:#}");
}

/// Connections that were idle in the pool when PostgreSQL went away are dead when it comes
/// back (libpq does not reconnect). Before, they went back into the pool as good after each
/// failed request, so an instance answered 503 for good; now at most the first request
/// after the restart meets one.
#[test]
fn after_a_postgres_restart_the_pool_holds_no_dead_connection() {
    if !in_the_postgres_suite("after_a_postgres_restart_the_pool_holds_no_dead_connection") {
        return;
    }
    let Some(postgres) = PrivatePostgres::start() else {
        return;
    };
    let server = Server::start(&postgres.url());
    // Several connections in the pool, idle.
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..20 {
                    let health = http(server.port, "GET", "/healthz", &BTreeMap::new(), None);
                    assert_eq!(health.unwrap().status, 200);
                }
            });
        }
    });
    // A crash and a restart with no request in between.
    postgres.crash();
    postgres.pg_ctl_start();
    let statuses: Vec<u16> = (0..30)
        .map(|_| {
            http(server.port, "GET", "/healthz", &BTreeMap::new(), None)
                .unwrap()
                .status
        })
        .collect();
    let failed = statuses.iter().filter(|s| **s != 200).count();
    assert!(
        failed <= 1 && statuses[1..].iter().all(|s| *s == 200),
        "after the restart: {statuses:?}"
    );
}

#[test]
fn three_instances_share_games_sessions_and_sign_in_limits() {
    if !in_the_postgres_suite("three_instances_share_games_sessions_and_sign_in_limits") {
        return;
    }
    let db = common::TestDatabase::new_postgres();
    let url = db.url.target.clone();
    let servers: Vec<Server> = std::thread::scope(|s| {
        let starts: Vec<_> = (0..3).map(|_| s.spawn(|| Server::start(&url))).collect();
        starts.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ports: Vec<u16> = servers.iter().map(|s| s.port).collect();
    create_admin(&url, ARBITER, PASSWORD);

    // Games spread over the three instances, verified through the first.
    let load = start_load(&ports, 9, load_seconds().min(10), false);
    let (success, report) = finish_load(load);
    assert!(success, "{report:#}");
    assert_eq!(report["instances"], 3, "{report:#}");
    assert_verified(&report);

    // Two submissions for the same ply through different instances: one wins, one 409.
    let token = crate::processes::api_token(ports[0], ARBITER, PASSWORD);
    let players = api_players(ports[0], &token, ["Race White", "Race Black"]);
    for round in 0..20 {
        let game = api_game(ports[round % 3], &token, &players, serde_json::json!({}));
        let path = format!("/api/v1/games/{game}/moves");
        let (first, second) = (ports[round % 3], ports[(round + 1) % 3]);
        let answers: Vec<(u16, String)> = std::thread::scope(|s| {
            let racers: Vec<_> = [(first, "c3-d4"), (second, "g3-h4")]
                .into_iter()
                .map(|(port, mv)| {
                    let (path, token) = (&path, &token);
                    s.spawn(move || {
                        crate::processes::api(
                            port,
                            "POST",
                            path,
                            token,
                            &serde_json::json!({ "ply": 1, "move": mv }),
                        )
                    })
                })
                .collect();
            racers.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| *s).collect();
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409], "round {round}: {answers:?}");
        let (_, stored) = crate::processes::api(
            ports[(round + 2) % 3],
            "GET",
            &format!("/api/v1/games/{game}"),
            &token,
            &serde_json::Value::Null,
        );
        let stored: serde_json::Value = serde_json::from_str(&stored).unwrap();
        assert_eq!(stored["ply"], 1, "round {round}: {stored}");
        let winner = answers.iter().position(|(s, _)| *s == 201).unwrap();
        assert_eq!(
            stored["moves"][0]["move"],
            ["c3-d4", "g3-h4"][winner],
            "round {round}: the stored move is not the one acknowledged"
        );
    }

    // A session made on one instance is good on the others, and signing out on one ends
    // it everywhere.
    register(ports[0], "member@club.org", "member-secret-1");
    let cookies = sign_in(ports[1], "member@club.org", "member-secret-1");
    for port in &ports {
        let account = http(*port, "GET", "/account", &cookies, None).unwrap();
        assert_eq!(account.status, 200, "instance {port}");
        assert!(account.body.contains("member@club.org"));
    }
    let account = http(ports[2], "GET", "/account", &cookies, None).unwrap();
    let csrf = csrf_of(&account.body);
    let out = http(
        ports[2],
        "POST",
        "/logout",
        &cookies,
        Some(&[("csrf_token", csrf.as_str())]),
    )
    .unwrap();
    assert_eq!(out.status, 303, "{}", out.body);
    for port in &ports {
        let account = http(*port, "GET", "/account", &cookies, None).unwrap();
        assert!(
            !account.body.contains("member@club.org"),
            "instance {port} still knows the signed-out session"
        );
    }

    // Wrong passwords counted on any instance block the account on all of them.
    let limit = damka::service::password_limits::MAX_FAILURES_PER_ACCOUNT;
    for attempt in 0..limit {
        let port = ports[attempt as usize % 3];
        let status = wrong_sign_in(port, "member@club.org");
        assert_eq!(status, 401, "attempt {attempt} on {port}");
    }
    for port in &ports {
        assert_eq!(
            wrong_sign_in(*port, "member@club.org"),
            429,
            "instance {port} let a guess past the account's limit"
        );
    }
    drop(servers);
}

/// A sign-in with a wrong password through the form; the status.
fn wrong_sign_in(port: u16, email: &str) -> u16 {
    let mut cookies = BTreeMap::new();
    let form = http(port, "GET", "/login", &cookies, None).unwrap();
    remember(&mut cookies, &form);
    let csrf = &csrf_of(&form.body);
    http(
        port,
        "POST",
        "/login",
        &cookies,
        Some(&[
            ("email", email),
            ("password", "not-the-password"),
            ("csrf_token", csrf),
        ]),
    )
    .unwrap()
    .status
}
