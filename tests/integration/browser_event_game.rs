//! A whole event game in real browsers (issue 14 item 1): an organiser runs a Swiss event
//! of eight players, two of whom have accounts and play their round-1 game to its end in
//! two browser sessions by clicking the board; the agreed draw reaches the standings with
//! nobody typing a result. A round-robin is paired and shown too, and every main page is
//! photographed at a desktop and a phone width into `target/e2e-screenshots/`.
//!
//! The harness (Chromium and chromedriver discovery, `damka serve`, the helpers) is the
//! one in `browser.rs`; see there for what happens when Chromium is missing.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{
    ARBITER_EMAIL, ARBITER_PASSWORD, LAYOUT_PROBLEMS, WAIT, browser_programs,
    chromium_capabilities, click, create_arbiter, expect_text, here, start_driver, start_server,
    type_into, value_of, wait_for, wait_path,
};
use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail, ensure};
use damka::web::i18n::Lang;
use damka_engine::{Color, Game, Move, Status, Variant};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;

/// The longest a whole flow may take: the game alone is some forty clicked moves.
const FLOW_LIMIT: Duration = Duration::from_secs(300);

/// The widths the main pages are photographed at: a desktop and a phone (with a height).
const SCREEN_SIZES: [(u32, u32); 2] = [(1280, 900), (390, 844)];

/// The draw-offer minimum an event gets by default (RULES.md "Draw offers").
const DRAW_OFFER_MIN_MOVES: u32 = 20;

