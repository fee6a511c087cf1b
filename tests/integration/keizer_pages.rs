//! The pages of a Keizer event, in English and in Russian: the event form with a preset and
//! with options typed one by one (stored as the API reads them back), a refused option named
//! in the reader's language at its input, a player announcing their own absence on the
//! entries tab, the organiser's check list of who is here (late arrivals ticked again),
//! the standings tab and its print sheet with the Keizer columns, the player's card
//! explaining the score round by round, and the information tab naming the options.
#![allow(clippy::unwrap_used)]
use crate::common::{self, Client, Response, Role, TestApp};

use actix_web::http::Method;
use serde_json::{Value, json};

use common::page_text as text;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Lang {
    En,
    Ru,
}

fn speak(client: &mut Client<'_>, lang: Lang) {
    let header = match lang {
        Lang::En => "en-GB,en;q=0.9",
        Lang::Ru => "ru-RU,ru;q=0.9",
    };
    client
        .headers
        .push(("accept-language".into(), header.into()));
}

/// The English catalogue's texts that came with the Keizer pages (without their `{n}`
/// arguments), none of which may show on a Russian page.
fn english_keizer_texts() -> Vec<String> {
    let catalogue = include_str!("../../backend/web/i18n/en.txt");
    let keys = [
        "keizer.",
        "system.keizer",
        "event.rounds_keizer_hint",
        "event.bye.excused",
        "event.bye.club_duty",
        "flash.presence_saved",
    ];
    catalogue
        .lines()
        .filter_map(|line| line.split_once(" = "))
        .filter(|(key, _)| keys.iter().any(|k| key.starts_with(k)))
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
    let english = english_keizer_texts();
    assert!(english.len() > 50, "the Keizer texts were found");
    for piece in english {
        assert!(
            !page.contains(&piece),
            "{what}: English «{piece}» on a Russian page: {page}"
        );
    }
    for word in ["Keizer", "Value", "Games", "Absences", "Points", "absent"] {
        assert!(!page.contains(word), "{what}: «{word}» in {page}");
    }
}

/// The table row (`<tr ...>` to `</tr>`) of `page` that contains `needle`, as text.
fn row_with(page: &str, needle: &str) -> String {
    let at = page
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not on {page}"));
    let start = page[..at].rfind("<tr").unwrap();
    let end = at + page[at..].find("</tr>").unwrap();
    text(&page[start..end])
}

/// A Keizer score as a page writes it: up to two decimals, the reader's decimal mark.
fn shown(points: f64, lang: Lang) -> String {
    let hundredths = (points * 100.0).round() as i64;
    let text = if hundredths % 100 == 0 {
        format!("{}", hundredths / 100)
    } else if hundredths % 10 == 0 {
        format!("{}.{}", hundredths / 100, (hundredths % 100) / 10)
    } else {
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    };
    match lang {
        Lang::En => text,
        Lang::Ru => text.replace('.', ","),
    }
}

fn assert_status(res: &Response, status: u16) {
    assert_eq!(res.status.as_u16(), status, "{}", res.body);
}

/// The basic fields of the event form for a Keizer season.
fn keizer_form<'a>(name: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("name", name),
        ("system", "keizer"),
        ("rounds", "0"),
        ("variant", "russian"),
        ("time_control", "classical"),
        ("scoring_display", "1-0.5-0"),
        ("first_colour", "white"),
    ];
    fields.extend_from_slice(extra);
    fields
}

async fn keizer_options(api: &mut Client<'_>, id: i64) -> Value {
    let event = api.get(&format!("/api/v1/events/{id}")).await;
    assert_status(&event, 200);
    let event = event.json();
    assert_eq!(event["system"], "keizer", "{event}");
    event["keizer"].clone()
}

