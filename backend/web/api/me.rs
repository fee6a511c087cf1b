use actix_web::web::Json;
use serde::Serialize;

use super::ApiActor;
use crate::service::AppResult;

/// The account behind the API token.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Me {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    pub is_organiser: bool,
    pub player_id: Option<i64>,
    pub locale: Option<String>,
}

/// Who am I: the account of the API token.
#[utoipa::path(get, path = "/api/v1/me", tag = "accounts",
    responses((status = 200, body = Me), (status = 401, body = crate::web::error::Problem)),
    security(("token" = [])))]
pub async fn me(ApiActor(actor): ApiActor) -> AppResult<Json<Me>> {
    let user = actor.require_user()?;
    Ok(Json(Me {
        id: user.id,
        email: user.email.clone(),
        display_name: user.display_name.clone(),
        is_admin: user.is_admin,
        is_organiser: user.is_organiser,
        player_id: user.player_id,
        locale: user.locale.clone(),
    }))
}
