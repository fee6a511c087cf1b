//! `--in-events`: the games are the boards of Swiss events that the tool runs as their
//! organiser, as a club would: 2N players entered, a round paired and published, its N
//! games played at once (one connection each), and when the last of them is over the next
//! round is paired and published; after the last round (or when no pairing exists) a new
//! event starts with the same players.
//!
//! Every step reads the event's rounds first and does only what is still missing, so a
//! step cut short by a server crash is finished on the next attempt.
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Deserialize;
use tokio::sync::{Mutex, watch};

use super::{Target, fetch};

/// Rounds of each event (fewer with very few players).
const ROUNDS_PER_EVENT: i32 = 5;

/// Which game each connection plays now; `generation` counts the rounds played.
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    pub generation: u64,
    /// By connection: the game on board `index + 1`.
    pub games: Vec<i64>,
}

struct State {
    event: i64,
    /// Connections whose game of the current generation is over.
    finished: usize,
    /// The moment the next round could not yet be set up, for the error samples.
    last_error: Option<String>,
}

pub struct Coordinator {
    target: Target,
    headers: Vec<(String, String)>,
    players: Vec<i64>,
    boards: usize,
    rounds: i32,
    state: Mutex<State>,
    assignment: watch::Sender<Assignment>,
    events: std::sync::Mutex<Vec<i64>>,
    /// Failed attempts to set up a round (the server away, an unexpected answer).
    failures: AtomicU64,
}

#[derive(Deserialize)]
struct Created {
    id: i64,
}

#[derive(Deserialize)]
struct Board {
    board: i32,
    bye: Option<String>,
    result: Option<String>,
    game_id: Option<i64>,
}

#[derive(Deserialize)]
struct Round {
    published: bool,
    boards: Vec<Board>,
}

impl Coordinator {
    /// Creates the 2 x `boards` players and the first event with its first round.
    pub async fn start(
        target: Target,
        headers: Vec<(String, String)>,
        boards: usize,
    ) -> anyhow::Result<(Coordinator, Assignment)> {
        let mut players = Vec::with_capacity(2 * boards);
        let mut coordinator = Coordinator {
            target,
            headers,
            players: Vec::new(),
            boards,
            rounds: ROUNDS_PER_EVENT.min(i32::try_from(2 * boards - 1).unwrap_or(1)),
            state: Mutex::new(State {
                event: 0,
                finished: 0,
                last_error: None,
            }),
            assignment: watch::Sender::new(Assignment::default()),
            events: std::sync::Mutex::new(Vec::new()),
            failures: AtomicU64::new(0),
        };
        for index in 0..2 * boards {
            let body = serde_json::json!({ "name": format!("Load Player {}", index + 1) });
            let created: Created = coordinator
                .send("POST", "/api/v1/players", &body, 201)
                .await?;
            players.push(created.id);
        }
        coordinator.players = players;
        let event = coordinator.new_event().await?;
        let games = coordinator.set_up_round(event).await?;
        let first = Assignment {
            generation: 0,
            games,
        };
        coordinator.state.get_mut().event = event;
        coordinator.assignment.send_replace(first.clone());
        Ok((coordinator, first))
    }

