//! The player's page and the drawn openings' diagrams (issue 27, items 5 and 6).
//!
//! The player's page lists the player's games by event, newest event first: each published
//! round's opponent (linked), colour, result from the player's side and game link, a bye by
//! its name; a draft round nowhere; games outside events in a group of their own; every
//! result mark and the provisional `?` explained. A drawn opening is drawn as a board with
//! its FEN on the pairings tab, the pairing sheet and the game page, the FEN being the
//! engine's position after the opening's moves. In Chromium at 390 and 1280 px, in both
//! languages, neither the player's page nor a micro-match's pairings scroll sideways.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::collections::HashMap;

use actix_web::http::Method;
use damka_engine::{Game, Variant};
use serde_json::{Value, json};

use crate::common::builders::EventBuilder;
use crate::common::{self, Client, Role, TestApp, page_text as text};

/// The API's entries of an event: entry id to (player id, name).
async fn entries(api: &mut Client<'_>, event: i64) -> HashMap<i64, (i64, String)> {
    api.get(&format!("/api/v1/events/{event}/entries"))
        .await
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["id"].as_i64().unwrap(),
                (
                    e["player_id"].as_i64().unwrap(),
                    e["name"].as_str().unwrap().to_string(),
                ),
            )
        })
        .collect()
}

async fn rounds(api: &mut Client<'_>, event: i64) -> Vec<Value> {
    api.get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json()
        .as_array()
        .unwrap()
        .clone()
}

/// The part of `page` from `start` to the first `end` after it.
fn part<'p>(page: &'p str, start: &str, end: &str) -> &'p str {
    let from = page
        .find(start)
        .unwrap_or_else(|| panic!("{start} not in {page}"));
    let rest = &page[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// A result from one side, as the player's page writes it.
fn symbol(result: &str, as_white: bool) -> &'static str {
    match (result, as_white) {
        ("1/2-1/2", _) => "½",
        ("1-0", true) | ("0-1", false) => "1",
        ("1-0", false) | ("0-1", true) => "0",
        ("+/-", true) | ("-/+", false) => "+",
        ("+/-", false) | ("-/+", true) => "-",
        ("-/-", _) => "--",
        other => panic!("unexpected result {other:?}"),
    }
}

