//! How much of the server one client may take: the time its request body may take to
//! arrive, and how many connections and live streams one address may hold open. Each
//! open connection and stream holds a file descriptor; without a cap per address, one
//! client trickling bodies or opening streams could hold them all.
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 256;
pub const DEFAULT_MAX_STREAMS_PER_ADDRESS: usize = 64;

/// What a client refused for holding too much is told to wait: by then some of what it
/// holds has usually closed.
pub const RETRY_AFTER_SECS: u64 = 5;

#[derive(Debug, Clone)]
pub struct ClientLimits {
    /// From the moment the request's head is read, the whole body must arrive within this.
    pub body_timeout: Duration,
    pub max_connections_per_address: usize,
    pub max_streams_per_address: usize,
    /// The live streams each client address has open, shared by every worker.
    pub streams: PerAddress<String>,
}

impl Default for ClientLimits {
    fn default() -> Self {
        ClientLimits {
            body_timeout: DEFAULT_BODY_TIMEOUT,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            max_streams_per_address: DEFAULT_MAX_STREAMS_PER_ADDRESS,
            streams: PerAddress::default(),
        }
    }
}

/// How many of something each address holds open.
#[derive(Debug)]
pub struct PerAddress<K> {
    counts: Arc<Mutex<HashMap<K, usize>>>,
}

impl<K> Clone for PerAddress<K> {
    fn clone(&self) -> Self {
        PerAddress {
            counts: Arc::clone(&self.counts),
        }
    }
}

impl<K> Default for PerAddress<K> {
    fn default() -> Self {
        PerAddress {
            counts: Arc::new(Mutex::new(HashMap::new())),
        }
    }
}

impl<K: Hash + Eq + Clone> PerAddress<K> {
    /// Counts one more for `address`, until the returned slot is dropped; the slot says
    /// whether the count, this one included, is within `cap`.
    pub fn enter(&self, address: K, cap: usize) -> Slot<K> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let count = counts.entry(address.clone()).or_insert(0);
        *count += 1;
        Slot {
            within_cap: *count <= cap,
            counts: Arc::clone(&self.counts),
            address,
        }
    }

    /// How many `address` holds now.
    pub fn count(&self, address: &K) -> usize {
        let counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.get(address).copied().unwrap_or(0)
    }
}

/// One counted connection or stream; dropping it counts it down.
#[derive(Debug)]
pub struct Slot<K: Hash + Eq> {
    counts: Arc<Mutex<HashMap<K, usize>>>,
    address: K,
    within_cap: bool,
}

impl<K: Hash + Eq> Slot<K> {
    pub fn within_cap(&self) -> bool {
        self.within_cap
    }
}

impl<K: Hash + Eq> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.address) {
            *count = count.saturating_sub(1);
            // Addresses that hold nothing are forgotten, so the map does not grow with
            // every client ever seen.
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_beyond_the_cap_say_so_and_dropping_one_makes_room() {
        let counts = PerAddress::<String>::default();
        let first = counts.enter("a".into(), 2);
        let second = counts.enter("a".into(), 2);
        let other = counts.enter("b".into(), 2);
        assert!(first.within_cap() && second.within_cap() && other.within_cap());
        let third = counts.enter("a".into(), 2);
        assert!(!third.within_cap());
        drop(third);
        drop(first);
        assert_eq!(counts.count(&"a".to_string()), 1);
        assert!(counts.enter("a".into(), 2).within_cap());
        drop((second, other));
        assert_eq!(counts.count(&"a".to_string()), 0);
        assert!(counts.counts.lock().unwrap().is_empty());
    }
}
