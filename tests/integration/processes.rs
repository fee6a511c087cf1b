//! The real binary as operators run it: two instances sharing one PostgreSQL database,
//! and SQLite keeping an acknowledged write through `kill -9`.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::common;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
}

impl Server {
    pub(crate) fn start(database_url: &str) -> Server {
        Server::run("serve", database_url, Path::new("."))
    }

    /// `damka serve` on a given port (a restarted server where its clients expect it).
    pub(crate) fn start_on(database_url: &str, port: u16) -> Server {
        Server::run_on("serve", database_url, Path::new("."), port)
    }

    /// `damka serve` with extra environment variables (its settings).
    pub(crate) fn start_with_env(database_url: &str, env: &[(&str, &str)]) -> Server {
        Server::spawn("serve", database_url, Path::new("."), free_port(), env)
    }

    /// `damka COMMAND` (`serve` or `demo`) in the working directory `dir`.
    fn run(command: &str, database_url: &str, dir: &Path) -> Server {
        Server::run_on(command, database_url, dir, free_port())
    }

    fn run_on(command: &str, database_url: &str, dir: &Path, port: u16) -> Server {
        Server::spawn(command, database_url, dir, port, &[])
    }

    fn spawn(
        command: &str,
        database_url: &str,
        dir: &Path,
        port: u16,
        env: &[(&str, &str)],
    ) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_damka"))
            .current_dir(dir)
            .envs(env.iter().copied())
            .args([
                command,
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--database-url",
                database_url,
                "--workers",
                "1",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = Server { child, port };
        // Readiness: minutes, as a busy 2-core machine needs.
        let deadline = Instant::now() + Duration::from_secs(300);
        while Instant::now() < deadline {
            if let Ok(res) = http(port, "GET", "/healthz", &BTreeMap::new(), None)
                && res.status == 200
            {
                return server;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("damka serve on port {port} did not become healthy");
    }

    pub(crate) fn kill_hard(&mut self) {
        self.child.kill().unwrap(); // SIGKILL: no shutdown handler runs
        self.child.wait().unwrap();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) struct Res {
    pub(crate) status: u16,
    set_cookies: Vec<String>,
    pub(crate) body: String,
}

/// A minimal HTTP/1.1 client (one request per connection) so the test drives the real
/// server over a real socket.
/// Every game the server at `port` lists, page after page (newest first).
pub(crate) fn all_games(port: u16) -> Vec<serde_json::Value> {
    let mut games = Vec::new();
    let mut path = "/api/v1/games?limit=200".to_string();
    loop {
        let listed = http(port, "GET", &path, &BTreeMap::new(), None).unwrap();
        assert_eq!(listed.status, 200, "{}", listed.body);
        let page: serde_json::Value = serde_json::from_str(&listed.body).unwrap();
        games.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) => path = format!("/api/v1/games?limit=200&cursor={next}"),
            None => return games,
        }
    }
}

pub(crate) fn http(
    port: u16,
    method: &str,
    path: &str,
    cookies: &BTreeMap<String, String>,
    form: Option<&[(&str, &str)]>,
) -> std::io::Result<Res> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = form
        .map(|f| serde_urlencoded::to_string(f).unwrap())
        .unwrap_or_default();
    let cookie_header = cookies
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("; ");
    let mut request =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if !cookie_header.is_empty() {
        request.push_str(&format!("Cookie: {cookie_header}\r\n"));
    }
    if form.is_some() {
        request.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let set_cookies = head
        .lines()
        .filter_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .map(str::to_string)
        .collect();
    Ok(Res {
        status,
        set_cookies,
        body: body.to_string(),
    })
}

pub(crate) fn remember(cookies: &mut BTreeMap<String, String>, res: &Res) {
    for cookie in &res.set_cookies {
        let pair = cookie.split(';').next().unwrap();
        let (name, value) = pair.split_once('=').unwrap();
        cookies.insert(name.to_string(), value.to_string());
    }
}

pub(crate) fn csrf_of(body: &str) -> String {
    let marker = "name=\"csrf_token\" value=\"";
    let start = body.find(marker).unwrap() + marker.len();
    body[start..start + body[start..].find('"').unwrap()].to_string()
}

pub(crate) fn register(port: u16, email: &str, password: &str) {
    let mut cookies = BTreeMap::new();
    let form = http(port, "GET", "/register", &cookies, None).unwrap();
    remember(&mut cookies, &form);
    let token = csrf_of(&form.body);
    let res = http(
        port,
        "POST",
        "/register",
        &cookies,
        Some(&[
            ("email", email),
            ("display_name", "Tester"),
            ("password", password),
            ("csrf_token", &token),
        ]),
    )
    .unwrap();
    assert_eq!(res.status, 303, "registration answered: {}", res.body);
}

pub(crate) fn sign_in(port: u16, email: &str, password: &str) -> BTreeMap<String, String> {
    let mut cookies = BTreeMap::new();
    let form = http(port, "GET", "/login", &cookies, None).unwrap();
    remember(&mut cookies, &form);
    let token = csrf_of(&form.body);
    let res = http(
        port,
        "POST",
        "/login",
        &cookies,
        Some(&[
            ("email", email),
            ("password", password),
            ("csrf_token", &token),
        ]),
    )
    .unwrap();
    assert_eq!(res.status, 303, "sign-in answered: {}", res.body);
    remember(&mut cookies, &res);
    assert!(cookies.contains_key("damka_session"));
    cookies
}

/// PostgreSQL must be there in CI; a developer without it gets a printed reason.
pub(crate) fn postgres_or_skip() -> bool {
    use diesel::Connection;
    let base = common::postgres_base_url();
    match diesel::PgConnection::establish(&format!("{base}/test")) {
        Ok(_) => true,
        Err(e) if std::env::var("CI").is_ok() || common::uses_postgres() => {
            panic!("PostgreSQL is required here but not reachable at {base}: {e}")
        }
        Err(e) => {
            eprintln!("SKIPPED: PostgreSQL not reachable at {base} ({e}); set it up or run in CI");
            false
        }
    }
}

#[test]
fn two_instances_share_one_postgres_database() {
    if !postgres_or_skip() {
        return;
    }
    let db = common::TestDatabase::new_postgres();
    let url = db.url.target.clone();
    // Both start at once: migrations are serialised by an advisory lock.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| Server::start(&url));
        let b = s.spawn(|| Server::start(&url));
        (a.join().unwrap(), b.join().unwrap())
    });
    register(a.port, "multi@club.org", "shared-secret-1");
    let cookies = sign_in(b.port, "multi@club.org", "shared-secret-1");
    let account = http(b.port, "GET", "/account", &cookies, None).unwrap();
    assert_eq!(account.status, 200);
    assert!(account.body.contains("multi@club.org"));
    // The session made by B is valid on A too: no state lives in one instance's memory.
    let on_a = http(a.port, "GET", "/account", &cookies, None).unwrap();
    assert_eq!(on_a.status, 200);
    drop((a, b));
}

