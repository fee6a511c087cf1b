//! Claiming a player profile and merging two profiles of one person.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};

use crate::service::AppResult;
use crate::service::claims::{self, ClaimView};
use crate::service::merges::{self, MergeInput};
use crate::service::paging::Page;
use crate::service::players::PlayerView;
use crate::web::api::page_query::PageQuery;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// Asks for this profile to be linked to the signed-in account (an account without a
/// profile); whoever manages the profile decides. Asking again answers the open claim.
#[utoipa::path(post, path = "/api/v1/players/{id}/claims", tag = "players",
    params(("id" = i64, Path, description = "player id")),
    responses((status = 201, body = ClaimView), (status = 401, body = crate::web::error::Problem),
        (status = 404, body = crate::web::error::Problem, description = "no such profile, or `player_merged`"),
        (status = 409, body = crate::web::error::Problem,
            description = "`profile_taken`: the profile belongs to an account; `account_has_profile`")),
    security(("token" = [])))]
pub async fn claim(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let claim = state
        .db(move |conn| claims::claim(conn, &actor, id))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(claim))
}

/// The open claims the signed-in account decides: on profiles of clubs it organises, on
/// profiles it made as an organiser, or all of them for an administrator. Oldest first, a
/// page at a time.
#[utoipa::path(get, path = "/api/v1/claims", tag = "players", params(PageQuery),
    responses((status = 200, body = Page<ClaimView>), (status = 401, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem, description = "`limit` or `cursor` refused")),
    security(("token" = [])))]
pub async fn pending(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    query: web::Query<PageQuery>,
) -> AppResult<Json<Page<ClaimView>>> {
    let asked = query.request()?;
    Ok(Json(
        state
            .db(move |conn| claims::pending_for(conn, &actor, None, &asked))
            .await?,
    ))
}

/// Accepts a claim: the claimant's account is linked to the profile. Those who manage the
/// profile, never the claimant.
#[utoipa::path(post, path = "/api/v1/claims/{id}/accept", tag = "players",
    params(("id" = i64, Path, description = "claim id")),
    responses((status = 200, body = ClaimView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem,
            description = "already decided, `profile_taken` or `account_has_profile`")),
    security(("token" = [])))]
pub async fn accept(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<ClaimView>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| claims::decide(conn, &actor, id, true))
            .await?,
    ))
}

/// Declines a claim: nothing is linked. Those who manage the profile, never the claimant.
#[utoipa::path(post, path = "/api/v1/claims/{id}/decline", tag = "players",
    params(("id" = i64, Path, description = "claim id")),
    responses((status = 200, body = ClaimView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 409, body = crate::web::error::Problem, description = "already decided")),
    security(("token" = [])))]
pub async fn decline(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<ClaimView>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| claims::decide(conn, &actor, id, false))
            .await?,
    ))
}

/// Merges this profile into `into` (administrators, or an organiser who manages both):
/// its entries, games, results, claims and account move there and the ratings are
/// recomputed; afterwards this id answers 404 `player_merged` with `merged_into`. Answers
/// the profile that stays.
#[utoipa::path(post, path = "/api/v1/players/{id}/merge", tag = "players", request_body = MergeInput,
    params(("id" = i64, Path, description = "the profile merged away")),
    responses((status = 200, body = PlayerView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem),
        (status = 404, body = crate::web::error::Problem, description = "no such profile, or `player_merged`"),
        (status = 409, body = crate::web::error::Problem,
            description = "`same_event`: both played in one event; `both_profiles_have_accounts`"),
        (status = 422, body = crate::web::error::Problem, description = "`merge_into_itself`")),
    security(("token" = [])))]
pub async fn merge(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<MergeInput>,
) -> AppResult<Json<PlayerView>> {
    let id = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| merges::merge(conn, &actor, id, &input))
            .await?,
    ))
}
