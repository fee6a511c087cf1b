//! Signing in and out, and registering.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::accounts::{self, Registration, RegistrationMode};
use crate::service::{AppError, AppResult};
use crate::web::client_address::client_address;
use crate::web::cookies;
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    ctx: Ctx,
    email: String,
    next: String,
    errors: FormErrors,
}

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn login_form(ctx: Ctx, query: web::Query<NextQuery>) -> AppResult<HttpResponse> {
    if ctx.signed_in() {
        return Ok(render::redirect("/account"));
    }
    let next = query.into_inner().next.unwrap_or_default();
    render::page(
        StatusCode::OK,
        &LoginPage {
            ctx,
            email: String::new(),
            next,
            errors: FormErrors::none(),
        },
    )
}

#[derive(Deserialize)]
pub struct LoginForm {
    email: String,
    password: String,
    #[serde(default)]
    next: String,
}

pub async fn login(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<LoginForm>,
) -> AppResult<HttpResponse> {
    let client = client_address(&req);
    let (email, password) = (form.email.clone(), form.password);
    let outcome = state
        .db(move |conn| accounts::sign_in(conn, &email, &password, &client))
        .await;
    match outcome {
        Ok(session) => {
            let target = if form.next.is_empty() {
                "/"
            } else {
                render::safe_location(&form.next)
            };
            let mut response = render::redirect_with_flash(&req, target, "ok", "flash.signed_in");
            response
                .add_cookie(&cookies::session(
                    &req,
                    session.token,
                    accounts::SESSION_DAYS,
                ))
                .map_err(AppError::internal)?;
            Ok(response)
        }
        Err(AppError::BadCredentials) => {
            let message = ctx.t("login.bad_credentials");
            render::page(
                StatusCode::UNAUTHORIZED,
                &LoginPage {
                    ctx,
                    email: form.email,
                    next: form.next,
                    errors: FormErrors {
                        field: "password".into(),
                        message,
                    },
                },
            )
        }
        Err(other) => Err(other),
    }
}

pub async fn logout(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    if let Some(token) = ctx.session_token.clone() {
        state
            .db(move |conn| accounts::sign_out(conn, &token))
            .await?;
    }
    let mut response = render::redirect_with_flash(&req, "/", "ok", "flash.signed_out");
    response
        .add_cookie(&cookies::removal(&req, cookies::SESSION))
        .map_err(AppError::internal)?;
    Ok(response)
}

/// A form with nothing but its CSRF token.
#[derive(Deserialize)]
pub struct Empty {}

#[derive(Template)]
#[template(path = "register.html")]
struct RegisterPage {
    ctx: Ctx,
    by_invitation: bool,
    email: String,
    display_name: String,
    invitation: String,
    /// Where to go once registered (a one-time profile link); the account page otherwise.
    next: String,
    errors: FormErrors,
}

#[derive(Deserialize)]
pub struct InvitationQuery {
    invitation: Option<String>,
    next: Option<String>,
}

pub async fn register_form(
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<InvitationQuery>,
) -> AppResult<HttpResponse> {
    let mode = state.db(accounts::registration_mode).await?;
    let InvitationQuery { invitation, next } = query.into_inner();
    render::page(
        StatusCode::OK,
        &RegisterPage {
            ctx,
            by_invitation: mode == RegistrationMode::Invitation,
            email: String::new(),
            display_name: String::new(),
            invitation: invitation.unwrap_or_default(),
            next: next.unwrap_or_default(),
            errors: FormErrors::none(),
        },
    )
}

#[derive(Deserialize)]
pub struct RegisterForm {
    email: String,
    display_name: String,
    password: String,
    #[serde(default)]
    invitation: String,
    #[serde(default)]
    next: String,
}

pub async fn register(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<RegisterForm>,
) -> AppResult<HttpResponse> {
    let registration = Registration {
        email: form.email.clone(),
        display_name: form.display_name.clone(),
        password: form.password,
        invitation: Some(form.invitation.clone()).filter(|s| !s.is_empty()),
    };
    let locale = ctx.lang.code();
    let client = client_address(&req);
    let result = state
        .db(move |conn| {
            let user = accounts::register(conn, &registration, Some(locale))?;
            accounts::sign_in(conn, &user.email, &registration.password, &client)
        })
        .await;
    match result {
        Ok(session) => {
            let target = if form.next.is_empty() {
                "/account"
            } else {
                render::safe_location(&form.next)
            };
            let mut response = render::redirect_with_flash(&req, target, "ok", "flash.registered");
            response
                .add_cookie(&cookies::session(
                    &req,
                    session.token,
                    accounts::SESSION_DAYS,
                ))
                .map_err(AppError::internal)?;
            Ok(response)
        }
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            let mode = state.db(accounts::registration_mode).await?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &RegisterPage {
                    ctx,
                    by_invitation: mode == RegistrationMode::Invitation,
                    email: form.email,
                    display_name: form.display_name,
                    invitation: form.invitation,
                    next: form.next,
                    errors,
                },
            )
        }
    }
}
