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

    /// The feed of a game, made if nobody watches it yet. It lives while someone holds it.
    pub fn game(&self, game_id: i64) -> Arc<Feed<GameSnapshot>> {
        self.games.get(game_id, GAME_READ_INTERVAL)
    }

    /// The feed of an event's current round.
    pub fn event(&self, event_id: i64) -> Arc<Feed<RoundSnapshot>> {
        self.events.get(event_id, EVENT_READ_INTERVAL)
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
        // Feeds nobody holds any more are swept when a new one is made, so the map stays
        // about as large as the number of things watched.
        map.retain(|_, feed| feed.strong_count() > 0);
        let feed = Arc::new(Feed::new(min_interval));
        map.insert(id, Arc::downgrade(&feed));
        feed
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
