//! A table as an .xlsx workbook of one sheet: numbers as numbers, dates as dates, text
//! always as text (a name that starts with `=` is written as a string, never a formula), a
//! bold header row that stays in view, and columns as wide as what they hold. The sheet is
//! written in rust_xlsxwriter's constant-memory mode: each finished row goes to a temporary
//! file, so a rating list of tens of thousands of players costs the file, not its cells.
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook, XlsxError};

use super::{title, words};
use crate::service::tables::{Cell, Table, Title};
use crate::service::{AppError, AppResult};
use crate::web::i18n::Lang;

/// Widest column, in characters: a long name wraps nothing, it is cut off on screen only.
const MAX_WIDTH: usize = 50;

/// A sheet being written a row at a time, the header first.
pub struct SheetWriter {
    workbook: Workbook,
    lang: Lang,
    next_row: u32,
    date: Format,
}

fn failed(error: XlsxError) -> AppError {
    AppError::internal(format!("writing the .xlsx file: {error}"))
}

impl SheetWriter {
    /// A workbook with one sheet named `name`, its columns `widths` characters wide and its
    /// header row written.
    pub fn new(lang: Lang, name: &str, titles: &[Title], widths: &[usize]) -> AppResult<Self> {
        let mut workbook = Workbook::new();
        let bold = Format::new().set_bold();
        let sheet = workbook
            .add_worksheet_with_constant_memory()
            .map_err(failed)?;
        sheet.set_name(sheet_name(name)).map_err(failed)?;
        for (column, width) in widths.iter().enumerate() {
            let column =
                u16::try_from(column).map_err(|_| failed(XlsxError::RowColumnLimitError))?;
            sheet
                .set_column_width(column, (*width).min(MAX_WIDTH) as f64 + 1.0)
                .map_err(failed)?;
        }
        sheet.set_freeze_panes(1, 0).map_err(failed)?;
        for (column, t) in titles.iter().enumerate() {
            let column =
                u16::try_from(column).map_err(|_| failed(XlsxError::RowColumnLimitError))?;
            sheet
                .write_string_with_format(0, column, title(lang, t), &bold)
                .map_err(failed)?;
        }
        Ok(SheetWriter {
            workbook,
            lang,
            next_row: 1,
            date: Format::new().set_num_format("yyyy-mm-dd"),
        })
    }

    /// The next row.
    pub fn row(&mut self, cells: &[Cell]) -> AppResult<()> {
        let row = self.next_row;
        let sheet = self.workbook.worksheet_from_index(0).map_err(failed)?;
        for (column, cell) in cells.iter().enumerate() {
            let column =
                u16::try_from(column).map_err(|_| failed(XlsxError::RowColumnLimitError))?;
            if let Some(text) = words(self.lang, cell) {
                sheet.write_string(row, column, text).map_err(failed)?;
                continue;
            }
            match cell {
                Cell::Empty | Cell::Cross(_) | Cell::Bye { .. } => None,
                Cell::Text(text) => Some(sheet.write_string(row, column, text)),
                Cell::Integer(n) => Some(sheet.write_number(row, column, *n as f64)),
                Cell::Number(x) => Some(sheet.write_number(row, column, *x)),
                Cell::Date(day) => {
                    let day = date(*day)?;
                    Some(sheet.write_datetime_with_format(row, column, &day, &self.date))
                }
            }
            .transpose()
            .map_err(failed)?;
        }
        self.next_row += 1;
        Ok(())
    }

    /// The finished file.
    pub fn finish(mut self) -> AppResult<Vec<u8>> {
        self.workbook.save_to_buffer().map_err(failed)
    }
}

fn date(day: chrono::NaiveDate) -> AppResult<ExcelDateTime> {
    use chrono::Datelike;
    let year = u16::try_from(day.year())
        .map_err(|_| failed(XlsxError::DateTimeRangeError(day.to_string())))?;
    ExcelDateTime::from_ymd(year, day.month() as u8, day.day() as u8).map_err(failed)
}

/// A sheet name Excel accepts: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if "[]:*?/\\".contains(c) { ' ' } else { c })
        .take(31)
        .collect();
    let cleaned = cleaned.trim().trim_matches('\'').to_string();
    if cleaned.is_empty() {
        "Sheet1".into()
    } else {
        cleaned
    }
}

/// A whole table as a workbook, columns as wide as their widest cell.
pub fn write(lang: Lang, name: &str, table: &Table) -> AppResult<Vec<u8>> {
    let mut widths: Vec<usize> = table
        .titles
        .iter()
        .map(|t| title(lang, t).chars().count())
        .collect();
    for row in &table.rows {
        for (column, cell) in row.iter().enumerate() {
            if let Some(width) = widths.get_mut(column) {
                *width = (*width).max(shown_width(lang, cell));
            }
        }
    }
    let mut sheet = SheetWriter::new(lang, name, &table.titles, &widths)?;
    for row in &table.rows {
        sheet.row(row)?;
    }
    sheet.finish()
}

/// About how many characters a cell shows.
fn shown_width(lang: Lang, cell: &Cell) -> usize {
    if let Some(text) = words(lang, cell) {
        return text.chars().count();
    }
    match cell {
        Cell::Empty | Cell::Cross(_) | Cell::Bye { .. } => 0,
        Cell::Text(text) => text.chars().count(),
        Cell::Integer(n) => n.to_string().len(),
        Cell::Number(x) => x.to_string().len(),
        Cell::Date(_) => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_names_are_what_excel_accepts() {
        assert_eq!(sheet_name("Standings"), "Standings");
        assert_eq!(sheet_name("a/b:c"), "a b c");
        assert_eq!(sheet_name(""), "Sheet1");
        assert_eq!(sheet_name(&"x".repeat(40)).len(), 31);
    }
}
