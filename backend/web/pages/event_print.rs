//! Print sheets of an event, what an arbiter pins on the wall: the pairings of a round, the
//! standings and the crosstable after a round. They have their own bare layout
//! (`print_base.html`: no navigation, black on white, A4) and come from the same use cases
//! as the event's tabs, with the same rule for drafts.
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::events::Event;
use crate::service::events::ballot::OpeningView;
use crate::service::events::schedule::{self, RoundState, Schedule, ScheduleRound};
use crate::service::events::sheets::{
    self, CrosstableSheet, PairingSheet, SheetStanding, StandingsSheet,
};
use crate::web::ctx::Ctx;
use crate::web::opening_diagram::{self, OpeningDiagram};
use crate::web::pages::keizer;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::tournament::ByeKind;
use damka_domain::vocabulary::{ResultCode, System};

/// The date the sheet is printed on, on the site's clock.
fn printed_on(ctx: &Ctx) -> String {
    ctx.date(&chrono::Utc::now().naive_utc())
}

#[derive(Template)]
#[template(path = "print_pairings.html")]
struct PairingsPage {
    ctx: Ctx,
    /// Today, as the page's language writes a date.
    printed_on: String,
    event: Event,
    sheet: PairingSheet,
}

impl PairingsPage {
    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.event, *half_points)
    }

    /// Games spaced so they read from across the room (`1 - 0`, `½ - ½`, or the 2-1-0
    /// scale), forfeits as entered (`+/-`, `-/+`, `-/-`).
    fn result(&self, code: &Option<ResultCode>) -> String {
        code.map(|c| c.shown(self.event.scoring_display, true))
            .unwrap_or_default()
    }

    fn opening_text(&self, opening: &OpeningView) -> String {
        crate::web::pages::micro_match::opening_text(self.ctx.lang, opening)
    }

    fn round_opening_text(&self, opening: &OpeningView) -> String {
        crate::web::pages::micro_match::round_opening_text(self.ctx.lang, opening)
    }

    /// The opening's position as a small diagram, with its FEN.
    fn opening_diagram(&self, opening: &OpeningView) -> Option<OpeningDiagram> {
        opening_diagram::of_opening(self.ctx.lang, opening)
    }

    /// Why a player has no game (a Keizer event's absences by their Keizer names).
    fn bye_label(&self, kind: &ByeKind) -> String {
        if self.event.system == System::Keizer {
            keizer::absence(self.ctx.lang, *kind)
        } else {
            self.ctx.t(&format!("event.bye.{kind}"))
        }
    }
}

/// `GET /events/{id}/rounds/{n}/print`: the pairing sheet of round n.
pub async fn pairings(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> AppResult<HttpResponse> {
    let (id, round) = path.into_inner();
    let actor = ctx.actor();
    let sheet = state
        .db(move |conn| sheets::pairing_sheet(conn, &actor, id, round))
        .await?;
    render::page(
        StatusCode::OK,
        &PairingsPage {
            printed_on: printed_on(&ctx),
            ctx,
            event: sheet.event.clone(),
            sheet,
        },
    )
}

/// `?after=N` as on the event's standings tab; `?round=N` and the API's `?after_round=N`
/// mean the same.
#[derive(Deserialize)]
pub struct AfterQuery {
    #[serde(default, alias = "round", alias = "after_round")]
    pub(super) after: Option<u32>,
}

#[derive(Template)]
#[template(path = "print_standings.html")]
struct StandingsPage {
    ctx: Ctx,
    /// Today, as the page's language writes a date.
    printed_on: String,
    event: Event,
    /// A Keizer event's rows come in Keizer order, the place the Keizer rank.
    sheet: StandingsSheet,
}

impl StandingsPage {
    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.event, *half_points)
    }

    fn tiebreak_label(&self, code: &str) -> String {
        crate::web::tiebreaks::label(self.ctx.lang, self.event.variant, self.event.system, code)
    }

    fn tiebreak_abbr(&self, code: &str) -> String {
        crate::web::tiebreaks::abbreviation(
            self.ctx.lang,
            self.event.variant,
            self.event.system,
            code,
        )
    }

    fn has_clubs(&self) -> bool {
        self.sheet.rows.iter().any(|r| r.club.is_some())
    }

    fn has_countries(&self) -> bool {
        self.sheet.rows.iter().any(|r| !r.country.is_empty())
    }

    fn is_keizer(&self) -> bool {
        self.event.system == System::Keizer
    }

    /// The Keizer columns of a row: points, value, games, absences.
    fn keizer_cells(&self, row: &SheetStanding) -> (String, String, String, String) {
        let number = |n: Option<u32>| n.map(|n| n.to_string()).unwrap_or_default();
        (
            row.keizer_sixths
                .map(|s| keizer::points(self.ctx.lang, s))
                .unwrap_or_default(),
            number(row.value),
            number(row.games),
            number(row.absences),
        )
    }
}