#[test]
fn sqlite_keeps_an_acknowledged_write_through_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("durable.db").display());
    let mut server = Server::start(&url);
    register(server.port, "durable@club.org", "survives-kill");
    server.kill_hard();
    let server = Server::start(&url);
    let cookies = sign_in(server.port, "durable@club.org", "survives-kill");
    assert_eq!(
        http(server.port, "GET", "/account", &cookies, None)
            .unwrap()
            .status,
        200
    );
}

#[test]
fn an_unreachable_postgres_is_a_clear_error_not_a_panic() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args([
            "admin",
            "create",
            "--email",
            "x@y.org",
            "--database-url",
            &format!("postgres://postgres@127.0.0.1:{port}/none"),
        ])
        .env("DAMKA_DB_RETRY_ATTEMPTS", "2")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot open the database") && stderr.contains("gave up after 2 attempts"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `damka demo --database-url FILE` starts the demo on that file (the flag used to be
/// ignored: the demo always wrote `damka-demo.db` in the working directory, and its help
/// showed the default of `serve`), starts it afresh the next time, and refuses to delete a
/// file that is not a demo database.
#[test]
fn the_demo_takes_its_database_url_and_spares_a_real_database() {
    let dir = tempfile::tempdir().unwrap();
    let demo_file = dir.path().join("club-demo.db");
    let demo_url = format!("sqlite://{}", demo_file.display());
    for run in 0..2 {
        let server = Server::run("demo", &demo_url, dir.path());
        let clubs = http(server.port, "GET", "/clubs", &BTreeMap::new(), None).unwrap();
        assert!(
            clubs.body.contains("Kazan Draughts School"),
            "{}",
            clubs.body
        );
        if run == 0 {
            demo_pages_load(server.port);
        }
    }
    assert!(demo_file.exists());
    assert!(!dir.path().join("damka-demo.db").exists());

    let real_url = format!("sqlite://{}", dir.path().join("club.db").display());
    create_admin(&real_url, "admin@club.org", "a club's real password");
    let refused = Command::new(env!("CARGO_BIN_EXE_damka"))
        .current_dir(dir.path())
        .args(["demo", "--bind", "127.0.0.1:0", "--database-url", &real_url])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(stderr.contains("is not a demo database"), "{stderr}");
    let server = Server::start(&real_url);
    sign_in(server.port, "admin@club.org", "a club's real password");

    let help = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["demo", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("sqlite://damka-demo.db"), "{help}");
    assert!(!help.contains("[default: sqlite://damka.db]"), "{help}");
}