/// What the page must show for `player` in each published round of `event`, in round
/// order: (round, row HTML pieces that must all be there).
async fn expected_rows(
    api: &mut Client<'_>,
    event: i64,
    player: i64,
    ru: bool,
) -> Vec<(i64, Vec<String>)> {
    let names = entries(api, event).await;
    let mut rows = Vec::new();
    for round in rounds(api, event).await {
        if round["published"] != json!(true) {
            continue;
        }
        let number = round["number"].as_i64().unwrap();
        for board in round["boards"].as_array().unwrap() {
            let white = names[&board["white_entry_id"].as_i64().unwrap()].0;
            let black = board["black_entry_id"].as_i64().map(|e| &names[&e]);
            let as_white = white == player;
            if !as_white && black.is_none_or(|b| b.0 != player) {
                continue;
            }
            let mut pieces = vec![format!(r#"<td class="num">{number}</td>"#)];
            match black {
                None => pieces.push(if ru {
                    "свободный тур".to_string()
                } else {
                    "bye (pairing-allocated)".to_string()
                }),
                Some(_) => {
                    let (opponent, name) = if as_white {
                        black.unwrap().clone()
                    } else {
                        names[&board["white_entry_id"].as_i64().unwrap()].clone()
                    };
                    pieces.push(format!(r#"<a href="/players/{opponent}">{name}</a>"#));
                    let colour = match (as_white, ru) {
                        (true, false) => "White",
                        (false, false) => "Black",
                        (true, true) => "Белые",
                        (false, true) => "Чёрные",
                    };
                    pieces.push(format!(r#"<td class="colour">{colour}</td>"#));
                    let result = board["result"].as_str().expect("a result");
                    pieces.push(format!(">{}</abbr>", symbol(result, as_white)));
                    if let Some(game) = board["game_id"].as_i64() {
                        pieces.push(format!(r#"href="/games/{game}""#));
                    }
                }
            }
            rows.push((number, pieces));
        }
    }
    rows
}

fn in_lang(browser: &mut Client<'_>, ru: bool) {
    let header = if ru {
        "ru-RU,ru;q=0.9"
    } else {
        "en-GB,en;q=0.9"
    };
    browser
        .headers
        .push(("accept-language".into(), header.into()));
}

#[actix_web::test]
async fn the_players_page_lists_their_games_by_event() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    // Five players: someone has a bye each round. Round 2 has a forfeit; round 3 is a
    // draft, which the public must not see.
    let swiss = EventBuilder::swiss("Club Swiss", 4)
        .players(5)
        .played(&["1-0", "0-1"])
        .played(&["1/2-1/2", "+/-"])
        .build(&mut api)
        .await;
    let drafted = api
        .post(&format!("/api/v1/events/{}/rounds", swiss.id))
        .await;
    assert_eq!(drafted.status.as_u16(), 201, "{}", drafted.body);
    let names = entries(&mut api, swiss.id).await;
    // The player of round 2's forfeit as Black (it lost by forfeit): a bye, a game and a
    // forfeit make three kinds of rows among them.
    let round2 = &swiss.rounds[1];
    let forfeit_board = common::games(round2)[1];
    let player = names[&forfeit_board["black_entry_id"].as_i64().unwrap()].0;
    let opponent = names[&forfeit_board["white_entry_id"].as_i64().unwrap()].0;

    // A later event with the same player, and a standalone game of theirs.
    let later = common::create_event(
        &mut api,
        json!({"name": "Spring Cup", "system": "swiss", "rounds": 3}),
    )
    .await;
    for id in [player, opponent] {
        let entered = api
            .json(
                Method::POST,
                &format!("/api/v1/events/{later}/entries"),
                json!({ "player_id": id }),
            )
            .await;
        assert_eq!(entered.status.as_u16(), 201, "{}", entered.body);
    }
    common::play_round(&mut api, later, &["0-1"]).await;
    let standalone = api
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": opponent, "black_player_id": player}),
        )
        .await;
    assert_eq!(standalone.status.as_u16(), 201, "{}", standalone.body);
    let standalone = standalone.json()["id"].as_i64().unwrap();

    for ru in [false, true] {
        let mut reader = app.client();
        in_lang(&mut reader, ru);
        let page = reader.get(&format!("/players/{player}")).await;
        assert_eq!(page.status.as_u16(), 200, "{}", page.body);
        let section = part(&page.body, r#"<section id="player-games">"#, "</section>");
        // Newest event first.
        let (spring, club) = (
            section
                .find(&format!(r#"id="event-games-{later}""#))
                .unwrap(),
            section
                .find(&format!(r#"id="event-games-{}""#, swiss.id))
                .unwrap(),
        );
        assert!(spring < club, "the later event first: {section}");
        for event in [swiss.id, later] {
            let group = part(section, &format!(r#"id="event-games-{event}""#), "</table>");
            let expected = expected_rows(&mut api, event, player, ru).await;
            let rows: Vec<&str> = group
                .split(r#"<tr class="player-round">"#)
                .skip(1)
                .collect();
            assert_eq!(
                rows.len(),
                expected.len(),
                "one row a published round: {group}"
            );
            for ((round, pieces), row) in expected.iter().zip(&rows) {
                for piece in pieces {
                    assert!(
                        row.contains(piece.as_str()),
                        "round {round}: {piece} in {row}"
                    );
                }
            }
            assert!(
                group.contains(&format!(r#"<a href="/events/{event}">"#)),
                "{group}"
            );
        }
        // Round 2 of the Swiss: lost by forfeit, a minus with its meaning.
        let club_group = part(
            section,
            &format!(r#"id="event-games-{}""#, swiss.id),
            "</table>",
        );
        let forfeit_title = if ru {
            "поражение без игры"
        } else {
            "lost by forfeit"
        };
        assert!(
            club_group.contains(&format!(r#"<abbr title="{forfeit_title}"#)),
            "{club_group}"
        );
        assert!(
            !club_group.contains(r#"<td class="num">3</td>"#),
            "no draft round: {club_group}"
        );

        // The standalone game: its own group, the opponent linked, Black, in progress.
        let own = part(section, r#"id="standalone-games""#, "</table>");
        assert!(
            own.contains(&format!(r#"href="/games/{standalone}""#)),
            "{own}"
        );
        assert!(
            own.contains(&format!(r#"href="/players/{opponent}""#)),
            "{own}"
        );
        let black = if ru { "Чёрные" } else { "Black" };
        assert!(
            own.contains(&format!(r#"<td class="colour">{black}</td>"#)),
            "{own}"
        );
        assert!(!own.contains("/events/"), "no event game among them: {own}");

        // The marks are explained under the list.
        let legend = if ru {
            "1 — победа, ½ — ничья, 0 — поражение"
        } else {
            "1 — won, ½ — drawn, 0 — lost"
        };
        assert!(text(section).contains(legend), "{section}");
    }
}

#[actix_web::test]
async fn a_provisional_rating_says_what_its_mark_means() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    // Two newcomers play one rated game: their Glicko-2 ratings are still provisional.
    let event = common::create_event(
        &mut api,
        json!({"name": "First steps", "system": "swiss", "rounds": 1}),
    )
    .await;
    let entered = common::enter_named(&mut api, event, &["Newcomer One", "Newcomer Two"]).await;
    common::play_round(&mut api, event, &["1-0"]).await;
    let finished = api.post(&format!("/api/v1/events/{event}/finish")).await;
    assert!(finished.status.is_success(), "{}", finished.body);
    app.with_db(|conn| {
        damka::service::ratings::recompute::recompute(conn, Variant::Russian).unwrap();
    })
    .await;
    let player = entries(&mut api, event).await[&entered[0]].0;
    for ru in [false, true] {
        let mut reader = app.client();
        in_lang(&mut reader, ru);
        let page = reader.get(&format!("/players/{player}")).await.body;
        let (title, legend, deviation) = if ru {
            (
                "предварительный рейтинг: сыграно ещё мало партий",
                "? — предварительный рейтинг: игрок сыграл ещё мало партий",
                "± — отклонение рейтинга",
            )
        } else {
            (
                "provisional rating: too few games yet",
                "? — provisional rating: the player has played few games yet",
                "± — rating deviation",
            )
        };
        assert!(page.contains(&format!(r#"<abbr title="{title}"#)), "{page}");
        assert!(page.contains(">?</abbr>"), "{page}");
        assert!(text(&page).contains(legend), "{page}");
        assert!(page.contains(">±</abbr>"), "{page}");
        assert!(text(&page).contains(deviation), "{page}");
        // The chart has no size in pixels: it is as wide as the page.
        let at = page
            .find(r#"<svg class="chart rating-chart""#)
            .unwrap_or_else(|| panic!("a rating chart: {page}"));
        let tag = &page[at..at + page[at..].find('>').unwrap()];
        assert!(
            tag.contains(r#"width="100%""#) && tag.contains("viewBox="),
            "{tag}"
        );
        assert!(!tag.contains("height=\""), "{tag}");
    }
}

/// The FEN of the engine's position after `moves` from the initial russian position.
fn fen_after(moves: &[String]) -> (String, usize) {
    let mut game = Game::new(Variant::Russian);
    for mv in moves {
        game.play_str(mv).unwrap();
    }
    (game.position().to_fen(), game.position().pieces().len())
}

/// The diagram (`<svg class="game-board opening-board" ...>...</svg>`) just before the
/// FEN `fen` on `page`, with the FEN shown beside it.
fn assert_diagram(page: &str, fen: &str, pieces: usize, what: &str) {
    let shown = format!(r#"<code class="fen opening-fen">{fen}</code>"#);
    let at = page
        .find(&shown)
        .unwrap_or_else(|| panic!("{what}: no FEN {fen} in {page}"));
    let start = page[..at]
        .rfind(r#"<svg class="game-board opening-board""#)
        .unwrap_or_else(|| panic!("{what}: no diagram before the FEN: {page}"));
    let svg = &page[start..start + page[start..].find("</svg>").unwrap()];
    assert!(
        page[start..at].contains("</svg><figcaption>"),
        "{what}: FEN beside its diagram"
    );
    assert_eq!(
        svg.matches(r#"<g class="piece "#).count(),
        pieces,
        "{what}: {svg}"
    );
    assert!(svg.contains("viewBox="), "{what}");
}

#[actix_web::test]
async fn a_drawn_openings_position_is_drawn_with_its_fen_on_three_pages() {
    let app = TestApp::new().await;
    for ru in [false, true] {
        let email = if ru { "ru@t.org" } else { "en@t.org" };
        let mut browser = app.user(email, Role::Organiser).await;
        in_lang(&mut browser, ru);
        let mut api = browser.api_client().await;
        let event = common::create_event(
            &mut api,
            json!({"name": "Ballot Swiss", "system": "swiss", "rounds": 3,
                   "games_per_pairing": 2, "opening_ballot": "custom",
                   "custom_openings": "A1: c3-d4 f6-g5 g3-h4\nA2: c3-b4 b6-a5\nA3: e3-f4 f6-e5 d2-e3\n"}),
        )
        .await;
        common::enter_players(&mut api, event, 4).await;
        common::play_round(&mut api, event, &[]).await;
        let boards: Vec<Value> = rounds(&mut api, event).await[0]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| !b["black_entry_id"].is_null())
            .cloned()
            .collect();
        assert_eq!(boards.len(), 2);
        let tab = browser.get(&format!("/events/{event}?tab=rounds")).await;
        assert_eq!(tab.status.as_u16(), 200);
        let sheet = browser
            .get(&format!("/events/{event}/rounds/1/print"))
            .await;
        assert_eq!(sheet.status.as_u16(), 200);
        for board in &boards {
            let opening = &board["opening"];
            let moves: Vec<String> = opening["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            assert!(!moves.is_empty(), "{opening}");
            let (fen, pieces) = fen_after(&moves);
            assert_eq!(
                opening["fen"],
                fen.as_str(),
                "the stored FEN is the engine's too"
            );
            assert_diagram(&tab.body, &fen, pieces, "pairings tab");
            assert_diagram(&sheet.body, &fen, pieces, "pairing sheet");
            let code = opening["code"].as_str().unwrap();
            for game in board["games"].as_array().unwrap() {
                let page = browser.get(&format!("/games/{}", game["game_id"])).await;
                assert_eq!(page.status.as_u16(), 200);
                assert_diagram(&page.body, &fen, pieces, "game page");
                let shown = text(&page.body);
                assert!(shown.contains(code), "{shown}");
                assert!(shown.contains(&moves.join(" ")), "{shown}");
                let title = if ru {
                    format!("Позиция после начальных ходов по жребию {code}")
                } else {
                    format!("Position after the drawn opening {code}")
                };
                assert!(page.body.contains(&title), "{title}: {}", page.body);
            }
        }
    }
}

/// In Chromium at a phone's and a desktop's width, in both languages: the player's page
/// and a micro-match round's pairings never scroll sideways.
#[test]
fn the_players_page_and_micro_match_pairings_fit_390_and_1280_px() {
    use crate::browser::{
        Process, browser_programs, chromium_capabilities, create_arbiter, free_port, wait_for,
    };
    use anyhow::Context;
    use std::process::Command;

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
        crate::browser::http_get(server_port, "/healthz").is_some_and(|(status, _)| status == 200)
    });
    create_arbiter(&database);
    // The demo's event 3 is its micro-match Swiss with an opening ballot: a player of it.
    let (_, entries) = crate::browser::http_get(server_port, "/api/v1/events/3/entries")
        .expect("the demo's entries");
    let entries: Value = serde_json::from_str(&entries).unwrap();
    let player = entries[0]["player_id"]
        .as_i64()
        .expect("a player in event 3");
    let (driver, driver_port) = crate::browser::start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{server_port}");
    let pages = [
        format!("/players/{player}"),
        "/players/1".to_string(),
        "/events/3?tab=rounds&round=1".to_string(),
        "/events/3?tab=rounds".to_string(),
    ];
    let outcome: anyhow::Result<Vec<String>> = crate::browser::block_on(async {
        let mut problems = Vec::new();
        for width in [390u32, 1280] {
            let mut capabilities = chromium_capabilities(
                &chromium,
                &dir.path().join(format!("profile-{width}")),
                false,
            );
            capabilities["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": { "width": width, "height": 900, "pixelRatio": 1, "touch": false, "mobile": false }
            });
            let c = crate::browser::open_session(driver_port, capabilities)
                .await
                .context("a browser session")?;
            for lang in ["en", "ru"] {
                c.goto(&format!("{base}/")).await?;
                crate::browser::click(
                    &c,
                    &format!(r#"form.lang-switch button[name="lang"][value="{lang}"]"#),
                )
                .await?;
                wait_for(&c, &format!(r#"html[lang="{lang}"]"#)).await?;
                for page in &pages {
                    c.goto(&format!("{base}{page}")).await?;
                    wait_for(&c, "main").await?;
                    let sizes = c
                        .execute(
                            "return [document.documentElement.scrollWidth, window.innerWidth, \
                             document.querySelectorAll('svg.opening-board').length, \
                             (document.querySelector('svg.rating-chart') || {getBoundingClientRect: () => ({width: -1})}).getBoundingClientRect().width, \
                             (document.querySelector('main') || document.body).clientWidth];",
                            vec![],
                        )
                        .await?;
                    let n = |i: usize| sizes[i].as_f64().unwrap_or(0.0);
                    if n(0) > n(1) {
                        problems.push(format!(
                            "{width} px {lang} {page}: the page is {} px wide in a {} px window",
                            n(0),
                            n(1)
                        ));
                    }
                    if page.contains("tab=rounds&round=1") && n(2) < 1.0 {
                        problems.push(format!("{width} px {lang} {page}: no opening diagram"));
                    }
                    // A rating chart spans the page's width (less the main area's padding).
                    if n(3) > 0.0 && n(3) < n(4) * 0.8 {
                        problems.push(format!(
                            "{width} px {lang} {page}: the chart is {} px of {} px",
                            n(3),
                            n(4)
                        ));
                    }
                }
            }
            let _ = c.close().await;
        }
        Ok(problems)
    });
    drop(driver);
    let problems = outcome.unwrap_or_else(|e| panic!("{e:#}\n{}", server.log_text()));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
