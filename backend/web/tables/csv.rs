//! A table as CSV: UTF-8 with a byte order mark (so that a spreadsheet opening the file
//! reads Cyrillic names as such), RFC 4180 quoting, a header row of titles, and every text
//! cell through the formula guard (`service::csv_cell`). Numbers are written with a point
//! (`1.5`) in every language: a comma would be the separator.
use super::{title, words};
use crate::service::csv_cell::field;
use crate::service::tables::{Cell, Table};
use crate::web::i18n::Lang;

const BOM: &str = "\u{feff}";

/// The whole file.
pub fn write(lang: Lang, table: &Table) -> String {
    let mut out = String::from(BOM);
    let titles: Vec<String> = table
        .titles
        .iter()
        .map(|t| field(&title(lang, t)))
        .collect();
    push_line(&mut out, &titles);
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| cell(lang, c)).collect();
        push_line(&mut out, &cells);
    }
    out
}

fn push_line(out: &mut String, fields: &[String]) {
    out.push_str(&fields.join(","));
    out.push_str("\r\n");
}

/// One cell as a CSV field.
pub fn cell(lang: Lang, cell: &Cell) -> String {
    if let Some(text) = words(lang, cell) {
        return field(&text);
    }
    match cell {
        Cell::Empty => String::new(),
        Cell::Text(text) => field(text),
        Cell::Integer(n) => n.to_string(),
        Cell::Number(x) => x.to_string(),
        Cell::Date(day) => day.format("%Y-%m-%d").to_string(),
        // Words were written above.
        Cell::Cross(text) => field(text),
        Cell::Bye { .. } => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::tables::Title;

    #[test]
    fn numbers_use_a_point_and_text_is_guarded() {
        let table = Table {
            titles: vec![Title::Key("player.name"), Title::Key("event.points")],
            rows: vec![
                vec![Cell::text("=HYPERLINK(\"x\")"), Cell::Number(1.5)],
                vec![Cell::text("Иванов, Пётр"), Cell::Number(3.0)],
            ],
        };
        assert_eq!(
            write(Lang::Ru, &table),
            "\u{feff}Имя,Очки\r\n\"'=HYPERLINK(\"\"x\"\")\",1.5\r\n\"Иванов, Пётр\",3\r\n"
        );
    }
}
