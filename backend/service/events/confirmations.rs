//! What the confirmation pages of an event's irreversible actions (finishing it, pairing a
//! round again, withdrawing a player) say, checked with the same permission the action
//! itself asks for, so nobody learns from the question what the action would refuse them.
use super::{Event, history, load, require_arbiter, require_manager};
use crate::service::{Actor, AppError, AppResult};
use crate::store::{DbConn, events};

/// Finishing an event (its managers): the event and how many rounds it has paired.
pub fn finish(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<(Event, usize)> {
    let event = load(conn, event_id)?;
    require_manager(actor, &event)?;
    let paired = events::rounds(conn, event_id)?.len();
    Ok((event, paired))
}

/// Pairing the last round again (its arbiters): the event and the number of that round.
pub fn repair(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<(Event, usize)> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let round = events::rounds(conn, event_id)?.len();
    Ok((event, round))
}

/// Withdrawing an entry: the player's name and the round the withdrawal starts from.
pub struct Withdrawal {
    pub name: String,
    pub from_round: i32,
}

/// Withdrawing an entry (the player themself or the event's managers). A missing event is
/// 404 before an anonymous visitor's 401, as the page always answered.
pub fn withdraw(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    entry_id: i64,
) -> AppResult<Withdrawal> {
    let event = load(conn, event_id)?;
    actor.require_user()?;
    let history = history::load(conn, &event)?;
    let entry = history
        .entry(entry_id)
        .ok_or(AppError::NotFound { what: "entry" })?;
    super::entries::require_may_withdraw(actor, &event, entry.entry.player_id)?;
    Ok(Withdrawal {
        name: entry.name.clone(),
        from_round: history.rounds.len() as i32 + 1,
    })
}

/// A game being played that a typed result would end: the page asks before ending it.
#[derive(Debug, Clone)]
pub struct GameToEnd {
    pub pairing_id: i64,
    /// 1, or 2 for a micro-match's return game.
    pub game_no: i32,
    /// A game of a micro-match (its board has two).
    pub micro: bool,
    pub board: i32,
    pub white: String,
    pub black: String,
    /// Moves played, as the move list numbers them.
    pub moves: i32,
    /// The result typed for it, in the game's colours.
    pub result: damka_domain::vocabulary::ResultCode,
}

/// The round of a board, for a page to go back to after acting on it (none for an unknown
/// board: the action itself then says what is wrong).
pub fn round_of_board(conn: &mut DbConn, pairing_id: i64) -> AppResult<Option<i32>> {
    Ok(crate::store::games::round_and_board(conn, pairing_id)?.map(|(round, _)| round))
}

/// Of the results typed on an event's boards, (board, game number, result) as typed, the
/// ones that would end a game in progress and were not confirmed yet (`confirmed`, as
/// (board, game number)), checked as the results themselves will be (its arbiters). A
/// result the game already has, a forfeit (refused for a game with moves) and a cleared
/// result end nothing.
pub fn games_to_end(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    typed: &[(i64, i32, String)],
    confirmed: &[(i64, i32)],
) -> AppResult<Vec<GameToEnd>> {
    use crate::store::games as stored;
    use damka_domain::vocabulary::{ResultCode, Spelling};
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let mut out = Vec::new();
    for (pairing_id, game_no, text) in typed {
        let Some(code) = ResultCode::from_spelling(text.trim()).filter(|r| r.played()) else {
            continue;
        };
        if confirmed.contains(&(*pairing_id, *game_no)) {
            continue;
        }
        let Some(game) = stored::of_pairing_game(conn, *pairing_id, *game_no)?
            .filter(|g| g.event_id == Some(event_id))
        else {
            continue;
        };
        if !game.in_progress() || game.result == Some(code) {
            continue;
        }
        let names = crate::service::games::view::names(conn, &game)?;
        let board = stored::round_and_board(conn, *pairing_id)?.map_or(0, |(_, board)| board);
        out.push(GameToEnd {
            pairing_id: *pairing_id,
            game_no: *game_no,
            micro: event.games_per_pairing > 1,
            board,
            white: names.white,
            black: names.black,
            moves: crate::service::games::arbiter::moves_played(&game),
            result: code,
        });
    }
    Ok(out)
}
