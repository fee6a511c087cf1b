//! Event pages: the list, the event with its tabs (information, entries, rounds,
//! standings), the organiser's forms and the TRF export.
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::service::clubs::{self, ClubView};
use crate::service::events::audit::ChangeView;
use crate::service::events::entries::{self, AbsenceInput, EntryInput, EntryView};
use crate::service::events::overview::{self, EventOverview};
use crate::service::events::reports::{self, PlayerCardView};
use crate::service::events::rounds::{self, ResultInput, RoundView};
use crate::service::events::{self as ev, Event, EventInput, LocalRules, settings};
use crate::service::{AppError, AppResult, Refusal};
use crate::store::values::{
    EventStatus, ResultCode, ScoringDisplay, Spelling, System, TimeControl, spellings,
};
use crate::web::ctx::Ctx;
use crate::web::form::{CsrfForm, optional_number};
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;
use damka_domain::tournament::{ByeKind, Colour};
use damka_engine::Variant;

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

/// Everything the event's tabs show, from one load of its history.
type EventData = EventOverview;

async fn load(ctx: &Ctx, state: &AppState, id: i64) -> AppResult<EventData> {
    load_after(ctx, state, id, None).await
}

/// The event's data with standings (and crosstable) after `after_round` (default: the
/// last round with results).
async fn load_after(
    ctx: &Ctx,
    state: &AppState,
    id: i64,
    after_round: Option<u32>,
) -> AppResult<EventData> {
    let actor = ctx.actor();
    state
        .db(move |conn| overview::overview(conn, &actor, id, after_round))
        .await
}

#[derive(Template)]
#[template(path = "event.html")]
struct EventPage {
    ctx: Ctx,
    tab: String,
    data: EventData,
    errors: FormErrors,
}

impl EventPage {
    fn can_self_register(&self) -> bool {
        self.data.may_self_register
    }

    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.data.event, *half_points)
    }

    fn result_label(&self, result: &Option<ResultCode>) -> String {
        match result {
            Some(code) => self.code_label(code),
            None => String::from("—"),
        }
    }

    /// A result as this event prints it (½ for a draw, or the 2-1-0 scale).
    fn code_label(&self, result: &ResultCode) -> String {
        result.shown(self.data.event.scoring_display, false)
    }

    fn next_round(&self) -> i32 {
        self.data.rounds.len() as i32 + 1
    }

    fn next_round_text(&self, key: &str) -> String {
        self.ctx.tf1(key, &self.next_round())
    }

    /// Whether the viewer may still change this round's pairing by hand (the service's
    /// rule: the last round, no result in yet, the event not finished).
    fn can_change_pairing(&self, round: &RoundView) -> bool {
        self.data.changeable_round == Some(round.number)
    }

    fn pairing_change(&self, round: &i32) -> Option<&ChangeView> {
        self.data.pairing_changes.get(round)
    }

    /// "half-point bye in round 3" for an entry's pending requests.
    fn requests_text(&self, entry: &EntryView) -> String {
        entry
            .requests
            .iter()
            .map(|r| {
                self.ctx
                    .lang
                    .tf(&format!("event.request.{}", r.kind), &[&r.round])
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The request already made for the next round, to preselect it.
    fn next_request(&self, entry: &EntryView) -> Option<ByeKind> {
        let next = self.next_round();
        entry
            .requests
            .iter()
            .find(|r| r.round == next)
            .map(|r| r.kind)
    }

    /// What a player may ask for instead of a game: a half-point bye (Swiss only) or an
    /// absence.
    fn absence_kinds(&self) -> &'static [ByeKind] {
        if self.data.event.system.is_round_robin() {
            &[ByeKind::ZeroPoint]
        } else {
            &[ByeKind::HalfPoint, ByeKind::ZeroPoint]
        }
    }

    fn changed_by(&self, change: &ChangeView) -> String {
        self.ctx.lang.tf(
            "pairing.changed_by",
            &[&change.by, &self.ctx.date_time(&change.at)],
        )
    }

    fn warning_texts(&self, change: &ChangeView) -> Vec<String> {
        change
            .warnings
            .iter()
            .map(|w| crate::web::pairing_warnings::text(self.ctx.lang, w))
            .collect()
    }

    fn last_is_draft(&self) -> bool {
        self.data.rounds.last().is_some_and(|r| !r.published)
    }

    fn tiebreak_label(&self, code: &str) -> String {
        crate::web::tiebreaks::label(
            self.ctx.lang,
            self.data.event.variant,
            self.data.event.system,
            code,
        )
    }

    /// Rounds that have results, for the "after round" selector.
    fn rounds_with_results(&self) -> Vec<i32> {
        self.data
            .rounds
            .iter()
            .filter(|r| r.boards.iter().any(|b| b.result.is_some()))
            .map(|r| r.number)
            .collect()
    }

    fn results(&self) -> &'static [ResultCode] {
        ResultCode::ALL
    }
}