/// The demo's pages as a visitor finds them: the main pages, and from them an event (each
/// of its tabs), a game, a player and a club, all answered 200 with their content.
fn demo_pages_load(port: u16) {
    let get = |path: &str| {
        let res = http(port, "GET", path, &BTreeMap::new(), None).unwrap();
        assert_eq!(res.status, 200, "GET {path}: {}", res.body);
        assert!(res.body.contains("</html>"), "GET {path}: {}", res.body);
        res.body
    };
    /// The first link on `page` to `prefix` followed by a number.
    fn first_link(page: &str, prefix: &str) -> String {
        let needle = format!("href=\"{prefix}");
        let at = page
            .find(&needle)
            .unwrap_or_else(|| panic!("no link to {prefix}N on the page"));
        let rest = &page[at + needle.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        assert!(!digits.is_empty(), "a link to {prefix} without a number");
        format!("{prefix}{digits}")
    }
    let home = get("/");
    for path in ["/events", "/players", "/ratings", "/clubs"] {
        get(path);
    }
    let event = first_link(&get("/events"), "/events/");
    for tab in [
        "",
        "?tab=entries",
        "?tab=rounds",
        "?tab=standings",
        "?tab=crosstable",
    ] {
        get(&format!("{event}{tab}"));
    }
    let game = first_link(&home, "/games/");
    assert!(
        get(&game).contains("<svg"),
        "the game page {game} has no board"
    );
    get(&first_link(&get("/players"), "/players/"));
    get(&first_link(&get("/clubs"), "/clubs/"));
}

/// `damka admin create` with the password on standard input.
pub(crate) fn create_admin(database_url: &str, email: &str, password: &str) {
    let mut admin = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["admin", "create", "--email", email, "--password-stdin"])
        .args(["--database-url", database_url])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    admin
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{password}\n").as_bytes())
        .unwrap();
    assert!(admin.wait().unwrap().success());
}

/// `damka-load --login` signs in through the real forms and gets an API token the way the
/// benchmarks use it (it broke when the token page moved to post/redirect/get), then
/// loads an authenticated write and counts every answer.
#[test]
fn the_load_generator_signs_in_and_sends_writes() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("load.db").display());
    let server = Server::start(&url);
    create_admin(&url, "load@club.org", "load-password-1");
    let base = format!("http://127.0.0.1:{}", server.port);
    let token = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args([
            "--url",
            &format!("{base}/"),
            "--login",
            "load@club.org:load-password-1",
        ])
        .arg("--print-token")
        .output()
        .unwrap();
    assert!(
        token.status.success(),
        "{}",
        String::from_utf8_lossy(&token.stderr)
    );
    let token = String::from_utf8(token.stdout).unwrap().trim().to_string();
    assert!(token.starts_with("dmk_"), "{token}");
    // Player profiles created again and again, the two bodies taking turns.
    let run = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args([
            "--url",
            &format!("{base}/api/v1/players"),
            "--method",
            "POST",
        ])
        .args(["-H", &format!("Authorization: Bearer {token}")])
        .args(["-H", "Content-Type: application/json"])
        .args([
            "--body",
            r#"{"name":"Load A"}"#,
            "--body",
            r#"{"name":"Load B"}"#,
        ])
        .args(["--connections", "1", "--duration", "1s", "--json"])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&run.stderr)));
    let made = report["requests"].as_u64().unwrap();
    assert!(made > 1, "{report}");
    assert_eq!(report["statuses"]["201"].as_u64(), Some(made), "{report}");
    // Both bodies made profiles (the list is by name: each is searched for).
    for name in ["Load A", "Load B"] {
        let players = http(
            server.port,
            "GET",
            &format!("/api/v1/players?limit=1&q={}", name.replace(' ', "%20")),
            &BTreeMap::new(),
            None,
        )
        .unwrap();
        let listed: serde_json::Value = serde_json::from_str(&players.body).unwrap();
        assert_eq!(listed["items"][0]["name"], name, "{listed}");
    }
}

