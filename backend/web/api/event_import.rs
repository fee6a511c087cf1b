//! Importing an event from a FIDE TRF over the API.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::Deserialize;

use super::ApiActor;
use crate::service::AppResult;
use crate::service::events::{EventView, import};
use crate::web::error::Problem;
use crate::web::state::AppState;

/// A TRF to import and the rules preset of the new event.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct ImportInput {
    /// The whole TRF file (TRF-16, with the `XXR`/`XXC`/`XXP` extensions).
    pub trf: String,
    /// `russian`, `english`, `international` or `brazilian`.
    #[serde(default = "default_variant")]
    pub variant: String,
}

fn default_variant() -> String {
    "russian".into()
}

/// Creates an event from a TRF (organisers and administrators); the caller owns it.
///
/// The event gets the file's players (profiles with the same federation id are reused),
/// rounds, results, requested byes for the next round and forbidden pairs. A TRF that
/// cannot be read is a 422 naming the line and column.
#[utoipa::path(post, path = "/api/v1/events/import", tag = "events", request_body = ImportInput,
    responses((status = 201, body = EventView), (status = 401, body = Problem), (status = 403, body = Problem), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn import(
    ApiActor(actor): ApiActor,
    state: web::Data<AppState>,
    input: Json<ImportInput>,
) -> AppResult<HttpResponse> {
    actor.require_user()?;
    let input = input.into_inner();
    let event = state
        .db(move |conn| import::import_trf(conn, &actor, &input.trf, &input.variant))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(event))
}
