//! Rating pages: the rating list of a variant in one system (with filters and a CSV
//! download) and the import of starting ratings.
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_engine::Variant;
use serde::Deserialize;

use crate::service::clubs::{self, ClubView};
use crate::service::paging::PageRequest;
use crate::service::ratings::import;
use crate::service::ratings::views::{self, ListFilter, PageKey, RatingList};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::pager::Pager;
use crate::web::refusals;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::{RatingSystem, Spelling};

/// The list's query as typed: empty fields mean "no filter".
#[derive(Debug, Deserialize, Default)]
pub struct ListQuery {
    #[serde(default)]
    variant: String,
    #[serde(default)]
    system: String,
    #[serde(default)]
    club_id: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    q: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

impl ListQuery {
    fn page(&self) -> AppResult<PageRequest<PageKey>> {
        PageRequest::parse(self.limit, self.cursor.as_deref())
    }

    pub(super) fn filter(self) -> AppResult<ListFilter> {
        let club_id = crate::web::form::optional_number("club_id", &self.club_id)?;
        let some = |text: String| Some(text).filter(|t| !t.trim().is_empty());
        Ok(ListFilter {
            variant: some(self.variant),
            system: some(self.system),
            club_id,
            country: some(self.country),
            q: some(self.q),
        })
    }
}

#[derive(Template)]
#[template(path = "ratings.html")]
struct ListPage {
    ctx: Ctx,
    list: RatingList,
    clubs: Vec<ClubView>,
    pager: Pager,
}

impl ListPage {
    fn variants(&self) -> &'static [Variant] {
        &Variant::ALL
    }

    fn systems(&self) -> &'static [RatingSystem] {
        RatingSystem::ALL
    }

    fn system_name(&self, system: &RatingSystem) -> String {
        self.ctx.t(&format!("ratings.system.{}", system.spelling()))
    }

    fn is_glicko(&self) -> bool {
        self.list.system == RatingSystem::Glicko2
    }

    fn club_selected(&self, id: &i64) -> bool {
        self.list.club_id == Some(*id)
    }

    fn country(&self) -> &str {
        self.list.country.as_deref().unwrap_or("")
    }

    fn search(&self) -> &str {
        self.list.q.as_deref().unwrap_or("")
    }

    /// Whether the list is narrowed (its rank column then says the ranks are the whole
    /// list's).
    fn narrowed(&self) -> bool {
        self.list.club_id.is_some() || self.list.country.is_some() || self.list.q.is_some()
    }

    /// The query string of this list, for the CSV link.
    fn query(&self) -> String {
        let mut pairs = vec![
            ("variant", self.list.variant.spelling().to_string()),
            ("system", self.list.system.spelling().to_string()),
        ];
        if let Some(club) = self.list.club_id {
            pairs.push(("club_id", club.to_string()));
        }
        if let Some(country) = &self.list.country {
            pairs.push(("country", country.clone()));
        }
        if let Some(q) = &self.list.q {
            pairs.push(("q", q.clone()));
        }
        serde_urlencoded::to_string(pairs).unwrap_or_default()
    }

    fn last_played(&self, item: &views::RatingListItem) -> String {
        item.last_played
            .map(|at| self.ctx.date(&at.naive_utc()))
            .unwrap_or_default()
    }
}

pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let query = query.into_inner();
    let page = query.page()?;
    let filter = query.filter()?;
    let (list, clubs) = state
        .db(move |conn| Ok((views::page(conn, &filter, &page)?, clubs::list(conn)?)))
        .await?;
    let pager = Pager::new(&req, list.next_cursor.as_deref());
    render::page(
        StatusCode::OK,
        &ListPage {
            ctx,
            list,
            clubs,
            pager,
        },
    )
}

/// Rows read per database round trip of the CSV download.
const CSV_BATCH: usize = 1000;

