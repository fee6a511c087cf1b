//! The time the games' clocks read. Normally the system clock; a test sets a fake one on
//! its database (`TimeSource::set`, `advance`) and every connection of that database reads
//! it, so clock tests never sleep. Kept per database in `DbShared`, like every other piece
//! of per-database state.
use std::sync::Mutex;

use chrono::{NaiveDateTime, TimeDelta};

use super::DbConn;

#[derive(Debug, Default)]
pub struct TimeSource {
    fake: Mutex<Option<NaiveDateTime>>,
}

impl TimeSource {
    pub fn now(&self) -> NaiveDateTime {
        let fake = *self
            .fake
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        fake.unwrap_or_else(super::now)
    }

    /// From now on the time is `at`, until set or advanced again.
    pub fn set(&self, at: NaiveDateTime) {
        *self
            .fake
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(at);
    }

    /// Moves the fake time on by `by` (starting from the system clock if none was set).
    pub fn advance(&self, by: TimeDelta) {
        let mut fake = self
            .fake
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *fake = Some(fake.unwrap_or_else(super::now) + by);
    }
}

impl DbConn {
    /// The time as this database's time source says (the system clock unless a test set
    /// one).
    pub fn now(&mut self) -> NaiveDateTime {
        match self.shared() {
            Some(shared) => shared.extension::<TimeSource>().now(),
            None => super::now(),
        }
    }
}
