//! Server-Sent Events: a game's moves and state, an event's current round, as they change.
//! Public like the game and the pairings they show. Each connection waits on its game's or
//! event's feed (`service::live`), which reads the new state once for all its subscribers;
//! a connection that falls behind is sent what it missed from the latest state, so nothing
//! is lost and nothing piles up.
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use tokio::sync::watch;
use tokio::time::{Interval, MissedTickBehavior};

use crate::service::live::snapshot::{GameSnapshot, RoundSnapshot};
use crate::service::live::{self, Watching};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::client_address::client_address;
use crate::web::client_limits::{RETRY_AFTER_SECS, Slot};
use crate::web::error::Problem;
use crate::web::state::AppState;

/// A comment line this often keeps proxies from closing a quiet stream and finds clients
/// that went away.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How long a client waits before reconnecting after the stream breaks.
const RETRY_MS: u32 = 2000;

/// A game as it changes (`text/event-stream`). On connect: one `state` event (the game as
/// `GET /api/v1/games/{id}` shows it), or, with `Last-Event-ID: k`, one `move` event for
/// each ply after k and then `state`. After every change: a `move` event per new ply
/// (`id` = its ply; data: `ply`, `move`, `fen` after it, `side_to_move`, `clock_ms`), then
/// `state` (`id` = the current ply). A takeback below what the client has: `state` alone.
#[utoipa::path(get, path = "/api/v1/games/{id}/stream", tag = "games",
    params(("id" = i64, Path, description = "game id"),
        ("Last-Event-ID" = Option<i32>, Header, description = "the last ply received")),
    responses((status = 200, content_type = "text/event-stream", body = String,
            description = "events `move` (data: PlyEvent) and `state` (data: GameView)"),
        (status = 404, body = Problem),
        (status = 429, body = Problem, description = "`too_many_streams`: the address has as many streams open as it may")))]
pub async fn game(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    req: HttpRequest,
) -> AppResult<HttpResponse> {
    let slot = stream_slot(&state, &req)?;
    let game_id = path.into_inner();
    let resume = last_event_id(&req);
    let (watching, watch) = state
        .db(move |conn| {
            let hub = live::hub(conn).ok_or_else(|| AppError::internal("no live hub"))?;
            let watching = hub.watch_game(game_id);
            // Subscribed before reading: a change committed after the read wakes it.
            let watch = Watch::new(watching.feed().subscribe(), watching.closing());
            Ok((watching, watch))
        })
        .await?;
    // The state is the feed's, read once for every watcher who arrives before it changes:
    // a crowd arriving at one game holds one copy of it, not one each.
    let first = watching
        .feed()
        .state(watch.seen, read_game(state.get_ref().clone(), game_id))
        .await?;
    let mut out = retry_hint();
    // A client that had plies since taken back (beyond the game) gets the state alone.
    if let Some(had) = resume
        && had <= first.plies.len()
    {
        push_moves(&mut out, &first, had);
    }
    push_state(&mut out, &first);
    let known = first.plies.len();
    let stream = GameStream {
        watch,
        watching,
        app: state.get_ref().clone(),
        game_id,
        sent: first,
        known,
    };
    Ok(event_stream(out, stream, slot))
}

/// An event's current round as it changes (`text/event-stream`): a `round` event on
/// connect and after each change of a board (a move, a result, a clock), at most a few a
/// second. Data: `event_id`, `round`, `boards` (`board`, `white`, `black`, `result`,
/// `game_id`, `ply`, `status`, `clock`).
#[utoipa::path(get, path = "/api/v1/events/{id}/stream", tag = "events",
    params(("id" = i64, Path, description = "event id")),
    responses((status = 200, content_type = "text/event-stream", body = String,
            description = "events `round` (data: LiveRound)"),
        (status = 404, body = Problem),
        (status = 429, body = Problem, description = "`too_many_streams`: the address has as many streams open as it may")))]
