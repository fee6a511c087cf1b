//! The one application error. Every use case returns it; the web layer renders it as an
//! HTML page or as `application/problem+json` with the status that `status()` gives.
//! A refusal says why in a [`Refusal`]: a stable code with typed arguments.
use std::fmt;

use super::refusal::Refusal;

#[derive(Debug, Clone, PartialEq)]
pub enum AppError {
    /// 400: the request itself is malformed (bad JSON, bad form encoding, bad path).
    BadRequest { reason: Refusal },
    /// 401: the action needs a signed-in user or an API token.
    Unauthenticated,
    /// 401 on login: the e-mail/password pair does not match.
    BadCredentials,
    /// 403: signed in, but this user may not do this.
    Forbidden { reason: Refusal },
    /// 403: the form's CSRF token is missing or does not match the browser's cookie.
    CsrfRejected,
    /// 404.
    NotFound { what: &'static str },
    /// 404 with a reason a script can act on (a merged profile: where it went).
    NotFoundBecause { reason: Refusal },
    /// 405: the path exists, but not for this method (the response lists the allowed ones).
    MethodNotAllowed,
    /// 409: the action conflicts with the stored state (duplicate e-mail, stale data).
    Conflict { reason: Refusal },
    /// 413: the request body is larger than the limit for this kind of request.
    PayloadTooLarge { limit_bytes: usize },
    /// 408: the request's body did not arrive in time; the connection is closed.
    RequestTimeout { reason: Refusal },
    /// 422: a field fails validation; forms show it next to the field.
    Invalid {
        field: &'static str,
        reason: Refusal,
    },
    /// 429: too many failed logins; try again after `retry_after_secs`.
    TooManyAttempts { retry_after_secs: u64 },
    /// 429: one client address holds more of something (connections, streams) than it
    /// may; try again after `retry_after_secs`.
    TooManyRequests {
        reason: Refusal,
        retry_after_secs: u64,
    },
    /// 503: the database cannot be reached right now.
    Unavailable,
    /// 503: the database refuses writes: its disk is full, it is read-only, or the disk
    /// fails. Nothing was written; reads still work, and writes do again once an operator
    /// has made room (no restart needed).
    StorageUnavailable,
    /// 500: a bug or an unexpected storage error; the cause is logged under `id`.
    Internal { id: String },
}

/// A busy or unreachable database is usually back within a second or two.
const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 2;

/// A full or read-only disk needs someone to act (free space, fail over): longer.
const STORAGE_RETRY_AFTER_SECS: u64 = 30;

impl AppError {
    pub fn status(&self) -> u16 {
        match self {
            AppError::BadRequest { .. } => 400,
            AppError::Unauthenticated | AppError::BadCredentials => 401,
            AppError::Forbidden { .. } | AppError::CsrfRejected => 403,
            AppError::NotFound { .. } | AppError::NotFoundBecause { .. } => 404,
            AppError::MethodNotAllowed => 405,
            AppError::Conflict { .. } => 409,
            AppError::PayloadTooLarge { .. } => 413,
            AppError::RequestTimeout { .. } => 408,
            AppError::Invalid { .. } => 422,
            AppError::TooManyAttempts { .. } | AppError::TooManyRequests { .. } => 429,
            AppError::Internal { .. } => 500,
            AppError::Unavailable | AppError::StorageUnavailable => 503,
        }
    }

