//! The pages of a micro-match event with an opening ballot, in English and in Russian: the
//! pairings tab names each board's opening and both games (links, colours, results, the
//! match score), the officials' form takes each game's result, the crosstable, its sheet,
//! the pairing sheet and the player card show both games, the game page links the other
//! game and marks the drawn moves, the information tab names the settings; a one-game
//! event's pages say nothing of micro-matches.
#![allow(clippy::unwrap_used)]
use crate::common::{self, Client, Role, TestApp};

use serde_json::{Value, json};

use common::page_text as text;

#[derive(Clone, Copy, PartialEq)]
enum Lang {
    En,
    Ru,
}

async fn browser_in(app: &TestApp, lang: Lang) -> Client<'_> {
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let header = match lang {
        Lang::En => "en-GB,en;q=0.9",
        Lang::Ru => "ru-RU,ru;q=0.9",
    };
    browser
        .headers
        .push(("accept-language".into(), header.into()));
    browser
}

/// The English catalogue's texts of the micro-match and ballot pages (without their
/// `{n}` arguments), none of which may show on a Russian page.
fn english_micro_texts() -> Vec<String> {
    let catalogue = include_str!("../../backend/web/i18n/en.txt");
    let prefixes = [
        "micro.",
        "event.games_per_pairing",
        "event.match_scoring",
        "match_scoring.",
        "event.opening_ballot",
        "ballot.idf64",
        "event.ballot_per",
        "ballot_per.",
    ];
    catalogue
        .lines()
        .filter_map(|line| line.split_once(" = "))
        .filter(|(key, _)| prefixes.iter().any(|p| key.starts_with(p)))
        .flat_map(|(_, value)| {
            value
                .split(|c: char| c == '{' || c == '}' || c.is_ascii_digit())
                .map(str::trim)
                .filter(|piece| piece.chars().filter(|c| c.is_alphabetic()).count() >= 5)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn assert_russian(page: &str, what: &str) {
    let page = text(page);
    for english in english_micro_texts() {
        assert!(
            !page.contains(&english),
            "{what}: English «{english}» on a Russian page: {page}"
        );
    }
    for word in [
        "Game ",
        "Opening",
        "micro-match",
        "Micro-match",
        "White",
        "Black",
    ] {
        assert!(!page.contains(word), "{what}: «{word}» in {page}");
    }
}

async fn boards_of_round(api: &mut Client<'_>, event: i64, round: usize) -> Vec<Value> {
    let rounds = api
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    rounds[round - 1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .cloned()
        .collect()
}

fn moves_of(opening: &Value) -> Vec<String> {
    opening["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// How a page names a board's opening: with its moves, or, for a table entry that is a
/// position of its own, by its code and a note saying so.
fn opening_line(lang: Lang, opening: &Value) -> String {
    let code = opening["code"].as_str().unwrap();
    let moves = moves_of(opening).join(" ");
    match (lang, moves.is_empty()) {
        (Lang::En, false) => format!("Opening {code}: {moves}"),
        (Lang::Ru, false) => format!("Начальные ходы {code}: {moves}"),
        (Lang::En, true) => format!("Opening {code}: it starts from a position of its own"),
        (Lang::Ru, true) => format!(
            "Позиция {code}: партия начинается не из исходной расстановки, а из этой позиции"
        ),
    }
}

/// The text of the table row (`<tr ...>` to `</tr>`) of `page` that contains `needle`.
fn row_with<'p>(page: &'p str, needle: &str) -> &'p str {
    let at = page
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not on {page}"));
    let start = page[..at].rfind("<tr").unwrap();
    let end = at + page[at..].find("</tr>").unwrap();
    &page[start..end]
}

async fn micro_match_swiss(lang: Lang) {
    let app = TestApp::new().await;
    let mut browser = browser_in(&app, lang).await;
    let mut api = browser.api_client().await;
    let event = common::create_event(
        &mut api,
        json!({"name": "Cup", "system": "swiss", "rounds": 3, "games_per_pairing": 2,
               "opening_ballot": "idf64"}),
    )
    .await;
    common::enter_players(&mut api, event, 4).await;
    assert_eq!(
        api.post(&format!("/api/v1/events/{event}/rounds"))
            .await
            .status
            .as_u16(),
        201
    );
    assert_eq!(
        api.post(&format!("/api/v1/events/{event}/rounds/publish"))
            .await
            .status
            .as_u16(),
        204
    );
    let boards = boards_of_round(&mut api, event, 1).await;
    assert_eq!(boards.len(), 2);

    // The information tab: the settings in the reader's language.
    let info = browser.get(&format!("/events/{event}")).await;
    assert_eq!(info.status.as_u16(), 200);
    let info_text = text(&info.body);
    let expected: &[&str] = match lang {
        Lang::En => &[
            "Games per pairing",
            "2 games (micro-match, colours swapped in the second)",
            "Micro-match scoring",
            "game points summed",
            "Opening ballot",
            "IDF Drawing Table 64",
            "for each pairing",
        ],
        Lang::Ru => &[
            "Партий в паре",
            "2 партии (микроматч, во второй партии цвет меняется)",
            "Подсчёт очков в микроматче",
            "Сумма очков за партии",
            "Жеребьёвка начальных ходов",
            "Таблица IDF",
            "Для каждой пары",
        ],
    };
    for words in expected {
        assert!(info_text.contains(words), "info: {words}: {info_text}");
    }
    if lang == Lang::Ru {
        assert_russian(&info.body, "info");
    }

    // The pairings tab: each board's opening and both games with their links.
    let tab = browser.get(&format!("/events/{event}?tab=rounds")).await;
    assert_eq!(tab.status.as_u16(), 200);
    let tab_text = text(&tab.body);
    for board in &boards {
        let line = opening_line(lang, &board["opening"]);
        assert!(tab_text.contains(&line), "{line}: {tab_text}");
        let pairing = board["pairing_id"].as_i64().unwrap();
        for (n, game) in board["games"].as_array().unwrap().iter().enumerate() {
            let link = format!("href=\"/games/{}\"", game["game_id"]);
            assert!(tab.body.contains(&link), "{link}: {}", tab.body);
            let field = format!("name=\"result_{pairing}_{}\"", n + 1);
            assert!(tab.body.contains(&field), "{field}: {}", tab.body);
        }
        assert!(
            !tab.body.contains(&format!("name=\"result_{pairing}\"")),
            "no whole-pairing result in a micro-match: {}",
            tab.body
        );
        // Game 2 is played with colours swapped: its White is the pairing's Black.
        let black = board["black_name"].as_str().unwrap();
        let second = match lang {
            Lang::En => format!("Game 2 · White: {black}"),
            Lang::Ru => format!("Партия 2 · белыми: {black}"),
        };
        assert!(tab_text.contains(&second), "{second}: {tab_text}");
    }
    if lang == Lang::Ru {
        assert!(tab_text.contains("микроматч"), "{tab_text}");
        assert_russian(&tab.body, "pairings tab");
    }

    // The officials' form: each game's result. Board 1: the pairing's White wins game 1
    // and draws game 2 (1½–½); board 2: the pairing's Black wins game 1 with Black and
    // loses game 2 with White (1–1).
    let (p1, p2) = (
        boards[0]["pairing_id"].as_i64().unwrap(),
        boards[1]["pairing_id"].as_i64().unwrap(),
    );
    let fields = [
        (format!("result_{p1}_1"), "1-0"),
        (format!("result_{p1}_2"), "1/2-1/2"),
        (format!("result_{p2}_1"), "0-1"),
        (format!("result_{p2}_2"), "0-1"),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let saved = browser
        .post_form(&format!("/events/{event}/rounds/1/results"), &fields)
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    let stored = boards_of_round(&mut api, event, 1).await;
    let results = |b: &Value| -> Vec<Value> {
        b["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["result"].clone())
            .collect()
    };
    assert_eq!(results(&stored[0]), vec![json!("1-0"), json!("1/2-1/2")]);
    assert_eq!(results(&stored[1]), vec![json!("0-1"), json!("0-1")]);
    assert_eq!(stored[0]["result"], "1-0", "the pairing's collapsed result");
    assert_eq!(stored[1]["result"], "1/2-1/2");

    let tab = browser.get(&format!("/events/{event}?tab=rounds")).await;
    let tab_text = text(&tab.body);
    assert!(tab_text.contains("1½–½"), "{tab_text}");
    assert!(tab_text.contains("1–1"), "{tab_text}");
    assert!(
        tab.body.contains("selected>1-0</option>"),
        "the form shows the stored game result: {}",
        tab.body
    );

    // The crosstable: both games in a cell (board 1's White: game 1 won, game 2 drawn).
    let white1 = stored[0]["white_start_no"].as_i64().unwrap();
    let black2 = stored[1]["black_start_no"].as_i64().unwrap();
    let cross = api
        .get(&format!("/api/v1/events/{event}/crosstable"))
        .await
        .json();
    let cell_of = |start_no: i64| -> String {
        let row = cross["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["start_no"] == start_no)
            .unwrap();
        row["cells"][0]["text"].as_str().unwrap().to_string()
    };
    let cell1 = cell_of(white1);
    assert!(cell1.ends_with("w 1 ½"), "{cell1}");
    // Board 2's Black: game 1 won with Black, game 2 lost with White.
    let cell2 = cell_of(black2);
    assert!(cell2.ends_with("b 1 0"), "{cell2}");
    let shown = |cell: &str| match lang {
        Lang::En => cell.to_string(),
        Lang::Ru => cell.replace('w', "б").replace('b', "ч"),
    };
    let cross_tab = browser
        .get(&format!("/events/{event}?tab=crosstable"))
        .await;
    assert_eq!(cross_tab.status.as_u16(), 200);
    let cross_text = text(&cross_tab.body);
    for cell in [&cell1, &cell2] {
        assert!(cross_text.contains(&shown(cell)), "{cell}: {cross_text}");
    }
    let cross_sheet = browser
        .get(&format!("/events/{event}/crosstable/print"))
        .await;
    assert_eq!(cross_sheet.status.as_u16(), 200);
    let sheet_text = text(&cross_sheet.body);
    for cell in [&cell1, &cell2] {
        assert!(sheet_text.contains(&shown(cell)), "{cell}: {sheet_text}");
    }
    if lang == Lang::Ru {
        assert!(cross_text.contains("микроматче"), "{cross_text}");
        assert_russian(&cross_tab.body, "crosstable");
        assert_russian(&cross_sheet.body, "crosstable sheet");
    }

    // The pairing sheet: the opening under each board, a box for each game, the results
    // as the left player's – the right player's points.
    let sheet = browser
        .get(&format!("/events/{event}/rounds/1/print"))
        .await;
    assert_eq!(sheet.status.as_u16(), 200);
    let game_cols: [&str; 2] = match lang {
        Lang::En => ["Game 1", "Game 2"],
        Lang::Ru => ["Партия 1", "Партия 2"],
    };
    for col in game_cols {
        assert!(sheet.body.contains(col), "{col}: {}", sheet.body);
    }
    for board in &stored {
        let line = opening_line(lang, &board["opening"]);
        assert!(text(&sheet.body).contains(&line), "{line}: {}", sheet.body);
    }
    let row1 = text(row_with(
        &sheet.body,
        stored[0]["white_name"].as_str().unwrap(),
    ));
    assert!(row1.contains("1 - 0 ½ - ½"), "{row1}");
    let row2 = text(row_with(
        &sheet.body,
        stored[1]["white_name"].as_str().unwrap(),
    ));
    assert!(row2.contains("0 - 1 1 - 0"), "{row2}");
    if lang == Lang::Ru {
        assert_russian(&sheet.body, "pairing sheet");
    }

    // The player card: both games and the match score, the player's points first.
    let card = browser
        .get(&format!("/events/{event}/players/{black2}"))
        .await;
    assert_eq!(card.status.as_u16(), 200);
    let card_text = text(&card.body);
    assert!(card_text.contains("1 · 0 (1–1)"), "{card_text}");
    let colours = match lang {
        Lang::En => "Black, then White",
        Lang::Ru => "чёрными, затем белыми",
    };
    assert!(card_text.contains(colours), "{card_text}");
    let card1 = text(
        &browser
            .get(&format!("/events/{event}/players/{white1}"))
            .await
            .body,
    );
    assert!(card1.contains("1 · ½ (1½–½)"), "{card1}");
    if lang == Lang::Ru {
        assert_russian(&card.body, "player card");
    }

    // The game pages: which game of the micro-match, the other one linked, the drawn
    // moves marked.
    let games = stored[0]["games"].as_array().unwrap();
    let (g1, g2) = (
        games[0]["game_id"].as_i64().unwrap(),
        games[1]["game_id"].as_i64().unwrap(),
    );
    let opening = &stored[0]["opening"];
    let code = opening["code"].as_str().unwrap();
    let plies = moves_of(opening).len();
    for (game, other, which) in [(g1, g2, 1), (g2, g1, 2)] {
        let page = browser.get(&format!("/games/{game}")).await;
        assert_eq!(page.status.as_u16(), 200);
        let page_text = text(&page.body);
        let (title, link) = match (lang, which) {
            (Lang::En, 1) => (
                "Game 1 of 2 of the micro-match",
                "the micro-match's second game",
            ),
            (Lang::En, _) => (
                "Game 2 of 2 of the micro-match",
                "the micro-match's first game",
            ),
            (Lang::Ru, 1) => ("Первая партия микроматча", "вторая партия микроматча"),
            (Lang::Ru, _) => ("Вторая партия микроматча", "первая партия микроматча"),
        };
        assert!(page_text.contains(title), "{title}: {page_text}");
        assert!(page_text.contains(link), "{link}: {page_text}");
        assert!(
            page.body
                .contains(&format!("class=\"other-game\" href=\"/games/{other}\"")),
            "{}",
            page.body
        );
        assert!(page_text.contains(code), "{code}: {page_text}");
        assert_eq!(
            page.body.matches("class=\"opening\" title=").count(),
            plies,
            "every drawn ply is marked: {}",
            page.body
        );
        if lang == Lang::Ru {
            assert!(
                page_text.contains(&format!("Позиция {code} по жребию")),
                "{page_text}"
            );
            assert_russian(&page.body, "game page");
        }
    }
}

#[actix_web::test]
async fn a_micro_match_swiss_shows_both_games_in_english() {
    micro_match_swiss(Lang::En).await;
}

#[actix_web::test]
async fn a_micro_match_swiss_shows_both_games_in_russian() {
    micro_match_swiss(Lang::Ru).await;
}

/// Words only a micro-match or a ballot puts on a page.
const MICRO_WORDS: [&str; 8] = [
    "micro-games",
    "Game 1",
    "Game 2",
    "Match score",
    "Opening",
    "Games per pairing",
    "micro-match",
    "class=\"opening\"",
];

#[actix_web::test]
async fn a_one_game_event_has_no_micro_match_wording() {
    let app = TestApp::new().await;
    let mut browser = browser_in(&app, Lang::En).await;
    let mut api = browser.api_client().await;
    let event = common::create_event(
        &mut api,
        json!({"name": "Club evening", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut api, event, 4).await;
    let round = common::play_round(&mut api, event, &["1-0"]).await;
    let pairing = round["boards"][0]["pairing_id"].as_i64().unwrap();
    let open = round["boards"][1]["pairing_id"].as_i64().unwrap();
    let game = boards_of_round(&mut api, event, 1).await[0]["game_id"]
        .as_i64()
        .unwrap();
    let white = round["boards"][0]["white_start_no"].as_i64().unwrap();
    for path in [
        format!("/events/{event}"),
        format!("/events/{event}?tab=rounds"),
        format!("/events/{event}?tab=crosstable"),
        format!("/events/{event}/crosstable/print"),
        format!("/events/{event}/rounds/1/print"),
        format!("/events/{event}/players/{white}"),
        format!("/games/{game}"),
    ] {
        let page = browser.get(&path).await;
        assert_eq!(page.status.as_u16(), 200, "{path}");
        for word in MICRO_WORDS {
            assert!(!page.body.contains(word), "{path}: {word} in {}", page.body);
        }
    }
    // The results form still takes one result a board, and stores it.
    let tab = browser
        .get(&format!("/events/{event}?tab=rounds"))
        .await
        .body;
    assert!(tab.contains(&format!("name=\"result_{open}\"")), "{tab}");
    assert!(!tab.contains(&format!("name=\"result_{open}_1\"")), "{tab}");
    let saved = browser
        .post_form(
            &format!("/events/{event}/rounds/1/results"),
            &[
                (&format!("result_{pairing}"), "1-0"),
                (&format!("result_{open}"), "0-1"),
            ],
        )
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    let stored = boards_of_round(&mut api, event, 1).await;
    assert_eq!(stored[1]["result"], "0-1");
}

#[actix_web::test]
async fn an_opening_drawn_for_the_whole_round_is_named_once() {
    let app = TestApp::new().await;
    let mut browser = browser_in(&app, Lang::En).await;
    let mut api = browser.api_client().await;
    let event = common::create_event(
        &mut api,
        json!({"name": "Ballot evening", "system": "swiss", "rounds": 3,
               "opening_ballot": "custom", "ballot_per": "round",
               "custom_openings": "X1: c3-d4 f6-g5\nX2: c3-b4 f6-g5\n"}),
    )
    .await;
    common::enter_players(&mut api, event, 4).await;
    common::play_round(&mut api, event, &[]).await;
    let boards = boards_of_round(&mut api, event, 1).await;
    let code = boards[0]["opening"]["code"].as_str().unwrap().to_string();
    assert_eq!(
        boards[1]["opening"]["code"],
        code.as_str(),
        "one for the round"
    );

    let info = text(&browser.get(&format!("/events/{event}")).await.body);
    assert!(
        info.contains("the organiser's own table (2 openings)"),
        "{info}"
    );
    assert!(info.contains("once for the whole round"), "{info}");
    assert!(
        !info.contains("Games per pairing"),
        "one game a pairing: {info}"
    );

    let tab = browser
        .get(&format!("/events/{event}?tab=rounds"))
        .await
        .body;
    let moves = moves_of(&boards[0]["opening"]).join(" ");
    let line = format!("Opening for the whole round: {code}: {moves}");
    assert_eq!(text(&tab).matches(&line).count(), 1, "{line}: {tab}");
    assert!(
        !text(&tab).contains(&format!("Opening {code}")),
        "not per board: {tab}"
    );
    assert!(!tab.contains("micro-games"), "{tab}");

    let sheet = text(
        &browser
            .get(&format!("/events/{event}/rounds/1/print"))
            .await
            .body,
    );
    assert_eq!(sheet.matches(&line).count(), 1, "{line}: {sheet}");

    // A one-game event's game page marks the drawn moves too, and names no other game.
    let game = browser
        .get(&format!("/games/{}", boards[0]["game_id"]))
        .await
        .body;
    assert_eq!(
        game.matches("class=\"opening\" title=").count(),
        2,
        "{game}"
    );
    assert!(
        text(&game).contains(&format!("Opening {code}, drawn by lot")),
        "{game}"
    );
    assert!(!game.contains("other-game"), "{game}");
    assert!(!game.contains("micro-match"), "{game}");
}