#[derive(Deserialize)]
pub struct TabQuery {
    #[serde(default)]
    tab: String,
    /// Standings and crosstable after this round.
    #[serde(default)]
    after: Option<u32>,
}

const TABS: [&str; 5] = ["info", "entries", "rounds", "standings", "crosstable"];

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<TabQuery>,
) -> AppResult<HttpResponse> {
    let tab = if TABS.contains(&query.tab.as_str()) {
        query.tab.clone()
    } else {
        "info".to_string()
    };
    let data = load_after(&ctx, &state, path.into_inner(), query.after).await?;
    render::page(
        StatusCode::OK,
        &EventPage {
            ctx,
            tab,
            data,
            errors: FormErrors::none(),
        },
    )
}

/// Runs an organiser action; on a validation or workflow error shows the tab again with
/// the message, else redirects back to the tab with a flash.
async fn act<F>(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    tab: &str,
    work: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::store::DbConn, &crate::service::Actor) -> AppResult<()> + Send + 'static,
{
    let actor = ctx.actor();
    actor.require_user()?;
    match state.db(move |conn| work(conn, &actor)).await {
        Ok(()) => Ok(render::redirect_with_flash(
            req,
            &format!("/events/{id}?tab={tab}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = match &err {
                AppError::Conflict { .. } | AppError::Invalid { .. } => {
                    FormErrors::from_error(&err, ctx.lang).ok_or(err)?
                }
                _ => return Err(err),
            };
            let data = load(&ctx, state, id).await?;
            let status = StatusCode::from_u16(errors_status(&errors))
                .unwrap_or(StatusCode::UNPROCESSABLE_ENTITY);
            render::page(
                status,
                &EventPage {
                    ctx,
                    tab: tab.to_string(),
                    data,
                    errors,
                },
            )
        }
    }
}

fn errors_status(errors: &FormErrors) -> u16 {
    if errors.field.is_empty() { 409 } else { 422 }
}

#[derive(Deserialize)]
pub struct EntryForm {
    #[serde(default)]
    player_id: String,
}

pub async fn add_entry(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<EntryForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let player_id = optional_number::<i64>("player_id", &form.player_id)?;
    act(&req, ctx, &state, id, "entries", move |conn, actor| {
        entries::add(conn, actor, id, &EntryInput { player_id }).map(|_| ())
    })
    .await
}

pub async fn withdraw(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let (id, entry) = path.into_inner();
    act(&req, ctx, &state, id, "entries", move |conn, actor| {
        entries::withdraw(conn, actor, id, entry)
    })
    .await
}

#[derive(Deserialize)]
pub struct AbsenceForm {
    round: String,
    #[serde(default)]
    kind: String,
}

pub async fn absence(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    CsrfForm(form): CsrfForm<AbsenceForm>,
) -> AppResult<HttpResponse> {
    let (id, entry) = path.into_inner();
    let round = optional_number::<i32>("round", &form.round)?
        .ok_or_else(|| AppError::invalid("round", Refusal::Required))?;
    act(&req, ctx, &state, id, "entries", move |conn, actor| {
        entries::set_absence(
            conn,
            actor,
            id,
            entry,
            &AbsenceInput {
                round,
                kind: form.kind,
            },
        )
    })
    .await
}

#[derive(Deserialize)]
pub struct ForbidForm {
    #[serde(default)]
    first: String,
    #[serde(default)]
    second: String,
}

pub async fn forbid(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<ForbidForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let first = optional_number::<i64>("first", &form.first)?
        .ok_or_else(|| AppError::invalid("first", Refusal::Required))?;
    let second = optional_number::<i64>("second", &form.second)?
        .ok_or_else(|| AppError::invalid("second", Refusal::Required))?;
    act(&req, ctx, &state, id, "entries", move |conn, actor| {
        entries::forbid_pair(conn, actor, id, first, second)
    })
    .await
}

pub async fn allow(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64, i64)>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let (id, first, second) = path.into_inner();
    act(&req, ctx, &state, id, "entries", move |conn, actor| {
        entries::allow_pair(conn, actor, id, first, second)
    })
    .await
}

#[derive(Deserialize)]
pub struct ArbiterForm {
    email: String,
}

pub async fn add_arbiter(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<ArbiterForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "info", move |conn, actor| {
        settings::add_arbiter(conn, actor, id, &form.email)
    })
    .await
}

pub async fn pair(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::pair_next(conn, actor, id).map(|_| ())
    })
    .await
}

pub async fn repair(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::repair_last(conn, actor, id).map(|_| ())
    })
    .await
}

pub async fn publish(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::publish_last(conn, actor, id)
    })
    .await
}

