//! Club pages: list, club with its members and players, create/edit, add a member, ask
//! to join and answer such requests.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_engine::Variant;
use serde::Deserialize;

use crate::service::clubs::{
    self, ClubInput, ClubView, JoinRequestView, MemberInput, MemberView, OwnMembership,
};
use crate::service::players::{self, PlayerView};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "clubs.html")]
struct ListPage {
    ctx: Ctx,
    clubs: Vec<ClubView>,
}

pub async fn list(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HttpResponse> {
    let clubs = state.db(clubs::list).await?;
    render::page(StatusCode::OK, &ListPage { ctx, clubs })
}

#[derive(Template)]
#[template(path = "club.html")]
struct ShowPage {
    ctx: Ctx,
    club: ClubView,
    members: Vec<MemberView>,
    players: Vec<PlayerView>,
    can_edit: bool,
    /// Open requests to join, shown to those who answer them.
    requests: Vec<JoinRequestView>,
    membership: OwnMembership,
    member_email: String,
    errors: FormErrors,
    /// The club's events, newest first.
    events: Vec<crate::service::events::Event>,
    /// Open claims on the club's profiles, shown to those who decide them.
    pending_claims: Vec<crate::service::claims::ClaimView>,
    claims_back: String,
}

impl ShowPage {
    fn may_ask_to_join(&self) -> bool {
        self.membership == OwnMembership::Outside
    }

    fn has_asked(&self) -> bool {
        self.membership == OwnMembership::Pending
    }
}

async fn show_page(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    status: StatusCode,
    member_email: String,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let (club, members, players, can_edit, requests, membership, events, pending_claims) = state
        .db(move |conn| {
            let club = clubs::get(conn, id)?;
            let can_edit = clubs::can_edit(conn, &actor, id)?;
            let (requests, pending_claims) = if can_edit {
                (
                    clubs::join_requests(conn, &actor, id)?,
                    crate::service::claims::pending_for_club(conn, &actor, id)?,
                )
            } else {
                (Vec::new(), Vec::new())
            };
            Ok((
                club,
                clubs::members(conn, id)?,
                players::list(conn, Some(id), None)?,
                can_edit,
                requests,
                clubs::own_membership(conn, &actor, id)?,
                crate::service::events::settings::of_club(conn, id)?,
                pending_claims,
            ))
        })
        .await?;
    render::page(
        status,
        &ShowPage {
            ctx,
            club,
            members,
            players,
            can_edit,
            requests,
            membership,
            member_email,
            errors,
            events,
            pending_claims,
            claims_back: format!("/clubs/{id}"),
        },
    )
}

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    show_page(
        ctx,
        &state,
        path.into_inner(),
        StatusCode::OK,
        String::new(),
        FormErrors::none(),
    )
    .await
}

#[derive(Deserialize, Default, Clone)]
pub struct ClubForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    city: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    description: String,
}

impl ClubForm {
    fn input(&self) -> ClubInput {
        ClubInput {
            name: self.name.clone(),
            city: self.city.clone(),
            country: self.country.clone(),
            description: self.description.clone(),
        }
    }
}

#[derive(Template)]
#[template(path = "club_form.html")]
struct FormPage {
    ctx: Ctx,
    club_id: Option<i64>,
    form: ClubForm,
    errors: FormErrors,
}

pub async fn new_form(SignedInPage(ctx): SignedInPage) -> AppResult<HttpResponse> {
    if !ctx.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateClubs));
    }
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            club_id: None,
            form: ClubForm::default(),
            errors: FormErrors::none(),
        },
    )
}

pub async fn create(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<ClubForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let input = form.input();
    match state
        .db(move |conn| clubs::create(conn, &actor, &input))
        .await
    {
        Ok(club) => Ok(render::redirect_with_flash(
            &req,
            &format!("/clubs/{}", club.id),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    club_id: None,
                    form,
                    errors,
                },
            )
        }
    }
}

pub async fn edit_form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let club = state
        .db(move |conn| {
            let club = clubs::get(conn, id)?;
            if !clubs::can_edit(conn, &actor, id)? {
                return Err(AppError::forbidden(Refusal::OnlyClubOrganisersEdit));
            }
            Ok(club)
        })
        .await?;
    let form = ClubForm {
        name: club.name,
        city: club.city,
        country: club.country,
        description: club.description,
    };
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            club_id: Some(id),
            form,
            errors: FormErrors::none(),
        },
    )
}

pub async fn update(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<ClubForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let input = form.input();
    match state
        .db(move |conn| clubs::update(conn, &actor, id, &input))
        .await
    {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/clubs/{id}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    club_id: Some(id),
                    form,
                    errors,
                },
            )
        }
    }
}

#[derive(Deserialize)]
pub struct MemberForm {
    email: String,
    role: String,
}

pub async fn add_member(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<MemberForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let input = MemberInput {
        email: form.email.clone(),
        role: form.role,
    };
    match state
        .db(move |conn| clubs::add_member(conn, &actor, id, &input))
        .await
    {
        Ok(()) => Ok(render::redirect_with_flash(
            &req,
            &format!("/clubs/{id}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            show_page(
                ctx,
                &state,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                form.email,
                errors,
            )
            .await
        }
    }
}

/// Shows the club page again after a join request or an answer, or the same page with the
/// refusal (already asked, already answered) in the reader's language.
async fn after_request_action(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    result: AppResult<JoinRequestView>,
    flash: &str,
) -> AppResult<HttpResponse> {
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            req,
            &format!("/clubs/{id}"),
            "ok",
            flash,
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            show_page(
                ctx,
                state,
                id,
                StatusCode::UNPROCESSABLE_ENTITY,
                String::new(),
                errors,
            )
            .await
        }
    }
}

pub async fn request_to_join(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let result = state
        .db(move |conn| clubs::request_to_join(conn, &actor, id))
        .await;
    after_request_action(&req, ctx, &state, id, result, "flash.join_requested").await
}

/// Accepts or declines a request to join, for a handler that extracted `SignedInPage`.
async fn answer(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    accept: bool,
) -> AppResult<HttpResponse> {
    let (id, request_id) = path.into_inner();
    let actor = ctx.actor();
    let result = state
        .db(move |conn| clubs::answer_join_request(conn, &actor, id, request_id, accept))
        .await;
    let flash = if accept {
        "flash.join_accepted"
    } else {
        "flash.join_declined"
    };
    after_request_action(&req, ctx, &state, id, result, flash).await
}

pub async fn accept_request(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    answer(req, ctx, state, path, true).await
}

pub async fn decline_request(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<(i64, i64)>,
    _form: CsrfForm<super::session::Empty>,
) -> AppResult<HttpResponse> {
    answer(req, ctx, state, path, false).await
}
