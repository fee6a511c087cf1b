//! Limits on password comparisons (sign-in, and the current password on a password
//! change): at most 5 failures per account or 20 per client address within 15 minutes,
//! shared by every instance because the attempts are stored.
//!
//! An attempt is recorded, and committed, BEFORE its password is compared, and the attempts
//! are counted after that commit. Of simultaneous attempts, the k-th to commit counts at
//! least k, so at most the limit of them are ever compared, however they interleave and
//! on however many instances. (Counting first and recording the failure afterwards let
//! every one of a burst through: all of them counted before any had failed.)
//!
//! The attempts are also counted once before recording: an account or address that is
//! already over its limit is turned away without a write, so someone who keeps trying
//! while blocked neither extends the block nor loads the database with writes.
use chrono::{Duration, NaiveDateTime};

use super::{AppError, AppResult};
use crate::store::accounts::{self, AttemptsOf};
use crate::store::{self, DbConn};

pub const MAX_FAILURES_PER_ACCOUNT: i64 = 5;
pub const MAX_FAILURES_PER_ADDRESS: i64 = 20;
pub const FAILURE_WINDOW_MINUTES: i64 = 15;
/// Attempts older than this are deleted now and then; only the window matters.
const KEEP_ATTEMPTS_DAYS: i64 = 1;

/// Whose password is being tried, and from where.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The account's e-mail address (lower-cased), known or not.
    pub account: String,
    /// The client address (see `web::client_address`).
    pub address: String,
}

impl Attempt {
    /// Control characters are dropped: no stored e-mail holds any (registration refuses
    /// them) and PostgreSQL cannot store text holding NUL.
    pub fn new(account: &str, address: &str) -> Attempt {
        let clean = |text: &str| text.chars().filter(|c| !c.is_control()).collect();
        Attempt {
            account: clean(account),
            address: clean(address),
        }
    }
}

/// Runs `compare` (the slow password comparison: `Some` when the password is right) unless
/// the account or the address has used up its failures, in which case it is not run and
/// `TooManyAttempts` says when to retry. A right password does not count as a failure.
/// Call it outside any transaction: the attempt must be committed before it is counted.
pub fn limited<T>(
    conn: &mut DbConn,
    attempt: &Attempt,
    compare: impl FnOnce(&mut DbConn) -> AppResult<Option<T>>,
) -> AppResult<Option<T>> {
    let now = store::now();
    if let Some(retry_after_secs) = retry_after(conn, attempt, now, ThisAttempt::NotRecorded)? {
        return Err(AppError::TooManyAttempts { retry_after_secs });
    }
    let id = conn.write_transaction(|conn| {
        accounts::prune_attempts(conn, now - Duration::days(KEEP_ATTEMPTS_DAYS))?;
        accounts::record_attempt(conn, &attempt.account, &attempt.address, now)
    })?;
    // Counted after the commit above, never inside its transaction: a transaction would
    // not see the attempts other transactions are recording at the same moment.
    if let Some(retry_after_secs) = retry_after(conn, attempt, now, ThisAttempt::Recorded)? {
        return Err(AppError::TooManyAttempts { retry_after_secs });
    }
    let outcome = compare(conn)?;
    if outcome.is_some() {
        conn.write_transaction(|conn| accounts::mark_attempt_succeeded(conn, id))?;
    }
    Ok(outcome)
}

/// Whether the attempt being decided is among the ones counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ThisAttempt {
    NotRecorded,
    Recorded,
}

/// Seconds until the attempt may be made, when the account or the address is over its
/// limit.
fn retry_after(
    conn: &mut DbConn,
    attempt: &Attempt,
    now: NaiveDateTime,
    this_attempt: ThisAttempt,
) -> AppResult<Option<u64>> {
    let window = Duration::minutes(FAILURE_WINDOW_MINUTES);
    let this_attempt = i64::from(this_attempt == ThisAttempt::Recorded);
    let mut wait: Option<u64> = None;
    for (of, limit) in [
        (
            AttemptsOf::Account(&attempt.account),
            MAX_FAILURES_PER_ACCOUNT,
        ),
        (
            AttemptsOf::Address(&attempt.address),
            MAX_FAILURES_PER_ADDRESS,
        ),
    ] {
        let (counted, oldest) = accounts::count_unsucceeded_attempts(conn, of, now - window)?;
        if counted - this_attempt >= limit {
            let free_at = oldest.unwrap_or(now) + window;
            let secs = (free_at - now).num_seconds().max(1) as u64;
            wait = Some(wait.map_or(secs, |w| w.max(secs)));
        }
    }
    Ok(wait)
}
