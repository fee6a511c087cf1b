//! Archiving, restoring and deleting events, player profiles and clubs
//! (`service::removals`), and the site's trail of them (administrators).
use actix_web::HttpResponse;
use actix_web::web::{self, Json};
use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::service::removals::{self, SiteChangeRow};
use crate::service::{Actor, AppResult};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;
use damka_domain::vocabulary::{RemovalSubject, Spelling};

/// What an archive, restore or delete does.
#[derive(Clone, Copy)]
enum Act {
    Archive,
    Restore,
    Delete,
}

async fn act(
    state: web::Data<AppState>,
    actor: Actor,
    subject: RemovalSubject,
    id: i64,
    act: Act,
) -> AppResult<HttpResponse> {
    state
        .db(move |conn| match act {
            Act::Archive => removals::archive(conn, &actor, subject, id),
            Act::Restore => removals::restore(conn, &actor, subject, id),
            Act::Delete => removals::delete(conn, &actor, subject, id),
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Archives an event (its organiser): hidden from the lists and closed to changes, kept
/// whole. A running event is finished first (409 `event_running_finish_first`).
#[utoipa::path(post, path = "/api/v1/events/{id}/archive", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn archive_event(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Event,
        path.into_inner(),
        Act::Archive,
    )
    .await
}

/// Restores an archived event (its organiser).
#[utoipa::path(post, path = "/api/v1/events/{id}/restore", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn restore_event(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Event,
        path.into_inner(),
        Act::Restore,
    )
    .await
}

/// Deletes an event with its entries, rounds and games (its organiser). An event with rated
/// results is archived instead: 409 `event_has_rated_results`.
#[utoipa::path(delete, path = "/api/v1/events/{id}", tag = "events", params(("id" = i64, Path, description = "event id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn delete_event(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Event,
        path.into_inner(),
        Act::Delete,
    )
    .await
}

/// Archives a player profile (its managers): left out of the lists and searches, entered
/// in nothing new; its results stay where they were played.
#[utoipa::path(post, path = "/api/v1/players/{id}/archive", tag = "players", params(("id" = i64, Path, description = "player id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn archive_player(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Player,
        path.into_inner(),
        Act::Archive,
    )
    .await
}

/// Restores an archived player profile (its managers).
#[utoipa::path(post, path = "/api/v1/players/{id}/restore", tag = "players", params(("id" = i64, Path, description = "player id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn restore_player(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Player,
        path.into_inner(),
        Act::Restore,
    )
    .await
}

/// Deletes a player profile that has no entries, games, rating history, account or
/// merged profiles (its managers); any other is archived instead: 409 `player_has_records`.
#[utoipa::path(delete, path = "/api/v1/players/{id}", tag = "players", params(("id" = i64, Path, description = "player id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn delete_player(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Player,
        path.into_inner(),
        Act::Delete,
    )
    .await
}

/// Archives a club (its organisers): left out of the lists, closed to new members and
/// events.
#[utoipa::path(post, path = "/api/v1/clubs/{id}/archive", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn archive_club(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Club,
        path.into_inner(),
        Act::Archive,
    )
    .await
}

/// Restores an archived club (its organisers).
#[utoipa::path(post, path = "/api/v1/clubs/{id}/restore", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn restore_club(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Club,
        path.into_inner(),
        Act::Restore,
    )
    .await
}

/// Deletes a club that no event names as its own (its organisers); its members' profiles
/// stay, in no club. A club with events is archived instead: 409 `club_has_events`.
#[utoipa::path(delete, path = "/api/v1/clubs/{id}", tag = "clubs", params(("id" = i64, Path, description = "club id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem), (status = 409, body = Problem)),
    security(("token" = [])))]
pub async fn delete_club(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    act(
        state,
        actor,
        RemovalSubject::Club,
        path.into_inner(),
        Act::Delete,
    )
    .await
}

/// One archiving, restoring or deletion, as the site's trail keeps it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SiteChange {
    pub id: i64,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub at: NaiveDateTime,
    /// The display name of who did it; null when that account is gone.
    pub by: Option<String>,
    /// `event`, `player` or `club`.
    pub subject: String,
    pub subject_id: i64,
    /// Its name when it was done (a deleted subject's name stays here).
    pub subject_name: String,
    /// `archived`, `restored` or `deleted`.
    pub action: String,
}

impl From<SiteChangeRow> for SiteChange {
    fn from(row: SiteChangeRow) -> SiteChange {
        SiteChange {
            id: row.id,
            at: row.changed_at,
            by: row.by,
            subject: row.subject.spelling().to_string(),
            subject_id: row.subject_id,
            subject_name: row.subject_name,
            action: row.action.spelling().to_string(),
        }
    }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct TrailQuery {
    /// Only changes older than this one (its `id`): the next page.
    before: Option<i64>,
}

/// The site's trail of archivings, restorings and deletions, newest first, 100 a page
/// (administrators).
#[utoipa::path(get, path = "/api/v1/admin/changes", tag = "admin", params(TrailQuery),
    responses((status = 200, body = Vec<SiteChange>), (status = 401, body = Problem), (status = 403, body = Problem)),
    security(("token" = [])))]
pub async fn trail(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    query: web::Query<TrailQuery>,
) -> AppResult<Json<Vec<SiteChange>>> {
    let before = query.into_inner().before;
    let rows = state
        .db(move |conn| removals::trail(conn, &actor, before))
        .await?;
    Ok(Json(rows.into_iter().map(SiteChange::from).collect()))
}

/// The archive, restore and delete routes of events, profiles and clubs, and the trail.
pub fn routes(routes: &mut crate::web::routes::Routes) {
    routes
        .delete("/players/{id}", delete_player)
        .post("/players/{id}/archive", archive_player)
        .post("/players/{id}/restore", restore_player)
        .delete("/clubs/{id}", delete_club)
        .post("/clubs/{id}/archive", archive_club)
        .post("/clubs/{id}/restore", restore_club)
        .delete("/events/{id}", delete_event)
        .post("/events/{id}/archive", archive_event)
        .post("/events/{id}/restore", restore_event)
        .get("/admin/changes", trail);
}
