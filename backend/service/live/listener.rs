//! PostgreSQL: one connection per process that LISTENs on the live channel and hands every
//! notification, from any instance (this one too), to this process's hub. It runs on a
//! thread of its own, reconnects by itself when the server goes away, and stops when the
//! database's hub is gone (the pool was dropped).
//!
//! diesel's `notifications_iter` does not wait: it reads what the socket holds and returns.
//! Waiting is done by asking again every `POLL`; each time is one non-blocking read of a
//! local socket (no query, no round trip), so the cost is a few hundred system calls a
//! second and at most `POLL` of delay.
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};

use super::change::{CHANNEL, Change};
use super::hub::{self, LiveHub};
use crate::store::DatabaseUrl;

const POLL: Duration = Duration::from_millis(5);
/// A connection that silently died (no reset seen: a cable, a firewall) is found by a query
/// this often.
const HEALTH_CHECK: Duration = Duration::from_secs(5);
const RECONNECT_FIRST: Duration = Duration::from_millis(100);
const RECONNECT_MAX: Duration = Duration::from_secs(5);

/// Starts the listener of `hub`'s database unless it runs.
pub(super) fn ensure_started(hub: &Arc<LiveHub>, url: &DatabaseUrl) {
    if !hub.start_listening() {
        return;
    }
    let weak = hub::weak(hub);
    let target = url.target.clone();
    let redacted = url.redacted();
    let spawned = std::thread::Builder::new()
        .name("damka-live-listen".into())
        .spawn(move || {
            listen(&weak, &target, &redacted);
            if let Some(hub) = weak.upgrade() {
                hub.stopped_listening();
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start the live listener: {e}");
        hub.stopped_listening();
    }
}

/// Listens until the hub is gone.
fn listen(hub: &Weak<LiveHub>, target: &str, redacted: &str) {
    let mut delay = RECONNECT_FIRST;
    let mut connected_before = false;
    while hub.strong_count() > 0 {
        match connect(target) {
            Ok(mut conn) => {
                if connected_before {
                    tracing::info!(database = %redacted, "live listener reconnected");
                }
                connected_before = true;
                delay = RECONNECT_FIRST;
                // Whatever was announced while nobody listened is unknown: every watcher
                // reads again (the first time, too: a subscriber may have read before the
                // LISTEN took effect).
                match hub.upgrade() {
                    Some(hub) => hub.everything_changed(),
                    None => return,
                }
                if let Err(e) = relay(hub, &mut conn) {
                    tracing::warn!(database = %redacted, "live listener lost its connection: {e}");
                }
            }
            Err(e) => {
                tracing::warn!(database = %redacted, "live listener cannot connect: {e}");
                std::thread::sleep(delay);
                delay = (delay * 2).min(RECONNECT_MAX);
            }
        }
    }
}

/// The listener's name in `pg_stat_activity`, for operators (and the test that cuts it).
pub const APPLICATION_NAME: &str = "damka_live_listener";

fn connect(target: &str) -> Result<PgConnection, String> {
    let mut conn = PgConnection::establish(target).map_err(|e| e.to_string())?;
    conn.batch_execute(&format!(
        "SET application_name = '{APPLICATION_NAME}'; LISTEN {CHANNEL}"
    ))
    .map_err(|e| e.to_string())?;
    Ok(conn)
}

/// Hands notifications to the hub until the connection fails or the hub is gone.
fn relay(hub: &Weak<LiveHub>, conn: &mut PgConnection) -> Result<(), String> {
    let mut checked = Instant::now();
    loop {
        let mut received = Vec::new();
        for notification in conn.notifications_iter() {
            let notification = notification.map_err(|e| e.to_string())?;
            if notification.channel == CHANNEL {
                received.push(notification.payload);
            }
        }
        let Some(hub) = hub.upgrade() else {
            return Ok(());
        };
        for payload in received {
            match Change::parse(&payload) {
                Some(change) => hub.dispatch(change),
                None => tracing::warn!(%payload, "unknown live notification"),
            }
        }
        drop(hub);
        if checked.elapsed() >= HEALTH_CHECK {
            conn.batch_execute("SELECT 1").map_err(|e| e.to_string())?;
            checked = Instant::now();
        }
        std::thread::sleep(POLL);
    }
}
