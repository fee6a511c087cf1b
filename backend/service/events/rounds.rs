//! The round workflow: pair (organiser or arbiter), review, publish; re-pair while no
//! result is in; results with an audit trail.
use std::collections::HashMap;

use damka_domain::dutch::RoundPairing;
use damka_domain::pairing_system::NextRound as RoundToPair;
use damka_domain::tournament::ByeKind;
use serde::Deserialize;

use super::history;
pub use super::round_views::{BoardGameView, BoardView, RoundView, views_of};
use super::{entries, load, require_arbiter};
use crate::service::effects::{self, Effects};
use crate::service::results;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::models::Event;
use crate::store::models::NewPairing;
use crate::store::models::Pairing;
use crate::store::{self, DbConn, events};
use damka_domain::vocabulary::{EventStatus, ResultCode, Spelling, spellings};

/// Rounds with their boards; unpublished rounds only for those who may run the event.
pub fn list(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<Vec<RoundView>> {
    let event = load(conn, event_id)?;
    let show_drafts = super::may_arbitrate(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    Ok(views_of(&history, show_drafts))
}

/// Pairs the next round with the event's pairing system (`pairing_system::of`). The round
/// stays a draft until it is published. The pairing is computed outside the write
/// transaction (a Swiss round of a thousand players takes a second or more) and stored
/// only if the event did not change meanwhile.
pub fn pair_next(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<RoundView> {
    super::write_planned(
        conn,
        event_id,
        |conn, event| {
            require_arbiter(conn, actor, event)?;
            let mut history = history::load(conn, event)?;
            let plan = plan_next_round(&mut history)?;
            Ok((history, plan))
        },
        |conn, event, (mut history, plan)| {
            let round_id = store_round(conn, event, &plan)?;
            new_round_view(conn, &mut history, round_id, plan.number)
        },
    )
}

/// The round just stored, as its arbiter sees it (a draft): from the history it was paired
/// from, with the round's own rows read back, so pairing reads the history once.
fn new_round_view(
    conn: &mut DbConn,
    history: &mut history::History,
    round_id: i64,
    number: i32,
) -> AppResult<RoundView> {
    history.add_stored_round(conn, round_id)?;
    views_of(history, true)
        .into_iter()
        .find(|r| r.number == number)
        .ok_or_else(|| AppError::internal("the new round vanished"))
}

/// A round worked out and ready to store.
struct NextRound {
    number: i32,
    /// Round 1: the starting ranks to assign first, as (entry, start number).
    start_numbers: Option<Vec<(i64, i32)>>,
    /// Round 1 of a round-robin: the number of rounds its schedule has.
    schedule_rounds: Option<i32>,
    boards: Vec<PlannedBoard>,
}

/// Decides the next round from `history` alone (no writes): checks that it may be paired,
/// ranks the players before round 1, and pairs them.
fn plan_next_round(history: &mut history::History) -> AppResult<NextRound> {
    if history.event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinished));
    }
    if let Some(last) = history.last_round() {
        if !last.published {
            return Err(AppError::conflict(Refusal::RoundNotPublished {
                round: last.number,
            }));
        }
        let missing = history.missing_results();
        if missing > 0 {
            return Err(AppError::conflict(Refusal::RoundIncomplete {
                round: last.number,
                missing,
            }));
        }
    }
    let mut start_numbers = None;
    if history.rounds.is_empty() {
        if history.entries.len() < 2 {
            return Err(AppError::conflict(Refusal::TooFewPlayers));
        }
        let ranks = history::starting_ranks(history);
        let rank_of: HashMap<i64, i32> = ranks.iter().copied().collect();
        for row in &mut history.entries {
            if let Some(&no) = rank_of.get(&row.entry.id) {
                row.entry.start_no = no;
            }
        }
        start_numbers = Some(ranks);
    }
    let number = history.rounds.len() as i32 + 1;
    let system = super::pairing_system::of(&history.event);
    let tournament = history.tournament()?;
    let round = RoundToPair {
        number: number as u32,
        before: &tournament,
    };
    let pairing = system
        .pair(&round)
        .map_err(super::pairing_system::refusal)?;
    let boards = planned_boards(history, &round, &pairing, system.bye_kind())?;
    // A system that fixes the number of rounds (a round-robin's table) sets it when the
    // event starts.
    let schedule_rounds = if number == 1 {
        system.fixed_rounds(round.entrants()).map(|r| r as i32)
    } else {
        None
    };
    Ok(NextRound {
        number,
        start_numbers,
        schedule_rounds,
        boards,
    })
}