/// `damka-load --play-games` plays real games through the API: every move it counts is
/// stored, the games it leaves replay legally (a read replays every stored move), and each
/// finished game is replaced by a new one.
#[test]
fn the_load_generator_plays_games_move_by_move() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("games.db").display());
    let server = Server::start(&url);
    create_admin(&url, "arbiter@club.org", "arbiter-password-1");
    let run = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args(["--url", &format!("http://127.0.0.1:{}/", server.port)])
        .args(["--login", "arbiter@club.org:arbiter-password-1"])
        .args([
            "--play-games",
            "2",
            "--seed",
            "5",
            "--duration",
            "2s",
            "--json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&run.stderr)));
    assert!(run.status.success(), "{report}");
    let moves = report["moves"].as_u64().unwrap();
    assert!(moves > 0, "{report}");
    assert_eq!(report["statuses"]["201"].as_u64(), Some(moves), "{report}");
    assert_eq!(report["non_201_or_failed"].as_u64(), Some(0), "{report}");
    assert!(report["moves_per_sec"].as_f64().unwrap() > 0.0, "{report}");
    let latency = &report["latency_ms"];
    assert!(latency["p50"].as_f64().unwrap() > 0.0, "{report}");
    assert!(
        latency["p99"].as_f64() <= latency["max"].as_f64(),
        "{report}"
    );

    let games = all_games(server.port);
    let finished = report["games_finished"].as_u64().unwrap();
    // The two first games, and one more for every game the tool saw finish.
    assert_eq!(games.len() as u64, 2 + finished, "{report}");
    let mut stored_plies = 0;
    for game in games {
        let id = game["id"].as_i64().unwrap();
        let read = http(
            server.port,
            "GET",
            &format!("/api/v1/games/{id}"),
            &BTreeMap::new(),
            None,
        )
        .unwrap();
        assert_eq!(read.status, 200, "game {id}: {}", read.body);
        let view: serde_json::Value = serde_json::from_str(&read.body).unwrap();
        let ply = view["ply"].as_u64().unwrap();
        assert_eq!(view["moves"].as_array().unwrap().len() as u64, ply);
        stored_plies += ply;
    }
    // Every counted move is stored; at most one more per connection, cut off by the end
    // of the run before its answer arrived.
    assert!(
        (moves..=moves + 2).contains(&stored_plies),
        "{stored_plies} plies stored, {moves} counted: {report}"
    );

    // Paced: 2 games offered 10 moves a second in all never send more than were due.
    let paced = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args(["--url", &format!("http://127.0.0.1:{}/", server.port)])
        .args(["--login", "arbiter@club.org:arbiter-password-1"])
        .args([
            "--play-games",
            "2",
            "--rate",
            "10",
            "--duration",
            "2s",
            "--json",
        ])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&paced.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&paced.stderr)));
    assert!(paced.status.success(), "{report}");
    assert_eq!(
        report["offered_moves_per_sec"].as_f64(),
        Some(10.0),
        "{report}"
    );
    let moves = report["moves"].as_u64().unwrap();
    assert!(
        (1..=20).contains(&moves),
        "{moves} moves in 2 s at 10/s: {report}"
    );
}