#[derive(Deserialize)]
pub struct ResultForm {
    #[serde(default)]
    result: String,
}

pub async fn result(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    CsrfForm(form): CsrfForm<ResultForm>,
) -> AppResult<HttpResponse> {
    let (id, pairing) = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::set_result(
            conn,
            actor,
            id,
            pairing,
            &ResultInput {
                result: form.result,
            },
        )
    })
    .await
}

pub async fn finish(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "standings", move |conn, actor| {
        settings::finish(conn, actor, id)
    })
    .await
}

pub async fn reopen(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "info", move |conn, actor| {
        settings::reopen(conn, actor, id)
    })
    .await
}

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

/// The event form's fields as typed.
#[derive(Deserialize, Clone, Default)]
pub struct EventForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    place: String,
    #[serde(default)]
    starts_on: String,
    #[serde(default)]
    ends_on: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    system: String,
    #[serde(default)]
    rounds: String,
    #[serde(default)]
    time_control: String,
    #[serde(default)]
    draw_offer_min_moves: String,
    #[serde(default)]
    rated: Option<String>,
    #[serde(default)]
    scoring_display: String,
    #[serde(default)]
    pab_half_points: String,
    #[serde(default)]
    tiebreaks: String,
    #[serde(default)]
    first_colour: String,
    #[serde(default)]
    self_registration: Option<String>,
    #[serde(default)]
    late_entry_until_round: String,
    #[serde(default)]
    capture_choice: String,
    #[serde(default)]
    mandatory_capture: String,
    #[serde(default)]
    no_progress_limit: String,
    #[serde(default)]
    move_limit: String,
    #[serde(default)]
    lone_kings_limit: String,
    /// The club the event belongs to; empty: none.
    #[serde(default)]
    club_id: String,
}

fn date(field: &'static str, value: &str) -> AppResult<Option<NaiveDate>> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| AppError::invalid(field, Refusal::NotADate))
}

impl EventForm {
    fn of(e: &EventInput) -> EventForm {
        EventForm {
            name: e.name.clone(),
            place: e.place.clone(),
            starts_on: e.starts_on.map(|d| d.to_string()).unwrap_or_default(),
            ends_on: e.ends_on.map(|d| d.to_string()).unwrap_or_default(),
            variant: e.variant.spelling().to_string(),
            system: e.system.spelling().to_string(),
            rounds: e.rounds.to_string(),
            time_control: e.time_control.spelling().to_string(),
            draw_offer_min_moves: e.draw_offer_min_moves.to_string(),
            rated: e.rated.then(|| "1".into()),
            scoring_display: e.scoring_display.spelling().to_string(),
            pab_half_points: e.pab_half_points.to_string(),
            tiebreaks: e.tiebreaks.clone(),
            first_colour: e.first_colour.spelling().to_string(),
            self_registration: e.self_registration.then(|| "1".into()),
            late_entry_until_round: e.late_entry_until_round.to_string(),
            capture_choice: e.local_rules.capture_choice.clone().unwrap_or_default(),
            mandatory_capture: match e.local_rules.mandatory_capture {
                Some(true) => "on".into(),
                Some(false) => "off".into(),
                None => String::new(),
            },
            no_progress_limit: optional_text(e.local_rules.no_progress_limit),
            move_limit: optional_text(e.local_rules.move_limit),
            lone_kings_limit: optional_text(e.local_rules.lone_kings_limit),
            club_id: optional_text(e.club_id),
        }
    }

    fn blank() -> EventForm {
        EventForm::of(&EventInput::default())
    }

    /// The form's text as the use cases take it: the one conversion of the event form.
    /// The settings as typed. A choice the form did not send at all takes the same
    /// default as in the API; one that was sent must be one of the choices.
    fn input(&self) -> AppResult<EventInput> {
        let defaults = EventInput::default();
        Ok(EventInput {
            name: self.name.clone(),
            place: self.place.clone(),
            starts_on: date("starts_on", &self.starts_on)?,
            ends_on: date("ends_on", &self.ends_on)?,
            variant: if self.variant.trim().is_empty() {
                defaults.variant
            } else {
                settings::parse_variant(&self.variant)?
            },
            local_rules: LocalRules {
                mandatory_capture: match self.mandatory_capture.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => None,
                },
                capture_choice: Some(self.capture_choice.clone()).filter(|c| !c.is_empty()),
                no_progress_limit: optional_number("no_progress_limit", &self.no_progress_limit)?,
                move_limit: optional_number("move_limit", &self.move_limit)?,
                lone_kings_limit: optional_number("lone_kings_limit", &self.lone_kings_limit)?,
            },
            system: choice("system", &self.system, defaults.system)?,
            rounds: optional_number("rounds", &self.rounds)?.unwrap_or(0),
            time_control: choice("time_control", &self.time_control, defaults.time_control)?,
            draw_offer_min_moves: optional_number(
                "draw_offer_min_moves",
                &self.draw_offer_min_moves,
            )?
            .unwrap_or(0),
            rated: self.rated.is_some(),
            scoring_display: choice(
                "scoring_display",
                &self.scoring_display,
                defaults.scoring_display,
            )?,
            pab_half_points: optional_number("pab_half_points", &self.pab_half_points)?
                .unwrap_or(2),
            tiebreaks: self.tiebreaks.clone(),
            first_colour: choice("first_colour", &self.first_colour, defaults.first_colour)?,
            self_registration: self.self_registration.is_some(),
            late_entry_until_round: optional_number(
                "late_entry_until_round",
                &self.late_entry_until_round,
            )?
            .unwrap_or(0),
            club_id: optional_number("club_id", &self.club_id)?,
        })
    }
}

