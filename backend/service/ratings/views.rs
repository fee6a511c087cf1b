//! What pages and the API show of the stored ratings: the list of a variant in one system,
//! a player's history, a player's current ratings, an event's rating changes.
use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use damka_engine::Variant;
use serde::Serialize;

use super::system_choice;
use crate::service::events::settings::one_of;
use crate::service::paging::{Page, PageRequest};
use crate::service::tables::{Cell, Title};
use crate::service::{AppError, AppResult, validate};
use crate::store::ratings::{self as stored, ChangeRow, ListedRow};
use crate::store::{DbConn, events, players};
use damka_domain::names::NameQuery;
use damka_domain::vocabulary::{RatingSystem, Spelling};

fn utc(at: NaiveDateTime) -> DateTime<Utc> {
    at.and_utc()
}

/// A rating as lists show it: whole points, halves away from zero.
fn shown(value: f64) -> i64 {
    value.round() as i64
}

/// What a list asks for, as typed in a query string.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    pub variant: Option<String>,
    pub system: Option<String>,
    pub club_id: Option<i64>,
    pub country: Option<String>,
    /// Words of the player's name, in any order (folded as names are searched).
    pub q: Option<String>,
}

/// The list's variant and system, read once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub variant: Variant,
    pub system: RatingSystem,
    /// No system was asked for and the site's list system has no ratings in this variant,
    /// so the other system's list is shown (the page says why).
    pub preferred_empty: Option<RatingSystem>,
}

/// Reads `variant` (default Russian) and `system`. Without a system: the site's list system
/// when it has ratings in the variant, else the other one when that has some (a fresh site
/// rates its games in Glicko-2 from the first game, while Elo needs rated opponents or a
/// federation list), else the site's list system.
pub fn choice(conn: &mut DbConn, variant: Option<&str>, system: Option<&str>) -> AppResult<Choice> {
    let variant = match variant.map(str::trim).filter(|v| !v.is_empty()) {
        Some(text) => one_of::<Variant>("variant", text)?,
        None => Variant::default(),
    };
    if let Some(text) = system.map(str::trim).filter(|s| !s.is_empty()) {
        return Ok(Choice {
            variant,
            system: one_of::<RatingSystem>("system", text)?,
            preferred_empty: None,
        });
    }
    let preferred = system_choice(conn)?.list_system;
    if !stored::any_rated(conn, variant, preferred)? {
        let other = other_system(preferred);
        if stored::any_rated(conn, variant, other)? {
            return Ok(Choice {
                variant,
                system: other,
                preferred_empty: Some(preferred),
            });
        }
    }
    Ok(Choice {
        variant,
        system: preferred,
        preferred_empty: None,
    })
}

fn other_system(system: RatingSystem) -> RatingSystem {
    match system {
        RatingSystem::Elo => RatingSystem::Glicko2,
        RatingSystem::Glicko2 => RatingSystem::Elo,
    }
}

/// One row of a rating list.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RatingListItem {
    /// The rank in the whole list of the variant and system (1 for the best; equal ratings
    /// share a rank), also when the list is narrowed to a club, a country or a name.
    pub rank: u32,
    pub player_id: i64,
    pub name: String,
    pub club_name: Option<String>,
    /// The federation/country code, empty when unknown.
    pub country: String,
    /// Whole points.
    pub rating: i64,
    /// Glicko-2's rating deviation, whole points; null for Elo.
    pub rd: Option<i64>,
    pub games: i32,
    /// Glicko-2: RD 110 or more, the rating is still uncertain. Elo lists only rated players.
    pub provisional: bool,
    pub last_played: Option<DateTime<Utc>>,
}

/// A rating list (or a page of it) with what it is a list of.
#[derive(Debug, Clone)]
pub struct RatingList {
    pub variant: Variant,
    pub system: RatingSystem,
    /// The site's list system, when it was passed over for having no ratings here.
    pub preferred_empty: Option<RatingSystem>,
    pub club_id: Option<i64>,
    pub country: Option<String>,
    /// The name words asked for, as typed (trimmed); none without.
    pub q: Option<String>,
    pub items: Vec<RatingListItem>,
    /// The next page's cursor (`None` on the last page, and for the whole list).
    pub next_cursor: Option<String>,
    /// While the variant's ratings are being brought up to date after a change that
    /// reached far back: since when (the list shows the ratings before it meanwhile).
    pub updating_since: Option<DateTime<Utc>>,
}

