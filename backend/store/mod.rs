//! Storage: one diesel code path for SQLite (embedded default) and PostgreSQL (several
//! instances), chosen from the database URL. No HTML, no HTTP here.
pub mod accounts;
pub mod claims;
pub mod clubs;
pub mod columns;
pub mod connection_health;
pub mod event_invitations;
pub mod events;
pub mod games;
mod group_commit;
pub mod local_rules;
pub mod merges;
pub mod micro_matches;
pub mod models;
pub mod pairing_changes;
pub mod players;
pub mod prepared;
pub mod rated_results;
pub mod rating_catchup;
pub mod ratings;
pub mod removals;
pub mod schema;
pub mod settings;
pub mod shared;
pub mod site_progress;
pub mod time_control;
pub mod time_source;

use std::sync::Arc;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{self, ManageConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to either backend. Queries written against `DbConn` run on both.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Sqlite(diesel::SqliteConnection),
    Pg(diesel::PgConnection),
}

pub type DbPool = r2d2::Pool<DbManager>;
pub type PooledConn = r2d2::PooledConnection<DbManager>;
pub type QueryResult<T> = Result<T, diesel::result::Error>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Where the database is, parsed from `--database-url`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseUrl {
    pub backend: Backend,
    /// What the driver receives: a file path for SQLite, the URL itself for PostgreSQL.
    pub target: String,
}

impl DatabaseUrl {
    /// `postgres://` and `postgresql://` select PostgreSQL; `sqlite://PATH`, `sqlite:PATH`
    /// or a plain path select SQLite. The backend is decided here because SQLite would
    /// accept any string as a file name.
    pub fn parse(url: &str) -> Result<DatabaseUrl, String> {
        let url = url.trim();
        if url.is_empty() {
            return Err("the database URL is empty".into());
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DatabaseUrl {
                backend: Backend::Postgres,
                target: url.to_string(),
            });
        }
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        if path.is_empty() {
            return Err(format!("the SQLite URL `{url}` names no file"));
        }
        if let Some((scheme, _)) = path.split_once("://") {
            return Err(format!(
                "unsupported database URL scheme `{scheme}://`: use sqlite://FILE or postgres://..."
            ));
        }
        Ok(DatabaseUrl {
            backend: Backend::Sqlite,
            target: path.to_string(),
        })
    }

    /// The URL with any password masked, for logs and error messages.
    pub fn redacted(&self) -> String {
        match self.backend {
            Backend::Sqlite => format!("sqlite://{}", self.target),
            Backend::Postgres => redact_password(&self.target),
        }
    }
}

fn redact_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let Some((credentials, host)) = rest.split_once('@') else {
        return url.to_string();
    };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Opens connections of the backend chosen by the URL and prepares each one; holds what
/// the connections of the database share (`shared::DbShared`).
#[derive(Clone)]
pub struct DbManager {
    url: DatabaseUrl,
    shared: Arc<shared::DbShared>,
}

impl DbManager {
    pub fn new(url: DatabaseUrl) -> DbManager {
        let shared = shared::DbShared::new(&url);
        DbManager { url, shared }
    }

    /// A SQLite connection with the pragmas every connection needs.
    fn connect_sqlite(target: &str) -> QueryResult<DbConn> {
        let mut conn = diesel::SqliteConnection::establish(target).map_err(|e| {
            diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::Unknown,
                Box::new(e.to_string()),
            )
        })?;
        conn.batch_execute(SQLITE_CONNECTION_PRAGMAS)?;
        Ok(DbConn::Sqlite(conn))
    }
}

/// Applied to every SQLite connection. `synchronous = FULL` makes every commit durable
/// before it is acknowledged (an accepted move survives `kill -9` and a power cut);
/// the busy timeout lets concurrent writers queue instead of failing.
const SQLITE_CONNECTION_PRAGMAS: &str = "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; \
     PRAGMA synchronous = FULL;";

