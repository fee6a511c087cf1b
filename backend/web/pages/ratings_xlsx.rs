//! The rating list as an .xlsx file, with the filters the page and `/ratings.csv` take:
//! read a batch at a time as the CSV is, each batch written to a constant-memory sheet,
//! so that a list of 55,000 players costs one batch and the file, not every cell at once.
use actix_web::{HttpResponse, web};

use super::ratings::{ListQuery, csv_batch};
use crate::service::ratings::views;
use crate::service::{AppError, AppResult};
use crate::web::ctx::Ctx;
use crate::web::state::AppState;
use crate::web::tables::xlsx::SheetWriter;
use crate::web::tables::{self, XLSX_TYPE};
use damka_domain::vocabulary::Spelling;

/// Column widths in characters, in the order of `views::table_titles`: names and clubs
/// get room, the rest their titles' width or a number's.
const WIDTHS: [usize; 10] = [6, 8, 30, 24, 8, 8, 7, 7, 14, 12];

/// `GET /ratings.xlsx[?variant=&system=&club_id=&country=]`.
pub async fn xlsx(
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let filter = query.into_inner().filter()?;
    let mut batch = csv_batch(&state, &filter, None).await?;
    let name = format!(
        "ratings-{}-{}.xlsx",
        batch.variant.spelling(),
        batch.system.spelling()
    );
    let lang = ctx.lang;
    let titles = views::table_titles();
    let widths: Vec<usize> = titles
        .iter()
        .zip(WIDTHS)
        .map(|(t, w)| w.max(tables::title(lang, t).chars().count()))
        .collect();
    let mut sheet = SheetWriter::new(lang, &ctx.t("ratings.title"), &titles, &widths)?;
    loop {
        let rows: Vec<_> = batch.items.iter().map(views::table_row).collect();
        // Writing goes to the sheet's temporary file: off the async workers.
        sheet = web::block(move || -> AppResult<SheetWriter> {
            for row in &rows {
                sheet.row(row)?;
            }
            Ok(sheet)
        })
        .await
        .map_err(AppError::internal)??;
        match batch.next_cursor.take() {
            Some(cursor) => batch = csv_batch(&state, &filter, Some(cursor)).await?,
            None => break,
        }
    }
    let bytes = web::block(move || sheet.finish())
        .await
        .map_err(AppError::internal)??;
    Ok(tables::attachment(XLSX_TYPE, &name, bytes))
}
