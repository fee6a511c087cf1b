//! Builders for the setups many tests share, so that a test states only what it checks:
//! `EventBuilder::swiss("Drafts", 3).players(5).played(&["1/2-1/2"]).build(&mut org)` is an
//! event created over the API, its players entered (rated 2400, 2350, ...) and its first
//! rounds paired, published and given those results, in that order, as a test would do by hand.
//! `GameBuilder::russian().at_ply(38).build(&app)` is a standalone game between two new
//! players with 38 plies played over the API, each a move that keeps the game going.
use std::collections::HashSet;

use actix_web::http::Method;
use damka_engine::{Color, Game, Move, Variant, zobrist_hash};
use serde_json::{Value, json};

use super::{Client, Role, TestApp, create_event, enter_players, play_round};

/// An event to create over the API, with its entries and the rounds to play.
pub struct EventBuilder {
    body: Value,
    players: usize,
    rounds: Vec<Vec<String>>,
}

/// What `EventBuilder::build` made: the event's id, its entries' ids in start order and
/// each played round as it was paired.
pub struct BuiltEvent {
    pub id: i64,
    pub entries: Vec<i64>,
    pub rounds: Vec<Value>,
}

impl EventBuilder {
    /// A Swiss event of `rounds` rounds, the other settings left to their defaults.
    pub fn swiss(name: &str, rounds: u32) -> EventBuilder {
        EventBuilder::new(json!({"name": name, "system": "swiss", "rounds": rounds}))
    }

    /// An event created from this request body as it is.
    pub fn new(body: Value) -> EventBuilder {
        EventBuilder {
            body,
            players: 0,
            rounds: Vec::new(),
        }
    }

    /// `n` players entered, rated 2400, 2350, ... in the russian variant.
    pub fn players(mut self, n: usize) -> EventBuilder {
        self.players = n;
        self
    }

    /// The next round paired, published and given these results in board order (boards
    /// beyond the list stay open).
    pub fn played(mut self, results: &[&str]) -> EventBuilder {
        self.rounds
            .push(results.iter().map(|r| r.to_string()).collect());
        self
    }

    /// Creates the event, enters the players and plays the rounds, through `api`.
    pub async fn build(self, api: &mut Client<'_>) -> BuiltEvent {
        let id = create_event(api, self.body).await;
        let entries = enter_players(api, id, self.players).await;
        let mut rounds = Vec::new();
        for results in &self.rounds {
            let results: Vec<&str> = results.iter().map(String::as_str).collect();
            rounds.push(play_round(api, id, &results).await);
        }
        BuiltEvent {
            id,
            entries,
            rounds,
        }
    }
}

/// A player account with its own profile, as an API client; returns (client, player id).
pub async fn player<'a>(app: &'a TestApp, email: &str, name: &str) -> (Client<'a>, i64) {
    let mut browser = app.user(email, Role::Player).await;
    let mut api = browser.api_client().await;
    let made = api
        .json(Method::POST, "/api/v1/players", json!({ "name": name }))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let id = made.json()["id"].as_i64().unwrap();
    (api, id)
}

/// A move for a game that should go on for a long time: never back to a position the
/// game has had (no repetition), giving the opponent as few captures as possible; the first
/// such move in notation order.
pub fn lasting_move(game: &Game) -> Move {
    let mut replay = Game::from_position(*game.start_position());
    let mut seen = HashSet::from([zobrist_hash(replay.position())]);
    for mv in game.history() {
        replay.play(mv).unwrap();
        seen.insert(zobrist_hash(replay.position()));
    }
    let mut moves = game.legal_moves().to_vec();
    moves.sort_by_key(Move::notation);
    moves
        .into_iter()
        .min_by_key(|mv| {
            let next = game.position().play(mv).unwrap();
            let captures = next.legal_moves().iter().filter(|r| r.is_capture()).count();
            (seen.contains(&zobrist_hash(&next)), captures)
        })
        .expect("the game is not over")
}

/// A standalone game to create over the API and play to a given ply.
pub struct GameBuilder {
    white: (String, String),
    black: (String, String),
    plies: usize,
}

/// What `GameBuilder::build` made: the game as its last answer showed it, its players'
/// clients and profile ids, and the same game in the engine.
pub struct BuiltGame<'a> {
    pub id: i64,
    pub game: Value,
    pub white: Client<'a>,
    pub white_id: i64,
    pub black: Client<'a>,
    pub black_id: i64,
    pub local: Game,
}

impl GameBuilder {
    /// A russian game between Ivanov (`w@t.org`, White) and Petrov (`b@t.org`, Black),
    /// nothing played.
    pub fn russian() -> GameBuilder {
        GameBuilder {
            white: ("w@t.org".into(), "Ivanov".into()),
            black: ("b@t.org".into(), "Petrov".into()),
            plies: 0,
        }
    }

    /// The players' e-mails, for a test with more than one game.
    pub fn players(mut self, white_email: &str, black_email: &str) -> GameBuilder {
        self.white.0 = white_email.into();
        self.black.0 = black_email.into();
        self
    }

    /// `plies` plies played, each by the side on move, each the `lasting_move`.
    pub fn at_ply(mut self, plies: usize) -> GameBuilder {
        self.plies = plies;
        self
    }

    /// Creates the players and the game (as White) and plays the plies.
    pub async fn build(self, app: &TestApp) -> BuiltGame<'_> {
        let (mut white, white_id) = player(app, &self.white.0, &self.white.1).await;
        let (black, black_id) = player(app, &self.black.0, &self.black.1).await;
        let body = json!({
            "variant": "russian",
            "white_player_id": white_id,
            "black_player_id": black_id,
        });
        let made = white.json(Method::POST, "/api/v1/games", body).await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        let mut built = BuiltGame {
            id: made.json()["id"].as_i64().unwrap(),
            game: made.json(),
            white,
            white_id,
            black,
            black_id,
            local: Game::new(Variant::Russian),
        };
        for _ in 0..self.plies {
            built.play_lasting_move().await;
        }
        built
    }
}

impl BuiltGame<'_> {
    /// Plays the `lasting_move` by the side on move; the game must go on.
    pub async fn play_lasting_move(&mut self) -> &Value {
        let mv = lasting_move(&self.local);
        let api = match self.local.side_to_move() {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        };
        self.local.play(&mv).unwrap();
        let ply = self.local.history().len();
        let path = format!("/api/v1/games/{}/moves", self.id);
        let body = json!({"ply": ply, "move": mv.notation()});
        let stored = api.json(Method::POST, &path, body).await;
        assert_eq!(stored.status.as_u16(), 201, "ply {ply}: {}", stored.body);
        self.game = stored.json();
        assert_eq!(
            self.game["status"], "ongoing",
            "after ply {ply}: {}",
            self.game
        );
        assert_eq!(self.game["fen"], self.local.position().to_fen());
        &self.game
    }
}