impl ManageConnection for DbManager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        let mut conn = match self.url.backend {
            Backend::Sqlite => {
                let mut conn = diesel::SqliteConnection::establish(&self.url.target)
                    .map_err(r2d2::Error::ConnectionError)?;
                conn.batch_execute(SQLITE_CONNECTION_PRAGMAS)
                    .map_err(r2d2::Error::QueryError)?;
                DbConn::Sqlite(conn)
            }
            Backend::Postgres => diesel::PgConnection::establish(&self.url.target)
                .map(DbConn::Pg)
                .map_err(r2d2::Error::ConnectionError)?,
        };
        shared::attach(&mut conn, &Arc::downgrade(&self.shared));
        Ok(conn)
    }

    /// Checked when a connection is drawn from the pool: pinged only for a while after a
    /// connection was lost (`connection_health`), free otherwise.
    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        if !connection_health::lost_lately() {
            return Ok(());
        }
        r2d2::R2D2Connection::ping(conn).map_err(|err| {
            connection_health::note_lost();
            r2d2::Error::QueryError(err)
        })
    }

    /// Checked when a connection comes back to the pool: a connection left inside a failed
    /// transaction is dropped instead of reused, and so, after a loss, is one whose server
    /// went away (diesel cannot tell that from the transaction state).
    fn has_broken(&self, conn: &mut DbConn) -> bool {
        std::thread::panicking()
            || r2d2::R2D2Connection::is_broken(conn)
            || (connection_health::lost_lately() && self.is_valid(conn).is_err())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreSetupError {
    #[error("{0}")]
    Url(String),
    #[error("cannot open the database {url}: {cause}")]
    Connect { url: String, cause: String },
    #[error("database migrations failed on {url}: {cause}")]
    Migrate { url: String, cause: String },
}

/// How long start-up keeps retrying a database that does not answer (PostgreSQL not yet
/// up, a fail-over in progress) before it gives up with a clear error.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    pub attempts: u32,
    pub delay: Duration,
}

impl RetryPolicy {
    /// The default policy, overridden by `DAMKA_DB_RETRY_ATTEMPTS` and
    /// `DAMKA_DB_RETRY_DELAY_MS` (operators of slow fail-overs raise them; tests lower them).
    pub fn from_env() -> RetryPolicy {
        let default = RetryPolicy::default();
        let read = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
        RetryPolicy {
            attempts: read("DAMKA_DB_RETRY_ATTEMPTS")
                .map_or(default.attempts, |n| n.clamp(1, 10_000) as u32),
            delay: read("DAMKA_DB_RETRY_DELAY_MS").map_or(default.delay, Duration::from_millis),
        }
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 30,
            delay: Duration::from_secs(2),
        }
    }
}

/// Builds the pool, waits for the database (with retries), switches SQLite to WAL and
/// runs the embedded migrations of the backend in use.
pub fn open(
    url: &DatabaseUrl,
    pool_size: u32,
    retry: RetryPolicy,
) -> Result<DbPool, StoreSetupError> {
    let pool = r2d2::Pool::builder()
        .max_size(pool_size)
        .min_idle(Some(1))
        .connection_timeout(Duration::from_secs(5))
        // `is_valid` pings only for a while after a connection was lost: no `SELECT 1`
        // round trip before every request, and no dead connection handed out after a
        // PostgreSQL restart.
        .test_on_check_out(true)
        .idle_timeout(Some(Duration::from_secs(300)))
        .build_unchecked(DbManager::new(url.clone()));
    let mut conn = connect_with_retry(&pool, url, retry)?;
    migrate(&mut conn, url)?;
    fill_search_keys(&mut conn, url)?;
    Ok(pool)
}

fn connect_with_retry(
    pool: &DbPool,
    url: &DatabaseUrl,
    retry: RetryPolicy,
) -> Result<PooledConn, StoreSetupError> {
    let mut attempt = 1;
    loop {
        match pool.get() {
            Ok(conn) => return Ok(conn),
            Err(err) if attempt < retry.attempts => {
                tracing::warn!(
                    database = %url.redacted(),
                    attempt,
                    of = retry.attempts,
                    "database not reachable ({err}); retrying in {:?}",
                    retry.delay
                );
                std::thread::sleep(retry.delay);
                attempt += 1;
            }
            Err(err) => {
                return Err(StoreSetupError::Connect {
                    url: url.redacted(),
                    cause: format!("{err} (gave up after {attempt} attempts)"),
                });
            }
        }
    }
}

/// How often start-up tries the SQLite migrations again when another process holds the
/// file's lock, and how long it waits between tries (about 10 s in all).
const SQLITE_MIGRATION_TRIES: u32 = 100;
const SQLITE_MIGRATION_PAUSE: Duration = Duration::from_millis(100);