/// A select's value: `default` when the form did not send it, else one of the choices.
fn choice<T: Spelling>(field: &'static str, value: &str, default: T) -> AppResult<T> {
    if value.trim().is_empty() {
        Ok(default)
    } else {
        settings::one_of::<T>(field, value.trim())
    }
}

/// A form field for an optional stored value: empty when there is none.
fn optional_text(value: Option<impl ToString>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

#[derive(Template)]
#[template(path = "event_form.html")]
struct FormPage {
    ctx: Ctx,
    event_id: Option<i64>,
    form: EventForm,
    errors: FormErrors,
    /// The clubs an event may belong to, by name.
    clubs: Vec<ClubView>,
}

impl FormPage {
    fn club_selected(&self, club: &ClubView) -> bool {
        self.form.club_id == club.id.to_string()
    }

    fn variants(&self) -> Vec<&'static str> {
        spellings::<Variant>()
    }

    fn systems(&self) -> Vec<&'static str> {
        spellings::<System>()
    }

    fn time_controls(&self) -> Vec<&'static str> {
        spellings::<TimeControl>()
    }

    fn scorings(&self) -> Vec<&'static str> {
        spellings::<ScoringDisplay>()
    }

    fn colours(&self) -> Vec<&'static str> {
        spellings::<Colour>()
    }
}

async fn club_choices(state: &AppState) -> AppResult<Vec<ClubView>> {
    state.db(clubs::list).await
}

pub async fn new_form(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HttpResponse> {
    if !ctx.actor().is_organiser() {
        ctx.actor().require_user()?;
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateEvents));
    }
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            event_id: None,
            form: EventForm::blank(),
            errors: FormErrors::none(),
            clubs: club_choices(&state).await?,
        },
    )
}

pub async fn create(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<EventForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    actor.require_user()?;
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| settings::create(conn, &actor, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(event) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{}", event.id),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    event_id: None,
                    form,
                    errors,
                    clubs: club_choices(&state).await?,
                },
            )
        }
    }
}

pub async fn edit_form(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let event = state
        .db(move |conn| {
            let event = ev::load(conn, id)?;
            ev::require_manager(&actor, &event)?;
            Ok(event)
        })
        .await?;
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            event_id: Some(id),
            form: EventForm::of(&event.settings()),
            errors: FormErrors::none(),
            clubs: club_choices(&state).await?,
        },
    )
}

pub async fn update(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<EventForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    actor.require_user()?;
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| settings::update(conn, &actor, id, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{id}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    event_id: Some(id),
                    form,
                    errors,
                    clubs: club_choices(&state).await?,
                },
            )
        }
    }
}

#[derive(Template)]
#[template(path = "event_card.html")]
struct CardPage {
    ctx: Ctx,
    event: Event,
    card: PlayerCardView,
    chart_svg: String,
}

impl CardPage {
    /// Points on the event's scale (doubled on 2-1-0), as on the standings tab.
    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.event, *half_points)
    }
}

/// A player's card: opponents, colours, results, running score and performance.
pub async fn card(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, u32)>,
) -> AppResult<HttpResponse> {
    let (id, start_no) = path.into_inner();
    let (event, card) = state
        .db(move |conn| {
            Ok((
                settings::get(conn, id)?,
                reports::player_card(conn, id, start_no)?,
            ))
        })
        .await?;
    let points: Vec<(String, i64)> = card
        .rounds
        .iter()
        .map(|r| (r.round.to_string(), i64::from(r.running_half_points)))
        .collect();
    // The chart's values are half-points: two per point on 1-½-0, one per point on 2-1-0.
    let per_point = if event.scoring_display == ScoringDisplay::TwoOneZero {
        1
    } else {
        2
    };
    let chart_svg = crate::web::svg::line_chart(&points, &ctx.t("event.running_score"), per_point);
    render::page(
        StatusCode::OK,
        &CardPage {
            ctx,
            event,
            card,
            chart_svg,
        },
    )
}
