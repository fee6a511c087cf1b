//! An event's standings, crosstable and pairings as tables to take away (CSV, .xlsx): the
//! print sheets' use cases, so a download shows what the sheet shows, with the same rule
//! for drafts, and one table per download whatever its format.
use super::Event;
use super::sheets::{self, PairingSheet, SheetPlayer, StandingsSheet};
use crate::service::tables::{Cell, Table, Title};
use crate::service::{Actor, AppResult};
use crate::store::DbConn;
use damka_domain::vocabulary::System;

/// The standings after round `after` (as `sheets::standings_sheet` chooses it).
pub fn standings(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    after: Option<u32>,
) -> AppResult<Table> {
    let sheet = sheets::standings_sheet(conn, actor, event_id, after)?;
    let table = if sheet.event.system == System::Keizer {
        keizer_standings(&sheet)
    } else {
        standings_table(&sheet)
    };
    Ok(table)
}

/// Points as a spreadsheet should add them: the event's scale, halves as `.5`.
fn points(event: &Event, half_points: u32) -> Cell {
    Cell::Number(f64::from(event.scoring_display.shown_half_points(half_points)) / 2.0)
}

/// A place: a number, or the shared range (`3-4`) as written on the sheet.
fn place(text: &str) -> Cell {
    text.parse::<i64>()
        .map_or_else(|_| Cell::text(text), Cell::Integer)
}

fn tiebreak_titles(event: &Event, codes: &[String]) -> impl Iterator<Item = Title> {
    codes.iter().map(|code| Title::Tiebreak {
        code: code.clone(),
        variant: event.variant,
        system: event.system,
    })
}

fn standings_table(sheet: &StandingsSheet) -> Table {
    let mut titles = vec![
        Title::Key("event.place_col"),
        Title::Key("event.start_no"),
        Title::Key("player.name"),
        Title::Key("player.rating"),
        Title::Key("player.club"),
        Title::Key("player.country"),
        Title::Key("event.points"),
    ];
    titles.extend(tiebreak_titles(&sheet.event, &sheet.tiebreaks));
    let rows = sheet
        .rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                place(&row.place),
                Cell::Integer(row.start_no.into()),
                Cell::text(&row.name),
                Cell::optional(row.rating),
                row.club.as_deref().map_or(Cell::Empty, Cell::text),
                Cell::text(&row.country),
                points(&sheet.event, row.half_points),
            ];
            cells.extend(row.tiebreaks.iter().map(|v| Cell::figure(v)));
            cells
        })
        .collect();
    Table { titles, rows }
}

fn keizer_standings(sheet: &StandingsSheet) -> Table {
    let titles = vec![
        Title::Key("event.place_col"),
        Title::Key("player.name"),
        Title::Key("keizer.points"),
        Title::Key("keizer.value"),
        Title::Key("keizer.games"),
        Title::Key("event.points"),
        Title::Key("keizer.absences"),
    ];
    let rows = sheet
        .rows
        .iter()
        .map(|row| {
            vec![
                place(&row.place),
                Cell::text(&row.name),
                row.keizer_sixths.map_or(Cell::Empty, |s| {
                    Cell::Number(super::reports::keizer_points(s))
                }),
                Cell::optional(row.value),
                Cell::optional(row.games),
                points(&sheet.event, row.half_points),
                Cell::optional(row.absences),
            ]
        })
        .collect();
    Table { titles, rows }
}

/// The crosstable after round `after`: one column per opponent (round-robin, by row) or per
/// round (Swiss), cells as the API writes them.
pub fn crosstable(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    after: Option<u32>,
) -> AppResult<Table> {
    let sheet = sheets::crosstable_sheet(conn, actor, event_id, after)?;
    let (event, ct) = (sheet.event, sheet.table);
    let columns = if ct.round_robin {
        u32::try_from(ct.rows.len()).unwrap_or(u32::MAX)
    } else {
        ct.after_round
    };
    let mut titles = vec![
        Title::Key("event.place_col"),
        Title::Key("event.start_no"),
        Title::Key("player.name"),
        Title::Key("player.rating"),
    ];
    titles.extend((1..=columns).map(Title::Number));
    titles.push(Title::Key("event.points"));
    titles.extend(tiebreak_titles(&event, &ct.tiebreaks));
    let rows = ct
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            let mut cells = vec![
                place(&row.place),
                Cell::Integer(row.start_no.into()),
                Cell::text(&row.name),
                Cell::optional(row.rating),
            ];
            cells.extend(row.cells.iter().enumerate().map(|(column, cell)| {
                // A round-robin's diagonal: a player's own column.
                if (ct.round_robin && column == index) || cell.text.is_empty() {
                    Cell::Empty
                } else {
                    Cell::Cross(cell.text.clone())
                }
            }));
            cells.push(points(&event, row.half_points));
            cells.extend(row.tiebreaks.iter().map(|v| Cell::figure(v)));
            cells
        })
        .collect();
    Ok(Table { titles, rows })
}

/// The pairings of round `number` (as `sheets::pairing_sheet`: `NotFound` for a draft the
/// actor may not see): one line per board, then one per player without a game.
pub fn pairings(conn: &mut DbConn, actor: &Actor, event_id: i64, number: i32) -> AppResult<Table> {
    let sheet = sheets::pairing_sheet(conn, actor, event_id, number)?;
    Ok(pairings_table(&sheet))
}

fn pairings_table(sheet: &PairingSheet) -> Table {
    let titles = vec![
        Title::Key("event.board"),
        Title::Key("event.start_no"),
        Title::Key("event.white"),
        Title::Key("player.rating"),
        Title::Key("event.result"),
        Title::Key("event.start_no"),
        Title::Key("event.black"),
        Title::Key("player.rating"),
    ];
    let player = |p: &SheetPlayer| {
        [
            Cell::Integer(p.start_no.into()),
            Cell::text(&p.name),
            Cell::optional(p.rating),
        ]
    };
    let scale = sheet.event.scoring_display;
    let keizer = sheet.event.system == System::Keizer;
    let boards = sheet.boards.iter().map(|b| {
        let mut cells = vec![Cell::Integer(b.board.into())];
        cells.extend(player(&b.white));
        cells.push(
            b.result
                .map_or(Cell::Empty, |r| Cell::Text(r.shown(scale, false))),
        );
        cells.extend(player(&b.black));
        cells
    });
    let byes = sheet.byes.iter().map(|bye| {
        let mut cells = vec![Cell::Empty];
        cells.extend(player(&bye.player));
        cells.push(Cell::Bye {
            kind: bye.kind,
            keizer,
        });
        cells.extend([Cell::Empty, Cell::Empty, Cell::Empty]);
        cells
    });
    Table {
        titles,
        rows: boards.chain(byes).collect(),
    }
}
