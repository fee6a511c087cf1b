//! Rating work asked for and under way: the requests writes append ("refold variant V
//! from instant T") and the per-variant progress of the catch-up that takes them in.
use chrono::NaiveDateTime;
use damka_engine::Variant;
use diesel::prelude::*;

use super::columns::Spelled;
use super::schema::{rating_requests, rating_variants};
use super::{DbConn, QueryResult};

/// Asks for the variant's ratings to be refolded from `from`; inside the write that made
/// it necessary. An insert, so no write waits for another's request or for a catch-up.
pub fn request(conn: &mut DbConn, variant: Variant, from: NaiveDateTime) -> QueryResult<()> {
    diesel::insert_into(rating_requests::table)
        .values((
            rating_requests::variant.eq(Spelled(variant)),
            rating_requests::from_at.eq(from),
            rating_requests::requested_at.eq(super::now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The requests waiting for the variant: the earliest instant asked for and the last
/// request's id (the catch-up takes the requests up to it).
pub fn pending(
    conn: &mut DbConn,
    variant: Variant,
) -> QueryResult<(Option<NaiveDateTime>, Option<i64>)> {
    rating_requests::table
        .filter(rating_requests::variant.eq(Spelled(variant)))
        .select((
            diesel::dsl::min(rating_requests::from_at),
            diesel::dsl::max(rating_requests::id),
        ))
        .first(conn)
}

/// Removes the requests a catch-up has merged into its progress.
pub fn take(conn: &mut DbConn, variant: Variant, up_to: i64) -> QueryResult<()> {
    diesel::delete(
        rating_requests::table
            .filter(rating_requests::variant.eq(Spelled(variant)))
            .filter(rating_requests::id.le(up_to)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Where a variant's catch-up stands: refolded up to `from` (exclusive), since `since`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub from: Option<NaiveDateTime>,
    pub since: Option<NaiveDateTime>,
}

/// Claims the variant's catch-up for this transaction: locks its row. With `wait` false a
/// row another transaction holds is skipped (`None`): on PostgreSQL `FOR UPDATE SKIP
/// LOCKED`, so two instances never run the same batch; a SQLite write transaction already
/// excludes every other writer.
pub fn claim(conn: &mut DbConn, variant: Variant, wait: bool) -> QueryResult<Option<Progress>> {
    super::ratings::ensure_variant_row(conn, variant)?;
    let query = rating_variants::table
        .find(Spelled(variant))
        .select((rating_variants::stale_from, rating_variants::stale_since));
    let row: Option<(Option<NaiveDateTime>, Option<NaiveDateTime>)> = match conn {
        DbConn::Pg(pg) if wait => query.for_update().first(pg).optional()?,
        DbConn::Pg(pg) => query.for_update().skip_locked().first(pg).optional()?,
        DbConn::Sqlite(_) => query.first(conn).optional()?,
    };
    Ok(row.map(|(from, since)| Progress { from, since }))
}

/// Where the variant's catch-up stands, read without a lock.
pub fn progress(conn: &mut DbConn, variant: Variant) -> QueryResult<Progress> {
    let row: Option<(Option<NaiveDateTime>, Option<NaiveDateTime>)> = rating_variants::table
        .find(Spelled(variant))
        .select((rating_variants::stale_from, rating_variants::stale_since))
        .first(conn)
        .optional()?;
    let (from, since) = row.unwrap_or((None, None));
    Ok(Progress { from, since })
}

/// Records how far the variant's catch-up has got; both `None` when it is done. Bumps the
/// revision, which tells that ratings were computed.
pub fn set_progress(conn: &mut DbConn, variant: Variant, progress: Progress) -> QueryResult<()> {
    diesel::update(rating_variants::table.find(Spelled(variant)))
        .set((
            rating_variants::stale_from.eq(progress.from),
            rating_variants::stale_since.eq(progress.since),
            rating_variants::revision.eq(rating_variants::revision + 1),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The variants whose ratings are behind their results: a catch-up under way (with when
/// it began) or requests waiting (with the first one's time).
pub fn behind(conn: &mut DbConn) -> QueryResult<Vec<(Variant, NaiveDateTime)>> {
    let mut found: Vec<(Variant, NaiveDateTime)> = rating_variants::table
        .filter(rating_variants::stale_since.is_not_null())
        .select((rating_variants::variant, rating_variants::stale_since))
        .load::<(Variant, Option<NaiveDateTime>)>(conn)?
        .into_iter()
        .filter_map(|(variant, since)| Some((variant, since?)))
        .collect();
    let waiting: Vec<(Variant, Option<NaiveDateTime>)> = rating_requests::table
        .group_by(rating_requests::variant)
        .select((
            rating_requests::variant,
            diesel::dsl::min(rating_requests::requested_at),
        ))
        .load(conn)?;
    for (variant, since) in waiting {
        if let Some(since) = since
            && !found.iter().any(|(v, _)| *v == variant)
        {
            found.push((variant, since));
        }
    }
    Ok(found)
}
