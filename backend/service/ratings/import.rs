//! Carrying a rating list over from elsewhere: a CSV of starting ratings (a club moving to
//! damka brings its federation's Elo list, or its Glicko-2 figures from another site).
//!
//! The file has a header line naming its columns, in any order: `player_id` or
//! `federation_id` (or both: the id wins), `variant`, `system`, `rating`, and optionally
//! `rd`, `volatility` (Glicko-2 only) and `games`. Every line is checked before anything is
//! stored; a file with any bad line is refused whole, each bad line named with its number
//! and column. A good file replaces the players' starting ratings in those variants and
//! systems and recomputes the variants, in one transaction.
//!
//! Who may import: site administrators and organisers, the people who run events and
//! bring clubs onto the site. A starting rating moves a player's every later rating, so it
//! is not something a player sets for themselves or a club organiser for their members.
use std::collections::{HashMap, HashSet};

use damka_engine::Variant;
use serde::Serialize;

use crate::service::effects::{self, Effects};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::models::PlayerRating;
use crate::store::ratings::{self as stored, GlickoStartRow};
use crate::store::{DbConn, players};
use damka_domain::csv::split_line;
use damka_domain::vocabulary::{RatingSystem, Spelling, spellings};

/// The largest file an import takes.
pub const MAX_CSV_BYTES: usize = 1024 * 1024;

const COLUMNS: [&str; 8] = [
    "player_id",
    "federation_id",
    "variant",
    "system",
    "rating",
    "rd",
    "volatility",
    "games",
];

/// Bounds of what an imported rating may say.
const RATING_RANGE: (f64, f64) = (100.0, 3500.0);
const RD_RANGE: (f64, f64) = (50.0, 350.0);
const MAX_VOLATILITY: f64 = 0.1;
const MAX_GAMES: i64 = 1_000_000;

/// What an import stored.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ImportedRatings {
    /// Lines stored (one starting rating each).
    pub stored: usize,
    /// The variants recomputed.
    pub variants: Vec<String>,
}

/// One good line of the file.
#[derive(Debug, Clone, PartialEq)]
struct StartLine {
    player_id: i64,
    variant: Variant,
    system: RatingSystem,
    rating: f64,
    rd: Option<f64>,
    volatility: Option<f64>,
    games: i32,
}

fn cell(line: usize, column: &str, problem: Refusal) -> Refusal {
    Refusal::RatingsCsvCell {
        line,
        column: column.to_string(),
        problem: Box::new(problem),
    }
}

fn number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|n| n.is_finite())
}

fn between(line: usize, column: &str, value: f64, (min, max): (f64, f64)) -> Result<f64, Refusal> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(cell(
            line,
            column,
            Refusal::NotBetween {
                min: min as i64,
                max: max as i64,
            },
        ))
    }
}

/// The profiles of the file's federation ids: an id carried by two profiles names neither.
struct Lookup {
    by_federation_id: HashMap<String, Option<i64>>,
    existing: HashSet<i64>,
}

/// Reads one data line, or says everything wrong with it.
fn read_line(
    number_of_line: usize,
    header: &HashMap<&str, usize>,
    fields: &[String],
    lookup: &Lookup,
) -> Result<StartLine, Vec<Refusal>> {
    let line = number_of_line;
    let get = |column: &str| {
        header
            .get(column)
            .and_then(|&i| fields.get(i))
            .map(String::as_str)
            .filter(|text| !text.is_empty())
    };
    let mut problems = Vec::new();
    let player = player_of(line, get("player_id"), get("federation_id"), lookup);
    let player_id = noted(&mut problems, player);
    let variant = noted(
        &mut problems,
        spelled::<Variant>(line, "variant", get("variant")),
    );
    let system = noted(&mut problems, spelled(line, "system", get("system")));
    let rating = noted(&mut problems, rating_of(line, get("rating"), system));
    let rd = glicko_only(line, "rd", get("rd"), system, RD_RANGE);
    let rd = noted(&mut problems, rd).flatten();
    let volatility = volatility_of(line, get("volatility"), system);
    let volatility = noted(&mut problems, volatility).flatten();
    let games = noted(&mut problems, games_of(line, get("games"))).flatten();
    match (player_id, variant, system, rating, games) {
        (Some(player_id), Some(variant), Some(system), Some(rating), Some(games))
            if problems.is_empty() =>
        {
            Ok(StartLine {
                player_id,
                variant,
                system,
                rating,
                rd,
                volatility,
                games,
            })
        }
        _ => Err(problems),
    }
}

