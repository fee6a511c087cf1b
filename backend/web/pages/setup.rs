//! The first-run page: creates the first administrator, and only while none exists.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::{AppError, AppResult, Refusal, accounts};
use crate::web::cookies;
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render::{self, FormErrors};
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "setup.html")]
struct SetupPage {
    ctx: Ctx,
    email: String,
    display_name: String,
    errors: FormErrors,
}

fn already_set_up() -> AppError {
    AppError::forbidden(Refusal::FirstRunClosed)
}

pub async fn form(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HttpResponse> {
    if state.db(accounts::admin_exists).await? {
        return Err(already_set_up());
    }
    render::page(
        StatusCode::OK,
        &SetupPage {
            ctx,
            email: String::new(),
            display_name: String::new(),
            errors: FormErrors::none(),
        },
    )
}

#[derive(Deserialize)]
pub struct SetupForm {
    email: String,
    display_name: String,
    password: String,
}

pub async fn create(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<SetupForm>,
) -> AppResult<HttpResponse> {
    let (email, name, password) = (form.email.clone(), form.display_name.clone(), form.password);
    let result = state
        .db(move |conn| {
            let admin = accounts::create_first_admin(conn, &email, &name, &password)?;
            accounts::sign_in(conn, &admin.email, &password, "setup")
        })
        .await;
    match result {
        Ok(session) => {
            let mut response =
                render::redirect_with_flash(&req, "/admin", "ok", "flash.admin_created");
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
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &SetupPage {
                    ctx,
                    email: form.email,
                    display_name: form.display_name,
                    errors,
                },
            )
        }
    }
}