struct Account {
    email: &'static str,
    name: &'static str,
    password: &'static str,
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

/// Runs `flow` against a fresh `damka serve` (with the club's arbiter, made on the command
/// line) in one headless Chromium session per entry of `sessions` (a name, and whether
/// pages may run scripts). On failure every session's screenshot and HTML and the server's
/// log are kept, and the test panics saying where.
fn run_in_browsers(
    sessions: &[(&str, bool)],
    flow: impl AsyncFnOnce(&[Client], &str) -> Result<()>,
) {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::TestDatabase::new();
    create_arbiter(&db.url.target);
    let (server, server_port) = start_server(&db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{server_port}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    let outcome: Result<()> = runtime.block_on(async {
        let mut clients = Vec::new();
        for (name, scripts) in sessions {
            let profile = dir.path().join(format!("profile-{name}"));
            let capabilities = chromium_capabilities(&chromium, &profile, *scripts);
            let client = tokio::time::timeout(
                WAIT,
                ClientBuilder::new(HttpConnector::new())
                    .capabilities(capabilities)
                    .connect(&format!("http://127.0.0.1:{driver_port}")),
            )
            .await
            .context("connecting to chromedriver timed out")?
            .context("chromedriver refused the session")?;
            clients.push(client);
        }
        let result = match tokio::time::timeout(FLOW_LIMIT, flow(&clients, &base)).await {
            Ok(result) => result,
            Err(_) => Err(anyhow!("the browser flow took longer than {FLOW_LIMIT:?}")),
        };
        if let Err(e) = &result {
            eprintln!("browser flow failed: {e:#}");
            for (client, (name, _)) in clients.iter().zip(sessions) {
                let kept = tokio::time::timeout(WAIT, keep_failure(client, dir.path(), name)).await;
                if let Ok(Err(e)) = kept {
                    eprintln!("no evidence from the {name} session: {e:#}");
                }
            }
        }
        for client in clients {
            let _ = tokio::time::timeout(WAIT, client.close()).await;
        }
        result
    });
    if let Err(e) = outcome {
        let server_log = server.log_text();
        drop(driver);
        drop(server);
        let kept = dir.keep();
        panic!(
            "{e:#}\n(screenshots and pages of each session kept in {})\n--- damka serve log ---\n{server_log}",
            kept.display()
        );
    }
    eprintln!(
        "browser flow passed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    drop(driver);
    drop(server);
    drop(db);
}

/// A screenshot and the HTML of what `session` showed when the flow failed.
async fn keep_failure(c: &Client, dir: &Path, session: &str) -> Result<()> {
    let url = here(c).await;
    let png = c.screenshot().await.context("taking a screenshot")?;
    std::fs::write(dir.join(format!("failure-{session}.png")), png)?;
    let html = c.source().await.unwrap_or_default();
    std::fs::write(
        dir.join(format!("failure-{session}.html")),
        format!("<!-- {url} -->\n{html}"),
    )?;
    eprintln!("the {session} session was at {url}");
    Ok(())
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
/// in their two browsers. Alexei first offers a draw too early (refused in Russian, the
/// move not played), later offers it with his move once both have made the minimum, and
/// Elena accepts.
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
            offer_too_early(alexei, elena, planned, alexei_side, &before).await?;
        }
        if ply == offer_ply {
            click(mover, r#"form.move-form input[name="offer_draw"]"#).await?;
        }
        click_move(mover, planned, ply == routed + 1).await?;

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
            "1/2-1/2 · {}: {}",
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
/// page says why not in Russian, the move is not played, and neither page moves on.
async fn offer_too_early(
    alexei: &Client,
    elena: &Client,
    planned: &PlannedMove,
    alexei_side: Color,
    before: &str,
) -> Result<()> {
    wait_for(alexei, r#"html[lang="ru"]"#).await?;
    click(alexei, r#"form.move-form input[name="offer_draw"]"#).await?;
    click_move(alexei, planned, false).await?;
    // With the move he is about to make, Alexei has made `own` moves, Elena `other`: the
    // one further back still needs the rest of the minimum.
    let own = 3;
    let other = match alexei_side {
        Color::White => own - 1,
        Color::Black => own,
    };
    let needed = DRAW_OFFER_MIN_MOVES - own.min(other);
    let refusal = Lang::Ru.tf(
        "error.draw_offer_too_early",
        &[&needed, &DRAW_OFFER_MIN_MOVES],
    );
    expect_exact_text(alexei, ".flash.error", &refusal).await?;
    for c in [alexei, elena] {
        expect_exact_text(c, "nav.game-steps > span", before).await?;
    }
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

/// One move of the game worked out before it is played: its notation as the site shows
/// it, the squares a player clicks for it, and how many pieces it takes.
struct PlannedMove {
    notation: String,
    clicks: Vec<String>,
    captured: u32,
}

fn square_names(mv: &Move) -> Vec<String> {
    let variant = mv.variant();
    mv.path()
        .iter()
        .map(|sq| sq.name(variant.board_size(), variant.algebraic()))
        .collect()
}

/// The squares a player clicks for `mv` among the `legal` moves, read as the game page's
/// script reads clicks (static/game.js): the piece, then landing squares until the path so
/// far is a whole legal move or only one legal move begins with it.
fn clicks_for(legal: &[Move], mv: &Move) -> Vec<String> {
    let paths: Vec<Vec<String>> = legal.iter().map(square_names).collect();
    let path = square_names(mv);
    for length in 2..=path.len() {
        let prefix = &path[..length];
        let left: Vec<&Vec<String>> = paths.iter().filter(|p| p.starts_with(prefix)).collect();
        if left.len() == 1 || left.iter().any(|p| p.len() == length) {
            return prefix.to_vec();
        }
    }
    path
}

/// A Russian game of `plies` legal moves, still going after the last, with at least one
/// capture of two or more pieces whose route takes clicks through two landing squares:
/// seeded random playouts, the first such capture on offer always taken, seed after seed
/// until one fits.
fn plan_game(plies: usize) -> Vec<PlannedMove> {
    for seed in 1u64..10_000 {
        let mut random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut game = Game::new(Variant::Russian);
        let mut moves = Vec::new();
        let mut routed = false;
        while moves.len() < plies && game.status() == Status::Ongoing {
            let legal = game.legal_moves().to_vec();
            let route_to_click = legal
                .iter()
                .find(|m| m.captured_count() >= 2 && clicks_for(&legal, m).len() >= 3);
            let mv = match route_to_click {
                Some(mv) if !routed => {
                    routed = true;
                    *mv
                }
                _ => {
                    // xorshift64: the same games on every run.
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    legal[(random % legal.len() as u64) as usize]
                }
            };
            moves.push(PlannedMove {
                notation: mv.notation(),
                clicks: clicks_for(&legal, &mv),
                captured: mv.captured_count(),
            });
            game.play(&mv).expect("a legal move plays");
        }
        if routed && moves.len() == plies && game.status() == Status::Ongoing {
            return moves;
        }
    }
    panic!("no seed gave a {plies}-ply game with a capture route to click");
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

// ---------------------------------------------------------------------------------------
// Steps a person takes, and what they read
// ---------------------------------------------------------------------------------------

/// Registers `account` (signed in afterwards, on the account page).
async fn register(c: &Client, base: &str, account: &Account) -> Result<()> {
    c.goto(&format!("{base}/register")).await?;
    let form = r#"form[action="/register"]"#;
    type_into(c, &format!(r#"{form} input[name="email"]"#), account.email).await?;
    type_into(
        c,
        &format!(r#"{form} input[name="display_name"]"#),
        account.name,
    )
    .await?;
    type_into(
        c,
        &format!(r#"{form} input[name="password"]"#),
        account.password,
    )
    .await?;
    click(c, &format!(r#"{form} button[type="submit"]"#)).await?;
    wait_path(c, "/account").await?;
    expect_text(c, r#".user-box a[href="/account"]"#, account.name).await
}

async fn sign_in(c: &Client, base: &str, email: &str, password: &str) -> Result<()> {
    c.goto(&format!("{base}/login")).await?;
    type_into(c, r#"form[action="/login"] input[name="email"]"#, email).await?;
    type_into(
        c,
        r#"form[action="/login"] input[name="password"]"#,
        password,
    )
    .await?;
    click(c, r#"form[action="/login"] button[type="submit"]"#).await?;
    wait_path(c, "/").await?;
    wait_for(c, r#".user-box form[action="/logout"]"#).await?;
    Ok(())
}

async fn sign_out(c: &Client) -> Result<()> {
    click(c, r#".user-box form[action="/logout"] button"#).await?;
    wait_path(c, "/").await?;
    wait_for(c, r#".user-box a[href="/login"]"#).await?;
    Ok(())
}

/// The administrator ticks "organiser" on the account's row of the users' table.
async fn grant_organiser_role(c: &Client, base: &str, email: &str) -> Result<()> {
    c.goto(&format!("{base}/admin")).await?;
    let mut found = None;
    for row in c.find_all(Locator::Css("main table tbody tr")).await? {
        if row.text().await?.contains(email) {
            found = Some(row);
            break;
        }
    }
    let row = found.ok_or_else(|| anyhow!("no row for {email} on /admin"))?;
    row.find(Locator::Css(r#"input[name="organiser"]"#))
        .await?
        .click()
        .await?;
    mark_page_old(c).await?;
    row.find(Locator::Css(r#"button[type="submit"]"#))
        .await?
        .click()
        .await?;
    wait_for_new_page(c).await?;
    expect_text(c, ".flash.ok", "Saved.").await?;
    let row = c
        .find(Locator::XPath(&format!(
            "//main//table//tr[td[contains(., '{email}')]]"
        )))
        .await?;
    ensure!(
        row.find(Locator::Css(r#"input[name="organiser"]"#))
            .await?
            .is_selected()
            .await?,
        "{email} is not an organiser after saving"
    );
    Ok(())
}

/// A signed-in player makes their own profile; returns its path.
async fn own_profile(c: &Client, base: &str, name: &str) -> Result<String> {
    c.goto(&format!("{base}/players/new")).await?;
    type_into(c, r#"form[action="/players"] input[name="name"]"#, name).await?;
    click(c, r#"form[action="/players"] button[type="submit"]"#).await?;
    expect_text(c, "h1", name).await?;
    Ok(c.current_url().await?.path().to_string())
}

/// The organiser makes a club; returns its path.
async fn create_club(c: &Client, base: &str, name: &str) -> Result<String> {
    c.goto(&format!("{base}/clubs/new")).await?;
    type_into(c, r#"form[action="/clubs"] input[name="name"]"#, name).await?;
    type_into(
        c,
        r#"form[action="/clubs"] input[name="city"]"#,
        "Riverside",
    )
    .await?;
    click(c, r#"form[action="/clubs"] button[type="submit"]"#).await?;
    expect_text(c, "h1", name).await?;
    Ok(c.current_url().await?.path().to_string())
}

async fn select(c: &Client, css: &str, value: &str) -> Result<()> {
    wait_for(c, css)
        .await?
        .select_by_value(value)
        .await
        .with_context(|| format!("choosing {value:?} in `{css}`"))?;
    Ok(())
}

/// Enters each of `names` (profiles' names) on the event's players tab (the answer to
/// each entry is that tab again, with the form for the next).
async fn enter_players(c: &Client, base: &str, event_path: &str, names: &[&str]) -> Result<()> {
    c.goto(&format!("{base}{event_path}?tab=entries")).await?;
    for name in names {
        wait_for(c, r#"form[action$="/entries"] select[name="player_id"]"#)
            .await?
            .select_by_label(name)
            .await
            .with_context(|| format!("{name} is not among the players to enter"))?;
        click(c, r#"form[action$="/entries"] button[type="submit"]"#).await?;
        // Not the flash: the page before this entry showed "Saved." too.
        expect_text(c, "main .table-wrap table", name).await?;
    }
    for name in names {
        expect_text(c, "main .table-wrap table", name).await?;
    }
    Ok(())
}

async fn pair_next_round(c: &Client, base: &str, event_path: &str) -> Result<()> {
    c.goto(&format!("{base}{event_path}?tab=rounds")).await?;
    click_to_new_page(c, &format!(r#"form[action="{event_path}/rounds"] button"#)).await?;
    expect_text(c, "main h2", "Round 1").await
}

/// One board of the pairings table: White's and Black's names and start numbers, and the
/// game's path.
struct BoardRow {
    white: (String, u32),
    black: (String, u32),
    game: Option<String>,
}

async fn pairing_rows(c: &Client) -> Result<Vec<BoardRow>> {
    let mut boards = Vec::new();
    for row in c.find_all(Locator::Css("table.pairings tbody tr")).await? {
        let cells = row.find_all(Locator::Css("td")).await?;
        let [_, white, result, black] = cells.as_slice() else {
            bail!("a pairings row has {} cells", cells.len());
        };
        let game = match result.find(Locator::Css("a.game-link")).await {
            Ok(link) => link.attr("href").await?,
            Err(_) => None,
        };
        boards.push(BoardRow {
            white: player_cell(white).await?,
            black: player_cell(black).await?,
            game,
        });
    }
    Ok(boards)
}

/// A pairings cell: the player's name (a link) and start number (in brackets after it).
async fn player_cell(cell: &fantoccini::elements::Element) -> Result<(String, u32)> {
    let name = cell.find(Locator::Css("a")).await?.text().await?;
    let muted = cell.find(Locator::Css(".muted")).await?.text().await?;
    let number = muted
        .trim()
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(')'))
        .and_then(|(number, _)| number.parse().ok())
        .ok_or_else(|| anyhow!("no start number in {muted:?} after {name}"))?;
    Ok((name.trim().to_string(), number))
}

/// The result each board of the pairings tab shows, as the arbiter's select reads.
async fn board_results(c: &Client) -> Result<Vec<String>> {
    let mut results = Vec::new();
    for row in c.find_all(Locator::Css("table.pairings tbody tr")).await? {
        let chosen = row
            .find(Locator::Css(r#"select[name^="result_"] option:checked"#))
            .await?;
        results.push(chosen.text().await?.trim().to_string());
    }
    Ok(results)
}

/// The standings table as (name, points) per row.
async fn standings_points(c: &Client) -> Result<Vec<(String, String)>> {
    let mut rows = Vec::new();
    let table = wait_for(c, "main .table-wrap table").await?;
    for row in table.find_all(Locator::Css("tbody tr")).await? {
        let name = row.find(Locator::Css("td a")).await?.text().await?;
        let points = row.find(Locator::Css("td strong")).await?.text().await?;
        rows.push((name, points));
    }
    Ok(rows)
}

/// Clicks what submits a form and waits for the page that answers: one that looks like the
/// page before (the same flash, say) must not pass for the answer.
async fn click_to_new_page(c: &Client, css: &str) -> Result<()> {
    mark_page_old(c).await?;
    click(c, css).await?;
    wait_for_new_page(c).await
}

async fn mark_page_old(c: &Client) -> Result<()> {
    c.execute("window.damkaOldPage = true; return null;", vec![])
        .await?;
    Ok(())
}

/// Waits up to `WAIT` for a page without `mark_page_old`'s mark, fully loaded.
async fn wait_for_new_page(c: &Client) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        // While the next page loads the script may fail: that is not an answer yet.
        let state = c
            .execute(
                "return window.damkaOldPage === true ? 'old' : document.readyState;",
                vec![],
            )
            .await;
        if matches!(state, Ok(ref s) if s == "complete") {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("no new page after {WAIT:?}: still at {}", here(c).await);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits up to `WAIT` for the element at `css` to show exactly `expected` (trimmed).
async fn expect_exact_text(c: &Client, css: &str, expected: &str) -> Result<()> {
    let deadline = Instant::now() + WAIT;
    loop {
        let seen = match c.find(Locator::Css(css)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if seen.trim() == expected {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!(
                "expected `{css}` to show {expected:?} on {}, it shows {seen:?}",
                here(c).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

// ---------------------------------------------------------------------------------------
// Screenshots
// ---------------------------------------------------------------------------------------

/// `target/e2e-screenshots/` in the workspace's target directory (`CARGO_TARGET_DIR` when
/// set, relative to the workspace if relative).
fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target"));
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(target)
        .join("e2e-screenshots")
}

/// Photographs each page (a name and a path) at each of `SCREEN_SIZES` as
/// `name-width.png`, after checking the page is laid out at that width (and, on a phone,
/// that nothing sticks out or is cut: `LAYOUT_PROBLEMS`); leaves the window at the first
/// size.
async fn screenshot_pages(c: &Client, base: &str, pages: &[(&str, String)]) -> Result<()> {
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    for (width, height) in SCREEN_SIZES {
        c.set_window_size(width, height).await?;
        for (name, path) in pages {
            c.goto(&format!("{base}{path}")).await?;
            wait_for(c, "main").await?;
            let laid_out = c.execute("return window.innerWidth;", vec![]).await?;
            ensure!(
                laid_out == json!(width),
                "{path} is laid out {laid_out} px wide in a {width} px window"
            );
            if width < 640 {
                let problems = c.execute(LAYOUT_PROBLEMS, vec![]).await?;
                ensure!(
                    problems.as_array().is_some_and(|found| found.is_empty()),
                    "{path} at {width} px: {problems}"
                );
            }
            let png = c.screenshot().await.context("taking a screenshot")?;
            ensure!(
                png_width(&png) == Some(width),
                "the screenshot of {path} is {:?} px wide, not {width}",
                png_width(&png)
            );
            let file = dir.join(format!("{name}-{width}.png"));
            std::fs::write(&file, png).with_context(|| format!("writing {}", file.display()))?;
        }
    }
    let (width, height) = SCREEN_SIZES[0];
    c.set_window_size(width, height).await?;
    eprintln!("screenshots in {}", dir.display());
    Ok(())
}

/// A screenshot of what `c` shows now, as `name-width.png` beside the main pages'.
async fn save_screenshot(c: &Client, name: &str) -> Result<()> {
    let png = c.screenshot().await.context("taking a screenshot")?;
    let width = png_width(&png).ok_or_else(|| anyhow!("the screenshot is not a PNG"))?;
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let file = dir.join(format!("{name}-{width}.png"));
    std::fs::write(&file, png).with_context(|| format!("writing {}", file.display()))
}

/// A PNG's width from its header (the IHDR chunk comes first).
fn png_width(png: &[u8]) -> Option<u32> {
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") || png.get(12..16) != Some(b"IHDR") {
        return None;
    }
    Some(u32::from_be_bytes(png.get(16..20)?.try_into().ok()?))
}
