//! The site in a real browser: headless Chromium, driven over WebDriver (chromedriver),
//! against a real `damka serve` process. JavaScript is switched off in the browser, as
//! the pages must work without it: every step is a link, a form or a button.
//!
//! Chromium and chromedriver come from Debian (`apt-get install chromium chromium-driver`).
//! When they are missing the test fails in CI (`CI` set) and is skipped, with a printed
//! reason, elsewhere. The database is SQLite, or PostgreSQL with
//! `DAMKA_TEST_DATABASE=postgres` (see `tests/integration/common`). A screenshot of the last page is
//! saved in the test's temporary directory and, when `DAMKA_SCREENSHOT_DIR` is set, copied
//! there (on failure too, with the page's HTML next to it).
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::common;

use std::fs::File;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use tempfile::TempDir;

pub(crate) const ARBITER_EMAIL: &str = "arbiter@club.example";
pub(crate) const ARBITER_PASSWORD: &str = "arbiter-secret-1";

/// The longest any single wait in this test may take: minutes, because a debug server
/// seeding the demo on a busy 2-core machine (other tests, Chromium) took more than 20 s.
pub(crate) const WAIT: Duration = Duration::from_secs(300);
/// The whole browser session, from connecting to chromedriver to the last screenshot.
pub(crate) const WHOLE_FLOW: Duration = Duration::from_secs(900);

const CHROMIUM_CANDIDATES: &[&str] = &["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const CHROMEDRIVER_CANDIDATES: &[&str] = &["/usr/bin/chromedriver"];

/// `CI` set to anything but an empty string, `0` or `false`.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The first existing path among `candidates`, then `name` on `PATH`.
fn find_program(candidates: &[&str], name: &str) -> Option<PathBuf> {
    candidates
        .iter()
        .map(PathBuf::from)
        .chain(
            std::env::var_os("PATH")
                .map(|p| {
                    std::env::split_paths(&p)
                        .map(|d| d.join(name))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default(),
        )
        .find(|p| p.is_file())
}

/// One GET over a fresh connection; the status code and body, or `None` on any error.
pub(crate) fn http_get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    // chromedriver keeps the connection open despite `Connection: close`: read until the
    // body announced by `Content-Length` is complete.
    let mut raw = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).ok()?;
        raw.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&raw);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            });
            if n == 0 || length.is_some_and(|len| body.len() >= len) {
                let status = head.split_whitespace().nth(1)?.parse().ok()?;
                return Some((status, body.to_string()));
            }
        }
        if n == 0 {
            return None;
        }
    }
}

/// A child process that is killed when dropped, with its output in a log file.
pub(crate) struct Process {
    name: &'static str,
    child: Child,
    log: PathBuf,
}

impl Process {
    pub(crate) fn spawn(name: &'static str, command: &mut Command, log: PathBuf) -> Process {
        let out = File::create(&log).unwrap();
        let child = command
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name} ({command:?}): {e}"));
        Process { name, child, log }
    }

    /// Polls until `ready` answers true; panics with the log after `WAIT` or if the
    /// process exits.
    pub(crate) fn wait_until(&mut self, what: &str, ready: impl Fn() -> bool) {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if ready() {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "{} exited ({status}) before {what}:\n{}",
                    self.name,
                    self.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!(
            "{} not ready within {WAIT:?} ({what}):\n{}",
            self.name,
            self.log_text()
        );
    }

    pub(crate) fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Chromium and chromedriver, or `None` (with the reason printed) where they are missing
/// outside CI; in CI their absence fails the test.
pub(crate) fn browser_programs() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program(CHROMIUM_CANDIDATES, "chromium");
    let chromedriver = find_program(CHROMEDRIVER_CANDIDATES, "chromedriver");
    if let (Some(chromium), Some(chromedriver)) = (&chromium, &chromedriver) {
        return Some((chromium.clone(), chromedriver.clone()));
    }
    let missing: Vec<&str> = [
        ("chromium", chromium.is_none()),
        ("chromedriver", chromedriver.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, missing)| missing.then_some(name))
    .collect();
    let reason = format!(
        "{} not found (apt-get install -y chromium chromium-driver)",
        missing.join(" and ")
    );
    if in_ci() {
        panic!("{reason}; CI must run the browser test");
    }
    eprintln!("SKIPPED: {reason}");
    None
}

