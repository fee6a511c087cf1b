//! The arbiter's form for changing a round's pairing by hand (check, then save), and the
//! page of every change and correction made in an event.
use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::events::audit::{self, ChangeView};
use crate::service::events::manual::{
    self, BoardInput, PairingForm, PairingInput, PairingWarning, RoundPlayer,
};
use crate::service::events::{self as ev, Event};
use crate::service::paging::PageRequest;
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pager::Pager;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::{ResultCode, Spelling};

/// Rows beyond the stored boards, so that boards can be added (e.g. when a player with a
/// requested bye is paired after all).
const EXTRA_ROWS: usize = 2;
/// Above this many players, boards are typed as start numbers: a select per cell would
/// make the page megabytes long.
const MAX_PLAYERS_FOR_SELECTS: usize = 60;

/// One row of the form as the arbiter left it (start numbers as typed).
struct Row {
    white: String,
    black: String,
}

#[derive(Template)]
#[template(path = "event_pairing.html")]
struct PairingPage {
    ctx: Ctx,
    event: Event,
    number: i32,
    players: Vec<RoundPlayer>,
    round_robin: bool,
    rows: Vec<Row>,
    bye: String,
    /// After a check: the warnings (an empty list says the pairing breaks no rule).
    warnings: Option<Vec<String>>,
    errors: FormErrors,
}

impl PairingPage {
    fn use_selects(&self) -> bool {
        self.players.len() <= MAX_PLAYERS_FOR_SELECTS
    }

    /// "Board 3: White", for screen readers.
    fn cell_label(&self, board: &&usize, colour_key: &str) -> String {
        format!(
            "{} {board}: {}",
            self.ctx.t("pairing.board"),
            self.ctx.t(colour_key)
        )
    }

    fn bye_label(&self) -> String {
        self.ctx.t(if self.round_robin {
            "pairing.bye_round_robin"
        } else {
            "pairing.bye_swiss"
        })
    }

    fn option_label(&self, p: &RoundPlayer) -> String {
        format!(
            "{}. {} ({})",
            p.start_no,
            p.name,
            self.ctx.lang.points(i64::from(p.points))
        )
    }
}

async fn load_form(
    ctx: &Ctx,
    state: &AppState,
    id: i64,
    number: i32,
) -> AppResult<(Event, PairingForm)> {
    let actor = ctx.actor();
    state
        .db(move |conn| {
            let event = ev::load(conn, id)?;
            Ok((event, manual::form(conn, &actor, id, number)?))
        })
        .await
}

fn rows_of(form: &PairingForm) -> (Vec<Row>, String) {
    let mut rows: Vec<Row> = form
        .current
        .boards
        .iter()
        .map(|b| Row {
            white: b.white.to_string(),
            black: b.black.to_string(),
        })
        .collect();
    rows.extend((0..EXTRA_ROWS).map(|_| Row {
        white: String::new(),
        black: String::new(),
    }));
    let bye = form.current.bye.map(|b| b.to_string()).unwrap_or_default();
    (rows, bye)
}

pub async fn form(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> AppResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let (event, form) = load_form(&ctx, &state, id, number).await?;
    let (rows, bye) = rows_of(&form);
    render::page(
        StatusCode::OK,
        &PairingPage {
            ctx,
            event,
            number,
            players: form.players,
            round_robin: form.round_robin,
            rows,
            bye,
            warnings: None,
            errors: FormErrors::none(),
        },
    )
}

/// The submitted rows, in order: `white_N`, `black_N` (start numbers, empty for none),
/// `bye`, and `action` (`check` or `save`).
fn submitted_rows(fields: &HashMap<String, String>) -> (Vec<Row>, String) {
    let mut numbers: Vec<usize> = fields
        .keys()
        .filter_map(|k| {
            k.strip_prefix("white_")
                .or_else(|| k.strip_prefix("black_"))
        })
        .filter_map(|n| n.parse().ok())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    let field = |name: String| {
        fields
            .get(&name)
            .map(|v| v.trim().to_string())
            .unwrap_or_default()
    };
    let rows = numbers
        .into_iter()
        .map(|n| Row {
            white: field(format!("white_{n}")),
            black: field(format!("black_{n}")),
        })
        .collect();
    (rows, field("bye".to_string()))
}

fn start_number(value: &str) -> AppResult<i32> {
    value.parse().map_err(|_| {
        AppError::invalid(
            "boards",
            Refusal::NotAStartNumber {
                value: value.to_string(),
            },
        )
    })
}

