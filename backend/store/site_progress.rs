//! How far a new site has come: whether it has a club, players, an event and a paired
//! round (the administrator's "start here" list on the home page).
use diesel::prelude::*;

use super::schema::{clubs, events, players, rounds};
use super::{DbConn, QueryResult};

/// (a club, a live profile, an event, a round) exists.
pub fn progress(conn: &mut DbConn) -> QueryResult<(bool, bool, bool, bool)> {
    let club = clubs::table
        .select(clubs::id)
        .first::<i64>(conn)
        .optional()?;
    let player = players::table
        .filter(players::merged_into.is_null())
        .select(players::id)
        .first::<i64>(conn)
        .optional()?;
    let event = events::table
        .select(events::id)
        .first::<i64>(conn)
        .optional()?;
    let round = rounds::table
        .select(rounds::id)
        .first::<i64>(conn)
        .optional()?;
    Ok((
        club.is_some(),
        player.is_some(),
        event.is_some(),
        round.is_some(),
    ))
}
