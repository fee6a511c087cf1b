//! The organiser's and arbiters' actions on the event's tabs: entries, requests,
//! forbidden pairs, arbiters, rounds and results. Each redirects back to its tab, or shows
//! the tab again with the refusal.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::service::events::entries::{self, AbsenceInput, EntryInput};
use crate::service::events::rounds::{self, ResultInput};
use crate::service::events::{confirmations, settings};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::{CsrfForm, optional_number};
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

use super::end_game;
use super::show::{EventPage, load};

/// Where an action's answer goes back to: a tab of the event and, for an action on one
/// round, that round (the pairings tab would show the latest otherwise).
struct Back<'a> {
    tab: &'a str,
    round: Option<i32>,
}

impl Back<'_> {
    fn path(&self, id: i64) -> String {
        match self.round {
            Some(round) => format!("/events/{id}?tab={}&round={round}", self.tab),
            None => format!("/events/{id}?tab={}", self.tab),
        }
    }
}

/// Runs an organiser action; on a validation or workflow error shows the tab again with
/// the message, else redirects back to the tab with a flash. For handlers that extracted
/// `SignedInPage`.
async fn act<F>(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    tab: &str,
    work: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::service::DbConn, &crate::service::Actor) -> AppResult<()>
        + Send
        + 'static,
{
    act_back(req, ctx, state, id, Back { tab, round: None }, work).await
}

/// `act` for an action on one round of the pairings tab: the answer shows that round.
async fn act_on_round<F>(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    round: i32,
    work: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::service::DbConn, &crate::service::Actor) -> AppResult<()>
        + Send
        + 'static,
{
    let back = Back {
        tab: "rounds",
        round: Some(round),
    };
    act_back(req, ctx, state, id, back, work).await
}

async fn act_back<F>(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    back: Back<'_>,
    work: F,
) -> AppResult<HttpResponse>
where
    F: FnOnce(&mut crate::service::DbConn, &crate::service::Actor) -> AppResult<()>
        + Send
        + 'static,
{
    let actor = ctx.actor();
    match state.db(move |conn| work(conn, &actor)).await {
        Ok(()) => Ok(render::redirect_with_flash(
            req,
            &back.path(id),
            "ok",
            "flash.saved",
        )),
        Err(err) => shown_with_error(ctx, state, id, back, err).await,
    }
}

/// The event's tab `back` again with a validation or workflow error's message (other
/// errors are passed on, to their error page).
async fn shown_with_error(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    back: Back<'_>,
    err: AppError,
) -> AppResult<HttpResponse> {
    let errors = match &err {
        AppError::Conflict { .. } | AppError::Invalid { .. } => {
            FormErrors::from_error(&err, ctx.lang).ok_or(err)?
        }
        _ => return Err(err),
    };
    let data = load(&ctx, state, id).await?;
    let ratings = super::show::rating_rows(state, id).await?;
    let status =
        StatusCode::from_u16(errors_status(&errors)).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY);
    render::page(
        status,
        &EventPage {
            ctx,
            tab: back.tab.to_string(),
            data,
            errors,
            round: back.round,
            ratings,
            player_q: String::new(),
        },
    )
}

/// The entries tab again with the refusal of an action on it (an invitation link the
/// event does not take); other errors are passed on.
pub async fn entries_with_error(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    err: AppError,
) -> AppResult<HttpResponse> {
    let back = Back {
        tab: "entries",
        round: None,
    };
    shown_with_error(ctx, state, id, back, err).await
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
    SignedInPage(ctx): SignedInPage,
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
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
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
    SignedInPage(ctx): SignedInPage,
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
    SignedInPage(ctx): SignedInPage,
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
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64, i64)>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
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
    SignedInPage(ctx): SignedInPage,
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
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::pair_next(conn, actor, id).map(|_| ())
    })
    .await
}

pub async fn repair(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::repair_last(conn, actor, id).map(|_| ())
    })
    .await
}

pub async fn publish(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "rounds", move |conn, actor| {
        rounds::publish_last(conn, actor, id)
    })
    .await
}

/// Starts the clocks of a round's games (over-the-board play).
pub async fn start_clocks(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let (id, round) = path.into_inner();
    act_on_round(&req, ctx, &state, id, round, move |conn, actor| {
        crate::service::games::clock_start::start_round(conn, actor, id, round).map(|_| ())
    })
    .await
}

#[derive(Deserialize)]
pub struct ResultForm {
    #[serde(default)]
    result: String,
    /// The question page's confirmation: end the board's game in progress.
    #[serde(default)]
    end_game: Option<String>,
}

