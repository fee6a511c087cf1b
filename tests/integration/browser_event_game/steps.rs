//! The browser event tests' harness and the steps a person takes on the site: signing up
//! and in, the organiser's forms, reading tables, waiting for answers, screenshots.
use crate::browser::{
    LAYOUT_PROBLEMS, WAIT, block_on, browser_programs, chromium_capabilities, click,
    create_arbiter, expect_text, finish, here, open_session, start_driver, start_server, type_into,
    wait_for, wait_path,
};
use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail, ensure};
use fantoccini::{Client, Locator};
use serde_json::json;

use super::{Account, FLOW_LIMIT, SCREEN_SIZES};

/// Runs `flow` against a fresh `damka serve` (with the club's arbiter, made on the command
/// line) in one headless Chromium session per entry of `sessions` (a name, and whether
/// pages may run scripts). On failure every session's screenshot and HTML and the server's
/// log are kept, and the test panics saying where.
pub(super) fn run_in_browsers(
    sessions: &[(&str, bool)],
    flow: impl AsyncFnOnce(&[Client], &str) -> Result<()>,
) {
    run_sessions(
        |db| create_arbiter(&db.url.target),
        FLOW_LIMIT,
        sessions,
        flow,
    );
}

/// `run_in_browsers` with the accounts `setup` makes on the database before the server
/// starts, and `limit` for the whole flow.
pub(crate) fn run_sessions(
    setup: impl FnOnce(&common::TestDatabase),
    limit: Duration,
    sessions: &[(&str, bool)],
    flow: impl AsyncFnOnce(&[Client], &str) -> Result<()>,
) {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::TestDatabase::new();
    setup(&db);
    let (server, server_port) = start_server(&db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{server_port}");
    let started = Instant::now();
    let outcome: Result<()> = block_on(async {
        let mut clients = Vec::new();
        for (name, scripts) in sessions {
            let profile = dir.path().join(format!("profile-{name}"));
            let capabilities = chromium_capabilities(&chromium, &profile, *scripts);
            clients.push(open_session(driver_port, capabilities).await?);
        }
        let result = match tokio::time::timeout(limit, flow(&clients, &base)).await {
            Ok(result) => result,
            Err(_) => Err(anyhow!("the browser flow took longer than {limit:?}")),
        };
        if let Err(e) = &result {
            eprintln!("browser flow failed: {e:#}");
            for (client, (name, _)) in clients.iter().zip(sessions) {
                let kept = tokio::time::timeout(WAIT, keep_failure(client, dir.path(), name)).await;
                if let Ok(Err(e)) = kept {
                    eprintln!("no evidence from the {name} session: {e:#}");
                }
            }
        }
        for client in clients {
            let _ = tokio::time::timeout(WAIT, client.close()).await;
        }
        result
    });
    finish(outcome, server, driver, dir);
    eprintln!(
        "browser flow passed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(db);
}

/// A screenshot and the HTML of what `session` showed when the flow failed.
async fn keep_failure(c: &Client, dir: &Path, session: &str) -> Result<()> {
    let url = here(c).await;
    let png = c.screenshot().await.context("taking a screenshot")?;
    std::fs::write(dir.join(format!("failure-{session}.png")), png)?;
    let html = c.source().await.unwrap_or_default();
    std::fs::write(
        dir.join(format!("failure-{session}.html")),
        format!("<!-- {url} -->\n{html}"),
    )?;
    eprintln!("the {session} session was at {url}");
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Steps a person takes, and what they read
// ---------------------------------------------------------------------------------------

/// Registers `account` (signed in afterwards, on the account page).
pub(crate) async fn register(c: &Client, base: &str, account: &Account) -> Result<()> {
    c.goto(&format!("{base}/register")).await?;
    let form = r#"form[action="/register"]"#;
    type_into(c, &format!(r#"{form} input[name="email"]"#), account.email).await?;
    type_into(
        c,
        &format!(r#"{form} input[name="display_name"]"#),
        account.name,
    )
    .await?;
    type_into(
        c,
        &format!(r#"{form} input[name="password"]"#),
        account.password,
    )
    .await?;
    click(c, &format!(r#"{form} button[type="submit"]"#)).await?;
    wait_path(c, "/account").await?;
    expect_text(c, r#".user-box a[href="/account"]"#, account.name).await
}

pub(crate) async fn sign_in(c: &Client, base: &str, email: &str, password: &str) -> Result<()> {
    c.goto(&format!("{base}/login")).await?;
    type_into(c, r#"form[action="/login"] input[name="email"]"#, email).await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        password,
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(c, "/").await?;
    wait_for(c, r#".user-box form[action="/logout"]"#).await?;
    Ok(())
}

pub(super) async fn sign_out(c: &Client) -> Result<()> {
    click(c, r#".user-box form[action="/logout"] button"#).await?;
    wait_path(c, "/").await?;
    wait_for(c, r#".user-box a[href="/login"]"#).await?;
    Ok(())
}

/// The administrator ticks "organiser" on the account's row of the users' table.
pub(super) async fn grant_organiser_role(c: &Client, base: &str, email: &str) -> Result<()> {
    c.goto(&format!("{base}/admin")).await?;
    let mut found = None;
    for row in c.find_all(Locator::Css("main table tbody tr")).await? {
        if row.text().await?.contains(email) {
            found = Some(row);
            break;
        }
    }
    let row = found.ok_or_else(|| anyhow!("no row for {email} on /admin"))?;
    row.find(Locator::Css(r#"input[name="organiser"]"#))
        .await?
        .click()
        .await?;
    mark_page_old(c).await?;
    row.find(Locator::Css(r#"button[type="submit"]"#))
        .await?
        .click()
        .await?;
    wait_for_new_page(c).await?;
    expect_text(c, ".flash.ok", "Saved.").await?;
    let row = c
        .find(Locator::XPath(&format!(
            "//main//table//tr[td[contains(., '{email}')]]"
        )))
        .await?;
    ensure!(
        row.find(Locator::Css(r#"input[name="organiser"]"#))
            .await?
            .is_selected()
            .await?,
        "{email} is not an organiser after saving"
    );
    Ok(())
}

/// A signed-in player makes their own profile; returns its path.
pub(super) async fn own_profile(c: &Client, base: &str, name: &str) -> Result<String> {
    c.goto(&format!("{base}/players/new")).await?;
    type_into(c, r#"form[action="/players"] input[name="name"]"#, name).await?;
    click(c, r#"form[action="/players"] button[type="submit"]"#).await?;
    expect_text(c, "h1", name).await?;
    Ok(c.current_url().await?.path().to_string())
}

/// The organiser makes a club; returns its path.
pub(super) async fn create_club(c: &Client, base: &str, name: &str) -> Result<String> {
    c.goto(&format!("{base}/clubs/new")).await?;
    type_into(c, r#"form[action="/clubs"] input[name="name"]"#, name).await?;
    type_into(
        c,
        r#"form[action="/clubs"] input[name="city"]"#,
        "Riverside",
    )
    .await?;
    click(c, r#"form[action="/clubs"] button[type="submit"]"#).await?;
    expect_text(c, "h1", name).await?;
    Ok(c.current_url().await?.path().to_string())
}

pub(super) async fn select(c: &Client, css: &str, value: &str) -> Result<()> {
    wait_for(c, css)
        .await?
        .select_by_value(value)
        .await
        .with_context(|| format!("choosing {value:?} in `{css}`"))?;
    Ok(())
}

/// Enters each of `names` (profiles' names) on the event's players tab (the answer to
/// each entry is that tab again, with the form for the next).
pub(super) async fn enter_players(
    c: &Client,
    base: &str,
    event_path: &str,
    names: &[&str],
) -> Result<()> {
    c.goto(&format!("{base}{event_path}?tab=entries")).await?;
    for name in names {
        wait_for(c, r#"form[action$="/entries"] select[name="player_id"]"#)
            .await?
            .select_by_label(name)
            .await
            .with_context(|| format!("{name} is not among the players to enter"))?;
        click(c, r#"form[action$="/entries"] button[type="submit"]"#).await?;
        // Not the flash: the page before this entry showed "Saved." too.
        expect_text(c, "main .table-wrap table", name).await?;
    }
    for name in names {
        expect_text(c, "main .table-wrap table", name).await?;
    }
    Ok(())
}

pub(super) async fn pair_next_round(c: &Client, base: &str, event_path: &str) -> Result<()> {
    c.goto(&format!("{base}{event_path}?tab=rounds")).await?;
    click_to_new_page(c, &format!(r#"form[action="{event_path}/rounds"] button"#)).await?;
    expect_text(c, "main h2", "Round 1").await
}

/// One board of the pairings table: White's and Black's names and start numbers, and the
/// game's path.
pub(super) struct BoardRow {
    pub(super) white: (String, u32),
    pub(super) black: (String, u32),
    pub(super) game: Option<String>,
}

pub(super) async fn pairing_rows(c: &Client) -> Result<Vec<BoardRow>> {
    let mut boards = Vec::new();
    for row in c.find_all(Locator::Css("table.pairings tbody tr")).await? {
        let cells = row.find_all(Locator::Css("td")).await?;
        let [_, white, result, black] = cells.as_slice() else {
            bail!("a pairings row has {} cells", cells.len());
        };
        let game = match result.find(Locator::Css("a.game-link")).await {
            Ok(link) => link.attr("href").await?,
            Err(_) => None,
        };
        boards.push(BoardRow {
            white: player_cell(white).await?,
            black: player_cell(black).await?,
            game,
        });
    }
    Ok(boards)
}

/// A pairings cell: the player's name (a link) and start number (in brackets after it).
async fn player_cell(cell: &fantoccini::elements::Element) -> Result<(String, u32)> {
    let name = cell.find(Locator::Css("a")).await?.text().await?;
    let muted = cell.find(Locator::Css(".muted")).await?.text().await?;
    let number = muted
        .trim()
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(')'))
        .and_then(|(number, _)| number.parse().ok())
        .ok_or_else(|| anyhow!("no start number in {muted:?} after {name}"))?;
    Ok((name.trim().to_string(), number))
}

/// The result each board of the pairings tab shows, as the arbiter's select reads.
pub(super) async fn board_results(c: &Client) -> Result<Vec<String>> {
    let mut results = Vec::new();
    for row in c.find_all(Locator::Css("table.pairings tbody tr")).await? {
        let chosen = row
            .find(Locator::Css(r#"select[name^="result_"] option:checked"#))
            .await?;
        results.push(chosen.text().await?.trim().to_string());
    }
    Ok(results)
}

/// The standings table as (name, points) per row.
pub(super) async fn standings_points(c: &Client) -> Result<Vec<(String, String)>> {
    let mut rows = Vec::new();
    let table = wait_for(c, "main .table-wrap table").await?;
    for row in table.find_all(Locator::Css("tbody tr")).await? {
        let name = row.find(Locator::Css("td a")).await?.text().await?;
        let points = row.find(Locator::Css("td strong")).await?.text().await?;
        rows.push((name, points));
    }
    Ok(rows)
}

/// Clicks what submits a form and waits for the page that answers: one that looks like the
/// page before (the same flash, say) must not pass for the answer.
pub(crate) async fn click_to_new_page(c: &Client, css: &str) -> Result<()> {
    mark_page_old(c).await?;
    click(c, css).await?;
    wait_for_new_page(c).await
}

async fn mark_page_old(c: &Client) -> Result<()> {
    c.execute("window.damkaOldPage = true; return null;", vec![])
        .await?;
    Ok(())
}

/// Waits up to `WAIT` for a page without `mark_page_old`'s mark, fully loaded.
pub(crate) async fn wait_for_new_page(c: &Client) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        // While the next page loads the script may fail: that is not an answer yet.
        let state = c
            .execute(
                "return window.damkaOldPage === true ? 'old' : document.readyState;",
                vec![],
            )
            .await;
        if matches!(state, Ok(ref s) if s == "complete") {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("no new page after {WAIT:?}: still at {}", here(c).await);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits up to `WAIT` for the element at `css` to show exactly `expected` (trimmed).
pub(super) async fn expect_exact_text(c: &Client, css: &str, expected: &str) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        let seen = match c.find(Locator::Css(css)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if seen.trim() == expected {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(
                "expected `{css}` to show {expected:?} on {}, it shows {seen:?}",
                here(c).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

// ---------------------------------------------------------------------------------------
// Screenshots
// ---------------------------------------------------------------------------------------

/// `target/e2e-screenshots/` in the workspace's target directory (`CARGO_TARGET_DIR` when
/// set, relative to the workspace if relative).
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(target)
        .join("e2e-screenshots")
}

/// Photographs each page (a name and a path) at each of `SCREEN_SIZES` as
/// `name-width.png`, after checking the page is laid out at that width (and, on a phone,
/// that nothing sticks out or is cut: `LAYOUT_PROBLEMS`); leaves the window at the first
/// size.
pub(super) async fn screenshot_pages(
    c: &Client,
    base: &str,
    pages: &[(&str, String)],
) -> Result<()> {
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for (width, height) in SCREEN_SIZES {
        c.set_window_size(width, height).await?;
        for (name, path) in pages {
            c.goto(&format!("{base}{path}")).await?;
            wait_for(c, "main").await?;
            let laid_out = c.execute("return window.innerWidth;", vec![]).await?;
            ensure!(
                laid_out == json!(width),
                "{path} is laid out {laid_out} px wide in a {width} px window"
            );
            if width < 640 {
                let problems = c.execute(LAYOUT_PROBLEMS, vec![]).await?;
                ensure!(
                    problems.as_array().is_some_and(|found| found.is_empty()),
                    "{path} at {width} px: {problems}"
                );
            }
            let png = c.screenshot().await.context("taking a screenshot")?;
            ensure!(
                png_width(&png) == Some(width),
                "the screenshot of {path} is {:?} px wide, not {width}",
                png_width(&png)
            );
            let file = dir.join(format!("{name}-{width}.png"));
            std::fs::write(&file, png).with_context(|| format!("writing {}", file.display()))?;
        }
    }
    let (width, height) = SCREEN_SIZES[0];
    c.set_window_size(width, height).await?;
    eprintln!("screenshots in {}", dir.display());
    Ok(())
}

/// A screenshot of what `c` shows now, as `name-width.png` beside the main pages'.
pub(super) async fn save_screenshot(c: &Client, name: &str) -> Result<()> {
    let png = c.screenshot().await.context("taking a screenshot")?;
    let width = png_width(&png).ok_or_else(|| anyhow!("the screenshot is not a PNG"))?;
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let file = dir.join(format!("{name}-{width}.png"));
    std::fs::write(&file, png).with_context(|| format!("writing {}", file.display()))
}

/// A PNG's width from its header (the IHDR chunk comes first).
fn png_width(png: &[u8]) -> Option<u32> {
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") || png.get(12..16) != Some(b"IHDR") {
        return None;
    }
    Some(u32::from_be_bytes(png.get(16..20)?.try_into().ok()?))
}
