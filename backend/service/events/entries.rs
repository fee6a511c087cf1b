//! Entries: who plays. Organisers add players; players register themselves while the
//! event allows it; late entries (Swiss), withdrawals, requested byes and forbidden pairs.
use damka_domain::tournament::ByeKind;
use serde::{Deserialize, Serialize};

use super::{history, load, may_manage, require_arbiter, require_manager};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::models::Event;
use crate::store::{self, DbConn, events, players};
use damka_domain::vocabulary::{EventStatus, Spelling, spelled};

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct EntryView {
    pub id: i64,
    pub player_id: i64,
    pub name: String,
    pub start_no: i32,
    pub rating: Option<i32>,
    pub first_round: i32,
    pub withdrawn_from_round: Option<i32>,
    /// Requested byes and announced absences for rounds not paired yet.
    pub requests: Vec<RequestView>,
}

/// A requested bye (`H`) or announced absence (`Z`) for a coming round.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RequestView {
    pub round: i32,
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub kind: ByeKind,
}

pub fn list(conn: &mut DbConn, event_id: i64) -> AppResult<Vec<EntryView>> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    Ok(views_of(&history))
}

/// The entries of `history` as shown, with their requests for rounds not yet paired.
pub fn views_of(history: &history::History) -> Vec<EntryView> {
    let paired = history.rounds.len() as i32;
    let requests_of = |entry_id: i64| {
        let mut requests: Vec<RequestView> = history
            .absences
            .iter()
            .filter(|(id, round, _)| *id == entry_id && *round > paired)
            .map(|(_, round, kind)| RequestView {
                round: *round,
                kind: *kind,
            })
            .collect();
        requests.sort_by_key(|r| r.round);
        requests
    };
    history
        .entries
        .iter()
        .map(|row| EntryView {
            requests: requests_of(row.entry.id),
            id: row.entry.id,
            player_id: row.entry.player_id,
            name: row.name.clone(),
            start_no: row.entry.start_no,
            rating: row.entry.rating,
            first_round: row.entry.first_round,
            withdrawn_from_round: row.entry.withdrawn_from_round,
        })
        .collect()
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct EntryInput {
    /// The player profile to enter. Omitted: the caller's own profile (self-registration).
    #[serde(default)]
    pub player_id: Option<i64>,
}

/// The event takes players' own entries: it is open for self-registration and has not
/// started.
fn open_to_players(event: &Event) -> bool {
    event.self_registration && event.status == EventStatus::Registration
}

/// Whether `actor` may enter themselves in the event of `history` now (a page offers the
/// button): `add` would take their own profile.
pub fn may_self_register(actor: &Actor, history: &history::History) -> bool {
    let Some(own) = actor.user.as_ref().and_then(|u| u.player_id) else {
        return false;
    };
    open_to_players(&history.event) && !history.entries.iter().any(|e| e.entry.player_id == own)
}

/// Enters a player. Organisers enter anybody while the event takes entries (Swiss: also
/// late, up to the round the organiser set); a player enters themselves when the event is
/// open for self-registration and has not started.
pub fn add(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    input: &EntryInput,
) -> AppResult<EntryView> {
    let user = actor.require_user()?;
    super::write(conn, event_id, |conn, event| {
        let manager = may_manage(actor, &event);
        let player_id = match (input.player_id, user.player_id) {
            (Some(id), _) if manager => id,
            (Some(id), Some(own)) if id == own => id,
            (Some(_), _) => {
                return Err(AppError::forbidden(Refusal::OnlyOrganiserEntersOthers));
            }
            (None, Some(own)) => own,
            (None, None) => {
                return Err(AppError::invalid("player_id", Refusal::NoProfileToEnter));
            }
        };
        if !(manager || open_to_players(&event)) {
            return Err(AppError::forbidden(Refusal::SelfRegistrationClosed));
        }
        enter(conn, &event, player_id)
    })
}

/// Why the event takes no entry now, even an organiser's: it is finished, a round-robin
/// has started, or a Swiss event is past the round its late entries end at. `paired` is
/// how many rounds are paired.
pub(super) fn closed_to_entries(event: &Event, paired: i32) -> Option<Refusal> {
    if event.status == EventStatus::Finished {
        return Some(Refusal::EventFinished);
    }
    if paired == 0 {
        return None;
    }
    let system = super::pairing_system::of(event);
    if system.field_is_fixed() {
        return Some(Refusal::RoundRobinStarted);
    }
    if paired + 1 > event.late_entry_until_round && !system.late_entries_any_round() {
        return Some(Refusal::LateEntriesClosed);
    }
    None
}

/// Enters `player_id` in `event` (inside the event's write) with the rules of an
/// organiser's entry; who may ask for it is the caller's to decide (`add`, or joining
/// through an invitation link).
pub(super) fn enter(conn: &mut DbConn, event: &Event, player_id: i64) -> AppResult<EntryView> {
    // A finished event says so before anything about the player.
    if event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinished));
    }
    let player = players::by_id(conn, player_id)?
        .ok_or_else(|| AppError::invalid("player_id", Refusal::NoSuchPlayer))?;
    crate::service::archived::require_player_not_archived(&player)?;
    let existing = events::entries(conn, event.id)?;
    if existing.iter().any(|e| e.player_id == player_id) {
        return Err(AppError::invalid("player_id", Refusal::AlreadyEntered));
    }
    let paired = events::rounds(conn, event.id)?.len() as i32;
    if let Some(closed) = closed_to_entries(event, paired) {
        return Err(AppError::conflict(closed));
    }
    let first_round = paired + 1;
    let rating = crate::service::ratings::seeding_rating(conn, player_id, event.variant)?;
    let start_no = existing.iter().map(|e| e.start_no).max().unwrap_or(0) + 1;
    let entry = events::insert_entry(
        conn,
        event.id,
        player_id,
        start_no,
        rating,
        first_round,
        store::now(),
    )?;
    Ok(EntryView {
        id: entry.id,
        player_id,
        name: player.name,
        start_no,
        rating,
        first_round,
        withdrawn_from_round: None,
        requests: Vec::new(),
    })
}

