use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};

use super::ApiActor;
use crate::service::AppResult;
use crate::service::clubs::{self, ClubInput, ClubView, MemberInput, MemberView};
use crate::web::state::AppState;

/// Clubs, by name.
#[utoipa::path(get, path = "/api/v1/clubs", tag = "clubs", responses((status = 200, body = Vec<ClubView>)))]
pub async fn list(state: web::Data<AppState>) -> AppResult<Json<Vec<ClubView>>> {
    Ok(Json(state.db(clubs::list).await?))
}

/// One club.
#[utoipa::path(get, path = "/api/v1/clubs/{id}", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 200, body = ClubView), (status = 404, body = crate::web::error::Problem)))]
pub async fn get(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<Json<ClubView>> {
    let id = path.into_inner();
    Ok(Json(state.db(move |conn| clubs::get(conn, id)).await?))
}

/// Founds a club (organisers and administrators); the founder becomes its organiser.
#[utoipa::path(post, path = "/api/v1/clubs", tag = "clubs", request_body = ClubInput,
    responses((status = 201, body = ClubView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn create(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    input: Json<ClubInput>,
) -> AppResult<HttpResponse> {
    actor.require_user()?;
    let input = input.into_inner();
    let club = state
        .db(move |conn| clubs::create(conn, &actor, &input))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(club))
}

/// Replaces a club's fields (its organisers and administrators).
#[utoipa::path(put, path = "/api/v1/clubs/{id}", tag = "clubs", request_body = ClubInput,
    params(("id" = i64, Path, description = "club id")),
    responses((status = 200, body = ClubView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn update(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<ClubInput>,
) -> AppResult<Json<ClubView>> {
    actor.require_user()?;
    let id = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| clubs::update(conn, &actor, id, &input))
            .await?,
    ))
}

/// A club's organisers and members.
#[utoipa::path(get, path = "/api/v1/clubs/{id}/members", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 200, body = Vec<MemberView>), (status = 404, body = crate::web::error::Problem)))]
pub async fn members(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<MemberView>>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| {
                clubs::get(conn, id)?;
                clubs::members(conn, id)
            })
            .await?,
    ))
}

/// Adds an account to a club or changes its role there (the club's organisers).
#[utoipa::path(post, path = "/api/v1/clubs/{id}/members", tag = "clubs", request_body = MemberInput,
    params(("id" = i64, Path, description = "club id")),
    responses((status = 204), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn add_member(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<MemberInput>,
) -> AppResult<HttpResponse> {
    actor.require_user()?;
    let id = path.into_inner();
    let input = input.into_inner();
    state
        .db(move |conn| clubs::add_member(conn, &actor, id, &input))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
