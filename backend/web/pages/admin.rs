//! Site administration: registration mode, invitations, users and their roles.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::accounts::{self, CreatedInvitation, RegistrationMode, RoleChange};
use crate::service::{AppError, AppResult, Refusal};
use crate::store::models::{Invitation, User};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    ctx: Ctx,
    mode: RegistrationMode,
    users: Vec<User>,
    invitations: Vec<Invitation>,
    new_invitation: Option<CreatedInvitation>,
    errors: FormErrors,
}

async fn page(
    ctx: Ctx,
    state: &AppState,
    status: StatusCode,
    new_invitation: Option<CreatedInvitation>,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let (mode, users, invitations) = state
        .db(move |conn| {
            Ok((
                accounts::registration_mode(conn)?,
                accounts::users(conn, &actor)?,
                accounts::invitations(conn, &actor)?,
            ))
        })
        .await?;
    render::page(
        status,
        &AdminPage {
            ctx,
            mode,
            users,
            invitations,
            new_invitation,
            errors,
        },
    )
}

pub async fn show(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HttpResponse> {
    ctx.actor().require_admin()?;
    page(ctx, &state, StatusCode::OK, None, FormErrors::none()).await
}

#[derive(Deserialize)]
pub struct RegistrationForm {
    mode: String,
}

pub async fn set_registration(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<RegistrationForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let mode = RegistrationMode::parse(&form.mode)
        .ok_or_else(|| AppError::invalid("mode", Refusal::not_one_of(&["open", "invitation"])))?;
    state
        .db(move |conn| accounts::set_registration_mode(conn, &actor, mode))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        "/admin",
        "ok",
        "flash.saved",
    ))
}

#[derive(Deserialize)]
pub struct InviteForm {
    #[serde(default)]
    email: String,
}

pub async fn invite(
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<InviteForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    actor.require_admin()?;
    match state
        .db(move |conn| accounts::create_invitation(conn, &actor, &form.email))
        .await
    {
        Ok(created) => {
            page(
                ctx,
                &state,
                StatusCode::OK,
                Some(created),
                FormErrors::none(),
            )
            .await
        }
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            page(ctx, &state, StatusCode::UNPROCESSABLE_ENTITY, None, errors).await
        }
    }
}

#[derive(Deserialize)]
pub struct RolesForm {
    #[serde(default)]
    admin: Option<String>,
    #[serde(default)]
    organiser: Option<String>,
}

pub async fn set_roles(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<RolesForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let id = path.into_inner();
    let roles = RoleChange {
        admin: form.admin.is_some(),
        organiser: form.organiser.is_some(),
    };
    match state
        .db(move |conn| accounts::set_roles(conn, &actor, id, &roles))
        .await
    {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            "/admin",
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            page(ctx, &state, StatusCode::CONFLICT, None, errors).await
        }
    }
}
