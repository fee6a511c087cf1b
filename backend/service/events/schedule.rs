//! The schedule of an event on one sheet: every round's pairings, round by round. A
//! round-robin's rounds are fixed by the Berger table once the first round has given the
//! start numbers, so the rounds not paired yet are shown as the table will pair them; a
//! Swiss (or Keizer) event shows the rounds paired so far. A draft round is shown only to
//! those who may arbitrate the event, as on the event's tabs; for everybody else it is a
//! round "not published yet", with no boards.
use damka_domain::pairing_system::NextRound;
use damka_domain::tournament::Tournament;

use super::history::{self, History};
use super::pairing_system;
use super::rounds;
use super::sheets::{PairingSheet, SheetBoard, SheetBye, SheetPlayer, sheet_of};
use super::{Event, load};
use crate::service::{Actor, AppError, AppResult};
use crate::store::DbConn;

/// Where a round of the schedule stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundState {
    /// Paired and published (or a draft the actor may see: `sheet.published` tells).
    Paired,
    /// Paired as a draft the actor may not see: no boards.
    Unpublished,
    /// Not paired yet; the boards are the round-robin table's.
    Planned,
}

#[derive(Debug, Clone)]
pub struct ScheduleRound {
    pub state: RoundState,
    pub sheet: PairingSheet,
}

#[derive(Debug, Clone)]
pub struct Schedule {
    pub event: Event,
    pub rounds: Vec<ScheduleRound>,
}

/// Every round of the event the actor may see, then (a round-robin) those to come.
pub fn schedule(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<Schedule> {
    let visible = rounds::list(conn, actor, event_id)?;
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    let tournament = history.tournament()?;
    let mut out = Vec::new();
    for round in &visible {
        out.push(ScheduleRound {
            state: RoundState::Paired,
            sheet: sheet_of(event.clone(), &history, &tournament, round)?,
        });
    }
    let paired = i32::try_from(history.rounds.len()).unwrap_or(i32::MAX);
    let shown = i32::try_from(visible.len()).unwrap_or(i32::MAX);
    for number in shown + 1..=paired {
        out.push(ScheduleRound {
            state: RoundState::Unpublished,
            sheet: empty_sheet(&event, number),
        });
    }
    // Start numbers are given when round 1 is paired: before that the table has no names.
    if event.system.is_round_robin() && paired > 0 {
        out.extend(planned_rounds(&event, &history, &tournament, paired)?);
    }
    Ok(Schedule { event, rounds: out })
}

fn empty_sheet(event: &Event, number: i32) -> PairingSheet {
    PairingSheet {
        event: event.clone(),
        round: number,
        published: false,
        boards: Vec::new(),
        byes: Vec::new(),
        round_opening: None,
    }
}

/// The round-robin table's rounds after the `paired` ones.
fn planned_rounds(
    event: &Event,
    history: &History,
    tournament: &Tournament,
    paired: i32,
) -> AppResult<Vec<ScheduleRound>> {
    let system = pairing_system::of(event);
    let entrants = u32::try_from(tournament.players.len()).unwrap_or(u32::MAX);
    let last = system.fixed_rounds(entrants).unwrap_or(0);
    let player = |no: u32| -> AppResult<SheetPlayer> {
        let row = history
            .entry_by_start_no(no)
            .ok_or_else(|| AppError::internal(format!("no entry with start number {no}")))?;
        Ok(SheetPlayer {
            start_no: row.entry.start_no,
            name: row.name.clone(),
            rating: row.entry.rating,
            points_before: 0,
        })
    };
    let mut out = Vec::new();
    for number in u32::try_from(paired).unwrap_or(0) + 1..=last {
        let table = system
            .pair(&NextRound {
                number,
                before: tournament,
            })
            .map_err(pairing_system::refusal)?;
        let mut sheet = empty_sheet(event, i32::try_from(number).unwrap_or(i32::MAX));
        for (index, board) in table.boards.iter().enumerate() {
            sheet.boards.push(SheetBoard {
                board: i32::try_from(index + 1).unwrap_or(i32::MAX),
                white: player(board.white)?,
                black: player(board.black)?,
                result: None,
                games: Vec::new(),
                opening: None,
            });
        }
        if let Some(no) = table.bye {
            sheet.byes.push(SheetBye {
                player: player(no)?,
                kind: system.bye_kind(),
            });
        }
        out.push(ScheduleRound {
            state: RoundState::Planned,
            sheet,
        });
    }
    Ok(out)
}
