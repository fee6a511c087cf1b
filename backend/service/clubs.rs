//! Clubs: list, view, create, edit, their organisers and members, and players' requests
//! to join them.
use chrono::NaiveDateTime;
use damka_domain::vocabulary::{ClubRole, JoinRequestStatus, Spelling, spellings};
use serde::{Deserialize, Serialize};

use super::paging::{Page, PageRequest};
use super::{Actor, AppError, AppResult, Refusal, validate};
use crate::store::models::{Club, ClubFields, ClubJoinRequest};
use crate::store::{self, DbConn, clubs};

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct ClubInput {
    pub name: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub country: String,
    #[serde(default)]
    pub description: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ClubView {
    pub id: i64,
    pub name: String,
    pub city: String,
    pub country: String,
    pub description: String,
    /// When it was archived (left out of the lists, closed to changes); null when it is not.
    #[serde(serialize_with = "crate::service::utc_json::optional")]
    pub archived_at: Option<chrono::NaiveDateTime>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MemberView {
    pub user_id: i64,
    pub display_name: String,
    #[schema(value_type = String)]
    pub role: ClubRole,
}

impl From<Club> for ClubView {
    fn from(c: Club) -> ClubView {
        ClubView {
            id: c.id,
            name: c.name,
            city: c.city,
            country: c.country,
            description: c.description,
            archived_at: c.archived_at,
        }
    }
}

fn fields(input: &ClubInput) -> AppResult<ClubFields> {
    Ok(ClubFields {
        name: validate::required("name", &input.name, 100)?,
        city: validate::optional("city", &input.city, 100)?,
        country: validate::country(&input.country)?,
        description: validate::multiline("description", &input.description, 2000)?,
    })
}

pub fn can_edit(conn: &mut DbConn, actor: &Actor, club_id: i64) -> AppResult<bool> {
    let Some(user) = &actor.user else {
        return Ok(false);
    };
    Ok(user.is_admin || clubs::role_of(conn, club_id, user.id)? == Some(ClubRole::Organiser))
}

/// Administrators and organisers found clubs; the founder becomes the club's organiser.
pub fn create(conn: &mut DbConn, actor: &Actor, input: &ClubInput) -> AppResult<ClubView> {
    let user = actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateClubs));
    }
    let fields = fields(input)?;
    conn.write_transaction(|conn| {
        if clubs::by_name(conn, &fields.name)?.is_some() {
            return Err(AppError::invalid("name", Refusal::ClubNameTaken));
        }
        let club = clubs::insert(conn, &fields, store::now())?;
        clubs::add_member(conn, club.id, user.id, ClubRole::Organiser)?;
        Ok(ClubView::from(club))
    })
}

pub fn update(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    input: &ClubInput,
) -> AppResult<ClubView> {
    actor.require_user()?;
    let fields = fields(input)?;
    conn.write_transaction(|conn| {
        clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
        if !can_edit(conn, actor, club_id)? {
            return Err(AppError::forbidden(Refusal::OnlyClubOrganisersEdit));
        }
        crate::service::archived::require_club_not_archived(conn, club_id)?;
        if let Some(other) = clubs::by_name(conn, &fields.name)?
            && other.id != club_id
        {
            return Err(AppError::invalid("name", Refusal::ClubNameTaken));
        }
        Ok(ClubView::from(clubs::update(conn, club_id, &fields)?))
    })
}

pub fn get(conn: &mut DbConn, club_id: i64) -> AppResult<ClubView> {
    clubs::by_id(conn, club_id)?
        .map(ClubView::from)
        .ok_or(AppError::NotFound { what: "club" })
}

/// Where a page of clubs or members continues: the (name, id) of the last one shown.
pub type NameKey = (String, i64);
/// Where a page of requests continues: the (asked at, id) of the last one shown.
pub type RequestKey = (NaiveDateTime, i64);

/// A page of clubs by name.
pub fn page(conn: &mut DbConn, asked: &PageRequest<NameKey>) -> AppResult<Page<ClubView>> {
    let rows = clubs::page(conn, asked.after.as_ref(), fetch(asked))?;
    Ok(Page::from_rows(rows, asked.limit, |c| (c.name.clone(), c.id)).map(ClubView::from))
}

