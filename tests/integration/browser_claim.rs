//! Claiming a profile in real browsers (issue 26 item 4), scripts off: an organiser makes
//! a profile; a person registers under the same name, is asked "Is one of these you?",
//! claims it and is told the claim waits; the organiser finds it on the start page and
//! accepts; the person's account now shows the profile. The person reads the site in
//! Russian on a 390 px phone, the organiser in English at 1280 px.
//!
//! The harness (Chromium, chromedriver, `damka serve`) is the one in `browser.rs`; without
//! Chromium the test is skipped, as there, outside CI.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{LAYOUT_PROBLEMS, click, expect_text, type_into, wait_for, wait_path};
use crate::browser_event_game::Account;
use crate::browser_event_game::steps::{register, run_sessions, sign_in};

use std::time::Duration;

use anyhow::{Result, bail, ensure};
use fantoccini::{Client, Locator};

const ORGANISER_EMAIL: &str = "olga@club.example";
const ORGANISER_PASSWORD: &str = "organiser-secret-1";
/// The player's name, as the organiser types it on the profile and the player on the
/// registration form.
const NAME: &str = "Анна Петрова";
const PLAYER: Account = Account {
    email: "anna@club.example",
    name: NAME,
    password: "anna-secret-12",
};

/// The whole flow, both browsers.
const FLOW_LIMIT: Duration = Duration::from_secs(300);

/// An organiser account, made on the database before the server starts (the administrator
/// would grant the role on the site; that page has its own test).
fn create_organiser(url: &damka::store::DatabaseUrl) {
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
    let user = damka::service::accounts::register(
        &mut conn,
        &damka::service::accounts::Registration {
            email: ORGANISER_EMAIL.into(),
            display_name: "Olga Orlova".into(),
            password: ORGANISER_PASSWORD.into(),
            invitation: None,
        },
        None,
    )
    .unwrap();
    damka::store::accounts::set_roles(&mut conn, user.id, false, true).unwrap();
}

#[test]
fn a_player_claims_the_profile_an_organiser_made_from_registration_to_acceptance() {
    run_sessions(
        |db| create_organiser(&db.url),
        FLOW_LIMIT,
        &[("organiser", false), ("player", false)],
        async |clients, base| flow(&clients[0], &clients[1], base).await,
    );
}

async fn flow(desk: &Client, phone: &Client, base: &str) -> Result<()> {
    // The organiser (English, desktop) makes the profile.
    desk.set_window_size(1280, 900).await?;
    sign_in(desk, base, ORGANISER_EMAIL, ORGANISER_PASSWORD).await?;
    desk.goto(&format!("{base}/players/new")).await?;
    type_into(desk, r#"form[action="/players"] input[name="name"]"#, NAME).await?;
    click(desk, r#"form[action="/players"] button[type="submit"]"#).await?;
    expect_text(desk, "h1", NAME).await?;
    let profile_path = desk.current_url().await?.path().to_string();

    // The player (Russian, phone) registers under the same name and is asked about it.
    phone.goto(&format!("{base}/register")).await?;
    click(phone, r#"form.lang-switch button[name="lang"][value="ru"]"#).await?;
    wait_for(phone, r#"html[lang="ru"]"#).await?;
    phone.set_window_size(390, 844).await?;
    register(phone, base, &PLAYER).await?;
    expect_text(phone, "#suggestions h2", "Нет ли здесь вас?").await?;
    expect_text(phone, "#suggestions", NAME).await?;
    fits_the_phone(phone).await?;
    click(
        phone,
        &format!(r#"#suggestions form[action="{profile_path}/claims"] button"#),
    )
    .await?;
    expect_text(phone, ".flash.ok", "Заявка отправлена организаторам.").await?;
    expect_text(
        phone,
        "#claims",
        &format!("«{NAME}»: ждёт ответа организаторов"),
    )
    .await?;
    ensure!(
        phone.find(Locator::Css("#suggestions")).await.is_err(),
        "the profile claimed is no longer suggested"
    );

    // The organiser finds the claim on the start page and links it.
    desk.goto(&format!("{base}/")).await?;
    expect_text(
        desk,
        "#pending-claims h2",
        "Profiles claimed by their players",
    )
    .await?;
    expect_text(desk, "#pending-claims", NAME).await?;
    click(desk, r#"#pending-claims form[action$="/accept"] button"#).await?;
    expect_text(
        desk,
        ".flash.ok",
        "The profile is now linked to the account.",
    )
    .await?;
    ensure!(
        desk.find(Locator::Css("#pending-claims")).await.is_err(),
        "the start page still lists the claim"
    );
    desk.goto(&format!("{base}{profile_path}")).await?;
    expect_text(desk, "main .facts", NAME).await?;

    // The player's account now shows the profile.
    phone.goto(&format!("{base}/account")).await?;
    expect_text(phone, "#claims", &format!("«{NAME}»: принята, профиль ваш")).await?;
    let link = wait_for(phone, r#"main .facts a[href^="/players/"]"#).await?;
    let href = link.attr("href").await?.unwrap_or_default();
    ensure!(
        href == profile_path,
        "the account links {href}, not {profile_path}"
    );
    link.click().await?;
    wait_path(phone, &profile_path).await?;
    expect_text(
        phone,
        "#own-claim",
        "Этот профиль привязан к вашей учётной записи.",
    )
    .await?;
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
