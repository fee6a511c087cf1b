//! The games of an event: one per board with two players, created when the round is
//! published, with the event's variant, local rules and draw-offer minimum. A round paired
//! again, or changed by hand, replaces the games that have no move yet; a game with moves
//! blocks any change that would take its board away.
use std::collections::{HashMap, HashSet};

use super::create::start_fen;
use crate::service::{AppError, AppResult, Refusal};
use crate::store::games::{self as stored, NewGame};
use crate::store::micro_matches::{self, DrawnOpening};
use crate::store::models::Event;
use crate::store::{self, DbConn, events};

/// Creates the missing games of a published round: every board with two players and no
/// result that lacks one of its games (one, or two for a micro-match: the second with
/// colours swapped). A board with a drawn opening starts its games from the opening's
/// position, with the opening's moves as their first plies. Runs inside the event's write.
pub fn create_missing(
    conn: &mut DbConn,
    event: &Event,
    round_id: i64,
    user_id: i64,
) -> AppResult<usize> {
    let round = events::rounds(conn, event.id)?
        .into_iter()
        .find(|r| r.id == round_id)
        .ok_or(AppError::NotFound { what: "round" })?;
    if !round.published {
        return Ok(0);
    }
    crate::service::events::ballot::complete_round(conn, event, round_id)?;
    let player_of: HashMap<i64, i64> = events::entries(conn, event.id)?
        .into_iter()
        .map(|e| (e.id, e.player_id))
        .collect();
    let have: HashSet<(i64, i32)> = stored::of_round(conn, round_id)?
        .into_iter()
        .filter_map(|g| g.pairing_id.map(|p| (p, g.game_no)))
        .collect();
    let openings: HashMap<i64, DrawnOpening> = micro_matches::openings(conn, event.id)?
        .into_iter()
        .collect();
    let initial = start_fen(event.variant, &event.local_rules);
    let now = store::now();
    let mut created = 0;
    for (number, pairing) in events::pairings(conn, event.id)? {
        if number != round.number || pairing.result.is_some() {
            continue;
        }
        let Some(black_entry) = pairing.black_entry_id else {
            continue;
        };
        let player = |entry: i64| {
            player_of
                .get(&entry)
                .copied()
                .ok_or_else(|| AppError::internal(format!("no entry {entry}")))
        };
        let (first_white, first_black) = (player(pairing.white_entry_id)?, player(black_entry)?);
        let opening = openings.get(&pairing.id);
        for game_no in 1..=event.games_per_pairing {
            if have.contains(&(pairing.id, game_no)) {
                continue;
            }
            // The second game of a micro-match: colours swapped.
            let (white, black) = if game_no % 2 == 1 {
                (first_white, first_black)
            } else {
                (first_black, first_white)
            };
            let game_id = stored::insert(
                conn,
                &NewGame {
                    variant: event.variant,
                    local_rules: event.local_rules.clone(),
                    start_fen: opening
                        .and_then(|o| o.start_fen.clone())
                        .unwrap_or_else(|| initial.clone()),
                    white_player_id: white,
                    black_player_id: black,
                    event_id: Some(event.id),
                    pairing_id: Some(pairing.id),
                    rated: event.rated,
                    draw_offer_min_moves: event.draw_offer_min_moves,
                    created_by: user_id,
                    created_at: now,
                    clock: event.clock,
                    game_no,
                },
            )?;
            if let Some(opening) = opening {
                play_opening(conn, event, game_id, opening, now)?;
            }
            created += 1;
        }
    }
    Ok(created)
}