/// Since when the variant's ratings are being brought up to date, if they are.
pub fn updating_since(conn: &mut DbConn, variant: Variant) -> AppResult<Option<DateTime<Utc>>> {
    Ok(crate::store::rating_catchup::behind(conn)?
        .into_iter()
        .find(|(v, _)| *v == variant)
        .map(|(_, since)| since.and_utc()))
}

/// Where a page of a rating list ends: the stored (unrounded) rating, name and id of its
/// last player, then that player's rank and position in the whole list, so that the next
/// page goes on counting ranks where this one stopped.
pub type PageKey = (f64, String, i64, u32, u32);

/// The whole list of rated players of a variant in one system, best first (the CSV).
pub fn list(conn: &mut DbConn, filter: &ListFilter) -> AppResult<RatingList> {
    read(conn, filter, None, None)
}

/// A page of the list: ranks are those in the whole (filtered) list, equal ratings sharing
/// one across pages.
pub fn page(
    conn: &mut DbConn,
    filter: &ListFilter,
    page: &PageRequest<PageKey>,
) -> AppResult<RatingList> {
    read(conn, filter, page.after.as_ref(), Some(page.limit))
}

/// The rows after `after`, `limit` of them (with the next page's cursor) or all.
///
/// A list narrowed by club, country or name keeps each player's rank in the whole list:
/// the rank is a standing the federation publishes and players quote ("37th in Russia"),
/// and a search for one name showing "1" would claim a place the player does not have.
/// The column says so in its title.
fn read(
    conn: &mut DbConn,
    filter: &ListFilter,
    after: Option<&PageKey>,
    limit: Option<usize>,
) -> AppResult<RatingList> {
    let Choice {
        variant,
        system,
        preferred_empty,
    } = choice(conn, filter.variant.as_deref(), filter.system.as_deref())?;
    let country = match filter.country.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => Some(validate::country(text)?),
        _ => None,
    };
    let q = filter
        .q
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .map(str::to_string);
    let name = q.as_deref().and_then(NameQuery::parse);
    let key = name.as_ref().map(NameQuery::key_word);
    let scope = stored::ListScope {
        variant,
        system,
        club: filter.club_id,
        country: country.as_deref(),
        name_key: key.as_deref(),
    };
    let stored_after = after.map(|(rating, name, id, _, _)| (*rating, name.clone(), *id));
    let rows = matching_rows(
        conn,
        scope,
        name.as_ref(),
        stored_after,
        limit.map(|limit| limit + 1),
    )?;
    let narrowed = scope.club.is_some() || scope.country.is_some() || name.is_some();
    let ranked = if narrowed {
        ranked_in_whole_list(rows, &stored::list_ratings(conn, variant, system)?)
    } else {
        ranked(rows, after)
    };
    let (items, next_cursor) = match limit {
        Some(limit) => {
            let page = Page::from_rows(ranked, limit, |r| {
                (
                    r.stored,
                    r.item.name.clone(),
                    r.item.player_id,
                    r.item.rank,
                    r.position,
                )
            });
            (page.items, page.next_cursor)
        }
        None => (ranked, None),
    };
    Ok(RatingList {
        variant,
        system,
        preferred_empty,
        club_id: filter.club_id,
        country,
        q,
        items: items.into_iter().map(|r| r.item).collect(),
        next_cursor,
        updating_since: updating_since(conn, variant)?,
    })
}

/// Rows read per query of a name-filtered list: the database keeps the rows whose name key
/// contains the query's longest word, Rust checks every word, a keyset batch at a time.
const NAME_BATCH: usize = 500;

