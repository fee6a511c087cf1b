//! Club pages: list, club with its members and players, create/edit, add a member, ask
//! to join and answer such requests.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_engine::Variant;
use serde::Deserialize;

use crate::service::claims::{self, ClaimView};
use crate::service::clubs::{
    self, ClubInput, ClubView, JoinRequestView, MemberInput, MemberView, OwnMembership,
};
use crate::service::paging::{DEFAULT_LIMIT, Page, PageRequest};
use crate::service::players::{self, PlayerFilter, PlayerView};
use crate::service::{Actor, AppError, AppResult, DbConn, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pager::Pager;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

#[derive(Template)]
#[template(path = "clubs.html")]
struct ListPage {
    ctx: Ctx,
    clubs: Vec<ClubView>,
    pager: Pager,
}

/// `?limit=` and `?cursor=` of a paged list on a page.
#[derive(Deserialize)]
pub struct PageQuery {
    limit: Option<i64>,
    cursor: Option<String>,
}

impl PageQuery {
    fn request<K: serde::de::DeserializeOwned>(&self) -> AppResult<PageRequest<K>> {
        PageRequest::parse(self.limit, self.cursor.as_deref())
    }
}

pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<PageQuery>,
) -> AppResult<HttpResponse> {
    let asked = query.request()?;
    let page = state.db(move |conn| clubs::page(conn, &asked)).await?;
    render::page(
        StatusCode::OK,
        &ListPage {
            ctx,
            pager: Pager::new(&req, page.next_cursor.as_deref()),
            clubs: page.items,
        },
    )
}

#[derive(Template)]
#[template(path = "club.html")]
struct ShowPage {
    ctx: Ctx,
    club: ClubView,
    /// A page of the members (the page's `?cursor=` pages them), with its links.
    members: Vec<MemberView>,
    pager: Pager,
    /// The first players of the club by name; `all_players` leads to the rest.
    players: Vec<PlayerView>,
    player_count: i64,
    all_players: Option<String>,
    can_edit: bool,
    /// The oldest open requests to join, shown to those who answer them; `more_requests`
    /// when more wait behind them.
    requests: Vec<JoinRequestView>,
    more_requests: bool,
    membership: OwnMembership,
    member_email: String,
    errors: FormErrors,
    /// The club's events, newest first.
    /// The club's latest events; `all_events` leads to the rest.
    events: Vec<crate::service::events::Event>,
    all_events: Option<String>,
    /// The oldest open claims on the club's profiles, shown to those who decide them;
    /// `claims_more` leads to all of them.
    pending_claims: Vec<ClaimView>,
    claims_back: String,
    claims_more: Option<String>,
}

impl ShowPage {
    fn may_ask_to_join(&self) -> bool {
        self.membership == OwnMembership::Outside
    }

    fn has_asked(&self) -> bool {
        self.membership == OwnMembership::Pending
    }
}

/// Players of a club its page lists; the players page lists them all.
const CLUB_PLAYERS: usize = 50;
/// The club's latest events shown on its page.
const CLUB_EVENTS: usize = 20;
/// Open claims the club page shows; the claims page shows them all.
pub(super) const CLAIMS_SHOWN: usize = 10;

/// What the club page shows that only the club's organisers see.
struct OrganiserLists {
    requests: Page<JoinRequestView>,
    claims: Page<ClaimView>,
}

fn organiser_lists(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<OrganiserLists> {
    if !clubs::can_edit(conn, actor, id)? {
        return Ok(OrganiserLists {
            requests: Page {
                items: Vec::new(),
                next_cursor: None,
            },
            claims: Page {
                items: Vec::new(),
                next_cursor: None,
            },
        });
    }
    Ok(OrganiserLists {
        requests: clubs::join_requests(conn, actor, id, &PageRequest::first(DEFAULT_LIMIT))?,
        claims: claims::pending_for(conn, actor, Some(id), &PageRequest::first(CLAIMS_SHOWN))?,
    })
}

/// The club page with the members' page `members_page` (its links built from `req` when
/// it is the page's own GET, else from the club's path).
async fn show_page(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    members_page: Option<(&HttpRequest, PageRequest<clubs::NameKey>)>,
    status: StatusCode,
    member_email: String,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let members_asked = members_page
        .as_ref()
        .map(|(_, asked)| asked.clone())
        .unwrap_or_else(|| PageRequest::first(DEFAULT_LIMIT));
    let club_players = PlayerFilter {
        club: Some(id),
        search: None,
    };
    let (club, members, players, player_count, can_edit, lists, membership, events) = state
        .db(move |conn| {
            Ok((
                clubs::get(conn, id)?,
                clubs::members(conn, id, &members_asked)?,
                players::page(conn, &club_players, &PageRequest::first(CLUB_PLAYERS))?,
                players::count(conn, Some(id))?,
                clubs::can_edit(conn, &actor, id)?,
                organiser_lists(conn, &actor, id)?,
                clubs::own_membership(conn, &actor, id)?,
                crate::service::events::settings::list(
                    conn,
                    crate::service::events::settings::ListFilter {
                        club_id: Some(id),
                        archived: Some(false),
                        ..Default::default()
                    },
                    &PageRequest::first(CLUB_EVENTS),
                )?,
            ))
        })
        .await?;
    let pager = match members_page {
        Some((req, _)) => Pager::new(req, members.next_cursor.as_deref()),
        None => Pager {
            first: None,
            next: members
                .next_cursor
                .as_deref()
                .map(|cursor| format!("/clubs/{id}?cursor={cursor}")),
        },
    };
    render::page(
        status,
        &ShowPage {
            ctx,
            club,
            members: members.items,
            pager,
            all_players: players
                .next_cursor
                .as_ref()
                .map(|_| format!("/players?club={id}")),
            players: players.items,
            player_count,
            can_edit,
            more_requests: lists.requests.next_cursor.is_some(),
            requests: lists.requests.items,
            membership,
            member_email,
            errors,
            all_events: events
                .next_cursor
                .as_ref()
                .map(|_| format!("/events?club_id={id}")),
            events: events.items,
            claims_more: lists
                .claims
                .next_cursor
                .as_ref()
                .map(|_| format!("/claims?club={id}")),
            pending_claims: lists.claims.items,
            claims_back: format!("/clubs/{id}"),
        },
    )
}

pub async fn show(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<PageQuery>,
) -> AppResult<HttpResponse> {
    let asked = query.request()?;
    show_page(
        ctx,
        &state,
        path.into_inner(),
        Some((&req, asked)),
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

impl FormPage {
    /// The country list by name in the reader's language, the form's country selected.
    fn countries(&self) -> Vec<crate::web::countries::CountryOption> {
        crate::web::countries::options(self.ctx.lang, &self.form.country)
    }
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
                None,
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
                None,
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