/// The value of a cell, or nothing with its problem added to the line's.
fn noted<T>(problems: &mut Vec<Refusal>, read: Result<T, Refusal>) -> Option<T> {
    read.map_err(|problem| problems.push(problem)).ok()
}

/// The player a line is about: by `player_id` if given, else by `federation_id`.
fn player_of(
    line: usize,
    player_id: Option<&str>,
    federation_id: Option<&str>,
    lookup: &Lookup,
) -> Result<i64, Refusal> {
    match (player_id, federation_id) {
        (Some(text), _) => match text.parse::<i64>() {
            Ok(id) if lookup.existing.contains(&id) => Ok(id),
            Ok(_) => Err(cell(line, "player_id", Refusal::NoSuchPlayer)),
            Err(_) => Err(cell(line, "player_id", Refusal::NotAWholeNumber)),
        },
        (None, Some(id)) => match lookup.by_federation_id.get(id) {
            Some(Some(player)) => Ok(*player),
            Some(None) => Err(cell(
                line,
                "federation_id",
                Refusal::RatingsCsvFederationIdShared { id: id.to_string() },
            )),
            None => Err(cell(
                line,
                "federation_id",
                Refusal::RatingsCsvUnknownFederationId { id: id.to_string() },
            )),
        },
        (None, None) => Err(Refusal::RatingsCsvAt {
            line,
            problem: Box::new(Refusal::RatingsCsvNoPlayer),
        }),
    }
}

/// A required cell holding one of the spellings of `T` (a variant, a rating system).
fn spelled<T: Spelling>(line: usize, column: &str, text: Option<&str>) -> Result<T, Refusal> {
    match text {
        Some(text) => T::from_spelling(text)
            .ok_or_else(|| cell(line, column, Refusal::not_one_of(&spellings::<T>()))),
        None => Err(cell(line, column, Refusal::Required)),
    }
}

/// The rating: a whole number for Elo, any number for Glicko-2, within `RATING_RANGE`.
fn rating_of(
    line: usize,
    text: Option<&str>,
    system: Option<RatingSystem>,
) -> Result<f64, Refusal> {
    let Some(text) = text else {
        return Err(cell(line, "rating", Refusal::Required));
    };
    let parsed = if system == Some(RatingSystem::Elo) {
        text.parse::<i64>()
            .ok()
            .map(|n| n as f64)
            .ok_or(Refusal::NotAWholeNumber)
    } else {
        number(text).ok_or(Refusal::NotANumber)
    };
    match parsed {
        Ok(value) => between(line, "rating", value, RATING_RANGE),
        Err(problem) => Err(cell(line, "rating", problem)),
    }
}

/// An optional Glicko-2 figure (`rd`, `volatility`): refused on an Elo line.
fn glicko_only(
    line: usize,
    column: &str,
    text: Option<&str>,
    system: Option<RatingSystem>,
    range: (f64, f64),
) -> Result<Option<f64>, Refusal> {
    match text {
        None => Ok(None),
        Some(_) if system == Some(RatingSystem::Elo) => {
            Err(cell(line, column, Refusal::RatingsCsvGlickoOnly))
        }
        Some(text) => match number(text) {
            Some(value) => between(line, column, value, range).map(Some),
            None => Err(cell(line, column, Refusal::NotANumber)),
        },
    }
}

/// The optional volatility. A volatility is a small decimal: its range is not a
/// whole-number one.
fn volatility_of(
    line: usize,
    text: Option<&str>,
    system: Option<RatingSystem>,
) -> Result<Option<f64>, Refusal> {
    match glicko_only(line, "volatility", text, system, (f64::MIN, f64::MAX))? {
        Some(v) if v > 0.0 && v <= MAX_VOLATILITY => Ok(Some(v)),
        Some(_) => Err(cell(line, "volatility", Refusal::RatingsCsvVolatilityRange)),
        None => Ok(None),
    }
}

/// The optional number of games behind the rating (0 when not given).
fn games_of(line: usize, text: Option<&str>) -> Result<Option<i32>, Refusal> {
    match text {
        None => Ok(Some(0)),
        Some(text) => match text.parse::<i64>() {
            Ok(n) if (0..=MAX_GAMES).contains(&n) => Ok(i32::try_from(n).ok()),
            Ok(_) => Err(cell(
                line,
                "games",
                Refusal::NotBetween {
                    min: 0,
                    max: MAX_GAMES,
                },
            )),
            Err(_) => Err(cell(line, "games", Refusal::NotAWholeNumber)),
        },
    }
}

