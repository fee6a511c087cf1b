//! Manual pairing changes and the audit trail over the API.
use actix_web::web::{self, Json};
use serde::Deserialize;

use super::ApiActor;
use crate::service::AppResult;
use crate::service::events::audit::{self, ChangeView};
use crate::service::events::manual::{self, PairingChangeOutcome, PairingCheck, PairingInput};
use crate::service::paging::{Page, PageRequest};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// Checks a hand-made pairing of the last round without storing it: every rule it breaks.
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds/{round}/pairing/check", tag = "events", request_body = PairingInput,
    params(("id" = i64, Path, description = "event id"), ("round" = i32, Path, description = "round number")),
    responses((status = 200, body = PairingCheck), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn check(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    input: Json<PairingInput>,
) -> AppResult<Json<PairingCheck>> {
    let (id, round) = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| manual::check(conn, &actor, id, round, &input))
            .await?,
    ))
}

/// Replaces the pairing of the last round (while it has no results) and records the
/// change with the rules the new pairing breaks.
#[utoipa::path(put, path = "/api/v1/events/{id}/rounds/{round}/pairing", tag = "events", request_body = PairingInput,
    params(("id" = i64, Path, description = "event id"), ("round" = i32, Path, description = "round number")),
    responses((status = 200, body = PairingChangeOutcome), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn change(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    input: Json<PairingInput>,
) -> AppResult<Json<PairingChangeOutcome>> {
    let (id, round) = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| manual::change(conn, &actor, id, round, &input))
            .await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ChangesQuery {
    /// Changes on the page: 1 to 200, 50 when left out.
    limit: Option<i64>,
    /// The `next_cursor` of the previous page; left out for the first page.
    cursor: Option<String>,
}

/// A page of the results entered or corrected, pairings changed by hand and moves taken
/// back, newest first (rounds the caller may see).
#[utoipa::path(get, path = "/api/v1/events/{id}/changes", tag = "events",
    params(("id" = i64, Path, description = "event id"), ChangesQuery),
    responses((status = 200, body = Page<ChangeView>), (status = 404, body = Problem), (status = 422, body = Problem)))]
pub async fn changes(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ChangesQuery>,
) -> AppResult<Json<Page<ChangeView>>> {
    let id = path.into_inner();
    let query = query.into_inner();
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    Ok(Json(
        state
            .db(move |conn| audit::changes(conn, &actor, id, &page))
            .await?,
    ))
}
