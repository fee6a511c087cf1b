//! A refused form is shown at the form's address (issue 27 item 8): the answer to a POST
//! puts the page the form was sent from back in the address bar (`static/address.js`), so
//! a reload asks for the form again instead of sending it again, and the address can be
//! shared. Two forms: the new-player page (which posts to `/players`) and the event page's
//! arbiter form (which posts to `/events/{id}/arbiters`). Scripts are on; Russian, 390 px.
//!
//! The harness (Chromium and chromedriver, `damka serve`, the helpers) is `browser.rs`'s.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{
    ARBITER_EMAIL, ARBITER_PASSWORD, WHOLE_FLOW, block_on, browser_programs, chromium_capabilities,
    click, create_arbiter, finish, open_session, run_session, start_driver, start_server,
    type_into, wait_for,
};
use crate::browser_event_game::steps;
use crate::common;
use crate::processes::{api, api_token};

use anyhow::{Result, ensure};
use fantoccini::Client;
use serde_json::json;

#[test]
fn a_refused_form_stays_at_the_forms_address() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::TestDatabase::new();
    create_arbiter(&db.url.target);
    let (server, port) = start_server(&db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let token = api_token(port, ARBITER_EMAIL, ARBITER_PASSWORD);
    let (status, event) = api(
        port,
        "POST",
        "/api/v1/events",
        &token,
        &json!({ "name": "Осенний кубок", "system": "swiss", "rounds": 3 }),
    );
    assert_eq!(status, 201, "{event}");
    let event: serde_json::Value = serde_json::from_str(&event).unwrap();
    let event = event["id"].as_i64().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let outcome: Result<()> = block_on(async {
        let profile = dir.path().join("profile");
        let mut capabilities = chromium_capabilities(&chromium, &profile, true);
        capabilities["goog:chromeOptions"]["mobileEmulation"] = json!({
            "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 1,
                "touch": false, "mobile": false }
        });
        let client = open_session(driver_port, capabilities).await?;
        let flow = refusals_flow(&client, &base, event);
        run_session(&client, dir.path(), WHOLE_FLOW, flow).await
    });
    finish(outcome, server, driver, dir);
    drop(db);
}

async fn refusals_flow(c: &Client, base: &str, event: i64) -> Result<()> {
    steps::sign_in(c, base, ARBITER_EMAIL, ARBITER_PASSWORD).await?;
    click(c, r#"form.lang-switch button[name="lang"][value="ru"]"#).await?;
    wait_for(c, r#"html[lang="ru"]"#).await?;

    // A player without a name: refused, shown at /players/new with the message.
    c.goto(&format!("{base}/players/new")).await?;
    click(c, r#"form[action="/players"] button[type="submit"]"#).await?;
    wait_for(c, ".field-error").await?;
    at_address(c, "/players/new", None).await?;
    // A reload asks for the form again: the message is gone, nothing was sent.
    c.refresh().await?;
    wait_for(c, r#"form[action="/players"]"#).await?;
    ensure!(
        c.find_all(fantoccini::Locator::Css(".field-error"))
            .await?
            .is_empty(),
        "a reload of the refused form should show the empty form, not send it again"
    );

    // An arbiter nobody has an account for: refused on the event page's own address.
    let page = format!("/events/{event}");
    c.goto(&format!("{base}{page}")).await?;
    let email = format!(r#"form[action="/events/{event}/arbiters"] input[name="email"]"#);
    type_into(c, &email, "nobody@nowhere.example").await?;
    click(
        c,
        &format!(r#"form[action="/events/{event}/arbiters"] button[type="submit"]"#),
    )
    .await?;
    wait_for(c, ".field-error, .flash.error, .form-error").await?;
    at_address(c, &page, None).await
}

/// The browser's address is `path` (and `query`, when given).
async fn at_address(c: &Client, path: &str, query: Option<&str>) -> Result<()> {
    let url = c.current_url().await?;
    ensure!(
        url.path() == path && url.query() == query,
        "the refused form should be shown at {path}, the browser is at {url}"
    );
    Ok(())
}