    /// The kind of error, as the problem `type` suffix (`urn:damka:problem:<kind>`) and
    /// the message-catalogue key of the title.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::BadRequest { .. } => "bad-request",
            AppError::Unauthenticated => "unauthenticated",
            AppError::BadCredentials => "bad-credentials",
            AppError::Forbidden { .. } => "forbidden",
            AppError::CsrfRejected => "csrf-rejected",
            AppError::NotFound { .. } | AppError::NotFoundBecause { .. } => "not-found",
            AppError::MethodNotAllowed => "method-not-allowed",
            AppError::Conflict { .. } => "conflict",
            AppError::PayloadTooLarge { .. } => "payload-too-large",
            AppError::RequestTimeout { .. } => "request-timeout",
            AppError::Invalid { .. } => "invalid",
            AppError::TooManyAttempts { .. } => "too-many-attempts",
            AppError::TooManyRequests { .. } => "too-many-requests",
            AppError::Unavailable => "unavailable",
            AppError::StorageUnavailable => "storage-unavailable",
            AppError::Internal { .. } => "internal",
        }
    }

    /// Why exactly: the refusal of a 400, 403, 408, 409, 422 or per-address 429, or of a
    /// 404 that has one.
    pub fn refusal(&self) -> Option<&Refusal> {
        match self {
            AppError::BadRequest { reason }
            | AppError::RequestTimeout { reason }
            | AppError::TooManyRequests { reason, .. }
            | AppError::NotFoundBecause { reason }
            | AppError::Forbidden { reason }
            | AppError::Conflict { reason }
            | AppError::Invalid { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// The stable code of this error (problem+json's `code`): the refusal's code, or the
    /// kind's for errors that are not refusals.
    pub fn code(&self) -> &'static str {
        match self.refusal() {
            Some(reason) => reason.code(),
            None => match self {
                AppError::Unauthenticated => "unauthenticated",
                AppError::BadCredentials => "bad_credentials",
                AppError::CsrfRejected => "csrf_rejected",
                AppError::NotFound { .. } => "not_found",
                AppError::MethodNotAllowed => "method_not_allowed",
                AppError::PayloadTooLarge { .. } => "payload_too_large",
                AppError::TooManyAttempts { .. } => "too_many_attempts",
                AppError::Unavailable => "unavailable",
                AppError::StorageUnavailable => "storage_unavailable",
                _ => "internal",
            },
        }
    }

    /// How long a client should wait before trying again (the `Retry-After` header).
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            AppError::TooManyAttempts { retry_after_secs }
            | AppError::TooManyRequests {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            AppError::Unavailable => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            AppError::StorageUnavailable => Some(STORAGE_RETRY_AFTER_SECS),
            _ => None,
        }
    }

    /// Whether the answer must also close the connection: after a body that did not arrive
    /// (the rest of it may still be on the way) and on a connection beyond the address's cap
    /// (closing it is the point).
    pub fn closes_connection(&self) -> bool {
        matches!(
            self,
            AppError::RequestTimeout { .. }
                | AppError::TooManyRequests {
                    reason: Refusal::TooManyConnections { .. },
                    ..
                }
        )
    }

    pub fn bad_request(reason: Refusal) -> AppError {
        AppError::BadRequest { reason }
    }

    pub fn forbidden(reason: Refusal) -> AppError {
        AppError::Forbidden { reason }
    }

    pub fn invalid(field: &'static str, reason: Refusal) -> AppError {
        AppError::Invalid { field, reason }
    }

    pub fn conflict(reason: Refusal) -> AppError {
        AppError::Conflict { reason }
    }

    /// Logs an unexpected failure with an id the user can quote, and hides the details.
    pub fn internal(cause: impl fmt::Display) -> AppError {
        let id = super::token::random_token(6);
        tracing::error!(error_id = %id, "internal error: {cause}");
        AppError::Internal { id }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::BadRequest { reason } => write!(f, "bad request: {reason}"),
            AppError::Unauthenticated => write!(f, "sign in or send an API token to do this"),
            AppError::BadCredentials => write!(f, "wrong e-mail or password"),
            AppError::Forbidden { reason } => write!(f, "forbidden: {reason}"),
            AppError::CsrfRejected => write!(
                f,
                "the form's security token is missing or expired; reload the page and try again"
            ),
            AppError::NotFound { what } => write!(f, "{what} not found"),
            AppError::NotFoundBecause { reason } => write!(f, "not found: {reason}"),
            AppError::MethodNotAllowed => write!(f, "this method is not allowed here"),
            AppError::Conflict { reason } => write!(f, "conflict: {reason}"),
            AppError::PayloadTooLarge { limit_bytes } => write!(
                f,
                "the request body is larger than the limit of {limit_bytes} bytes"
            ),
            AppError::RequestTimeout { reason } => write!(f, "request timeout: {reason}"),
            AppError::Invalid { field, reason } => write!(f, "{field}: {reason}"),
            AppError::TooManyAttempts { retry_after_secs } => write!(
                f,
                "too many failed sign-in attempts; try again in {retry_after_secs} s"
            ),
            AppError::TooManyRequests { reason, .. } => write!(f, "too many requests: {reason}"),
            AppError::Unavailable => write!(
                f,
                "the database is busy or not reachable; try again shortly"
            ),
            AppError::StorageUnavailable => write!(
                f,
                "the database cannot store anything right now (disk full or read-only); \
                 nothing was changed, try again later"
            ),
            AppError::Internal { id } => write!(f, "internal error (reference {id})"),
        }
    }
}