/// Writes a planned round (inside the event's write transaction).
/// Stores the planned round; returns its id.
fn store_round(conn: &mut DbConn, event: &Event, plan: &NextRound) -> AppResult<i64> {
    if let Some(ranks) = &plan.start_numbers {
        entries::store_start_numbers(conn, ranks)?;
        events::set_status(conn, event.id, EventStatus::Running)?;
    }
    if let Some(total) = plan.schedule_rounds {
        events::set_rounds(conn, event.id, total)?;
    }
    let round = events::insert_round(conn, event.id, plan.number, store::now())?;
    events::insert_pairings(conn, &new_pairings(round.id, &plan.boards))?;
    // The openings are drawn with the pairing, so the draft shows them for review.
    super::ballot::complete_round(conn, event, round.id)?;
    Ok(round.id)
}

/// A stored row of a round: White's entry, Black's entry (none for a bye), bye kind.
pub(super) type PlannedBoard = (i64, Option<i64>, Option<ByeKind>);

/// The rows to store for planned boards of a round, numbered in order, with no result.
pub(super) fn new_pairings(round_id: i64, boards: &[PlannedBoard]) -> Vec<NewPairing> {
    boards
        .iter()
        .enumerate()
        .map(|(i, &(white, black, bye))| NewPairing {
            round_id,
            board: i as i32 + 1,
            white_entry_id: white,
            black_entry_id: black,
            bye,
            result: None,
        })
        .collect()
}

/// The rows of a paired round: its boards, the player without an opponent with the
/// system's `bye_kind`, and those who asked not to be paired and are not placed after all.
fn planned_boards(
    history: &history::History,
    round: &RoundToPair,
    pairing: &RoundPairing,
    bye_kind: ByeKind,
) -> AppResult<Vec<PlannedBoard>> {
    let ids: HashMap<u32, i64> = history
        .entries
        .iter()
        .map(|e| (e.entry.start_no as u32, e.entry.id))
        .collect();
    let id = |no: u32| {
        ids.get(&no)
            .copied()
            .ok_or_else(|| AppError::internal(format!("no entry with start number {no}")))
    };
    let mut boards = Vec::new();
    for b in &pairing.boards {
        boards.push((id(b.white)?, Some(id(b.black)?), None));
    }
    if let Some(p) = pairing.bye {
        boards.push((id(p)?, None, Some(bye_kind)));
    }
    boards.extend(requested_bye_rows(
        history,
        &round.before.next_round_absences,
        round.number as i32,
        |player| pairing.places(player),
    ));
    Ok(boards)
}

/// The rows of round `number` for players who asked not to be paired (a half-point bye
/// `H`, an absence `Z`, a Keizer event's absence with notice or for the club) and are not `placed` on a board after all. Players who withdrew
/// or have not joined yet are simply not in the round.
pub(super) fn requested_bye_rows(
    history: &history::History,
    absences: &[damka_domain::tournament::NextRoundAbsence],
    number: i32,
    placed: impl Fn(u32) -> bool,
) -> Vec<PlannedBoard> {
    let mut rows = Vec::new();
    for absence in absences {
        let Some(row) = history.entry_by_start_no(absence.player) else {
            continue;
        };
        let entry = &row.entry;
        let gone =
            entry.withdrawn_from_round.is_some_and(|r| r <= number) || entry.first_round > number;
        if gone || placed(absence.player) {
            continue;
        }
        let kind = match absence.kind {
            ByeKind::HalfPoint | ByeKind::Excused | ByeKind::ClubDuty => absence.kind,
            _ => ByeKind::ZeroPoint,
        };
        rows.push((entry.id, None, Some(kind)));
    }
    rows
}

