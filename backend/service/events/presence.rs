//! Who is here tonight: the organiser's check list for the round about to be paired. A
//! player not ticked is absent without notice (`Z`) unless an absence was announced (with
//! notice, for the club); ticking a player who was marked absent takes the mark away, so a
//! late arrival plays as long as the round is not paired yet.
use damka_domain::tournament::ByeKind;
use serde::{Deserialize, Serialize};

use super::{history, load, require_arbiter};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::{DbConn, events};
use damka_domain::vocabulary::{EventStatus, spelled_option};

/// One entrant on the check list.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PresenceRow {
    pub entry_id: i64,
    pub start_no: i32,
    pub name: String,
    /// The absence recorded for the round (`excused`, `club_duty`, `Z`, ...); none:
    /// present.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub absence: Option<ByeKind>,
}

/// The check list of the next round.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PresenceList {
    /// The round about to be paired.
    pub round: i32,
    /// The kinds of absence the event takes, as the API spells them.
    #[serde(skip)]
    pub kinds: Vec<ByeKind>,
    /// Everyone who may play in the round (not withdrawn), by start number.
    pub rows: Vec<PresenceRow>,
}

/// The players ticked as present on the check list.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct PresenceInput {
    /// The entries present tonight; every other entrant is absent.
    pub present: Vec<i64>,
}

/// The check list of the round about to be paired (arbiters and the organiser).
pub fn check_list(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<PresenceList> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    Ok(list_of(&history))
}

/// The check list of the round after the last one paired in `history`.
pub fn list_of(history: &history::History) -> PresenceList {
    let round = history.rounds.len() as i32 + 1;
    let mut rows: Vec<PresenceRow> = history
        .entries
        .iter()
        .filter(|row| row.entry.withdrawn_from_round.is_none_or(|r| r > round))
        .map(|row| PresenceRow {
            entry_id: row.entry.id,
            start_no: row.entry.start_no,
            name: row.name.clone(),
            absence: history
                .absences
                .iter()
                .find(|(id, r, _)| *id == row.entry.id && *r == round)
                .map(|(_, _, kind)| *kind),
        })
        .collect();
    rows.sort_by(|a, b| (a.start_no, &a.name).cmp(&(b.start_no, &b.name)));
    PresenceList {
        round,
        kinds: super::pairing_system::of(&history.event)
            .requests()
            .to_vec(),
        rows,
    }
}

/// Records the check list for the round about to be paired: the ticked entries play (an
/// absence recorded for them is taken away), the others are absent: with the absence
/// they announced, or without notice (`Z`).
pub fn record(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    input: &PresenceInput,
) -> AppResult<PresenceList> {
    super::write(conn, event_id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        if event.status == EventStatus::Finished {
            return Err(AppError::conflict(Refusal::EventFinishedReopenToChange));
        }
        let history = history::load(conn, &event)?;
        let list = list_of(&history);
        let listed = |id: &i64| list.rows.iter().any(|r| r.entry_id == *id);
        if !input.present.iter().all(listed) {
            return Err(AppError::invalid("present", Refusal::NotAnEntry));
        }
        if !list.kinds.contains(&ByeKind::ZeroPoint) {
            return Err(AppError::invalid("present", Refusal::InvalidAbsenceKind));
        }
        for row in &list.rows {
            let present = input.present.contains(&row.entry_id);
            let kind = match (present, row.absence) {
                (true, _) => None,
                (false, Some(announced)) => Some(announced),
                (false, None) => Some(ByeKind::ZeroPoint),
            };
            if kind != row.absence {
                events::set_absence(conn, row.entry_id, list.round, kind)?;
            }
        }
        let history = history::load(conn, &event)?;
        Ok(list_of(&history))
    })
}