/// Up to `fetch` rows of the scope after `after` (all without), whose name matches `name`.
fn matching_rows(
    conn: &mut DbConn,
    scope: stored::ListScope<'_>,
    name: Option<&NameQuery>,
    after: Option<stored::ListKey>,
    fetch: Option<usize>,
) -> AppResult<Vec<ListedRow>> {
    let Some(name) = name else {
        return Ok(stored::list(conn, scope, after.as_ref(), fetch)?);
    };
    let Some(fetch) = fetch else {
        let mut rows = stored::list(conn, scope, after.as_ref(), None)?;
        rows.retain(|row| name.matches(&row.name));
        return Ok(rows);
    };
    let mut found = Vec::new();
    let mut scanned = after;
    loop {
        let batch = stored::list(conn, scope, scanned.as_ref(), Some(NAME_BATCH))?;
        let table_ends = batch.len() < NAME_BATCH;
        scanned = batch.last().map(|row| {
            (
                row.rating.rating.unwrap_or_default(),
                row.name.clone(),
                row.rating.player_id,
            )
        });
        let wanted = fetch - found.len();
        found.extend(
            batch
                .into_iter()
                .filter(|row| name.matches(&row.name))
                .take(wanted),
        );
        if found.len() >= fetch || table_ends {
            return Ok(found);
        }
    }
}

/// A list row with what the next page's cursor needs of it.
struct Ranked {
    item: RatingListItem,
    /// The stored rating, unrounded (the list's order).
    stored: f64,
    /// 1 for the first row of the whole list.
    position: u32,
}

impl Ranked {
    fn new(row: ListedRow, rank: u32, position: u32) -> Ranked {
        let stored = row.rating.rating.unwrap_or_default();
        Ranked {
            item: RatingListItem {
                rank,
                player_id: row.rating.player_id,
                name: row.name,
                club_name: row.club_name,
                country: row.country,
                rating: shown(stored),
                rd: row.rating.deviation.map(shown),
                games: row.rating.games,
                provisional: row.rating.provisional,
                last_played: row.rating.last_played.map(utc),
            },
            stored,
            position,
        }
    }
}

/// Numbers the rows, going on from the previous page's last row: a row's rank is its
/// position, or the rank of the row before when both show the same (rounded) rating.
fn ranked(rows: Vec<ListedRow>, after: Option<&PageKey>) -> Vec<Ranked> {
    let mut previous =
        after.map(|(stored, _, _, rank, position)| (shown(*stored), *rank, *position));
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let rating = shown(row.rating.rating.unwrap_or_default());
        let position = previous.map_or(1, |(_, _, p)| p + 1);
        let rank = match previous {
            Some((shown_before, rank_before, _)) if shown_before == rating => rank_before,
            _ => position,
        };
        previous = Some((rating, rank, position));
        out.push(Ranked::new(row, rank, position));
    }
    out
}

/// Ranks the rows of a narrowed list in the whole list (`whole`: its stored ratings, best
/// first): one more than the players showing a higher (rounded) rating, so equal shown
/// ratings share a rank as in `ranked`.
fn ranked_in_whole_list(rows: Vec<ListedRow>, whole: &[f64]) -> Vec<Ranked> {
    rows.into_iter()
        .map(|row| {
            let rating = shown(row.rating.rating.unwrap_or_default());
            let above = whole.partition_point(|other| shown(*other) > rating);
            let rank = u32::try_from(above).unwrap_or(u32::MAX).saturating_add(1);
            Ranked::new(row, rank, rank)
        })
        .collect()
}

/// The CSV file's first line: the API's item fields as columns.
pub const CSV_HEADER: &str =
    "rank,player_id,name,club_name,country,rating,rd,games,provisional,last_played\n";