/// The club's arbiter: an administrator made on the command line, as a new site does.
pub(crate) fn create_arbiter(database_url: &str) {
    let mut admin = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args([
            "admin",
            "create",
            "--email",
            ARBITER_EMAIL,
            "--name",
            "Club Arbiter",
            "--password-stdin",
            "--database-url",
            database_url,
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("damka admin create");
    admin
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{ARBITER_PASSWORD}\n").as_bytes())
        .unwrap();
    let made = admin.wait_with_output().unwrap();
    assert!(
        made.status.success(),
        "damka admin create failed: {}",
        String::from_utf8_lossy(&made.stderr)
    );
}

/// `damka serve` on a free port, healthy; returns the process and its port.
pub(crate) fn start_server(database_url: &str, dir: &Path) -> (Process, u16) {
    let server_port = free_port();
    let mut server = Process::spawn(
        "damka serve",
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args([
                "serve",
                "--bind",
                &format!("127.0.0.1:{server_port}"),
                "--database-url",
                database_url,
                "--workers",
                "1",
            ])
            .env("NO_COLOR", "1"),
        dir.join("server.log"),
    );
    server.wait_until("/healthz answered 200", || {
        http_get(server_port, "/healthz").is_some_and(|(status, _)| status == 200)
    });
    (server, server_port)
}

/// chromedriver on a free port, ready; returns the process and its port.
pub(crate) fn start_driver(chromedriver: &Path, dir: &Path) -> (Process, u16) {
    let driver_port = free_port();
    let mut driver = Process::spawn(
        "chromedriver",
        Command::new(chromedriver).args([
            format!("--port={driver_port}"),
            "--allowed-ips=127.0.0.1".to_string(),
        ]),
        dir.join("chromedriver.log"),
    );
    driver.wait_until("/status said ready", || {
        http_get(driver_port, "/status")
            .is_some_and(|(status, body)| status == 200 && body.contains("\"ready\":true"))
    });
    (driver, driver_port)
}

/// Headless Chromium with a fresh profile in `profile`; `scripts` says whether pages may
/// run JavaScript.
pub(crate) fn chromium_capabilities(
    chromium: &Path,
    profile: &Path,
    scripts: bool,
) -> serde_json::Map<String, serde_json::Value> {
    let mut prefs = json!({ "intl.accept_languages": "en-US,en" });
    if !scripts {
        // The site must work without scripts: block them for every page.
        prefs["profile.managed_default_content_settings.javascript"] = json!(2);
    }
    let capabilities = json!({
        "browserName": "chrome",
        "pageLoadStrategy": "normal",
        "timeouts": { "pageLoad": 20_000, "script": 20_000, "implicit": 0 },
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,900",
                "--lang=en-US",
                format!("--user-data-dir={}", profile.display()),
            ],
            "prefs": prefs,
        },
    });
    match capabilities {
        serde_json::Value::Object(capabilities) => capabilities,
        _ => unreachable!(),
    }
}

/// A runtime for a browser test's async part, on this thread.
pub(crate) fn block_on<T>(flow: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(flow)
}

/// A new browser session of the chromedriver at `driver_port`, within `WAIT`.
pub(crate) async fn open_session(
    driver_port: u16,
    capabilities: serde_json::Map<String, serde_json::Value>,
) -> Result<Client> {
    tokio::time::timeout(
        WAIT,
        ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{driver_port}")),
    )
    .await
    .context("connecting to chromedriver timed out")?
    .context("chromedriver refused the session")
}

/// Waits up to `limit` for `flow`, run in `client`'s session; if it fails (or takes too
/// long), what the session shows is kept as `failure` in `dir`. The session is closed
/// either way.
pub(crate) async fn run_session(
    client: &Client,
    dir: &Path,
    limit: Duration,
    flow: impl Future<Output = Result<()>>,
) -> Result<()> {
    let result = match tokio::time::timeout(limit, flow).await {
        Ok(result) => result,
        Err(_) => Err(anyhow::anyhow!(
            "the browser flow took longer than {limit:?}"
        )),
    };
    if let Err(e) = &result {
        // Leave evidence behind: what the browser showed when it went wrong.
        let _ = tokio::time::timeout(WAIT, save_evidence(client, dir, "failure")).await;
        eprintln!("browser flow failed: {e:#}");
    }
    let _ = tokio::time::timeout(WAIT, client.clone().close()).await;
    result
}

/// The end of a browser test: stops chromedriver and the server; if `outcome` is an error,
/// keeps `dir` (the evidence) and panics with the error and the server's log.
pub(crate) fn finish(outcome: Result<()>, server: Process, driver: Process, dir: TempDir) {
    drop(driver);
    if let Err(e) = outcome {
        let server_log = server.log_text();
        drop(server);
        // Keep the screenshots, the pages and the logs for a look afterwards.
        let kept = dir.keep();
        panic!(
            "{e:#}\n(evidence kept in {})\n--- damka serve log ---\n{server_log}",
            kept.display()
        );
    }
}

#[test]
fn a_visitor_registers_switches_language_makes_a_token_and_signs_in_again() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::TestDatabase::new();
    create_arbiter(&db.url.target);
    let (server, server_port) = start_server(&db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let capabilities =
        chromium_capabilities(&chromium, &dir.path().join("chromium-profile"), false);

    let base = format!("http://127.0.0.1:{server_port}");
    let shots = dir.path().to_path_buf();
    let outcome: Result<()> = block_on(async {
        let client = open_session(driver_port, capabilities).await?;
        run_session(&client, &shots, WHOLE_FLOW, flow(&client, &base, &shots)).await
    });
    finish(outcome, server, driver, dir);
    drop(db);
}

