//! Clubs: list, view, create, edit, and their organisers and members.
use serde::{Deserialize, Serialize};

use super::{Actor, AppError, AppResult, validate};
use crate::store::models::{Club, ClubFields};
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
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MemberView {
    pub user_id: i64,
    pub display_name: String,
    pub role: String,
}

impl From<Club> for ClubView {
    fn from(c: Club) -> ClubView {
        ClubView {
            id: c.id,
            name: c.name,
            city: c.city,
            country: c.country,
            description: c.description,
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
    Ok(user.is_admin
        || clubs::role_of(conn, club_id, user.id)?.as_deref() == Some(clubs::ROLE_ORGANISER))
}

/// Administrators and organisers found clubs; the founder becomes the club's organiser.
pub fn create(conn: &mut DbConn, actor: &Actor, input: &ClubInput) -> AppResult<ClubView> {
    let user = actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(
            "only organisers and administrators may create clubs",
        ));
    }
    let fields = fields(input)?;
    conn.write_transaction(|conn| {
        if clubs::by_name(conn, &fields.name)?.is_some() {
            return Err(AppError::invalid(
                "name",
                "a club with this name already exists",
            ));
        }
        let club = clubs::insert(conn, &fields, store::now())?;
        clubs::add_member(conn, club.id, user.id, clubs::ROLE_ORGANISER)?;
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
            return Err(AppError::forbidden(
                "only this club's organisers may edit it",
            ));
        }
        if let Some(other) = clubs::by_name(conn, &fields.name)?
            && other.id != club_id
        {
            return Err(AppError::invalid(
                "name",
                "a club with this name already exists",
            ));
        }
        Ok(ClubView::from(clubs::update(conn, club_id, &fields)?))
    })
}

pub fn get(conn: &mut DbConn, club_id: i64) -> AppResult<ClubView> {
    clubs::by_id(conn, club_id)?
        .map(ClubView::from)
        .ok_or(AppError::NotFound { what: "club" })
}

pub fn list(conn: &mut DbConn) -> AppResult<Vec<ClubView>> {
    Ok(clubs::list(conn)?.into_iter().map(ClubView::from).collect())
}

pub fn members(conn: &mut DbConn, club_id: i64) -> AppResult<Vec<MemberView>> {
    Ok(clubs::members(conn, club_id)?
        .into_iter()
        .map(|(user, role)| MemberView {
            user_id: user.id,
            display_name: user.display_name,
            role,
        })
        .collect())
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
    let role = match input.role.as_str() {
        clubs::ROLE_ORGANISER => clubs::ROLE_ORGANISER,
        clubs::ROLE_MEMBER => clubs::ROLE_MEMBER,
        _ => return Err(AppError::invalid("role", "must be `organiser` or `member`")),
    };
    let email = validate::email(&input.email)?;
    conn.write_transaction(|conn| {
        clubs::by_id(conn, club_id)?.ok_or(AppError::NotFound { what: "club" })?;
        if !can_edit(conn, actor, club_id)? {
            return Err(AppError::forbidden(
                "only this club's organisers may change its members",
            ));
        }
        let user = store::accounts::user_by_email(conn, &email)?
            .ok_or_else(|| AppError::invalid("email", "no account has this e-mail"))?;
        clubs::add_member(conn, club_id, user.id, role)?;
        Ok(())
    })
}
