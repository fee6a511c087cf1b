//! The account page: profile summary, language, password, API tokens.
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::accounts::ApiToken;
use crate::service::accounts::{self, CreatedToken, PasswordChange};
use crate::service::claims::{self, ClaimView, Suggestion};
use crate::service::{Actor, AppError, AppResult, DbConn};
use crate::web::client_address::client_address;
use crate::web::cookies;
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::i18n::Lang;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    ctx: Ctx,
    claims: AccountClaims,
    tokens: Vec<ApiToken>,
    new_token: Option<CreatedToken>,
    errors: FormErrors,
}

/// The account's claims on profiles (where each stands) and, for an account without a
/// profile, the profiles it might be ("Is one of these you?").
struct AccountClaims {
    own: Vec<ClaimView>,
    suggestions: Vec<Suggestion>,
}

impl AccountClaims {
    fn load(conn: &mut DbConn, actor: &Actor) -> AppResult<AccountClaims> {
        let own = claims::own(conn, actor)?;
        let suggestions = claims::suggestions(conn, actor)?
            .into_iter()
            .filter(|p| {
                !own.iter()
                    .any(|c| c.player_id == p.player_id && c.status == "pending")
            })
            .collect();
        Ok(AccountClaims { own, suggestions })
    }
}

impl AccountPage {
    /// An own claim, in words.
    fn claim_notice(&self, claim: &ClaimView) -> String {
        self.ctx.tf1(
            &format!("account.claim.{}", claim.status),
            &claim.player_name,
        )
    }
}

/// The account page is never stored by a browser or a proxy cache: it may show a new API
/// token, which must not be readable from a cache once the page is left.
fn uncached(mut response: HttpResponse) -> HttpResponse {
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

async fn page(
    ctx: Ctx,
    state: &AppState,
    status: StatusCode,
    new_token: Option<CreatedToken>,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let (tokens, claims) = state
        .db(move |conn| {
            Ok((
                accounts::api_tokens(conn, &actor)?,
                AccountClaims::load(conn, &actor)?,
            ))
        })
        .await?;
    render::page(
        status,
        &AccountPage {
            ctx,
            claims,
            tokens,
            new_token,
            errors,
        },
    )
    .map(uncached)
}

pub async fn show(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    // A token just made (see `create_token`): shown on this response only.
    let Some(cookie) = req.cookie(cookies::NEW_TOKEN) else {
        return page(ctx, &state, StatusCode::OK, None, FormErrors::none()).await;
    };
    let (tokens, claims) = state
        .db(move |conn| {
            Ok((
                accounts::api_tokens(conn, &actor)?,
                AccountClaims::load(conn, &actor)?,
            ))
        })
        .await?;
    let new_token = cookie.value().split_once('.').and_then(|(id, token)| {
        let id: i64 = id.parse().ok()?;
        // Only a token of this account that is still there.
        let listed = tokens.iter().find(|t| t.id == id)?;
        Some(CreatedToken {
            id,
            name: listed.name.clone(),
            token: token.to_string(),
        })
    });
    let mut response = uncached(render::page(
        StatusCode::OK,
        &AccountPage {
            ctx,
            claims,
            tokens,
            new_token,
            errors: FormErrors::none(),
        },
    )?);
    response
        .add_cookie(&cookies::new_token_removal(&req))
        .map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Deserialize)]
pub struct PasswordForm {
    current_password: String,
    new_password: String,
}

pub async fn change_password(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<PasswordForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let session = ctx.session_token.clone();
    let client = client_address(&req);
    let change = PasswordChange {
        current_password: form.current_password,
        new_password: form.new_password,
    };
    let result = state
        .db(move |conn| {
            accounts::change_password(conn, &actor, &change, session.as_deref(), &client)
        })
        .await;
    match result {
        Ok(()) => Ok(render::redirect_with_flash(
            &req,
            "/account",
            "ok",
            "flash.password_changed",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            page(ctx, &state, StatusCode::UNPROCESSABLE_ENTITY, None, errors).await
        }
    }
}

#[derive(Deserialize)]
pub struct LanguageForm {
    locale: String,
}

pub async fn set_language(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<LanguageForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let locale = Some(form.locale.clone()).filter(|l| !l.is_empty());
    let stored = locale.clone();
    state
        .db(move |conn| accounts::set_locale(conn, &actor, stored.as_deref()))
        .await?;
    let mut response = render::redirect_with_flash(&req, "/account", "ok", "flash.language_saved");
    let cookie = match locale.as_deref().and_then(Lang::from_code) {
        Some(lang) => cookies::lang(&req, lang.code()),
        None => cookies::removal(&req, cookies::LANG),
    };
    response.add_cookie(&cookie).map_err(AppError::internal)?;
    Ok(response)
}

#[derive(Deserialize)]
pub struct TokenForm {
    name: String,
}

/// Creates an API token and redirects to the account page, which shows it once.
pub async fn create_token(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<TokenForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let result = state
        .db(move |conn| accounts::create_api_token(conn, &actor, &form.name))
        .await;
    match result {
        Ok(created) => {
            let mut response = render::redirect("/account");
            response
                .add_cookie(&cookies::new_token(
                    &req,
                    format!("{}.{}", created.id, created.token),
                ))
                .map_err(AppError::internal)?;
            Ok(response)
        }
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            page(ctx, &state, StatusCode::UNPROCESSABLE_ENTITY, None, errors).await
        }
    }
}

pub async fn revoke_token(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let id = path.into_inner();
    state
        .db(move |conn| accounts::revoke_api_token(conn, &actor, id))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        "/account",
        "ok",
        "flash.token_revoked",
    ))
}
