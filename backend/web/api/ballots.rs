//! Micro-matches and opening ballots over the API: the built-in tables, and a game's own
//! result in a micro-match.
use actix_web::HttpResponse;
use actix_web::web::{self, Json};

use crate::service::AppResult;
use crate::service::events::ballot::{self, BallotTableView};
use crate::service::events::rounds::{self, ResultInput};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// The built-in opening tables an event can draw from, with their sizes per variant.
#[utoipa::path(get, path = "/api/v1/ballots", tag = "events",
    responses((status = 200, body = Vec<BallotTableView>)))]
pub async fn list() -> AppResult<Json<Vec<BallotTableView>>> {
    Ok(Json(ballot::catalogue()?))
}

/// Enters or corrects the result of game `n` (1 or 2) of a micro-match, in that game's
/// colours (game 2's White is the pairing's Black); kept in the audit trail. A game
/// played on the site takes it as its arbiter's result; one being played (it has moves and
/// is not over) answers 409 `game_in_progress` (with `moves`) unless `end_game` is true.
#[utoipa::path(put, path = "/api/v1/events/{id}/pairings/{pairing}/games/{n}/result", tag = "events",
    request_body = ResultInput,
    params(("id" = i64, Path, description = "event id"), ("pairing" = i64, Path, description = "board id"),
        ("n" = i32, Path, description = "the game of the pairing: 1, or 2 in a micro-match")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn game_result(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64, i32)>,
    input: Json<ResultInput>,
) -> AppResult<HttpResponse> {
    let (id, pairing, game_no) = path.into_inner();
    let input = input.into_inner();
    state
        .db(move |conn| rounds::set_game_result(conn, &actor, id, pairing, game_no, &input))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
