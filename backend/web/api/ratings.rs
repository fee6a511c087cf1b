//! Ratings over the API: the rating list of a variant, a player's history, and the import
//! of starting ratings from a CSV.
use actix_web::web::{self, Json};
use actix_web::{HttpRequest, HttpResponse, http::StatusCode};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use crate::service::paging::PageRequest;
use crate::service::ratings::import::{self, ImportedRatings};
use crate::service::ratings::views::{self, HistoryItem, ListFilter, RatingListItem};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;
use damka_domain::vocabulary::Spelling;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    /// `russian` (the default), `english`, `international` or `brazilian`.
    variant: Option<String>,
    /// `elo` or `glicko2`; the default is the system the site's lists show first.
    system: Option<String>,
    /// Only players of this club.
    club_id: Option<i64>,
    /// Only players of this federation/country code (`RUS`).
    country: Option<String>,
    /// Only players whose name has these words, in any order, in any case, Cyrillic or
    /// Latin (`petr ivanov` finds «Иванов Пётр»). Ranks stay those of the whole list.
    q: Option<String>,
    /// Players on the page: 1 to 200, 50 when left out.
    limit: Option<i64>,
    /// The `next_cursor` of the previous page; left out for the first page.
    cursor: Option<String>,
}

/// A page of a rating list.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RatingListView {
    pub variant: String,
    pub system: String,
    pub items: Vec<RatingListItem>,
    /// Pass it back as `cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
    /// Set while the variant's ratings are being brought up to date after a change that
    /// reached far back (a correction of an old result): since when. The list shows the
    /// ratings as they stood before meanwhile; `null` when they are current.
    pub updating_since: Option<chrono::DateTime<chrono::Utc>>,
}

/// A page of the rated players of a variant in one system, best first (equal ratings by
/// name), with rank in the whole list (also when narrowed to a club, a country or a name), club, country, rating, RD (Glicko-2), games, the
/// provisional mark and the last game's time.
#[utoipa::path(get, path = "/api/v1/ratings", tag = "ratings", params(ListQuery),
    responses((status = 200, body = RatingListView), (status = 400, body = Problem),
        (status = 422, body = Problem, description = "an unknown variant or system, or a country that is no code")))]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<Json<RatingListView>> {
    let ListQuery {
        variant,
        system,
        club_id,
        country,
        q,
        limit,
        cursor,
    } = query.into_inner();
    let page = PageRequest::parse(limit, cursor.as_deref())?;
    let filter = ListFilter {
        variant,
        system,
        club_id,
        country,
        q,
    };
    let list = state
        .db(move |conn| views::page(conn, &filter, &page))
        .await?;
    Ok(Json(RatingListView {
        variant: list.variant.spelling().into(),
        system: list.system.spelling().into(),
        items: list.items,
        next_cursor: list.next_cursor,
        updating_since: list.updating_since,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct HistoryQuery {
    /// `russian` (the default), `english`, `international` or `brazilian`.
    variant: Option<String>,
    /// `elo` or `glicko2`; the default is the system the site's lists show first.
    system: Option<String>,
}

/// A player's rating history.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RatingHistoryView {
    pub player_id: i64,
    pub variant: String,
    pub system: String,
    /// Oldest first: each Glicko-2 game, each Elo period (an event, a month of standalone
    /// games).
    pub items: Vec<HistoryItem>,
}

/// Every change of a player's rating in one variant and system, with the event or game
/// behind it.
#[utoipa::path(get, path = "/api/v1/players/{id}/rating-history", tag = "ratings",
    params(("id" = i64, Path, description = "player id"), HistoryQuery),
    responses((status = 200, body = RatingHistoryView), (status = 404, body = Problem),
        (status = 422, body = Problem)))]
pub async fn history(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<HistoryQuery>,
) -> AppResult<Json<RatingHistoryView>> {
    let player_id = path.into_inner();
    let HistoryQuery { variant, system } = query.into_inner();
    let (choice, items) = state
        .db(move |conn| views::history(conn, player_id, variant.as_deref(), system.as_deref()))
        .await?;
    Ok(Json(RatingHistoryView {
        player_id,
        variant: choice.variant.spelling().into(),
        system: choice.system.spelling().into(),
        items,
    }))
}

/// The body as text, refused with 413 beyond the import's limit.
async fn read_text(req: &HttpRequest, mut payload: web::Payload) -> AppResult<String> {
    let limit = import::MAX_CSV_BYTES;
    let too_large = || AppError::PayloadTooLarge { limit_bytes: limit };
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
    String::from_utf8(body.to_vec()).map_err(|e| {
        AppError::invalid(
            "csv",
            Refusal::RatingsCsvNotUtf8 {
                offset: e.utf8_error().valid_up_to(),
            },
        )
    })
}

/// Imports starting ratings from a CSV body (`text/csv`; administrators and organisers).
///
/// Header line first, columns in any order: `player_id` or `federation_id`, `variant`,
/// `system` (`elo` or `glicko2`), `rating`, and optionally `rd`, `volatility` (Glicko-2
/// only) and `games`. Every line is checked first: a file with any bad line stores
/// nothing and is a 422 whose `lines` member names each problem's line, column and code.
/// A good file replaces those players' starting ratings and recomputes the variants.
#[utoipa::path(post, path = "/api/v1/ratings/import", tag = "ratings",
    request_body(content = String, content_type = "text/csv"),
    responses((status = 201, body = ImportedRatings), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 413, body = Problem, description = "the file is larger than 1 MiB"),
        (status = 422, body = Problem, description = "bad lines, each in `lines`; nothing stored")),
    security(("token" = [])))]
pub async fn import(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> AppResult<HttpResponse> {
    let text = read_text(&req, payload).await?;
    let imported = state
        .db(move |conn| import::import_csv(conn, &actor, &text))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(imported))
}
