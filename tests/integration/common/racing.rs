//! Races between use cases: the competing calls run from real threads, each on its own
//! database connection, released together by a barrier (`concurrency.rs`, `game_races.rs`).
use std::sync::Barrier;

use super::TestApp;
use damka::store::{self, DbConn, DbPool, RetryPolicy};

/// How often each race is run.
pub const TRIES: usize = 30;

/// A second pool on the test's database, with a connection for every racing thread.
pub fn racing_pool(app: &TestApp, size: u32) -> DbPool {
    store::open(
        &app.db.url,
        size,
        RetryPolicy {
            attempts: 1,
            delay: std::time::Duration::ZERO,
        },
    )
    .unwrap()
}

/// One of the racing calls, on the connection it is given.
pub type RacingCall<'a, T> = Box<dyn FnOnce(&mut DbConn) -> T + Send + 'a>;

/// Runs `calls` at the same moment, each on its own thread and connection, and returns
/// their outcomes in order.
pub fn race<T: Send>(pool: &DbPool, calls: Vec<RacingCall<'_, T>>) -> Vec<T> {
    let barrier = Barrier::new(calls.len());
    std::thread::scope(|scope| {
        let running: Vec<_> = calls
            .into_iter()
            .map(|call| {
                let mut conn = pool.get().unwrap();
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    call(&mut conn)
                })
            })
            .collect();
        running.into_iter().map(|t| t.join().unwrap()).collect()
    })
}