/// The event form offers the Keizer system with its options and presets in both
/// languages; a preset fills the options whatever was typed, "as typed" takes each field;
/// a refused option comes back at its input, named in the reader's language.
#[actix_web::test]
async fn the_event_form_sets_keizer_options_by_preset_or_as_typed() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;

    for lang in [Lang::En, Lang::Ru] {
        let mut browser = app.client();
        browser.cookies = org.cookies.clone();
        speak(&mut browser, lang);
        let blank = browser.get("/events/new").await;
        assert_status(&blank, 200);
        let page = text(&blank.body);
        let expected: &[&str] = match lang {
            Lang::En => &[
                "Keizer",
                "Keizer system options",
                "as typed below",
                "KNSB sixths: as the defaults, but the bye ½",
                "No own value: only games and absences score",
                "Win: sixths of the opponent's value",
                "Absent with notice: sixths of one's own value",
                "Playing for the club elsewhere: sixths of one's own value",
                "Absent without notice: sixths of one's own value",
                "leave 0 for an open season",
                "iterative (recomputed until the ranking settles)",
            ],
            Lang::Ru => &[
                "Система Кейзера",
                "Параметры системы Кейзера",
                "как указано ниже",
                "Без собственной ценности",
                "Победа: шестых долей ценности соперника",
                "Отсутствие по уважительной причине: шестых долей собственной ценности",
                "Игра за клуб в другом соревновании",
                "Неявка без предупреждения",
                "0 — число туров заранее не задано",
                "Ценность лидера (пусто — по числу участников)",
            ],
        };
        for words in expected {
            assert!(page.contains(words), "{lang:?}: «{words}» in {page}");
        }
        assert!(blank.body.contains("<option value=\"keizer\">"));
        for name in [
            "keizer_preset",
            "keizer_top_value",
            "keizer_value_step",
            "keizer_own_value",
            "keizer_win_sixths",
            "keizer_draw_sixths",
            "keizer_loss_sixths",
            "keizer_bye_sixths",
            "keizer_excused_sixths",
            "keizer_club_duty_sixths",
            "keizer_absent_sixths",
            "keizer_max_scored_absences",
            "keizer_method",
            "keizer_repeat_gap",
        ] {
            assert!(
                blank.body.contains(&format!("name=\"{name}\"")),
                "{name} on the form"
            );
        }
        // The defaults stand in the fields of a new event.
        assert!(
            blank
                .body
                .contains("name=\"keizer_bye_sixths\" value=\"4\""),
            "{}",
            blank.body
        );
        if lang == Lang::Ru {
            assert_russian(&blank.body, "the event form");
        }
    }

    // A preset: its options, whatever the fields say.
    let created = org
        .post_form(
            "/events",
            &keizer_form(
                "Club night (KNSB)",
                &[
                    ("keizer_preset", "knsb"),
                    ("keizer_win_sixths", "5"),
                    ("keizer_top_value", "40"),
                ],
            ),
        )
        .await;
    let knsb = common::created_event_id(&created);
    let options = keizer_options(&mut api, knsb).await;
    assert_eq!(options["bye_sixths"], 3, "{options}");
    assert_eq!(options["win_sixths"], 6, "{options}");
    assert_eq!(options["excused_sixths"], 2, "{options}");
    assert_eq!(options["club_duty_sixths"], 4, "{options}");
    assert_eq!(options["own_value"], true, "{options}");
    assert!(options["top_value"].is_null(), "{options}");
    let event = api.get(&format!("/api/v1/events/{knsb}")).await.json();
    assert_eq!(event["rounds"], 0, "an open season: {event}");

    let created = org
        .post_form(
            "/events",
            &keizer_form("No own value", &[("keizer_preset", "no_own_value")]),
        )
        .await;
    let no_own = common::created_event_id(&created);
    let options = keizer_options(&mut api, no_own).await;
    assert_eq!(options["own_value"], false, "{options}");
    assert_eq!(options["bye_sixths"], 4, "{options}");

    // As typed: every option from its field.
    let typed = [
        ("keizer_preset", "custom"),
        ("keizer_top_value", "50"),
        ("keizer_value_step", "2"),
        ("keizer_own_value", "no"),
        ("keizer_win_sixths", "6"),
        ("keizer_draw_sixths", "3"),
        ("keizer_loss_sixths", "1"),
        ("keizer_bye_sixths", "3"),
        ("keizer_excused_sixths", "1"),
        ("keizer_club_duty_sixths", "5"),
        ("keizer_absent_sixths", "0"),
        ("keizer_max_scored_absences", "3"),
        ("keizer_method", "per_round"),
        ("keizer_repeat_gap", "2"),
    ];
    let created = org
        .post_form("/events", &keizer_form("Typed season", &typed))
        .await;
    let custom = common::created_event_id(&created);
    let options = keizer_options(&mut api, custom).await;
    assert_eq!(
        options,
        json!({"top_value": 50, "value_step": 2, "own_value": false, "win_sixths": 6,
               "draw_sixths": 3, "loss_sixths": 1, "bye_sixths": 3, "excused_sixths": 1,
               "club_duty_sixths": 5, "absent_sixths": 0, "max_scored_absences": 3,
               "method": "per_round", "repeat_gap": 2})
    );
    // The edit form shows them back, and saving it unchanged keeps them.
    let edit = org.get(&format!("/events/{custom}/edit")).await;
    assert_status(&edit, 200);
    for (name, value) in &typed[1..] {
        if *name == "keizer_own_value" || *name == "keizer_method" {
            assert!(
                edit.body
                    .contains(&format!("<option value=\"{value}\" selected>")),
                "{name} = {value} selected"
            );
        } else {
            assert!(
                edit.body
                    .contains(&format!("name=\"{name}\" value=\"{value}\"")),
                "{name} = {value} on the edit form"
            );
        }
    }
    let saved = org
        .post_form(
            &format!("/events/{custom}"),
            &keizer_form("Typed season", &typed),
        )
        .await;
    assert_status(&saved, 303);
    assert_eq!(keizer_options(&mut api, custom).await, options);

    // A share over the whole value: refused at the field `keizer`, the option named in
    // the reader's words and its input marked; nothing is created.
    for lang in [Lang::En, Lang::Ru] {
        let mut browser = app.client();
        browser.cookies = org.cookies.clone();
        speak(&mut browser, lang);
        let refused = browser
            .post_form(
                "/events",
                &keizer_form("Too generous", &[("keizer_bye_sixths", "7")]),
            )
            .await;
        assert_status(&refused, 422);
        let page = text(&refused.body);
        let message = match lang {
            Lang::En => "bye is more than the whole value: at most 6 sixths",
            Lang::Ru => "свободный тур: больше всей ценности, допустимо не больше 6 шестых",
        };
        assert!(page.contains(message), "{lang:?}: {page}");
        assert!(!page.contains("bye_sixths"), "no option code: {page}");
        assert!(
            refused.body.contains(
                "name=\"keizer_bye_sixths\" value=\"7\" autocomplete=\"off\" aria-invalid=\"true\""
            ),
            "the input is marked and keeps what was typed: {}",
            refused.body
        );
        if lang == Lang::Ru {
            assert_russian(&refused.body, "the refused form");
        }
    }
    let refused = org
        .post_form(
            "/events",
            &keizer_form("Bad method", &[("keizer_method", "twice")]),
        )
        .await;
    assert_status(&refused, 422);
    assert!(
        refused
            .body
            .contains("must be one of: iterative, per_round"),
        "{}",
        refused.body
    );
    let listed = api.get("/api/v1/events").await.json();
    assert_eq!(
        listed["items"].as_array().unwrap().len(),
        3,
        "only the three good forms made events: {listed}"
    );
}

