//! Claiming a player profile: an account without a profile asks for one, and whoever
//! manages the profile (its club's organisers, the organiser who made it, administrators:
//! `ProfileRights::may_manage`) accepts or declines; or such a manager hands out a one-time
//! link, and the account that opens it is linked. Also the suggestions of registration
//! ("is one of these you?") and a profile's audit.
use chrono::NaiveDateTime;
use damka_domain::vocabulary::{ClaimStatus, PlayerChangeAction, Spelling};
use serde::Serialize;

use super::auth::{self, token_hash};
use super::paging::{Page, PageRequest};
use super::players::{self, ProfileRights};
use super::{Actor, AppError, AppResult, Refusal, User};
use crate::store::claims::{self as stored, ClaimRow, NewChange};
use crate::store::models::{PlayerClaim, PlayerClaimLink};
use crate::store::{self, DbConn, accounts};

/// An account's claim on a profile.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ClaimView {
    pub id: i64,
    pub player_id: i64,
    pub player_name: String,
    /// The display name of the account that claims the profile.
    pub claimant: String,
    /// `pending`, `accepted` or `declined`.
    pub status: String,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub created_at: NaiveDateTime,
}

fn status_of(claim: &PlayerClaim) -> AppResult<ClaimStatus> {
    ClaimStatus::from_spelling(&claim.status).ok_or_else(|| {
        AppError::internal(format!(
            "claim {} has the stored status `{}`, of no known kind",
            claim.id, claim.status
        ))
    })
}

fn view((claim, player_name, _club, claimant): ClaimRow) -> AppResult<ClaimView> {
    let status = status_of(&claim)?;
    Ok(ClaimView {
        id: claim.id,
        player_id: claim.player_id,
        player_name,
        claimant,
        status: status.spelling().to_string(),
        created_at: claim.created_at,
    })
}

/// The account as stored now (the actor's copy was read before this transaction).
fn current_user(conn: &mut DbConn, actor: &Actor) -> AppResult<User> {
    let user = actor.require_user()?;
    accounts::user_by_id(conn, user.id)?.ok_or(AppError::Unauthenticated)
}

/// Refuses a profile that belongs to an account, and an account that has a profile.
fn check_free(conn: &mut DbConn, player_id: i64, user: &User) -> AppResult<()> {
    if user.player_id.is_some() {
        return Err(AppError::conflict(Refusal::AccountHasProfile));
    }
    if accounts::user_by_player(conn, player_id)?.is_some() {
        return Err(AppError::conflict(Refusal::ProfileTaken));
    }
    Ok(())
}

/// A signed-in account without a profile asks for this one. Asking again while the claim
/// is open answers the open claim.
pub fn claim(conn: &mut DbConn, actor: &Actor, player_id: i64) -> AppResult<ClaimView> {
    actor.require_user()?;
    conn.write_transaction(|conn| {
        let player = players::live(conn, player_id)?;
        let user = current_user(conn, actor)?;
        check_free(conn, player.id, &user)?;
        let claim = match stored::pending_claim(conn, player.id, user.id)? {
            Some(open) => open,
            None => stored::insert_claim(conn, player.id, user.id, store::now())?,
        };
        view((claim, player.name, player.club_id, user.display_name))
    })
}

/// Where a page of claims continues: the (asked at, id) of the last one shown.
pub type ClaimKey = (NaiveDateTime, i64);

/// A page of the open claims the actor may decide (never the actor's own), oldest first;
/// with `club`, only those on that club's profiles (the club page).
pub fn pending_for(
    conn: &mut DbConn,
    actor: &Actor,
    club: Option<i64>,
    asked: &PageRequest<ClaimKey>,
) -> AppResult<Page<ClaimView>> {
    let Some(decider) = ProfileRights::of(conn, actor)?.decider() else {
        return Ok(Page {
            items: Vec::new(),
            next_cursor: None,
        });
    };
    let fetch = i64::try_from(asked.fetch()).unwrap_or(i64::MAX);
    let rows = stored::pending_claims(conn, &decider, club, asked.after.as_ref(), fetch)?;
    let page = Page::from_rows(rows, asked.limit, |(claim, ..)| {
        (claim.created_at, claim.id)
    });
    Ok(Page {
        items: page.items.into_iter().map(view).collect::<AppResult<_>>()?,
        next_cursor: page.next_cursor,
    })
}

