//! Moving everything of one player profile onto another (a merge of two profiles of one
//! person): entries, games, claims, links, requests, the account, the starting ratings.
use diesel::prelude::*;

use super::schema::{
    club_join_requests, entries, event_invitation_uses, events, games, glicko2_starts,
    player_claim_links, player_claims, player_ratings, players, rating_changes, ratings, users,
};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{JoinRequestStatus, Spelling};

/// The name of an event both profiles are entered in, if there is one.
pub fn shared_event(conn: &mut DbConn, first: i64, second: i64) -> QueryResult<Option<String>> {
    let (a, b) = diesel::alias!(entries as a, entries as b);
    a.inner_join(b.on(b.field(entries::event_id).eq(a.field(entries::event_id))))
        .inner_join(events::table.on(events::id.eq(a.field(entries::event_id))))
        .filter(a.field(entries::player_id).eq(first))
        .filter(b.field(entries::player_id).eq(second))
        .select(events::name)
        .first(conn)
        .optional()
}

/// Moves the entries (with the record of the invitation links they came through), games,
/// claims, links and the account of `from` onto `into`. The caller has checked that they
/// share no event and not both have an account.
pub fn move_rows(conn: &mut DbConn, from: i64, into: i64) -> QueryResult<()> {
    diesel::update(entries::table.filter(entries::player_id.eq(from)))
        .set(entries::player_id.eq(into))
        .execute(conn)?;
    // Who joined through an invitation link follows the entry it made.
    diesel::update(event_invitation_uses::table.filter(event_invitation_uses::player_id.eq(from)))
        .set(event_invitation_uses::player_id.eq(into))
        .execute(conn)?;
    diesel::update(games::table.filter(games::white_player_id.eq(from)))
        .set(games::white_player_id.eq(into))
        .execute(conn)?;
    diesel::update(games::table.filter(games::black_player_id.eq(from)))
        .set(games::black_player_id.eq(into))
        .execute(conn)?;
    diesel::update(player_claims::table.filter(player_claims::player_id.eq(from)))
        .set(player_claims::player_id.eq(into))
        .execute(conn)?;
    diesel::update(player_claim_links::table.filter(player_claim_links::player_id.eq(from)))
        .set(player_claim_links::player_id.eq(into))
        .execute(conn)?;
    move_join_requests(conn, from, into)?;
    diesel::update(users::table.filter(users::player_id.eq(from)))
        .set(users::player_id.eq(into))
        .execute(conn)?;
    Ok(())
}

/// A pending request of `from` to a club `into` already asked to join is dropped (at most
/// one open request per profile and club); every other request moves.
fn move_join_requests(conn: &mut DbConn, from: i64, into: i64) -> QueryResult<()> {
    let pending = JoinRequestStatus::Pending.spelling();
    let asked: Vec<i64> = club_join_requests::table
        .filter(club_join_requests::player_id.eq(into))
        .filter(club_join_requests::status.eq(pending))
        .select(club_join_requests::club_id)
        .load(conn)?;
    diesel::delete(
        club_join_requests::table
            .filter(club_join_requests::player_id.eq(from))
            .filter(club_join_requests::status.eq(pending))
            .filter(club_join_requests::club_id.eq_any(asked)),
    )
    .execute(conn)?;
    diesel::update(club_join_requests::table.filter(club_join_requests::player_id.eq(from)))
        .set(club_join_requests::player_id.eq(into))
        .execute(conn)?;
    Ok(())
}

/// The starting ratings (imported Elo, Glicko-2 starts) of `from` go to `into` where
/// `into` has none in that variant, and are dropped where it has; the computed ratings of
/// `from` are dropped (the recompute that follows builds `into`'s from the games).
pub fn move_ratings(conn: &mut DbConn, from: i64, into: i64) -> QueryResult<()> {
    let elo_kept: Vec<String> = player_ratings::table
        .filter(player_ratings::player_id.eq(into))
        .select(player_ratings::variant)
        .load(conn)?;
    diesel::delete(
        player_ratings::table
            .filter(player_ratings::player_id.eq(from))
            .filter(player_ratings::variant.eq_any(&elo_kept)),
    )
    .execute(conn)?;
    diesel::update(player_ratings::table.filter(player_ratings::player_id.eq(from)))
        .set(player_ratings::player_id.eq(into))
        .execute(conn)?;
    let glicko_kept: Vec<String> = glicko2_starts::table
        .filter(glicko2_starts::player_id.eq(into))
        .select(glicko2_starts::variant)
        .load(conn)?;
    diesel::delete(
        glicko2_starts::table
            .filter(glicko2_starts::player_id.eq(from))
            .filter(glicko2_starts::variant.eq_any(&glicko_kept)),
    )
    .execute(conn)?;
    diesel::update(glicko2_starts::table.filter(glicko2_starts::player_id.eq(from)))
        .set(glicko2_starts::player_id.eq(into))
        .execute(conn)?;
    diesel::delete(rating_changes::table.filter(rating_changes::player_id.eq(from)))
        .execute(conn)?;
    diesel::delete(ratings::table.filter(ratings::player_id.eq(from))).execute(conn)?;
    Ok(())
}

/// Marks `from` as merged into `into`; profiles merged into `from` earlier now point at
/// `into` too, so every old id leads to the survivor in one step.
pub fn mark_merged(conn: &mut DbConn, from: i64, into: i64) -> QueryResult<()> {
    diesel::update(players::table.filter(players::merged_into.eq(from)))
        .set(players::merged_into.eq(into))
        .execute(conn)?;
    diesel::update(players::table.find(from))
        .set(players::merged_into.eq(into))
        .execute(conn)?;
    Ok(())
}
