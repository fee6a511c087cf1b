//! A whole event game in real browsers (issue 14 item 1): an organiser runs a Swiss event
//! of eight players, two of whom have accounts and play their round-1 game to its end in
//! two browser sessions by clicking the board; the agreed draw reaches the standings with
//! nobody typing a result. A round-robin is paired and shown too, and every main page is
//! photographed at a desktop and a phone width into `target/e2e-screenshots/`.
//!
//! The harness (Chromium and chromedriver discovery, `damka serve`, the helpers) is the
//! one in `browser.rs`; see there for what happens when Chromium is missing. `steps` has
//! what a person does on the site, `plan` the game's moves worked out beforehand.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod plan;
pub(crate) mod steps;

use crate::browser::{
    ARBITER_EMAIL, ARBITER_PASSWORD, click, expect_text, type_into, value_of, wait_for,
};

use anyhow::{Context, Result, anyhow, bail, ensure};
use damka::web::i18n::Lang;
use damka_engine::Color;
use fantoccini::{Client, Locator};
use serde_json::json;
use std::time::{Duration, Instant};

use plan::{PlannedMove, plan_game};
use steps::{
    board_results, click_to_new_page, create_club, enter_players, expect_exact_text,
    grant_organiser_role, own_profile, pair_next_round, pairing_rows, register, run_in_browsers,
    save_screenshot, screenshot_pages, select, sign_in, sign_out, standings_points,
};

/// The longest a whole flow may take: the game alone is some forty clicked moves.
const FLOW_LIMIT: Duration = Duration::from_secs(300);

/// The widths the main pages are photographed at: a desktop and a phone (with a height).
const SCREEN_SIZES: [(u32, u32); 2] = [(1280, 900), (390, 844)];

/// The draw-offer minimum an event gets by default (RULES.md "Draw offers").
const DRAW_OFFER_MIN_MOVES: u32 = 20;

pub(crate) struct Account {
    pub(crate) email: &'static str,
    pub(crate) name: &'static str,
    pub(crate) password: &'static str,
}

const ORGANISER: Account = Account {
    email: "organiser@club.example",
    name: "Olga Orlova",
    password: "organiser-secret-1",
};

/// A player who reads the site in Russian.
const ALEXEI: Account = Account {
    email: "alexei@club.example",
    name: "Alexei Antonov",
    password: "alexei-secret-1",
};

const ELENA: Account = Account {
    email: "elena@club.example",
    name: "Elena Egorova",
    password: "elena-secret-1",
};

/// The club's players without accounts. With nobody rated, starting ranks go by name, so
/// Alexei is 1 and Elena 5, and the Dutch system's round 1 (1-5, 2-6, 3-7, 4-8) makes them
/// opponents.
const CLUB_PLAYERS: [&str; 6] = [
    "Boris Belov",
    "Cyril Chernov",
    "Daria Dmitrieva",
    "Fyodor Frolov",
    "Galina Gromova",
    "Hanna Hertz",
];

#[test]
fn two_players_click_an_event_game_to_an_agreed_draw_that_reaches_the_standings() {
    run_in_browsers(
        &[("organiser", false), ("alexei", true), ("elena", true)],
        async |clients: &[Client], base: &str| {
            let [desk, alexei, elena] = clients else {
                bail!("three browser sessions expected");
            };
            event_game_flow(desk, alexei, elena, base).await
        },
    );
}

#[test]
fn a_round_robin_is_paired_from_the_berger_table_and_shown_in_the_browser() {
    run_in_browsers(
        &[("arbiter", false)],
        async |clients: &[Client], base: &str| {
            let [desk] = clients else {
                bail!("one browser session expected");
            };
            round_robin_flow(desk, base).await
        },
    );
}

// ---------------------------------------------------------------------------------------
// The event game
// ---------------------------------------------------------------------------------------

