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
    absence, add_arbiter, add_entry, allow, entries_with_error, finish, forbid, pair, publish,
    reopen, repair, result, round_results, start_clocks, withdraw,
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

/// The list's query: a status shows that status alone, a page at a time; a club, a player,
/// a variant, a year or words of the name narrow the list (empty fields mean "no filter").
#[derive(Debug, Deserialize, Default, Clone)]
pub struct ListQuery {
    #[serde(default)]
    status: String,
    #[serde(default)]
    club_id: String,
    #[serde(default)]
    player_id: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    year: String,
    #[serde(default)]
    q: String,
    /// `1`: the archived events instead of the others.
    #[serde(default)]
    archived: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

impl ListQuery {
    fn filter(&self) -> AppResult<ev::settings::ListFilter> {
        let text = |value: &str| Some(value.to_string()).filter(|v| !v.trim().is_empty());
        ev::settings::ListFilterText {
            status: text(&self.status),
            club_id: optional_number("club_id", &self.club_id)?,
            player_id: optional_number("player_id", &self.player_id)?,
            variant: text(&self.variant),
            year: optional_number("year", &self.year)?,
            q: text(&self.q),
            archived: self.archived_only(),
        }
        .read()
    }

    /// Whether the list shows the archived events (the checkbox sends `1`).
    fn archived_only(&self) -> bool {
        !self.archived.trim().is_empty()
    }

    /// The filters other than the status as query pairs, kept by the "show all" links.
    fn kept_pairs(&self) -> String {
        let pairs: Vec<(&str, &str)> = [
            ("q", self.q.as_str()),
            ("club_id", self.club_id.as_str()),
            ("player_id", self.player_id.as_str()),
            ("variant", self.variant.as_str()),
            ("year", self.year.as_str()),
            ("archived", self.archived.as_str()),
        ]
        .into_iter()
        .map(|(name, value)| (name, value.trim()))
        .filter(|(_, value)| !value.is_empty())
        .collect();
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }
}

/// Whose events the list shows, as its heading and its links say.
#[derive(Default)]
struct Scope {
    /// "Events of the club X" or "Events of player Y"; none for every event.
    heading: Option<String>,
    /// The filters' query pairs but the status, kept by the list's links (empty for every
    /// event).
    query: String,
}

impl Scope {
    /// Reads the club's or the player's name (an unknown one is not found).
    fn of(
        conn: &mut crate::store::DbConn,
        ctx: &Ctx,
        filter: &ev::settings::ListFilter,
        query: String,
    ) -> AppResult<Scope> {
        let heading = if let Some(id) = filter.club_id {
            let club = crate::service::clubs::get(conn, id)?;
            Some(ctx.tf1("events.of_club", &club.name))
        } else if let Some(id) = filter.player_id {
            let player = crate::service::players::get(conn, id)?;
            Some(ctx.tf1("events.of_player", &player.name))
        } else {
            None
        };
        Ok(Scope { heading, query })
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
    /// The filter form's fields as typed.
    form: ListQuery,
    /// The clubs of the form's club list.
    clubs: Vec<crate::service::clubs::ClubView>,
}

impl ListPage {
    fn variants(&self) -> &'static [damka_engine::Variant] {
        &damka_engine::Variant::ALL
    }

    fn statuses(&self) -> [EventStatus; 3] {
        [
            EventStatus::Running,
            EventStatus::Registration,
            EventStatus::Finished,
        ]
    }

    fn club_selected(&self, id: &i64) -> bool {
        self.form.club_id.trim() == id.to_string()
    }

    /// Whether the list is narrowed at all (then a link leads back to every event).
    fn filtered(&self) -> bool {
        self.pager.is_some() || !self.scope.query.is_empty()
    }

    fn heading(&self, status: &EventStatus) -> String {
        self.ctx.t(match status {
            EventStatus::Running => "events.running",
            EventStatus::Registration => "events.upcoming",
            EventStatus::Finished => "events.finished",
        })
    }
}

/// Without a status: the first few events of each status, each with a link to all of it;
/// with one: a page of that status. Both under the filters of the form.
pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let form = query.into_inner();
    let filter = form.filter()?;
    let status = filter.status;
    let page = PageRequest::parse(form.limit, form.cursor.as_deref())?;
    let lang_ctx = ctx.clone();
    let kept = form.kept_pairs();
    let (scope, sections, clubs) = state
        .db(move |conn| {
            let scope = Scope::of(conn, &lang_ctx, &filter, kept)?;
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
                        ..filter.clone()
                    };
                    let page = ev::settings::list(conn, filter, &page)?;
                    Ok(Section { status, page })
                })
                .collect::<AppResult<Vec<_>>>()?;
            Ok((scope, sections, crate::service::clubs::list(conn)?))
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
            form,
            clubs,
        },
    )
}