impl std::error::Error for AppError {}

impl From<diesel::result::Error> for AppError {
    fn from(err: diesel::result::Error) -> AppError {
        use diesel::result::{DatabaseErrorKind, Error};
        match err {
            Error::NotFound => AppError::NotFound { what: "record" },
            // Checked first: a full disk also breaks the commit's rollback (SQLite has
            // already rolled back), and diesel words that as a rollback failure.
            err if is_storage_fault(&err) => {
                tracing::error!("database cannot store: {err}");
                AppError::StorageUnavailable
            }
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                AppError::conflict(Refusal::AlreadyExists {
                    message: info.message().to_string(),
                })
            }
            Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _) => {
                AppError::conflict(Refusal::StillReferenced)
            }
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, _) => {
                crate::store::connection_health::note_lost();
                AppError::Unavailable
            }
            // libpq reports a server that went away mid-request under other kinds: the
            // database is unavailable (503, try again), not broken (500).
            Error::DatabaseError(_, info) if is_connection_lost(info.message()) => {
                tracing::warn!("database connection lost: {}", info.message());
                crate::store::connection_health::note_lost();
                AppError::Unavailable
            }
            // Writers queue for the lock; one that waited out the busy timeout (SQLite), or
            // lost a deadlock or serialization check (PostgreSQL), changed nothing and may
            // simply try again: a 503 with Retry-After, not a 500.
            Error::DatabaseError(DatabaseErrorKind::SerializationFailure, info) => {
                tracing::warn!("database write retried later: {}", info.message());
                AppError::Unavailable
            }
            Error::DatabaseError(_, info) if is_busy(info.message()) => {
                tracing::warn!("database busy: {}", info.message());
                AppError::Unavailable
            }
            // PostgreSQL refuses text with NUL bytes (SQLite stores them). The use cases
            // validate their fields; this is the net for any text that slips through.
            Error::DatabaseError(_, info) if info.message().contains("0x00") => {
                AppError::bad_request(Refusal::NulCharacters)
            }
            other => AppError::internal(other),
        }
    }
}

/// PostgreSQL gone or going: the connection broke, the server shuts down or restarts
/// (SQLSTATE 08xxx and 57P01-57P03, as libpq words them).
fn is_connection_lost(message: &str) -> bool {
    [
        "no connection to the server",
        "server closed the connection unexpectedly",
        "terminating connection due to administrator command",
        "terminating connection because of crash of another server process",
        "the database system is starting up",
        "the database system is shutting down",
        "the database system is in recovery mode",
        "could not receive data from server",
        "could not send data to server",
        "connection to server at",
    ]
    .iter()
    .any(|lost| message.contains(lost))
}

/// The database refuses to store anything, whatever is asked: the disk is full, the
/// database or its file system is read-only, or the disk fails. SQLite words these
/// SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR and SQLITE_CANTOPEN (the journal cannot be
/// made); PostgreSQL 53100 disk_full ("could not extend file ...: No space left on
/// device"), 25006 read_only_sql_transaction (a standby, or `default_transaction_read_only`)
/// and the file errors under them. diesel gives the message, not the SQLSTATE, except for
/// 25006; the failed commit of a group (`store::group_commit`) and the pool's last
/// connection error carry the same words.
pub(crate) fn is_storage_fault(err: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind, Error};
    match err {
        Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _) => true,
        Error::DatabaseError(_, info) => is_storage_message(info.message()),
        Error::RollbackErrorOnCommit { commit_error, .. } => is_storage_fault(commit_error),
        _ => false,
    }
}