/// The whole visit, as a person would do it with a mouse and a keyboard.
async fn flow(c: &Client, base: &str, shots: &Path) -> Result<()> {
    let started = Instant::now();

    // Scripts are off: an inline script must not run.
    c.goto("data:text/html,<title>js-off</title><script>document.title='js-on'</script>")
        .await?;
    ensure!(
        c.title().await? == "js-off",
        "JavaScript is not switched off in the browser"
    );

    // 1. The home page, in English (the browser asks for en-US), with the SVG board.
    c.goto(&format!("{base}/")).await?;
    wait_for(c, r#"html[lang="en"]"#).await?;
    let title = c.title().await?;
    ensure!(
        title == "Draughts club service · damka",
        "home page title: {title:?}"
    );
    let board = wait_for(c, "section.hero svg").await?;
    let (_, _, width, height) = board.rectangle().await?;
    ensure!(
        width > 100.0 && height > 100.0,
        "the board is not drawn at a visible size: {width}x{height}"
    );
    let squares = c.find_all(Locator::Css("section.hero svg rect")).await?;
    ensure!(
        squares.len() >= 64,
        "the board has {} squares",
        squares.len()
    );
    expect_text(c, "nav.main", "Players").await?;

    // 6. A validation error shows inline, next to its field; what was typed is kept
    //    (except the password).
    click(c, r#".user-box a[href="/register"]"#).await?;
    wait_path(c, "/register").await?;
    type_into(
        c,
        r#"form[action="/register"] input[name="email"]"#,
        "not-an-email",
    )
    .await?;
    type_into(
        c,
        r#"form[action="/register"] input[name="display_name"]"#,
        "Browser Tester",
    )
    .await?;
    type_into(
        c,
        r#"form[action="/register"] input[name="password"]"#,
        "browser-secret-1",
    )
    .await?;
    click(c, r#"form[action="/register"] button[type="submit"]"#).await?;
    let error = wait_for(
        c,
        r#"form[action="/register"] input[name="email"][aria-invalid="true"] + .field-error"#,
    )
    .await?;
    let message = error.text().await?;
    ensure!(
        message.contains("e-mail"),
        "the e-mail error says {message:?}"
    );
    let errors = c.find_all(Locator::Css(".field-error")).await?;
    ensure!(
        errors.len() == 1,
        "{} error messages on the page",
        errors.len()
    );
    ensure!(
        value_of(c, r#"input[name="display_name"]"#).await? == "Browser Tester",
        "the display name was not kept"
    );
    ensure!(
        value_of(c, r#"input[name="password"]"#).await?.is_empty(),
        "the password was sent back to the browser"
    );

    // 2. Correct the e-mail and register: the account page greets the new user.
    type_into(
        c,
        r#"form[action="/register"] input[name="email"]"#,
        "browser@club.example",
    )
    .await?;
    type_into(
        c,
        r#"form[action="/register"] input[name="password"]"#,
        "browser-secret-1",
    )
    .await?;
    click(c, r#"form[action="/register"] button[type="submit"]"#).await?;
    wait_path(c, "/account").await?;
    expect_text(c, ".flash.ok", "Welcome! Your account is ready.").await?;
    expect_text(c, r#".user-box a[href="/account"]"#, "Browser Tester").await?;
    expect_text(c, "dl.facts", "browser@club.example").await?;

    // 3. The language switch: Russian, on the same page, then back to English.
    click(c, r#"form.lang-switch button[name="lang"][value="ru"]"#).await?;
    wait_for(c, r#"html[lang="ru"]"#).await?;
    wait_path(c, "/account").await?;
    expect_text(c, "nav.main", "Игроки").await?;
    expect_text(c, "h1", "Ваша учётная запись").await?;
    wait_for(
        c,
        r#"form.lang-switch button[value="ru"][aria-pressed="true"]"#,
    )
    .await?;
    click(c, r#"form.lang-switch button[name="lang"][value="en"]"#).await?;
    wait_for(c, r#"html[lang="en"]"#).await?;
    wait_path(c, "/account").await?;
    expect_text(c, "nav.main", "Players").await?;
    wait_for(
        c,
        r#"form.lang-switch button[value="en"][aria-pressed="true"]"#,
    )
    .await?;

    // 4. An API token: shown once, listed by name afterwards.
    type_into(
        c,
        r#"form[action="/account/tokens"] input[name="name"]"#,
        "scoreboard",
    )
    .await?;
    click(c, r#"form[action="/account/tokens"] button[type="submit"]"#).await?;
    let token = wait_for(c, "#new-token").await?.text().await?;
    ensure!(
        token.trim().len() >= 20,
        "the new token looks too short: {token:?}"
    );
    expect_text(c, ".table-wrap table", "scoreboard").await?;
    c.goto(&format!("{base}/account")).await?;
    wait_path(c, "/account").await?;
    expect_text(c, ".table-wrap table", "scoreboard").await?;
    ensure!(
        c.find_all(Locator::Css("#new-token")).await?.is_empty(),
        "the token is shown again after a reload"
    );
    let source = c.source().await?;
    ensure!(
        !source.contains(token.trim()),
        "the account page still contains the token"
    );

    // 5. Sign out with the header button, then sign in again through /login.
    click(c, r#".user-box form[action="/logout"] button"#).await?;
    wait_path(c, "/").await?;
    expect_text(c, ".flash.ok", "You are signed out.").await?;
    ensure!(
        c.find_all(Locator::Css(r#".user-box form[action="/logout"]"#))
            .await?
            .is_empty(),
        "the sign-out button is still there after signing out"
    );
    c.goto(&format!("{base}/account")).await?;
    ensure!(
        c.find_all(Locator::Css("#new-token, dl.facts"))
            .await?
            .is_empty(),
        "the account page is visible after signing out"
    );

    click(c, r#".user-box a[href="/login"]"#).await?;
    wait_path(c, "/login").await?;
    // A wrong password first: the error sits next to the password field.
    type_into(
        c,
        r#"form[action="/login"] input[name="email"]"#,
        "browser@club.example",
    )
    .await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        "not-my-password",
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_for(
        c,
        r#"form[action="/login"] input[name="password"][aria-invalid="true"] + .field-error"#,
    )
    .await?;
    ensure!(
        value_of(c, r#"form[action="/login"] input[name="email"]"#).await?
            == "browser@club.example",
        "the e-mail was not kept after a failed sign-in"
    );
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        "browser-secret-1",
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(c, "/").await?;
    expect_text(c, ".flash.ok", "You are signed in.").await?;
    // The home page as a signed-in user sees it, flash and board, for reviewers.
    save_evidence(c, shots, "browser-home").await?;
    click(c, r#".user-box a[href="/account"]"#).await?;
    wait_path(c, "/account").await?;
    expect_text(c, "dl.facts", "Browser Tester").await?;
    expect_text(c, ".table-wrap table", "scoreboard").await?;

    // 7. A picture of the end state for reviewers.
    save_evidence(c, shots, "browser-end").await?;

    // 8. The arbiter runs an event: players, a round, and a pairing changed by hand.
    click(c, r#".user-box form[action="/logout"] button"#).await?;
    wait_path(c, "/").await?;
    event_flow(c, base, shots).await?;
    eprintln!(
        "browser flow passed in {:.1} s{}",
        started.elapsed().as_secs_f64(),
        if std::env::var_os("DAMKA_SCREENSHOT_DIR").is_some() {
            ""
        } else {
            " (set DAMKA_SCREENSHOT_DIR=DIR to keep the screenshots)"
        }
    );
    Ok(())
}

/// The arbiter signs in, makes four player profiles and a Swiss event, enters them, pairs
/// round 1, reverses the colours of board 1 on the pairing form (selects, no scripts),
/// checks (the broken colour rule is named), saves, and finds the warning with the round.
async fn event_flow(c: &Client, base: &str, shots: &Path) -> Result<()> {
    c.goto(&format!("{base}/login")).await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="email"]"#,
        ARBITER_EMAIL,
    )
    .await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        ARBITER_PASSWORD,
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(c, "/").await?;
    for name in [
        "Anna Alekseeva",
        "Boris Belov",
        "Vera Volkova",
        "Gleb Gusev",
    ] {
        c.goto(&format!("{base}/players/new")).await?;
        type_into(c, r#"form[action="/players"] input[name="name"]"#, name).await?;
        click(c, r#"form[action="/players"] button[type="submit"]"#).await?;
        expect_text(c, "h1", name).await?;
    }
    c.goto(&format!("{base}/events")).await?;
    click(c, r#"a[href="/events/new"]"#).await?;
    wait_path(c, "/events/new").await?;
    type_into(c, r#"form input[name="name"]"#, "Browser Swiss").await?;
    type_into(c, r#"form input[name="rounds"]"#, "3").await?;
    click(c, r#"form[action="/events"] button[type="submit"]"#).await?;
    expect_text(c, "h1", "Browser Swiss").await?;
    let event_path = c.current_url().await?.path().to_string();
    for _ in 0..4 {
        c.goto(&format!("{base}{event_path}?tab=entries")).await?;
        let select = wait_for(c, r#"form[action$="/entries"] select[name="player_id"]"#).await?;
        let options = select.find_all(Locator::Css("option")).await?;
        let value = match options.first() {
            Some(option) => option.attr("value").await?.unwrap_or_default(),
            None => bail!("no player left to enter"),
        };
        select.select_by_value(&value).await?;
        click(c, r#"form[action$="/entries"] button[type="submit"]"#).await?;
        // The entries tab is at the same path: wait for the answer's flash, not the URL.
        expect_text(c, ".flash.ok", "Saved.").await?;
    }
    c.goto(&format!("{base}{event_path}?tab=rounds")).await?;
    click(c, &format!(r#"form[action="{event_path}/rounds"] button"#)).await?;
    expect_text(c, "main", "Round 1").await?;
    click(c, &format!(r#"a[href="{event_path}/rounds/1/pairing"]"#)).await?;
    wait_path(c, &format!("{event_path}/rounds/1/pairing")).await?;

    // Reverse board 1: White's player goes to Black and the other way round.
    let white = value_of(c, r#"select[name="white_1"]"#).await?;
    let black = value_of(c, r#"select[name="black_1"]"#).await?;
    ensure!(
        !white.is_empty() && !black.is_empty(),
        "board 1 is not preselected"
    );
    wait_for(c, r#"select[name="white_1"]"#)
        .await?
        .select_by_value(&black)
        .await?;
    wait_for(c, r#"select[name="black_1"]"#)
        .await?
        .select_by_value(&white)
        .await?;
    click(c, r#"button[name="action"][value="check"]"#).await?;
    expect_text(
        c,
        "#warnings",
        "Board 1: the colour allocation rules (C.04.3 E) give White to",
    )
    .await?;
    ensure!(
        value_of(c, r#"select[name="white_1"]"#).await? == black,
        "the checked pairing was not kept in the form"
    );
    save_evidence(c, shots, "browser-pairing-check").await?;
    click(c, r#"button[name="action"][value="save"]"#).await?;
    wait_path(c, &event_path).await?;
    expect_text(c, ".flash.ok", "The pairing was changed.").await?;
    expect_text(
        c,
        ".pairing-change",
        "Pairing changed by hand by Club Arbiter",
    )
    .await?;
    expect_text(c, ".pairing-change", "give White to").await?;
    save_evidence(c, shots, "browser-rounds").await?;

    // Publishing gives every board its game; the arbiter records a move with the text form
    // (scripts are off), and the game's move list shows it.
    click(
        c,
        &format!(r#"form[action="{event_path}/rounds/publish"] button"#),
    )
    .await?;
    expect_text(c, ".flash.ok", "Saved.").await?;
    click(c, "a.game-link").await?;
    wait_for(c, "form.move-form").await?;
    type_into(c, r#"form.move-form input[name="move"]"#, "c3d4").await?;
    click(c, r#"form.move-form button[type="submit"]"#).await?;
    expect_text(c, ".move-list", "c3-d4").await?;
    expect_text(c, ".game-turn", "Black to move").await?;
    save_evidence(c, shots, "browser-game").await?;
    Ok(())
}

/// Waits up to `WAIT` for an element matching `css`.
pub(crate) async fn wait_for(c: &Client, css: &str) -> Result<fantoccini::elements::Element> {
    match c.wait().at_most(WAIT).for_element(Locator::Css(css)).await {
        Ok(element) => Ok(element),
        Err(e) => bail!("no `{css}` on {} within {WAIT:?}: {e}", here(c).await),
    }
}

/// Waits up to `WAIT` for the browser to be at `path` (query and fragment ignored).
pub(crate) async fn wait_path(c: &Client, path: &str) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        let url = c.current_url().await?;
        if url.path() == path {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("expected to be at {path}, still at {url} after {WAIT:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits up to `WAIT` for the element at `css` to contain `expected` in its visible text.
pub(crate) async fn expect_text(c: &Client, css: &str, expected: &str) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        let seen = match c.find(Locator::Css(css)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if seen.contains(expected) {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(
                "expected `{css}` to contain {expected:?} on {}, it shows {seen:?}",
                here(c).await
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn click(c: &Client, css: &str) -> Result<()> {
    wait_for(c, css)
        .await?
        .click()
        .await
        .with_context(|| format!("clicking `{css}`"))?;
    Ok(())
}

/// Replaces the content of the input at `css` by typing `text` into it.
pub(crate) async fn type_into(c: &Client, css: &str, text: &str) -> Result<()> {
    let input = wait_for(c, css).await?;
    input.clear().await?;
    input
        .send_keys(text)
        .await
        .with_context(|| format!("typing into `{css}`"))?;
    Ok(())
}

pub(crate) async fn value_of(c: &Client, css: &str) -> Result<String> {
    Ok(wait_for(c, css)
        .await?
        .prop("value")
        .await?
        .unwrap_or_default())
}

/// The current URL, for error messages.
pub(crate) async fn here(c: &Client) -> String {
    match c.current_url().await {
        Ok(url) => url.to_string(),
        Err(e) => format!("(unknown page: {e})"),
    }
}

/// Saves a screenshot (and, for failures, the HTML) as `name`.png in `dir`, copies them
/// to `DAMKA_SCREENSHOT_DIR` when that is set.
pub(crate) async fn save_evidence(c: &Client, dir: &Path, name: &str) -> Result<()> {
    let png = c.screenshot().await.context("taking a screenshot")?;
    ensure!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
    let mut files = vec![(dir.join(format!("{name}.png")), png)];
    if name == "failure" {
        let html = c.source().await.unwrap_or_default();
        let url = c
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default();
        eprintln!("the browser was at {url}");
        files.push((
            dir.join(format!("{name}.html")),
            format!("<!-- {url} -->\n{html}").into_bytes(),
        ));
    }
    for (path, bytes) in &files {
        std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(out) = std::env::var_os("DAMKA_SCREENSHOT_DIR") {
        let out = PathBuf::from(out);
        std::fs::create_dir_all(&out)?;
        for (path, _) in &files {
            let target = out.join(path.file_name().unwrap());
            std::fs::copy(path, &target)
                .with_context(|| format!("copying to {}", target.display()))?;
            eprintln!("saved {}", target.display());
        }
    }
    Ok(())
}

/// Live pages with scripts on: the arbiter and a spectator have one game open in two
/// browser sessions; a move the arbiter plays by clicking the board appears on the
/// spectator's page without a reload, and clocks on the page tick.
#[test]
fn a_move_clicked_in_one_browser_appears_in_another_without_reload() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::TestDatabase::new();
    create_arbiter(&db.url.target);
    let (server, server_port) = start_server(&db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());

    // A game between two player profiles, made over the API by the arbiter.
    let token = crate::processes::api_token(server_port, ARBITER_EMAIL, ARBITER_PASSWORD);
    let players = crate::processes::api_players(server_port, &token, ["Ivanov", "Petrov"]);
    let game = crate::processes::api_game(
        server_port,
        &token,
        &players,
        json!({"clock": {"kind": "per_move", "base_s": 60}}),
    );

    let base = format!("http://127.0.0.1:{server_port}");
    let shots = dir.path().to_path_buf();
    let outcome: Result<()> = block_on(async {
        let mut sessions = Vec::new();
        for name in ["arbiter", "spectator"] {
            let capabilities =
                chromium_capabilities(&chromium, &dir.path().join(format!("profile-{name}")), true);
            sessions.push(open_session(driver_port, capabilities).await?);
        }
        let (arbiter, spectator) = (&sessions[0], &sessions[1]);
        let flow = tokio::time::timeout(
            WHOLE_FLOW,
            live_flow(arbiter, spectator, &base, game, &shots),
        )
        .await;
        let result = match flow {
            Ok(result) => result,
            Err(_) => Err(anyhow::anyhow!(
                "the browser flow took longer than {WHOLE_FLOW:?}"
            )),
        };
        if let Err(e) = &result {
            let _ = tokio::time::timeout(WAIT, save_evidence(spectator, &shots, "failure")).await;
            eprintln!("browser flow failed: {e:#}");
        }
        for client in sessions {
            let _ = tokio::time::timeout(WAIT, client.close()).await;
        }
        result
    });
    finish(outcome, server, driver, dir);
    drop(db);
}

async fn live_flow(
    arbiter: &Client,
    spectator: &Client,
    base: &str,
    game: i64,
    shots: &Path,
) -> Result<()> {
    let page = format!("{base}/games/{game}");
    // The arbiter signs in and opens the game; a spectator (not signed in) watches it.
    arbiter.goto(&format!("{base}/login")).await?;
    type_into(
        arbiter,
        r#"form[action="/login"] input[name="email"]"#,
        ARBITER_EMAIL,
    )
    .await?;
    type_into(
        arbiter,
        r#"form[action="/login"] input[name="password"]"#,
        ARBITER_PASSWORD,
    )
    .await?;
    click(arbiter, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(arbiter, "/").await?;
    arbiter.goto(&page).await?;
    wait_for(arbiter, ".game-play.playable").await?;
    spectator.goto(&page).await?;
    expect_text(spectator, ".game-turn", "White to move").await?;
    // A mark on the page: a reload would wipe it.
    spectator
        .execute("window.liveMark = 'still here'; return null;", vec![])
        .await?;

    // The arbiter plays c3-d4 by clicking the piece and its square.
    click(arbiter, r#".game-play svg [data-square="c3"]"#).await?;
    click(arbiter, r#".game-play svg [data-square="d4"]"#).await?;
    expect_text(arbiter, ".move-list", "c3-d4").await?;

    // The spectator's page shows it, without a reload.
    let shown = Instant::now();
    expect_text(spectator, ".move-list", "c3-d4").await?;
    expect_text(spectator, ".game-turn", "Black to move").await?;
    let waited = shown.elapsed();
    let mark = spectator
        .execute("return window.liveMark || null;", vec![])
        .await?;
    ensure!(
        mark == json!("still here"),
        "the spectator's page was reloaded (mark: {mark})"
    );
    ensure!(
        waited < Duration::from_secs(5),
        "the move took {waited:?} to appear"
    );
    save_evidence(spectator, shots, "browser-live").await?;

    // The game's clocks (60 s a move): Black's runs since White's first move and counts
    // down on the page by itself, White's stands.
    expect_text(spectator, ".game-clock:not(.running) time", "1:00").await?;
    expect_text(
        spectator,
        ".game-clock.running time[data-clock-running]",
        ":",
    )
    .await?;
    let started = Instant::now();
    // A page the browser does not show may have its timers slowed to once a second, so
    // the clock is waited for rather than read at a set moment.
    expect_text(spectator, ".game-clock.running time", "0:57").await?;
    let counted = started.elapsed();
    ensure!(
        counted >= Duration::from_millis(1500),
        "three seconds counted down in {counted:?}"
    );
    expect_text(spectator, ".game-clock:not(.running) time", "1:00").await?;
    Ok(())
}

/// What a page must not do on a narrow screen, measured in the page: the document wider
/// than the window (the page scrolls sideways), an element outside the window that is not
/// inside a table's own scrolling box, or text cut off (overflow hidden or an ellipsis);
/// inside a scrolling table, a cell whose text is clipped or a drop-down narrower than the
/// choice it shows (measured on a hidden copy at its natural width: the table could
/// scroll instead). One line per problem.
pub(crate) const LAYOUT_PROBLEMS: &str = r#"
const width = document.documentElement.clientWidth;
const problems = [];
if (document.documentElement.scrollWidth > width) {
  problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
}
const label = el => el.tagName.toLowerCase() + (el.className ? '.' + el.className : '') +
  ' "' + el.textContent.trim().slice(0, 40) + '"';
for (const el of document.querySelectorAll('main *')) {
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden') continue;
  const clipped = el.scrollWidth > el.clientWidth + 1 &&
    (style.textOverflow === 'ellipsis' || style.overflowX === 'hidden');
  if (el.closest('.table-wrap')) {
    if ((el.tagName === 'TD' || el.tagName === 'TH') && clipped) problems.push('cut: ' + label(el));
    continue;
  }
  if (el.closest('svg')) continue;
  const box = el.getBoundingClientRect();
  if (box.width > 0 && box.right > width + 1) problems.push('outside (' + Math.round(box.right) + '): ' + label(el));
  else if (clipped) problems.push('cut: ' + label(el));
}
for (const select of document.querySelectorAll('main .table-wrap select')) {
  const shown = select.options[select.selectedIndex];
  if (!shown || select.getClientRects().length === 0) continue;
  const natural = select.cloneNode(false);
  natural.appendChild(shown.cloneNode(true));
  natural.style.cssText = 'position:absolute;visibility:hidden;width:auto;min-width:0;max-width:none';
  select.parentNode.appendChild(natural);
  const needed = natural.getBoundingClientRect().width;
  natural.remove();
  if (select.getBoundingClientRect().width + 1 < needed) {
    problems.push('squeezed (' + Math.round(select.getBoundingClientRect().width) + ' of ' + Math.round(needed) + ' px): select "' + shown.text.trim().slice(0, 40) + '"');
  }
}
return problems.slice(0, 5);
"#;

/// What a print sheet must not do at the width of its paper: a table wider than the
/// sheet's body (a column off the page).
const SHEET_PROBLEMS: &str = r#"
const body = document.body.getBoundingClientRect();
const problems = [];
for (const table of document.querySelectorAll('table')) {
  const right = table.getBoundingClientRect().right;
  if (right > body.right + 1) problems.push('a table ends at ' + Math.round(right) + ' px, the sheet at ' + Math.round(body.right));
}
if (document.documentElement.scrollWidth > document.documentElement.clientWidth) {
  problems.push('the sheet is ' + document.documentElement.scrollWidth + ' px wide');
}
return problems;
"#;

/// Every kind of page of the demo club at 390 px (a phone) in both languages, and every
/// print sheet at the width of A4 in both languages: nothing sticks out, nothing is cut.
#[test]
fn every_page_fits_a_phone_and_every_sheet_fits_its_paper() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("demo.db").display());
    let server_port = free_port();
    let mut server = Process::spawn(
        "damka demo",
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["demo", "--bind", &format!("127.0.0.1:{server_port}")])
            .args(["--database-url", &database, "--workers", "1"])
            .env("NO_COLOR", "1"),
        dir.path().join("server.log"),
    );
    server.wait_until("/healthz answered 200", || {
        http_get(server_port, "/healthz").is_some_and(|(status, _)| status == 200)
    });
    // An administrator sees every action and page there is.
    create_arbiter(&database);
    // Event 3 of the demo is its micro-match Swiss with an IDF opening ballot (two rounds).
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{server_port}");
    let problems: Result<Vec<String>> = block_on(async {
        let mut problems = Vec::new();
        for (width, what) in [
            (390, "phone"),
            (1280, "wide"),
            (760, "A4"),
            (1123, "A4 landscape"),
        ] {
            let mut capabilities = chromium_capabilities(
                &chromium,
                &dir.path().join(format!("profile-{width}")),
                false,
            );
            capabilities["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": 900, "pixelRatio": 1, "touch": false, "mobile": false }
            });
            let client = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities)
                .connect(&format!("http://127.0.0.1:{driver_port}"))
                .await
                .context("chromedriver refused the session")?;
            let found = tokio::time::timeout(WHOLE_FLOW, layout_flow(&client, &base, width, what))
                .await
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the {what} pages took too long")));
            let _ = client.close().await;
            problems.extend(found?);
        }
        Ok(problems)
    });
    drop(driver);
    let problems = problems.unwrap_or_else(|e| panic!("{e:#}\n{}", server.log_text()));
    assert!(
        problems.is_empty(),
        "layout problems:\n{}",
        problems.join("\n")
    );
}

/// The pages issue 27 added (archiving and deleting, the site's trail, the archived events,
/// the invitation links on the entries tab, the casual game's form), checked at 1280 px as
/// well as on the phone.
const NEW_PAGES: [&str; 7] = [
    "/events/2/remove",
    "/players/1/remove",
    "/clubs/1/remove",
    "/admin/changes",
    "/events?archived=1",
    "/events/2?tab=entries",
    "/games/new",
];

/// Pages of issue 27 the phone's list has already (the "start here" list on the home page,
/// the club's bulk form, the searches), checked at 1280 px too.
const WIDE_TOO: [&str; 5] = [
    "/",
    "/clubs/1",
    "/events?q=open",
    "/ratings?q=a",
    "/players?q=a",
];

/// Makes an invitation link to event 2 on its entries tab and answers the path of its join
/// page, and the layout problems of the page that shows the new link.
async fn invitation_join_page(c: &Client, base: &str) -> Result<(String, Vec<String>)> {
    c.goto(&format!("{base}/events/2?tab=entries")).await?;
    click(
        c,
        r#"form[action="/events/2/invitations"] button[type="submit"]"#,
    )
    .await?;
    wait_for(c, "#invitation-link").await?;
    let found = c.execute(LAYOUT_PROBLEMS, vec![]).await?;
    let problems = found
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            format!(
                "the new invitation link: {}",
                p.as_str().unwrap_or_default()
            )
        })
        .collect();
    let url = c
        .find(fantoccini::Locator::Css("#invitation-link"))
        .await?
        .text()
        .await?;
    let path = url
        .find("/events/2/join/")
        .map(|at| url[at..].trim().to_string())
        .context("the created page shows the link")?;
    Ok((path, problems))
}

async fn layout_flow(c: &Client, base: &str, width: u32, what: &str) -> Result<Vec<String>> {
    c.goto(&format!("{base}/login")).await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="email"]"#,
        ARBITER_EMAIL,
    )
    .await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        ARBITER_PASSWORD,
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(c, "/").await?;
    // The demo: event 1 a finished round-robin, event 2 a Swiss in progress, event 3 a
    // Swiss of micro-matches.
    let mut created_problems = Vec::new();
    let (pages, check): (Vec<String>, &str) = if width == 390 {
        let mut pages: Vec<String> = [
            "/",
            "/events",
            "/players",
            "/players/1",
            "/clubs",
            "/clubs/1",
            "/account",
            "/admin",
            "/games/1",
            "/events/new",
            "/events/2/edit",
            "/events/2/changes",
            "/events/2/players/1",
            "/events/1/players/1",
            "/events/2/finish",
            "/ratings",
            "/ratings?system=elo",
            "/ratings/import",
            "/events/2/rounds/4/pairing",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect();
        pages.extend(NEW_PAGES.iter().map(|p| p.to_string()));
        let (join, problems) = invitation_join_page(c, base).await?;
        created_problems = problems;
        pages.push(join);
        // Event 3 plays micro-matches: both games and the opening on every board.
        pages.push("/events/3?tab=rounds&round=1".to_string());
        pages.push("/events/3/players/1".to_string());
        for event in [1, 2, 3] {
            for tab in ["info", "entries", "rounds", "standings", "crosstable"] {
                pages.push(format!("/events/{event}?tab={tab}"));
            }
        }
        (pages, LAYOUT_PROBLEMS)
    } else if width == 1280 {
        let mut pages: Vec<String> = NEW_PAGES
            .iter()
            .chain(WIDE_TOO.iter())
            .map(|p| p.to_string())
            .collect();
        let (join, problems) = invitation_join_page(c, base).await?;
        created_problems = problems;
        pages.push(join);
        (pages, LAYOUT_PROBLEMS)
    } else if width == 760 {
        let pages = [
            "/events/2/standings/print",
            "/events/1/standings/print",
            "/events/2/rounds/4/print",
            "/events/1/rounds/7/print",
            "/events/3/rounds/1/print",
            "/events/3/rounds/2/print",
            "/events/1/schedule/print",
            "/events/2/schedule/print",
        ];
        (
            pages.iter().map(|p| p.to_string()).collect(),
            SHEET_PROBLEMS,
        )
    } else {
        let pages = [
            "/events/2/crosstable/print",
            "/events/1/crosstable/print",
            "/events/3/crosstable/print",
        ];
        (
            pages.iter().map(|p| p.to_string()).collect(),
            SHEET_PROBLEMS,
        )
    };
    let mut problems: Vec<String> = created_problems
        .into_iter()
        .map(|p| format!("{what}: {p}"))
        .collect();
    for lang in ["en", "ru"] {
        c.goto(&format!("{base}/")).await?;
        click(
            c,
            &format!(r#"form.lang-switch button[name="lang"][value="{lang}"]"#),
        )
        .await?;
        wait_for(c, &format!(r#"html[lang="{lang}"]"#)).await?;
        for page in &pages {
            c.goto(&format!("{base}{page}")).await?;
            let found = c.execute(check, vec![]).await?;
            for problem in found.as_array().into_iter().flatten() {
                problems.push(format!(
                    "{what} {lang} {page}: {}",
                    problem.as_str().unwrap_or_default()
                ));
            }
        }
    }
    Ok(problems)
}
