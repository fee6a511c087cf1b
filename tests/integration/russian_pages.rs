//! The Russian interface in draughts words (issue 13 item 9): tie-breaks by their Russian
//! names and abbreviations with a legend, crosstable cells and legends in Russian letters
//! for both layouts, points with a decimal comma in charts as in tables, tabs that cannot
//! be confused, the variant named in full, no literal backticks, results in the audit
//! trail as the event prints them.
#![allow(clippy::unwrap_used)]
use crate::common::{self, Client, Role, TestApp};

use actix_web::http::Method;
use serde_json::json;

use common::page_text as text;

async fn russian_browser(app: &TestApp) -> Client<'_> {
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    browser
        .headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    browser
}

#[actix_web::test]
async fn a_swiss_event_speaks_russian_draughts() {
    let app = TestApp::new().await;
    let mut browser = russian_browser(&app).await;
    let mut api = browser.api_client().await;
    let id = common::create_event(
        &mut api,
        json!({"name": "Кубок", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut api, id, 4).await;
    common::play_round(&mut api, id, &["1-0", "1/2-1/2"]).await;

    let info = text(&browser.get(&format!("/events/{id}")).await.body);
    assert!(info.contains("Русские шашки"), "{info}");
    for tab in ["О турнире", "Положение", "Турнирная таблица"] {
        assert!(info.contains(tab), "{tab}: {info}");
    }
    assert!(!info.contains("Таблица "), "no bare «Таблица» tab: {info}");

    let standings = browser
        .get(&format!("/events/{id}?tab=standings"))
        .await
        .body;
    assert!(
        standings.contains(r#"title="усечённый коэффициент Солкофа">Усеч. Солк.</th>"#),
        "{standings}"
    );
    let standings = text(&standings);
    assert!(
        standings.contains("К. Солк.: Коэффициент Солкофа"),
        "a legend of the abbreviations: {standings}"
    );
    for latin in [" BH ", "BH/C1", " SB ", " WIN "] {
        assert!(!standings.contains(latin), "{latin} in {standings}");
    }

    let cross = text(
        &browser
            .get(&format!("/events/{id}?tab=crosstable"))
            .await
            .body,
    );
    assert!(cross.contains("б1") || cross.contains("б½"), "{cross}");
    assert!(cross.contains("ч0") || cross.contains("ч½"), "{cross}");
    assert!(cross.contains("б/ч — цвет"), "the Swiss legend: {cross}");
    let print = text(
        &browser
            .get(&format!("/events/{id}/crosstable/print?after=1"))
            .await
            .body,
    );
    assert!(
        print.contains("б/ч — цвет") && !print.contains("w/b"),
        "{print}"
    );
    let sheet = text(
        &browser
            .get(&format!("/events/{id}/standings/print?after=1"))
            .await
            .body,
    );
    assert!(
        sheet.contains("Усеч. Солк.: усечённый коэффициент Солкофа"),
        "{sheet}"
    );

    // A player's card: the running score as tables write it, with a comma.
    let card = browser.get(&format!("/events/{id}/players/2")).await.body;
    let chart = &card[card.find("<svg class=\"chart\"").unwrap()..];
    assert!(chart.contains(">0,5<") || chart.contains(">1<"), "{chart}");
    assert!(!chart.contains("0.5"), "{chart}");

    // The audit trail writes a draw as the event prints it.
    let round = api.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    let pairing = round[0]["boards"][0]["pairing_id"].as_i64().unwrap();
    let changed = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/pairings/{pairing}/result"),
            json!({"result": "1/2-1/2"}),
        )
        .await;
    assert_eq!(changed.status.as_u16(), 204, "{}", changed.body);
    let audit = text(&browser.get(&format!("/events/{id}/changes")).await.body);
    assert!(audit.contains("1-0 → ½-½"), "{audit}");
    assert!(!audit.contains("1/2-1/2"), "{audit}");

    let account = text(&browser.get("/account").await.body);
    assert!(!account.contains('`'), "{account}");
}

#[actix_web::test]
async fn a_round_robin_crosstable_has_its_own_legend() {
    let app = TestApp::new().await;
    let mut browser = russian_browser(&app).await;
    let mut api = browser.api_client().await;
    let id = common::create_event(
        &mut api,
        json!({"name": "Круговой", "system": "round_robin"}),
    )
    .await;
    common::enter_players(&mut api, id, 4).await;
    common::play_round(&mut api, id, &["1-0", "0-1"]).await;
    let cross = text(
        &browser
            .get(&format!("/events/{id}?tab=crosstable"))
            .await
            .body,
    );
    assert!(
        cross.contains("результат участника строки во встрече с участником столбца"),
        "{cross}"
    );
    assert!(!cross.contains("место соперника"), "{cross}");
    assert!(cross.contains("Л. в.: Личная встреча"), "{cross}");
}
