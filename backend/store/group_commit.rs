//! SQLite commits writes that arrive together in one transaction and one fsync.
//!
//! SQLite has one writer at a time, and with `synchronous = FULL` every commit waits for
//! the disk (about 0.5-0.6 ms here, at most ~1,900 commits a second whatever the CPU does).
//! Writers of this process therefore run on one connection, each inside a savepoint of a
//! shared transaction: a writer that finishes while others are queued leaves the
//! transaction open for them, and the last of the queue commits for everyone. Nobody is
//! answered before the commit that holds their write is on disk, so an acknowledged write
//! still survives `kill -9` and a power cut; a write that fails rolls back its own savepoint
//! only, and a commit that fails fails every write of its batch.
//!
//! Queueing at this mutex also replaces SQLite's busy handler for the writers of this
//! process (the handler polls with sleeps of up to 100 ms, and under a steady stream of
//! writes a waiting writer kept missing the moment the lock was free). Other processes on
//! the same file (`damka admin create` beside `damka serve`) still meet the busy timeout.
use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use diesel::connection::{AnsiTransactionManager, Connection, TransactionManager};
use diesel::result::{DatabaseErrorKind, Error};

use super::{DatabaseUrl, DbConn, DbManager};

/// The most writes one commit carries: bounds how long the first of them waits.
const MAX_BATCH: usize = 64;

/// What a new connection of the writer is given before its first use: the database's
/// shared state, which owns this writer (so the writer is handed the tie, not the owner).
pub(crate) type ConnectionSetup = Box<dyn Fn(&mut DbConn) + Send + Sync>;

pub(crate) struct GroupCommit {
    url: DatabaseUrl,
    setup: ConnectionSetup,
    writer: Mutex<Writer>,
    batch_done: Condvar,
    /// Writers waiting for the mutex: while any wait, the one inside does not commit.
    queued: AtomicUsize,
    /// Commits made (and failed), for the tests and the curious.
    commits: AtomicU64,
}

#[derive(Default)]
struct Writer {
    conn: Option<DbConn>,
    /// The number of the open batch (or of the next one).
    batch: u64,
    /// Writes in the open transaction; 0 when none is open.
    members: usize,
    /// Every batch up to this one is over.
    done_through: u64,
    /// Batches that failed, with the error and how many members have yet to read it.
    failed: HashMap<u64, (String, usize)>,
}

thread_local! {
    /// Set while this thread runs a write, so that a write inside it (a savepoint) runs
    /// on the same connection instead of waiting for itself.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Whether this thread is inside a write right now.
pub(crate) fn inside_write() -> bool {
    INSIDE.with(Cell::get)
}

struct InsideWrite;

impl InsideWrite {
    fn enter() -> InsideWrite {
        INSIDE.with(|inside| inside.set(true));
        InsideWrite
    }
}

impl Drop for InsideWrite {
    fn drop(&mut self) {
        INSIDE.with(|inside| inside.set(false));
    }
}

fn batch_error(message: String) -> Error {
    Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new(message))
}

impl GroupCommit {
    pub(crate) fn new(url: DatabaseUrl, setup: ConnectionSetup) -> GroupCommit {
        GroupCommit {
            url,
            setup,
            writer: Mutex::new(Writer {
                batch: 1,
                ..Writer::default()
            }),
            batch_done: Condvar::new(),
            queued: AtomicUsize::new(0),
            commits: AtomicU64::new(0),
        }
    }

    /// How many batches have ended (committed or failed).
    #[cfg(test)]
    pub(crate) fn batches(&self) -> u64 {
        self.commits.load(Ordering::SeqCst)
    }