/// A player account with its own profile, entered in the event by the organiser: its
/// browser (in `lang`), its player id and its entry id.
async fn entered_player<'a>(
    app: &'a TestApp,
    org_api: &mut Client<'_>,
    event: i64,
    lang: Lang,
) -> (Client<'a>, i64) {
    let mut browser = app.user("ivanov@t.org", Role::Player).await;
    speak(&mut browser, lang);
    let mut own_api = browser.api_client().await;
    let made = own_api
        .json(Method::POST, "/api/v1/players", json!({"name": "Ivanov"}))
        .await;
    assert_status(&made, 201);
    let player_id = made.json()["id"].as_i64().unwrap();
    let entry = org_api
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/entries"),
            json!({ "player_id": player_id }),
        )
        .await;
    assert_status(&entry, 201);
    (browser, entry.json()["id"].as_i64().unwrap())
}

async fn check_list(api: &mut Client<'_>, event: i64) -> Value {
    let list = api.get(&format!("/api/v1/events/{event}/presence")).await;
    assert_status(&list, 200);
    list.json()
}

/// The absence the check list holds for `entry` (null: present).
fn absence_of(list: &Value, entry: i64) -> Value {
    list["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["entry_id"] == entry)
        .unwrap_or_else(|| panic!("{entry} on {list}"))["absence"]
        .clone()
}

/// A club night: a player announces their absence on the entries tab, the organiser
/// ticks who came (a late arrival ticked again), the round is paired and played over the
/// API, and the standings, their print sheet and the cards explain the Keizer scores in
/// the reader's language.
async fn a_keizer_night(lang: Lang) {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    speak(&mut org, lang);
    let mut api = org.api_client().await;
    let event = common::create_event(
        &mut api,
        json!({"name": "Club season", "system": "keizer", "rounds": 0}),
    )
    .await;
    let others = common::enter_players(&mut api, event, 5).await;
    let (mut ivanov, ivanov_entry) = entered_player(&app, &mut api, event, lang).await;

    // The player's own entries tab: one absence form, their own, with the Keizer kinds.
    let entries = ivanov.get(&format!("/events/{event}?tab=entries")).await;
    assert_status(&entries, 200);
    assert_eq!(
        entries.body.matches("/absence\"").count(),
        1,
        "only their own entry's form: {}",
        entries.body
    );
    assert!(entries.body.contains(&format!(
        "action=\"/events/{event}/entries/{ivanov_entry}/absence\""
    )));
    let kinds: &[(&str, &str)] = match lang {
        Lang::En => &[
            ("excused", "absent with notice"),
            ("club_duty", "playing for the club"),
            ("Z", "absent without notice"),
        ],
        Lang::Ru => &[
            ("excused", "отсутствие по уважительной причине"),
            ("club_duty", "игра за клуб"),
            ("Z", "неявка без предупреждения"),
        ],
    };
    for (value, label) in kinds {
        assert!(
            entries
                .body
                .contains(&format!("<option value=\"{value}\">{label}</option>")),
            "{value}: {label} offered: {}",
            entries.body
        );
    }
    assert!(
        !entries.body.contains("<option value=\"H\""),
        "no half-point bye"
    );
    let announced = ivanov
        .post_form(
            &format!("/events/{event}/entries/{ivanov_entry}/absence"),
            &[("round", "1"), ("kind", "excused")],
        )
        .await;
    assert_status(&announced, 303);
    let entries = org.get(&format!("/events/{event}?tab=entries")).await;
    let announced_text = match lang {
        Lang::En => "absent with notice in round 1",
        Lang::Ru => "тур 1: отсутствие по уважительной причине",
    };
    assert!(
        row_with(&entries.body, ">Ivanov<").contains(announced_text),
        "{}",
        row_with(&entries.body, ">Ivanov<")
    );
    if lang == Lang::Ru {
        assert_russian(&entries.body, "the entries tab");
    }

    // The officials' link to the check list, before the round is paired.
    let rounds_tab = org.get(&format!("/events/{event}?tab=rounds")).await;
    assert!(
        rounds_tab
            .body
            .contains(&format!("href=\"/events/{event}/presence\"")),
        "{}",
        rounds_tab.body
    );
    let players_tab = ivanov.get(&format!("/events/{event}?tab=rounds")).await;
    assert!(!players_tab.body.contains("/presence\""));
    assert_status(&ivanov.get(&format!("/events/{event}/presence")).await, 403);

    // The check list: everyone, ticked unless absent; Ivanov's absence by its kind.
    let list_page = org.get(&format!("/events/{event}/presence")).await;
    assert_status(&list_page, 200);
    let title = match lang {
        Lang::En => "Check list for round 1",
        Lang::Ru => "Отметка явки на 1-й тур",
    };
    assert!(text(&list_page.body).contains(title));
    for (i, entry) in others.iter().enumerate() {
        let row = row_with(&list_page.body, &format!(">Player {i:02}<"));
        assert!(!row.contains(kinds[0].1), "{row}");
        assert!(
            list_page
                .body
                .contains(&format!("name=\"present_{entry}\" value=\"1\" checked>")),
            "{entry} ticked"
        );
    }
    assert!(row_with(&list_page.body, ">Ivanov<").contains(kinds[0].1));
    assert!(
        list_page
            .body
            .contains(&format!("name=\"present_{ivanov_entry}\" value=\"1\">")),
        "Ivanov not ticked: {}",
        list_page.body
    );
    if lang == Lang::Ru {
        assert_russian(&list_page.body, "the check list");
    }

    // Players 03 and 04 are not here yet: absent without notice; Ivanov stays excused.
    let present = |ids: &[i64]| -> Vec<(String, String)> {
        ids.iter()
            .map(|id| (format!("present_{id}"), "1".to_string()))
            .collect()
    };
    let first = present(&others[..3]);
    let fields: Vec<(&str, &str)> = first
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let saved = org
        .post_form(&format!("/events/{event}/presence"), &fields)
        .await;
    assert_status(&saved, 303);
    assert_eq!(saved.location(), format!("/events/{event}?tab=rounds"));
    let list = check_list(&mut api, event).await;
    assert_eq!(absence_of(&list, others[3]), "Z");
    assert_eq!(absence_of(&list, others[4]), "Z");
    assert_eq!(absence_of(&list, ivanov_entry), "excused");
    assert!(absence_of(&list, others[0]).is_null());
    let list_page = org.get(&format!("/events/{event}/presence")).await;
    assert!(row_with(&list_page.body, ">Player 03<").contains(kinds[2].1));

    // Player 03 arrives late: ticked again, the mark goes.
    let second = present(&others[..4]);
    let fields: Vec<(&str, &str)> = second
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_status(
        &org.post_form(&format!("/events/{event}/presence"), &fields)
            .await,
        303,
    );
    let list = check_list(&mut api, event).await;
    assert!(absence_of(&list, others[3]).is_null(), "{list}");
    assert_eq!(absence_of(&list, others[4]), "Z");

    // Round 1: the four present play; then the results.
    let round = common::play_round(&mut api, event, &["1-0", "1/2-1/2"]).await;
    let games = common::games(&round);
    assert_eq!(games.len(), 2, "{round}");
    let playing: Vec<i64> = games
        .iter()
        .flat_map(|b| [b["white_entry_id"].as_i64(), b["black_entry_id"].as_i64()])
        .map(Option::unwrap)
        .collect();
    assert!(!playing.contains(&ivanov_entry) && !playing.contains(&others[4]));

    // The pairings tab names the absences by their Keizer names.
    let rounds_tab = org.get(&format!("/events/{event}?tab=rounds")).await;
    assert!(row_with(&rounds_tab.body, ">Ivanov<").contains(kinds[0].1));
    assert!(row_with(&rounds_tab.body, ">Player 04<").contains(kinds[2].1));
    if lang == Lang::Ru {
        assert_russian(&rounds_tab.body, "the pairings tab");
    }

    let standings = api
        .get(&format!("/api/v1/events/{event}/standings"))
        .await
        .json();
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert!(
        rows.iter()
            .any(|r| r["keizer_points"].as_f64().unwrap().fract() != 0.0),
        "a score with decimals to show: {standings}"
    );

    // The standings tab: place, name, Keizer points, value, games, points, absences.
    let page = org.get(&format!("/events/{event}?tab=standings")).await;
    assert_status(&page, 200);
    let headers = match lang {
        Lang::En => "Place Name Keizer points Value Games Points Absences",
        Lang::Ru => "Место Имя Очки Кейзера Ценность Партии Очки Пропуски",
    };
    assert!(text(&page.body).contains(headers), "{}", text(&page.body));
    let sheet = org.get(&format!("/events/{event}/standings/print")).await;
    assert_status(&sheet, 200);
    assert!(text(&sheet.body).contains(headers), "{}", text(&sheet.body));
    for row in rows {
        let name = row["name"].as_str().unwrap();
        let points = match row["half_points"].as_u64().unwrap() {
            h if h % 2 == 0 => format!("{}", h / 2),
            h => match lang {
                Lang::En => format!("{}.5", h / 2),
                Lang::Ru => format!("{},5", h / 2),
            },
        };
        let expected = format!(
            "{} {} {} {} {} {} {}",
            row["place"].as_str().unwrap(),
            name,
            shown(row["keizer_points"].as_f64().unwrap(), lang),
            row["value"],
            row["games"],
            points,
            row["absences"],
        );
        let on_tab = row_with(&page.body, &format!(">{name}<"));
        assert_eq!(on_tab, expected, "standings tab");
        let on_sheet = row_with(&sheet.body, &format!(">{name}<"));
        assert_eq!(on_sheet, expected, "print sheet");
    }
    let ivanov_row = rows.iter().find(|r| r["name"] == "Ivanov").unwrap();
    assert_eq!(ivanov_row["games"], 0);
    assert_eq!(ivanov_row["absences"], 1);
    if lang == Lang::Ru {
        assert_russian(&page.body, "the standings tab");
        assert_russian(&sheet.body, "the standings sheet");
        assert!(
            rows.iter().any(|r| {
                let p = shown(r["keizer_points"].as_f64().unwrap(), lang);
                p.contains(',') && text(&page.body).contains(&p)
            }),
            "a decimal comma"
        );
    }

    // The cards: every round explained as the API counts it.
    for row in rows {
        let start_no = row["start_no"].as_u64().unwrap();
        let card = api
            .get(&format!("/api/v1/events/{event}/players/{start_no}"))
            .await
            .json();
        let keizer = &card["keizer"];
        let page = org
            .get(&format!("/events/{event}/players/{start_no}"))
            .await;
        assert_status(&page, 200);
        let heading = match lang {
            Lang::En => "Keizer score, round by round",
            Lang::Ru => "Очки Кейзера по турам",
        };
        assert!(text(&page.body).contains(heading));
        let round = &keizer["rounds"][0];
        let outcome = round["outcome"].as_str().unwrap();
        let said = match (lang, outcome) {
            (Lang::En, "win") => "win",
            (Lang::En, "draw") => "draw",
            (Lang::En, "loss") => "loss",
            (Lang::En, "excused") => "absent with notice",
            (Lang::En, "absent") => "absent without notice",
            (Lang::Ru, "win") => "победа",
            (Lang::Ru, "draw") => "ничья",
            (Lang::Ru, "loss") => "поражение",
            (Lang::Ru, "excused") => "отсутствие по уважительной причине",
            (Lang::Ru, "absent") => "неявка без предупреждения",
            other => panic!("no such outcome in this night: {other:?}"),
        };
        let share = match round["share_sixths"].as_u64().unwrap() {
            0 => "0",
            2 => "⅓",
            3 => "½",
            4 => "⅔",
            6 => "1",
            other => panic!("share {other}"),
        };
        let value = match &round["value"] {
            Value::Null => "—".to_string(),
            v => v.to_string(),
        };
        let earned = shown(round["earned_points"].as_f64().unwrap(), lang);
        let line = row_with(
            &page.body,
            &format!("<td class=\"num\">1</td><td>{said}</td>"),
        );
        let opponent = round["opponent_name"].as_str().unwrap_or("—");
        assert_eq!(
            line,
            format!("1 {said} {opponent} {value} {share} {earned}"),
            "{}",
            row["name"]
        );
        // Own value once, then the total.
        let own = keizer["own_value_sixths"].as_u64().unwrap();
        let own_label = match lang {
            Lang::En => "Own value, counted once",
            Lang::Ru => "Собственная ценность (один раз)",
        };
        assert_eq!(
            row_with(&page.body, own_label),
            format!(
                "{own_label} {} 1 {}",
                own / 6,
                shown(own as f64 / 6.0, lang)
            )
        );
        let total = match lang {
            Lang::En => "Total",
            Lang::Ru => "Итого",
        };
        assert_eq!(
            row_with(&page.body, &format!(">{total}<")),
            format!(
                "{total} {}",
                shown(keizer["points"].as_f64().unwrap(), lang)
            )
        );
        // The games table under it lists games only: the Keizer table told the rest.
        assert!(!page.body.contains("<td>Z</td>"), "{}", page.body);
        if lang == Lang::Ru {
            assert_russian(&page.body, "the card");
        }
    }
    // Ivanov's absence with notice earns a third of his own value.
    let ivanov_card = api
        .get(&format!(
            "/api/v1/events/{event}/players/{}",
            ivanov_row["start_no"]
        ))
        .await
        .json();
    assert_eq!(ivanov_card["keizer"]["rounds"][0]["outcome"], "excused");
    assert_eq!(ivanov_card["keizer"]["rounds"][0]["share_sixths"], 2);

    // The next check list lists everyone again, all ticked.
    let list_page = org.get(&format!("/events/{event}/presence")).await;
    assert_status(&list_page, 200);
    let next = match lang {
        Lang::En => "Check list for round 2",
        Lang::Ru => "Отметка явки на 2-й тур",
    };
    assert!(text(&list_page.body).contains(next));
    assert_eq!(list_page.body.matches("\" value=\"1\" checked>").count(), 6);

    // The information tab names the options; the season's rounds are open.
    let info = text(&org.get(&format!("/events/{event}")).await.body);
    let expected: &[&str] = match lang {
        Lang::En => &[
            "Keizer",
            "open season",
            "from the number of entries down, step 1",
            "win 1 · draw ½ · loss 0",
            "bye ⅔ · absent with notice ⅓ · club duty ⅔ · absent without notice 0",
            "iterative (recomputed until the ranking settles)",
        ],
        Lang::Ru => &[
            "Система Кейзера",
            "Не ограничено (сезон)",
            "от числа участников вниз, шаг 1",
            "победа 1 · ничья ½ · поражение 0",
            "свободный тур ⅔ · отсутствие по уважительной причине ⅓ · игра за клуб ⅔ · неявка без предупреждения 0",
        ],
    };
    for words in expected {
        assert!(info.contains(words), "{lang:?}: «{words}» in {info}");
    }
}

#[actix_web::test]
async fn a_keizer_night_in_english() {
    a_keizer_night(Lang::En).await;
}

#[actix_web::test]
async fn a_keizer_night_in_russian() {
    a_keizer_night(Lang::Ru).await;
}

/// Other systems' pages stay as they were: no Keizer columns, no check list link, the
/// officials' absence kinds of a Swiss event.
#[actix_web::test]
async fn a_swiss_event_has_no_keizer_columns() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let event = common::create_event(
        &mut api,
        json!({"name": "Open", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut api, event, 4).await;
    let rounds_tab = org.get(&format!("/events/{event}?tab=rounds")).await;
    assert!(!rounds_tab.body.contains("/presence\""));
    let entries = org.get(&format!("/events/{event}?tab=entries")).await;
    assert!(
        entries
            .body
            .contains("<option value=\"H\">half-point bye</option>")
    );
    assert!(!entries.body.contains("value=\"excused\""));
    common::play_round(&mut api, event, &["1-0", "1/2-1/2"]).await;
    let standings = text(
        &org.get(&format!("/events/{event}?tab=standings"))
            .await
            .body,
    );
    assert!(standings.contains("Points"));
    for word in ["Keizer points", "Absences", "Value"] {
        assert!(!standings.contains(word), "{word}: {standings}");
    }
}
