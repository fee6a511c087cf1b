//! Archiving, restoring and deleting events, player profiles and clubs as pages: the
//! question page (`GET .../remove`) says what each would do and why deleting may not be
//! possible, and its buttons post to `.../archive`, `.../restore` and `.../delete`.
//! Administrators read the site's trail of them at `/admin/changes`.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::AppResult;
use crate::service::refusal::Refusal;
use crate::service::removals::{self, Archived, RemovalView, SiteChangeRow};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pages::claims::Empty;
use crate::web::render;
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::{RemovalAction, RemovalSubject};

/// The path of a subject's page, and of its list (where a deletion goes back to).
fn base(subject: RemovalSubject, id: i64) -> String {
    format!("{}/{id}", list_path(subject))
}

fn list_path(subject: RemovalSubject) -> &'static str {
    match subject {
        RemovalSubject::Event => "/events",
        RemovalSubject::Player => "/players",
        RemovalSubject::Club => "/clubs",
    }
}

#[derive(Template)]
#[template(path = "removal.html")]
struct RemovalPage {
    ctx: Ctx,
    view: RemovalView,
    base: String,
}

impl RemovalPage {
    fn subject_key(&self, what: &str) -> String {
        let subject = match self.view.subject {
            RemovalSubject::Event => "event",
            RemovalSubject::Player => "player",
            RemovalSubject::Club => "club",
        };
        format!("removal.{what}_{subject}")
    }

    fn title(&self) -> String {
        self.ctx.tf1(&self.subject_key("title"), &self.view.name)
    }

    fn archive_key(&self) -> String {
        self.subject_key("archive_text")
    }

    fn delete_key(&self) -> String {
        self.subject_key("delete_text")
    }

    fn archived_text(&self, archived: &Archived) -> String {
        let at = self.ctx.date_time(&archived.at);
        match &archived.by {
            Some(by) => self.ctx.lang.tf("removal.archived_by", &[&at, by]),
            None => self.ctx.tf1("removal.archived_on", &at),
        }
    }

    fn refusal(&self, refusal: &Refusal) -> String {
        crate::web::refusals::text(self.ctx.lang, refusal)
    }
}

/// `GET /{events|players|clubs}/{id}/remove`: what archiving and deleting would do.
async fn question(
    ctx: Ctx,
    state: web::Data<AppState>,
    subject: RemovalSubject,
    id: i64,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let view = state
        .db(move |conn| removals::assess(conn, &actor, subject, id))
        .await?;
    render::page(
        StatusCode::OK,
        &RemovalPage {
            ctx,
            view,
            base: base(subject, id),
        },
    )
}

pub async fn event_question(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    question(ctx, state, RemovalSubject::Event, path.into_inner()).await
}

pub async fn player_question(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    question(ctx, state, RemovalSubject::Player, path.into_inner()).await
}

pub async fn club_question(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    question(ctx, state, RemovalSubject::Club, path.into_inner()).await
}

/// Does `action` and goes back: to the subject's page (archived or restored), or to its
/// list (deleted), with a notice saying what was done.
async fn act(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    subject: RemovalSubject,
    id: i64,
    action: RemovalAction,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    state
        .db(move |conn| match action {
            RemovalAction::Archived => removals::archive(conn, &actor, subject, id),
            RemovalAction::Restored => removals::restore(conn, &actor, subject, id),
            RemovalAction::Deleted => removals::delete(conn, &actor, subject, id),
        })
        .await?;
    let (location, key) = match action {
        RemovalAction::Archived => (base(subject, id), "flash.archived"),
        RemovalAction::Restored => (base(subject, id), "flash.restored"),
        RemovalAction::Deleted => (list_path(subject).to_string(), "flash.deleted"),
    };
    Ok(render::redirect_with_flash(&req, &location, "ok", key))
}