/// Switches the file to WAL and runs the pending migrations. Two processes starting at once
/// on a fresh file (`damka serve` and `damka admin create`) would both find a migration
/// pending and the second would fail on "table already exists": the migrations run in an
/// exclusive transaction, so the second waits and then finds nothing pending, as the
/// advisory lock does on PostgreSQL. SQLite does not always wait in its busy handler while
/// the other process switches the journal mode or holds the exclusive lock (it answers
/// "database is locked" at once where waiting could deadlock), so that answer is tried
/// again; the exclusive transaction makes a try all or nothing.
fn migrate_sqlite(c: &mut diesel::SqliteConnection) -> Result<(), String> {
    let mut tries = 0;
    loop {
        let outcome = c
            .batch_execute("PRAGMA journal_mode = WAL;")
            .map_err(|e| MigrationFailure(e.to_string()))
            .and_then(|()| {
                c.exclusive_transaction(|c| {
                    c.run_pending_migrations(SQLITE_MIGRATIONS)
                        .map(|_| ())
                        .map_err(|e| MigrationFailure(e.to_string()))
                })
            });
        match outcome {
            Ok(()) => return Ok(()),
            Err(MigrationFailure(cause))
                if cause.contains("database is locked") && tries < SQLITE_MIGRATION_TRIES =>
            {
                tries += 1;
                std::thread::sleep(SQLITE_MIGRATION_PAUSE);
            }
            Err(MigrationFailure(cause)) => return Err(cause),
        }
    }
}

/// Why a migration inside a transaction failed (the transaction needs an error type that
/// a diesel error converts into).
struct MigrationFailure(String);

impl From<diesel::result::Error> for MigrationFailure {
    fn from(err: diesel::result::Error) -> Self {
        MigrationFailure(err.to_string())
    }
}

/// Fills the name search keys a migration had to leave empty (see
/// `players::fill_folded_names`); a database with none to fill costs one query.
fn fill_search_keys(conn: &mut DbConn, url: &DatabaseUrl) -> Result<(), StoreSetupError> {
    let filled = players::fill_folded_names(conn).map_err(|e| StoreSetupError::Migrate {
        url: url.redacted(),
        cause: format!("filling the name search keys: {e}"),
    })?;
    if filled > 0 {
        tracing::info!(profiles = filled, "filled the name search keys");
    }
    Ok(())
}

/// Advisory-lock key so that several instances starting together on one PostgreSQL
/// database do not run the same migration twice.
const MIGRATION_LOCK_KEY: i64 = 0x0064_616d_6b61; // "damka" in ASCII

fn migrate(conn: &mut DbConn, url: &DatabaseUrl) -> Result<(), StoreSetupError> {
    let fail = |cause: String| StoreSetupError::Migrate {
        url: url.redacted(),
        cause,
    };
    match conn {
        DbConn::Sqlite(c) => migrate_sqlite(c).map_err(fail)?,
        DbConn::Pg(c) => {
            c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))
                .map_err(|e| fail(e.to_string()))?;
            let result = c
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|_| ())
                .map_err(|e| fail(e.to_string()));
            c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))
                .map_err(|e| fail(e.to_string()))?;
            result?;
        }
    }
    Ok(())
}

impl DbConn {
    pub fn backend(&self) -> Backend {
        match self {
            DbConn::Sqlite(_) => Backend::Sqlite,
            DbConn::Pg(_) => Backend::Postgres,
        }
    }

