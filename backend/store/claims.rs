//! Claims of accounts on player profiles, the one-time links that link an account to a
//! profile, and a profile's audit (`player_changes`).
use diesel::prelude::*;

use super::models::{PlayerChange, PlayerClaim, PlayerClaimLink};
use super::schema::{player_changes, player_claim_links, player_claims, players, users};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{ClaimStatus, PlayerChangeAction, Spelling};

pub fn insert_claim(
    conn: &mut DbConn,
    player_id: i64,
    user_id: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<PlayerClaim> {
    diesel::insert_into(player_claims::table)
        .values((
            player_claims::player_id.eq(player_id),
            player_claims::user_id.eq(user_id),
            player_claims::status.eq(ClaimStatus::Pending.spelling()),
            player_claims::created_at.eq(at),
        ))
        .returning(player_claims::all_columns)
        .get_result(conn)
}

pub fn claim(conn: &mut DbConn, claim_id: i64) -> QueryResult<Option<PlayerClaim>> {
    player_claims::table
        .find(claim_id)
        .select(PlayerClaim::as_select())
        .first(conn)
        .optional()
}

/// The account's open claim on the profile, if any.
pub fn pending_claim(
    conn: &mut DbConn,
    player_id: i64,
    user_id: i64,
) -> QueryResult<Option<PlayerClaim>> {
    player_claims::table
        .filter(player_claims::player_id.eq(player_id))
        .filter(player_claims::user_id.eq(user_id))
        .filter(player_claims::status.eq(ClaimStatus::Pending.spelling()))
        .select(PlayerClaim::as_select())
        .first(conn)
        .optional()
}

/// A claim with what its views show: the profile's name and club, the claimant's name.
pub type ClaimRow = (PlayerClaim, String, Option<i64>, String);

/// Whose open claims one account decides, as `ProfileRights::may_manage` says: claims on
/// every profile (administrators), or on the profiles of the clubs it organises and on those
/// it made as an organiser; never its own claims.
#[derive(Debug, Clone)]
pub struct Decider {
    pub user_id: i64,
    pub every_profile: bool,
    pub clubs: Vec<i64>,
    pub profiles_it_made: bool,
}

/// A page of the open claims a decider decides (optionally only on one club's profiles),
/// oldest first by (asked at, id), with the profile's name and club and the claimant's
/// display name: at most `fetch` after the key `after`.
pub fn pending_claims(
    conn: &mut DbConn,
    decider: &Decider,
    club: Option<i64>,
    after: Option<&(chrono::NaiveDateTime, i64)>,
    fetch: i64,
) -> QueryResult<Vec<ClaimRow>> {
    let mut query = player_claims::table
        .inner_join(players::table)
        .inner_join(users::table)
        .filter(player_claims::status.eq(ClaimStatus::Pending.spelling()))
        .filter(player_claims::user_id.ne(decider.user_id))
        .select((
            PlayerClaim::as_select(),
            players::name,
            players::club_id,
            users::display_name,
        ))
        .into_boxed();
    if !decider.every_profile {
        let clubs = decider.clubs.clone();
        query = if decider.profiles_it_made {
            query.filter(
                players::club_id
                    .eq_any(clubs)
                    .or(players::created_by.eq(decider.user_id)),
            )
        } else {
            query.filter(players::club_id.eq_any(clubs))
        };
    }
    if let Some(club) = club {
        query = query.filter(players::club_id.eq(club));
    }
    if let Some((at, id)) = after {
        query = query.filter(
            player_claims::created_at
                .gt(*at)
                .or(player_claims::created_at
                    .eq(*at)
                    .and(player_claims::id.gt(*id))),
        );
    }
    query
        .order((player_claims::created_at, player_claims::id))
        .limit(fetch)
        .load(conn)
}

/// The account's claims, newest first, with the profile's name and club.
pub fn claims_of_user(conn: &mut DbConn, user_id: i64) -> QueryResult<Vec<ClaimRow>> {
    player_claims::table
        .inner_join(players::table)
        .inner_join(users::table)
        .filter(player_claims::user_id.eq(user_id))
        .order((player_claims::created_at.desc(), player_claims::id.desc()))
        .select((
            PlayerClaim::as_select(),
            players::name,
            players::club_id,
            users::display_name,
        ))
        .load(conn)
}

/// Closes a pending claim; returns whether it was still pending (of two deciding at once,
/// one decides).
pub fn decide_claim(
    conn: &mut DbConn,
    claim_id: i64,
    status: ClaimStatus,
    decided_by: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<bool> {
    diesel::update(
        player_claims::table
            .find(claim_id)
            .filter(player_claims::status.eq(ClaimStatus::Pending.spelling())),
    )
    .set((
        player_claims::status.eq(status.spelling()),
        player_claims::decided_by.eq(decided_by),
        player_claims::decided_at.eq(at),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

/// Declines the other open claims on a profile once it has an account, and the other open
/// claims of an account once it has a profile: neither can be accepted any more.
pub fn close_other_claims(
    conn: &mut DbConn,
    player_id: i64,
    user_id: i64,
    decided_by: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(
        player_claims::table
            .filter(player_claims::status.eq(ClaimStatus::Pending.spelling()))
            .filter(
                player_claims::player_id
                    .eq(player_id)
                    .or(player_claims::user_id.eq(user_id)),
            ),
    )
    .set((
        player_claims::status.eq(ClaimStatus::Declined.spelling()),
        player_claims::decided_by.eq(decided_by),
        player_claims::decided_at.eq(at),
    ))
    .execute(conn)
    .map(|_| ())
}

pub fn insert_link(
    conn: &mut DbConn,
    code_hash: &str,
    player_id: i64,
    created_by: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<PlayerClaimLink> {
    diesel::insert_into(player_claim_links::table)
        .values((
            player_claim_links::code_hash.eq(code_hash),
            player_claim_links::player_id.eq(player_id),
            player_claim_links::created_by.eq(created_by),
            player_claim_links::created_at.eq(at),
        ))
        .returning(player_claim_links::all_columns)
        .get_result(conn)
}

pub fn link_by_hash(conn: &mut DbConn, code_hash: &str) -> QueryResult<Option<PlayerClaimLink>> {
    player_claim_links::table
        .filter(player_claim_links::code_hash.eq(code_hash))
        .select(PlayerClaimLink::as_select())
        .first(conn)
        .optional()
}

/// Marks a link used; returns whether it was still unused (of two opening it at once, one
/// is linked).
pub fn use_link(
    conn: &mut DbConn,
    link_id: i64,
    user_id: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<bool> {
    diesel::update(
        player_claim_links::table
            .find(link_id)
            .filter(player_claim_links::used_by.is_null())
            .filter(player_claim_links::used_at.is_null()),
    )
    .set((
        player_claim_links::used_by.eq(user_id),
        player_claim_links::used_at.eq(at),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

/// One row of a profile's audit.
pub struct NewChange {
    pub player_id: i64,
    pub user_id: i64,
    pub action: PlayerChangeAction,
    pub other_player_id: Option<i64>,
    pub account_id: Option<i64>,
}

pub fn record_change(
    conn: &mut DbConn,
    change: &NewChange,
    at: chrono::NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(player_changes::table)
        .values((
            player_changes::player_id.eq(change.player_id),
            player_changes::user_id.eq(change.user_id),
            player_changes::changed_at.eq(at),
            player_changes::action.eq(change.action.spelling()),
            player_changes::other_player_id.eq(change.other_player_id),
            player_changes::account_id.eq(change.account_id),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A profile's audit, the latest `limit` changes, newest first, with the display name of
/// who acted.
pub fn changes_of(
    conn: &mut DbConn,
    player_id: i64,
    limit: usize,
) -> QueryResult<Vec<(PlayerChange, String)>> {
    player_changes::table
        .inner_join(users::table)
        .filter(player_changes::player_id.eq(player_id))
        .order((player_changes::changed_at.desc(), player_changes::id.desc()))
        .limit(limit as i64)
        .select((PlayerChange::as_select(), users::display_name))
        .load(conn)
}
