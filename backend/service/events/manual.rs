//! Manual pairing changes: the arbiter rewrites the boards of the last round (while no
//! result is in), sees every rule the new pairing breaks, and the change is recorded with
//! those warnings (who, when, before, after).
use std::collections::HashMap;

use damka_domain::dutch::{Board, RoundPairing};
use damka_domain::pairing_check::{self, PlacementError, WarningKind};
use damka_domain::pairing_system::NextRound;
use damka_domain::tournament::{ByeKind, Colour, StartNo};
use serde::{Deserialize, Serialize};

use super::history::{self, History};
use super::rounds::{self, RoundView};
use super::{load, require_arbiter};
use crate::service::games;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::models::Event;
use crate::store::{self, DbConn, pairing_changes};
use damka_domain::vocabulary::{EventStatus, Spelling, spelled_option};

/// One board of a proposed pairing, by start numbers.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BoardInput {
    pub white: i32,
    pub black: i32,
}

/// The whole round as the arbiter wants it: the boards in order, and the player who gets
/// the pairing-allocated bye (in a round-robin: the free player), if any. Players with a
/// requested bye or absence who are not on a board keep it.
#[derive(Debug, Clone, Default, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PairingInput {
    pub boards: Vec<BoardInput>,
    #[serde(default)]
    pub bye: Option<i32>,
}

/// A player named in a warning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PlayerRef {
    pub start_no: i32,
    pub name: String,
}

/// One rule the pairing breaks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct PairingWarning {
    /// `already_played`, `forbidden_pair`, `colour_difference`, `same_colour_three_times`,
    /// `colours_against_allocation`, `bye_not_allowed`, `requested_bye_ignored`,
    /// `not_in_system_pairing`, `colours_differ_from_table`, `bye_differs_from_system`.
    pub code: String,
    /// 1-based board; absent for the bye.
    pub board: Option<i32>,
    /// The players concerned: a board's White then Black; the player for one-player rules;
    /// for `colours_against_allocation` White, Black, then who should have White; for
    /// `bye_differs_from_system` the one given the bye, then the system's choice (start
    /// number 0 and no name: nobody).
    pub players: Vec<PlayerRef>,
    /// The round of the earlier game (`already_played`) or point without playing
    /// (`bye_not_allowed`).
    pub round: Option<i32>,
    /// `white` or `black`, for the colour rules.
    pub colour: Option<String>,
    /// The colour difference the player would reach.
    pub difference: Option<i32>,
    /// The requested bye that is ignored: `H` or `Z`.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub requested: Option<ByeKind>,
}

/// What the check of a pairing says.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PairingCheck {
    pub warnings: Vec<PairingWarning>,
}

/// The round after a change, with the rules the change breaks.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PairingChangeOutcome {
    pub round: RoundView,
    pub warnings: Vec<PairingWarning>,
}

/// The rules `input` would break as the pairing of round `number`, without changing it.
pub fn check(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    number: i32,
    input: &PairingInput,
) -> AppResult<PairingCheck> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    let plan = evaluate(&event, &history, number, input)?;
    Ok(PairingCheck {
        warnings: plan.warnings,
    })
}

