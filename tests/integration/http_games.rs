//! Games over HTTP: moves checked by the engine, turns, draw offers, resignation, the
//! arbiters' result and takeback, event games and their results on the boards.
//!
//! The lines of play are worked out here with the engine (a win, quiet king moves towards
//! each automatic draw, a long game that does not end), then played over the API: what is
//! tested is that the server, move by move, decides what the rules say.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::collections::HashSet;

use actix_web::http::Method;
pub use common::builders::{lasting_move, player};
use common::{Client, GameBuilder, TestApp};
use damka::store::games::{self as stored, NewGame};
use damka::store::models::{LocalRules, PlayerRating};
use damka_domain::vocabulary::Spelling;
use damka_engine::{Color, Game, Move, PieceKind, Position, Rules, Status, Variant, zobrist_hash};
use serde_json::{Value, json};

pub async fn play(api: &mut Client<'_>, game: i64, ply: i64, mv: &str) -> common::Response {
    api.json(
        Method::POST,
        &format!("/api/v1/games/{game}/moves"),
        json!({ "ply": ply, "move": mv }),
    )
    .await
}

/// Creates a standalone russian game over the API as `creator` (with `extra` fields of the
/// body); returns the game.
pub async fn standalone(
    creator: &mut Client<'_>,
    white_id: i64,
    black_id: i64,
    extra: Value,
) -> Value {
    let mut body =
        json!({"variant": "russian", "white_player_id": white_id, "black_player_id": black_id});
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    let made = creator.json(Method::POST, "/api/v1/games", body).await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    made.json()
}

pub async fn game_of(api: &mut Client<'_>, game: i64) -> Value {
    let got = api.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(got.status.as_u16(), 200, "{}", got.body);
    got.json()
}

/// A russian game between two players stored directly from a set-up position (the API
/// starts every game from the start position; the endings of the automatic draws need
/// kings on the board). Created by the account `creator_email`.
async fn game_from_fen(
    app: &TestApp,
    white_id: i64,
    black_id: i64,
    creator_email: &str,
    fen: &str,
) -> i64 {
    let (email, fen) = (creator_email.to_string(), fen.to_string());
    app.with_db(move |conn| {
        let creator = damka::store::accounts::user_by_email(conn, &email)
            .unwrap()
            .unwrap();
        stored::insert(
            conn,
            &NewGame {
                variant: Variant::Russian,
                local_rules: LocalRules::default(),
                start_fen: fen,
                white_player_id: white_id,
                black_player_id: black_id,
                event_id: None,
                pairing_id: None,
                rated: false,
                draw_offer_min_moves: 20,
                created_by: creator.id,
                created_at: damka::store::now(),
                clock: Default::default(),
                game_no: 1,
            },
        )
        .unwrap()
    })
    .await
}

/// The stored rows of a game's moves.
async fn stored_plies(app: &TestApp, game: i64) -> Vec<(i32, String)> {
    app.with_db(move |conn| {
        stored::moves(conn, game)
            .unwrap()
            .into_iter()
            .map(|m| (m.ply, m.notation))
            .collect()
    })
    .await
}

/// The two players of a game as API clients, each moving for their own side.
pub struct Sides<'a> {
    pub white: Client<'a>,
    pub black: Client<'a>,
}

impl<'a> Sides<'a> {
    /// The client of the side named `side` (`white` or `black`, as the API spells it).
    pub fn of(&mut self, side: &Value) -> &mut Client<'a> {
        match side.as_str() {
            Some("white") => &mut self.white,
            Some("black") => &mut self.black,
            other => panic!("not a side: {other:?}"),
        }
    }

    /// Plays `line` from where the game stands, each move by the player on move. Every move
    /// must be stored, and every one but the last must leave the game going. Returns the
    /// game after the last move.
    pub async fn play_line(&mut self, game: i64, line: &[String]) -> Value {
        let mut now = game_of(&mut self.white, game).await;
        for (index, mv) in line.iter().enumerate() {
            let ply = now["ply"].as_i64().unwrap() + 1;
            let side = now["side_to_move"].clone();
            let stored = play(self.of(&side), game, ply, mv).await;
            assert_eq!(
                stored.status.as_u16(),
                201,
                "ply {ply} {mv}: {}",
                stored.body
            );
            now = stored.json();
            assert_eq!(now["ply"], ply);
            if index + 1 < line.len() {
                assert_eq!(now["status"], "ongoing", "after ply {ply} {mv}: {now}");
            }
        }
        now
    }

    /// Plays `plies` more moves of a game that must not end (see `lasting_move`), keeping
    /// `local` (the same game in the engine) in step and checking the server's position
    /// against it after each move.
    pub async fn play_on(&mut self, game: i64, local: &mut Game, plies: usize) -> Value {
        let mut now = Value::Null;
        for _ in 0..plies {
            let mv = lasting_move(local);
            local.play(&mv).unwrap();
            let side = match local.side_to_move().opponent() {
                Color::White => json!("white"),
                Color::Black => json!("black"),
            };
            let ply = local.history().len() as i64;
            let stored = play(self.of(&side), game, ply, &mv.notation()).await;
            assert_eq!(stored.status.as_u16(), 201, "ply {ply}: {}", stored.body);
            now = stored.json();
            assert_eq!(now["status"], "ongoing", "after ply {ply}: {now}");
            assert_eq!(now["fen"], local.position().to_fen());
        }
        now
    }
}

