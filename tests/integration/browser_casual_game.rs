//! A casual game started from the browser (issue 27 item 1): a player reading the site in
//! Russian on a 390 px phone opens "Новая партия", picks a member of their club, asks for
//! White and a 5+3 clock, and lands on the new game's page. Scripts are off: the form
//! works without them. The harness is the one in `browser.rs`; without Chromium the test
//! is skipped, as there, outside CI.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{LAYOUT_PROBLEMS, click, expect_text, type_into, wait_for, wait_path};
use crate::browser_event_game::steps::{run_sessions, sign_in};

use std::time::Duration;

use anyhow::{Result, bail, ensure};
use fantoccini::Client;

const EMAIL: &str = "ivan@club.example";
const PASSWORD: &str = "ivan-secret-12";
const OPPONENT: &str = "Ольга Смирнова";

/// An account with its profile in a club, and the opponent's profile in the same club,
/// made on the database before the server starts.
fn create_players(url: &damka::store::DatabaseUrl) {
    use damka::store::models::{ClubFields, PlayerFields};
    let pool = damka::store::open(
        url,
        1,
        damka::store::RetryPolicy {
            attempts: 1,
            delay: Duration::ZERO,
        },
    )
    .unwrap();
    let mut conn = pool.get().unwrap();
    let now = damka::store::now();
    let club = damka::store::clubs::insert(
        &mut conn,
        &ClubFields {
            name: "Ладья".into(),
            city: String::new(),
            country: String::new(),
            description: String::new(),
        },
        now,
    )
    .unwrap();
    let profile = |name: &str| PlayerFields {
        name: name.into(),
        club_id: Some(club.id),
        country: String::new(),
        federation_id: String::new(),
        birth_year: None,
        title: String::new(),
    };
    let own = damka::store::players::insert(&mut conn, &profile("Иван Петров"), now).unwrap();
    damka::store::players::insert(&mut conn, &profile(OPPONENT), now).unwrap();
    let user = damka::service::accounts::register(
        &mut conn,
        &damka::service::accounts::Registration {
            email: EMAIL.into(),
            display_name: "Иван Петров".into(),
            password: PASSWORD.into(),
            invitation: None,
        },
        None,
    )
    .unwrap();
    damka::store::accounts::link_player(&mut conn, user.id, Some(own.id)).unwrap();
}

#[test]
fn a_player_starts_a_casual_game_from_the_form_on_a_phone_in_russian() {
    run_sessions(
        |db| create_players(&db.url),
        Duration::from_secs(300),
        &[("phone", false)],
        async |clients, base| flow(&clients[0], base).await,
    );
}

async fn flow(phone: &Client, base: &str) -> Result<()> {
    phone.set_window_size(390, 844).await?;
    sign_in(phone, base, EMAIL, PASSWORD).await?;
    click(phone, r#"form.lang-switch button[name="lang"][value="ru"]"#).await?;
    wait_for(phone, r#"html[lang="ru"]"#).await?;
    click(phone, "#home-new-game").await?;
    wait_path(phone, "/games/new").await?;
    expect_text(phone, "h1", "Новая партия").await?;
    fits_the_phone(phone).await?;

    let select = wait_for(phone, r#"select[name="opponent_id"]"#).await?;
    let option = select
        .find(fantoccini::Locator::XPath(&format!(
            "option[normalize-space(.)='{OPPONENT}']"
        )))
        .await?;
    let value = option.attr("value").await?.unwrap_or_default();
    ensure!(!value.is_empty(), "the opponent's option has no value");
    select.select_by_value(&value).await?;
    click(phone, r#"input[name="colour"][value="white"]"#).await?;
    click(phone, r#"input[name="clock"][value="fischer"]"#).await?;
    type_into(phone, r#"input[name="clock_base_min"]"#, "5").await?;
    type_into(phone, r#"input[name="clock_increment_s"]"#, "3").await?;
    click(phone, "#start-game").await?;

    // The game's page, with both players on it.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let path = loop {
        let path = phone.current_url().await?.path().to_string();
        let id = path.strip_prefix("/games/").unwrap_or("");
        if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
            break path;
        }
        if std::time::Instant::now() > deadline {
            bail!("still at {path} after starting the game");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    expect_text(phone, "main", OPPONENT).await?;
    expect_text(phone, "main", "Иван Петров").await?;
    wait_for(phone, "#board").await?;
    ensure!(path.starts_with("/games/"), "landed on {path}");
    fits_the_phone(phone).await
}

/// Nothing on the page sticks out of or is cut at the phone's width.
async fn fits_the_phone(c: &Client) -> Result<()> {
    let problems = c.execute(LAYOUT_PROBLEMS, vec![]).await?;
    match problems.as_array() {
        Some(found) if found.is_empty() => Ok(()),
        _ => bail!("{} at 390 px: {problems}", c.current_url().await?),
    }
}