/// Stores `input` as the pairing of round `number` and records the change.
pub fn change(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    number: i32,
    input: &PairingInput,
) -> AppResult<PairingChangeOutcome> {
    let user = actor.require_user()?;
    // The check compares the pairing with the system's own (a Dutch pairing of the whole
    // field), so it is made outside the write transaction and stored only if the event
    // did not change meanwhile.
    let warnings = super::write_planned(
        conn,
        event_id,
        |conn, event| {
            require_arbiter(conn, actor, event)?;
            let history = history::load(conn, event)?;
            let plan = evaluate(event, &history, number, input)?;
            let round_id = history
                .rounds
                .iter()
                .find(|r| r.number == number)
                .ok_or(AppError::NotFound { what: "round" })?
                .id;
            let old = stored_pairing_text(&history, number);
            Ok((plan, round_id, old))
        },
        |conn, event, (plan, round_id, old)| {
            let new = rounds::new_pairings(round_id, &plan.rows);
            let boards: Vec<(i64, Option<i64>)> = new
                .iter()
                .map(|p| (p.white_entry_id, p.black_entry_id))
                .collect();
            games::event_games::prepare_replacement(conn, number, round_id, &boards)?;
            pairing_changes::replace_round_pairings(conn, round_id, &new)?;
            super::ballot::complete_round(conn, event, round_id)?;
            games::event_games::create_missing(conn, event, round_id, user.id)?;
            let warnings_json =
                serde_json::to_string(&plan.warnings).map_err(AppError::internal)?;
            pairing_changes::record(
                conn,
                round_id,
                user.id,
                store::now(),
                &old,
                &plan.text,
                &warnings_json,
            )?;
            Ok(plan.warnings)
        },
    )?;
    crate::service::effects::apply(conn, crate::service::effects::Effects::event(event_id));
    let round = rounds::list(conn, actor, event_id)?
        .into_iter()
        .find(|r| r.number == number)
        .ok_or_else(|| AppError::internal("the changed round vanished"))?;
    Ok(PairingChangeOutcome { round, warnings })
}

/// A checked pairing ready to store.
struct Plan {
    /// The stored rows, boards first.
    rows: Vec<rounds::PlannedBoard>,
    /// The boards as `white black` lines, `N 0` for the bye.
    text: String,
    warnings: Vec<PairingWarning>,
}

/// A pairing can be changed in the last round of an unfinished event while no game of
/// that round has a result.
/// Whether round `number`'s pairing can still be changed by hand (by those who run the
/// event): the rule `change` applies, asked by pages before they offer the form.
pub fn changeable(event: &Event, history: &History, number: i32) -> bool {
    ensure_changeable(event, history, number).is_ok()
}

fn ensure_changeable(event: &Event, history: &History, number: i32) -> AppResult<()> {
    if event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinished));
    }
    let last = history
        .last_round()
        .ok_or(AppError::NotFound { what: "round" })?;
    if !history.rounds.iter().any(|r| r.number == number) {
        return Err(AppError::NotFound { what: "round" });
    }
    if last.number != number {
        return Err(AppError::conflict(Refusal::OnlyLastRoundChanges {
            round: last.number,
        }));
    }
    if history.round_has_results(number) {
        return Err(AppError::conflict(Refusal::RoundHasResults {
            round: number,
        }));
    }
    Ok(())
}

fn evaluate(
    event: &Event,
    history: &History,
    number: i32,
    input: &PairingInput,
) -> AppResult<Plan> {
    ensure_changeable(event, history, number)?;
    let system = super::pairing_system::of(event);
    let fixed_field = system.field_is_fixed();
    let before = history.before_round(number);
    let mut tournament = before.tournament()?;
    let requested: HashMap<i64, ByeKind> = history
        .absences
        .iter()
        .filter(|(_, round, _)| *round == number)
        .map(|(id, _, kind)| (*id, *kind))
        .collect();
    let proposal = proposal_of(history, number, input, fixed_field)?;
    if fixed_field {
        // Every entrant is in the pairing (a Berger table); only requests excuse a player.
        tournament.next_round_absences.retain(|a| {
            history
                .entry_by_start_no(a.player)
                .is_some_and(|e| requested.contains_key(&e.entry.id))
        });
    }
    let round = NextRound {
        number: number as u32,
        before: &tournament,
    };
    let warnings = system
        .check(&round, &proposal)
        .map_err(|errors| placement_error(&errors))?;
    let entry_id = |no: StartNo| {
        history
            .entry_by_start_no(no)
            .map(|e| e.entry.id)
            .ok_or_else(|| AppError::internal(format!("no entry with start number {no}")))
    };
    let mut rows = Vec::new();
    for b in &proposal.boards {
        rows.push((entry_id(b.white)?, Some(entry_id(b.black)?), None));
    }
    if let Some(free) = proposal.bye {
        rows.push((entry_id(free)?, None, Some(system.bye_kind())));
    }
    rows.extend(rounds::requested_bye_rows(
        history,
        &tournament.next_round_absences,
        number,
        |player| proposal.places(player),
    ));
    Ok(Plan {
        rows,
        text: RoundPairing::to_bbp_format(&proposal),
        warnings: warnings
            .into_iter()
            .map(|w| warning_view(history, w))
            .collect(),
    })
}

