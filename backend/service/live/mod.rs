//! Live updates: who is told that a game or an event changed, on this instance and on the
//! others. Every use case that commits a change to a game or to an event's current round
//! calls `game_changed` or `event_changed` after the commit; subscribers (the
//! `.../stream` endpoints) wait on the per-database `LiveHub`, which wakes the feed of that
//! game or event, and the feed reads the new state once for all its subscribers.
//!
//! The transport depends on the database: SQLite (one instance) signals the hub directly;
//! PostgreSQL sends `NOTIFY damka_live, 'game:<id>:<event id>'`, and one listening
//! connection per process (`listener`) feeds every instance's hub, this one's included. A
//! notification carries no state, only "look again": what subscribers are sent is always
//! read from the database, so a lost or doubled notification costs a read, never a move.
mod feed;
pub mod hub;
mod listener;
pub mod snapshot;

use std::sync::Arc;

use diesel::connection::SimpleConnection;

pub use feed::Feed;
pub use hub::LiveHub;
pub use listener::APPLICATION_NAME as LISTENER_NAME;

use crate::store::{Backend, DbConn};

/// The PostgreSQL channel every instance of one database listens on.
pub const CHANNEL: &str = "damka_live";

/// What changed, as a notification says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A game (and so the event it belongs to, if any).
    Game { game_id: i64, event_id: Option<i64> },
    /// An event's round without a game changing: a result entered for a board without a
    /// game, a round published, paired again or changed by hand.
    Event { event_id: i64 },
}

impl Change {
    /// The NOTIFY payload: `game:<id>:<event id or nothing>` or `event:<id>`.
    pub fn payload(self) -> String {
        match self {
            Change::Game { game_id, event_id } => match event_id {
                Some(event_id) => format!("game:{game_id}:{event_id}"),
                None => format!("game:{game_id}:"),
            },
            Change::Event { event_id } => format!("event:{event_id}"),
        }
    }

    /// A payload read back; `None` for anything else on the channel.
    pub fn parse(payload: &str) -> Option<Change> {
        let mut parts = payload.split(':');
        let change = match (parts.next()?, parts.next()?, parts.next()) {
            ("game", id, Some(event)) => Change::Game {
                game_id: id.parse().ok()?,
                event_id: match event {
                    "" => None,
                    event => Some(event.parse().ok()?),
                },
            },
            ("event", id, None) => Change::Event {
                event_id: id.parse().ok()?,
            },
            _ => return None,
        };
        parts.next().is_none().then_some(change)
    }
}

/// A game changed (a move, an offer and its answer, a resignation, a result, a takeback, a
/// flag fall). Call after the change is committed.
pub fn game_changed(conn: &mut DbConn, game_id: i64, event_id: Option<i64>) {
    announce(conn, Change::Game { game_id, event_id });
}

/// An event's current round changed without a game changing. Call after the commit.
pub fn event_changed(conn: &mut DbConn, event_id: i64) {
    announce(conn, Change::Event { event_id });
}

/// The live hub of this connection's database (a connection outside a pool has none). On
/// PostgreSQL the first call starts this process's listener.
pub fn hub(conn: &mut DbConn) -> Option<Arc<LiveHub>> {
    let shared = conn.shared()?;
    let hub = shared.extension::<LiveHub>();
    if shared.url().backend == Backend::Postgres {
        listener::ensure_started(&hub, shared.url());
    }
    Some(hub)
}

fn announce(conn: &mut DbConn, change: Change) {
    match conn {
        // Every instance's listener hears it, this one's too, once it is committed.
        DbConn::Pg(_) => {
            let sql = format!("NOTIFY {CHANNEL}, '{}'", change.payload());
            if let Err(e) = conn.batch_execute(&sql) {
                // The change is stored; subscribers see it with the next change or when
                // they reconnect. Nothing to undo.
                tracing::warn!(?change, "live notification not sent: {e}");
            }
        }
        DbConn::Sqlite(_) => {
            if let Some(shared) = conn.shared() {
                shared.extension::<LiveHub>().dispatch(change);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_read_back_as_the_change_they_say() {
        for change in [
            Change::Game {
                game_id: 12,
                event_id: Some(3),
            },
            Change::Game {
                game_id: 7,
                event_id: None,
            },
            Change::Event { event_id: 40 },
        ] {
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        assert_eq!(
            change_of("game:12:3"),
            "Some(Game { game_id: 12, event_id: Some(3) })"
        );
        for junk in [
            "",
            "game",
            "game:x:",
            "game:1",
            "event:1:2",
            "round:1",
            "game:1:2:3",
        ] {
            assert_eq!(Change::parse(junk), None, "{junk}");
        }
    }

    fn change_of(payload: &str) -> String {
        format!("{:?}", Change::parse(payload))
    }
}
