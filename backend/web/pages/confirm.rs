//! Confirmation pages for the actions that cannot simply be undone (finishing or reopening
//! an event, pairing a round again, withdrawing a player, revoking a token): the button on
//! the page links here (`GET`), and this page's button makes the `POST` the action always
//! took. Without JavaScript, one click never destroys anything.
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::service::events as ev;
use crate::service::{AppError, AppResult, accounts};
use crate::web::ctx::Ctx;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::EventStatus;

#[derive(Template)]
#[template(path = "confirm.html")]
struct ConfirmPage {
    ctx: Ctx,
    title: String,
    /// Paragraphs: what will happen.
    message: Vec<String>,
    /// Where the confirming button posts.
    action: String,
    button: String,
    /// Back to where the question came from.
    cancel: String,
    dangerous: bool,
}

fn page(confirm: ConfirmPage) -> AppResult<HttpResponse> {
    render::page(StatusCode::OK, &confirm)
}

/// `GET /events/{id}/finish`: says how many rounds are left when the event ends early.
pub async fn finish(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let (event, paired) = state
        .db(move |conn| ev::confirmations::finish(conn, &actor, id))
        .await?;
    let paired = paired as i32;
    let mut message = Vec::new();
    let left = event.rounds - paired;
    if ev::pairing_system::of(&event).organiser_sets_rounds() && left > 0 {
        message.push(ctx.lang.tf(
            "confirm.finish_early",
            &[
                &paired,
                &event.rounds,
                &ctx.plural("confirm.rounds_left", &i64::from(left)),
            ],
        ));
    }
    message.push(ctx.t("confirm.finish_text"));
    page(ConfirmPage {
        title: ctx.tf1("confirm.finish_title", &event.name),
        message,
        action: format!("/events/{id}/finish"),
        button: ctx.t("event.finish"),
        cancel: format!("/events/{id}"),
        dangerous: true,
        ctx,
    })
}

/// `GET /events/{id}/reopen`.
pub async fn reopen(
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
    page(ConfirmPage {
        title: ctx.tf1("confirm.reopen_title", &event.name),
        message: vec![ctx.t("confirm.reopen_text")],
        action: format!("/events/{id}/reopen"),
        button: ctx.t("event.reopen"),
        cancel: format!("/events/{id}"),
        dangerous: false,
        ctx,
    })
}

/// `GET /events/{id}/rounds/repair`: the draft of the last round is thrown away.
pub async fn repair(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let (event, round) = state
        .db(move |conn| ev::confirmations::repair(conn, &actor, id))
        .await?;
    if event.status == EventStatus::Finished || round == 0 {
        return Err(AppError::NotFound { what: "round" });
    }
    page(ConfirmPage {
        title: ctx.tf1("confirm.repair_title", &round),
        message: vec![ctx.t("confirm.repair_text")],
        action: format!("/events/{id}/rounds/repair"),
        button: ctx.t("event.repair"),
        cancel: format!("/events/{id}?tab=rounds"),
        dangerous: true,
        ctx,
    })
}

/// `GET /events/{id}/entries/{entry}/withdraw`: from which round the player is withdrawn.
pub async fn withdraw(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<HttpResponse> {
    let (id, entry_id) = path.into_inner();
    let actor = ctx.actor();
    let ev::confirmations::Withdrawal { name, from_round } = state
        .db(move |conn| ev::confirmations::withdraw(conn, &actor, id, entry_id))
        .await?;
    page(ConfirmPage {
        title: ctx.tf1("confirm.withdraw_title", &name),
        message: vec![ctx.tf1("confirm.withdraw_text", &from_round)],
        action: format!("/events/{id}/entries/{entry_id}/withdraw"),
        button: ctx.t("event.withdraw"),
        cancel: format!("/events/{id}?tab=entries"),
        dangerous: true,
        ctx,
    })
}

/// `GET /account/tokens/{id}/revoke`.
pub async fn revoke_token(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let token_id = path.into_inner();
    let actor = ctx.actor();
    let token = state
        .db(move |conn| {
            accounts::api_tokens(conn, &actor)?
                .into_iter()
                .find(|t| t.id == token_id)
                .ok_or(AppError::NotFound { what: "API token" })
        })
        .await?;
    page(ConfirmPage {
        title: ctx.tf1("confirm.revoke_title", &token.name),
        message: vec![ctx.t("confirm.revoke_text")],
        action: format!("/account/tokens/{token_id}/revoke"),
        button: ctx.t("account.revoke"),
        cancel: "/account".to_string(),
        dangerous: true,
        ctx,
    })
}

/// `GET /events/{id}/invitations/{invitation_id}/revoke`: the link stops working for good
/// (a new one can be made, with a new code).
pub async fn revoke_invitation(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
) -> AppResult<HttpResponse> {
    let (id, invitation_id) = path.into_inner();
    let actor = ctx.actor();
    let link = state
        .db(move |conn| {
            ev::invitations::list(conn, &actor, id)?
                .into_iter()
                .find(|link| link.id == invitation_id && link.revoked_at.is_none())
                .ok_or(AppError::NotFound { what: "invitation" })
        })
        .await?;
    let title = if link.label.is_empty() {
        ctx.t("confirm.revoke_invitation_title")
    } else {
        ctx.tf1("confirm.revoke_invitation_title_labelled", &link.label)
    };
    page(ConfirmPage {
        title,
        message: vec![ctx.t("confirm.revoke_invitation_text")],
        action: format!("/events/{id}/invitations/{invitation_id}/revoke"),
        button: ctx.t("invite.revoke"),
        cancel: format!("/events/{id}?tab=entries#invitations"),
        dangerous: true,
        ctx,
    })
}