/// Whether an error's text is one of a database that cannot store (see `is_storage_fault`).
pub(crate) fn is_storage_message(message: &str) -> bool {
    [
        "database or disk is full",
        "attempt to write a readonly database",
        "disk I/O error",
        "unable to open database file",
        "No space left on device",
        "Disk quota exceeded",
        "Read-only file system",
        "in a read-only transaction",
    ]
    .iter()
    .any(|words| message.contains(words))
}

/// SQLite's "database is locked" / "database table is locked" (SQLITE_BUSY, SQLITE_LOCKED)
/// and PostgreSQL's "deadlock detected".
fn is_busy(message: &str) -> bool {
    message.contains("database is locked")
        || message.contains("database table is locked")
        || message.contains("database is busy")
        || message.contains("deadlock detected")
}

impl From<diesel::r2d2::PoolError> for AppError {
    fn from(err: diesel::r2d2::PoolError) -> AppError {
        // The pool's error carries the last failure to connect in its text.
        if is_storage_message(&err.to_string()) {
            tracing::error!("database pool cannot open a connection that stores: {err}");
            return AppError::StorageUnavailable;
        }
        tracing::warn!("database pool: {err}");
        crate::store::connection_health::note_lost();
        AppError::Unavailable
    }
}

pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::result::{DatabaseErrorKind, Error};

    fn database_error(kind: DatabaseErrorKind, message: &str) -> Error {
        Error::DatabaseError(kind, Box::new(message.to_string()))
    }

    #[test]
    fn busy_and_lost_races_are_unavailable_with_retry_after() {
        for err in [
            database_error(DatabaseErrorKind::Unknown, "database is locked"),
            database_error(
                DatabaseErrorKind::SerializationFailure,
                "could not serialize",
            ),
            database_error(DatabaseErrorKind::Unknown, "deadlock detected"),
            // PostgreSQL crashed or restarted while the request was using its connection.
            database_error(DatabaseErrorKind::Unknown, "no connection to the server\n"),
            database_error(
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            database_error(
                DatabaseErrorKind::Unknown,
                "server closed the connection unexpectedly\n\tThis probably means",
            ),
        ] {
            let app = AppError::from(err);
            assert_eq!(app, AppError::Unavailable);
            assert_eq!(app.status(), 503);
            assert!(app.retry_after_secs().is_some());
        }
        let other = AppError::from(database_error(DatabaseErrorKind::Unknown, "syntax error"));
        assert_eq!(other.status(), 500);
    }

    #[test]
    fn a_database_that_cannot_store_is_storage_unavailable_with_retry_after() {
        for err in [
            database_error(DatabaseErrorKind::Unknown, "database or disk is full"),
            database_error(
                DatabaseErrorKind::Unknown,
                "attempt to write a readonly database",
            ),
            database_error(DatabaseErrorKind::Unknown, "disk I/O error"),
            database_error(
                DatabaseErrorKind::Unknown,
                "could not extend file \"base/16384/16385\": No space left on device",
            ),
            database_error(
                DatabaseErrorKind::ReadOnlyTransaction,
                "cannot execute INSERT in a read-only transaction",
            ),
            // A full disk fails SQLite's commit and rolls it back, so diesel's own
            // rollback fails next.
            Error::RollbackErrorOnCommit {
                rollback_error: Box::new(database_error(
                    DatabaseErrorKind::Unknown,
                    "cannot rollback - no transaction is active",
                )),
                commit_error: Box::new(database_error(
                    DatabaseErrorKind::Unknown,
                    "database or disk is full",
                )),
            },
            // The failed commit of a group of writes, as each of its writers reads it.
            database_error(
                DatabaseErrorKind::Unknown,
                "commit failed: Transaction rollback failed: cannot rollback - no transaction \
                 is active (rollback attempted because of failure to commit: database or disk \
                 is full)",
            ),
        ] {
            let app = AppError::from(err);
            assert_eq!(app, AppError::StorageUnavailable);
            assert_eq!(app.status(), 503);
            assert_eq!(app.code(), "storage_unavailable");
            assert!(app.retry_after_secs().is_some());
        }
    }
}