/// An API request with a bearer token and a JSON body; returns (status, body).
pub(crate) fn api(
    port: u16,
    method: &str,
    path: &str,
    token: &str,
    body: &serde_json::Value,
) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let body = body.to_string();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\
         Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, body.to_string())
}

/// Player profiles made over the API by the token's owner; their ids.
pub(crate) fn api_players<const N: usize>(
    port: u16,
    token: &str,
    names: [&str; N],
) -> [serde_json::Value; N] {
    names.map(|name| {
        let (status, body) = api(
            port,
            "POST",
            "/api/v1/players",
            token,
            &serde_json::json!({ "name": name }),
        );
        assert_eq!(status, 201, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"].clone()
    })
}

/// A game of Russian draughts between two profiles made over the API, with `more` fields
/// (e.g. a clock) in its body; its id.
pub(crate) fn api_game(
    port: u16,
    token: &str,
    [white, black]: &[serde_json::Value; 2],
    more: serde_json::Value,
) -> i64 {
    let mut body = serde_json::json!({"variant": "russian", "white_player_id": white,
        "black_player_id": black});
    if let (Some(fields), Some(more)) = (body.as_object_mut(), more.as_object()) {
        fields.extend(more.clone());
    }
    let (status, answer) = api(port, "POST", "/api/v1/games", token, &body);
    assert_eq!(status, 201, "{answer}");
    serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// An API token of the account `email`, got the way the load tool gets one (the sign-in
/// form, then the token page).
pub(crate) fn api_token(port: u16, email: &str, password: &str) -> String {
    let token = Command::new(env!("CARGO_BIN_EXE_damka-load"))
        .args(["--url", &format!("http://127.0.0.1:{port}/")])
        .args(["--login", &format!("{email}:{password}"), "--print-token"])
        .output()
        .unwrap();
    assert!(
        token.status.success(),
        "{}",
        String::from_utf8_lossy(&token.stderr)
    );
    String::from_utf8(token.stdout).unwrap().trim().to_string()
}

/// A Server-Sent Events client over a real socket: a thread reads the stream (HTTP/1.1
/// chunked) and hands over each event with the moment it arrived.
struct LiveClient {
    events: std::sync::mpsc::Receiver<(Instant, String, Option<String>, serde_json::Value)>,
    stream: TcpStream,
}

impl LiveClient {
    fn connect(port: u16, path: &str, last_event_id: Option<i64>) -> LiveClient {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n");
        if let Some(id) = last_event_id {
            request.push_str(&format!("Last-Event-ID: {id}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let reader = stream.try_clone().unwrap();
        let (sender, events) = std::sync::mpsc::channel();
        std::thread::spawn(move || read_events(reader, &sender));
        LiveClient { events, stream }
    }

    /// The next event, which must be `event` and arrive within `within`.
    fn expect(
        &self,
        event: &str,
        within: Duration,
    ) -> (Instant, Option<String>, serde_json::Value) {
        let (at, name, id, data) = self
            .events
            .recv_timeout(within)
            .unwrap_or_else(|e| panic!("no `{event}` event within {within:?}: {e}"));
        assert_eq!(name, event, "{data}");
        (at, id, data)
    }

    fn assert_quiet(&self, quiet: Duration) {
        if let Ok((_, name, id, _)) = self.events.recv_timeout(quiet) {
            panic!("no event expected, got `{name}` id {id:?}");
        }
    }
}

impl Drop for LiveClient {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

type LiveEvent = (Instant, String, Option<String>, serde_json::Value);

fn read_events(mut stream: TcpStream, sender: &std::sync::mpsc::Sender<LiveEvent>) {
    let mut raw: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    let mut body = String::new();
    let mut headers_done = false;
    loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        raw.extend_from_slice(&chunk[..n]);
        if !headers_done {
            let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&raw[..end]).to_string();
            assert!(head.starts_with("HTTP/1.1 200"), "{head}");
            assert!(
                head.to_lowercase().contains("transfer-encoding: chunked"),
                "{head}"
            );
            raw.drain(..end + 4);
            headers_done = true;
        }
        // Chunked transfer: `<hex size>\r\n<data>\r\n` until the whole chunk is in.
        while let Some(line_end) = raw.windows(2).position(|w| w == b"\r\n") {
            let size_text = String::from_utf8_lossy(&raw[..line_end]).to_string();
            let size = usize::from_str_radix(size_text.trim(), 16).unwrap();
            if raw.len() < line_end + 2 + size + 2 {
                break;
            }
            body.push_str(std::str::from_utf8(&raw[line_end + 2..line_end + 2 + size]).unwrap());
            raw.drain(..line_end + 2 + size + 2);
        }
        let at = Instant::now();
        while let Some(end) = body.find("\n\n") {
            let block: String = body.drain(..end + 2).collect();
            let (mut name, mut id, mut data) = (String::new(), None, None);
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    name = v.to_string();
                } else if let Some(v) = line.strip_prefix("id: ") {
                    id = Some(v.to_string());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data = Some(serde_json::from_str(v).unwrap());
                }
            }
            if let Some(data) = data
                && sender.send((at, name, id, data)).is_err()
            {
                return;
            }
        }
    }
}

/// Live play across instances: a spectator on instance A sees a move made through instance
/// B within a second (through PostgreSQL's NOTIFY and A's listener), and after a
/// disconnect, a reconnect with `Last-Event-ID` gets exactly the plies it missed.
#[test]
fn a_move_on_one_instance_reaches_a_watcher_on_another() {
    if !postgres_or_skip() {
        return;
    }
    let db = common::TestDatabase::new_postgres();
    let url = db.url.target.clone();
    let a = Server::start(&url);
    let b = Server::start(&url);
    create_admin(&url, "arbiter@club.org", "arbiter-password-1");
    let token = api_token(b.port, "arbiter@club.org", "arbiter-password-1");
    let players = api_players(b.port, &token, ["Ivanov", "Petrov"]);
    let game = api_game(b.port, &token, &players, serde_json::json!({}));
    let stream = format!("/api/v1/games/{game}/stream");
    let line = ["c3-d4", "f6-g5", "g3-f4", "g7-f6", "b2-c3"];
    // The arbiter enters the moves of both sides through B.
    let play = |ply: usize| {
        let (status, body) = api(
            b.port,
            "POST",
            &format!("/api/v1/games/{game}/moves"),
            &token,
            &serde_json::json!({"ply": ply, "move": line[ply - 1]}),
        );
        assert_eq!(status, 201, "ply {ply}: {body}");
        Instant::now()
    };

    let watcher = LiveClient::connect(a.port, &stream, None);
    let (_, id, state) = watcher.expect("state", Duration::from_secs(5));
    assert_eq!(
        (id.as_deref(), &state["ply"]),
        (Some("0"), &serde_json::json!(0))
    );
    for ply in 1..=2 {
        let stored = play(ply);
        let (at, id, mv) = watcher.expect("move", Duration::from_secs(1));
        assert_eq!(id, Some(ply.to_string()));
        assert_eq!(mv["move"], line[ply - 1]);
        // The event may even arrive before the 201 is read; it never lags a second behind.
        assert!(
            at.saturating_duration_since(stored) < Duration::from_secs(1),
            "ply {ply} reached A {:?} after B stored it",
            at.saturating_duration_since(stored)
        );
        let (_, id, state) = watcher.expect("state", Duration::from_secs(1));
        assert_eq!(
            (id, &state["ply"]),
            (Some(ply.to_string()), &serde_json::json!(ply))
        );
    }
    drop(watcher);

    // Three plies while the watcher is away; it comes back to A having seen ply 2.
    for ply in 3..=5 {
        play(ply);
    }
    let back = LiveClient::connect(a.port, &stream, Some(2));
    for ply in 3..=5 {
        let (_, id, mv) = back.expect("move", Duration::from_secs(5));
        assert_eq!(
            (id, &mv["move"]),
            (Some(ply.to_string()), &serde_json::json!(line[ply - 1]))
        );
    }
    let (_, id, state) = back.expect("state", Duration::from_secs(1));
    assert_eq!(
        (id.as_deref(), &state["ply"]),
        (Some("5"), &serde_json::json!(5))
    );
    back.assert_quiet(Duration::from_millis(500));

    // The listening connections are cut (as by a server restart): they reconnect by
    // themselves (only this test's database's: other tests run instances on the same
    // server at the same time), and the next move made through B still reaches the watcher on A.
    use diesel::Connection;
    use diesel::connection::SimpleConnection;
    let mut admin = diesel::PgConnection::establish(&url).unwrap();
    let listeners = |admin: &mut diesel::PgConnection| -> i64 {
        use diesel::RunQueryDsl;
        diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(&format!(
            "(SELECT count(*) FROM pg_stat_activity WHERE application_name = '{}' \
             AND datname = current_database())",
            damka::service::live::LISTENER_NAME
        )))
        .get_result(admin)
        .unwrap()
    };
    assert_eq!(
        listeners(&mut admin),
        2,
        "each instance listens from its start"
    );
    admin
        .batch_execute(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '{}' \
             AND datname = current_database()",
            damka::service::live::LISTENER_NAME
        ))
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (status, body) = api(
        b.port,
        "POST",
        &format!("/api/v1/games/{game}/moves"),
        &token,
        &serde_json::json!({"ply": 6, "move": "g5-h4"}),
    );
    assert_eq!(status, 201, "{body}");
    let (_, id, mv) = back.expect("move", Duration::from_secs(5));
    assert_eq!(
        (id.as_deref(), &mv["move"]),
        (Some("6"), &serde_json::json!("g5-h4"))
    );
    back.expect("state", Duration::from_secs(1));
    assert_eq!(listeners(&mut admin), 2, "both listen again");
    drop(admin);
    drop((a, b));
}

