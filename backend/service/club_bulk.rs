//! Adding many players to a club at once: names pasted one a line, or a CSV with a header
//! line. Each line is matched against the profiles by its folded name (as the search
//! folds names): a profile in no club of exactly that name joins the club; a name already
//! in the club is refused; otherwise a new profile is made in the club through
//! `players::create`, the use case of the profile form and the API. Lines are stored one
//! by one (a bad line does not stop the others) and every line gets an outcome, so none is
//! lost silently.
use std::collections::HashMap;

use super::players::{self, PlayerInput};
use super::{Actor, AppError, AppResult, Refusal, clubs};
use crate::store::{self, DbConn};
use damka_domain::csv::split_line;
use damka_domain::names::fold;

/// The most lines one submission takes.
pub const MAX_LINES: usize = 500;

/// The profile columns a CSV may have (`name` is required).
const PROFILE_COLUMNS: [&str; 5] = ["name", "country", "federation_id", "birth_year", "title"];
/// The ratings import's columns (`service::ratings::import`): accepted so that one file
/// serves both pages, and not read here.
const RATING_COLUMNS: [&str; 7] = [
    "player_id",
    "variant",
    "system",
    "rating",
    "rd",
    "volatility",
    "games",
];

/// What happened to one line.
#[derive(Debug, Clone)]
pub enum Outcome {
    Created {
        player_id: i64,
    },
    Joined {
        player_id: i64,
    },
    /// Not added; `field` is the profile field at fault, when one is.
    Refused {
        field: Option<String>,
        reason: Refusal,
    },
}

#[derive(Debug, Clone)]
pub struct LineOutcome {
    /// The line's number in what was sent (the CSV's header is line 1).
    pub line: usize,
    pub name: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone)]
pub struct BulkResult {
    pub lines: Vec<LineOutcome>,
    /// The CSV had ratings columns, which this page does not read.
    pub ratings_ignored: bool,
}

/// One line read: its number, and the profile it asks for (or why it cannot be read).
type ReadLine = (
    usize,
    Result<PlayerInput, (Option<String>, Refusal)>,
    String,
);

/// The lines of pasted names: every non-blank line is a name.
fn name_lines(text: &str) -> Vec<ReadLine> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, line)| {
            let input = PlayerInput {
                name: line.trim().to_string(),
                ..PlayerInput::default()
            };
            (at + 1, Ok(input), line.trim().to_string())
        })
        .collect()
}

/// The lines of a CSV with a header line; `true` when it has ratings columns.
fn csv_lines(text: &str) -> AppResult<(Vec<ReadLine>, bool)> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Ok((Vec::new(), false));
    };
    let columns: Vec<String> = split_line(header)
        .unwrap_or_default()
        .iter()
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let mut ratings = false;
    for column in &columns {
        if RATING_COLUMNS.contains(&column.as_str()) {
            ratings = true;
        } else if !PROFILE_COLUMNS.contains(&column.as_str()) {
            return Err(AppError::invalid(
                "csv",
                Refusal::BulkCsvUnknownColumn {
                    column: column.clone(),
                },
            ));
        }
    }
    if !columns.iter().any(|c| c == "name") {
        return Err(AppError::invalid("csv", Refusal::BulkCsvNoName));
    }
    let read = lines
        .map(|(at, line)| (at + 1, csv_line(&columns, line), line.to_string()))
        .map(|(at, read, raw)| {
            let shown = read.as_ref().map(|p| p.name.clone()).unwrap_or(raw);
            (at, read, shown)
        })
        .collect();
    Ok((read, ratings))
}

fn csv_line(columns: &[String], line: &str) -> Result<PlayerInput, (Option<String>, Refusal)> {
    let cells = split_line(line).unwrap_or_default();
    if cells.len() != columns.len() {
        return Err((
            None,
            Refusal::RatingsCsvFieldCount {
                found: cells.len(),
                expected: columns.len(),
            },
        ));
    }
    let mut input = PlayerInput::default();
    for (column, cell) in columns.iter().zip(cells) {
        let cell = cell.trim().to_string();
        match column.as_str() {
            "name" => input.name = cell,
            "country" => input.country = cell,
            "federation_id" => input.federation_id = cell,
            "title" => input.title = cell,
            "birth_year" if !cell.is_empty() => {
                input.birth_year = Some(
                    cell.parse()
                        .map_err(|_| (Some("birth_year".to_string()), Refusal::NotAWholeNumber))?,
                );
            }
            _ => {}
        }
    }
    Ok(input)
}

