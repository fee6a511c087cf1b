//! Importing an event from a FIDE TRF over the API.
use actix_web::web::{self, Json};
use actix_web::{HttpResponse, http::StatusCode};
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::events::import::{self, ImportView, TrfTooLarge};
use crate::web::error::Problem;
use crate::web::i18n::Lang;
use crate::web::refusals;
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;
use damka_domain::vocabulary::Spelling;

/// A TRF to import and the rules preset of the new event.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct ImportInput {
    /// The whole TRF file (TRF-16, with the `XXR`/`XXC`/`XXP` extensions), at most 1 MiB.
    pub trf: String,
    /// `russian`, `english`, `international` or `brazilian`.
    #[serde(default = "default_variant")]
    pub variant: String,
}

fn default_variant() -> String {
    damka_engine::Variant::default().spelling().into()
}

/// The JSON body of this route may exceed the API's usual limit: it carries a whole file.
/// Room for the escaping JSON adds, so that a file just over `MAX_TRF_BYTES` reaches the
/// handler and gets its 413 naming the file's size.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(2 * import::MAX_TRF_BYTES + 64 * 1024)
        .error_handler(|err, _| crate::web::json_error(err).into())
}

/// 413 as problem+json: the file is larger than an import takes.
pub fn too_large(err: &TrfTooLarge) -> HttpResponse {
    let problem = Problem {
        kind: "urn:damka:problem:too-large".into(),
        code: err.refusal().code().into(),
        title: Lang::En.t("import.file_too_large"),
        status: StatusCode::PAYLOAD_TOO_LARGE.as_u16(),
        detail: format!("trf: {}", refusals::text(Lang::En, &err.refusal())),
        field: Some("trf".into()),
        ..Problem::default()
    };
    HttpResponse::build(StatusCode::PAYLOAD_TOO_LARGE)
        .content_type("application/problem+json")
        .body(serde_json::to_string(&problem).unwrap_or_default())
}

/// Creates an event from a TRF (organisers and administrators); the caller owns it.
///
/// The event gets the file's players, rounds, results, requested byes for the next round
/// and forbidden pairs. A player is linked to the profile with the same federation id
/// when the caller may edit that profile; otherwise a new profile is created and the
/// match is listed in `unlinked_matches`. A TRF that cannot be read is a 422 naming the
/// line and column; one with more than 5,000 players, 50 rounds or 10,000 forbidden pairs
/// is a 422 naming the number and the limit; a file over 1 MiB is a 413.
#[utoipa::path(post, path = "/api/v1/events/import", tag = "events", request_body = ImportInput,
    responses((status = 201, body = ImportView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 413, body = Problem, description = "the file is larger than 1 MiB"), (status = 422, body = Problem)),
    security(("token" = [])))]
pub async fn import(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<ImportInput>,
) -> AppResult<HttpResponse> {
    let input = input.into_inner();
    if let Err(err) = import::check_size(&input.trf) {
        return Ok(too_large(&err));
    }
    let imported = state
        .db(move |conn| import::import_trf(conn, &actor, &input.trf, &input.variant))
        .await?;
    Ok(HttpResponse::build(StatusCode::CREATED).json(imported))
}
