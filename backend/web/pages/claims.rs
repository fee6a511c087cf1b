//! Claiming a profile ("This is me", the organisers' answers, one-time links) and merging
//! two profiles of one person, as pages.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::claims::{self, ClaimView, LinkTarget};
use crate::service::merges::{self, MergeInput};
use crate::service::paging::PageRequest;
use crate::service::players::{self, PlayerFilter, PlayerView};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pager::Pager;
use crate::web::render;
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

/// A form with nothing but its CSRF token.
#[derive(Deserialize)]
pub struct Empty {}

/// `POST /players/{id}/claims`: "This is me". The account page then shows the claim.
pub async fn claim(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    state
        .db(move |conn| claims::claim(conn, &actor, id))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        "/account#claims",
        "ok",
        "flash.claim_sent",
    ))
}

/// The page a decision returns to (the club page, the start page).
#[derive(Deserialize)]
pub struct DecisionForm {
    #[serde(default)]
    back: String,
}

async fn decide(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    id: i64,
    back: &str,
    accept: bool,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    state
        .db(move |conn| claims::decide(conn, &actor, id, accept))
        .await?;
    let back = if back.is_empty() { "/" } else { back };
    let key = if accept {
        "flash.claim_accepted"
    } else {
        "flash.claim_declined"
    };
    Ok(render::redirect_with_flash(&req, back, "ok", key))
}

/// `POST /claims/{id}/accept`.
pub async fn accept(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<DecisionForm>,
) -> AppResult<HttpResponse> {
    decide(req, ctx, state, path.into_inner(), &form.back, true).await
}

/// `POST /claims/{id}/decline`.
pub async fn decline(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<DecisionForm>,
) -> AppResult<HttpResponse> {
    decide(req, ctx, state, path.into_inner(), &form.back, false).await
}

#[derive(Template)]
#[template(path = "claims.html")]
struct PendingPage {
    ctx: Ctx,
    pending_claims: Vec<ClaimView>,
    /// This page itself: a decision comes back to it.
    claims_back: String,
    /// Always `None`: the pager leads on.
    claims_more: Option<String>,
    pager: Pager,
}

#[derive(Deserialize)]
pub struct PendingQuery {
    /// Only the claims on this club's profiles (the club page's "more" link).
    club: Option<i64>,
    limit: Option<i64>,
    cursor: Option<String>,
}

/// `GET /claims`: every open claim the reader decides, a page at a time (the start page and
/// the club page show the oldest few).
pub async fn pending(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    query: web::Query<PendingQuery>,
) -> AppResult<HttpResponse> {
    let PendingQuery {
        club,
        limit,
        cursor,
    } = query.into_inner();
    let asked = PageRequest::parse(limit, cursor.as_deref())?;
    let actor = ctx.actor();
    let page = state
        .db(move |conn| claims::pending_for(conn, &actor, club, &asked))
        .await?;
    let claims_back = match req.query_string() {
        "" => req.path().to_string(),
        query => format!("{}?{query}", req.path()),
    };
    render::page(
        StatusCode::OK,
        &PendingPage {
            ctx,
            pager: Pager::new(&req, page.next_cursor.as_deref()),
            pending_claims: page.items,
            claims_back,
            claims_more: None,
        },
    )
}

#[derive(Template)]
#[template(path = "claim_link_created.html")]
struct LinkCreatedPage {
    ctx: Ctx,
    player: PlayerView,
    url: String,
}

