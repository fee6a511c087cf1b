//! The phone shows what people came for (issue 27 item 4): on the demo club, Chromium at
//! 390 px (mobile emulation) in English and in Russian. Every standings and crosstable row
//! shows its place, name and points inside the window, also with the table scrolled to its
//! far end; every board of the pairings shows both players' names; the event page, the print
//! sheets and the game page do not scroll sideways; the header's links are a <details> menu
//! on the phone and the plain navigation at 1280 px.
//!
//! The harness (Chromium and chromedriver, the demo server, the helpers) is `browser.rs`'s.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{
    ARBITER_EMAIL, ARBITER_PASSWORD, Process, WHOLE_FLOW, block_on, browser_programs,
    chromium_capabilities, click, create_arbiter, finish, free_port, http_get, open_session,
    run_session, start_driver, wait_for,
};
use crate::browser_event_game::steps;

use std::process::Command;

use anyhow::{Result, ensure};
use fantoccini::Client;
use serde_json::json;

/// For every row of the page's standings or crosstable: its place, name and points cells
/// inside the window and not covered by another cell (what is at their middle is theirs),
/// first with the table at its start, then scrolled to its far end. One line per problem.
const STANDINGS_IN_SIGHT: &str = r#"
const problems = [];
const rows = document.querySelectorAll(
  'main .table-wrap table.standings tbody tr, main .table-wrap table.keizer-standings tbody tr, main .table-wrap table.cross tbody tr');
if (rows.length === 0) problems.push('no standings rows');
const seen = (el, what) => {
  let box = el.getBoundingClientRect();
  window.scrollTo(0, window.scrollY + box.top - 120);
  box = el.getBoundingClientRect();
  if (!(box.width > 4 && box.left >= -1 && box.right <= window.innerWidth + 1)) {
    return what + ' at ' + Math.round(box.left) + '..' + Math.round(box.right) + ' of ' + window.innerWidth;
  }
  const line = el.getClientRects()[0];
  const there = document.elementFromPoint(line.left + Math.min(line.width / 2, 6), line.top + line.height / 2);
  if (!there || !(el.contains(there) || there.contains(el))) return what + ' covered by ' + (there ? there.tagName + '.' + there.className : 'nothing');
  return null;
};
for (const end of [false, true]) {
  for (const wrap of document.querySelectorAll('main .table-wrap')) wrap.scrollLeft = end ? wrap.scrollWidth : 0;
  rows.forEach((row, i) => {
    for (const cls of ['place', 'who', 'total']) {
      const cell = row.querySelector('td.' + cls);
      if (!cell) { problems.push('row ' + (i + 1) + ' has no ' + cls + ' cell'); continue; }
      const target = cls === 'who' ? (cell.querySelector('a') || cell) : cell;
      const problem = seen(target, (end ? 'scrolled: ' : '') + 'row ' + (i + 1) + ' ' + cls + ' "' + cell.textContent.trim().slice(0, 30) + '"');
      if (problem) problems.push(problem);
    }
  });
}
for (const wrap of document.querySelectorAll('main .table-wrap')) wrap.scrollLeft = 0;
return problems.slice(0, 8);
"#;

/// Both players' names on every board of the pairings tab (a bye's one name), inside the
/// window and not covered. One line per problem.
const NAMES_IN_SIGHT: &str = r#"
const problems = [];
const rows = document.querySelectorAll('main table.pairings tbody tr:not(.board-extra)');
if (rows.length === 0) problems.push('no boards');
rows.forEach((row, i) => {
  const names = row.querySelectorAll('a[href*="/players/"]');
  const bye = row.querySelectorAll('td').length < 4;
  if (names.length !== (bye ? 1 : 2)) problems.push('board ' + (i + 1) + ' shows ' + names.length + ' names');
  for (const name of names) {
    let box = name.getBoundingClientRect();
    window.scrollTo(0, window.scrollY + box.top - 120);
    box = name.getBoundingClientRect();
    const what = 'board ' + (i + 1) + ' "' + name.textContent.trim() + '"';
    if (!(box.width > 4 && box.left >= -1 && box.right <= window.innerWidth + 1)) {
      problems.push(what + ' at ' + Math.round(box.left) + '..' + Math.round(box.right));
      continue;
    }
    // A name on two lines: its first line's start is where its text surely is.
    const line = name.getClientRects()[0];
    const there = document.elementFromPoint(line.left + 2, line.top + line.height / 2);
    if (!there || !name.contains(there)) problems.push(what + ' covered by ' + (there ? there.tagName + '.' + there.className : 'nothing'));
    if (name.scrollWidth > name.clientWidth + 1 && getComputedStyle(name).overflowX !== 'visible') problems.push(what + ' cut');
  }
});
return problems.slice(0, 8);
"#;

