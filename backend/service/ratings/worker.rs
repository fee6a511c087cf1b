//! The background worker that brings ratings up to date when a change reaches far back
//! (`super::refold`): one per process, every instance may run one. Each window is claimed
//! through the database (PostgreSQL `FOR UPDATE SKIP LOCKED` on the variant's row), so two
//! instances never refold the same window; on SQLite one process writes.
use std::time::Duration;

use damka_engine::Variant;

use super::refold::{self, CatchUp};
use crate::service::AppResult;
use crate::store::{self, DbConn, rating_catchup};

/// How often an idle worker looks for work.
const IDLE: Duration = Duration::from_millis(250);

/// One window of every variant whose ratings are behind; returns the variants still behind
/// after it (their next window is due at once).
pub fn run_once(conn: &mut DbConn) -> AppResult<Vec<Variant>> {
    let mut behind = Vec::new();
    for (variant, _) in rating_catchup::behind(conn)? {
        if let CatchUp::Behind(_) = refold::step(conn, variant, false)? {
            behind.push(variant);
        }
    }
    Ok(behind)
}

/// Starts the worker thread.
pub fn spawn(pool: store::DbPool) {
    let spawned = std::thread::Builder::new()
        .name("ratings-catch-up".into())
        .spawn(move || {
            loop {
                let behind = pool
                    .get()
                    .map_err(|e| e.to_string())
                    .and_then(|mut conn| run_once(&mut conn).map_err(|e| e.to_string()));
                match behind {
                    Ok(variants) if !variants.is_empty() => {}
                    Ok(_) => std::thread::sleep(IDLE),
                    Err(error) => {
                        tracing::warn!(%error, "ratings catch-up failed; trying again");
                        std::thread::sleep(IDLE * 4);
                    }
                }
            }
        });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start the ratings worker");
    }
}
