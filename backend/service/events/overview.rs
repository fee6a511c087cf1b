//! Everything an event's page shows, from one load of the event's history: entries,
//! rounds, standings and crosstable (one standings computation for both), forbidden pairs,
//! the latest hand change of each round, and what the viewer may do.
use std::collections::HashMap;

use super::audit::{self, ChangeView};
use super::entries::{self, EntryView, ForbiddenPairView};
use super::reports::{CrosstableView, StandingsView, Tables};
use super::rounds::{self, RoundView};
use super::{history, load, manual, may_arbitrate, may_manage};
use crate::service::players::{self, PlayerView};
use crate::service::{Actor, AppResult};
use crate::store::DbConn;
use crate::store::models::Event;

pub struct EventOverview {
    pub event: Event,
    /// The viewer owns the event (or administers the site).
    pub can_manage: bool,
    /// The viewer runs rounds and enters results (managers and arbiters).
    pub can_arbitrate: bool,
    /// The viewer may enter themselves now.
    pub may_self_register: bool,
    /// The round whose pairing the viewer may change by hand now, if any.
    pub changeable_round: Option<i32>,
    pub entries: Vec<EntryView>,
    /// Published rounds; drafts too for those who run the event.
    pub rounds: Vec<RoundView>,
    /// Standings and crosstable, once some result or bye is in.
    pub standings: Option<StandingsView>,
    pub crosstable: Option<CrosstableView>,
    /// Players who can still be entered (for the organiser's select).
    pub candidates: Vec<PlayerView>,
    /// Forbidden pairs, for those who run the event.
    pub forbidden: Vec<ForbiddenPairView>,
    /// The latest hand change of each round's pairing, by round number.
    pub pairing_changes: HashMap<i32, ChangeView>,
}

/// The event as `actor` sees it, with standings after `after_round` (default: the last
/// round with results).
pub fn overview(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    after_round: Option<u32>,
) -> AppResult<EventOverview> {
    let event = load(conn, event_id)?;
    let can_manage = may_manage(actor, &event);
    let can_arbitrate = may_arbitrate(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    let entries = entries::views_of(&history);
    let rounds = rounds::views_of(&history, can_arbitrate);
    let has_results = rounds.iter().any(|r| {
        r.boards
            .iter()
            .any(|b| b.result.is_some() || b.bye.is_some())
    });
    let (standings, crosstable) = if has_results {
        let tables = Tables::of(&history, after_round)?;
        (Some(tables.standings()), Some(tables.crosstable()?))
    } else {
        (None, None)
    };
    let candidates = if can_manage {
        players::list(conn, None, None)?
            .into_iter()
            .filter(|p| !entries.iter().any(|e| e.player_id == p.id))
            .collect()
    } else {
        Vec::new()
    };
    let mut pairing_changes = HashMap::new();
    for change in audit::changes_in(conn, &history, can_arbitrate)? {
        if change.kind == "pairing" {
            // Newest first: keep the first one seen per round.
            pairing_changes.entry(change.round).or_insert(change);
        }
    }
    let forbidden = if can_arbitrate {
        entries::forbidden_of(&history)
    } else {
        Vec::new()
    };
    let changeable_round = history
        .last_round()
        .map(|r| r.number)
        .filter(|&number| can_arbitrate && manual::changeable(&event, &history, number));
    Ok(EventOverview {
        may_self_register: entries::may_self_register(actor, &history),
        changeable_round,
        event,
        can_manage,
        can_arbitrate,
        entries,
        rounds,
        standings,
        crosstable,
        candidates,
        forbidden,
        pairing_changes,
    })
}
