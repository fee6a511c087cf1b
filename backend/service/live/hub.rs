//! The per-database switchboard of live updates in this process: the feed of each game and
//! each event that someone watches, found by id, woken by `dispatch`.
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::watch;

use super::change::Change;
use super::feed::Feed;
use super::snapshot::{GameSnapshot, RoundSnapshot};

/// A game's state is read as soon as it changes: a move should reach its watchers at once.
const GAME_READ_INTERVAL: Duration = Duration::ZERO;
/// An event's round is read at most this often: a round of many boards changes with every
/// move of every game, and its watchers need no more than a few pictures a second.
const EVENT_READ_INTERVAL: Duration = Duration::from_millis(250);

pub struct LiveHub {
    games: Feeds<GameSnapshot>,
    events: Feeds<RoundSnapshot>,
    /// PostgreSQL: whether this process's listener runs.
    pub(super) listening: AtomicBool,
    /// Set when the server stops: streams end, so that a graceful stop need not wait for
    /// watchers who would otherwise stay connected for ever.
    closing: watch::Sender<bool>,
}

impl Default for LiveHub {
    fn default() -> Self {
        LiveHub {
            games: Feeds::default(),
            events: Feeds::default(),
            listening: AtomicBool::new(false),
            closing: watch::Sender::new(false),
        }
    }
}

impl LiveHub {
    /// Ends every stream (the server is stopping).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Tells a stream when to end.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// Watches a game: its feed, made if nobody watches it yet, held until the watcher goes.
    pub fn watch_game(self: &Arc<Self>, game_id: i64) -> Watching<GameSnapshot> {
        Watching {
            feed: Some(self.games.get(game_id, GAME_READ_INTERVAL)),
            id: game_id,
            hub: Arc::clone(self),
            forget: |hub, id| hub.games.forget_if_unwatched(id),
        }
    }

    /// Watches an event's current round.
    pub fn watch_event(self: &Arc<Self>, event_id: i64) -> Watching<RoundSnapshot> {
        Watching {
            feed: Some(self.events.get(event_id, EVENT_READ_INTERVAL)),
            id: event_id,
            hub: Arc::clone(self),
            forget: |hub, id| hub.events.forget_if_unwatched(id),
        }
    }

    /// How many games and events have a feed, watched or not yet forgotten (for tests).
    pub fn feeds(&self) -> (usize, usize) {
        (self.games.map().len(), self.events.map().len())
    }

    /// Wakes the watchers of what changed.
    pub fn dispatch(&self, change: Change) {
        match change {
            Change::Game { game_id, event_id } => {
                self.games.changed(game_id);
                if let Some(event_id) = event_id {
                    self.events.changed(event_id);
                }
            }
            Change::Event { event_id } => self.events.changed(event_id),
        }
    }

    /// Wakes every watcher: after notifications may have been missed (the listener's
    /// connection was lost), everyone reads again.
    pub fn everything_changed(&self) {
        self.games.all_changed();
        self.events.all_changed();
    }
}

/// One watcher's hold on a feed. The hub keeps only weak handles, so a feed lives while
/// someone watches; when the last watcher goes, the hub forgets it (and what it read).
pub struct Watching<T> {
    /// `None` only while dropping: the handle goes before the hub is asked to forget.
    feed: Option<Arc<Feed<T>>>,
    id: i64,
    hub: Arc<LiveHub>,
    forget: fn(&LiveHub, i64),
}

impl<T> Watching<T> {
    pub fn feed(&self) -> &Feed<T> {
        // Set from construction until `drop`, which nothing can observe.
        self.feed
            .as_deref()
            .unwrap_or_else(|| unreachable!("a feed is held until dropped"))
    }

    /// The hub's signal that the server is stopping.
    pub fn closing(&self) -> watch::Receiver<bool> {
        self.hub.closing()
    }
}

impl<T> Drop for Watching<T> {
    fn drop(&mut self) {
        drop(self.feed.take());
        (self.forget)(&self.hub, self.id);
    }
}

struct Feeds<T>(Mutex<HashMap<i64, Weak<Feed<T>>>>);

impl<T> Default for Feeds<T> {
    fn default() -> Self {
        Feeds(Mutex::new(HashMap::new()))
    }
}

impl<T> Feeds<T> {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Weak<Feed<T>>>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn get(&self, id: i64, min_interval: Duration) -> Arc<Feed<T>> {
        let mut map = self.map();
        if let Some(feed) = map.get(&id).and_then(Weak::upgrade) {
            return feed;
        }
        let feed = Arc::new(Feed::new(min_interval));
        map.insert(id, Arc::downgrade(&feed));
        feed
    }

    /// Removes the feed of `id` if no watcher holds it any more (the watcher leaving has
    /// dropped its own handle first), and gives back the map's memory once it is mostly
    /// empty: a crowd of 15,000 watchers leaves no 15,000-slot table behind.
    fn forget_if_unwatched(&self, id: i64) {
        let mut map = self.map();
        if map.get(&id).is_some_and(|feed| feed.strong_count() == 0) {
            map.remove(&id);
        }
        // Halving at a quarter full keeps the work per departure constant on average.
        let len = map.len();
        if map.capacity() > 64 && map.capacity() > 4 * len {
            map.shrink_to(2 * len);
        }
    }

    fn changed(&self, id: i64) {
        let feed = self.map().get(&id).and_then(Weak::upgrade);
        if let Some(feed) = feed {
            feed.changed();
        }
    }

    fn all_changed(&self) {
        let feeds: Vec<Arc<Feed<T>>> = self.map().values().filter_map(Weak::upgrade).collect();
        for feed in feeds {
            feed.changed();
        }
    }
}

impl LiveHub {
    /// Whether the listener has been started (and marks it started).
    pub(super) fn start_listening(&self) -> bool {
        !self.listening.swap(true, Ordering::SeqCst)
    }

    /// The listener stopped (it will be started again by the next subscriber).
    pub(super) fn stopped_listening(&self) {
        self.listening.store(false, Ordering::SeqCst);
    }
}

/// A weak handle, for the listener thread: it must not keep a dropped database's hub alive.
pub(super) fn weak(hub: &Arc<LiveHub>) -> Weak<LiveHub> {
    Arc::downgrade(hub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feed_lives_while_watched_and_is_forgotten_when_the_last_watcher_goes() {
        let hub = Arc::new(LiveHub::default());
        let first = hub.watch_game(7);
        let second = hub.watch_game(7);
        assert!(
            std::ptr::eq(first.feed(), second.feed()),
            "watchers of one game share its feed"
        );
        let round = hub.watch_event(3);
        assert_eq!(hub.feeds(), (1, 1));
        drop(first);
        assert_eq!(hub.feeds(), (1, 1), "one watcher of the game is left");
        drop(second);
        drop(round);
        assert_eq!(hub.feeds(), (0, 0));
    }

    #[test]
    fn the_table_of_feeds_shrinks_after_a_crowd_leaves() {
        let hub = Arc::new(LiveHub::default());
        let crowd: Vec<_> = (0..15_000).map(|id| hub.watch_game(id)).collect();
        let grown = hub.games.map().capacity();
        assert!(grown >= 15_000);
        drop(crowd);
        assert_eq!(hub.feeds(), (0, 0));
        assert!(
            hub.games.map().capacity() <= 64,
            "capacity {} after everyone left",
            hub.games.map().capacity()
        );
    }
}
