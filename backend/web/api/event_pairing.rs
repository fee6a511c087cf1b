//! Manual pairing changes and the audit trail over the API.
use actix_web::web::{self, Json};

use super::ApiActor;
use crate::service::AppResult;
use crate::service::events::audit::{self, ChangeView};
use crate::service::events::manual::{self, PairingChangeOutcome, PairingCheck, PairingInput};
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

/// Results entered or corrected and pairings changed by hand, newest first (rounds the
/// caller may see).
#[utoipa::path(get, path = "/api/v1/events/{id}/changes", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = Vec<ChangeView>), (status = 404, body = Problem)))]
pub async fn changes(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<ChangeView>>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| audit::changes(conn, &actor, id))
            .await?,
    ))
}