    fn lock(&self) -> MutexGuard<'_, Writer> {
        // A writer that panicked left its savepoint rolled back (see `run`).
        self.writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` as one write and returns once it is durable (or failed).
    pub(crate) fn run<T, E>(&self, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<Error>,
    {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut writer = self.lock();
        self.queued.fetch_sub(1, Ordering::SeqCst);
        let inside = InsideWrite::enter();
        if let Err(err) = self.open_batch(&mut writer) {
            return Err(E::from(err));
        }
        let my_batch = writer.batch;
        writer.members += 1;
        let conn = match writer.conn.as_mut() {
            Some(conn) => conn,
            None => return Err(E::from(batch_error("the writer connection is gone".into()))),
        };
        conn.take_errors();
        let outcome = catch_unwind(AssertUnwindSafe(|| conn.transaction(f)));
        let panicked = outcome.is_err();
        if panicked {
            // diesel leaves the savepoint of a panicking closure open.
            let _ = <DbConn as Connection>::TransactionManager::rollback_transaction(conn);
        }
        let broken = transaction_depth(conn) != Some(1);
        if broken {
            // SQLite ended the transaction itself (a full disk, an I/O error): diesel then
            // reports only that the savepoint could not be rolled back, so the statements'
            // own errors say why, to every writer of the batch.
            let errors = conn.take_errors();
            let why = if errors.is_empty() {
                String::new()
            } else {
                format!(": {}", errors.join("; "))
            };
            self.end_batch(
                &mut writer,
                Some(format!("the write transaction was broken{why}")),
            );
        } else if self.queued.load(Ordering::SeqCst) == 0 || writer.members >= MAX_BATCH {
            let committed = writer
                .conn
                .as_mut()
                .map(<DbConn as Connection>::TransactionManager::commit_transaction);
            let failure = match committed {
                Some(Ok(())) => None,
                Some(Err(err)) => Some(format!("commit failed: {err}")),
                None => Some("the writer connection is gone".into()),
            };
            self.end_batch(&mut writer, failure);
        } else {
            drop(inside);
            while writer.done_through < my_batch {
                writer = self
                    .batch_done
                    .wait(writer)
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
            }
        }
        let failure = take_failure(&mut writer, my_batch);
        drop(writer);
        match outcome {
            Err(payload) => resume_unwind(payload),
            Ok(result) => match failure {
                // The writer that broke the transaction gets the cause too, not diesel's
                // failed rollback.
                Some(message) if broken => Err(E::from(batch_error(message))),
                Some(message) => result.and(Err(E::from(batch_error(message)))),
                None => result,
            },
        }
    }

    /// Opens the writer's connection and the batch's transaction if none is open.
    fn open_batch(&self, writer: &mut Writer) -> Result<(), Error> {
        if writer.conn.is_none() {
            let mut conn = DbManager::connect_sqlite(&self.url.target)?;
            (self.setup)(&mut conn);
            writer.conn = Some(conn);
        }
        if writer.members > 0 {
            return Ok(());
        }
        let Some(DbConn::Sqlite(conn)) = writer.conn.as_mut() else {
            return Err(batch_error(
                "the SQLite writer has no SQLite connection".into(),
            ));
        };
        // IMMEDIATE: the write lock is taken now, so a batch never fails half-way on
        // another process's write.
        let begun = AnsiTransactionManager::begin_transaction_sql(conn, "BEGIN IMMEDIATE");
        if begun.is_err() {
            writer.conn = None;
        }
        begun
    }

    /// Closes the open batch (committed, or failed with `failure`) and wakes its members.
    fn end_batch(&self, writer: &mut Writer, failure: Option<String>) {
        if let Some(message) = failure {
            tracing::error!(batch = writer.batch, "SQLite write batch failed: {message}");
            // Whatever state the connection is in, a new one starts clean.
            writer.conn = None;
            // Every member reads it, the one ending the batch included.
            writer
                .failed
                .insert(writer.batch, (message, writer.members));
        }
        writer.done_through = writer.batch;
        writer.batch += 1;
        self.commits.fetch_add(1, Ordering::SeqCst);
        writer.members = 0;
        self.batch_done.notify_all();
    }
}

/// The failure of `batch`, if it failed (each member reads it once).
fn take_failure(writer: &mut Writer, batch: u64) -> Option<String> {
    let (message, readers) = writer.failed.get_mut(&batch)?;
    let message = message.clone();
    *readers -= 1;
    if *readers == 0 {
        writer.failed.remove(&batch);
    }
    Some(message)
}

/// How deep the connection's transactions are (1 = the batch's transaction only); `None`
/// when diesel considers the transaction manager broken.
fn transaction_depth(conn: &mut DbConn) -> Option<u32> {
    <DbConn as Connection>::TransactionManager::transaction_manager_status_mut(conn)
        .transaction_depth()
        .ok()
        .map(|depth| depth.map_or(0, |depth| depth.get()))
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use crate::store::{self, DbPool, RetryPolicy, settings};

    fn pool(dir: &tempfile::TempDir) -> DbPool {
        let url = store::DatabaseUrl::parse(&format!(
            "sqlite://{}",
            dir.path().join("group.db").display()
        ))
        .unwrap();
        let retry = RetryPolicy {
            attempts: 1,
            delay: Duration::ZERO,
        };
        store::open(&url, 8, retry).unwrap()
    }

    fn batches(pool: &DbPool) -> u64 {
        let mut conn = pool.get().unwrap();
        let shared = conn.shared().unwrap();
        shared.writer.as_ref().unwrap().batches()
    }

    fn stored(pool: &DbPool, key: &str) -> Option<String> {
        settings::get(&mut pool.get().unwrap(), key).unwrap()
    }

    /// Many writers at once: every acknowledged write is there, read from another
    /// connection, and queued writers shared commits.
    #[test]
    fn concurrent_writes_are_all_committed_in_fewer_commits() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir);
        let before = batches(&pool);
        let writers: Vec<_> = (0..16)
            .map(|t| {
                let pool = pool.clone();
                thread::spawn(move || {
                    let mut conn = pool.get().unwrap();
                    for i in 0..40 {
                        conn.write_transaction(|conn| {
                            settings::set(conn, &format!("k{t}-{i}"), &format!("{t}.{i}"))
                        })
                        .unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        for t in 0..16 {
            for i in 0..40 {
                assert_eq!(
                    stored(&pool, &format!("k{t}-{i}")),
                    Some(format!("{t}.{i}"))
                );
            }
        }
        let commits = batches(&pool) - before;
        assert!(commits < 640, "640 writes took {commits} commits");
    }

    /// Runs `first` on one thread; while it is inside its write, a second writer queues
    /// and writes `k2`; the two share one batch. Returns the first thread's outcome.
    fn with_second_writer_queued(
        pool: &DbPool,
        first: impl FnOnce(&mut store::DbConn) -> Result<(), diesel::result::Error> + Send + 'static,
    ) -> thread::Result<Result<(), diesel::result::Error>> {
        let (inside_tx, inside_rx) = mpsc::channel();
        let first_pool = pool.clone();
        let first_thread = thread::spawn(move || {
            let mut conn = first_pool.get().unwrap();
            conn.write_transaction(move |conn| {
                inside_tx.send(()).unwrap();
                // Long enough for the second writer to queue behind this one.
                thread::sleep(Duration::from_millis(200));
                first(conn)
            })
        });
        inside_rx.recv().unwrap();
        let second_pool = pool.clone();
        let second = thread::spawn(move || {
            let mut conn = second_pool.get().unwrap();
            conn.write_transaction(|conn| settings::set(conn, "k2", "second"))
        });
        let first_outcome = first_thread.join();
        second.join().unwrap().unwrap();
        first_outcome
    }

    #[test]
    fn a_failed_write_rolls_back_alone_and_the_batch_commits() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir);
        let before = batches(&pool);
        let outcome = with_second_writer_queued(&pool, |conn| {
            settings::set(conn, "k1", "first")?;
            Err(diesel::result::Error::RollbackTransaction)
        });
        assert!(matches!(
            outcome.unwrap(),
            Err(diesel::result::Error::RollbackTransaction)
        ));
        assert_eq!(stored(&pool, "k1"), None);
        assert_eq!(stored(&pool, "k2").as_deref(), Some("second"));
        assert_eq!(
            batches(&pool) - before,
            1,
            "the two writes share one commit"
        );
    }

    #[test]
    fn a_panicking_write_rolls_back_alone_and_the_others_commit() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir);
        let outcome = with_second_writer_queued(&pool, |conn| {
            settings::set(conn, "k1", "first")?;
            panic!("a bug inside a write");
        });
        assert!(outcome.is_err(), "the panic reaches its own thread");
        assert_eq!(stored(&pool, "k1"), None);
        assert_eq!(stored(&pool, "k2").as_deref(), Some("second"));
        // The writer goes on.
        pool.get()
            .unwrap()
            .write_transaction(|conn| settings::set(conn, "k3", "after"))
            .unwrap();
        assert_eq!(stored(&pool, "k3").as_deref(), Some("after"));
    }

    /// SQLite ends the whole transaction by itself on some errors (SQLITE_FULL when a big
    /// write spills to a full disk): every writer of the batch fails with the cause, the
    /// one whose statement met it included, nothing of the batch is stored, and the next
    /// write succeeds on a fresh connection. (A trigger's `RAISE(ROLLBACK, ...)` ends the
    /// transaction the same way, with the words of a full disk.)
    #[test]
    fn a_transaction_ended_by_sqlite_fails_its_batch_with_the_cause() {
        use diesel::RunQueryDsl;
        use diesel::connection::SimpleConnection;
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir);
        let (inside_tx, inside_rx) = mpsc::channel();
        let first_pool = pool.clone();
        let first = thread::spawn(move || {
            let mut conn = first_pool.get().unwrap();
            conn.write_transaction(move |conn| {
                settings::set(conn, "k1", "first")?;
                inside_tx.send(()).unwrap();
                // Long enough for the breaking writer to queue behind this one.
                thread::sleep(Duration::from_millis(200));
                Ok::<_, diesel::result::Error>(())
            })
        });
        inside_rx.recv().unwrap();
        let breaking = pool.get().unwrap().write_transaction(|conn| {
            conn.batch_execute(
                "CREATE TEMP TABLE IF NOT EXISTS boom (x INTEGER);
                 CREATE TEMP TRIGGER IF NOT EXISTS boom_full BEFORE INSERT ON boom
                 BEGIN SELECT RAISE(ROLLBACK, 'database or disk is full'); END;",
            )?;
            diesel::sql_query("INSERT INTO boom VALUES (1)").execute(conn)?;
            Ok::<_, diesel::result::Error>(())
        });
        let first = first.join().unwrap();
        for outcome in [first, breaking] {
            let err = outcome.expect_err("the batch failed");
            assert!(
                err.to_string().contains("database or disk is full"),
                "{err}"
            );
        }
        assert_eq!(stored(&pool, "k1"), None);
        pool.get()
            .unwrap()
            .write_transaction(|conn| settings::set(conn, "k3", "after"))
            .unwrap();
        assert_eq!(stored(&pool, "k3").as_deref(), Some("after"));
    }
}