/// The input as start numbers, after refusing players who cannot be in the round at all
/// (a withdrawn player stays in a fixed field).
fn proposal_of(
    history: &History,
    number: i32,
    input: &PairingInput,
    fixed_field: bool,
) -> AppResult<RoundPairing> {
    let start_no = |no: i32| -> AppResult<StartNo> {
        let row = u32::try_from(no)
            .ok()
            .and_then(|n| history.entry_by_start_no(n))
            .ok_or_else(|| {
                AppError::invalid(
                    "boards",
                    Refusal::NoSuchStartNumber {
                        start_no: no.into(),
                    },
                )
            })?;
        let entry = &row.entry;
        if !fixed_field && let Some(from) = entry.withdrawn_from_round.filter(|r| *r <= number) {
            return Err(AppError::invalid(
                "boards",
                Refusal::PlayerWithdrew {
                    player: no,
                    round: from,
                },
            ));
        }
        if entry.first_round > number {
            return Err(AppError::invalid(
                "boards",
                Refusal::PlayerJoinsLater {
                    player: no,
                    round: entry.first_round,
                },
            ));
        }
        Ok(no as StartNo)
    };
    let mut boards = Vec::new();
    for b in &input.boards {
        boards.push(Board {
            white: start_no(b.white)?,
            black: start_no(b.black)?,
        });
    }
    let bye = input.bye.map(start_no).transpose()?;
    if boards.is_empty() && bye.is_none() {
        return Err(AppError::invalid("boards", Refusal::RoundNeedsABoard));
    }
    Ok(RoundPairing { boards, bye })
}

fn placement_error(errors: &[PlacementError]) -> AppError {
    let problems = errors.iter().cloned().map(Refusal::from).collect();
    AppError::invalid("boards", Refusal::ImpossiblePairing { problems })
}

/// The stored boards of a round in the same text form as a change records.
fn stored_pairing_text(history: &History, number: i32) -> String {
    let current = current_input(history, number);
    RoundPairing {
        boards: current
            .boards
            .iter()
            .map(|b| Board {
                white: b.white as StartNo,
                black: b.black as StartNo,
            })
            .collect(),
        bye: current.bye.map(|b| b as StartNo),
    }
    .to_bbp_format()
}

fn warning_view(history: &History, warning: pairing_check::Warning) -> PairingWarning {
    let player = |no: StartNo| PlayerRef {
        start_no: no as i32,
        name: history
            .entry_by_start_no(no)
            .map(|e| e.name.clone())
            .unwrap_or_default(),
    };
    let colour_name = |c: Colour| Some(c.spelling().to_string());
    let mut view = PairingWarning {
        code: String::new(),
        board: warning.board.map(|b| b as i32),
        players: Vec::new(),
        round: None,
        colour: None,
        difference: None,
        requested: None,
    };
    let (code, players) = match warning.kind {
        WarningKind::AlreadyPlayed {
            white,
            black,
            round,
        } => {
            view.round = Some(round as i32);
            ("already_played", vec![white, black])
        }
        WarningKind::ForbiddenPair { white, black } => ("forbidden_pair", vec![white, black]),
        WarningKind::ColourDifference {
            player,
            colour,
            difference,
        } => {
            view.colour = colour_name(colour);
            view.difference = Some(difference as i32);
            ("colour_difference", vec![player])
        }
        WarningKind::SameColourThreeTimes { player, colour } => {
            view.colour = colour_name(colour);
            ("same_colour_three_times", vec![player])
        }
        WarningKind::ColoursAgainstAllocation {
            white,
            black,
            should_be_white,
        } => (
            "colours_against_allocation",
            vec![white, black, should_be_white],
        ),
        WarningKind::ByeNotAllowed { player, round } => {
            view.round = Some(round as i32);
            ("bye_not_allowed", vec![player])
        }
        WarningKind::RequestedByeIgnored { player, kind } => {
            // A request is a half-point bye or an absence (`history::tournament`).
            view.requested = Some(kind);
            ("requested_bye_ignored", vec![player])
        }
        WarningKind::NotInSystemPairing { white, black } => {
            ("not_in_system_pairing", vec![white, black])
        }
        WarningKind::ColoursDifferFromTable { white, black } => {
            ("colours_differ_from_table", vec![white, black])
        }
        WarningKind::ByeDiffersFromSystem { given, system } => {
            view.players = [given, system]
                .into_iter()
                .map(|p| {
                    p.map_or(
                        PlayerRef {
                            start_no: 0,
                            name: String::new(),
                        },
                        player,
                    )
                })
                .collect();
            view.code = "bye_differs_from_system".to_string();
            return view;
        }
    };
    view.code = code.to_string();
    view.players = players.into_iter().map(player).collect();
    view
}