pub async fn event(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    req: HttpRequest,
) -> AppResult<HttpResponse> {
    let slot = stream_slot(&state, &req)?;
    let event_id = path.into_inner();
    let (watching, watch) = state
        .db(move |conn| {
            let hub = live::hub(conn).ok_or_else(|| AppError::internal("no live hub"))?;
            let watching = hub.watch_event(event_id);
            let watch = Watch::new(watching.feed().subscribe(), watching.closing());
            Ok((watching, watch))
        })
        .await?;
    let first = watching
        .feed()
        .state(watch.seen, read_round(state.get_ref().clone(), event_id))
        .await?;
    let mut out = retry_hint();
    push_event(&mut out, "round", None, &first.json);
    let stream = RoundStream {
        watch,
        watching,
        app: state.get_ref().clone(),
        event_id,
        sent: first,
    };
    Ok(event_stream(out, stream, slot))
}

/// Counts the stream against the client's address (the one a trusted proxy forwards, not
/// the proxy's) for as long as it is open; refused beyond the address's cap.
fn stream_slot(state: &AppState, req: &HttpRequest) -> AppResult<Slot<String>> {
    let limit = state.limits.max_streams_per_address;
    let slot = state.limits.streams.enter(client_address(req), limit);
    if !slot.within_cap() {
        return Err(AppError::TooManyRequests {
            reason: Refusal::TooManyStreams { limit },
            retry_after_secs: RETRY_AFTER_SECS,
        });
    }
    Ok(slot)
}

