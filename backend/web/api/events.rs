//! Events over the API: every read and every organiser action of the event pages.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::Deserialize;

use super::ApiActor;
use crate::service::AppResult;
use crate::service::events::entries::{
    self, AbsenceInput, AbsenceRequest, EntryInput, EntryView, ForbiddenPairView, RequestView,
};
use crate::service::events::presence::{self, PresenceInput, PresenceList};
use crate::service::events::reports::{self, StandingsView};
use crate::service::events::rounds::{self, ResultInput, RoundView};
use crate::service::events::{EventInput, EventView, settings};
use crate::service::paging::{Page, PageRequest};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    /// Only events of this status: `registration`, `running` or `finished`.
    status: Option<String>,
    /// Only the events of this club.
    club_id: Option<i64>,
    /// Only the events this player profile is entered in.
    player_id: Option<i64>,
    /// Only events of this variant (`russian`, `brazilian`, ...).
    variant: Option<String>,
    /// Only events starting in this year (undated events are left out).
    year: Option<i64>,
    /// Only events whose name has these words, in any order, in any case, Cyrillic or
    /// Latin (`kubok kazani` finds «Кубок Казани»).
    q: Option<String>,
    /// `true`: only archived events; left out or `false`: only events not archived.
    archived: Option<bool>,
    /// Events on the page: 1 to 200, 50 when left out.
    limit: Option<i64>,
    /// The `next_cursor` of the previous page; left out for the first page.
    cursor: Option<String>,
}

/// A page of the events (of a status, a club, a player, a variant, a year, a name), newest first (by start day,
/// undated events last, then the latest created first).
#[utoipa::path(get, path = "/api/v1/events", tag = "events", params(ListQuery),
    responses((status = 200, body = Page<EventView>), (status = 422, body = Problem)))]
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<Json<Page<EventView>>> {
    let query = query.into_inner();
    let filter = settings::ListFilterText {
        status: query.status,
        club_id: query.club_id,
        player_id: query.player_id,
        variant: query.variant,
        year: query.year,
        q: query.q,
        archived: query.archived.unwrap_or(false),
    }
    .read()?;
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    let events = state
        .db(move |conn| settings::list(conn, filter, &page))
        .await?;
    Ok(Json(events.map(EventView::from)))
}

