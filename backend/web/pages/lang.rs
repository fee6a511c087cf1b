//! The language switch on every page: remembers the choice in a cookie and, for a
//! signed-in user, in the account.
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::service::{AppError, AppResult, Refusal, accounts};
use crate::web::cookies;
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::i18n::Lang;
use crate::web::render;
use crate::web::state::AppState;

#[derive(Deserialize)]
pub struct LangForm {
    lang: String,
    #[serde(default)]
    next: String,
}

pub async fn switch(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<LangForm>,
) -> AppResult<HttpResponse> {
    let lang = Lang::from_code(&form.lang)
        .filter(|l| l.code() == form.lang)
        .ok_or_else(|| AppError::invalid("lang", Refusal::UnsupportedLanguage))?;
    if ctx.signed_in() {
        let actor = ctx.actor();
        state
            .db(move |conn| accounts::set_locale(conn, &actor, Some(lang.code())))
            .await?;
    }
    let mut response = render::redirect(if form.next.is_empty() {
        "/"
    } else {
        &form.next
    });
    response
        .add_cookie(&cookies::lang(&req, lang.code()))
        .map_err(AppError::internal)?;
    Ok(response)
}