/// The actor's own claims, newest first: what the account page tells them.
pub fn own(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<ClaimView>> {
    let Some(user) = &actor.user else {
        return Ok(Vec::new());
    };
    stored::claims_of_user(conn, user.id)?
        .into_iter()
        .map(view)
        .collect()
}

/// Links the account to the profile and records it in the profile's audit; the other open
/// claims on the profile and of the account are declined (neither can be accepted now).
fn link_account(conn: &mut DbConn, player_id: i64, account: i64, by: i64) -> AppResult<()> {
    let now = store::now();
    accounts::link_player(conn, account, Some(player_id))?;
    stored::close_other_claims(conn, player_id, account, by, now)?;
    stored::record_change(
        conn,
        &NewChange {
            player_id,
            user_id: by,
            action: PlayerChangeAction::AccountLinked,
            other_player_id: None,
            account_id: Some(account),
        },
        now,
    )?;
    Ok(())
}

/// Accepts (the account is linked to the profile) or declines an open claim: those who
/// manage the profile, never the claimant.
pub fn decide(
    conn: &mut DbConn,
    actor: &Actor,
    claim_id: i64,
    accept: bool,
) -> AppResult<ClaimView> {
    let user = actor.require_user()?;
    conn.write_transaction(|conn| {
        let claim = stored::claim(conn, claim_id)?.ok_or(AppError::NotFound { what: "claim" })?;
        let player = players::live(conn, claim.player_id)?;
        if claim.user_id == user.id || !ProfileRights::of(conn, actor)?.may_manage(&player) {
            return Err(AppError::forbidden(Refusal::OnlyProfileManagers));
        }
        if status_of(&claim)? != ClaimStatus::Pending {
            return Err(AppError::conflict(Refusal::ClaimAlreadyDecided));
        }
        let claimant = accounts::user_by_id(conn, claim.user_id)?
            .ok_or(AppError::NotFound { what: "user" })?;
        let status = if accept {
            check_free(conn, player.id, &claimant)?;
            ClaimStatus::Accepted
        } else {
            ClaimStatus::Declined
        };
        if !stored::decide_claim(conn, claim.id, status, user.id, store::now())? {
            return Err(AppError::conflict(Refusal::ClaimAlreadyDecided));
        }
        if accept {
            link_account(conn, player.id, claimant.id, user.id)?;
        }
        let decided = stored::claim(conn, claim.id)?.ok_or(AppError::NotFound { what: "claim" })?;
        view((decided, player.name, player.club_id, claimant.display_name))
    })
}

/// A profile the account might be, as the account page offers it.
#[derive(Debug, Clone)]
pub struct Suggestion {
    pub player_id: i64,
    pub name: String,
    pub club_name: Option<String>,
    pub birth_year: Option<i32>,
}

/// Profiles the account might be (same name as the account, linked to nobody), for an
/// account without a profile; none for one that has a profile.
pub fn suggestions(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<Suggestion>> {
    let Some(user) = &actor.user else {
        return Ok(Vec::new());
    };
    if user.player_id.is_some() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for player in store::players::unclaimed_named(conn, &user.display_name)? {
        let club_name = match player.club_id {
            Some(id) => store::clubs::by_id(conn, id)?.map(|c| c.name),
            None => None,
        };
        found.push(Suggestion {
            player_id: player.id,
            name: player.name,
            club_name,
            birth_year: player.birth_year,
        });
    }
    Ok(found)
}

/// A one-time link's code, shown once to the organiser who made it.
#[derive(Debug, Clone)]
pub struct CreatedLink {
    pub player_id: i64,
    pub code: String,
}

/// A manager of the profile makes a one-time link to it.
pub fn create_link(conn: &mut DbConn, actor: &Actor, player_id: i64) -> AppResult<CreatedLink> {
    let user = actor.require_user()?;
    let code = auth::random_token(24);
    conn.write_transaction(|conn| {
        let player = players::live(conn, player_id)?;
        if !ProfileRights::of(conn, actor)?.may_manage(&player) {
            return Err(AppError::forbidden(Refusal::OnlyProfileManagers));
        }
        if accounts::user_by_player(conn, player.id)?.is_some() {
            return Err(AppError::conflict(Refusal::ProfileTaken));
        }
        stored::insert_link(conn, &token_hash(&code), player.id, user.id, store::now())?;
        Ok(CreatedLink {
            player_id: player.id,
            code,
        })
    })
}

/// What a one-time link would link: the profile (still to be linked by opening it).
#[derive(Debug, Clone)]
pub struct LinkTarget {
    pub player_id: i64,
    pub player_name: String,
}

/// The unused link of a code: 404 for a code of no link, 409 for a used one.
fn unused_link(conn: &mut DbConn, code: &str) -> AppResult<PlayerClaimLink> {
    let link = stored::link_by_hash(conn, &token_hash(code.trim()))?
        .ok_or(AppError::NotFound { what: "link" })?;
    if link.used_by.is_some() || link.used_at.is_some() {
        return Err(AppError::conflict(Refusal::ClaimLinkUsed));
    }
    Ok(link)
}

/// The profile of an unused link: 404 for a code of no link, 409 for a used one.
pub fn link_target(conn: &mut DbConn, code: &str) -> AppResult<LinkTarget> {
    let link = unused_link(conn, code)?;
    let player = players::live(conn, link.player_id)?;
    Ok(LinkTarget {
        player_id: player.id,
        player_name: player.name,
    })
}

/// The signed-in account opens a one-time link: it is linked to the link's profile, once.
pub fn use_link(conn: &mut DbConn, actor: &Actor, code: &str) -> AppResult<i64> {
    actor.require_user()?;
    conn.write_transaction(|conn| {
        let link = unused_link(conn, code)?;
        let player = players::live(conn, link.player_id)?;
        let user = current_user(conn, actor)?;
        check_free(conn, player.id, &user)?;
        if !stored::use_link(conn, link.id, user.id, store::now())? {
            return Err(AppError::conflict(Refusal::ClaimLinkUsed));
        }
        link_account(conn, player.id, user.id, link.created_by)?;
        Ok(player.id)
    })
}

/// One row of a profile's audit as its page shows it.
#[derive(Debug, Clone)]
pub struct ChangeView {
    pub at: NaiveDateTime,
    /// Who acted.
    pub by: String,
    pub action: PlayerChangeAction,
    /// The other profile of a merge.
    pub other_player_id: Option<i64>,
    /// The account linked (its display name).
    pub account: Option<String>,
}

/// The most changes of a profile's audit its page shows (merges and account links: a
/// profile rarely has more than a few).
pub const AUDIT_SHOWN: usize = 50;

/// The profile's audit, the latest [`AUDIT_SHOWN`] changes, newest first, for those who
/// manage it (empty for others).
pub fn audit(conn: &mut DbConn, actor: &Actor, player_id: i64) -> AppResult<Vec<ChangeView>> {
    if !players::can_manage(conn, actor, player_id)? {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    for (change, by) in stored::changes_of(conn, player_id, AUDIT_SHOWN)? {
        let action = PlayerChangeAction::from_spelling(&change.action).ok_or_else(|| {
            AppError::internal(format!(
                "profile change {} has the stored action `{}`, of no known kind",
                change.id, change.action
            ))
        })?;
        let account = match change.account_id {
            Some(id) => accounts::user_by_id(conn, id)?.map(|u| u.display_name),
            None => None,
        };
        found.push(ChangeView {
            at: change.changed_at,
            by,
            action,
            other_player_id: change.other_player_id,
            account,
        });
    }
    Ok(found)
}
