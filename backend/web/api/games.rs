//! Games over the API: read a game, play a move, offer/accept/decline a draw, resign; the
//! arbiters' result and takeback; standalone games; lists.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::{Deserialize, Serialize};

use super::auth::{self, ApiCredentials};
use crate::service::games::GameFilter;
use crate::service::games::arbiter::{self, GameResultInput};
use crate::service::games::create::{self, NewGameInput};
use crate::service::games::play::{self, MoveInput, Submitted};
use crate::service::games::view::{GameSummary, GameView};
use crate::service::games::{clock_start, offers, view};
use crate::service::paging::{Page, PageRequest};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;
use damka_domain::vocabulary::{GameStatus, Spelling, spellings};

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    /// Only games of this player (either colour).
    player_id: Option<i64>,
    /// Only games of this event.
    event_id: Option<i64>,
    /// `ongoing` or `finished`.
    status: Option<String>,
    /// Games on the page: 1 to 200, 50 when left out.
    limit: Option<i64>,
    /// The `next_cursor` of the previous page; left out for the first page.
    cursor: Option<String>,
}

/// A page of the games, newest first.
#[utoipa::path(get, path = "/api/v1/games", tag = "games", params(ListQuery),
    responses((status = 200, body = Page<GameSummary>), (status = 422, body = Problem)))]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<Json<Page<GameSummary>>> {
    let ListQuery {
        player_id,
        event_id,
        status,
        limit,
        cursor,
    } = query.into_inner();
    let page = PageRequest::parse(limit, cursor.as_deref())?;
    let status = match status.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(GameStatus::from_spelling(text).ok_or_else(|| {
            AppError::invalid("status", Refusal::not_one_of(&spellings::<GameStatus>()))
        })?),
    };
    let filter = GameFilter {
        player_id,
        event_id,
        status,
        ..GameFilter::default()
    };
    Ok(Json(
        state
            .db(move |conn| view::page(conn, &filter, &page))
            .await?,
    ))
}

/// Creates a standalone game (outside any event): by one of its players or an organiser.
#[utoipa::path(post, path = "/api/v1/games", tag = "games", request_body = NewGameInput,
    responses((status = 201, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn create(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<NewGameInput>,
) -> AppResult<HttpResponse> {
    let input = input.into_inner();
    let game = state
        .db(move |conn| create::create(conn, &actor, &input))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(game))
}

/// One game: players, moves, position, legal moves, result.
#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 404, body = Problem)))]
pub async fn get(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<Json<GameView>> {
    let id = path.into_inner();
    Ok(Json(state.db(move |conn| view::get(conn, id)).await?))
}

/// A move's answer: the game after it, and the draw offer sent with the move if it was not
/// made (the move is stored all the same).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MoveAnswer {
    #[serde(flatten)]
    pub game: GameView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer_refused: Option<OfferRefused>,
}

/// Why the draw offer sent with a move was not made (`draw_offer_too_early`: each side
/// must first make the game's minimum number of moves).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OfferRefused {
    pub code: String,
    /// In English: when an offer becomes possible.
    pub detail: String,
    /// `draw_offer_too_early`: moves still to make before a draw may be offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_needed: Option<u32>,
}

impl MoveAnswer {
    fn of(mut game: GameView) -> MoveAnswer {
        let draw_offer_refused = game.draw_offer_refused.take().map(|refusal| OfferRefused {
            code: refusal.code().to_string(),
            detail: crate::web::refusals::text(crate::web::i18n::Lang::En, &refusal),
            moves_needed: match refusal {
                Refusal::DrawOfferTooEarly { moves_needed, .. } => Some(moves_needed),
                _ => None,
            },
        });
        MoveAnswer {
            game,
            draw_offer_refused,
        }
    }
}

