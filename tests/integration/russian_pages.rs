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

/// What a reader of `page` sees or hears: the text outside tags, scripts and styles, and
/// the titles, labels, placeholders and alternative texts of its elements.
fn seen_text(page: &str) -> String {
    let mut page = page.to_string();
    for (open, close) in [("<script", "</script>"), ("<style", "</style>")] {
        while let Some(start) = page.find(open) {
            let end = page[start..]
                .find(close)
                .map_or(page.len(), |e| start + e + close.len());
            page.replace_range(start..end, " ");
        }
    }
    let mut said = Vec::new();
    for attribute in ["title=\"", "aria-label=\"", "placeholder=\"", "alt=\""] {
        for rest in page.split(attribute).skip(1) {
            said.push(rest.split('"').next().unwrap_or("").to_string());
        }
    }
    format!("{} {}", text(&page), said.join(" "))
        .replace("&#38;", "&")
        .replace("&#34;", "\"")
}

/// Every page a club uses, drawn in Russian from the demo club and seen by its organiser
/// (so the forms and the organiser's controls are there too): no English word anywhere a
/// reader sees, only codes (TRF, FEN, squares, PDN tags).
#[actix_web::test]
async fn the_russian_pages_show_no_english() {
    let app = TestApp::new().await;
    let accounts = app
        .with_db(|conn| damka::cli::demo::seed(conn).unwrap())
        .await;
    let organiser = accounts.iter().find(|a| a.role == "organiser").unwrap();
    let mut browser = app.client();
    browser
        .headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let signed_in = browser.sign_in(&organiser.email, &organiser.password).await;
    assert_eq!(signed_in.status.as_u16(), 303, "{}", signed_in.body);

    let (events, games, players, clubs, data) = app
        .with_db(|conn| {
            use damka::store::games::{GameFilter, list};
            let events = damka::store::events::page(conn, Default::default(), None, 100).unwrap();
            let games = list(
                conn,
                &GameFilter {
                    limit: 10_000,
                    ..GameFilter::default()
                },
            )
            .unwrap();
            let players = damka::service::players::every(conn).unwrap();
            let clubs = damka::service::clubs::list(conn).unwrap();
            // What the club typed (names, places, descriptions) is theirs, in any language.
            let mut data: Vec<String> = Vec::new();
            data.extend(
                events
                    .iter()
                    .flat_map(|e| [e.name.clone(), e.place.clone()]),
            );
            data.extend(players.iter().map(|p| p.name.clone()));
            data.extend(
                clubs
                    .iter()
                    .flat_map(|c| [c.name.clone(), c.city.clone(), c.description.clone()]),
            );
            (
                events.iter().map(|e| e.id).collect::<Vec<_>>(),
                games.iter().map(|g| g.id).collect::<Vec<_>>(),
                players.iter().map(|p| p.id).collect::<Vec<_>>(),
                clubs.iter().map(|c| c.id).collect::<Vec<_>>(),
                data,
            )
        })
        .await;
    let mut data: Vec<String> = data.into_iter().filter(|d| !d.trim().is_empty()).collect();
    data.extend(accounts.iter().map(|a| a.email.clone()));
    // Longest first, so that a name is not cut by a shorter one inside it.
    data.sort_by_key(|d| std::cmp::Reverse(d.len()));
    let mut paths: Vec<String> = [
        "/",
        "/events",
        "/events/new",
        "/players",
        "/players/new",
        "/clubs",
        "/ratings",
        "/ratings/import",
        "/games",
        "/claims",
        "/account",
    ]
    .map(String::from)
    .to_vec();
    for id in &events {
        for tab in [
            "",
            "?tab=entries",
            "?tab=rounds",
            "?tab=standings",
            "?tab=crosstable",
        ] {
            paths.push(format!("/events/{id}{tab}"));
        }
        paths.push(format!("/events/{id}/edit"));
        paths.push(format!("/events/{id}/standings/print"));
        paths.push(format!("/events/{id}/crosstable/print"));
        paths.push(format!("/events/{id}/rounds/1/print"));
        paths.push(format!("/events/{id}/rounds/1/pairing"));
    }
    // A finished game and one in progress, and a few of each list.
    paths.extend(games.iter().take(3).map(|id| format!("/games/{id}")));
    paths.extend(games.iter().rev().take(3).map(|id| format!("/games/{id}")));
    paths.extend(players.iter().take(3).map(|id| format!("/players/{id}")));
    paths.extend(clubs.iter().map(|id| format!("/clubs/{id}")));

    let mut english = Vec::new();
    for path in &paths {
        let page = browser.get(path).await;
        // A print sheet an event does not have yet (404), a pairing no longer open to
        // change (409): refusals, which must be Russian too.
        assert!(
            [200, 404, 409].contains(&page.status.as_u16()),
            "{path}: {}",
            page.body
        );
        let mut seen = seen_text(&page.body);
        for typed in &data {
            seen = seen.replace(typed.as_str(), " ");
        }
        for word in damka::web::i18n::latin::english_words(&seen) {
            english.push(format!("{path}: {word:?}"));
        }
    }
    english.sort();
    english.dedup();
    assert!(
        english.is_empty(),
        "English on Russian pages:\n{}",
        english.join("\n")
    );
}
