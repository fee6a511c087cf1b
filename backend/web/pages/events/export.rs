//! The event as a TRF file.
use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::service::AppResult;
use crate::service::events::reports::{self};
use crate::web::ctx::Ctx;
use crate::web::state::AppState;

pub async fn export_trf(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let trf = state.db(move |conn| reports::trf(conn, &actor, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"event-{id}.trf\""),
        ))
        .body(trf))
}