    /// The events created so far.
    pub fn events(&self) -> Vec<i64> {
        self.events.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// Called by a connection whose game of `generation` is over: waits for the next
    /// round (the last connection to finish sets it up) and returns it; `None` at the
    /// deadline.
    pub async fn next(&self, generation: u64, deadline: Instant) -> Option<Assignment> {
        let mut receiver = self.assignment.subscribe();
        let last = {
            let mut state = self.state.lock().await;
            if self.assignment.borrow().generation != generation {
                // Already moved on (cannot happen while every connection reports once).
                return Some(self.assignment.borrow().clone());
            }
            state.finished += 1;
            state.finished == self.boards
        };
        if last {
            return self.advance(generation, deadline).await;
        }
        let waited = tokio::time::timeout_at(
            deadline.into(),
            receiver.wait_for(|a| a.generation != generation),
        )
        .await;
        match waited {
            Ok(Ok(next)) => Some(next.clone()),
            _ => None,
        }
    }

    /// Sets up the round after `generation`, retrying (the server may be restarting)
    /// until the deadline.
    async fn advance(&self, generation: u64, deadline: Instant) -> Option<Assignment> {
        let mut state = self.state.lock().await;
        while Instant::now() < deadline {
            match self.set_up_round(state.event).await {
                Ok(games) => {
                    state.finished = 0;
                    let next = Assignment {
                        generation: generation + 1,
                        games,
                    };
                    self.assignment.send_replace(next.clone());
                    return Some(next);
                }
                // The event is over or cannot be paired: the next event.
                Err(err) if err.downcast_ref::<EventOver>().is_some() => {
                    match self.new_event().await {
                        Ok(event) => state.event = event,
                        Err(err) => self.failed(&mut state, &err),
                    }
                }
                Err(err) => {
                    self.failed(&mut state, &err);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
        None
    }

    fn failed(&self, state: &mut State, err: &anyhow::Error) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        state.last_error = Some(format!("{err:#}"));
    }

    /// How many attempts to set up a round failed.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// The last error met while setting up a round, if any.
    pub async fn last_error(&self) -> Option<String> {
        self.state.lock().await.last_error.clone()
    }

    /// Brings `event` to a published round whose games are still to be played and returns
    /// them by board: publishes a paired draft, pairs the next round when every game of
    /// the last one is over. `EventOver` when it has no round left or no pairing exists.
    async fn set_up_round(&self, event: i64) -> anyhow::Result<Vec<i64>> {
        let rounds_path = format!("/api/v1/events/{event}/rounds");
        loop {
            let rounds: Vec<Round> = self
                .send("GET", &rounds_path, &serde_json::Value::Null, 200)
                .await?;
            if let Some(last) = rounds.last() {
                if !last.published {
                    self.send_empty("POST", &format!("{rounds_path}/publish"), 204)
                        .await?;
                    continue;
                }
                let mut boards: Vec<&Board> =
                    last.boards.iter().filter(|b| b.bye.is_none()).collect();
                if boards.iter().any(|b| b.result.is_none()) {
                    boards.sort_by_key(|b| b.board);
                    let games: Vec<i64> = boards.iter().filter_map(|b| b.game_id).collect();
                    if games.len() != self.boards {
                        bail!(
                            "event {event}: round {} has {} games for {} connections",
                            rounds.len(),
                            games.len(),
                            self.boards
                        );
                    }
                    return Ok(games);
                }
            }
            if rounds.len() >= usize::try_from(self.rounds).unwrap_or(0) {
                return Err(EventOver.into());
            }
            let answer = fetch(
                &self.target,
                "POST",
                &rounds_path,
                &self.json_headers(),
                b"",
            )
            .await?;
            match answer.status {
                201 => {}
                409 | 422 => return Err(EventOver.into()),
                other => bail!(
                    "POST {rounds_path} answered {other}: {}",
                    String::from_utf8_lossy(&answer.body)
                ),
            }
        }
    }

    /// A new Swiss event with every player entered.
    async fn new_event(&self) -> anyhow::Result<i64> {
        let number = self.events().len() + 1;
        let body = serde_json::json!({
            "name": format!("Load event {number}"),
            "variant": "russian",
            "system": "swiss",
            "rounds": self.rounds,
        });
        let created: Created = self.send("POST", "/api/v1/events", &body, 201).await?;
        for player in &self.players {
            let path = format!("/api/v1/events/{}/entries", created.id);
            let body = serde_json::json!({ "player_id": player });
            let _: serde_json::Value = self.send("POST", &path, &body, 201).await?;
        }
        if let Ok(mut events) = self.events.lock() {
            events.push(created.id);
        }
        Ok(created.id)
    }

    fn json_headers(&self) -> Vec<(String, String)> {
        let mut headers = self.headers.clone();
        headers.push(("Content-Type".into(), "application/json".into()));
        headers
    }

    async fn send_empty(&self, method: &str, path: &str, expected: u16) -> anyhow::Result<()> {
        let answer = fetch(&self.target, method, path, &self.json_headers(), b"").await?;
        if answer.status != expected {
            bail!(
                "{method} {path} answered {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            );
        }
        Ok(())
    }

    async fn send<T: for<'de> Deserialize<'de>>(
        &self,
        method: &str,
        path: &str,
        body: &serde_json::Value,
        expected: u16,
    ) -> anyhow::Result<T> {
        let bytes = if body.is_null() {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let answer = fetch(&self.target, method, path, &self.json_headers(), &bytes).await?;
        if answer.status != expected {
            bail!(
                "{method} {path} answered {}: {}",
                answer.status,
                String::from_utf8_lossy(&answer.body)
            );
        }
        serde_json::from_slice(&answer.body)
            .with_context(|| format!("the answer to {method} {path}"))
    }
}

/// The event has no round left to play, or no pairing exists for the next one.
#[derive(Debug)]
struct EventOver;

impl std::fmt::Display for EventOver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the event has no round left to pair")
    }
}

impl std::error::Error for EventOver {}
