//! Site administration: registration mode, invitations, users and their roles.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::User;
use crate::service::accounts::Invitation;
use crate::service::accounts::{self, CreatedInvitation, RegistrationMode, RoleChange};
use crate::service::events::settings::one_of;
use crate::service::ratings::{self, SystemChoice};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;
use damka_domain::vocabulary::{RatingSystem, Spelling};

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    ctx: Ctx,
    mode: RegistrationMode,
    users: Vec<User>,
    invitations: Vec<Invitation>,
    new_invitation: Option<CreatedInvitation>,
    errors: FormErrors,
    rating_systems: SystemChoice,
    /// Every zone the site may choose, by name.
    zones: Vec<chrono_tz::Tz>,
}

impl AdminPage {
    /// A zone's name and its offset from UTC now: `Europe/Moscow (UTC+3)`.
    fn zone_label(&self, zone: &chrono_tz::Tz) -> String {
        let now = chrono::Utc::now().naive_utc();
        let (_, offset) = crate::service::time_zone::local(*zone, &now);
        format!("{} ({offset})", zone.name())
    }

    fn systems(&self) -> &'static [RatingSystem] {
        RatingSystem::ALL
    }

    fn system_name(&self, system: &RatingSystem) -> String {
        self.ctx.t(&format!("ratings.system.{}", system.spelling()))
    }
}

async fn page(
    ctx: Ctx,
    state: &AppState,
    status: StatusCode,
    new_invitation: Option<CreatedInvitation>,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let (mode, users, invitations, rating_systems) = state
        .db(move |conn| {
            Ok((
                accounts::registration_mode(conn)?,
                accounts::users(conn, &actor)?,
                accounts::invitations(conn, &actor)?,
                ratings::system_choice(conn)?,
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
            rating_systems,
            zones: crate::service::time_zone::choices(),
        },
    )
}

#[derive(Deserialize)]
pub struct RatingSystemsForm {
    list_system: String,
    seeding_system: String,
}

/// Which system rating lists show first and which seeds events.
pub async fn set_rating_systems(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<RatingSystemsForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    actor.require_admin()?;
    let choice = SystemChoice {
        list_system: one_of::<RatingSystem>("list_system", &form.list_system)?,
        seeding_system: one_of::<RatingSystem>("seeding_system", &form.seeding_system)?,
    };
    state
        .db(move |conn| ratings::set_system_choice(conn, &actor, choice))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        "/admin",
        "ok",
        "flash.ratings_saved",
    ))
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
pub struct TimeZoneForm {
    time_zone: String,
}

/// The site's time zone, which pages show times in.
pub async fn set_time_zone(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<TimeZoneForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let zone = state
        .db(move |conn| crate::service::time_zone::set_time_zone(conn, &actor, &form.time_zone))
        .await?;
    state.site_zone.remember(zone);
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