/// Rows of the list as CSV lines, one player a line, text cells guarded against formulas.
pub fn csv_rows(items: &[RatingListItem]) -> String {
    let mut out = String::new();
    for item in items {
        let fields = [
            item.rank.to_string(),
            item.player_id.to_string(),
            crate::service::csv_cell::field(&item.name),
            crate::service::csv_cell::field(item.club_name.as_deref().unwrap_or("")),
            crate::service::csv_cell::field(&item.country),
            item.rating.to_string(),
            item.rd.map(|rd| rd.to_string()).unwrap_or_default(),
            item.games.to_string(),
            item.provisional.to_string(),
            item.last_played
                .map(|at| at.format("%Y-%m-%d").to_string())
                .unwrap_or_default(),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// The columns of the list as a table to take away (the .xlsx download): the CSV's, by
/// their titles in the reader's language.
pub fn table_titles() -> Vec<Title> {
    [
        "ratings.rank",
        "ratings.player_id",
        "player.name",
        "player.club",
        "player.country",
        "ratings.rating",
        "ratings.rd",
        "ratings.games",
        "ratings.provisional_col",
        "ratings.last_played",
    ]
    .into_iter()
    .map(Title::Key)
    .collect()
}

/// One player of the list as a table row, in the order of `table_titles`; a provisional
/// rating is marked `?` as on the page.
pub fn table_row(item: &RatingListItem) -> Vec<Cell> {
    vec![
        Cell::Integer(item.rank.into()),
        Cell::Integer(item.player_id),
        Cell::text(&item.name),
        item.club_name.as_deref().map_or(Cell::Empty, Cell::text),
        Cell::text(&item.country),
        Cell::Integer(item.rating),
        Cell::optional(item.rd),
        Cell::Integer(item.games.into()),
        if item.provisional {
            Cell::text("?")
        } else {
            Cell::Empty
        },
        item.last_played
            .map_or(Cell::Empty, |at| Cell::Date(at.date_naive())),
    ]
}

/// One step of a player's rating.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct HistoryItem {
    pub at: DateTime<Utc>,
    /// The rating after this step, whole points; null while an Elo player is still short of
    /// a first rating.
    pub rating: Option<i64>,
    pub rd: Option<i64>,
    /// Rated games after this step.
    pub games: i32,
    /// The event behind the step (an Elo period that is an event, or an event's board).
    pub event_id: Option<i64>,
    /// The game behind a Glicko-2 step, when it was played on the site.
    pub game_id: Option<i64>,
}

impl From<&ChangeRow> for HistoryItem {
    fn from(row: &ChangeRow) -> HistoryItem {
        HistoryItem {
            at: utc(row.at),
            rating: row.rating_after.map(shown),
            rd: row.deviation.map(shown),
            games: row.games,
            event_id: row.event_id,
            game_id: row.game_id,
        }
    }
}

/// A player's history in one variant and system, oldest first.
pub fn history(
    conn: &mut DbConn,
    player_id: i64,
    variant: Option<&str>,
    system: Option<&str>,
) -> AppResult<(Choice, Vec<HistoryItem>)> {
    players::by_id(conn, player_id)?.ok_or(AppError::NotFound { what: "player" })?;
    let choice = choice(conn, variant, system)?;
    let rows = stored::history(conn, player_id, choice.variant, choice.system)?;
    Ok((choice, rows.iter().map(HistoryItem::from).collect()))
}

/// A player's current rating in one variant and system, for the profile.
#[derive(Debug, Clone)]
pub struct CurrentRating {
    pub system: RatingSystem,
    pub rating: Option<i64>,
    pub rd: Option<i64>,
    pub games: i32,
    pub provisional: bool,
}

/// What the player page shows of one step: the rating after it, the change and what
/// caused it.
#[derive(Debug, Clone)]
pub struct StepView {
    pub at: NaiveDateTime,
    pub rating: Option<i64>,
    /// After minus before, when both exist.
    pub change: Option<i64>,
    pub rd: Option<i64>,
    pub event_id: Option<i64>,
    pub event_name: Option<String>,
    pub game_id: Option<i64>,
    /// Games of the step and points scored, in half-points.
    pub step_games: i32,
    pub step_half_points: i32,
}

/// A player's ratings in one variant: both systems, with their histories.
#[derive(Debug, Clone)]
pub struct VariantRatings {
    pub variant: Variant,
    pub current: Vec<CurrentRating>,
    /// Per system, oldest first.
    pub histories: Vec<(RatingSystem, Vec<StepView>)>,
    /// While the variant's ratings are being brought up to date: since when.
    pub updating_since: Option<DateTime<Utc>>,
}

/// Everything the player page shows of ratings, variants in `Variant::ALL`'s order; only
/// variants the player has a rating or a history in.
pub fn of_player(conn: &mut DbConn, player_id: i64) -> AppResult<Vec<VariantRatings>> {
    let current = stored::of_player(conn, player_id)?;
    let mut event_names: HashMap<i64, String> = HashMap::new();
    let mut out = Vec::new();
    for variant in Variant::ALL {
        let mut now: Vec<CurrentRating> = current
            .iter()
            .filter(|row| row.variant == variant)
            .map(|row| CurrentRating {
                system: row.system,
                rating: row.rating.map(shown),
                rd: row.deviation.map(shown),
                games: row.games,
                provisional: row.provisional,
            })
            .collect();
        if now.is_empty() {
            continue;
        }
        now.sort_by_key(|c| RatingSystem::ALL.iter().position(|s| *s == c.system));
        let mut histories = Vec::new();
        for system in RatingSystem::ALL.iter().copied() {
            let rows = stored::history(conn, player_id, variant, system)?;
            let mut steps = Vec::with_capacity(rows.len());
            for row in rows {
                let event_name = match row.event_id {
                    Some(id) => {
                        if !event_names.contains_key(&id)
                            && let Some(event) = events::by_id(conn, id)?
                        {
                            event_names.insert(id, event.name);
                        }
                        event_names.get(&id).cloned()
                    }
                    None => None,
                };
                steps.push(StepView {
                    at: row.at,
                    rating: row.rating_after.map(shown),
                    change: row
                        .rating_before
                        .zip(row.rating_after)
                        .map(|(before, after)| shown(after) - shown(before)),
                    rd: row.deviation.map(shown),
                    event_id: row.event_id,
                    event_name,
                    game_id: row.game_id,
                    step_games: row.step_games,
                    step_half_points: row.step_half_points,
                });
            }
            histories.push((system, steps));
        }
        out.push(VariantRatings {
            variant,
            current: now,
            histories,
            updating_since: updating_since(conn, variant)?,
        });
    }
    Ok(out)
}

/// One player's ratings over an event.
#[derive(Debug, Clone)]
pub struct EventRatingRow {
    pub player_id: i64,
    pub name: String,
    /// Elo before and after the event (none before a first rating; none after while still
    /// unrated).
    pub elo_before: Option<i64>,
    pub elo_after: Option<i64>,
    /// Elo performance over the event's games against rated opponents.
    pub performance: Option<i64>,
    /// Glicko-2 before the event's first game and after its last.
    pub glicko_before: Option<i64>,
    pub glicko_after: Option<i64>,
    pub games: i32,
}

impl EventRatingRow {
    pub fn elo_change(&self) -> Option<i64> {
        self.elo_before.zip(self.elo_after).map(|(b, a)| a - b)
    }

    pub fn glicko_change(&self) -> Option<i64> {
        self.glicko_before
            .zip(self.glicko_after)
            .map(|(b, a)| a - b)
    }
}

/// Each player's rating change and performance over an event (rated events; empty for
/// others and before any result counts), by name.
pub fn of_event(conn: &mut DbConn, event_id: i64) -> AppResult<Vec<EventRatingRow>> {
    let changes = stored::of_event(conn, event_id)?;
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    let names: HashMap<i64, String> = players::entered_in(conn, event_id)?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let mut rows: HashMap<i64, EventRatingRow> = HashMap::new();
    for change in &changes {
        let row = rows
            .entry(change.player_id)
            .or_insert_with(|| EventRatingRow {
                player_id: change.player_id,
                name: names.get(&change.player_id).cloned().unwrap_or_default(),
                elo_before: None,
                elo_after: None,
                performance: None,
                glicko_before: None,
                glicko_after: None,
                games: 0,
            });
        match change.system {
            RatingSystem::Elo => {
                row.elo_before = change.rating_before.map(shown);
                row.elo_after = change.rating_after.map(shown);
                row.performance = change.performance.map(i64::from);
                row.games = row.games.max(change.step_games);
            }
            RatingSystem::Glicko2 => {
                // Changes are in step order: the first keeps its "before".
                if row.glicko_after.is_none() {
                    row.glicko_before = change.rating_before.map(shown);
                }
                row.glicko_after = change.rating_after.map(shown);
            }
        }
    }
    let mut rows: Vec<EventRatingRow> = rows.into_values().collect();
    rows.sort_by(|a, b| a.name.cmp(&b.name).then(a.player_id.cmp(&b.player_id)));
    Ok(rows)
}