    /// Runs `f` in a transaction that will write. On SQLite the writes of this process
    /// run on one connection and are committed in groups (`group_commit`); a write inside
    /// a write is a savepoint of it. A SQLite connection made outside a pool takes the
    /// file's write lock first, so concurrent writers wait (busy timeout) rather than
    /// fail half-way.
    pub fn write_transaction<T, E>(
        &mut self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<diesel::result::Error>,
    {
        if self.backend() == Backend::Postgres || group_commit::inside_write() {
            return self.transaction(f);
        }
        if let Some(shared) = self.shared()
            && let Some(writer) = &shared.writer
        {
            return writer.run(f);
        }
        self.transaction(|conn| {
            use schema::write_lock::dsl::*;
            diesel::update(write_lock.find(1))
                .set(counter.eq(counter + 1))
                .execute(conn)?;
            f(conn)
        })
    }
}

pub fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_selects_backend_by_scheme() {
        let pg = DatabaseUrl::parse("postgres://u:secret@127.0.0.1/db").unwrap();
        assert_eq!(pg.backend, Backend::Postgres);
        assert_eq!(pg.redacted(), "postgres://u:***@127.0.0.1/db");
        let pg2 = DatabaseUrl::parse("postgresql://127.0.0.1/db").unwrap();
        assert_eq!(pg2.backend, Backend::Postgres);
        let file = DatabaseUrl::parse("sqlite://damka.db").unwrap();
        assert_eq!(
            file,
            DatabaseUrl {
                backend: Backend::Sqlite,
                target: "damka.db".into()
            }
        );
        let abs = DatabaseUrl::parse("sqlite:///var/lib/damka.db").unwrap();
        assert_eq!(abs.target, "/var/lib/damka.db");
        assert_eq!(
            DatabaseUrl::parse("plain.db").unwrap().backend,
            Backend::Sqlite
        );
        assert!(
            DatabaseUrl::parse("mysql://x")
                .unwrap_err()
                .contains("mysql")
        );
        assert!(DatabaseUrl::parse("").is_err());
        assert!(DatabaseUrl::parse("sqlite://").is_err());
    }
}

#[cfg(test)]
mod gate_tests {
    use super::*;

    /// A write transaction inside another (a savepoint) on the same thread must not wait
    /// for the writer gate its own thread holds.
    #[test]
    fn nested_sqlite_write_transactions_do_not_wait_for_themselves() {
        let dir = tempfile::tempdir().unwrap();
        let url =
            DatabaseUrl::parse(&format!("sqlite://{}", dir.path().join("g.db").display())).unwrap();
        let pool = open(
            &url,
            2,
            RetryPolicy {
                attempts: 1,
                delay: Duration::ZERO,
            },
        )
        .unwrap();
        let mut conn = pool.get().unwrap();
        let inner: Result<i32, diesel::result::Error> =
            conn.write_transaction(|conn| conn.write_transaction(|_| Ok(7)));
        assert_eq!(inner.unwrap(), 7);
        // The gate is free again: another thread takes its turn.
        let mut other = pool.get().unwrap();
        let done = std::thread::spawn(move || {
            other
                .write_transaction(|_| Ok::<_, diesel::result::Error>(1))
                .unwrap()
        });
        assert_eq!(done.join().unwrap(), 1);
    }
}

#[cfg(test)]
mod pragma_tests {
    use super::*;
    use diesel::sql_types::{BigInt, Text};

    #[derive(QueryableByName)]
    struct Number {
        #[diesel(sql_type = BigInt)]
        value: i64,
    }

    #[derive(QueryableByName)]
    struct Word {
        #[diesel(sql_type = Text)]
        value: String,
    }

    fn number(conn: &mut DbConn, pragma: &str) -> i64 {
        diesel::sql_query(format!("SELECT (SELECT * FROM pragma_{pragma}) AS value"))
            .get_result::<Number>(conn)
            .unwrap()
            .value
    }

    /// What makes an acknowledged write durable and concurrent writers queue, asserted
    /// directly: a kill -9 test cannot tell `synchronous = FULL` from `OFF` (the page cache
    /// survives a killed process), so the settings themselves are checked on a pooled
    /// connection and on the group commit's writer.
    #[test]
    fn every_sqlite_connection_has_the_durability_settings() {
        let dir = tempfile::tempdir().unwrap();
        let url =
            DatabaseUrl::parse(&format!("sqlite://{}", dir.path().join("p.db").display())).unwrap();
        let pool = open(
            &url,
            2,
            RetryPolicy {
                attempts: 1,
                delay: Duration::ZERO,
            },
        )
        .unwrap();
        let mut conn = pool.get().unwrap();
        let journal = diesel::sql_query("SELECT journal_mode AS value FROM pragma_journal_mode")
            .get_result::<Word>(&mut conn)
            .unwrap()
            .value;
        assert_eq!(journal, "wal");
        assert_eq!(number(&mut conn, "foreign_keys"), 1);
        assert_eq!(number(&mut conn, "busy_timeout"), 5000);
        assert_eq!(number(&mut conn, "synchronous"), 2, "FULL");
        // The writer's own connection (writes go through it).
        let writer = conn
            .write_transaction(|conn| {
                Ok::<_, diesel::result::Error>((
                    number(conn, "synchronous"),
                    number(conn, "foreign_keys"),
                ))
            })
            .unwrap();
        assert_eq!(writer, (2, 1));
    }
}