/// Reads the whole file: its good lines, or every problem of every line.
fn read_file(conn: &mut DbConn, text: &str) -> AppResult<Result<Vec<StartLine>, Vec<Refusal>>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .filter(|(_, line)| !line.trim().is_empty());
    let Some((header_line, header_text)) = lines.next() else {
        return Ok(Err(vec![Refusal::RatingsCsvEmpty]));
    };
    let Some(header_fields) = split_line(header_text) else {
        return Ok(Err(vec![Refusal::RatingsCsvAt {
            line: header_line,
            problem: Box::new(Refusal::RatingsCsvUnclosedQuote),
        }]));
    };
    let mut problems = Vec::new();
    let mut header: HashMap<&str, usize> = HashMap::new();
    for (i, name) in header_fields.iter().enumerate() {
        match COLUMNS.iter().find(|c| c.eq_ignore_ascii_case(name)) {
            Some(column) if header.insert(column, i).is_some() => {
                problems.push(Refusal::RatingsCsvAt {
                    line: header_line,
                    problem: Box::new(Refusal::RatingsCsvColumnTwice {
                        column: name.clone(),
                    }),
                })
            }
            Some(_) => {}
            None => problems.push(Refusal::RatingsCsvAt {
                line: header_line,
                problem: Box::new(Refusal::RatingsCsvUnknownColumn {
                    column: name.clone(),
                    allowed: COLUMNS.iter().map(|c| (*c).to_string()).collect(),
                }),
            }),
        }
    }
    let missing: Vec<String> = ["variant", "system", "rating"]
        .iter()
        .filter(|c| !header.contains_key(*c))
        .map(|c| (*c).to_string())
        .collect();
    if !missing.is_empty() {
        problems.push(Refusal::RatingsCsvAt {
            line: header_line,
            problem: Box::new(Refusal::RatingsCsvMissingColumns { columns: missing }),
        });
    }
    if !header.contains_key("player_id") && !header.contains_key("federation_id") {
        problems.push(Refusal::RatingsCsvAt {
            line: header_line,
            problem: Box::new(Refusal::RatingsCsvNoPlayerColumn),
        });
    }
    if !problems.is_empty() {
        return Ok(Err(problems));
    }
    let rows: Vec<(usize, Option<Vec<String>>)> = lines
        .map(|(number, line)| (number, split_line(line)))
        .collect();
    let lookup = lookup(conn, &header, &rows)?;
    let mut good = Vec::new();
    let mut first_line_of: HashMap<(i64, Variant, RatingSystem), usize> = HashMap::new();
    for (number, fields) in rows {
        let Some(fields) = fields else {
            problems.push(Refusal::RatingsCsvAt {
                line: number,
                problem: Box::new(Refusal::RatingsCsvUnclosedQuote),
            });
            continue;
        };
        if fields.len() != header_fields.len() {
            problems.push(Refusal::RatingsCsvAt {
                line: number,
                problem: Box::new(Refusal::RatingsCsvFieldCount {
                    found: fields.len(),
                    expected: header_fields.len(),
                }),
            });
            continue;
        }
        match read_line(number, &header, &fields, &lookup) {
            Ok(start) => {
                let key = (start.player_id, start.variant, start.system);
                if let Some(&first) = first_line_of.get(&key) {
                    problems.push(Refusal::RatingsCsvAt {
                        line: number,
                        problem: Box::new(Refusal::RatingsCsvDuplicate { first_line: first }),
                    });
                } else {
                    first_line_of.insert(key, number);
                    good.push(start);
                }
            }
            Err(line_problems) => problems.extend(line_problems),
        }
    }
    if !problems.is_empty() {
        return Ok(Err(problems));
    }
    if good.is_empty() {
        return Ok(Err(vec![Refusal::RatingsCsvEmpty]));
    }
    Ok(Ok(good))
}

fn lookup(
    conn: &mut DbConn,
    header: &HashMap<&str, usize>,
    rows: &[(usize, Option<Vec<String>>)],
) -> AppResult<Lookup> {
    let column = |name: &str| header.get(name).copied();
    let ids: Vec<i64> = column("player_id")
        .map(|i| {
            rows.iter()
                .filter_map(|(_, fields)| fields.as_ref()?.get(i)?.parse::<i64>().ok())
                .collect()
        })
        .unwrap_or_default();
    let existing: HashSet<i64> = stored::existing_players(conn, &ids)?.into_iter().collect();
    let mut by_federation_id: HashMap<String, Option<i64>> = HashMap::new();
    if column("federation_id").is_some() {
        for (federation_id, player) in stored::federation_ids(conn)? {
            by_federation_id
                .entry(federation_id)
                .and_modify(|known| *known = None)
                .or_insert(Some(player));
        }
    }
    Ok(Lookup {
        by_federation_id,
        existing,
    })
}

