//! Draw offers and resignation (RULES.md "Draw offers"): an offer only after each side has
//! made the game's minimum number of moves, only by the player who has just moved, one per
//! own move; it stands until the opponent accepts, declines or moves (then it lapses; the
//! offerer is shown which). A refusal changes nothing; an offer sent with a move that may
//! not be made yet is refused while the move is stored (`move_check`).
use damka_engine::Color;

use super::view::{GameView, view_of};
use super::{Loaded, Role, require_role, win_for};
use crate::service::effects::{self, Effects};
use crate::service::{Actor, AppError, AppResult, Refusal, results};
use crate::store::games::GameState;
use crate::store::{self, DbConn};
use damka_domain::vocabulary::{GameEnd, ResultCode};

/// Whether `side` may offer a draw now (it has just moved: the opponent is to move).
pub fn check_offer(loaded: &Loaded, state: &GameState, side: Color) -> AppResult<()> {
    let game = &loaded.game;
    if game.side_to_move() == side || state.ply == 0 {
        return Err(AppError::forbidden(Refusal::NotYourTurn));
    }
    if state.draw_offer_pending {
        return Err(AppError::conflict(Refusal::DrawOfferPending));
    }
    let min = u32::try_from(loaded.row.draw_offer_min_moves).unwrap_or(0);
    let fewest = game
        .moves_made(Color::White)
        .min(game.moves_made(Color::Black));
    if fewest < min {
        // The side to move needs `min - its moves`, the offering side its own; the offer
        // is possible once both have made `min`: count the moves of the one further back
        // plus, if the offerer is the one further back, the opponent's reply in between.
        let own = game.moves_made(side);
        let other = game.moves_made(side.opponent());
        let own_needed = min.saturating_sub(own);
        let other_needed = min.saturating_sub(other);
        return Err(AppError::conflict(Refusal::DrawOfferTooEarly {
            moves_needed: own_needed.max(other_needed),
            min,
        }));
    }
    if state.draw_offer_by == Some(side) && state.draw_offer_ply == Some(state.ply) {
        return Err(AppError::conflict(Refusal::DrawOfferRepeated));
    }
    Ok(())
}

/// The player's side, or 403: offers, answers and resignations are the players' own.
fn player_side(role: Role) -> AppResult<Color> {
    match role {
        Role::Player(side) => Ok(side),
        Role::Arbiter => Err(AppError::forbidden(Refusal::OnlyPlayersOfGame)),
    }
}

/// Offers a draw (`POST /games/{id}/draw-offer`).
pub fn offer(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    change(conn, actor, game_id, |loaded, side, state| {
        check_offer(loaded, state, side)?;
        state.draw_offer_by = Some(side);
        state.draw_offer_ply = Some(state.ply);
        state.draw_offer_pending = true;
        state.draw_offer_declined = false;
        Ok(())
    })
}

/// The pending offer made to `side`, or why there is none to answer.
fn offer_to(state: &GameState, side: Color) -> AppResult<()> {
    if !state.draw_offer_pending {
        return Err(AppError::conflict(Refusal::NoDrawOffer));
    }
    if state.draw_offer_by == Some(side) {
        return Err(AppError::forbidden(Refusal::OwnDrawOffer));
    }
    Ok(())
}

/// Accepts the opponent's offer: the game is drawn by agreement.
pub fn accept(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    change(conn, actor, game_id, |_, side, state| {
        offer_to(state, side)?;
        state.finish(ResultCode::Draw, GameEnd::Agreement, store::now());
        Ok(())
    })
}

/// Declines the opponent's offer; the game goes on.
pub fn decline(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    change(conn, actor, game_id, |_, side, state| {
        offer_to(state, side)?;
        state.draw_offer_pending = false;
        state.draw_offer_declined = true;
        Ok(())
    })
}

/// The player resigns (at any time, on either side's turn).
pub fn resign(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    change(conn, actor, game_id, |_, side, state| {
        state.finish(win_for(side.opponent()), GameEnd::Resignation, store::now());
        Ok(())
    })
}

/// A player's change to an ongoing game, under the game's lock.
fn change(
    conn: &mut DbConn,
    actor: &Actor,
    game_id: i64,
    decide: impl FnOnce(&Loaded, Color, &mut GameState) -> AppResult<()>,
) -> AppResult<GameView> {
    let user_id = actor.require_user()?.id;
    let (loaded, effects) = super::write(conn, game_id, |conn, mut loaded| {
        let side = player_side(require_role(conn, actor, &loaded.row)?)?;
        if loaded.is_over() {
            return Err(AppError::conflict(Refusal::GameOver));
        }
        let mut state = GameState::of(&loaded.row);
        decide(&loaded, side, &mut state)?;
        let mut effects = Effects::none();
        results::game::store_state(conn, &mut loaded, state, user_id, &mut effects)?;
        Ok((loaded, effects))
    })?;
    effects::apply(conn, effects);
    view_of(conn, &loaded)
}