/// `GET /events/{id}/standings/print[?after=N]`: the standings sheet.
pub async fn standings(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let after = query.after;
    let actor = ctx.actor();
    let sheet = state
        .db(move |conn| sheets::standings_sheet(conn, &actor, id, after))
        .await?;
    render::page(
        StatusCode::OK,
        &StandingsPage {
            printed_on: printed_on(&ctx),
            ctx,
            event: sheet.event.clone(),
            sheet,
        },
    )
}

#[derive(Template)]
#[template(path = "print_crosstable.html")]
struct CrosstablePage {
    ctx: Ctx,
    /// Today, as the page's language writes a date.
    printed_on: String,
    event: Event,
    sheet: CrosstableSheet,
}

impl CrosstablePage {
    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.event, *half_points)
    }

    fn tiebreak_label(&self, code: &str) -> String {
        crate::web::tiebreaks::label(self.ctx.lang, self.event.variant, self.event.system, code)
    }

    fn tiebreak_abbr(&self, code: &str) -> String {
        crate::web::tiebreaks::abbreviation(
            self.ctx.lang,
            self.event.variant,
            self.event.system,
            code,
        )
    }

    fn cross_cell(&self, text: &str) -> String {
        crate::web::cross_cells::cell(self.ctx.lang, text)
    }

    fn cross_legend(&self, round_robin: &bool) -> &'static str {
        crate::web::cross_cells::legend_key(*round_robin)
    }
}

/// `GET /events/{id}/crosstable/print[?after=N]`: the crosstable sheet (A4 landscape).
pub async fn crosstable(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let after = query.after;
    let actor = ctx.actor();
    let sheet = state
        .db(move |conn| sheets::crosstable_sheet(conn, &actor, id, after))
        .await?;
    render::page(
        StatusCode::OK,
        &CrosstablePage {
            printed_on: printed_on(&ctx),
            ctx,
            event: sheet.event.clone(),
            sheet,
        },
    )
}

#[derive(Template)]
#[template(path = "print_schedule.html")]
struct SchedulePage {
    ctx: Ctx,
    /// Today, as the page's language writes a date.
    printed_on: String,
    event: Event,
    schedule: Schedule,
}

impl SchedulePage {
    fn result(&self, code: &Option<ResultCode>) -> String {
        code.map(|c| c.shown(self.event.scoring_display, true))
            .unwrap_or_default()
    }

    fn bye_label(&self, kind: &ByeKind) -> String {
        if self.event.system == System::Keizer {
            keizer::absence(self.ctx.lang, *kind)
        } else {
            self.ctx.t(&format!("event.bye.{kind}"))
        }
    }

    fn is_planned(&self, round: &ScheduleRound) -> bool {
        round.state == RoundState::Planned
    }

    fn is_unpublished(&self, round: &ScheduleRound) -> bool {
        round.state == RoundState::Unpublished
            || (round.state == RoundState::Paired && !round.sheet.published)
    }

    fn is_round_robin(&self) -> bool {
        self.event.system.is_round_robin()
    }
}

/// `GET /events/{id}/schedule/print`: every round's pairings on one sheet (a round-robin's
/// rounds to come as its table pairs them).
pub async fn schedule(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let schedule = state
        .db(move |conn| schedule::schedule(conn, &actor, id))
        .await?;
    render::page(
        StatusCode::OK,
        &SchedulePage {
            printed_on: printed_on(&ctx),
            ctx,
            event: schedule.event.clone(),
            schedule,
        },
    )
}