/// How many of a bad file's problems a refusal lists: a file of 40,000 bad lines must not
/// answer megabytes (the rest are counted).
pub const MAX_LISTED_PROBLEMS: usize = 100;

/// The first `MAX_LISTED_PROBLEMS` problems, and how many more there are.
fn listed(mut problems: Vec<Refusal>) -> Vec<Refusal> {
    if problems.len() > MAX_LISTED_PROBLEMS {
        let more = problems.len() - MAX_LISTED_PROBLEMS;
        problems.truncate(MAX_LISTED_PROBLEMS);
        problems.push(Refusal::RatingsCsvMoreProblems { more });
    }
    problems
}

/// Imports a CSV of starting ratings (administrators and organisers). A bad file stores
/// nothing and is refused with its bad lines (the first hundred, and a count of the rest).
pub fn import_csv(conn: &mut DbConn, actor: &Actor, text: &str) -> AppResult<ImportedRatings> {
    actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersImportRatings));
    }
    // 413 like every other body over its limit (the API's route refuses it before reading
    // it whole; the page's form carries it URL-encoded and lands here).
    if text.len() > MAX_CSV_BYTES {
        return Err(AppError::PayloadTooLarge {
            limit_bytes: MAX_CSV_BYTES,
        });
    }
    conn.write_transaction(|conn| {
        let lines = match read_file(conn, text)? {
            Ok(lines) => lines,
            Err(problems) => {
                return Err(AppError::invalid(
                    "csv",
                    Refusal::RatingsCsvInvalid {
                        problems: listed(problems),
                    },
                ));
            }
        };
        let params = super::recompute::GLICKO;
        let mut variants: Vec<Variant> = Vec::new();
        for line in &lines {
            match line.system {
                RatingSystem::Elo => players::set_rating(
                    conn,
                    &PlayerRating {
                        player_id: line.player_id,
                        variant: line.variant,
                        rating: line.rating as i32,
                        games: line.games,
                    },
                )?,
                RatingSystem::Glicko2 => stored::set_glicko_start(
                    conn,
                    &GlickoStartRow {
                        player_id: line.player_id,
                        variant: line.variant,
                        rating: line.rating,
                        deviation: line.rd.unwrap_or(params.initial_deviation),
                        volatility: line.volatility.unwrap_or(params.initial_volatility),
                        games: line.games,
                    },
                )?,
            }
            if !variants.contains(&line.variant) {
                variants.push(line.variant);
            }
        }
        variants.sort_by_key(|v| Variant::ALL.iter().position(|all| all == v));
        let mut effects = Effects::none();
        for line in &lines {
            effects.start_changed(conn, line.variant, line.player_id)?;
        }
        let imported = ImportedRatings {
            stored: lines.len(),
            variants: variants.iter().map(|v| v.spelling().to_string()).collect(),
        };
        AppResult::Ok((imported, effects))
    })
    .map(|(imported, effects)| {
        effects::apply(conn, effects);
        imported
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_volatility_is_a_small_positive_number_of_a_glicko_line() {
        let header: HashMap<&str, usize> = [
            ("player_id", 0),
            ("variant", 1),
            ("system", 2),
            ("rating", 3),
            ("volatility", 4),
        ]
        .into();
        let lookup = Lookup {
            by_federation_id: HashMap::new(),
            existing: [7].into(),
        };
        let line = |system: &str, volatility: &str| {
            ["7", "russian", system, "1500", volatility].map(String::from)
        };
        let good = read_line(2, &header, &line("glicko2", "0.06"), &lookup).unwrap();
        assert_eq!(good.volatility, Some(0.06));
        for bad in ["0.5", "0", "-0.01"] {
            assert_eq!(
                read_line(3, &header, &line("glicko2", bad), &lookup).unwrap_err(),
                vec![cell(3, "volatility", Refusal::RatingsCsvVolatilityRange)],
                "{bad}"
            );
        }
        assert_eq!(
            read_line(4, &header, &line("elo", "0.06"), &lookup).unwrap_err(),
            vec![cell(4, "volatility", Refusal::RatingsCsvGlickoOnly)]
        );
    }
}