/// The page is no wider than the window.
const PAGE_WIDTH: &str = r#"
return document.documentElement.scrollWidth <= window.innerWidth ? null
  : 'the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window';
"#;

/// What the header's links sit in: "menu" (a <details> whose summary shows and whose links
/// are hidden until it opens), "plain" (links shown, no summary in sight) or what else.
const HEADER_NAV: &str = r#"
const row = document.querySelector('header nav.main');
const menu = document.querySelector('header details.site-menu');
const shown = el => !!el && el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }) &&
  el.getBoundingClientRect().width > 0;
const summary = menu && menu.querySelector(':scope > summary');
const rowLink = row && row.querySelector('a[href="/events"]');
const menuLink = menu && menu.querySelector('a[href="/events"]');
if (shown(summary) && !menu.open && !shown(menuLink) && !shown(rowLink)) return 'menu';
if (shown(rowLink) && !shown(summary)) return 'plain';
if (menu.open && shown(menuLink) && !shown(rowLink)) return 'open';
return 'row link shown ' + shown(rowLink) + ', summary shown ' + shown(summary) + ', menu link shown ' + shown(menuLink);
"#;

/// The demo club at 390 px and at 1280 px, in both languages, signed in as its arbiter.
#[test]
fn a_phone_shows_standings_names_and_a_compact_menu() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("demo.db").display());
    let port = free_port();
    let mut server = Process::spawn(
        "damka demo",
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["demo", "--bind", &format!("127.0.0.1:{port}")])
            .args(["--database-url", &database, "--workers", "1"])
            .env("NO_COLOR", "1"),
        dir.path().join("server.log"),
    );
    server.wait_until("/healthz answered 200", || {
        http_get(port, "/healthz").is_some_and(|(status, _)| status == 200)
    });
    create_arbiter(&database);
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{port}");
    let outcome = block_on(async {
        for width in [390, 1280] {
            let mut capabilities = chromium_capabilities(
                &chromium,
                &dir.path().join(format!("profile-{width}")),
                false,
            );
            capabilities["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": 900, "pixelRatio": 1, "touch": false, "mobile": false }
            });
            let c = open_session(driver_port, capabilities).await?;
            run_session(&c, dir.path(), WHOLE_FLOW, phone_flow(&c, &base, width)).await?;
        }
        Ok(())
    });
    finish(outcome, server, driver, dir);
}

async fn phone_flow(c: &Client, base: &str, width: u32) -> Result<()> {
    steps::sign_in(c, base, ARBITER_EMAIL, ARBITER_PASSWORD).await?;
    for lang in ["en", "ru"] {
        click(
            c,
            &format!(r#"form.lang-switch button[name="lang"][value="{lang}"]"#),
        )
        .await?;
        wait_for(c, &format!(r#"html[lang="{lang}"]"#)).await?;
        let header = c.execute(HEADER_NAV, vec![]).await?;
        let expected = if width == 390 { "menu" } else { "plain" };
        ensure!(
            header == json!(expected),
            "{lang} at {width} px: the header's navigation should be {expected}: {header}"
        );
        if width != 390 {
            continue;
        }
        // The menu opens without a script and shows the links.
        click(c, "header details.menu > summary").await?;
        let opened = c.execute(HEADER_NAV, vec![]).await?;
        ensure!(
            opened == json!("open"),
            "{lang}: the opened menu should show its links: {opened}"
        );
        for event in [1, 2, 3] {
            for tab in ["standings", "crosstable"] {
                let page = format!("/events/{event}?tab={tab}");
                c.goto(&format!("{base}{page}")).await?;
                let problems = c.execute(STANDINGS_IN_SIGHT, vec![]).await?;
                ensure!(
                    problems.as_array().is_some_and(Vec::is_empty),
                    "{lang} {page}: {problems}"
                );
            }
            let page = format!("/events/{event}?tab=rounds");
            c.goto(&format!("{base}{page}")).await?;
            let problems = c.execute(NAMES_IN_SIGHT, vec![]).await?;
            ensure!(
                problems.as_array().is_some_and(Vec::is_empty),
                "{lang} {page}: {problems}"
            );
        }
        for page in [
            "/events/2?tab=standings",
            "/events/1?tab=crosstable",
            "/events/2/standings/print",
            "/events/2/rounds/4/print",
            "/events/1/crosstable/print",
            "/events/3/rounds/1/print",
            "/games/1",
        ] {
            c.goto(&format!("{base}{page}")).await?;
            let wide = c.execute(PAGE_WIDTH, vec![]).await?;
            ensure!(wide.is_null(), "{lang} {page}: {wide}");
        }
    }
    Ok(())
}