/// A line from the start position that White wins by leaving Black without a legal move,
/// found by a beam search in which both sides help White (Black gives its pieces away):
/// a short game that ends by the rules, not by resignation.
pub fn winning_line() -> Vec<String> {
    const WIDTH: usize = 20;
    let black_left = |position: &Position| {
        let black = position.material(Color::Black);
        // Fewer black pieces first, kings counted as harder to catch, then fewer black
        // moves (a blocked side loses too).
        let mobility = if position.side_to_move() == Color::Black {
            position.legal_moves().len() as u32
        } else {
            0
        };
        black.men * 10 + black.kings * 30 + mobility
    };
    let mut beam = vec![Game::new(Variant::Russian)];
    for _ in 0..120 {
        let mut next: Vec<(u32, Game)> = Vec::new();
        let mut seen = HashSet::new();
        for game in &beam {
            for mv in game.legal_moves() {
                let mut branch = game.clone();
                branch.play(mv).unwrap();
                if let Status::Win {
                    winner: Color::White,
                    ..
                } = branch.status()
                {
                    return branch.history().iter().map(Move::notation).collect();
                }
                if branch.status() == Status::Ongoing
                    && seen.insert(zobrist_hash(branch.position()))
                {
                    next.push((black_left(branch.position()), branch));
                }
            }
        }
        next.sort_by_key(|(score, _)| *score);
        next.truncate(WIDTH);
        beam = next.into_iter().map(|(_, game)| game).collect();
    }
    panic!("no win for White found within 120 plies");
}

/// What a ply of a quiet line may be, given its index and the position before it.
type Allowed<'a> = dyn Fn(usize, &Move, &Position) -> bool + 'a;

fn is_king_move(mv: &Move, position: &Position) -> bool {
    position
        .piece_at(mv.from())
        .is_some_and(|p| p.kind == PieceKind::King)
}

/// `plies` plies from `fen` with no capture or promotion, never offering the opponent a
/// capture, never repeating a position, each one `allowed` (a depth-first search): the
/// quiet play the draw counters count.
fn quiet_line(fen: &str, plies: usize, allowed: &Allowed) -> Vec<String> {
    fn search(game: &mut Game, plies: usize, allowed: &Allowed, seen: &mut HashSet<u64>) -> bool {
        let done = game.history().len();
        if done == plies {
            return true;
        }
        let position = *game.position();
        for mv in game.legal_moves().to_vec() {
            if mv.is_capture() || mv.promotes() || !allowed(done, &mv, &position) {
                continue;
            }
            let next = position.play(&mv).unwrap();
            let hash = zobrist_hash(&next);
            if seen.contains(&hash) || next.legal_moves().iter().any(Move::is_capture) {
                continue;
            }
            let mut branch = game.clone();
            branch.play(&mv).unwrap();
            seen.insert(hash);
            if search(&mut branch, plies, allowed, seen) {
                *game = branch;
                return true;
            }
            seen.remove(&hash);
        }
        false
    }
    let start = Position::from_fen(Rules::preset(Variant::Russian), fen).unwrap();
    let mut game = Game::from_position(start);
    let mut seen = HashSet::from([zobrist_hash(&start)]);
    assert!(
        search(&mut game, plies, allowed, &mut seen),
        "no quiet line of {plies} plies from {fen}"
    );
    game.history().iter().map(Move::notation).collect()
}

