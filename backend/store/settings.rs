//! Site-wide settings stored as key/value rows (shared by every instance).
use diesel::prelude::*;

use super::schema::site_settings::dsl::*;
use super::{DbConn, QueryResult};

pub fn get(conn: &mut DbConn, name: &str) -> QueryResult<Option<String>> {
    site_settings
        .find(name)
        .select(value)
        .first(conn)
        .optional()
}

pub fn set(conn: &mut DbConn, name: &str, new_value: &str) -> QueryResult<()> {
    let updated = diesel::update(site_settings.find(name))
        .set(value.eq(new_value))
        .execute(conn)?;
    if updated == 0 {
        diesel::insert_into(site_settings)
            .values((key.eq(name), value.eq(new_value)))
            .execute(conn)?;
    }
    Ok(())
}

/// Inserts the value unless the key exists, and returns what is stored. Two instances
/// starting at once both end up with the same value (the second insert loses).
pub fn get_or_init(conn: &mut DbConn, name: &str, initial: &str) -> QueryResult<String> {
    if let Some(existing) = get(conn, name)? {
        return Ok(existing);
    }
    let inserted = diesel::insert_into(site_settings)
        .values((key.eq(name), value.eq(initial)))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(initial.to_string()),
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => get(conn, name)?.ok_or(diesel::result::Error::NotFound),
        Err(e) => Err(e),
    }
}

/// Removes a setting; nothing happens if it is not there.
pub fn remove(conn: &mut DbConn, name: &str) -> QueryResult<()> {
    diesel::delete(site_settings.find(name)).execute(conn)?;
    Ok(())
}
