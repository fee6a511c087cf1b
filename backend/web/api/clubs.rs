use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};

use crate::service::AppResult;
use crate::service::clubs::{self, ClubInput, ClubView, JoinRequestView, MemberInput, MemberView};
use crate::service::paging::Page;
use crate::web::api::page_query::PageQuery;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// Clubs, by name, a page at a time.
#[utoipa::path(get, path = "/api/v1/clubs", tag = "clubs", params(PageQuery),
    responses((status = 200, body = Page<ClubView>),
        (status = 422, body = crate::web::error::Problem, description = "`limit` or `cursor` refused")))]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<PageQuery>,
) -> AppResult<Json<Page<ClubView>>> {
    let asked = query.request()?;
    Ok(Json(state.db(move |conn| clubs::page(conn, &asked)).await?))
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
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<ClubInput>,
) -> AppResult<HttpResponse> {
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
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<ClubInput>,
) -> AppResult<Json<ClubView>> {
    let id = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| clubs::update(conn, &actor, id, &input))
            .await?,
    ))
}

/// A club's organisers and members, by display name, a page at a time.
#[utoipa::path(get, path = "/api/v1/clubs/{id}/members", tag = "clubs",
    params(("id" = i64, Path, description = "club id"), PageQuery),
    responses((status = 200, body = Page<MemberView>), (status = 404, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem, description = "`limit` or `cursor` refused")))]
pub async fn members(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<PageQuery>,
) -> AppResult<Json<Page<MemberView>>> {
    let id = path.into_inner();
    let asked = query.request()?;
    Ok(Json(
        state
            .db(move |conn| clubs::members(conn, id, &asked))
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
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<MemberInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = input.into_inner();
    state
        .db(move |conn| clubs::add_member(conn, &actor, id, &input))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The club's open requests to join, oldest first, a page at a time (the club's organisers
/// and administrators).
#[utoipa::path(get, path = "/api/v1/clubs/{id}/requests", tag = "clubs",
    params(("id" = i64, Path, description = "club id"), PageQuery),
    responses((status = 200, body = Page<JoinRequestView>), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem, description = "`limit` or `cursor` refused")),
    security(("token" = [])))]
pub async fn requests(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<PageQuery>,
) -> AppResult<Json<Page<JoinRequestView>>> {
    let id = path.into_inner();
    let asked = query.request()?;
    Ok(Json(
        state
            .db(move |conn| clubs::join_requests(conn, &actor, id, &asked))
            .await?,
    ))
}

/// Asks for the caller's own profile to be in this club. The profile's club changes only
/// when one of the club's organisers accepts.
#[utoipa::path(post, path = "/api/v1/clubs/{id}/requests", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 201, body = JoinRequestView), (status = 401, body = crate::web::error::Problem),
        (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem, description = "already in the club, or already asked"),
        (status = 422, body = crate::web::error::Problem, description = "the account has no player profile")),
    security(("token" = [])))]
pub async fn request_to_join(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let request = state
        .db(move |conn| clubs::request_to_join(conn, &actor, id))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(request))
}

/// Accepts or declines a request to join, for a handler that extracted `SignedIn`.
async fn answer(
    actor: crate::service::Actor,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    accept: bool,
) -> AppResult<Json<JoinRequestView>> {
    let (id, request_id) = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| clubs::answer_join_request(conn, &actor, id, request_id, accept))
            .await?,
    ))
}

/// Accepts a request to join: the profile is put in the club (the club's organisers and
/// administrators).
#[utoipa::path(post, path = "/api/v1/clubs/{id}/requests/{request_id}/accept", tag = "clubs",
    params(("id" = i64, Path, description = "club id"), ("request_id" = i64, Path, description = "request id")),
    responses((status = 200, body = JoinRequestView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem, description = "already answered")),
    security(("token" = [])))]
pub async fn accept_request(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<Json<JoinRequestView>> {
    answer(actor, state, path, true).await
}

/// Declines a request to join: the profile stays where it was (the club's organisers and
/// administrators).
#[utoipa::path(post, path = "/api/v1/clubs/{id}/requests/{request_id}/decline", tag = "clubs",
    params(("id" = i64, Path, description = "club id"), ("request_id" = i64, Path, description = "request id")),
    responses((status = 200, body = JoinRequestView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem, description = "already answered")),
    security(("token" = [])))]
pub async fn decline_request(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<Json<JoinRequestView>> {
    answer(actor, state, path, false).await
}
