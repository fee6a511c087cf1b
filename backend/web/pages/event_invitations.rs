//! Invitation links to an event as pages: the managers make one on the entries tab (its
//! link shown once) and revoke it after a confirmation; whoever opens a link sees the event
//! and joins with one button, or is told how to sign in and come back.
use actix_web::http::StatusCode;
use actix_web::http::header::{CACHE_CONTROL, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::events::invitations::{self, InvitationInput, InvitationTarget};
use crate::service::players;
use crate::service::{AppError, AppResult};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render;
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

/// A form with nothing but its CSRF token.
#[derive(Deserialize)]
pub struct Empty {}

#[derive(Deserialize)]
pub struct CreateForm {
    #[serde(default)]
    label: String,
}

#[derive(Template)]
#[template(path = "invitation_created.html")]
struct CreatedPage {
    ctx: Ctx,
    event_id: i64,
    event_name: String,
    label: String,
    url: String,
}

/// `POST /events/{id}/invitations`: a manager makes a link; this answer is the only place
/// its code is shown.
pub async fn create(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<CreateForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let input = InvitationInput { label: form.label };
    let created = state
        .db(move |conn| {
            let made = invitations::create(conn, &actor, id, &input)?;
            Ok((made, crate::service::events::load(conn, id)?.name))
        })
        .await;
    let (made, event_name) = match created {
        Ok(created) => created,
        // A note too long, a finished event: said on the entries tab, where the form is.
        Err(err) => return super::events::entries_with_error(ctx, &state, id, err).await,
    };
    let info = req.connection_info();
    let url = format!(
        "{}://{}/events/{}/join/{}",
        info.scheme(),
        info.host(),
        made.event_id,
        made.code
    );
    let mut response = render::page(
        StatusCode::OK,
        &CreatedPage {
            ctx,
            event_id: made.event_id,
            event_name,
            label: made.label,
            url,
        },
    )?;
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `POST /events/{id}/invitations/{invitation_id}/revoke` (after its confirmation page).
pub async fn revoke(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let (id, invitation_id) = path.into_inner();
    let actor = ctx.actor();
    state
        .db(move |conn| invitations::revoke(conn, &actor, id, invitation_id))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        &format!("/events/{id}?tab=entries#invitations"),
        "ok",
        "flash.invitation_revoked",
    ))
}

#[derive(Template)]
#[template(path = "event_join.html")]
struct JoinPage {
    ctx: Ctx,
    target: InvitationTarget,
    /// This page's own path (the link): the button posts here, signing in returns here.
    path: String,
    /// The name of the viewer's own profile; none signed out or without a profile.
    profile_name: Option<String>,
    /// Why joining was just refused, in the reader's language (the page shown again).
    refused: Option<String>,
}

impl JoinPage {
    fn question(&self, profile: &str) -> String {
        self.ctx
            .lang
            .tf("invite.join_question", &[&self.target.event_name, &profile])
    }

    /// Why the link cannot be used now, in the reader's language.
    fn closed_text(&self) -> Option<String> {
        self.target
            .closed
            .as_ref()
            .map(|reason| crate::web::refusals::text(self.ctx.lang, reason))
    }
}

/// `GET /events/{id}/join/{code}`: the event the link leads to and the button that joins;
/// signed out, the way to sign in or register and come back. A code that does not work
/// (unknown, revoked, another event's) is the ordinary "not found".
pub async fn open(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, String)>,
) -> AppResult<HttpResponse> {
    let (id, code) = path.into_inner();
    join_page(ctx, &state, id, code, StatusCode::OK, None).await
}

/// The link's page, with `refused` (the reason joining was just refused) at `status`.
async fn join_page(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    code: String,
    status: StatusCode,
    refused: Option<String>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let lookup = code.clone();
    let own = ctx.user.as_ref().and_then(|u| u.player_id);
    let (target, profile_name) = state
        .db(move |conn| {
            let target = invitations::target(conn, &actor, id, &lookup)?;
            let name = match own {
                Some(player_id) => Some(players::get(conn, player_id)?.name),
                None => None,
            };
            Ok((target, name))
        })
        .await?;
    let mut response = render::page(
        status,
        &JoinPage {
            ctx,
            target,
            path: format!("/events/{id}/join/{code}"),
            profile_name,
            refused,
        },
    )?;
    // The page's address carries the code: no shared cache keeps it.
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `POST /events/{id}/join/{code}`: enters the signed-in account's own profile; back to
/// the event's entries with a message. A refusal (already entered, no profile, the event
/// takes no entry now) shows the link's page again with the reason, in the reader's
/// language.
pub async fn join(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, String)>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let (id, code) = path.into_inner();
    let actor = ctx.actor();
    let used = code.clone();
    let joined = state
        .db(move |conn| invitations::join(conn, &actor, id, &used))
        .await;
    match joined {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{id}?tab=entries"),
            "ok",
            "flash.joined_event",
        )),
        Err(err @ (AppError::Invalid { .. } | AppError::Conflict { .. })) => {
            let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::CONFLICT);
            let reason = err
                .refusal()
                .map(|reason| crate::web::refusals::text(ctx.lang, reason));
            join_page(ctx, &state, id, code, status, reason).await
        }
        Err(err) => Err(err),
    }
}
