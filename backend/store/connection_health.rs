//! Whether a database connection was lost lately: PostgreSQL crashed, restarted, or cut the
//! connection. libpq does not reconnect by itself, and diesel's `is_broken` looks only at the
//! transaction state, so a connection whose server went away would go back into the pool as
//! good and fail every request that drew it, long after the server was back (a crash under
//! load left instances answering 503 to most requests). For a while after a loss, every
//! connection is pinged when it is drawn from the pool and when it comes back, and the dead
//! ones are dropped; in normal operation none is (that would be a round trip per request).
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long after the last loss connections are checked.
const WATCH: Duration = Duration::from_secs(60);

/// When a connection was last lost, in milliseconds since the Unix epoch; 0: never.
static LAST_LOSS_MS: AtomicU64 = AtomicU64::new(0);

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(1)
}

/// A query failed because its connection is gone, or no connection could be had.
pub fn note_lost() {
    LAST_LOSS_MS.store(now_ms(), Ordering::Relaxed);
}

/// Whether a connection was lost within the last minute.
pub fn lost_lately() -> bool {
    watching(LAST_LOSS_MS.load(Ordering::Relaxed), now_ms())
}

/// Whether a loss at `last_ms` (0: none) is recent at `now_ms`.
fn watching(last_ms: u64, now_ms: u64) -> bool {
    last_ms != 0 && now_ms.saturating_sub(last_ms) < WATCH.as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loss_is_watched_for_a_minute() {
        let now = 1_800_000_000_000;
        assert!(!watching(0, now));
        assert!(watching(now, now));
        assert!(watching(now - 59_999, now));
        assert!(!watching(now - 60_000, now));
        note_lost();
        assert!(lost_lately());
    }
}