fn words(line: &[&str]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

#[actix_web::test]
async fn a_standalone_game_is_played_move_by_move() {
    let app = TestApp::new().await;
    let (mut white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (mut black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let made = white
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": white_id, "black_player_id": black_id}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let game: Value = made.json();
    let id = game["id"].as_i64().unwrap();
    assert_eq!(game["status"], "ongoing");
    assert_eq!(game["side_to_move"], "white");
    assert_eq!(game["legal_moves"].as_array().unwrap().len(), 7);

    let first = play(&mut white, id, 1, "c3d4").await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    assert_eq!(first.json()["moves"][0]["move"], "c3-d4");
    // A resend of the same move (another spelling) changes nothing: no second row.
    let again = play(&mut white, id, 1, "c3-d4").await;
    assert_eq!(again.status.as_u16(), 200, "{}", again.body);
    assert_eq!(again.json()["ply"], 1);
    assert_eq!(stored_plies(&app, id).await, vec![(1, "c3-d4".to_string())]);
    // Another move for a taken ply is refused with the stored one.
    let taken = play(&mut white, id, 1, "a3-b4").await;
    let problem = taken.assert_refusal(409, "ply_taken");
    assert_eq!(problem["stored_move"], "c3-d4");
    assert_eq!(stored_plies(&app, id).await, vec![(1, "c3-d4".to_string())]);
    // White may not move for Black, nor may anyone outside the game.
    play(&mut white, id, 2, "f6-g5")
        .await
        .assert_refusal(403, "not_your_turn");
    let (mut stranger, _) = player(&app, "s@t.org", "Sidorov").await;
    play(&mut stranger, id, 2, "f6-g5")
        .await
        .assert_refusal(403, "not_in_game");
    play(&mut app.client(), id, 2, "f6-g5")
        .await
        .assert_problem(401, "unauthenticated");
    // Illegal moves: the engine's reason as a code, and the legal moves.
    let legal = game_of(&mut black, id).await["legal_moves"].clone();
    assert_eq!(legal.as_array().unwrap().len(), 7);
    for (text, reason) in [
        ("f6-f5", "move_not_a_square"),
        ("e3-f4", "move_not_your_piece"),
        ("e5-f4", "move_no_piece"),
        ("f6-g5:h4", "move_illegal_path"),
    ] {
        let illegal = play(&mut black, id, 2, text).await;
        let problem = illegal.assert_refusal(422, "illegal_move");
        assert_eq!(problem["reason_code"], reason, "{text}: {problem}");
        assert_eq!(problem["legal_moves"], legal, "{text}");
    }
    play(&mut black, id, 3, "f6-g5")
        .await
        .assert_refusal(409, "ply_ahead");
    assert_eq!(
        stored_plies(&app, id).await.len(),
        1,
        "no refusal stored a move"
    );
    let reply = play(&mut black, id, 2, "f6-e5").await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    // A capture is compulsory.
    let quiet = play(&mut white, id, 3, "a3-b4").await;
    let problem = quiet.assert_refusal(422, "illegal_move");
    assert_eq!(problem["reason_code"], "move_capture_compulsory");
    assert_eq!(problem["legal_moves"], json!(["d4:f6"]));
    let capture = play(&mut white, id, 3, "d4xf6").await;
    assert_eq!(capture.status.as_u16(), 201, "{}", capture.body);
    assert_eq!(capture.json()["moves"][2]["move"], "d4:f6");
    // Too early for a draw offer.
    let early = black.post(&format!("/api/v1/games/{id}/draw-offer")).await;
    early.assert_refusal(403, "not_your_turn");
    let early = white.post(&format!("/api/v1/games/{id}/draw-offer")).await;
    let problem = early.assert_refusal(409, "draw_offer_too_early");
    assert_eq!(problem["moves_needed"], 19);
    let resigned = white.post(&format!("/api/v1/games/{id}/resign")).await;
    assert_eq!(resigned.status.as_u16(), 200, "{}", resigned.body);
    let over = resigned.json();
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["reason"], "resignation");
    assert_eq!(over["legal_moves"].as_array().unwrap().len(), 0);
    play(&mut black, id, 4, "g7:e5")
        .await
        .assert_refusal(409, "game_over");
    black
        .post(&format!("/api/v1/games/{id}/resign"))
        .await
        .assert_refusal(409, "game_over");

    let page = app.client().get(&format!("/games/{id}")).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(page.body.contains("c3-d4"), "{}", page.body);
}

/// The draw offer (RULES.md "Draw offers"): only once each side has made 20 moves, only by
/// the player who has just moved, one standing at a time; accepted, declined, or declined
/// by the opponent's move.
#[actix_web::test]
async fn draw_offers_wait_for_twenty_moves_each_and_are_answered() {
    let app = TestApp::new().await;
    // 19 moves each: one more to go.
    let built = GameBuilder::russian().at_ply(38).build(&app).await;
    let (id, now, mut local) = (built.id, built.game, built.local);
    let mut sides = Sides {
        white: built.white,
        black: built.black,
    };
    assert_eq!(now["draw_offer_min_moves"], 20);
    let offer = format!("/api/v1/games/{id}/draw-offer");
    let accept = format!("/api/v1/games/{id}/draw-offer/accept");
    let decline = format!("/api/v1/games/{id}/draw-offer/decline");
    assert_eq!(now["moves_made"], json!({"white": 19, "black": 19}));
    let early = sides.black.post(&offer).await;
    assert_eq!(
        early.assert_refusal(409, "draw_offer_too_early")["moves_needed"],
        1
    );
    assert_eq!(
        game_of(&mut sides.white, id).await["draw_offer"],
        Value::Null
    );

    // 20 moves each: Black, who has just moved, may offer; White, on move, may not.
    let now = sides.play_on(id, &mut local, 2).await;
    assert_eq!(now["moves_made"], json!({"white": 20, "black": 20}));
    sides
        .white
        .post(&offer)
        .await
        .assert_refusal(403, "not_your_turn");
    let offered = sides.black.post(&offer).await;
    assert_eq!(offered.status.as_u16(), 200, "{}", offered.body);
    assert_eq!(
        offered.json()["draw_offer"],
        json!({"by": "black", "ply": 40})
    );
    sides
        .black
        .post(&offer)
        .await
        .assert_refusal(409, "draw_offer_pending");
    sides
        .black
        .post(&accept)
        .await
        .assert_refusal(403, "own_draw_offer");

    // Declined: the offer is gone, and Black may not offer again before moving again.
    let declined = sides.white.post(&decline).await;
    assert_eq!(declined.status.as_u16(), 200, "{}", declined.body);
    assert_eq!(declined.json()["draw_offer"], Value::Null);
    assert_eq!(declined.json()["status"], "ongoing");
    sides
        .white
        .post(&accept)
        .await
        .assert_refusal(409, "no_draw_offer");
    sides
        .black
        .post(&offer)
        .await
        .assert_refusal(409, "draw_offer_repeated");

    // An offer the opponent answers by moving is declined.
    sides.play_on(id, &mut local, 2).await;
    let offered = sides.black.post(&offer).await;
    assert_eq!(
        offered.json()["draw_offer"],
        json!({"by": "black", "ply": 42})
    );
    let moved = sides.play_on(id, &mut local, 1).await;
    assert_eq!(moved["draw_offer"], Value::Null, "{moved}");
    sides
        .white
        .post(&accept)
        .await
        .assert_refusal(409, "no_draw_offer");

    // Accepted: drawn by agreement.
    let offered = sides.white.post(&offer).await;
    assert_eq!(
        offered.json()["draw_offer"],
        json!({"by": "white", "ply": 43})
    );
    let accepted = sides.black.post(&accept).await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    let over = accepted.json();
    assert_eq!(over["status"], "finished");
    assert_eq!(over["result"], "1/2-1/2");
    assert_eq!(over["reason"], "agreement");
    assert_eq!(over["draw_offer"], Value::Null);
    assert_eq!(over["ply"], 43);
    sides
        .black
        .post(&offer)
        .await
        .assert_refusal(409, "game_over");
    assert_eq!(stored_plies(&app, id).await.len(), 43);
}

#[actix_web::test]
async fn a_whole_game_is_played_to_a_win_by_the_rules() {
    let app = TestApp::new().await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let game = standalone(&mut sides.white, white_id, black_id, json!({"rated": true})).await;
    let id = game["id"].as_i64().unwrap();
    assert_eq!(game["rated"], true);

    let line = winning_line();
    let over = sides.play_line(id, &line).await;
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["result"], "1-0");
    assert_eq!(over["reason"], "no_legal_moves");
    assert_eq!(over["ply"], line.len() as i64);
    assert_eq!(over["legal_moves"], json!([]));
    assert_eq!(over["side_to_move"], "black", "Black is to move and cannot");
    let played: Vec<&str> = over["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(played, line);
    assert_eq!(stored_plies(&app, id).await.len(), line.len());

    // Nothing more is played; the lists and the page show the finished game.
    let next = line.len() as i64 + 1;
    play(&mut sides.black, id, next, "a7-b6")
        .await
        .assert_refusal(409, "game_over");
    let list = sides
        .white
        .get(&format!(
            "/api/v1/games?player_id={black_id}&status=finished"
        ))
        .await
        .json();
    assert_eq!(list["items"].as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list["items"][0]["id"], id);
    assert_eq!(list["items"][0]["result"], "1-0");
    let ongoing = sides
        .white
        .get(&format!(
            "/api/v1/games?player_id={black_id}&status=ongoing"
        ))
        .await
        .json();
    assert_eq!(ongoing, json!({"items": [], "next_cursor": null}));
}

/// Each automatic draw of the russian preset ends a game from a set-up ending on the move
/// that reaches its limit, not before: threefold repetition, the piece-count table, only
/// kings moving, the lone king not caught.
#[actix_web::test]
async fn every_automatic_draw_of_the_russian_preset_ends_the_game() {
    let app = TestApp::new().await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let any_quiet = |_: usize, _: &Move, _: &Position| true;
    let kings_only = |_: usize, mv: &Move, position: &Position| is_king_move(mv, position);
    let endings: [(&str, Vec<String>, &str); 4] = [
        (
            // Eight pieces: no counter runs; the kings go to and fro.
            "W:WKc1,a1,e1,g1:BKf8,b8,d8,h8",
            words(&[
                "c1-d2", "f8-e7", "d2-c1", "e7-f8", "c1-d2", "f8-e7", "d2-c1", "e7-f8",
            ]),
            "threefold_repetition",
        ),
        (
            // Three pieces with kings on both sides: 5 moves each.
            "W:WKa1,Kc1:BKb8",
            quiet_line("W:WKa1,Kc1:BKb8", 10, &any_quiet),
            "no_capture_or_promotion",
        ),
        (
            // Four pieces: 15 moves each of kings only.
            "W:WKa1,c3:BKb8,h6",
            quiet_line("W:WKa1,c3:BKb8,h6", 30, &kings_only),
            "only_kings_moved",
        ),
        (
            // Three pieces against a lone king on the main road: 5 moves of the stronger
            // side (White moves first, so its 5th move is ply 9).
            "W:WKa3,Kc1,e1:BKd4",
            quiet_line("W:WKa3,Kc1,e1:BKd4", 9, &any_quiet),
            "lone_king_not_caught",
        ),
    ];
    for (fen, line, reason) in endings {
        let id = game_from_fen(&app, white_id, black_id, "w@t.org", fen).await;
        let over = sides.play_line(id, &line).await;
        assert_eq!(over["status"], "finished", "{fen}: {over}");
        assert_eq!(over["result"], "1/2-1/2", "{fen}");
        assert_eq!(over["reason"], reason, "{fen}");
        assert_eq!(over["legal_moves"], json!([]), "{fen}");
        assert_eq!(over["start_fen"], fen);
        assert_eq!(stored_plies(&app, id).await.len(), line.len(), "{fen}");
    }
}

/// A local rule of a standalone game: the move limit draws it at that ply.
#[actix_web::test]
async fn a_local_move_limit_draws_a_standalone_game() {
    let app = TestApp::new().await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let game = standalone(
        &mut sides.black,
        white_id,
        black_id,
        json!({"local_rules": {"move_limit": 6}}),
    )
    .await;
    let id = game["id"].as_i64().unwrap();
    let mut local = Game::new(Variant::Russian);
    sides.play_on(id, &mut local, 5).await;
    let last = lasting_move(&local).notation();
    let over = play(&mut sides.black, id, 6, &last).await;
    assert_eq!(over.status.as_u16(), 201, "{}", over.body);
    let over = over.json();
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["result"], "1/2-1/2");
    assert_eq!(over["reason"], "move_limit");
    // A limit out of range is refused with the field named.
    let bad = sides
        .white
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": white_id,
                "black_player_id": black_id, "local_rules": {"move_limit": 0}}),
        )
        .await;
    assert_eq!(
        bad.assert_refusal(422, "not_between")["field"],
        "move_limit"
    );
}