/// The rows as the use case's input: empty rows are dropped, half-filled ones refused.
fn input_of(rows: &[Row], bye: &str) -> AppResult<PairingInput> {
    let mut boards = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match (row.white.is_empty(), row.black.is_empty()) {
            (true, true) => continue,
            (false, false) => boards.push(BoardInput {
                white: start_number(&row.white)?,
                black: start_number(&row.black)?,
            }),
            _ => {
                return Err(AppError::invalid(
                    "boards",
                    Refusal::RowNeedsTwoPlayers { row: i + 1 },
                ));
            }
        }
    }
    let bye = if bye.is_empty() {
        None
    } else {
        Some(start_number(bye)?)
    };
    Ok(PairingInput { boards, bye })
}

fn warning_texts(ctx: &Ctx, warnings: &[PairingWarning]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| crate::web::pairing_warnings::text(ctx.lang, w))
        .collect()
}

pub async fn submit(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    CsrfForm(fields): CsrfForm<HashMap<String, String>>,
) -> AppResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let actor = ctx.actor();
    let (rows, bye) = submitted_rows(&fields);
    let save = fields.get("action").is_some_and(|a| a == "save");
    let outcome = match input_of(&rows, &bye) {
        Ok(input) => {
            state
                .db(move |conn| {
                    if save {
                        manual::change(conn, &actor, id, number, &input).map(|o| o.warnings)
                    } else {
                        manual::check(conn, &actor, id, number, &input).map(|c| c.warnings)
                    }
                })
                .await
        }
        Err(err) => Err(err),
    };
    let (warnings, errors, status) = match outcome {
        Ok(_) if save => {
            return Ok(render::redirect_with_flash(
                &req,
                &format!("/events/{id}?tab=rounds"),
                "ok",
                "flash.pairing_changed",
            ));
        }
        Ok(warnings) => (
            Some(warning_texts(&ctx, &warnings)),
            FormErrors::none(),
            StatusCode::OK,
        ),
        Err(err @ (AppError::Invalid { .. } | AppError::Conflict { .. })) => {
            let status = if matches!(err, AppError::Invalid { .. }) {
                StatusCode::UNPROCESSABLE_ENTITY
            } else {
                StatusCode::CONFLICT
            };
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            (None, errors, status)
        }
        Err(err) => return Err(err),
    };
    let (event, form) = load_form(&ctx, &state, id, number).await?;
    render::page(
        status,
        &PairingPage {
            ctx,
            event,
            number,
            players: form.players,
            round_robin: form.round_robin,
            rows,
            bye,
            warnings,
            errors,
        },
    )
}

#[derive(Template)]
#[template(path = "event_changes.html")]
struct ChangesPage {
    ctx: Ctx,
    event: Event,
    /// One page of the trail.
    changes: Vec<ChangeView>,
    pager: Pager,
}

/// The trail's page as asked: `?limit=` changes after `cursor`.
#[derive(Debug, Deserialize)]
pub struct ChangesQuery {
    limit: Option<i64>,
    cursor: Option<String>,
}

impl ChangesPage {
    fn warning_texts(&self, change: &ChangeView) -> Vec<String> {
        warning_texts(&self.ctx, &change.warnings)
    }

    /// "Board 3, Anna - Boris: 1-0 → 0-1"; a cleared result shows as a dash.
    fn result_change(&self, change: &ChangeView) -> String {
        // As the event prints results (½-½, or the 2-1-0 scale), not as they are stored.
        let code = |c: &Option<String>| match c.as_deref() {
            Some(text) => ResultCode::from_spelling(text).map_or_else(
                || text.to_string(),
                |r| r.shown(self.event.scoring_display, false),
            ),
            None => "—".to_string(),
        };
        self.ctx.lang.tf(
            "changes.result",
            &[
                &change.board.unwrap_or_default(),
                &change.game.as_deref().unwrap_or_default(),
                &code(&change.old),
                &code(&change.new),
            ],
        )
    }
}

pub async fn changes(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ChangesQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let query = query.into_inner();
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    let (event, changes) = state
        .db(move |conn| {
            let event = ev::load(conn, id)?;
            Ok((event, audit::changes(conn, &actor, id, &page)?))
        })
        .await?;
    let pager = Pager::new(&req, changes.next_cursor.as_deref());
    render::page(
        StatusCode::OK,
        &ChangesPage {
            ctx,
            event,
            changes: changes.items,
            pager,
        },
    )
}
