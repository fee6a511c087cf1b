//! Tables to take away (`service::tables`), written as CSV or .xlsx in the reader's language:
//! this file names the columns and the cells that are words; `csv` and `xlsx` write them.
pub mod csv;
pub mod xlsx;

use actix_web::HttpResponse;
use actix_web::http::header;

use super::i18n::Lang;
use crate::service::tables::{Cell, Title};

/// A column's title in `lang`.
pub fn title(lang: Lang, title: &Title) -> String {
    match title {
        Title::Key(key) => lang.t(key),
        Title::Tiebreak {
            code,
            variant,
            system,
        } => super::tiebreaks::abbreviation(lang, *variant, *system, code),
        Title::Number(n) => n.to_string(),
    }
}

/// The text of a cell that is words or a code in the reader's letters (`None` for the
/// cells that are numbers, dates or text as stored).
pub fn words(lang: Lang, cell: &Cell) -> Option<String> {
    match cell {
        Cell::Cross(text) => Some(super::cross_cells::cell(lang, text)),
        Cell::Bye { kind, keizer: true } => Some(super::pages::keizer_absence(lang, *kind)),
        Cell::Bye { kind, .. } => Some(lang.t(&format!("event.bye.{kind}"))),
        _ => None,
    }
}

pub const CSV_TYPE: &str = "text/csv; charset=utf-8";
pub const XLSX_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// A finished file as a download named `filename` (ASCII: ids and plain words).
pub fn attachment(content_type: &str, filename: &str, body: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{filename}\""),
        ))
        .body(body)
}