/// The arbiter of a standalone game is the organiser who created it: it sets and clears
/// results and takes plies back, each kept in the game's change log. Players are no
/// arbiters, not even of a game they created themselves.
#[actix_web::test]
async fn arbiters_set_results_and_take_plies_back() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let game = standalone(&mut org, white_id, black_id, json!({})).await;
    let id = game["id"].as_i64().unwrap();
    let result = format!("/api/v1/games/{id}/result");
    let takeback = format!("/api/v1/games/{id}/takeback");
    org.post(&takeback)
        .await
        .assert_refusal(409, "nothing_to_take_back");
    sides.play_line(id, &words(&["c3-d4", "f6-g5"])).await;

    // Players may not set results or take plies back.
    sides
        .white
        .json(Method::PUT, &result, json!({"result": "1-0"}))
        .await
        .assert_refusal(403, "only_game_arbiters");
    sides
        .black
        .post(&takeback)
        .await
        .assert_refusal(403, "only_game_arbiters");
    let own = standalone(&mut sides.white, white_id, black_id, json!({})).await;
    sides
        .white
        .json(
            Method::PUT,
            &format!("/api/v1/games/{}/result", own["id"]),
            json!({"result": "1-0"}),
        )
        .await
        .assert_refusal(403, "only_game_arbiters");
    sides
        .white
        .post(&format!("/api/v1/games/{}/takeback", own["id"]))
        .await
        .assert_refusal(403, "only_game_arbiters");
    // Nor may the arbiter offer or resign for a player.
    org.post(&format!("/api/v1/games/{id}/resign"))
        .await
        .assert_refusal(403, "only_players_of_game");

    // A takeback removes the last ply: Black is to move again and plays another move.
    let back = org.post(&takeback).await;
    assert_eq!(back.status.as_u16(), 200, "{}", back.body);
    let back = back.json();
    assert_eq!(back["ply"], 1);
    assert_eq!(back["side_to_move"], "black");
    assert_eq!(stored_plies(&app, id).await, vec![(1, "c3-d4".to_string())]);
    let other = play(&mut sides.black, id, 2, "b6-a5").await;
    assert_eq!(other.status.as_u16(), 201, "{}", other.body);

    // A result by the arbiter ends the game (reason `arbiter` unless given); cleared, the
    // game goes on.
    let set = org
        .json(Method::PUT, &result, json!({"result": "1-0"}))
        .await;
    assert_eq!(set.status.as_u16(), 200, "{}", set.body);
    let set = set.json();
    assert_eq!(
        (&set["status"], &set["result"], &set["reason"]),
        (&json!("finished"), &json!("1-0"), &json!("arbiter"))
    );
    assert_eq!(set["legal_moves"], json!([]));
    play(&mut sides.white, id, 3, "d4-c5")
        .await
        .assert_refusal(409, "game_over");
    let agreed = org
        .json(
            Method::PUT,
            &result,
            json!({"result": "1/2-1/2", "reason": "agreement"}),
        )
        .await
        .json();
    assert_eq!(
        (&agreed["result"], &agreed["reason"]),
        (&json!("1/2-1/2"), &json!("agreement"))
    );
    let bad = org
        .json(Method::PUT, &result, json!({"result": "2-0"}))
        .await;
    assert_eq!(bad.assert_refusal(422, "not_one_of")["field"], "result");
    let cleared = org
        .json(Method::PUT, &result, json!({"result": null}))
        .await;
    assert_eq!(cleared.status.as_u16(), 200, "{}", cleared.body);
    let cleared = cleared.json();
    assert_eq!(
        (&cleared["status"], &cleared["result"]),
        (&json!("ongoing"), &Value::Null)
    );
    assert!(!cleared["legal_moves"].as_array().unwrap().is_empty());
    let on = play(&mut sides.white, id, 3, "d4-c5").await;
    assert_eq!(on.status.as_u16(), 201, "{}", on.body);

    /// (action, ply, notation taken back, new result) of a change log entry.
    type Change = (String, Option<i32>, Option<String>, Option<String>);
    let log: Vec<Change> = app
        .with_db(move |conn| {
            stored::changes_of_game(conn, id)
                .unwrap()
                .into_iter()
                .map(|c| {
                    (
                        c.action,
                        c.ply,
                        c.notation,
                        c.new_result.map(|r| r.spelling().to_string()),
                    )
                })
                .collect()
        })
        .await;
    let text = |s: &str| Some(s.to_string());
    assert_eq!(
        log,
        vec![
            ("takeback".into(), Some(2), text("f6-g5"), None),
            ("result".into(), Some(2), None, text("1-0")),
            ("result".into(), Some(2), None, text("1/2-1/2")),
            ("result".into(), Some(2), None, None),
        ]
    );

    // A game the rules have ended keeps its result; a takeback reopens it.
    let won = game_from_fen(&app, white_id, black_id, "org@t.org", "W:Wc3:Bd4").await;
    let over = play(&mut sides.white, won, 1, "c3:e5").await.json();
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("1-0"), &json!("no_legal_moves"))
    );
    org.json(
        Method::PUT,
        &format!("/api/v1/games/{won}/result"),
        json!({"result": null}),
    )
    .await
    .assert_refusal(409, "game_over_by_rules");
    let reopened = org
        .post(&format!("/api/v1/games/{won}/takeback"))
        .await
        .json();
    assert_eq!(
        (&reopened["status"], &reopened["ply"]),
        (&json!("ongoing"), &json!(0))
    );
    assert_eq!(reopened["legal_moves"], json!(["c3:e5"]));
}