/// Throws away the last round and pairs it again, as long as no result is in.
pub fn repair_last(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<RoundView> {
    let view = super::write_planned(
        conn,
        event_id,
        |conn, event| {
            require_arbiter(conn, actor, event)?;
            let history = history::load(conn, event)?;
            let last = history
                .last_round()
                .ok_or_else(|| AppError::conflict(Refusal::NoRoundPaired))?
                .clone();
            if history.round_has_results(last.number) {
                return Err(AppError::conflict(Refusal::RoundHasResults {
                    round: last.number,
                }));
            }
            let mut before = history.before_round(last.number);
            let plan = plan_next_round(&mut before)?;
            Ok((last.id, before, plan))
        },
        |conn, event, (last_round_id, mut history, plan)| {
            crate::service::games::event_games::remove_unplayed(conn, plan.number, last_round_id)?;
            events::delete_round(conn, last_round_id)?;
            let round_id = store_round(conn, event, &plan)?;
            new_round_view(conn, &mut history, round_id, plan.number)
        },
    )?;
    effects::apply(conn, Effects::event(event_id));
    Ok(view)
}

pub fn publish_last(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        let last = events::rounds(conn, event_id)?
            .pop()
            .ok_or_else(|| AppError::conflict(Refusal::NoRoundPaired))?;
        if last.published {
            return Err(AppError::conflict(Refusal::RoundAlreadyPublished {
                round: last.number,
            }));
        }
        events::publish_round(conn, last.id, store::now())?;
        let user = actor.require_user()?;
        crate::service::games::event_games::create_missing(conn, &event, last.id, user.id)?;
        Ok(())
    })?;
    effects::apply(conn, Effects::event(event_id));
    Ok(())
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct ResultInput {
    /// `1-0`, `1/2-1/2`, `0-1`, `+/-`, `-/+`, `-/-`, or empty to clear.
    pub result: String,
    /// End the board's game in progress with this result (the arbiter's decision). Without
    /// it a result for a game that has moves and is not over is refused with 409
    /// `game_in_progress` (with `moves`).
    #[serde(default)]
    pub end_game: bool,
}

impl ResultInput {
    /// A result typed as reported, without ending a game in progress.
    pub fn typed(result: impl Into<String>) -> ResultInput {
        ResultInput {
            result: result.into(),
            end_game: false,
        }
    }
}

/// The games a round's results form confirmed ending: (board, game number; 1 for a board
/// of one game).
pub type EndGames = [(i64, i32)];

/// A whole round's results as an arbiter types them from the score sheets: the boards
/// whose result differs from the stored one, each entered as `set_result` does (kept in
/// the audit trail, a board with a game through its game). Every code is checked before
/// anything is stored; the first refusal stops the rest and names its board.
pub fn set_round_results(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    round_number: i32,
    results: &[(i64, String)],
    end_games: &EndGames,
) -> AppResult<usize> {
    let event = load(conn, event_id)?;
    // Checked before anything is read: a form that changes nothing is still the officials'
    // (each changed board is checked again where its result is written).
    require_arbiter(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    let boards: Vec<&Pairing> = history.round_pairings(round_number).collect();
    if boards.is_empty() {
        return Err(AppError::NotFound { what: "round" });
    }
    let mut changes = Vec::new();
    for (pairing_id, text) in results {
        let board = boards
            .iter()
            .find(|p| p.id == *pairing_id)
            .ok_or(AppError::NotFound { what: "board" })?;
        let text = text.trim();
        let wanted = match text {
            "" => None,
            _ => Some(ResultCode::from_spelling(text).ok_or_else(|| {
                AppError::invalid("result", Refusal::not_one_of(&spellings::<ResultCode>()))
            })?),
        };
        if board.black_entry_id.is_some() && wanted != board.result {
            changes.push((*pairing_id, text.to_string()));
        }
    }
    for (pairing_id, result) in &changes {
        set_result(
            conn,
            actor,
            event_id,
            *pairing_id,
            &ResultInput {
                result: result.clone(),
                end_game: end_games.contains(&(*pairing_id, 1)),
            },
        )?;
    }
    Ok(changes.len())
}

/// A micro-match round's results as an arbiter types them: (board, game, result) for
/// each game whose result differs from the stored one, each entered as `set_game_result`
/// does. Every code is checked before anything is stored; the first refusal stops the rest.
pub fn set_round_game_results(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    round_number: i32,
    results: &[(i64, i32, String)],
    end_games: &EndGames,
) -> AppResult<usize> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    let boards: Vec<&Pairing> = history.round_pairings(round_number).collect();
    if boards.is_empty() {
        return Err(AppError::NotFound { what: "round" });
    }
    let mut changes = Vec::new();
    for (pairing_id, game_no, text) in results {
        let board = boards
            .iter()
            .find(|p| p.id == *pairing_id)
            .ok_or(AppError::NotFound { what: "board" })?;
        if !(1..=event.games_per_pairing).contains(game_no) {
            return Err(AppError::NotFound { what: "game" });
        }
        let wanted = parse_result_input(&ResultInput::typed(text.clone()))?;
        let stored = history
            .game_results
            .get(pairing_id)
            .and_then(|g| g.iter().find(|(no, _)| no == game_no))
            .and_then(|(_, r)| *r);
        if board.black_entry_id.is_some() && wanted != stored {
            changes.push((*pairing_id, *game_no, wanted));
        }
    }
    for (pairing_id, game_no, result) in &changes {
        let end_game = end_games.contains(&(*pairing_id, *game_no));
        set_game_result_code(
            conn,
            actor,
            &event,
            BoardGame {
                pairing_id: *pairing_id,
                game_no: *game_no,
            },
            *result,
            end_game,
        )?;
    }
    Ok(changes.len())
}

