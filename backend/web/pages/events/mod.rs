//! Event pages: the list, the event with its tabs (information, entries, rounds,
//! standings), the organiser's actions and forms, a player's card and the TRF export.
mod actions;
mod card;
mod end_game;
mod export;
mod form;
mod presence;
mod show;

pub use actions::{
    absence, add_arbiter, add_entry, allow, finish, forbid, pair, publish, reopen, repair, result,
    round_results, start_clocks, withdraw,
};
pub use card::card;
pub use export::export_trf;
pub use form::{create, edit_form, new_form, update};
pub use presence::{form as presence_form, record as record_presence};
pub use show::show;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::service::AppResult;
use crate::service::events::{self as ev, Event};
use crate::web::ctx::Ctx;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::EventStatus;

#[derive(Template)]
#[template(path = "events.html")]
struct ListPage {
    ctx: Ctx,
    running: Vec<Event>,
    upcoming: Vec<Event>,
    finished: Vec<Event>,
}

pub async fn list(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HttpResponse> {
    let all = state.db(ev::settings::list).await?;
    let pick = |status: EventStatus| {
        all.iter()
            .filter(|e| e.status == status)
            .cloned()
            .collect::<Vec<_>>()
    };
    render::page(
        StatusCode::OK,
        &ListPage {
            running: pick(EventStatus::Running),
            upcoming: pick(EventStatus::Registration),
            finished: pick(EventStatus::Finished),
            ctx,
        },
    )
}
