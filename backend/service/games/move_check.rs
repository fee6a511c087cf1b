//! A move checked against a game as read, without writing: the refusals of a move that is
//! not next, out of turn or illegal, and otherwise the game's state after it (an offer
//! sent with it that may not be made yet is left out, the move kept). The locked way and the optimistic way of `play` both plan with it, and so
//! does the refusal decided from a read before any lock (`optimistic`).
use serde::Deserialize;

use super::{Loaded, Role, clock, engine_refusal, offers, verdict};
use crate::service::{AppError, AppResult, Refusal};
use crate::store::games::GameState;
use damka_domain::vocabulary::GameStatus;

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct MoveInput {
    /// The number of the ply this move makes: 1 for the game's first move.
    pub ply: i32,
    /// The move in any legal spelling: `c3-d4`, `c3d4`, `11-15`, a full capture path
    /// `c3:e5:g3`, or `from:to` when only one capture goes there.
    #[serde(rename = "move")]
    #[schema(rename = "move")]
    pub text: String,
    /// Offer a draw with this move.
    #[serde(default)]
    pub offer_draw: bool,
}

/// A move checked and played on a game, not yet stored.
pub struct Planned {
    /// The move in canonical notation.
    pub notation: String,
    /// The mover's remaining time after it (`None`: untimed).
    pub clock_ms: Option<i64>,
    /// The game row's state after it.
    pub state: GameState,
    /// The draw offer sent with the move and not made (too early): the move is played
    /// all the same.
    pub offer_refused: Option<Refusal>,
}

impl Planned {
    /// Whether the move ends the game.
    pub fn ends_game(&self) -> bool {
        self.state.status == GameStatus::Finished
    }
}

/// Checks `input` as the next ply of `loaded` by `role` and plays it on `loaded.game`:
/// the refusals of a move that is not next, out of turn, illegal, or an offer not allowed.
pub fn plan(
    loaded: &mut Loaded,
    role: Role,
    input: &MoveInput,
    text: &str,
    now: chrono::NaiveDateTime,
) -> AppResult<Planned> {
    let current = loaded.row.ply;
    if loaded.is_over() {
        return Err(AppError::conflict(Refusal::GameOver));
    }
    if input.ply > current + 1 {
        return Err(AppError::conflict(Refusal::PlyAhead {
            ply: current,
            expected: current + 1,
        }));
    }
    let mover = loaded.game.side_to_move();
    if let Role::Player(side) = role
        && side != mover
    {
        return Err(AppError::forbidden(Refusal::NotYourTurn));
    }
    let mv = loaded
        .game
        .play_str(text)
        .map_err(|e| engine_refusal::illegal(&loaded.game, e))?;
    let mut state = GameState::of(&loaded.row);
    state.ply = input.ply;
    let clock_ms = clock::after_move(loaded.row.clock, &mut state, mover, now)
        .map_err(|_| AppError::conflict(Refusal::FlagFallen))?;
    // A move by the side an offer was made to answers it: the offer lapses.
    if state.draw_offer_pending && state.draw_offer_by != Some(mover) {
        state.draw_offer_pending = false;
        state.draw_offer_declined = false;
    }
    let mut offer_refused = None;
    if let Some((result, reason)) = verdict(&loaded.game) {
        state.finish(result, reason, now);
    } else if input.offer_draw {
        // An offer that may not be made yet never costs the move: it is stored without it.
        match offers::check_offer(loaded, &state, mover) {
            Ok(()) => {
                state.draw_offer_by = Some(mover);
                state.draw_offer_ply = Some(input.ply);
                state.draw_offer_pending = true;
                state.draw_offer_declined = false;
            }
            Err(refused) => offer_refused = Some(refused.refusal().cloned().ok_or(refused)?),
        }
    }
    Ok(Planned {
        notation: mv.notation(),
        clock_ms,
        state,
        offer_refused,
    })
}
