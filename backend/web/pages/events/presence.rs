//! The officials' check list of the round about to be paired (Keizer club nights): every
//! entrant with a "present" tick, the absences already recorded by their kind; saving it
//! records who is absent (service `events::presence`), then the round is paired as usual.
use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use crate::service::events::presence::{self, PresenceInput, PresenceList, PresenceRow};
use crate::service::events::{self as ev, Event};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pages::keizer;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "event_presence.html")]
struct PresencePage {
    ctx: Ctx,
    event: Event,
    list: PresenceList,
    errors: FormErrors,
}

impl PresencePage {
    /// The recorded absence of a row, in words; empty when the player is present.
    fn absence_text(&self, row: &PresenceRow) -> String {
        row.absence
            .map(|kind| keizer::absence(self.ctx.lang, kind))
            .unwrap_or_default()
    }

    fn title(&self) -> String {
        self.ctx.tf1("keizer.presence.title", &self.list.round)
    }
}

async fn page(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    status: StatusCode,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let (event, list) = state
        .db(move |conn| {
            let list = presence::check_list(conn, &actor, id)?;
            Ok((ev::load(conn, id)?, list))
        })
        .await?;
    render::page(
        status,
        &PresencePage {
            ctx,
            event,
            list,
            errors,
        },
    )
}

/// `GET /events/{id}/presence`: the check list.
pub async fn form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    page(
        ctx,
        &state,
        path.into_inner(),
        StatusCode::OK,
        FormErrors::none(),
    )
    .await
}

/// The ticked entries of the form: fields `present_<entry id>`.
fn ticked(fields: &HashMap<String, String>) -> AppResult<Vec<i64>> {
    let mut present = Vec::new();
    for field in fields.keys() {
        if let Some(id) = field.strip_prefix("present_") {
            let id = id
                .parse::<i64>()
                .map_err(|_| AppError::invalid("present", Refusal::NotAnEntry))?;
            present.push(id);
        }
    }
    present.sort_unstable();
    Ok(present)
}

/// `POST /events/{id}/presence`: records the check list; back to the pairings tab, where
/// the round is paired.
pub async fn record(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(fields): CsrfForm<HashMap<String, String>>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let result = match ticked(&fields) {
        Ok(present) => {
            state
                .db(move |conn| presence::record(conn, &actor, id, &PresenceInput { present }))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{id}?tab=rounds"),
            "ok",
            "flash.presence_saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            let status = if errors.field.is_empty() {
                StatusCode::CONFLICT
            } else {
                StatusCode::UNPROCESSABLE_ENTITY
            };
            page(ctx, &state, id, status, errors).await
        }
    }
}