/// `Last-Event-ID` as a ply; anything else is as if absent (a client that sends what it
/// was given never sends anything else).
fn last_event_id(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get("last-event-id")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

fn retry_hint() -> String {
    format!("retry: {RETRY_MS}\n\n")
}

fn push_event(out: &mut String, event: &str, id: Option<usize>, data: &str) {
    out.push_str("event: ");
    out.push_str(event);
    out.push('\n');
    if let Some(id) = id {
        out.push_str(&format!("id: {id}\n"));
    }
    // JSON written by serde_json holds no raw line break, so one `data:` line suffices.
    out.push_str("data: ");
    out.push_str(data);
    out.push_str("\n\n");
}

/// `move` events for the plies after the first `from`.
fn push_moves(out: &mut String, snapshot: &GameSnapshot, from: usize) {
    for (index, (_, data)) in snapshot.plies.iter().enumerate().skip(from) {
        push_event(out, "move", Some(index + 1), data);
    }
}

fn push_state(out: &mut String, snapshot: &GameSnapshot) {
    push_event(out, "state", Some(snapshot.plies.len()), &snapshot.view);
}

/// What a stream produces next: text to send, or the end.
trait NextEvents {
    async fn next_events(&mut self) -> Option<String>;
}

/// The response streaming `first` and then what `stream` produces; `slot` counts it
/// against the client's address until the body is dropped (the client left or it ended).
fn event_stream(
    first: String,
    stream: impl NextEvents + 'static,
    slot: Slot<String>,
) -> HttpResponse {
    let body = futures_util::stream::unfold(
        (Some(first), stream, slot),
        |(pending, mut stream, slot)| async move {
            let text = match pending {
                Some(text) => text,
                None => stream.next_events().await?,
            };
            Some((
                Ok::<_, actix_web::Error>(Bytes::from(text)),
                (None, stream, slot),
            ))
        },
    );
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        // nginx would otherwise hold the events back in its buffer.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

/// Reads a game's state for its feed.
fn read_game(
    app: AppState,
    game_id: i64,
) -> impl FnOnce(Option<Arc<GameSnapshot>>) -> BoxedRead<GameSnapshot> {
    move |_| Box::pin(async move { app.db(move |conn| GameSnapshot::read(conn, game_id)).await })
}

/// Reads an event's round for its feed (from the round read before, when there is one).
fn read_round(
    app: AppState,
    event_id: i64,
) -> impl FnOnce(Option<Arc<RoundSnapshot>>) -> BoxedRead<RoundSnapshot> {
    move |previous| {
        Box::pin(async move {
            app.db(move |conn| RoundSnapshot::read(conn, event_id, previous.as_deref()))
                .await
        })
    }
}

type BoxedRead<T> = std::pin::Pin<Box<dyn std::future::Future<Output = AppResult<T>>>>;

/// Waits for the next change or keep-alive.
struct Watch {
    changes: watch::Receiver<u64>,
    /// The change count when the watch began: the first state must include these.
    seen: u64,
    closing: watch::Receiver<bool>,
    keep_alive: Interval,
}

enum Woken {
    Changed(u64),
    KeepAlive,
    /// The server is stopping.
    Closed,
}

impl Watch {
    /// Changes seen so far count as seen: the caller reads the state after this.
    fn new(mut changes: watch::Receiver<u64>, closing: watch::Receiver<bool>) -> Watch {
        let seen = *changes.borrow_and_update();
        let mut keep_alive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        keep_alive.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Watch {
            changes,
            seen,
            closing,
            keep_alive,
        }
    }

    async fn next(&mut self) -> Woken {
        tokio::select! {
            changed = self.changes.changed() => match changed {
                Ok(()) => Woken::Changed(*self.changes.borrow_and_update()),
                Err(_) => Woken::Closed,
            },
            _ = self.closing.wait_for(|closing| *closing) => Woken::Closed,
            _ = self.keep_alive.tick() => Woken::KeepAlive,
        }
    }
}

const KEEP_ALIVE_LINE: &str = ": keep-alive\n\n";

struct GameStream {
    watch: Watch,
    watching: Watching<GameSnapshot>,
    app: AppState,
    game_id: i64,
    /// The last state sent; the client has its first `known` plies.
    sent: Arc<GameSnapshot>,
    known: usize,
}

impl NextEvents for GameStream {
    async fn next_events(&mut self) -> Option<String> {
        loop {
            let changes = match self.watch.next().await {
                Woken::Changed(changes) => changes,
                Woken::KeepAlive => return Some(KEEP_ALIVE_LINE.into()),
                Woken::Closed => return None,
            };
            let read = read_game(self.app.clone(), self.game_id);
            // A game gone (a forfeit removed it) or a database away ends the stream; the
            // client reconnects and is told which.
            let now = self.watching.feed().state(changes, read).await.ok()?;
            // Woken without a change to this game (the listener reconnected, say).
            if Arc::ptr_eq(&now, &self.sent) || now.revision == self.sent.revision {
                continue;
            }
            let mut out = String::new();
            if extends(&self.sent, self.known, &now) {
                push_moves(&mut out, &now, self.known);
            }
            push_state(&mut out, &now);
            self.known = now.plies.len();
            self.sent = now;
            return Some(out);
        }
    }
}

/// Whether `now` holds the first `known` plies of `before` unchanged (no takeback reached
/// them), so the client only lacks the plies after them.
fn extends(before: &GameSnapshot, known: usize, now: &GameSnapshot) -> bool {
    now.plies.len() >= known
        && before.plies.len() >= known
        && before.plies[..known]
            .iter()
            .zip(&now.plies[..known])
            .all(|((a, _), (b, _))| a == b)
}

struct RoundStream {
    watch: Watch,
    watching: Watching<RoundSnapshot>,
    app: AppState,
    event_id: i64,
    sent: Arc<RoundSnapshot>,
}

impl NextEvents for RoundStream {
    async fn next_events(&mut self) -> Option<String> {
        loop {
            let changes = match self.watch.next().await {
                Woken::Changed(changes) => changes,
                Woken::KeepAlive => return Some(KEEP_ALIVE_LINE.into()),
                Woken::Closed => return None,
            };
            let read = read_round(self.app.clone(), self.event_id);
            let now = self.watching.feed().state(changes, read).await.ok()?;
            if Arc::ptr_eq(&now, &self.sent) || now.json == self.sent.json {
                continue;
            }
            let mut out = String::new();
            push_event(&mut out, "round", None, &now.json);
            self.sent = now;
            return Some(out);
        }
    }
}
