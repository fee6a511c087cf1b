//! Builders for the setups many tests share, so that a test states only what it checks:
//! `EventBuilder::swiss("Drafts", 3).players(5).played(&["1/2-1/2"]).build(&mut org)` is an
//! event created over the API, its players entered (rated 2400, 2350, ...) and its first
//! rounds paired, published and given those results, in that order, as a test would do by hand.
use serde_json::{Value, json};

use super::{Client, create_event, enter_players, play_round};

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