/// Stores the drawn opening's moves as the game's first plies, checked by the engine under
/// the event's rules (a table entry its local rules do not allow is refused, naming it).
/// They are nobody's moves and untimed: the first move a player makes is the first timed.
fn play_opening(
    conn: &mut DbConn,
    event: &Event,
    game_id: i64,
    opening: &DrawnOpening,
    now: chrono::NaiveDateTime,
) -> AppResult<()> {
    let rules = super::engine_rules(event.variant, &event.local_rules);
    let start = match &opening.start_fen {
        Some(fen) => damka_engine::Position::from_fen(rules, fen).map_err(|e| {
            AppError::conflict(Refusal::BadOpeningTable {
                line: opening.index as usize + 1,
                problem: Box::new(Refusal::OpeningBadFen {
                    code: opening.code.clone(),
                    reason: e.to_string(),
                }),
            })
        })?,
        None => damka_engine::Position::start(rules),
    };
    let mut game = damka_engine::Game::from_position(start);
    for (i, text) in opening.moves.iter().enumerate() {
        let notation = game.play_str(text).map(|mv| mv.notation()).map_err(|e| {
            AppError::conflict(Refusal::BadOpeningTable {
                line: opening.index as usize + 1,
                problem: Box::new(Refusal::OpeningBadMove {
                    code: opening.code.clone(),
                    ply: i + 1,
                    text: text.clone(),
                    reason: Box::new(super::engine_refusal::move_refusal(e)),
                }),
            })
        })?;
        stored::insert_move(conn, game_id, i as i32 + 1, &notation, None, now, None)?;
    }
    stored::set_opening_plies(conn, game_id, opening.moves.len() as i32)?;
    Ok(())
}

/// Before a round is thrown away (paired again): refuses if a game of it has a move, and
/// removes its games otherwise.
pub fn remove_unplayed(conn: &mut DbConn, round_number: i32, round_id: i64) -> AppResult<()> {
    remove_games(conn, round_number, round_id, |_| false)
}

/// Before a round's boards are replaced by `new_boards` (White's entry, Black's entry):
/// a game with moves must keep its board (same players, same colours), or the change is
/// refused; a game without moves whose board does not stay exactly as it is goes (a new one
/// is created after the change).
pub fn prepare_replacement(
    conn: &mut DbConn,
    round_number: i32,
    round_id: i64,
    new_boards: &[(i64, Option<i64>)],
) -> AppResult<()> {
    let boards: HashMap<i64, (i64, Option<i64>)> = events::pairings_of_round(conn, round_id)?
        .into_iter()
        .map(|p| (p.id, (p.white_entry_id, p.black_entry_id)))
        .collect();
    remove_games(conn, round_number, round_id, |game| {
        game.pairing_id
            .and_then(|id| boards.get(&id))
            .is_some_and(|board| new_boards.contains(board))
    })
}

/// Removes the games of the round that are not `kept`, refusing if one of them has a move.
/// A game read without a move may be taking its first move right now, which would be
/// acknowledged and then removed with the game; so the games are locked and read again
/// before they go. A game that another write holds is not waited for: that write may be
/// waiting for this event (a result reaching its board), and the two would deadlock; the
/// change is refused and may be tried again.
fn remove_games(
    conn: &mut DbConn,
    round_number: i32,
    round_id: i64,
    kept: impl Fn(&stored::GameRow) -> bool,
) -> AppResult<()> {
    let going = |conn: &mut DbConn| -> AppResult<Vec<stored::GameRow>> {
        let games = stored::of_round(conn, round_id)?;
        Ok(games.into_iter().filter(|g| !kept(g)).collect())
    };
    let games = going(conn)?;
    ensure_unplayed(conn, round_number, &games)?;
    let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
    if stored::lock_unless_busy(conn, &ids)?.len() < ids.len() {
        return Err(AppError::conflict(Refusal::EventChangedMeanwhile));
    }
    // As they stand now that no move can land on them.
    let games = going(conn)?;
    ensure_unplayed(conn, round_number, &games)?;
    for game in games {
        stored::delete(conn, game.id)?;
    }
    Ok(())
}

/// Refuses when one of `games` has a move.
fn ensure_unplayed(conn: &mut DbConn, round: i32, games: &[stored::GameRow]) -> AppResult<()> {
    let Some(game) = games.iter().find(|g| g.has_moves()) else {
        return Ok(());
    };
    let board = match game.pairing_id {
        Some(pairing) => stored::round_and_board(conn, pairing)?.map_or(0, |(_, b)| b),
        None => 0,
    };
    Err(AppError::conflict(Refusal::RoundHasPlayedGames {
        round,
        board,
        plies: game.ply,
    }))
}