/// Plays a move. `ply` is the number of the ply this move makes (1 = the game's first
/// move). 201 when stored; 200 when the same move is already stored at that ply (a resend);
/// 409 `ply_taken` (with `stored_move`), `ply_ahead`, `game_over`; 422 `illegal_move`
/// (with `reason_code` and `legal_moves`); 403 `not_your_turn`, `not_in_game`. A draw
/// offer sent with the move (`offer_draw`) that may not be made yet never costs the move:
/// it is stored (201) and the answer says why no offer was made (`draw_offer_refused`).
#[utoipa::path(post, path = "/api/v1/games/{id}/moves", tag = "games", request_body = MoveInput,
    params(("id" = i64, Path, description = "game id")),
    responses((status = 201, body = MoveAnswer), (status = 200, body = GameView), (status = 401, body = Problem),
        (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem),
        (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn play_move(
    credentials: ApiCredentials,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<MoveInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = input.into_inner();
    let token = credentials.token().ok_or(AppError::Unauthenticated)?;
    // The token is looked up in the same database call as the move (one trip to the
    // blocking pool and one pooled connection per move).
    let (actor, outcome) = state
        .db(move |conn| {
            let actor = auth::actor_for(conn, Some(&token))?;
            let outcome = play::submit(conn, &actor, id, &input)?;
            Ok((actor, outcome))
        })
        .await?;
    credentials.record(&actor);
    Ok(match outcome {
        Submitted::Stored(game) => {
            HttpResponse::build(StatusCode::CREATED).json(MoveAnswer::of(game))
        }
        Submitted::AlreadyStored(game) => HttpResponse::Ok().json(game),
    })
}

type PlayerAction =
    fn(&mut crate::service::DbConn, &crate::service::Actor, i64) -> AppResult<GameView>;

/// A game action of a handler that extracted `SignedIn`.
async fn player_action(
    actor: crate::service::Actor,
    state: web::Data<AppState>,
    id: i64,
    action: PlayerAction,
) -> AppResult<Json<GameView>> {
    Ok(Json(state.db(move |conn| action(conn, &actor, id)).await?))
}

/// Offers a draw: only the player who has just moved, once each side has made the game's
/// minimum number of moves (409 `draw_offer_too_early` with `moves_needed`).
#[utoipa::path(post, path = "/api/v1/games/{id}/draw-offer", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn offer_draw(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), offers::offer).await
}

/// Accepts the opponent's draw offer: the game is drawn by agreement.
#[utoipa::path(post, path = "/api/v1/games/{id}/draw-offer/accept", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn accept_draw(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), offers::accept).await
}

/// Declines the opponent's draw offer.
#[utoipa::path(post, path = "/api/v1/games/{id}/draw-offer/decline", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn decline_draw(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), offers::decline).await
}

/// Resigns the game (a player, on either side's turn).
#[utoipa::path(post, path = "/api/v1/games/{id}/resign", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn resign(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), offers::resign).await
}

/// Sets or clears the result (the game's arbiters); kept in the event's audit trail.
#[utoipa::path(put, path = "/api/v1/games/{id}/result", tag = "games", request_body = GameResultInput,
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn set_result(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<GameResultInput>,
) -> AppResult<Json<GameView>> {
    let id = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| arbiter::set_result(conn, &actor, id, &input))
            .await?,
    ))
}

/// Takes the last ply back (the game's arbiters); kept in the event's audit trail.
#[utoipa::path(post, path = "/api/v1/games/{id}/takeback", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn take_back(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), arbiter::take_back).await
}

/// Starts the game's clock for over-the-board play (the game's arbiters): the side to move's
/// clock runs from now. A running clock is left as it is.
#[utoipa::path(post, path = "/api/v1/games/{id}/clock/start", tag = "games",
    params(("id" = i64, Path, description = "game id")),
    responses((status = 200, body = GameView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn start_clock(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<GameView>> {
    player_action(actor, state, path.into_inner(), clock_start::start).await
}

/// The games whose clocks an arbiter started.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct ClocksStarted {
    /// The games of the round whose clock runs from now (running ones are left out).
    pub started: Vec<i64>,
}

/// Starts the clocks of every unfinished game of a round (the event's arbiters): over-the-
/// board play, where White's clock runs from the arbiter's start rather than from the first
/// move.
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds/{round}/clocks/start", tag = "games",
    params(("id" = i64, Path, description = "event id"), ("round" = i32, Path, description = "round number")),
    responses((status = 200, body = ClocksStarted), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn start_round_clocks(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> AppResult<Json<ClocksStarted>> {
    let (event_id, round) = path.into_inner();
    let started = state
        .db(move |conn| clock_start::start_round(conn, &actor, event_id, round))
        .await?;
    Ok(Json(ClocksStarted { started }))
}