/// Gives `player_id` a russian rating (start numbers, and so round 1's boards, follow
/// ratings) and enters the player in the event.
async fn enter(org: &mut Client<'_>, event: i64, player_id: i64, rating: i32) {
    org.app
        .with_db(move |conn| {
            damka::store::players::set_rating(
                conn,
                &PlayerRating {
                    player_id,
                    variant: Variant::Russian,
                    rating,
                    games: 30,
                },
            )
            .unwrap();
            // A starting rating counts once the variant is recomputed, as imports do.
            damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
                .unwrap();
        })
        .await;
    let entry = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/entries"),
            json!({ "player_id": player_id }),
        )
        .await;
    assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
}

/// A player profile made by the organiser (no account of its own); returns its id.
async fn profile(org: &mut Client<'_>, name: &str) -> i64 {
    let made = org
        .json(Method::POST, "/api/v1/players", json!({ "name": name }))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    made.json()["id"].as_i64().unwrap()
}

async fn boards_of_round(api: &mut Client<'_>, event: i64, round: usize) -> Vec<Value> {
    let rounds = api.get(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(rounds.status.as_u16(), 200, "{}", rounds.body);
    rounds.json()[round - 1]["boards"]
        .as_array()
        .unwrap()
        .clone()
}

async fn half_points(api: &mut Client<'_>, event: i64) -> Vec<(i64, u64)> {
    let standings = api.get(&format!("/api/v1/events/{event}/standings")).await;
    assert_eq!(standings.status.as_u16(), 200, "{}", standings.body);
    let mut points: Vec<(i64, u64)> = standings.json()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player_id"].as_i64().unwrap(),
                r["half_points"].as_u64().unwrap(),
            )
        })
        .collect();
    points.sort_unstable();
    points
}