/// A player who can be placed in the round, for the arbiter's form.
#[derive(Debug, Clone)]
pub struct RoundPlayer {
    pub start_no: i32,
    pub name: String,
    /// Points before the round, in half-points.
    pub points: u32,
    /// A half-point bye or an absence when the player asked not to be paired this round.
    pub requested: Option<ByeKind>,
}

/// What the pairing form needs: the round as stored and everyone who may be placed.
#[derive(Debug, Clone)]
pub struct PairingForm {
    pub current: PairingInput,
    pub players: Vec<RoundPlayer>,
    pub round_robin: bool,
}

/// The form for changing round `number`; refused as a change would be (finished event,
/// not the last round, results in).
pub fn form(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    number: i32,
) -> AppResult<PairingForm> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let history = history::load(conn, &event)?;
    ensure_changeable(&event, &history, number)?;
    let system = super::pairing_system::of(&event);
    let fixed_field = system.field_is_fixed();
    let before = history.before_round(number).tournament()?;
    let mut players = Vec::new();
    for row in &history.entries {
        let entry = &row.entry;
        let gone = (!fixed_field && entry.withdrawn_from_round.is_some_and(|r| r <= number))
            || entry.first_round > number;
        if gone {
            continue;
        }
        let points = before
            .players
            .iter()
            .find(|p| p.start_no == entry.start_no as u32)
            .map_or(0, |p| damka_domain::trf::score(&before, p).0);
        let requested = history
            .absences
            .iter()
            .find(|(id, round, _)| *id == entry.id && *round == number)
            .map(|(_, _, kind)| *kind);
        players.push(RoundPlayer {
            start_no: entry.start_no,
            name: row.name.clone(),
            points,
            requested,
        });
    }
    players.sort_by_key(|p| p.start_no);
    Ok(PairingForm {
        current: current_input(&history, number),
        players,
        // The one without an opponent is the table's free player, not given a PAB.
        round_robin: system.bye_kind() == ByeKind::ZeroPoint,
    })
}

/// The stored pairing of a round as form input.
fn current_input(history: &History, number: i32) -> PairingInput {
    let no = |id: i64| history.entry(id).map_or(0, |e| e.entry.start_no);
    let bye_kind = super::pairing_system::of(&history.event).bye_kind();
    let mut input = PairingInput::default();
    for p in history.round_pairings(number) {
        match (p.black_entry_id, p.bye) {
            (Some(black), _) => input.boards.push(BoardInput {
                white: no(p.white_entry_id),
                black: no(black),
            }),
            // The system's own bye, and a PAB whatever the system (an imported round).
            (None, Some(kind)) if kind == ByeKind::PairingAllocated || kind == bye_kind => {
                input.bye = Some(no(p.white_entry_id))
            }
            _ => {}
        }
    }
    input
}
