//! PDN downloads from the pages: a game (the game page's link) and an event's games (the
//! links of the event's rounds), the same text the API serves, as files to save.
use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::service::AppResult;
use crate::service::games::pdn;
use crate::web::api::game_pdn::{PDN_CONTENT_TYPE, RoundQuery};
use crate::web::state::AppState;

fn attachment(filename: &str, text: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(PDN_CONTENT_TYPE)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(text)
}

pub async fn game(state: web::Data<AppState>, path: web::Path<i64>) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let text = state.db(move |conn| pdn::game_pdn(conn, id)).await?;
    Ok(attachment(&format!("game-{id}.pdn"), text))
}

pub async fn event(
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<RoundQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let round = query.into_inner().round;
    let text = state
        .db(move |conn| pdn::event_pdn(conn, id, round))
        .await?;
    let filename = match round {
        Some(round) => format!("event-{id}-round-{round}.pdn"),
        None => format!("event-{id}.pdn"),
    };
    Ok(attachment(&filename, text))
}