/// One event's settings.
#[utoipa::path(get, path = "/api/v1/events/{id}", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = EventView), (status = 404, body = Problem)))]
pub async fn get(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<Json<EventView>> {
    let id = path.into_inner();
    let event = state.db(move |conn| settings::get(conn, id)).await?;
    Ok(Json(event.into()))
}

/// Creates an event (organisers and administrators); the caller owns it.
#[utoipa::path(post, path = "/api/v1/events", tag = "events", request_body = EventInput,
    responses((status = 201, body = EventView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn create(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<EventInput>,
) -> AppResult<HttpResponse> {
    let input = input.into_inner();
    let event = state
        .db(move |conn| settings::create(conn, &actor, &input))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(EventView::from(event)))
}

/// Changes an event's settings (its organiser).
#[utoipa::path(put, path = "/api/v1/events/{id}", tag = "events", request_body = EventInput, params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = EventView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn update(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<EventInput>,
) -> AppResult<Json<EventView>> {
    let id = path.into_inner();
    let input = input.into_inner();
    let event = state
        .db(move |conn| settings::update(conn, &actor, id, &input))
        .await?;
    Ok(Json(event.into()))
}

/// The entries, by start number.
#[utoipa::path(get, path = "/api/v1/events/{id}/entries", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = Vec<EntryView>), (status = 404, body = Problem)))]
pub async fn entries(
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<EntryView>>> {
    let id = path.into_inner();
    Ok(Json(state.db(move |conn| entries::list(conn, id)).await?))
}

/// Enters a player (the organiser), or the caller's own profile (self-registration).
#[utoipa::path(post, path = "/api/v1/events/{id}/entries", tag = "events", request_body = EntryInput, params(("id" = i64, Path, description = "event id")),
    responses((status = 201, body = EntryView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn add_entry(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<EntryInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = input.into_inner();
    let entry = state
        .db(move |conn| entries::add(conn, &actor, id, &input))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(entry))
}

/// Removes an entry before the first round, or withdraws it from the next round on.
#[utoipa::path(post, path = "/api/v1/events/{id}/entries/{entry}/withdraw", tag = "events",
    params(("id" = i64, Path, description = "event id"), ("entry" = i64, Path, description = "entry id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn withdraw(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<HttpResponse> {
    let (id, entry) = path.into_inner();
    state
        .db(move |conn| entries::withdraw(conn, &actor, id, entry))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A requested half-point bye (`H`) or an absence (`Z`) for a round not paired yet.
#[utoipa::path(put, path = "/api/v1/events/{id}/entries/{entry}/absence", tag = "events", request_body = AbsenceInput,
    params(("id" = i64, Path, description = "event id"), ("entry" = i64, Path, description = "entry id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn absence(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    input: Json<AbsenceInput>,
) -> AppResult<HttpResponse> {
    let (id, entry) = path.into_inner();
    let input = input.into_inner();
    state
        .db(move |conn| entries::set_absence(conn, &actor, id, entry, &input))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Announces an absence for a round not paired yet (the next one when `round` is left
/// out): in a Keizer event `excused` (with notice), `club_duty` (playing for the club
/// elsewhere) or `Z` (without notice); elsewhere `H` or `Z`. By the player or the event's
/// officials.
#[utoipa::path(post, path = "/api/v1/events/{id}/entries/{entry}/absence", tag = "events", request_body = AbsenceRequest,
    params(("id" = i64, Path, description = "event id"), ("entry" = i64, Path, description = "entry id")),
    responses((status = 201, body = RequestView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn announce_absence(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    input: Json<AbsenceRequest>,
) -> AppResult<HttpResponse> {
    let (id, entry) = path.into_inner();
    let input = input.into_inner();
    let stored = state
        .db(move |conn| entries::announce_absence(conn, &actor, id, entry, &input))
        .await?;
    Ok(HttpResponse::Created().json(stored))
}

/// The check list of the round about to be paired: every entrant and the absence recorded
/// for the round (none: present). The event's officials only.
#[utoipa::path(get, path = "/api/v1/events/{id}/presence", tag = "events",
    params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = PresenceList), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn presence(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let list = state
        .db(move |conn| presence::check_list(conn, &actor, id))
        .await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Records the check list: the entries in `present` play in the round about to be paired;
/// every other entrant is absent, with the absence they announced or without notice (`Z`).
#[utoipa::path(put, path = "/api/v1/events/{id}/presence", tag = "events", request_body = PresenceInput,
    params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = PresenceList), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn record_presence(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<PresenceInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = input.into_inner();
    let list = state
        .db(move |conn| presence::record(conn, &actor, id, &input))
        .await?;
    Ok(HttpResponse::Ok().json(list))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ForbiddenPair {
    pub first_entry_id: i64,
    pub second_entry_id: i64,
}

/// Two entries that must never be paired.
#[utoipa::path(post, path = "/api/v1/events/{id}/forbidden-pairs", tag = "events", request_body = ForbiddenPair,
    params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn forbid(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<ForbiddenPair>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let ForbiddenPair {
        first_entry_id,
        second_entry_id,
    } = input.into_inner();
    state
        .db(move |conn| entries::forbid_pair(conn, &actor, id, first_entry_id, second_entry_id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The event's forbidden pairs (organiser and arbiters).
#[utoipa::path(get, path = "/api/v1/events/{id}/forbidden-pairs", tag = "events",
    params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = Vec<ForbiddenPairView>), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn forbidden_pairs(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<ForbiddenPairView>>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| {
                let event = crate::service::events::load(conn, id)?;
                crate::service::events::require_arbiter(conn, &actor, &event)?;
                entries::forbidden_pairs(conn, id)
            })
            .await?,
    ))
}

/// Lifts a forbidden pair (the entry ids in either order).
#[utoipa::path(delete, path = "/api/v1/events/{id}/forbidden-pairs/{first}/{second}", tag = "events",
    params(("id" = i64, Path, description = "event id"), ("first" = i64, Path, description = "entry id"), ("second" = i64, Path, description = "entry id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn allow(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64, i64)>,
) -> AppResult<HttpResponse> {
    let (id, first, second) = path.into_inner();
    state
        .db(move |conn| entries::allow_pair(conn, &actor, id, first, second))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ArbiterInput {
    pub email: String,
}

/// Names an arbiter (the organiser).
#[utoipa::path(post, path = "/api/v1/events/{id}/arbiters", tag = "events", request_body = ArbiterInput,
    params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn add_arbiter(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<ArbiterInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let email = input.into_inner().email;
    state
        .db(move |conn| settings::add_arbiter(conn, &actor, id, &email))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Rounds with boards and results (drafts only for the organiser and arbiters).
#[utoipa::path(get, path = "/api/v1/events/{id}/rounds", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = Vec<RoundView>), (status = 404, body = Problem)))]
pub async fn rounds(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<RoundView>>> {
    let id = path.into_inner();
    Ok(Json(
        state.db(move |conn| rounds::list(conn, &actor, id)).await?,
    ))
}

/// Pairs the next round (a draft until published).
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 201, body = RoundView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn pair(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let round = state
        .db(move |conn| rounds::pair_next(conn, &actor, id))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(round))
}

/// Pairs the last round again (only while it has no results).
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds/repair", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = RoundView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn repair(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<RoundView>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| rounds::repair_last(conn, &actor, id))
            .await?,
    ))
}

/// Publishes the last round's pairings.
#[utoipa::path(post, path = "/api/v1/events/{id}/rounds/publish", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn publish(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    state
        .db(move |conn| rounds::publish_last(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Enters or corrects a result (kept in the audit trail). A board whose game is being
/// played (it has moves and is not over) answers 409 `game_in_progress` (with `moves`)
/// unless `end_game` is true: then the game ends with the result, as the arbiter's
/// decision.
#[utoipa::path(put, path = "/api/v1/events/{id}/pairings/{pairing}/result", tag = "events", request_body = ResultInput,
    params(("id" = i64, Path, description = "event id"), ("pairing" = i64, Path, description = "board id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn result(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    input: Json<ResultInput>,
) -> AppResult<HttpResponse> {
    let (id, pairing) = path.into_inner();
    let input = input.into_inner();
    state
        .db(move |conn| rounds::set_result(conn, &actor, id, pairing, &input))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct StandingsQuery {
    /// Standings after this round (default: the last with results).
    after_round: Option<u32>,
}

/// Standings with the event's tie-breaks.
#[utoipa::path(get, path = "/api/v1/events/{id}/standings", tag = "events", params(("id" = i64, Path, description = "event id"), StandingsQuery),
    responses((status = 200, body = StandingsView), (status = 404, body = Problem), (status = 422, body = Problem)))]
pub async fn standings(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<StandingsQuery>,
) -> AppResult<Json<StandingsView>> {
    let id = path.into_inner();
    let after = query.into_inner().after_round;
    Ok(Json(
        state
            .db(move |conn| reports::standings(conn, id, after))
            .await?,
    ))
}

/// Closes the event (the organiser).
#[utoipa::path(post, path = "/api/v1/events/{id}/finish", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn finish(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    state
        .db(move |conn| settings::finish(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Reopens a finished event (the organiser), to correct results or pair more rounds.
#[utoipa::path(post, path = "/api/v1/events/{id}/reopen", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn reopen(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    state
        .db(move |conn| settings::reopen(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The crosstable (Swiss: round by round; round-robin: player against player).
#[utoipa::path(get, path = "/api/v1/events/{id}/crosstable", tag = "events", params(("id" = i64, Path, description = "event id"), StandingsQuery),
    responses((status = 200, body = reports::CrosstableView), (status = 404, body = Problem), (status = 422, body = Problem)))]
pub async fn crosstable(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<StandingsQuery>,
) -> AppResult<Json<reports::CrosstableView>> {
    let id = path.into_inner();
    let after = query.into_inner().after_round;
    Ok(Json(
        state
            .db(move |conn| reports::crosstable(conn, id, after))
            .await?,
    ))
}

/// A player's card: opponents, colours, results, running score, performance.
#[utoipa::path(get, path = "/api/v1/events/{id}/players/{start_no}", tag = "events",
    params(("id" = i64, Path, description = "event id"), ("start_no" = u32, Path, description = "start number")),
    responses((status = 200, body = reports::PlayerCardView), (status = 404, body = Problem)))]
pub async fn card(
    state: web::Data<AppState>,
    path: web::Path<(i64, u32)>,
) -> AppResult<Json<reports::PlayerCardView>> {
    let (id, start_no) = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| reports::player_card(conn, id, start_no))
            .await?,
    ))
}

/// The event as a FIDE TRF file. The forbidden pairs (`XXP` lines) are written only for
/// the event's organiser and arbiters.
#[utoipa::path(get, path = "/api/v1/events/{id}/export.trf", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 200, description = "TRF-16 text", content_type = "text/plain"), (status = 404, body = Problem)))]
pub async fn export_trf(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let trf = state.db(move |conn| reports::trf(conn, &actor, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(trf))
}
