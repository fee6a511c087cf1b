//! An event's standings, crosstable and a round's pairings to take away, as CSV or .xlsx:
//! the same tables (`service::events::exports`) in either format, column titles in the
//! reader's language, with the print sheets' rule for drafts (a round the reader may not
//! see is not found).
use actix_web::{HttpResponse, web};

use super::event_print::AfterQuery;
use crate::service::AppResult;
use crate::service::events::exports;
use crate::service::tables::Table;
use crate::web::ctx::Ctx;
use crate::web::state::AppState;
use crate::web::tables::{self, CSV_TYPE, XLSX_TYPE};

/// The two formats a table is downloaded in.
#[derive(Debug, Clone, Copy)]
enum Format {
    Csv,
    Xlsx,
}

/// The download of `table`, named `{base}.csv` or `{base}.xlsx`; the sheet of an .xlsx
/// file is called `sheet`.
async fn download(
    ctx: &Ctx,
    format: Format,
    base: String,
    sheet: String,
    table: Table,
) -> AppResult<HttpResponse> {
    let lang = ctx.lang;
    Ok(match format {
        Format::Csv => tables::attachment(
            CSV_TYPE,
            &format!("{base}.csv"),
            tables::csv::write(lang, &table).into_bytes(),
        ),
        Format::Xlsx => {
            let bytes = web::block(move || tables::xlsx::write(lang, &sheet, &table))
                .await
                .map_err(crate::service::AppError::internal)??;
            tables::attachment(XLSX_TYPE, &format!("{base}.xlsx"), bytes)
        }
    })
}

async fn standings(
    ctx: Ctx,
    state: web::Data<AppState>,
    id: i64,
    after: Option<u32>,
    format: Format,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let table = state
        .db(move |conn| exports::standings(conn, &actor, id, after))
        .await?;
    let sheet = ctx.t("event.tab.standings");
    download(&ctx, format, format!("event-{id}-standings"), sheet, table).await
}

/// `GET /events/{id}/standings.csv[?after=N]`.
pub async fn standings_csv(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    standings(ctx, state, path.into_inner(), query.after, Format::Csv).await
}

/// `GET /events/{id}/standings.xlsx[?after=N]`.
pub async fn standings_xlsx(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    standings(ctx, state, path.into_inner(), query.after, Format::Xlsx).await
}

async fn crosstable(
    ctx: Ctx,
    state: web::Data<AppState>,
    id: i64,
    after: Option<u32>,
    format: Format,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let table = state
        .db(move |conn| exports::crosstable(conn, &actor, id, after))
        .await?;
    let sheet = ctx.t("event.tab.crosstable");
    download(&ctx, format, format!("event-{id}-crosstable"), sheet, table).await
}

/// `GET /events/{id}/crosstable.csv[?after=N]`.
pub async fn crosstable_csv(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    crosstable(ctx, state, path.into_inner(), query.after, Format::Csv).await
}

/// `GET /events/{id}/crosstable.xlsx[?after=N]`.
pub async fn crosstable_xlsx(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<AfterQuery>,
) -> AppResult<HttpResponse> {
    crosstable(ctx, state, path.into_inner(), query.after, Format::Xlsx).await
}

async fn pairings(
    ctx: Ctx,
    state: web::Data<AppState>,
    (id, round): (i64, i32),
    format: Format,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let table = state
        .db(move |conn| exports::pairings(conn, &actor, id, round))
        .await?;
    let sheet = ctx.tf1("event.round", &round);
    let base = format!("event-{id}-round-{round}-pairings");
    download(&ctx, format, base, sheet, table).await
}

/// `GET /events/{id}/rounds/{round}/pairings.csv`.
pub async fn pairings_csv(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> AppResult<HttpResponse> {
    pairings(ctx, state, path.into_inner(), Format::Csv).await
}

/// `GET /events/{id}/rounds/{round}/pairings.xlsx`.
pub async fn pairings_xlsx(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, i32)>,
) -> AppResult<HttpResponse> {
    pairings(ctx, state, path.into_inner(), Format::Xlsx).await
}