/// Adds the players of `names` (one a line) or `csv` to the club (`POST
/// /clubs/{id}/members/bulk`): its organisers and administrators only.
pub fn add_many(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    names: &str,
    csv: &str,
) -> AppResult<BulkResult> {
    actor.require_user()?;
    clubs::get(conn, club_id)?;
    if !clubs::can_edit(conn, actor, club_id)? {
        return Err(AppError::forbidden(
            Refusal::OnlyClubOrganisersChangeMembers,
        ));
    }
    crate::service::archived::require_club_not_archived(conn, club_id)?;
    let (mut read, ratings_ignored) = csv_lines(csv)?;
    read.extend(name_lines(names));
    if read.is_empty() {
        return Err(AppError::invalid("names", Refusal::BulkNothingGiven));
    }
    if read.len() > MAX_LINES {
        return Err(AppError::invalid(
            "names",
            Refusal::BulkTooManyLines {
                found: read.len(),
                limit: MAX_LINES,
            },
        ));
    }
    let mut known = Known::load(conn)?;
    let lines = read
        .into_iter()
        .map(|(line, input, name)| {
            let outcome = match input {
                Ok(input) => add_one(conn, actor, club_id, &mut known, input)?,
                Err((field, reason)) => Outcome::Refused { field, reason },
            };
            Ok(LineOutcome {
                line,
                name,
                outcome,
            })
        })
        .collect::<AppResult<Vec<_>>>()?;
    Ok(BulkResult {
        lines,
        ratings_ignored,
    })
}

/// The live profiles by folded name, read once and kept up to date as lines are added.
struct Known(HashMap<String, Vec<(i64, Option<i64>)>>);

impl Known {
    fn load(conn: &mut DbConn) -> AppResult<Known> {
        let mut by_name: HashMap<String, Vec<(i64, Option<i64>)>> = HashMap::new();
        for (id, name, club) in store::players::live_names(conn)? {
            by_name
                .entry(fold(name.trim()))
                .or_default()
                .push((id, club));
        }
        Ok(Known(by_name))
    }

    fn named(&self, name: &str) -> &[(i64, Option<i64>)] {
        self.0.get(&fold(name.trim())).map_or(&[], Vec::as_slice)
    }

    fn set(&mut self, name: &str, id: i64, club: i64) {
        let entry = self.0.entry(fold(name.trim())).or_default();
        entry.retain(|(known, _)| *known != id);
        entry.push((id, Some(club)));
    }
}

/// One line's outcome; only a failure of the database itself ends the whole submission.
fn add_one(
    conn: &mut DbConn,
    actor: &Actor,
    club_id: i64,
    known: &mut Known,
    input: PlayerInput,
) -> AppResult<Outcome> {
    let named = known.named(&input.name);
    if !input.name.trim().is_empty() && named.iter().any(|(_, c)| *c == Some(club_id)) {
        return Ok(refused(None, Refusal::NameAlreadyInClub));
    }
    let clubless: Vec<i64> = named
        .iter()
        .filter(|(_, c)| c.is_none())
        .map(|(id, _)| *id)
        .collect();
    match clubless.as_slice() {
        [] => {}
        [one] => {
            let joined = conn.write_transaction(|conn| {
                store::players::join_club(conn, *one, club_id).map_err(AppError::from)
            })?;
            if joined == 1 {
                known.set(&input.name, *one, club_id);
                return Ok(Outcome::Joined { player_id: *one });
            }
            // In a club since it was read: a new profile after all.
        }
        many => {
            return Ok(refused(
                None,
                Refusal::SeveralClublessNamed { count: many.len() },
            ));
        }
    }
    let input = PlayerInput {
        club_id: Some(club_id),
        ..input
    };
    match players::create(conn, actor, &input) {
        Ok(player) => {
            known.set(&input.name, player.id, club_id);
            Ok(Outcome::Created {
                player_id: player.id,
            })
        }
        Err(AppError::Invalid { field, reason }) => Ok(refused(Some(field.to_string()), reason)),
        Err(AppError::Forbidden { reason } | AppError::Conflict { reason }) => {
            Ok(refused(None, reason))
        }
        Err(other) => Err(other),
    }
}

fn refused(field: Option<String>, reason: Refusal) -> Outcome {
    Outcome::Refused { field, reason }
}