/// How many rows a page query reads (one more than the page holds).
fn fetch<K>(asked: &PageRequest<K>) -> i64 {
    i64::try_from(asked.fetch()).unwrap_or(i64::MAX)
}

/// Every club, by name: for the choice of a club in a form or a filter, not for a list.
pub fn list(conn: &mut DbConn) -> AppResult<Vec<ClubView>> {
    Ok(clubs::list(conn)?.into_iter().map(ClubView::from).collect())
}

/// The clubs `actor` may put an event or a profile in (administrators: every club; others:
/// the clubs they organise), and `keep` (the club a form already shows) whatever it is.
pub fn attachable(conn: &mut DbConn, actor: &Actor, keep: Option<i64>) -> AppResult<Vec<ClubView>> {
    let mut out = Vec::new();
    for club in clubs::list(conn)? {
        if Some(club.id) == keep || can_edit(conn, actor, club.id)? {
            out.push(ClubView::from(club));
        }
    }
    Ok(out)
}

/// A page of the club's organisers and members, by display name (404 for no such club).
pub fn members(
    conn: &mut DbConn,
    club_id: i64,
    asked: &PageRequest<NameKey>,
) -> AppResult<Page<MemberView>> {
    clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
    let rows = clubs::members(conn, club_id, asked.after.as_ref(), fetch(asked))?;
    Ok(Page::from_rows(rows, asked.limit, |(user, _)| {
        (user.display_name.clone(), user.id)
    })
    .map(|(user, role)| MemberView {
        user_id: user.id,
        display_name: user.display_name,
        role,
    }))
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct MemberInput {
    pub email: String,
    /// `organiser` or `member`.
    pub role: String,
}

/// Adds an account to a club (or changes its role there). Club organisers and admins.
pub fn add_member(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    input: &MemberInput,
) -> AppResult<()> {
    actor.require_user()?;
    let Some(role) = ClubRole::from_spelling(&input.role) else {
        return Err(AppError::invalid(
            "role",
            Refusal::not_one_of(&spellings::<ClubRole>()),
        ));
    };
    let email = validate::email(&input.email)?;
    conn.write_transaction(|conn| {
        clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
        if !can_edit(conn, actor, club_id)? {
            return Err(AppError::forbidden(
                Refusal::OnlyClubOrganisersChangeMembers,
            ));
        }
        crate::service::archived::require_club_not_archived(conn, club_id)?;
        let user = store::accounts::user_by_email(conn, &email)?
            .ok_or_else(|| AppError::invalid("email", Refusal::NoAccountWithEmail))?;
        clubs::add_member(conn, club_id, user.id, role)?;
        Ok(())
    })
}

/// A player's request to have their profile in a club.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct JoinRequestView {
    pub id: i64,
    pub club_id: i64,
    pub player_id: i64,
    pub player_name: String,
    /// The display name of the account that asked.
    pub requested_by: String,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub requested_at: NaiveDateTime,
    /// `pending`, `accepted` or `declined`.
    pub status: String,
}

fn request_view(
    request: ClubJoinRequest,
    player_name: String,
    requested_by: String,
) -> AppResult<JoinRequestView> {
    let status = JoinRequestStatus::from_spelling(&request.status).ok_or_else(|| {
        AppError::internal(format!(
            "join request {} has the stored status `{}`, of no known kind",
            request.id, request.status
        ))
    })?;
    Ok(JoinRequestView {
        id: request.id,
        club_id: request.club_id,
        player_id: request.player_id,
        player_name,
        requested_by,
        requested_at: request.requested_at,
        status: status.spelling().to_string(),
    })
}

fn require_club_organiser(conn: &mut DbConn, actor: &Actor, club_id: i64) -> AppResult<()> {
    actor.require_user()?;
    clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
    if can_edit(conn, actor, club_id)? {
        Ok(())
    } else {
        Err(AppError::forbidden(
            Refusal::OnlyClubOrganisersAnswerRequests,
        ))
    }
}