/// A finished event's entries stay as they were played until the organiser reopens it.
fn ensure_not_finished(event: &Event) -> AppResult<()> {
    if event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinishedReopenToChange));
    }
    Ok(())
}

/// Removes an entry before the first round, or withdraws it from the next round on.
/// Who may withdraw an entry: its own player, or the event's managers. The confirmation
/// page asks the same.
pub fn require_may_withdraw(actor: &Actor, event: &Event, entry_player_id: i64) -> AppResult<()> {
    let own = actor
        .user
        .as_ref()
        .is_some_and(|u| u.player_id == Some(entry_player_id));
    if own {
        Ok(())
    } else {
        require_manager(actor, event)
    }
}

pub fn withdraw(conn: &mut DbConn, actor: &Actor, event_id: i64, entry_id: i64) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        let entry = events::entries(conn, event_id)?
            .into_iter()
            .find(|e| e.id == entry_id)
            .ok_or(AppError::NotFound { what: "entry" })?;
        require_may_withdraw(actor, &event, entry.player_id)?;
        ensure_not_finished(&event)?;
        let rounds = events::rounds(conn, event_id)?.len() as i32;
        if rounds == 0 {
            events::delete_entry(conn, entry_id)?;
        } else {
            events::set_withdrawn(conn, entry_id, Some(rounds + 1))?;
        }
        Ok(())
    })
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct AbsenceInput {
    pub round: i32,
    /// `H` (requested half-point bye), `Z` (absent, zero points) or empty to cancel; in a
    /// Keizer event `excused` (absent with notice), `club_duty` (playing for the club
    /// elsewhere) or `Z` (absent without notice).
    #[serde(default)]
    pub kind: String,
}

/// An announced absence (`POST .../absence`): the round defaults to the next one not
/// paired yet.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct AbsenceRequest {
    /// Keizer events: `excused`, `club_duty` or `Z`; other systems: `H` or `Z`.
    pub kind: String,
    /// A round not paired yet; absent: the next round.
    #[serde(default)]
    pub round: Option<i32>,
}

/// The kinds of absence an event takes, as the API spells them.
fn accepted_kinds(event: &Event) -> Vec<&'static str> {
    super::pairing_system::of(event)
        .requests()
        .iter()
        .map(|k| k.code())
        .collect()
}

/// Reads an absence's kind: one the event's system takes, or empty to cancel.
fn absence_kind(event: &Event, text: &str) -> AppResult<Option<ByeKind>> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let system = super::pairing_system::of(event);
    match ByeKind::from_spelling(text) {
        Some(kind) if system.requests().contains(&kind) => Ok(Some(kind)),
        // The refusals the API gave before Keizer events, kept as they were.
        Some(ByeKind::HalfPoint) if !system.requests().contains(&ByeKind::Excused) => Err(
            AppError::invalid("kind", Refusal::NoHalfPointByeInRoundRobin),
        ),
        _ if !system.requests().contains(&ByeKind::Excused) => {
            Err(AppError::invalid("kind", Refusal::InvalidAbsenceKind))
        }
        _ => Err(AppError::invalid(
            "kind",
            Refusal::not_one_of(&accepted_kinds(event)),
        )),
    }
}

/// A requested bye or an announced absence for a round not yet paired: by the player
/// themselves or by the organiser and arbiters.
pub fn set_absence(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    entry_id: i64,
    input: &AbsenceInput,
) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        let kind = absence_kind(&event, &input.kind)?;
        store_absence(conn, actor, &event, entry_id, Some(input.round), kind)?;
        Ok(())
    })
}