async fn event_game_flow(desk: &Client, alexei: &Client, elena: &Client, base: &str) -> Result<()> {
    let started = Instant::now();
    // Three people at once, each in their own browser: the organiser's account gets its
    // role from the site's administrator, as on a new site, and the organiser makes the
    // club and its six players without accounts; the two players register and make their
    // own profiles (linked to their accounts), Alexei reading the site in Russian.
    let (club_path, alexei_profile, _) = tokio::try_join!(
        async {
            register(desk, base, &ORGANISER).await?;
            sign_out(desk).await?;
            sign_in(desk, base, ARBITER_EMAIL, ARBITER_PASSWORD).await?;
            grant_organiser_role(desk, base, ORGANISER.email).await?;
            sign_out(desk).await?;
            sign_in(desk, base, ORGANISER.email, ORGANISER.password).await?;
            let club_path = create_club(desk, base, "Riverside Draughts Club").await?;
            let club_id = club_path.trim_start_matches("/clubs/");
            for name in CLUB_PLAYERS {
                desk.goto(&format!("{base}/players/new")).await?;
                type_into(desk, r#"form[action="/players"] input[name="name"]"#, name).await?;
                select(
                    desk,
                    r#"form[action="/players"] select[name="club_id"]"#,
                    club_id,
                )
                .await?;
                click(desk, r#"form[action="/players"] button[type="submit"]"#).await?;
                expect_text(desk, "h1", name).await?;
            }
            anyhow::Ok(club_path)
        },
        async {
            register(alexei, base, &ALEXEI).await?;
            click(
                alexei,
                r#"form.lang-switch button[name="lang"][value="ru"]"#,
            )
            .await?;
            wait_for(alexei, r#"html[lang="ru"]"#).await?;
            let profile = own_profile(alexei, base, ALEXEI.name).await?;
            // Another day: he signs in again, and the site still speaks Russian to him.
            sign_out(alexei).await?;
            sign_in(alexei, base, ALEXEI.email, ALEXEI.password).await?;
            wait_for(alexei, r#"html[lang="ru"]"#).await?;
            Ok(profile)
        },
        async {
            register(elena, base, &ELENA).await?;
            own_profile(elena, base, ELENA.name).await?;
            sign_out(elena).await?;
            sign_in(elena, base, ELENA.email, ELENA.password).await
        },
    )?;
    let club_id = club_path.trim_start_matches("/clubs/").to_string();

    // The Swiss event, with the draw-offer minimum the form proposes.
    desk.goto(&format!("{base}/events/new")).await?;
    type_into(desk, r#"form input[name="name"]"#, "Riverside Swiss").await?;
    select(desk, r#"form select[name="system"]"#, "swiss").await?;
    select(desk, r#"form select[name="variant"]"#, "russian").await?;
    select(desk, r#"form select[name="club_id"]"#, &club_id).await?;
    type_into(desk, r#"form input[name="rounds"]"#, "3").await?;
    let proposed = value_of(desk, r#"form input[name="draw_offer_min_moves"]"#).await?;
    ensure!(
        proposed == DRAW_OFFER_MIN_MOVES.to_string(),
        "the event form proposes {proposed:?} moves before a draw offer"
    );
    click(desk, r#"form[action="/events"] button[type="submit"]"#).await?;
    expect_text(desk, "h1", "Riverside Swiss").await?;
    // No place and no dates: the line under the title starts with what there is.
    expect_exact_text(desk, "main h1 + p.muted", "Russian · Swiss (FIDE Dutch)").await?;
    let event_path = desk.current_url().await?.path().to_string();

    // The organiser enters all eight, the two players with accounts among them.
    let mut entered: Vec<&str> = vec![ALEXEI.name, ELENA.name];
    entered.extend(CLUB_PLAYERS);
    enter_players(desk, base, &event_path, &entered).await?;

    // Round 1 paired and published: every board gets its game.
    pair_next_round(desk, base, &event_path).await?;
    click_to_new_page(
        desk,
        &format!(r#"form[action="{event_path}/rounds/publish"] button"#),
    )
    .await?;
    expect_text(desk, ".flash.ok", "Saved.").await?;
    let boards = pairing_rows(desk).await?;
    ensure!(boards.len() == 4, "round 1 has {} boards", boards.len());
    let board = boards
        .iter()
        .find(|b| b.white.0 == ALEXEI.name || b.black.0 == ALEXEI.name)
        .ok_or_else(|| anyhow!("{} is on no board of round 1", ALEXEI.name))?;
    let mut pair = [board.white.clone(), board.black.clone()];
    pair.sort();
    ensure!(
        pair == [(ALEXEI.name.to_string(), 1), (ELENA.name.to_string(), 5)],
        "round 1 pairs {pair:?}, not start numbers 1 and 5 ({} and {})",
        ALEXEI.name,
        ELENA.name
    );
    let game_path = board
        .game
        .clone()
        .ok_or_else(|| anyhow!("the published board has no game"))?;
    eprintln!(
        "pairings published after {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Both players open their game; each may move only on their own turn.
    alexei.goto(&format!("{base}{game_path}")).await?;
    elena.goto(&format!("{base}{game_path}")).await?;
    let alexei_side = if board.white.0 == ALEXEI.name {
        Color::White
    } else {
        Color::Black
    };
    play_the_game(alexei, elena, alexei_side).await?;
    eprintln!("game drawn after {:.1} s", started.elapsed().as_secs_f64());

    // The organiser's pages: the board's result is the game's, and the standings give the
    // two half a point each (written 0.5: the site writes scores as decimals), from the
    // game alone.
    desk.goto(&format!("{base}{event_path}?tab=rounds")).await?;
    let results = board_results(desk).await?;
    let board_no = boards
        .iter()
        .position(|b| b.game.as_deref() == Some(game_path.as_str()))
        .expect("the game's board was found above");
    for (index, result) in results.iter().enumerate() {
        let expected = if index == board_no { "½-½" } else { "—" };
        ensure!(
            result == expected,
            "board {} shows the result {result:?}, not {expected:?}",
            index + 1
        );
    }
    desk.goto(&format!("{base}{event_path}?tab=standings"))
        .await?;
    let standings = standings_points(desk).await?;
    for (name, points) in &standings {
        let expected = if *name == ALEXEI.name || *name == ELENA.name {
            "0.5"
        } else {
            "0"
        };
        ensure!(
            points == expected,
            "the standings give {name} {points:?}, not {expected:?}: {standings:?}"
        );
    }
    ensure!(
        standings.len() == entered.len(),
        "the standings list {} players: {standings:?}",
        standings.len()
    );

    // Pictures of the main pages, at both widths.
    let pages = [
        ("home", "/".to_string()),
        ("event-players", format!("{event_path}?tab=entries")),
        ("event-pairings", format!("{event_path}?tab=rounds")),
        ("event-standings", format!("{event_path}?tab=standings")),
        ("game", game_path.clone()),
        ("profile", alexei_profile),
        ("club", club_path),
    ];
    screenshot_pages(desk, base, &pages).await?;
    eprintln!(
        "screenshots taken after {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The game between Alexei (Russian pages, `alexei_side`) and Elena, clicked move by move
/// in their two browsers. Alexei first offers a draw too early (the move is played, the
/// offer refused in Russian), later offers it with his move once both have made the
/// minimum, and Elena accepts.
async fn play_the_game(alexei: &Client, elena: &Client, alexei_side: Color) -> Result<()> {
    // Alexei's first move that may carry an offer: both sides have made the minimum.
    let offer_ply = match alexei_side {
        Color::White => 2 * DRAW_OFFER_MIN_MOVES + 1,
        Color::Black => 2 * DRAW_OFFER_MIN_MOVES,
    } as usize;
    // His third move: far too early.
    let early_ply = match alexei_side {
        Color::White => 5,
        Color::Black => 6,
    };
    let plan = plan_game(offer_ply);
    let routed = plan
        .iter()
        .position(|m| m.captured >= 2 && m.clicks.len() >= 3)
        .ok_or_else(|| anyhow!("the planned game has no capture whose route is clicked"))?;
    let side_of = |ply: usize| {
        if ply % 2 == 1 {
            Color::White
        } else {
            Color::Black
        }
    };

    // Marks on both pages: a reload wipes them, a live update does not.
    for c in [alexei, elena] {
        expect_exact_text(c, "nav.game-steps > span", "0 / 0").await?;
        set_mark(c, 0).await?;
    }
    for (index, planned) in plan.iter().enumerate() {
        let ply = index + 1;
        let (mover, watcher) = if side_of(ply) == alexei_side {
            (alexei, elena)
        } else {
            (elena, alexei)
        };
        let before = format!("{} / {}", ply - 1, ply - 1);
        expect_exact_text(mover, "nav.game-steps > span", &before).await?;
        wait_for(mover, ".game-play.playable").await?;
        ensure!(
            mover
                .find_all(Locator::Css(".game-play.playable"))
                .await?
                .len()
                == 1
                && watcher
                    .find_all(Locator::Css(".game-play.playable"))
                    .await?
                    .is_empty(),
            "ply {ply}: the board is playable for the wrong player"
        );

        if ply == early_ply {
            offer_too_early(alexei, planned).await?;
        } else {
            if ply == offer_ply {
                click(mover, r#"form.move-form input[name="offer_draw"]"#).await?;
            }
            click_move(mover, planned, ply == routed + 1).await?;
        }

        // The mover's page, loaded again after the move, and the watcher's, live.
        let after = format!("{ply} / {ply}");
        let last_move = ".move-list li:last-child a:last-child";
        expect_exact_text(mover, "nav.game-steps > span", &after).await?;
        expect_exact_text(mover, last_move, &planned.notation).await?;
        expect_exact_text(watcher, "nav.game-steps > span", &after).await?;
        expect_exact_text(watcher, last_move, &planned.notation).await?;
        let mark = watcher.execute("return window.damkaMark;", vec![]).await?;
        ensure!(
            mark == json!(ply - 1),
            "ply {ply}: the watching page was reloaded instead of updated (mark {mark})"
        );
        set_mark(mover, ply).await?;
    }

    // Alexei's offer stands; Elena, in English, accepts it.
    let side_key = match alexei_side {
        Color::White => "game.side.white",
        Color::Black => "game.side.black",
    };
    let offered_by = Lang::Ru.t(side_key);
    expect_exact_text(
        alexei,
        ".flash.info",
        &Lang::Ru.tf("game.draw_offered_by", &[&offered_by]),
    )
    .await?;
    let offered_by = Lang::En.t(side_key);
    expect_exact_text(
        elena,
        ".flash.info",
        &Lang::En.tf("game.draw_offered_by", &[&offered_by]),
    )
    .await?;
    // The offer stands out from the page as the other notices do.
    let shades = elena
        .execute(
            "const back = el => getComputedStyle(el).backgroundColor; \
             return [back(document.querySelector('.flash.info')), back(document.body), \
                     back(document.documentElement)];",
            vec![],
        )
        .await?;
    ensure!(
        shades[0] != shades[1] && shades[0] != shades[2] && shades[0] != json!("rgba(0, 0, 0, 0)"),
        "the draw offer has the page's own background (notice, body, page): {shades}"
    );
    save_screenshot(elena, "game-draw-offered").await?;
    click(elena, r#"form[action$="/draw-offer/accept"] button"#).await?;
    for (c, lang) in [(elena, Lang::En), (alexei, Lang::Ru)] {
        let words = format!(
            "½-½ · {}: {}",
            lang.t("game.outcome.draw"),
            lang.t("game.reason.agreement")
        );
        expect_exact_text(c, ".game-result", &words).await?;
        ensure!(
            c.find_all(Locator::Css(".game-play, form.move-form"))
                .await?
                .is_empty(),
            "the finished game can still be played on the {} page",
            lang.code()
        );
    }
    Ok(())
}

/// Alexei ticks "offer a draw with this move" and clicks his move at his third move: the
/// move is played (the caller checks both pages move on), and his page says in Russian
/// that the offer was not made and when one may be, with no offer standing.
async fn offer_too_early(alexei: &Client, planned: &PlannedMove) -> Result<()> {
    wait_for(alexei, r#"html[lang="ru"]"#).await?;
    click(alexei, r#"form.move-form input[name="offer_draw"]"#).await?;
    click_move(alexei, planned, false).await?;
    expect_exact_text(
        alexei,
        ".flash.error",
        &Lang::Ru.t("game.move_played_offer_refused"),
    )
    .await?;
    let when = Lang::Ru.tf("game.offer_after.many", &[&DRAW_OFFER_MIN_MOVES]);
    expect_text(alexei, "body", &when).await?;
    ensure!(
        alexei
            .find_all(Locator::Css(".flash.info"))
            .await?
            .is_empty(),
        "a refused offer shows as made"
    );
    save_screenshot(alexei, "game-draw-refused-ru").await
}

/// Clicks `planned`'s squares on the board: the piece, then each landing square the page
/// needs to tell the move from the others. With `route_check`, the page must offer more
/// than one way on after the first landing (the route is really chosen by clicking).
async fn click_move(c: &Client, planned: &PlannedMove, route_check: bool) -> Result<()> {
    for (index, square) in planned.clicks.iter().enumerate() {
        if route_check && index == 2 {
            let mut marked = Vec::new();
            for target in c
                .find_all(Locator::Css(".game-play svg .target[data-square]"))
                .await?
            {
                let name = target.attr("data-square").await?.unwrap_or_default();
                if !marked.contains(&name) {
                    marked.push(name);
                }
            }
            ensure!(
                marked.len() >= 2 && marked.contains(square),
                "after {:?} the board marks {marked:?} as ways on, expected {square} among several",
                &planned.clicks[..2]
            );
        }
        click(
            c,
            &format!(r#".game-play.playable svg [data-square="{square}"]"#),
        )
        .await
        .with_context(|| format!("playing {}", planned.notation))?;
    }
    Ok(())
}

async fn set_mark(c: &Client, ply: usize) -> Result<()> {
    c.execute(&format!("window.damkaMark = {ply}; return null;"), vec![])
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The round-robin
// ---------------------------------------------------------------------------------------

async fn round_robin_flow(desk: &Client, base: &str) -> Result<()> {
    sign_in(desk, base, ARBITER_EMAIL, ARBITER_PASSWORD).await?;
    let players = [
        "Anna Alekseeva",
        "Boris Belov",
        "Vera Volkova",
        "Gleb Gusev",
    ];
    for name in players {
        desk.goto(&format!("{base}/players/new")).await?;
        type_into(desk, r#"form[action="/players"] input[name="name"]"#, name).await?;
        click(desk, r#"form[action="/players"] button[type="submit"]"#).await?;
        expect_text(desk, "h1", name).await?;
    }
    desk.goto(&format!("{base}/events/new")).await?;
    type_into(desk, r#"form input[name="name"]"#, "Riverside Round-Robin").await?;
    type_into(desk, r#"form input[name="place"]"#, "Riverside").await?;
    select(desk, r#"form select[name="system"]"#, "round_robin").await?;
    click(desk, r#"form[action="/events"] button[type="submit"]"#).await?;
    expect_text(desk, "h1", "Riverside Round-Robin").await?;
    // A place but no dates: one separator between each two facts.
    expect_exact_text(
        desk,
        "main h1 + p.muted",
        "Riverside · Russian · Round-robin",
    )
    .await?;
    let event_path = desk.current_url().await?.path().to_string();
    enter_players(desk, base, &event_path, &players).await?;

    // Starting ranks by name: Anna 1, Boris 2, Gleb 3, Vera 4. The Berger table's first
    // round for four (FIDE Handbook C.05, Annex 1) is 1-4, 2-3.
    pair_next_round(desk, base, &event_path).await?;
    click_to_new_page(
        desk,
        &format!(r#"form[action="{event_path}/rounds/publish"] button"#),
    )
    .await?;
    expect_text(desk, ".flash.ok", "Saved.").await?;
    let boards = pairing_rows(desk).await?;
    let seen: Vec<(u32, u32)> = boards.iter().map(|b| (b.white.1, b.black.1)).collect();
    let expected = vec![(1, 4), (2, 3)];
    ensure!(
        seen == expected,
        "round 1 of the round-robin is {seen:?}, the Berger table says {expected:?}"
    );
    ensure!(
        boards.iter().all(|b| b.game.is_some()),
        "a published board has no game"
    );

    // The arbiter enters round 1's results on the pairings tab: board 1 1-0, board 2 a
    // draw. The crosstable shows every player against every other.
    wait_for(desk, r#"table.pairings select[name^="result_"]"#).await?;
    let selects = desk
        .find_all(Locator::Css(r#"table.pairings select[name^="result_"]"#))
        .await?;
    let [first, second] = selects.as_slice() else {
        bail!("{} result selects on the pairings tab", selects.len());
    };
    first.select_by_label("1-0").await?;
    second.select_by_label("½-½").await?;
    click_to_new_page(
        desk,
        &format!(r#"form[action="{event_path}/rounds/1/results"] button[type="submit"]"#),
    )
    .await?;
    expect_text(desk, ".flash.ok", "Saved.").await?;
    desk.goto(&format!("{base}{event_path}?tab=crosstable"))
        .await?;
    wait_for(desk, "table.cross").await?;
    // A row per player: name, points, and one cell per player in the rows' order.
    let mut names = Vec::new();
    let mut points = Vec::new();
    let mut cells = Vec::new();
    for row in desk.find_all(Locator::Css("table.cross tbody tr")).await? {
        names.push(row.find(Locator::Css("td.name")).await?.text().await?);
        points.push(row.find(Locator::Css("td strong")).await?.text().await?);
        let mut texts = Vec::new();
        for cell in row.find_all(Locator::Css("td")).await? {
            texts.push(cell.text().await?.trim().to_string());
        }
        // Place and name come first.
        cells.push(
            texts
                .into_iter()
                .skip(2)
                .take(players.len())
                .collect::<Vec<_>>(),
        );
    }
    let mut listed = names.clone();
    listed.sort();
    let mut all = players.map(str::to_string).to_vec();
    all.sort();
    ensure!(listed == all, "the crosstable lists {names:?}");
    // Boris and Gleb share place 2-3, so the place does not say which row a column
    // stands for: each column's heading names its player, and each player's own cell is
    // marked.
    let headings = desk.find_all(Locator::Css("table.cross thead th")).await?;
    for (index, name) in names.iter().enumerate() {
        let heading = headings
            .get(2 + index)
            .ok_or_else(|| anyhow!("no crosstable column for row {}", index + 1))?;
        let title = heading.attr("title").await?;
        ensure!(
            title.as_deref() == Some(name.as_str()),
            "column {} of the crosstable is titled {title:?}, its row is {name}",
            index + 1
        );
        let own = desk
            .find(Locator::Css(&format!(
                "table.cross tbody tr:nth-child({row}) td:nth-child({column})",
                row = index + 1,
                column = 3 + index
            )))
            .await?;
        ensure!(
            own.attr("class").await?.as_deref() == Some("self"),
            "{name}'s own cell in the crosstable is not marked"
        );
    }
    let at = |name: &str| names.iter().position(|n| n == name).expect("listed");
    let results = [
        ("Anna Alekseeva", "Vera Volkova", "1", "0"),
        ("Boris Belov", "Gleb Gusev", "½", "½"),
    ];
    for (row, name) in names.iter().enumerate() {
        for (column, opponent) in names.iter().enumerate() {
            let expected = results
                .iter()
                .find_map(|&(a, b, a_scored, b_scored)| {
                    if (name.as_str(), opponent.as_str()) == (a, b) {
                        Some(a_scored)
                    } else if (name.as_str(), opponent.as_str()) == (b, a) {
                        Some(b_scored)
                    } else {
                        None
                    }
                })
                .unwrap_or("");
            let shown = cells[row].get(column).map_or("(none)", String::as_str);
            ensure!(
                shown == expected,
                "the crosstable shows {shown:?} for {name} against {opponent}, not {expected:?}"
            );
        }
    }
    for (name, expected) in [
        ("Anna Alekseeva", "1"),
        ("Boris Belov", "0.5"),
        ("Gleb Gusev", "0.5"),
        ("Vera Volkova", "0"),
    ] {
        ensure!(
            points[at(name)] == expected,
            "the crosstable gives {name} {:?} points, not {expected}",
            points[at(name)]
        );
    }
    screenshot_pages(
        desk,
        base,
        &[
            ("round-robin-pairings", format!("{event_path}?tab=rounds")),
            (
                "round-robin-crosstable",
                format!("{event_path}?tab=crosstable"),
            ),
        ],
    )
    .await?;
    Ok(())
}