/// The same list as a CSV file, every player of it: streamed a batch at a time (keyset
/// pages, as the list's pages are read), so a list of 50,000 players costs the server one
/// batch of memory, not the whole file. A bad filter is refused before anything is sent.
pub async fn csv(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let filter = query.into_inner().filter()?;
    let first = csv_batch(&state, &filter, None).await?;
    let name = format!(
        "ratings-{}-{}.csv",
        first.variant.spelling(),
        first.system.spelling()
    );
    let head = format!("{}{}", views::CSV_HEADER, views::csv_rows(&first.items));
    let app = state.into_inner();
    let body =
        futures_util::stream::unfold((Some(head), first.next_cursor), move |(pending, cursor)| {
            let app = std::sync::Arc::clone(&app);
            let filter = filter.clone();
            async move {
                if let Some(text) = pending {
                    return Some((Ok(web::Bytes::from(text)), (None, cursor)));
                }
                let batch = match csv_batch(&app, &filter, Some(cursor?)).await {
                    Ok(batch) => batch,
                    // The status line is sent: ending the body short is all that is left,
                    // and the client sees a broken download rather than a silently short one.
                    Err(error) => {
                        tracing::warn!(%error, "rating list CSV cut short");
                        return Some((
                            Err(actix_web::error::ErrorServiceUnavailable(error)),
                            (None, None),
                        ));
                    }
                };
                let text = views::csv_rows(&batch.items);
                Some((Ok(web::Bytes::from(text)), (None, batch.next_cursor)))
            }
        });
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ))
        .streaming::<_, actix_web::Error>(body))
}

/// The batch of the list after `cursor` (from the start without one).
pub(super) async fn csv_batch(
    state: &AppState,
    filter: &ListFilter,
    cursor: Option<String>,
) -> AppResult<RatingList> {
    let mut page: PageRequest<PageKey> = PageRequest::parse(None, cursor.as_deref())?;
    page.limit = CSV_BATCH;
    let filter = filter.clone();
    state
        .db(move |conn| views::page(conn, &filter, &page))
        .await
}

/// The import form as typed.
#[derive(Deserialize, Clone, Default)]
pub struct ImportForm {
    #[serde(default)]
    csv: String,
}

#[derive(Template)]
#[template(path = "ratings_import.html")]
struct ImportPage {
    ctx: Ctx,
    form: ImportForm,
    /// The problems of a refused file, one line each.
    problems: Vec<String>,
}

fn require_organiser(ctx: &Ctx) -> AppResult<()> {
    if ctx.is_organiser() {
        Ok(())
    } else {
        Err(AppError::forbidden(Refusal::OnlyOrganisersImportRatings))
    }
}

pub async fn import_form(SignedInPage(ctx): SignedInPage) -> AppResult<HttpResponse> {
    require_organiser(&ctx)?;
    render::page(
        StatusCode::OK,
        &ImportPage {
            ctx,
            form: ImportForm::default(),
            problems: Vec::new(),
        },
    )
}

/// The form's body: the file, URL-encoded (a character can take up to three times its
/// bytes), so that a file just over the limit is read and refused by its size.
const MAX_IMPORT_FORM_BYTES: usize = 3 * import::MAX_CSV_BYTES + 4096;

pub async fn import(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<ImportForm, MAX_IMPORT_FORM_BYTES>,
) -> AppResult<HttpResponse> {
    require_organiser(&ctx)?;
    let actor = ctx.actor();
    let text = form.csv.clone();
    let result = state
        .db(move |conn| import::import_csv(conn, &actor, &text))
        .await;
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            "/ratings",
            "ok",
            "flash.ratings_imported",
        )),
        Err(err) => {
            let problems = match &err {
                AppError::Invalid {
                    reason: Refusal::RatingsCsvInvalid { problems },
                    ..
                } => problems
                    .iter()
                    .map(|p| refusals::text(ctx.lang, p))
                    .collect(),
                other => vec![
                    FormErrors::from_error(other, ctx.lang)
                        .ok_or(err.clone())?
                        .message,
                ],
            };
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &ImportPage {
                    ctx,
                    form,
                    problems,
                },
            )
        }
    }
}
