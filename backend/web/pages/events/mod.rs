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
use crate::web::form::optional_number;
use crate::web::pager::Pager;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::{EventStatus, Spelling};

/// How many events of each status the list shows before its "show all" link.
const SECTION_LIMIT: usize = 10;

/// The list's query: a status shows that status alone, a page at a time; a club or a
/// player narrows the list to their events (empty fields mean "no filter").
#[derive(Debug, Deserialize, Default)]
pub struct ListQuery {
    #[serde(default)]
    status: String,
    #[serde(default)]
    club_id: String,
    #[serde(default)]
    player_id: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

/// Whose events the list shows, as its heading and its links say.
#[derive(Default)]
struct Scope {
    /// "Events of the club X" or "Events of player Y"; none for every event.
    heading: Option<String>,
    /// The filter's query pairs, kept by the list's links (empty for every event).
    query: String,
}

impl Scope {
    /// Reads the club's or the player's name (an unknown one is not found).
    fn of(
        conn: &mut crate::store::DbConn,
        ctx: &Ctx,
        filter: &ev::settings::ListFilter,
    ) -> AppResult<Scope> {
        if let Some(id) = filter.club_id {
            let club = crate::service::clubs::get(conn, id)?;
            return Ok(Scope {
                heading: Some(ctx.tf1("events.of_club", &club.name)),
                query: format!("club_id={id}"),
            });
        }
        if let Some(id) = filter.player_id {
            let player = crate::service::players::get(conn, id)?;
            return Ok(Scope {
                heading: Some(ctx.tf1("events.of_player", &player.name)),
                query: format!("player_id={id}"),
            });
        }
        Ok(Scope::default())
    }

    /// The link to every event of this scope of one status.
    fn status_link(&self, status: &EventStatus) -> String {
        match self.query.as_str() {
            "" => format!("/events?status={}", status.spelling()),
            query => format!("/events?status={}&{query}", status.spelling()),
        }
    }
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
    scope: Scope,
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
    let filter = ev::settings::ListFilter {
        status,
        club_id: optional_number("club_id", &query.club_id)?,
        player_id: optional_number("player_id", &query.player_id)?,
    };
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    let lang_ctx = ctx.clone();
    let (scope, sections) = state
        .db(move |conn| {
            let scope = Scope::of(conn, &lang_ctx, &filter)?;
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
            let sections = statuses
                .into_iter()
                .map(|status| {
                    let filter = ev::settings::ListFilter {
                        status: Some(status),
                        ..filter
                    };
                    let page = ev::settings::list(conn, filter, &page)?;
                    Ok(Section { status, page })
                })
                .collect::<AppResult<Vec<_>>>()?;
            Ok((scope, sections))
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
            scope,
        },
    )
}
