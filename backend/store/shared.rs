//! What the connections of one database share within this process: the SQLite writer that
//! commits concurrent writes together, and caches the services keep per database (the
//! games replayed so far). A connection finds it through the instrumentation slot diesel
//! gives every connection, so no function signature has to carry it and two databases in
//! one process (the test suite) never see each other's state.
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use diesel::Connection;
use diesel::connection::{Instrumentation, InstrumentationEvent};

use super::group_commit::GroupCommit;
use super::{Backend, DatabaseUrl, DbConn};

type Extension = Arc<dyn Any + Send + Sync>;

pub struct DbShared {
    /// Where the database is (the live updates' PostgreSQL listener opens its own
    /// connection to it).
    url: DatabaseUrl,
    /// SQLite only: the one writer of this process.
    pub(super) writer: Option<GroupCommit>,
    extensions: Mutex<HashMap<TypeId, Extension>>,
}

impl DbShared {
    pub(super) fn new(url: &DatabaseUrl) -> Arc<DbShared> {
        Arc::new_cyclic(|me| DbShared {
            url: url.clone(),
            writer: (url.backend == Backend::Sqlite).then(|| {
                let me = me.clone();
                GroupCommit::new(url.clone(), Box::new(move |conn| attach(conn, &me)))
            }),
            extensions: Mutex::new(HashMap::new()),
        })
    }

    pub fn url(&self) -> &DatabaseUrl {
        &self.url
    }

    /// The one `T` of this database, made on first use.
    pub fn extension<T: Any + Send + Sync + Default>(&self) -> Arc<T> {
        let mut map = self
            .extensions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = map
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Arc::new(T::default()));
        match Arc::clone(entry).downcast::<T>() {
            Ok(value) => value,
            // The map is keyed by the type, so the entry is a `T`; a fresh one is harmless.
            Err(_) => Arc::new(T::default()),
        }
    }
}

/// Rides in a connection's instrumentation slot. Weak, so that the writer's own connection
/// (owned by `DbShared`) does not keep its owner alive.
struct SharedSlot {
    shared: Weak<DbShared>,
    /// The errors of this connection's statements since `take_errors` last read them (a
    /// few): when SQLite ends a transaction by itself (a full disk), diesel reports only
    /// its failed rollback, and the group writer needs the cause.
    errors: Vec<String>,
}

/// The most errors a connection keeps between two reads.
const KEPT_ERRORS: usize = 8;

impl Instrumentation for SharedSlot {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::FinishQuery {
            error: Some(error), ..
        } = event
            && self.errors.len() < KEPT_ERRORS
        {
            self.errors.push(error.to_string());
        }
    }
}

/// Ties a new connection to its database's shared state.
pub(super) fn attach(conn: &mut DbConn, shared: &Weak<DbShared>) {
    conn.set_instrumentation(SharedSlot {
        shared: shared.clone(),
        errors: Vec::new(),
    });
}

impl DbConn {
    /// The shared state of this connection's database; `None` for a connection made
    /// outside a pool.
    pub fn shared(&mut self) -> Option<Arc<DbShared>> {
        self.instrumentation()
            .downcast_ref::<SharedSlot>()
            .and_then(|slot| slot.shared.upgrade())
    }

    /// The errors of this connection's statements since the last call, oldest first.
    pub(super) fn take_errors(&mut self) -> Vec<String> {
        self.instrumentation()
            .downcast_mut::<SharedSlot>()
            .map(|slot| std::mem::take(&mut slot.errors))
            .unwrap_or_default()
    }
}
