use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};
use actix_web::web::{self, Json};
use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use crate::service::AppResult;
use crate::service::accounts::{self, CreatedToken};
use crate::web::signed_in::SignedIn;
use crate::web::state::AppState;

/// An API token as listed (never the secret itself).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TokenInfo {
    pub id: i64,
    pub name: String,
    /// The first characters of the token, to recognise it.
    pub prefix: String,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub created_at: NaiveDateTime,
    #[serde(serialize_with = "crate::service::utc_json::optional")]
    pub last_used_at: Option<NaiveDateTime>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct NewToken {
    pub name: String,
}

/// The caller's API tokens.
#[utoipa::path(get, path = "/api/v1/tokens", tag = "accounts",
    responses((status = 200, body = Vec<TokenInfo>), (status = 401, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn list(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
) -> AppResult<Json<Vec<TokenInfo>>> {
    let tokens = state
        .db(move |conn| accounts::api_tokens(conn, &actor))
        .await?;
    Ok(Json(
        tokens
            .into_iter()
            .map(|t| TokenInfo {
                id: t.id,
                name: t.name,
                prefix: t.prefix,
                created_at: t.created_at,
                last_used_at: t.last_used_at,
            })
            .collect(),
    ))
}

/// Creates another token for the caller; the response is the only time it is shown.
#[utoipa::path(post, path = "/api/v1/tokens", tag = "accounts", request_body = NewToken,
    responses((status = 201, body = CreatedToken), (status = 401, body = crate::web::error::Problem),
        (status = 422, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn create(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    input: Json<NewToken>,
) -> AppResult<HttpResponse> {
    let name = input.into_inner().name;
    let created = state
        .db(move |conn| accounts::create_api_token(conn, &actor, &name))
        .await?;
    // The only copy of the secret: no cache may keep it.
    Ok(HttpResponse::build(StatusCode::CREATED)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(created))
}

/// Revokes one of the caller's tokens.
#[utoipa::path(delete, path = "/api/v1/tokens/{id}", tag = "accounts", params(("id" = i64, Path, description = "token id")),
    responses((status = 204), (status = 401, body = crate::web::error::Problem), (status = 404, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn revoke(
    SignedIn(actor): SignedIn,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    state
        .db(move |conn| accounts::revoke_api_token(conn, &actor, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}