/// Enters or corrects a result. Every change is kept (who, when, old, new); standings and
/// later pairings are computed from the stored results, so they follow at once. In a
/// micro-match event the pairing as a whole takes only a forfeit (given to each of its
/// games) or nothing (clearing them all); a game's result goes through `set_game_result`.
pub fn set_result(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    pairing_id: i64,
    input: &ResultInput,
) -> AppResult<()> {
    let result = parse_result_input(input)?;
    let event = load(conn, event_id)?;
    if event.games_per_pairing > 1 {
        if result.is_some_and(ResultCode::played) {
            return Err(AppError::invalid(
                "result",
                Refusal::MicroMatchResultPerGame {
                    games: event.games_per_pairing,
                },
            ));
        }
        for game_no in 1..=event.games_per_pairing {
            // The second game's White is the pairing's Black: the forfeit turns with it.
            let in_game_colours = result.map(|r| if game_no % 2 == 0 { r.swapped() } else { r });
            let game = BoardGame {
                pairing_id,
                game_no,
            };
            set_game_result_code(conn, actor, &event, game, in_game_colours, false)?;
        }
        return Ok(());
    }
    let user = actor.require_user()?;
    // A board with a game takes its result through the game (which locks the game, then
    // the event), so the game and the board never disagree.
    if let Some(game) = crate::store::games::of_pairing(conn, pairing_id)?
        .filter(|game| game.event_id == Some(event_id))
    {
        return crate::service::games::arbiter::result_from_board(
            conn,
            actor,
            game,
            result,
            input.end_game,
        );
    }
    let effects = super::write(conn, event_id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        let mut effects = Effects::event(event_id);
        results::board::record_result(conn, &event, pairing_id, result, user.id, &mut effects)?;
        Ok(effects)
    })?;
    effects::apply(conn, effects);
    Ok(())
}

fn parse_result_input(input: &ResultInput) -> AppResult<Option<ResultCode>> {
    let code = ResultCode::from_spelling(input.result.trim());
    match input.result.trim() {
        "" => Ok(None),
        _ if code.is_some() => Ok(code),
        _ => Err(AppError::invalid(
            "result",
            Refusal::not_one_of(&["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"]),
        )),
    }
}

/// Enters or corrects the result of game `game_no` of a micro-match pairing, in that
/// game's colours (`PUT /events/{id}/pairings/{pairing}/games/{n}/result`). A game played
/// on the site takes it through the game, as a single game's board does.
pub fn set_game_result(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    pairing_id: i64,
    game_no: i32,
    input: &ResultInput,
) -> AppResult<()> {
    let result = parse_result_input(input)?;
    let event = load(conn, event_id)?;
    let game = BoardGame {
        pairing_id,
        game_no,
    };
    set_game_result_code(conn, actor, &event, game, result, input.end_game)
}

/// One game of a board: the board (pairing) and the game's number on it.
#[derive(Debug, Clone, Copy)]
struct BoardGame {
    pairing_id: i64,
    game_no: i32,
}

fn set_game_result_code(
    conn: &mut DbConn,
    actor: &Actor,
    event: &Event,
    BoardGame {
        pairing_id,
        game_no,
    }: BoardGame,
    result: Option<ResultCode>,
    end_game: bool,
) -> AppResult<()> {
    let user = actor.require_user()?;
    if !(1..=event.games_per_pairing).contains(&game_no) {
        return Err(AppError::NotFound { what: "game" });
    }
    if let Some(game) = crate::store::games::of_pairing_game(conn, pairing_id, game_no)?
        .filter(|game| game.event_id == Some(event.id))
    {
        return crate::service::games::arbiter::result_from_board(
            conn, actor, game, result, end_game,
        );
    }
    let effects = super::write(conn, event.id, |conn, event| {
        require_arbiter(conn, actor, &event)?;
        let mut effects = Effects::event(event.id);
        results::board::record_board_result(
            conn,
            &event,
            pairing_id,
            game_no,
            result,
            user.id,
            &mut effects,
        )?;
        Ok(effects)
    })?;
    effects::apply(conn, effects);
    Ok(())
}