/// `POST /players/{id}/claim-link`: a manager of the profile makes a one-time link; this
/// answer is the only place its code is shown.
pub async fn create_link(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let (player, created) = state
        .db(move |conn| {
            let created = claims::create_link(conn, &actor, id)?;
            Ok((players::get(conn, id)?, created))
        })
        .await?;
    let info = req.connection_info();
    let url = format!("{}://{}/claim/{}", info.scheme(), info.host(), created.code);
    let mut response = render::page(StatusCode::OK, &LinkCreatedPage { ctx, player, url })?;
    response.headers_mut().insert(
        actix_web::http::header::CACHE_CONTROL,
        actix_web::http::header::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}

#[derive(Template)]
#[template(path = "claim_link.html")]
struct LinkPage {
    ctx: Ctx,
    target: LinkTarget,
    /// This page's own path (the link), where signing in or registering returns.
    path: String,
    /// The account already has a profile: the link cannot be used by it.
    has_profile: bool,
}

/// `GET /claim/{code}`: what the link links; signed out, the way to sign in or register
/// and come back; signed in, the button that links.
pub async fn open_link(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> AppResult<HttpResponse> {
    let code = path.into_inner();
    let lookup = code.clone();
    let target = state
        .db(move |conn| claims::link_target(conn, &lookup))
        .await?;
    let has_profile = ctx.user.as_ref().is_some_and(|u| u.player_id.is_some());
    render::page(
        StatusCode::OK,
        &LinkPage {
            ctx,
            target,
            path: format!("/claim/{code}"),
            has_profile,
        },
    )
}

/// `POST /claim/{code}`: links the signed-in account to the link's profile, once.
pub async fn use_link(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<String>,
    _form: CsrfForm<Empty>,
) -> AppResult<HttpResponse> {
    let code = path.into_inner();
    let actor = ctx.actor();
    let player_id = state
        .db(move |conn| claims::use_link(conn, &actor, &code))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        &format!("/players/{player_id}"),
        "ok",
        "flash.profile_linked",
    ))
}

#[derive(Template)]
#[template(path = "merge.html")]
struct MergePage {
    ctx: Ctx,
    /// The profile merged away.
    player: PlayerView,
    search: String,
    /// Profiles matching the search (the survivor is chosen among them).
    found: Vec<PlayerView>,
    /// The survivor chosen: the page asks to confirm.
    into: Option<PlayerView>,
}

impl MergePage {
    fn confirm_text(&self, other: &PlayerView) -> String {
        self.ctx.lang.tf(
            "merge.confirm_text",
            &[&self.player.name, &self.player.id, &other.name, &other.id],
        )
    }
}

#[derive(Deserialize)]
pub struct MergeQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    into: String,
}

/// Profiles a merge search offers; a longer name narrows them.
const MERGE_CHOICES: usize = 50;

/// `GET /players/{id}/merge`: choose the profile that stays (by name or id), then confirm.
pub async fn merge_form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<MergeQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let MergeQuery { q, into } = query.into_inner();
    let actor = ctx.actor();
    let search = q.clone();
    let into_id = into.trim().parse::<i64>().ok();
    let (player, found, into) = state
        .db(move |conn| {
            let player = players::get(conn, id)?;
            if !players::can_manage(conn, &actor, id)? {
                return Err(AppError::forbidden(Refusal::OnlyManagersOfBothMerge));
            }
            let found = match search.trim() {
                "" => Vec::new(),
                text => match text.parse::<i64>() {
                    Ok(wanted) if wanted == id => Vec::new(),
                    Ok(wanted) => match players::get(conn, wanted) {
                        Ok(found) => vec![found],
                        Err(AppError::NotFound { .. } | AppError::NotFoundBecause { .. }) => {
                            Vec::new()
                        }
                        Err(other) => return Err(other),
                    },
                    Err(_) => {
                        let filter = PlayerFilter {
                            club: None,
                            search: Some(text.to_string()),
                        };
                        players::page(conn, &filter, &PageRequest::first(MERGE_CHOICES))?
                            .items
                            .into_iter()
                            .filter(|p| p.id != id)
                            .collect()
                    }
                },
            };
            let into = match into_id {
                Some(other) if other != id => Some(players::get(conn, other)?),
                _ => None,
            };
            Ok((player, found, into))
        })
        .await?;
    render::page(
        StatusCode::OK,
        &MergePage {
            ctx,
            player,
            search: q,
            found,
            into,
        },
    )
}

#[derive(Deserialize)]
pub struct MergeForm {
    into: String,
}

/// `POST /players/{id}/merge`: the merge, confirmed; the survivor's page follows.
pub async fn merge(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<MergeForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let into = crate::web::form::optional_number::<i64>("into", &form.into)?
        .ok_or_else(|| AppError::invalid("into", Refusal::Required))?;
    let actor = ctx.actor();
    let survivor = state
        .db(move |conn| merges::merge(conn, &actor, id, &MergeInput { into }))
        .await?;
    Ok(render::redirect_with_flash(
        &req,
        &format!("/players/{}", survivor.id),
        "ok",
        "flash.profiles_merged",
    ))
}