/// Announces an absence (`POST .../absence`); answers what was stored.
pub fn announce_absence(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    entry_id: i64,
    input: &AbsenceRequest,
) -> AppResult<RequestView> {
    super::write(conn, event_id, |conn, event| {
        let kind = absence_kind(&event, &input.kind)?.ok_or_else(|| {
            AppError::invalid("kind", Refusal::not_one_of(&accepted_kinds(&event)))
        })?;
        let round = store_absence(conn, actor, &event, entry_id, input.round, Some(kind))?;
        Ok(RequestView { round, kind })
    })
}

/// Stores (or with `None` cancels) an entry's absence from `round` (default: the next
/// round), once the actor may and the round is still to be paired; answers the round.
pub(super) fn store_absence(
    conn: &mut DbConn,
    actor: &Actor,
    event: &Event,
    entry_id: i64,
    round: Option<i32>,
    kind: Option<ByeKind>,
) -> AppResult<i32> {
    let entry = events::entries(conn, event.id)?
        .into_iter()
        .find(|e| e.id == entry_id)
        .ok_or(AppError::NotFound { what: "entry" })?;
    let own = actor
        .user
        .as_ref()
        .is_some_and(|u| u.player_id == Some(entry.player_id));
    if !own {
        require_arbiter(conn, actor, event)?;
    }
    ensure_not_finished(event)?;
    let paired = events::rounds(conn, event.id)?.len() as i32;
    let round = round.unwrap_or(paired + 1);
    let system = super::pairing_system::of(event);
    // Rounds the system fixes are known once the first round is paired; a season whose
    // rounds are left open takes absences announced well ahead.
    let last = if !system.organiser_sets_rounds() {
        event.rounds.max(paired)
    } else if event.rounds == 0 && system.rounds_may_stay_open() {
        paired + super::settings::MAX_OPEN_ROUNDS
    } else {
        event.rounds
    };
    if round <= paired || round > last.max(1) {
        return Err(AppError::invalid("round", Refusal::RoundAlreadyPaired));
    }
    events::set_absence(conn, entry_id, round, kind)?;
    Ok(round)
}

/// Two players who must never be paired (same club, family), as if they had met.
pub fn forbid_pair(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    first: i64,
    second: i64,
) -> AppResult<()> {
    if first == second {
        return Err(AppError::invalid("second", Refusal::PairNeedsTwoPlayers));
    }
    super::write(conn, event_id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        ensure_not_finished(&event)?;
        let entries = events::entries(conn, event_id)?;
        for id in [first, second] {
            if !entries.iter().any(|e| e.id == id) {
                return Err(AppError::invalid("entry", Refusal::NotAnEntry));
            }
        }
        events::add_forbidden_pair(conn, event_id, first, second)?;
        Ok(())
    })
}

/// A forbidden pair as pages and the API show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ForbiddenPairView {
    pub first_entry_id: i64,
    pub first_name: String,
    pub second_entry_id: i64,
    pub second_name: String,
}

/// The event's forbidden pairs, by the first player's name.
pub fn forbidden_pairs(conn: &mut DbConn, event_id: i64) -> AppResult<Vec<ForbiddenPairView>> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    Ok(forbidden_of(&history))
}

/// The forbidden pairs of `history`, by the first player's name.
pub fn forbidden_of(history: &history::History) -> Vec<ForbiddenPairView> {
    let name = |id: i64| {
        history
            .entry(id)
            .map(|e| e.name.clone())
            .unwrap_or_default()
    };
    let mut pairs: Vec<ForbiddenPairView> = history
        .forbidden
        .iter()
        .map(|&(first, second)| ForbiddenPairView {
            first_entry_id: first,
            first_name: name(first),
            second_entry_id: second,
            second_name: name(second),
        })
        .collect();
    pairs.sort_by(|a, b| {
        (a.first_name.as_str(), a.second_name.as_str())
            .cmp(&(b.first_name.as_str(), b.second_name.as_str()))
    });
    pairs
}

/// Lifts a forbidden pair (from the next pairing on; rounds already paired stay as they are).
pub fn allow_pair(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    first: i64,
    second: i64,
) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        ensure_not_finished(&event)?;
        if !events::remove_forbidden_pair(conn, event_id, first, second)? {
            return Err(AppError::NotFound {
                what: "forbidden pair",
            });
        }
        Ok(())
    })
}

/// Stores starting ranks (inside the event's write transaction).
pub(super) fn store_start_numbers(conn: &mut DbConn, ranks: &[(i64, i32)]) -> AppResult<()> {
    // Two passes keep (event, start_no) unique at every step.
    let offset = ranks.len() as i32 + 1_000_000;
    for &(entry_id, no) in ranks {
        events::set_start_no(conn, entry_id, offset + no)?;
    }
    for &(entry_id, no) in ranks {
        events::set_start_no(conn, entry_id, no)?;
    }
    Ok(())
}