/// The POST routes of one subject: `archive`, `restore` and `delete` (the last segment of
/// the path) with the subject's id.
macro_rules! removal_posts {
    ($subject:expr, $archive:ident, $restore:ident, $delete:ident) => {
        pub async fn $archive(
            req: HttpRequest,
            SignedInPage(ctx): SignedInPage,
            state: web::Data<AppState>,
            path: web::Path<i64>,
            _form: CsrfForm<Empty>,
        ) -> AppResult<HttpResponse> {
            let id = path.into_inner();
            act(req, ctx, state, $subject, id, RemovalAction::Archived).await
        }

        pub async fn $restore(
            req: HttpRequest,
            SignedInPage(ctx): SignedInPage,
            state: web::Data<AppState>,
            path: web::Path<i64>,
            _form: CsrfForm<Empty>,
        ) -> AppResult<HttpResponse> {
            let id = path.into_inner();
            act(req, ctx, state, $subject, id, RemovalAction::Restored).await
        }

        pub async fn $delete(
            req: HttpRequest,
            SignedInPage(ctx): SignedInPage,
            state: web::Data<AppState>,
            path: web::Path<i64>,
            _form: CsrfForm<Empty>,
        ) -> AppResult<HttpResponse> {
            let id = path.into_inner();
            act(req, ctx, state, $subject, id, RemovalAction::Deleted).await
        }
    };
}

removal_posts!(
    RemovalSubject::Event,
    archive_event,
    restore_event,
    delete_event
);
removal_posts!(
    RemovalSubject::Player,
    archive_player,
    restore_player,
    delete_player
);
removal_posts!(
    RemovalSubject::Club,
    archive_club,
    restore_club,
    delete_club
);

#[derive(Template)]
#[template(path = "site_changes.html")]
struct TrailPage {
    ctx: Ctx,
    rows: Vec<SiteChangeRow>,
    /// The id the next page continues before; none on the last page.
    next: Option<i64>,
}

impl TrailPage {
    fn subject_name(&self, subject: &RemovalSubject) -> String {
        self.ctx.t(match subject {
            RemovalSubject::Event => "removal.subject_event",
            RemovalSubject::Player => "removal.subject_player",
            RemovalSubject::Club => "removal.subject_club",
        })
    }

    fn action_name(&self, action: &RemovalAction) -> String {
        self.ctx.t(match action {
            RemovalAction::Archived => "removal.action_archived",
            RemovalAction::Restored => "removal.action_restored",
            RemovalAction::Deleted => "removal.action_deleted",
        })
    }

    /// The subject's page, while it is still there.
    fn link(&self, row: &SiteChangeRow) -> Option<String> {
        let deleted = self.rows.iter().any(|r| {
            r.subject == row.subject
                && r.subject_id == row.subject_id
                && r.action == RemovalAction::Deleted
        });
        (!deleted).then(|| base(row.subject, row.subject_id))
    }
}

#[derive(Deserialize)]
pub struct TrailQuery {
    before: Option<i64>,
}

/// `GET /admin/changes`: the site's trail of archivings, restorings and deletions.
pub async fn trail(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    query: web::Query<TrailQuery>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let before = query.into_inner().before;
    let rows = state
        .db(move |conn| removals::trail(conn, &actor, before))
        .await?;
    let full = i64::try_from(rows.len()).unwrap_or(i64::MAX) >= removals::TRAIL_PAGE;
    let next = rows.last().filter(|_| full).map(|r| r.id);
    render::page(StatusCode::OK, &TrailPage { ctx, rows, next })
}

/// The question pages and the archive, restore and delete buttons of events, profiles and
/// clubs, and the site's trail.
pub fn routes(routes: &mut crate::web::routes::Routes) {
    routes
        .get("/players/{id}/remove", player_question)
        .post("/players/{id}/archive", archive_player)
        .post("/players/{id}/restore", restore_player)
        .post("/players/{id}/delete", delete_player)
        .get("/clubs/{id}/remove", club_question)
        .post("/clubs/{id}/archive", archive_club)
        .post("/clubs/{id}/restore", restore_club)
        .post("/clubs/{id}/delete", delete_club)
        .get("/events/{id}/remove", event_question)
        .post("/events/{id}/archive", archive_event)
        .post("/events/{id}/restore", restore_event)
        .post("/events/{id}/delete", delete_event)
        .get("/admin/changes", trail);
}
