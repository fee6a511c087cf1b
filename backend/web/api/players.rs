use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::paging::{Page, PageRequest};
use crate::service::players::{self, PlayerFilter, PlayerInput, PlayerView};
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    /// Only players of this club.
    club: Option<i64>,
    /// Only players whose name has these words, in any order, in any case, Cyrillic or
    /// Latin (`petr ivanov` and `Иванов П` find «Иванов Пётр»).
    q: Option<String>,
    /// Players on a page: 1 to 200, 50 if not given.
    limit: Option<i64>,
    /// Where the page starts: `next_cursor` of the page before; none for the first page.
    cursor: Option<String>,
}

/// Player profiles, by name, a page at a time.
#[utoipa::path(get, path = "/api/v1/players", tag = "players", params(ListQuery),
    responses((status = 200, body = Page<PlayerView>),
        (status = 422, body = crate::web::error::Problem, description = "`limit` or `cursor` refused")))]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<Json<Page<PlayerView>>> {
    let ListQuery {
        club,
        q,
        limit,
        cursor,
    } = query.into_inner();
    let asked = PageRequest::parse(limit, cursor.as_deref())?;
    let filter = PlayerFilter { club, search: q };
    Ok(Json(
        state
            .db(move |conn| players::page(conn, &filter, &asked))
            .await?,
    ))
}

/// One player profile with its ratings. A profile merged into another answers 404 with the
/// code `player_merged` and the survivor's id in `merged_into`.
#[utoipa::path(get, path = "/api/v1/players/{id}", tag = "players",
    params(("id" = i64, Path, description = "player id")),
    responses((status = 200, body = PlayerView), (status = 404, body = crate::web::error::Problem,
        description = "no such profile, or `player_merged` (with `merged_into`)")))]
pub async fn get(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<Json<PlayerView>> {
    let id = path.into_inner();
    Ok(Json(state.db(move |conn| players::get(conn, id)).await?))
}

/// Creates a profile: organisers and administrators any, club organisers in their club,
/// any other account its own (linked to it).
#[utoipa::path(post, path = "/api/v1/players", tag = "players", request_body = PlayerInput,
    responses((status = 201, body = PlayerView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn create(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<PlayerInput>,
) -> AppResult<HttpResponse> {
    let input = input.into_inner();
    let player = state
        .db(move |conn| players::create(conn, &actor, &input))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(player))
}

/// Replaces a profile's fields: administrators, the linked account, the club's organisers.
#[utoipa::path(put, path = "/api/v1/players/{id}", tag = "players", request_body = PlayerInput,
    params(("id" = i64, Path, description = "player id")),
    responses((status = 200, body = PlayerView), (status = 401, body = crate::web::error::Problem),
        (status = 403, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn update(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<PlayerInput>,
) -> AppResult<Json<PlayerView>> {
    let id = path.into_inner();
    let input = input.into_inner();
    Ok(Json(
        state
            .db(move |conn| players::update(conn, &actor, id, &input))
            .await?,
    ))
}
