//! Everything an event's page shows, from one load of the event's history: entries,
//! rounds, standings and crosstable (one standings computation for both), forbidden pairs,
//! the latest hand change of each round, and what the viewer may do.
use std::collections::HashMap;

use super::audit::{self, ChangeView};
use super::entries::{self, EntryView, ForbiddenPairView};
use super::invitations::{self, InvitationView};
use super::reports::{CrosstableView, StandingsView, Tables};
use super::rounds::{self, RoundView};
use super::{history, load, manual, may_arbitrate, may_manage};
use crate::service::players::{self, PlayerView};
use crate::service::{Actor, AppResult};
use crate::store::DbConn;
use crate::store::models::Event;
use damka_domain::vocabulary::OpeningBallot;

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
    /// Players who can still be entered (for the organiser's select): the first few by
    /// name (`players::CANDIDATES`); the page replaces them by a name search's.
    pub candidates: Vec<PlayerView>,
    /// Forbidden pairs, for those who run the event.
    pub forbidden: Vec<ForbiddenPairView>,
    /// The latest hand change of each round's pairing, by round number.
    pub pairing_changes: HashMap<i32, ChangeView>,
    /// Each round's points before it (half-points by start number), shown beside the
    /// names of its pairings.
    pub points_before: HashMap<i32, HashMap<i32, u32>>,
    /// The club of each entry that has one (name by start number).
    pub clubs: HashMap<i32, String>,
    /// Boards of the last round without a result: the next round waits for them.
    pub boards_missing: Vec<i32>,
    /// How many openings the organiser's own table has (an event with one).
    pub custom_table_size: Option<usize>,
    /// The event's invitation links, for its managers (none for anyone else).
    pub invitations: Vec<InvitationView>,
}

/// The profiles an organiser may enter in the event whose names match `search`
/// (`players::CANDIDATES` of them at most); none for anyone else.
pub fn candidates(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    search: &str,
) -> AppResult<Vec<PlayerView>> {
    let event = load(conn, event_id)?;
    if !may_manage(actor, &event) {
        return Ok(Vec::new());
    }
    let entered: Vec<i64> = crate::store::events::entries(conn, event_id)?
        .into_iter()
        .map(|e| e.player_id)
        .collect();
    players::candidates(conn, &entered, Some(search))
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
        let entered: Vec<i64> = entries.iter().map(|e| e.player_id).collect();
        players::candidates(conn, &entered, None)?
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
    let tournament = history.tournament()?;
    let points_before = rounds
        .iter()
        .map(|r| {
            (
                r.number,
                super::sheets::points_before(&tournament, r.number),
            )
        })
        .collect();
    let clubs = club_names(conn, &history)?;
    let boards_missing = history
        .last_round()
        .map(|last| {
            history
                .round_pairings(last.number)
                .filter(|p| p.black_entry_id.is_some() && p.result.is_none())
                .map(|p| p.board)
                .collect()
        })
        .unwrap_or_default();
    let changeable_round = history
        .last_round()
        .map(|r| r.number)
        .filter(|&number| can_arbitrate && manual::changeable(&event, &history, number));
    let custom_table_size = if event.opening_ballot == OpeningBallot::Custom {
        super::ballot::table_of(&event)
            .ok()
            .flatten()
            .map(|t| t.len())
    } else {
        None
    };
    let invitations = if can_manage {
        invitations::list(conn, actor, event_id)?
    } else {
        Vec::new()
    };
    Ok(EventOverview {
        custom_table_size,
        invitations,
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
        points_before,
        clubs,
        boards_missing,
    })
}

/// The club name of each entry whose player belongs to one, by start number.
fn club_names(conn: &mut DbConn, history: &history::History) -> AppResult<HashMap<i32, String>> {
    let mut names: HashMap<i64, Option<String>> = HashMap::new();
    let mut out = HashMap::new();
    for row in &history.entries {
        let Some(club_id) = row.profile.as_ref().and_then(|p| p.club_id) else {
            continue;
        };
        let name = match names.entry(club_id) {
            std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(crate::store::clubs::by_id(conn, club_id)?.map(|c| c.name))
            }
        };
        if let Some(name) = name {
            out.insert(row.entry.start_no, name.clone());
        }
    }
    Ok(out)
}