pub async fn result(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    CsrfForm(form): CsrfForm<ResultForm>,
) -> AppResult<HttpResponse> {
    let (id, pairing) = path.into_inner();
    let end_game = form.end_game.is_some();
    let actor = ctx.actor();
    let typed = vec![(pairing, 1, form.result.clone())];
    let (round, to_end) = state
        .db(move |conn| {
            let round = confirmations::round_of_board(conn, pairing)?;
            let to_end = if end_game {
                Vec::new()
            } else {
                confirmations::games_to_end(conn, &actor, id, &typed, &[])?
            };
            Ok((round, to_end))
        })
        .await?;
    let back = Back {
        tab: "rounds",
        round,
    };
    if !to_end.is_empty() {
        return end_game::page(
            ctx,
            format!("/events/{id}/pairings/{pairing}/result"),
            back.path(id),
            vec![("result".to_string(), form.result)],
            &to_end,
            end_game::Confirm::EndGame,
        );
    }
    act_back(&req, ctx, &state, id, back, move |conn, actor| {
        rounds::set_result(
            conn,
            actor,
            id,
            pairing,
            &ResultInput {
                result: form.result,
                end_game,
            },
        )
    })
    .await
}

/// `POST /events/{id}/rounds/{n}/results`: the round's results form, one Save for every
/// board (fields `result_<pairing id>`); only boards whose result changed are stored. A
/// result that would end a game in progress is asked about first (`end_game`), and stored
/// with the rest once confirmed (`end_game_<pairing>[_<game>]`).
pub async fn round_results(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
    CsrfForm(form): CsrfForm<std::collections::HashMap<String, String>>,
) -> AppResult<HttpResponse> {
    let (id, round) = path.into_inner();
    let (results, game_results) = typed_results(&form)?;
    let confirmed = end_game::confirmed_in(&form);
    let mut typed: Vec<(i64, i32, String)> = results
        .iter()
        .map(|(pairing, text)| (*pairing, 1, text.clone()))
        .collect();
    typed.extend(game_results.iter().cloned());
    let actor = ctx.actor();
    let already = confirmed.clone();
    let to_end = state
        .db(move |conn| confirmations::games_to_end(conn, &actor, id, &typed, &already))
        .await?;
    if !to_end.is_empty() {
        let mut fields: Vec<(String, String)> = form.into_iter().collect();
        fields.sort();
        return end_game::page(
            ctx,
            format!("/events/{id}/rounds/{round}/results"),
            format!("/events/{id}?tab=rounds&round={round}"),
            fields,
            &to_end,
            end_game::Confirm::PerGame,
        );
    }
    act_on_round(&req, ctx, &state, id, round, move |conn, actor| {
        if !game_results.is_empty() {
            rounds::set_round_game_results(conn, actor, id, round, &game_results, &confirmed)?;
        }
        if !results.is_empty() || game_results.is_empty() {
            rounds::set_round_results(conn, actor, id, round, &results, &confirmed)?;
        }
        Ok(())
    })
    .await
}

/// A round's results form read: `result_<pairing>`, a board's result, and
/// `result_<pairing>_<game>`, one game of a micro-match; each list sorted.
#[allow(clippy::type_complexity)]
fn typed_results(
    form: &std::collections::HashMap<String, String>,
) -> AppResult<(Vec<(i64, String)>, Vec<(i64, i32, String)>)> {
    let not_a_number = || AppError::invalid("result", Refusal::NotAWholeNumber);
    let number = |text: &str| text.parse::<i64>().map_err(|_| not_a_number());
    let mut results = Vec::new();
    let mut game_results = Vec::new();
    for (field, value) in form {
        let Some(rest) = field.strip_prefix("result_") else {
            continue;
        };
        match rest.split_once('_') {
            Some((pairing, game)) => {
                let game = i32::try_from(number(game)?).map_err(|_| not_a_number())?;
                game_results.push((number(pairing)?, game, value.clone()));
            }
            None => results.push((number(rest)?, value.clone())),
        }
    }
    results.sort_unstable();
    game_results.sort_unstable();
    Ok((results, game_results))
}

pub async fn finish(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "standings", move |conn, actor| {
        settings::finish(conn, actor, id)
    })
    .await
}

pub async fn reopen(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<crate::web::pages::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    act(&req, ctx, &state, id, "info", move |conn, actor| {
        settings::reopen(conn, actor, id)
    })
    .await
}
