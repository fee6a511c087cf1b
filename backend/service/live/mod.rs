//! Live updates: who is told that a game or an event changed, on this instance and on the
//! others. Every use case that commits a change to a game or to an event's current round
//! says so in its `Effects`, and `effects::apply` calls `game_changed` or `event_changed`
//! after the commit (nothing else calls them); subscribers (the
//! `.../stream` endpoints) wait on the per-database `LiveHub`, which wakes the feed of that
//! game or event, and the feed reads the new state once for all its subscribers.
//!
//! The transport depends on the database: SQLite (one instance) signals the hub directly;
//! PostgreSQL sends `NOTIFY damka_live, 'game:<id>:<event id>'`, and one listening
//! connection per process (`listener`) feeds every instance's hub, this one's included. A
//! notification carries no state, only "look again": what subscribers are sent is always
//! read from the database, so a lost or doubled notification costs a read, never a move.
mod change;
mod feed;
pub mod hub;
mod listener;
pub mod snapshot;

use std::sync::Arc;

use diesel::connection::SimpleConnection;

pub use change::{CHANNEL, Change};
pub use feed::Feed;
pub use hub::{LiveHub, Watching};
pub use listener::APPLICATION_NAME as LISTENER_NAME;

use crate::store::{Backend, DbConn};

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
