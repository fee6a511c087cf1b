//! The event's audit trail: every result entered or corrected and every pairing changed by
//! hand, with who did it and when. Shown for the rounds the viewer may see.
use std::cmp::Reverse;
use std::collections::HashMap;

use chrono::NaiveDateTime;
use serde::Serialize;

use super::history::{self, History};
use super::manual::PairingWarning;
use super::{load, may_arbitrate};
use crate::service::paging::{Page, PageRequest};
use crate::service::{Actor, AppResult};
use crate::store::{DbConn, accounts, events, pairing_changes};
use damka_domain::vocabulary::Spelling;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ChangeView {
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub at: NaiveDateTime,
    /// The display name of the organiser or arbiter who made the change.
    pub by: String,
    pub round: i32,
    /// `result`, `pairing` or `takeback` (a ply of a game taken back by an arbiter).
    pub kind: String,
    /// For a result: the board and the two players, `white - black`.
    pub board: Option<i32>,
    pub game: Option<String>,
    /// For a result: the result codes; for a pairing: the boards as `white black` lines
    /// of start numbers, `N 0` for the pairing-allocated bye; for a takeback: `old` is the
    /// ply and the move taken back (`23. c3-d4`).
    pub old: Option<String>,
    pub new: Option<String>,
    /// For a pairing: the rules the new pairing broke when it was saved.
    pub warnings: Vec<PairingWarning>,
}

/// Where a change stands in the trail: when, which record (results, pairings, takebacks)
/// and its id there; unique, so a page of the trail can continue after one.
pub type ChangeKey = (NaiveDateTime, u8, i64);

const RESULTS: u8 = 0;
const PAIRINGS: u8 = 1;
const TAKEBACKS: u8 = 2;

/// The trail's order: newest first, then by record, then the later written first.
fn order(key: &ChangeKey) -> (Reverse<NaiveDateTime>, u8, Reverse<i64>) {
    (Reverse(key.0), key.1, Reverse(key.2))
}

/// A page of the changes, newest first. The trail of one event is read whole (the rounds
/// and names it needs come with the event's history, read whole anyway) and one page of it
/// is answered.
pub fn changes(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    page: &PageRequest<ChangeKey>,
) -> AppResult<Page<ChangeView>> {
    let event = load(conn, event_id)?;
    let show_drafts = may_arbitrate(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    let rows: Vec<(ChangeKey, ChangeView)> = keyed_changes(conn, &history, show_drafts)?
        .into_iter()
        .filter(|(key, _)| {
            page.after
                .as_ref()
                .is_none_or(|after| order(key) > order(after))
        })
        .take(page.fetch())
        .collect();
    Ok(Page::from_rows(rows, page.limit, |(key, _)| *key).map(|(_, change)| change))
}

/// Every change to the event of `history`, newest first; in draft rounds only with
/// `show_drafts`.
pub fn changes_in(
    conn: &mut DbConn,
    history: &History,
    show_drafts: bool,
) -> AppResult<Vec<ChangeView>> {
    let keyed = keyed_changes(conn, history, show_drafts)?;
    Ok(keyed.into_iter().map(|(_, change)| change).collect())
}

/// Every change with its place in the trail, in the trail's order.
fn keyed_changes(
    conn: &mut DbConn,
    history: &History,
    show_drafts: bool,
) -> AppResult<Vec<(ChangeKey, ChangeView)>> {
    let event_id = history.event.id;
    let visible = |round: i32| {
        history
            .rounds
            .iter()
            .any(|r| r.number == round && (r.published || show_drafts))
    };
    let mut names: HashMap<i64, String> = HashMap::new();
    let mut name_of = |conn: &mut DbConn, user_id: i64| -> AppResult<String> {
        if let Some(name) = names.get(&user_id) {
            return Ok(name.clone());
        }
        let name = accounts::user_by_id(conn, user_id)?
            .map(|u| u.display_name)
            .unwrap_or_default();
        names.insert(user_id, name.clone());
        Ok(name)
    };
    let mut out = Vec::new();
    for change in events::result_changes(conn, event_id)? {
        let Some((round, pairing)) = history
            .pairings
            .iter()
            .find(|(_, p)| p.id == change.pairing_id)
        else {
            continue;
        };
        if !visible(*round) {
            continue;
        }
        let key = (change.changed_at, RESULTS, change.id);
        out.push((
            key,
            ChangeView {
                at: change.changed_at,
                by: name_of(conn, change.user_id)?,
                round: *round,
                kind: "result".to_string(),
                board: Some(pairing.board),
                game: Some(game_name(
                    history,
                    pairing.white_entry_id,
                    pairing.black_entry_id,
                )),
                old: change.old_result.map(|r| r.spelling().to_string()),
                new: change.new_result.map(|r| r.spelling().to_string()),
                warnings: Vec::new(),
            },
        ));
    }
    for (round, change) in pairing_changes::for_event(conn, event_id)? {
        if !visible(round) {
            continue;
        }
        let key = (change.changed_at, PAIRINGS, change.id);
        out.push((
            key,
            ChangeView {
                at: change.changed_at,
                by: name_of(conn, change.user_id)?,
                round,
                kind: "pairing".to_string(),
                board: None,
                game: None,
                old: Some(change.old_pairing),
                new: Some(change.new_pairing),
                // Written by this service; an unreadable record shows no warnings rather
                // than hiding the change itself.
                warnings: serde_json::from_str(&change.warnings).unwrap_or_default(),
            },
        ));
    }
    for (change, pairing_id) in crate::store::games::changes_of_event(conn, event_id)? {
        if change.action != crate::store::games::CHANGE_TAKEBACK {
            // Results set on a game reach the board and are listed above.
            continue;
        }
        let Some((round, pairing)) = history
            .pairings
            .iter()
            .find(|(_, p)| Some(p.id) == pairing_id)
        else {
            continue;
        };
        if !visible(*round) {
            continue;
        }
        let key = (change.changed_at, TAKEBACKS, change.id);
        out.push((
            key,
            ChangeView {
                at: change.changed_at,
                by: name_of(conn, change.user_id)?,
                round: *round,
                kind: "takeback".to_string(),
                board: Some(pairing.board),
                game: Some(game_name(
                    history,
                    pairing.white_entry_id,
                    pairing.black_entry_id,
                )),
                old: Some(format!(
                    "{}. {}",
                    change.ply.unwrap_or_default(),
                    change.notation.unwrap_or_default()
                )),
                new: None,
                warnings: Vec::new(),
            },
        ));
    }
    out.sort_by_key(|(key, _)| order(key));
    Ok(out)
}

fn game_name(history: &History, white: i64, black: Option<i64>) -> String {
    let name = |id: i64| {
        history
            .entry(id)
            .map(|e| e.name.clone())
            .unwrap_or_default()
    };
    match black {
        Some(black) => format!("{} - {}", name(white), name(black)),
        None => name(white),
    }
}
