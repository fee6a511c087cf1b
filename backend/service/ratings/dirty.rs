//! Ratings that a committed write has made stale, until they are recomputed.
//!
//! A write that changes what counts (see `recompute`) does not recompute inside its own
//! transaction: it marks the variant dirty there (`mark`, a site setting per variant,
//! written under the variant's rating lock), and the recompute runs right after the commit
//! (`crate::service::effects::apply`, before the answer is sent), clearing the mark in the
//! same transaction as the ratings it writes (`clear`). A process that dies between the
//! two leaves the mark, and the next start-up recomputes that variant (`marked`,
//! `effects::finish_leftovers`), so stored ratings are never stale for long, nor silently.
//!
//! Why the mark takes the variant's lock: a recompute holds the lock while it reads the
//! results and clears the mark. A mark made while a recompute runs therefore waits for it
//! and survives it; a recompute that starts while a write holding a mark is not yet
//! committed waits for that commit and reads its result. So a cleared mark always means
//! "every result committed with this mark is in the stored ratings".
use damka_engine::Variant;

use crate::service::AppResult;
use crate::store::{DbConn, ratings as stored, settings};
use damka_domain::vocabulary::Spelling;

/// The site setting that marks a variant's ratings stale.
fn key(variant: Variant) -> String {
    format!("ratings.dirty.{}", variant.spelling())
}

/// Marks the variant's ratings stale, inside the write that made them so; takes the
/// variant's rating lock for the rest of that transaction (the last lock a write takes).
pub fn mark(conn: &mut DbConn, variant: Variant) -> AppResult<()> {
    stored::lock_variant(conn, variant)?;
    settings::set(conn, &key(variant), &crate::store::now().to_string())?;
    Ok(())
}

/// Clears the variant's mark, inside the transaction of the recompute that made its
/// ratings current (it holds the variant's lock).
pub fn clear(conn: &mut DbConn, variant: Variant) -> AppResult<()> {
    settings::remove(conn, &key(variant))?;
    Ok(())
}

/// The variants marked stale: at start-up, what a stopped process left to recompute.
pub fn marked(conn: &mut DbConn) -> AppResult<Vec<Variant>> {
    let mut found = Vec::new();
    for variant in Variant::ALL {
        if settings::get(conn, &key(variant))?.is_some() {
            found.push(variant);
        }
    }
    Ok(found)
}
