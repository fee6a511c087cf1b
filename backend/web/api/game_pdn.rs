//! Games as PDN over the API: one game, an event's games, and a round's games imported
//! from a PDN file.
use actix_web::web::{self, Json};
use actix_web::{HttpMessage, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use serde::Deserialize;

use crate::service::games::pdn::{self, ImportReport, MAX_PDN_BYTES};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// The content type of every PDN answer.
pub const PDN_CONTENT_TYPE: &str = "text/plain; charset=utf-8";

/// An import sent as JSON instead of the file itself.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct PdnInput {
    /// The whole PDN file, at most 1 MiB.
    pub pdn: String,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct RoundQuery {
    /// Only this round's games.
    pub round: Option<i32>,
}

/// One game as PDN: the tags Event, Site, Date, Round, Board (event games), White, Black,
/// Result, GameType, and FEN for a start that is not the variant's own; the moves in the
/// variant's notation.
#[utoipa::path(get, path = "/api/v1/games/{id}/pdn", tag = "games", operation_id = "game_pdn",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, description = "PDN text", content_type = "text/plain"), (status = 404, body = Problem)))]
pub async fn game(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let text = state.db(move |conn| pdn::game_pdn(conn, id)).await?;
    Ok(HttpResponse::Ok().content_type(PDN_CONTENT_TYPE).body(text))
}

/// The event's games as one PDN file, in round and board order (only round `round` when
/// given; a round without games is an empty file).
#[utoipa::path(get, path = "/api/v1/events/{id}/games.pdn", tag = "games", operation_id = "event_games_pdn",
    params(("id" = i64, Path, description = "event id"), RoundQuery),
    responses((status = 200, description = "PDN text", content_type = "text/plain"), (status = 404, body = Problem)))]
pub async fn event(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<RoundQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let round = query.into_inner().round;
    let text = state
        .db(move |conn| pdn::event_pdn(conn, id, round))
        .await?;
    Ok(HttpResponse::Ok().content_type(PDN_CONTENT_TYPE).body(text))
}

/// Imports a PDN file into the games of a published round (the event's arbiters). The body
/// is the file itself (UTF-8, any content type) or JSON `{"pdn": "..."}`.
///
/// Each game of the file is matched to a board by its `Board` tag, or else by its `White`
/// and `Black` tags (the players' names, case aside), and replayed by the engine from that
/// game's start; a board's game that has moves must be where the file's game begins. A
/// played `Result` (`1-0`, `0-1`, `1/2-1/2`, or `2-0`, `0-2`, `1-1`) is entered when the
/// moves do not end the game by the rules. Nothing is stored unless every game is good:
/// 422 `pdn_unreadable` (with `line`, `column`), `pdn_illegal_move` (with `game`,
/// `move_number`, `side`, `reason_code`), `pdn_no_matching_game`, `pdn_board_twice`,
/// `pdn_start_position_differs`, `pdn_too_many_games`, `pdn_empty`, `pdn_not_utf8`; 409
/// `pdn_moves_differ` (with `game`, `board`, `ply`); 413 for a file over 1 MiB.
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds/{round}/pdn", tag = "games", operation_id = "import_round_pdn",
    params(("id" = i64, Path, description = "event id"), ("round" = i32, Path, description = "round number")),
    request_body(content((String = "text/plain"), (PdnInput = "application/json")),
        description = "the PDN file, or JSON carrying it"),
    responses((status = 200, body = ImportReport), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem),
        (status = 413, body = Problem, description = "the file is larger than 1 MiB"), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn import(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    req: HttpRequest,
    payload: web::Payload,
) -> AppResult<Json<ImportReport>> {
    let (event_id, round) = path.into_inner();
    let text = read_pdn(&req, payload).await?;
    Ok(Json(
        state
            .db(move |conn| pdn::import_round(conn, &actor, event_id, round, &text))
            .await?,
    ))
}

/// Room for the escaping JSON adds around a file of `MAX_PDN_BYTES`, so that such a file
/// sent as JSON still reaches the size check of the file itself.
const MAX_JSON_PDN_BYTES: usize = 2 * MAX_PDN_BYTES + 64 * 1024;

/// The PDN text of the request: the body itself, or the `pdn` member of a JSON body.
async fn read_pdn(req: &HttpRequest, payload: web::Payload) -> AppResult<String> {
    let json = req.content_type() == "application/json";
    let limit = if json {
        MAX_JSON_PDN_BYTES
    } else {
        MAX_PDN_BYTES
    };
    let body = read_body(req, payload, limit).await?;
    let text = if json {
        serde_json::from_slice::<PdnInput>(&body)
            .map_err(|e| {
                AppError::bad_request(Refusal::UnreadableJson {
                    message: e.to_string(),
                })
            })?
            .pdn
    } else {
        String::from_utf8(body.to_vec()).map_err(|e| {
            AppError::invalid(
                "pdn",
                Refusal::PdnNotUtf8 {
                    offset: e.utf8_error().valid_up_to(),
                },
            )
        })?
    };
    if text.len() > MAX_PDN_BYTES {
        return Err(AppError::PayloadTooLarge {
            limit_bytes: MAX_PDN_BYTES,
        });
    }
    Ok(text)
}

/// The body, refused with 413 as soon as it is known to exceed `limit` (by its
/// `Content-Length`, or while it streams in).
async fn read_body(
    req: &HttpRequest,
    mut payload: web::Payload,
    limit: usize,
) -> AppResult<web::BytesMut> {
    let too_large = || AppError::PayloadTooLarge {
        limit_bytes: MAX_PDN_BYTES,
    };
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > limit) {
        return Err(too_large());
    }
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            AppError::bad_request(Refusal::UnreadableRequest {
                message: e.to_string(),
            })
        })?;
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
