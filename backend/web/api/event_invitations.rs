//! Invitation links to an event over the API: its managers make, list and revoke them;
//! a signed-in player joins with a link's code.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::{Deserialize, Serialize};

use crate::service::AppResult;
use crate::service::events::entries::EntryView;
use crate::service::events::invitations::{self, InvitationInput, InvitationView};
use crate::web::error::Problem;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// A link just made. Its code is shown here only: the site keeps no copy it could show again.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct InvitationCreated {
    pub id: i64,
    pub label: String,
    pub code: String,
    /// The page that joins (`/events/{id}/join/{code}`), a path on this site.
    pub link: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct JoinInput {
    /// The code of an invitation link to this event.
    pub code: String,
}

/// Makes an invitation link to the event (its organiser and administrators); whoever opens
/// it enters themselves, even while open self-registration is off.
#[utoipa::path(post, path = "/api/v1/events/{id}/invitations", tag = "events", request_body = InvitationInput,
    params(("id" = i64, Path, description = "event id")),
    responses((status = 201, body = InvitationCreated), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "`event_finished`"), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn create(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<InvitationInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = input.into_inner();
    let made = state
        .db(move |conn| invitations::create(conn, &actor, id, &input))
        .await?;
    Ok(
        HttpResponse::build(StatusCode::CREATED).json(InvitationCreated {
            link: format!("/events/{}/join/{}", made.event_id, made.code),
            id: made.id,
            label: made.label,
            code: made.code,
        }),
    )
}

/// The event's invitation links, oldest first, with who joined through each and when
/// (its organiser and administrators). Never their codes.
#[utoipa::path(get, path = "/api/v1/events/{id}/invitations", tag = "events",
    params(("id" = i64, Path, description = "event id")),
    responses((status = 200, body = Vec<InvitationView>), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn list(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<Json<Vec<InvitationView>>> {
    let id = path.into_inner();
    Ok(Json(
        state
            .db(move |conn| invitations::list(conn, &actor, id))
            .await?,
    ))
}

/// Revokes an invitation link: its code no longer works. Revoking it again is fine.
#[utoipa::path(delete, path = "/api/v1/events/{id}/invitations/{invitation_id}", tag = "events",
    params(("id" = i64, Path, description = "event id"), ("invitation_id" = i64, Path, description = "invitation link id")),
    responses((status = 204), (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem)),
    security(("token" = [])))]
pub async fn revoke(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<HttpResponse> {
    let (id, invitation_id) = path.into_inner();
    state
        .db(move |conn| invitations::revoke(conn, &actor, id, invitation_id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Enters the caller's own profile in the event through an invitation link's code, with
/// the rules of an organiser's entry (late entries in a Swiss event, a round-robin before
/// its first round). A code of no working link to this event is not found.
#[utoipa::path(post, path = "/api/v1/events/{id}/join", tag = "events", request_body = JoinInput,
    params(("id" = i64, Path, description = "event id")),
    responses((status = 201, body = EntryView), (status = 401, body = Problem),
        (status = 404, body = Problem, description = "no such event, or no working link of this code to it"),
        (status = 409, body = Problem, description = "`event_finished`, `round_robin_started` or `late_entries_closed`"),
        (status = 422, body = Problem, description = "`no_profile_to_enter` or `already_entered`")),
    security(("token" = [])))]
pub async fn join(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    input: Json<JoinInput>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let JoinInput { code } = input.into_inner();
    let entry = state
        .db(move |conn| invitations::join(conn, &actor, id, &code))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(entry))
}