/// Result changes of the event's audit trail as (board, old, new, by), oldest first.
async fn result_audit(api: &mut Client<'_>, event: i64) -> Vec<(i64, Value, Value, String)> {
    let changes = api.get(&format!("/api/v1/events/{event}/changes")).await;
    assert_eq!(changes.status.as_u16(), 200, "{}", changes.body);
    let mut out: Vec<(i64, Value, Value, String)> = changes.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "result")
        .map(|c| {
            (
                c["board"].as_i64().unwrap(),
                c["old"].clone(),
                c["new"].clone(),
                c["by"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Newest first as listed.
    out.reverse();
    out
}

/// Publishing a round creates a game on each board of two players, with the event's
/// rules; a game finished by play, an arbiter's result and a takeback each reach the
/// board, the standings and the audit trail at once.
#[actix_web::test]
async fn event_games_carry_their_results_to_the_boards_and_the_standings() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let event = common::create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3, "draw_offer_min_moves": 10}),
    )
    .await;
    let (third, fourth) = (
        profile(&mut org, "Sidorov").await,
        profile(&mut org, "Kuznetsov").await,
    );
    // Start numbers 1 and 3 meet on board 1 of a Swiss round 1 (top half against bottom
    // half), number 1 with White.
    enter(&mut org, event, white_id, 2400).await;
    enter(&mut org, event, third, 2350).await;
    enter(&mut org, event, black_id, 2300).await;
    enter(&mut org, event, fourth, 2250).await;

    let round = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let draft = round.json();
    assert!(
        draft["boards"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b["game_id"].is_null()),
        "no games before publishing: {draft}"
    );
    let published = org
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let boards = boards_of_round(&mut org, event, 1).await;
    assert_eq!(boards.len(), 2);
    let mut games = Vec::new();
    for board in &boards {
        let id = board["game_id"].as_i64().expect("a game on every board");
        let game = game_of(&mut org, id).await;
        assert_eq!(game["event_id"], event);
        assert_eq!(
            (&game["round"], &game["board"]),
            (&json!(1), &board["board"])
        );
        assert_eq!(game["white"]["name"], board["white_name"]);
        assert_eq!(game["black"]["name"], board["black_name"]);
        assert_eq!(game["draw_offer_min_moves"], 10, "the event's minimum");
        assert_eq!(game["rated"], true);
        assert_eq!(game["ply"], 0);
        games.push(id);
    }
    let (first, second) = (games[0], games[1]);
    assert_eq!(
        game_of(&mut org, first).await["white"]["player_id"],
        white_id,
        "the two player accounts meet on board 1: {boards:?}"
    );
    let listed = org
        .get(&format!("/api/v1/games?event_id={event}"))
        .await
        .json();
    assert_eq!(listed["items"].as_array().unwrap().len(), 2, "{listed}");
    let nobody = vec![(white_id, 0), (black_id, 0), (third, 0), (fourth, 0)];
    let mut nobody = nobody;
    nobody.sort_unstable();
    assert_eq!(half_points(&mut org, event).await, nobody);

    // Board 1 is played to a win: the board, the standings and the audit have it at once.
    let line = winning_line();
    let over = sides.play_line(first, &line).await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("1-0"), &json!("no_legal_moves"))
    );
    let boards = boards_of_round(&mut org, event, 1).await;
    assert_eq!(boards[0]["result"], "1-0");
    assert_eq!(boards[1]["result"], Value::Null);
    let points = half_points(&mut sides.black, event).await;
    assert!(
        points.contains(&(white_id, 2)) && points.contains(&(black_id, 0)),
        "{points:?}"
    );
    assert_eq!(
        result_audit(&mut org, event).await,
        vec![(1, Value::Null, json!("1-0"), "w".to_string())],
        "the result is kept with the player who made the last move"
    );
    // A forfeit cannot replace a game that was played.
    let pairing = boards[0]["pairing_id"].as_i64().unwrap();
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{event}/pairings/{pairing}/result"),
        json!({"result": "-/+"}),
    )
    .await
    .assert_refusal(409, "game_has_moves");

    // Board 2: only the event's arbiters set a game's result.
    sides
        .white
        .json(
            Method::PUT,
            &format!("/api/v1/games/{second}/result"),
            json!({"result": "1-0"}),
        )
        .await
        .assert_refusal(403, "only_game_arbiters");
    let set = org
        .json(
            Method::PUT,
            &format!("/api/v1/games/{second}/result"),
            json!({"result": "0-1"}),
        )
        .await;
    assert_eq!(set.status.as_u16(), 200, "{}", set.body);
    assert_eq!(
        boards_of_round(&mut org, event, 1).await[1]["result"],
        "0-1"
    );
    let points = half_points(&mut org, event).await;
    let board2_black = game_of(&mut org, second).await["black"]["player_id"]
        .as_i64()
        .unwrap();
    assert!(points.contains(&(board2_black, 2)), "{points:?}");

    // The arbiter takes the winning move back: the result leaves the board and the
    // standings; the move played again brings it back.
    let back = org.post(&format!("/api/v1/games/{first}/takeback")).await;
    assert_eq!(back.status.as_u16(), 200, "{}", back.body);
    assert_eq!(back.json()["status"], "ongoing");
    assert_eq!(
        boards_of_round(&mut org, event, 1).await[0]["result"],
        Value::Null
    );
    assert!(half_points(&mut org, event).await.contains(&(white_id, 0)));
    let last = line.len() as i64;
    let changes = org
        .get(&format!("/api/v1/events/{event}/changes"))
        .await
        .json();
    let takebacks: Vec<&Value> = changes["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "takeback")
        .collect();
    assert_eq!(takebacks.len(), 1, "{changes}");
    assert_eq!(
        (
            &takebacks[0]["board"],
            &takebacks[0]["by"],
            &takebacks[0]["old"]
        ),
        (
            &json!(1),
            &json!("org"),
            &json!(format!("{last}. {}", line.last().unwrap()))
        )
    );
    let again = play(&mut sides.white, first, last, line.last().unwrap()).await;
    assert_eq!(again.status.as_u16(), 201, "{}", again.body);
    assert_eq!(
        boards_of_round(&mut org, event, 1).await[0]["result"],
        "1-0"
    );
    assert!(half_points(&mut org, event).await.contains(&(white_id, 2)));
    assert_eq!(
        result_audit(&mut org, event).await,
        vec![
            (1, Value::Null, json!("1-0"), "w".to_string()),
            (2, Value::Null, json!("0-1"), "org".to_string()),
            (1, json!("1-0"), Value::Null, "org".to_string()),
            (1, Value::Null, json!("1-0"), "w".to_string()),
        ]
    );
}

