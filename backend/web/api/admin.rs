use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::{Deserialize, Serialize};

use super::ApiActor;
use crate::service::AppResult;
use crate::service::accounts::{self, CreatedInvitation, RegistrationMode, RoleChange};
use crate::web::state::AppState;

/// An account as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserInfo {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    pub is_organiser: bool,
    pub player_id: Option<i64>,
}

impl From<crate::service::User> for UserInfo {
    fn from(u: crate::service::User) -> UserInfo {
        UserInfo {
            id: u.id,
            email: u.email,
            display_name: u.display_name,
            is_admin: u.is_admin,
            is_organiser: u.is_organiser,
            player_id: u.player_id,
        }
    }
}

/// Every account (administrators).
#[utoipa::path(get, path = "/api/v1/admin/users", tag = "admin",
    responses((status = 200, body = Vec<UserInfo>), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn users(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
) -> AppResult<Json<Vec<UserInfo>>> {
    let users = state.db(move |conn| accounts::users(conn, &actor)).await?;
    Ok(Json(users.into_iter().map(UserInfo::from).collect()))
}

/// Grants or removes the administrator and organiser roles (administrators).
#[utoipa::path(put, path = "/api/v1/admin/users/{id}/roles", tag = "admin", request_body = RoleChange,
    params(("id" = i64, Path, description = "user id")),
    responses((status = 200, body = UserInfo), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn set_roles(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    roles: Json<RoleChange>,
) -> AppResult<Json<UserInfo>> {
    let id = path.into_inner();
    let roles = roles.into_inner();
    let user = state
        .db(move |conn| accounts::set_roles(conn, &actor, id, &roles))
        .await?;
    Ok(Json(UserInfo::from(user)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct NewInvitation {
    /// Optional: the invitation then works only for this e-mail address.
    #[serde(default)]
    pub email: String,
}

/// Creates an invitation code for registration by invitation (administrators).
#[utoipa::path(post, path = "/api/v1/admin/invitations", tag = "admin", request_body = NewInvitation,
    responses((status = 201, body = CreatedInvitation), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn invite(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    input: Json<NewInvitation>,
) -> AppResult<HttpResponse> {
    let email = input.into_inner().email;
    let created = state
        .db(move |conn| accounts::create_invitation(conn, &actor, &email))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(created))
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct RegistrationSetting {
    pub mode: RegistrationMode,
}

/// How new accounts are created on this site (administrators).
#[utoipa::path(get, path = "/api/v1/admin/registration", tag = "admin",
    responses((status = 200, body = RegistrationSetting), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn registration(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
) -> AppResult<Json<RegistrationSetting>> {
    actor.require_admin()?;
    let mode = state.db(accounts::registration_mode).await?;
    Ok(Json(RegistrationSetting { mode }))
}

/// Opens registration to everybody or restricts it to invitations (administrators).
#[utoipa::path(put, path = "/api/v1/admin/registration", tag = "admin", request_body = RegistrationSetting,
    responses((status = 200, body = RegistrationSetting), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn set_registration(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    input: Json<RegistrationSetting>,
) -> AppResult<Json<RegistrationSetting>> {
    let mode = input.into_inner().mode;
    state
        .db(move |conn| accounts::set_registration_mode(conn, &actor, mode))
        .await?;
    Ok(Json(RegistrationSetting { mode }))
}

/// The site's time zone: pages show times on its clock (an IANA name such as
/// `Europe/Moscow`; `UTC` until an administrator sets one).
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TimeZoneSetting {
    pub time_zone: String,
}

/// The site's time zone (administrators, like the other site settings).
#[utoipa::path(get, path = "/api/v1/admin/time-zone", tag = "admin",
    responses((status = 200, body = TimeZoneSetting), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn time_zone(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
) -> AppResult<Json<TimeZoneSetting>> {
    actor.require_admin()?;
    let zone = state.site_zone.get(&state.pool).await?;
    Ok(Json(TimeZoneSetting {
        time_zone: zone.name().to_string(),
    }))
}

/// Sets the site's time zone (administrators); 422 `invalid` for a name the time zone
/// database does not have.
#[utoipa::path(put, path = "/api/v1/admin/time-zone", tag = "admin", request_body = TimeZoneSetting,
    responses((status = 200, body = TimeZoneSetting), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn set_time_zone(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    input: Json<TimeZoneSetting>,
) -> AppResult<Json<TimeZoneSetting>> {
    let name = input.into_inner().time_zone;
    let zone = state
        .db(move |conn| crate::service::time_zone::set_time_zone(conn, &actor, &name))
        .await?;
    state.site_zone.remember(zone);
    Ok(Json(TimeZoneSetting {
        time_zone: zone.name().to_string(),
    }))
}
