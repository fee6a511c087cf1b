//! One game's or one event's feed: a change counter that wakes its subscribers, and the
//! state read after the latest change, shared by them all, so that N subscribers cost one
//! database read per change instead of N.
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Mutex, watch};

use crate::service::AppResult;

pub struct Feed<T> {
    /// Counts the changes announced; subscribers wait for it to move.
    changes: watch::Sender<u64>,
    /// The state last read, with the count of changes it includes.
    latest: Mutex<Latest<T>>,
    /// Reads closer together than this wait, so a burst of changes costs one read.
    min_interval: Duration,
}

struct Latest<T> {
    read: Option<(u64, Arc<T>)>,
    at: Option<Instant>,
}

impl<T> Feed<T> {
    pub fn new(min_interval: Duration) -> Feed<T> {
        Feed {
            changes: watch::Sender::new(0),
            latest: Mutex::new(Latest {
                read: None,
                at: None,
            }),
            min_interval,
        }
    }

    /// Something changed: wake every subscriber.
    pub fn changed(&self) {
        self.changes
            .send_modify(|count| *count = count.wrapping_add(1));
    }

    /// Waits for changes; the count it sees is the one to pass to `state`.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The state including at least the first `changes` changes: the one already read when
    /// it does, else read now by `read` (one subscriber reads; the others waiting meanwhile
    /// get what it read). A failed read is not kept; the next caller tries again.
    pub async fn state<F, Fut>(&self, changes: u64, read: F) -> AppResult<Arc<T>>
    where
        F: FnOnce(Option<Arc<T>>) -> Fut,
        Fut: Future<Output = AppResult<T>>,
    {
        let mut latest = self.latest.lock().await;
        let previous = latest.read.as_ref().map(|(_, state)| Arc::clone(state));
        if let Some((included, state)) = &latest.read
            && *included >= changes
        {
            return Ok(Arc::clone(state));
        }
        if let Some(at) = latest.at {
            let wait = self.min_interval.saturating_sub(at.elapsed());
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
        }
        // Counted before reading: the read sees at least these changes (each is announced
        // after its commit), maybe more, which only makes a later read unnecessary.
        let included = *self.changes.borrow();
        latest.at = Some(Instant::now());
        let state = Arc::new(read(previous).await?);
        latest.read = Some((included, Arc::clone(&state)));
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn subscribers_of_one_change_share_one_read() {
        let feed = Arc::new(Feed::<u64>::new(Duration::ZERO));
        let reads = Arc::new(AtomicUsize::new(0));
        let mut waiting = Vec::new();
        for _ in 0..10 {
            let mut changes = feed.subscribe();
            waiting.push(changes.clone());
            changes.borrow_and_update();
        }
        feed.changed();
        let mut states = Vec::new();
        for mut changes in waiting {
            let count = *changes.borrow_and_update();
            let reads = Arc::clone(&reads);
            let state = feed
                .state(count, |_| async move {
                    reads.fetch_add(1, Ordering::SeqCst);
                    Ok(count)
                })
                .await
                .unwrap();
            states.push(*state);
        }
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        assert_eq!(states, vec![1; 10]);
        feed.changed();
        let state = feed
            .state(
                2,
                |previous| async move { Ok(previous.map_or(0, |p| *p) + 10) },
            )
            .await
            .unwrap();
        assert_eq!(*state, 11, "the read is given the state read before");
    }
}