/// A round may be paired again only while none of its games has a move; its games are
/// replaced by the new round's when that is published.
#[actix_web::test]
async fn repairing_a_round_replaces_its_games_until_one_has_a_move() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut org, event, 4).await;
    let round = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    org.post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    let boards = boards_of_round(&mut org, event, 1).await;
    let old: Vec<i64> = boards
        .iter()
        .map(|b| b["game_id"].as_i64().unwrap())
        .collect();
    assert_eq!(old.len(), 2);

    // The arbiter enters a move on board 1: the round stays as it is.
    let moved = play(&mut org, old[0], 1, "c3-d4").await;
    assert_eq!(moved.status.as_u16(), 201, "{}", moved.body);
    let refused = org
        .post(&format!("/api/v1/events/{event}/rounds/repair"))
        .await;
    let problem = refused.assert_refusal(409, "round_has_played_games");
    assert!(
        problem["detail"].as_str().unwrap().contains("board 1"),
        "{problem}"
    );
    assert_eq!(game_of(&mut org, old[0]).await["ply"], 1);
    assert_eq!(boards_of_round(&mut org, event, 1).await, boards);

    // Without the move the round is paired again and its games go with it.
    let back = org
        .post(&format!("/api/v1/games/{}/takeback", old[0]))
        .await;
    assert_eq!(back.status.as_u16(), 200, "{}", back.body);
    let repaired = org
        .post(&format!("/api/v1/events/{event}/rounds/repair"))
        .await;
    assert_eq!(repaired.status.as_u16(), 200, "{}", repaired.body);
    assert_eq!(repaired.json()["published"], false);
    for id in &old {
        let gone = org.get(&format!("/api/v1/games/{id}")).await;
        assert_eq!(gone.status.as_u16(), 404, "game {id}: {}", gone.body);
    }
    let published = org
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let boards = boards_of_round(&mut org, event, 1).await;
    for board in &boards {
        let game = game_of(&mut org, board["game_id"].as_i64().unwrap()).await;
        assert_eq!((&game["ply"], &game["board"]), (&json!(0), &board["board"]));
    }
    let listed = org
        .get(&format!("/api/v1/games?event_id={event}"))
        .await
        .json();
    assert_eq!(
        listed["items"].as_array().unwrap().len(),
        2,
        "only the new round's games: {listed}"
    );
}