/// A page of the club's open requests, oldest first (its organisers and administrators).
pub fn join_requests(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    asked: &PageRequest<RequestKey>,
) -> AppResult<Page<JoinRequestView>> {
    require_club_organiser(conn, actor, club_id)?;
    let rows = clubs::pending_requests(conn, club_id, asked.after.as_ref(), fetch(asked))?;
    let page = Page::from_rows(rows, asked.limit, |(request, ..)| {
        (request.requested_at, request.id)
    });
    let items = page
        .items
        .into_iter()
        .map(|(request, player, by)| request_view(request, player, by))
        .collect::<AppResult<Vec<_>>>()?;
    Ok(Page {
        items,
        next_cursor: page.next_cursor,
    })
}

/// Where the actor's own profile stands with this club, for the club page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OwnMembership {
    /// Not signed in, or signed in without a profile.
    NoProfile,
    Member,
    Pending,
    /// May ask to join.
    Outside,
}

pub fn own_membership(conn: &mut DbConn, actor: &Actor, club_id: i64) -> AppResult<OwnMembership> {
    let Some(player_id) = actor.user.as_ref().and_then(|u| u.player_id) else {
        return Ok(OwnMembership::NoProfile);
    };
    let Some(player) = store::players::by_id(conn, player_id)? else {
        return Ok(OwnMembership::NoProfile);
    };
    Ok(if player.club_id == Some(club_id) {
        OwnMembership::Member
    } else if clubs::pending_request(conn, club_id, player_id)?.is_some() {
        OwnMembership::Pending
    } else {
        OwnMembership::Outside
    })
}

/// A player asks for their own profile to be in this club. Nothing changes on the profile
/// until one of the club's organisers accepts.
pub fn request_to_join(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
) -> AppResult<JoinRequestView> {
    let user = actor.require_user()?;
    let player_id = user
        .player_id
        .ok_or_else(|| AppError::invalid("player_id", Refusal::NoProfileToJoinClub))?;
    conn.write_transaction(|conn| {
        clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
        crate::service::archived::require_club_not_archived(conn, club_id)?;
        let player =
            store::players::by_id(conn, player_id)?.ok_or(AppError::NotFound { what: "player" })?;
        if player.club_id == Some(club_id) {
            return Err(AppError::conflict(Refusal::AlreadyInClub));
        }
        if clubs::pending_request(conn, club_id, player_id)?.is_some() {
            return Err(AppError::conflict(Refusal::JoinRequestPending));
        }
        let request = clubs::insert_request(conn, club_id, player_id, user.id, store::now())?;
        request_view(request, player.name, user.display_name.clone())
    })
}

/// Accepts (the profile moves into the club) or declines (nothing changes) an open
/// request. The club's organisers and administrators.
pub fn answer_join_request(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    request_id: i64,
    accept: bool,
) -> AppResult<JoinRequestView> {
    let user = actor.require_user()?;
    conn.write_transaction(|conn| {
        require_club_organiser(conn, actor, club_id)?;
        let request = clubs::request(conn, club_id, request_id)?
            .ok_or(AppError::NotFound { what: "request" })?;
        let status = if accept {
            JoinRequestStatus::Accepted
        } else {
            JoinRequestStatus::Declined
        };
        if !clubs::decide_request(conn, request.id, status, user.id, store::now())? {
            return Err(AppError::conflict(Refusal::RequestAlreadyAnswered));
        }
        if accept {
            clubs::set_player_club(conn, request.player_id, Some(club_id))?;
        }
        let player = store::players::by_id(conn, request.player_id)?
            .ok_or(AppError::NotFound { what: "player" })?;
        let requester = store::accounts::user_by_id(conn, request.requested_by)?
            .map(|u| u.display_name)
            .unwrap_or_default();
        let decided = clubs::request(conn, club_id, request.id)?
            .ok_or(AppError::NotFound { what: "request" })?;
        request_view(decided, player.name, requester)
    })
}