/// A server told to stop (SIGTERM, as systemd and container runtimes do) ends its live
/// streams and stops at once, instead of waiting out the shutdown timeout (30 s) for
/// watchers that would never leave by themselves.
#[test]
fn stopping_the_server_ends_its_live_streams() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("live.db").display());
    let mut server = Server::start(&url);
    create_admin(&url, "arbiter@club.org", "arbiter-password-1");
    let token = api_token(server.port, "arbiter@club.org", "arbiter-password-1");
    let players = api_players(server.port, &token, ["Ivanov", "Petrov"]);
    let game = api_game(server.port, &token, &players, serde_json::json!({}));
    let watcher = LiveClient::connect(server.port, &format!("/api/v1/games/{game}/stream"), None);
    watcher.expect("state", Duration::from_secs(5));

    let stopping = Instant::now();
    let sent = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let deadline = stopping + Duration::from_secs(10);
    while server.child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the server still runs 10 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The stream ended (the reading thread saw the end and let go of its channel).
    match watcher.events.recv_timeout(Duration::from_secs(1)) {
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {}
        other => panic!("the stream did not end: {other:?}"),
    }
}

/// `--log-format json`: one JSON object per line, and every answer's `x-request-id` is in
/// the log, on the request's line with its method, path and status.
#[test]
fn json_logs_carry_each_answers_request_id() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("sqlite://{}", dir.path().join("logs.db").display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .args([
            "--database-url",
            &url,
            "--log-format",
            "json",
            "--workers",
            "1",
        ])
        .env("RUST_LOG", "info")
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Readiness: minutes, as a busy 2-core machine needs.
    let deadline = Instant::now() + Duration::from_secs(300);
    while http(port, "GET", "/healthz", &BTreeMap::new(), None).is_err() {
        assert!(Instant::now() < deadline, "damka serve did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    for (path, status) in [("/no-such-page", 404), ("/login", 200)] {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let id = answer
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("x-request-id: ")
                    .map(str::to_string)
            })
            .unwrap_or_else(|| panic!("no x-request-id on {path}: {answer}"));
        let found = loop {
            let text = std::fs::read_to_string(&log).unwrap();
            let line = text.lines().find_map(|line| {
                let entry: serde_json::Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("a log line is not JSON ({e}): {line}"));
                (entry["span"]["request_id"] == id.as_str()).then_some(entry)
            });
            if let Some(entry) = line {
                break entry;
            }
            assert!(
                Instant::now() < deadline,
                "request id {id} of {path} is not in the log:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(found["fields"]["status"], status, "{found}");
        assert_eq!(found["span"]["http.method"], "GET", "{found}");
        assert_eq!(found["span"]["http.target"], path, "{found}");
    }
    let _ = child.kill();
    let _ = child.wait();
}
