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
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::events::{self as ev, Event};
use crate::service::paging::{Page, PageRequest};
use crate::web::ctx::Ctx;
use crate::web::pager::Pager;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::{EventStatus, Spelling};

/// How many events of each status the list shows before its "show all" link.
const SECTION_LIMIT: usize = 10;

/// The list's query: a status shows that status alone, a page at a time.
#[derive(Debug, Deserialize, Default)]
pub struct ListQuery {
    #[serde(default)]
    status: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

/// The events of one status: the first few of it, or a page of it.
struct Section {
    status: EventStatus,
    page: Page<Event>,
}

#[derive(Template)]
#[template(path = "events.html")]
struct ListPage {
    ctx: Ctx,
    /// Running, upcoming and finished; one of them when the query names a status.
    sections: Vec<Section>,
    /// Under a list of one status: its pages.
    pager: Option<Pager>,
}

impl ListPage {
    fn heading(&self, status: &EventStatus) -> String {
        self.ctx.t(match status {
            EventStatus::Running => "events.running",
            EventStatus::Registration => "events.upcoming",
            EventStatus::Finished => "events.finished",
        })
    }
}

/// Without a status: the first few events of each status, each with a link to all of it;
/// with one: a page of that status.
pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let query = query.into_inner();
    let status = ev::settings::status_filter(Some(&query.status))?;
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    let sections = state
        .db(move |conn| {
            let (statuses, page) = match status {
                Some(status) => (vec![status], page),
                None => (
                    vec![
                        EventStatus::Running,
                        EventStatus::Registration,
                        EventStatus::Finished,
                    ],
                    PageRequest::first(SECTION_LIMIT),
                ),
            };
            statuses
                .into_iter()
                .map(|status| {
                    let page = ev::settings::list(conn, Some(status), &page)?;
                    Ok(Section { status, page })
                })
                .collect::<AppResult<Vec<_>>>()
        })
        .await?;
    let pager = status.map(|_| {
        let next = sections.first().and_then(|s| s.page.next_cursor.as_deref());
        Pager::new(&req, next)
    });
    render::page(
        StatusCode::OK,
        &ListPage {
            ctx,
            sections,
            pager,
        },
    )
}
