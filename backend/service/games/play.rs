//! Submitting a move. The submission names the ply it makes, so a resend is recognised and
//! two clients racing for one ply get one answer each: the game row's lock orders them, and
//! the primary key (game, ply) would refuse a second row even without it.
use damka_engine::{Game, MoveError};
use serde::Deserialize;

use super::view::{GameView, view_of};
use super::{Loaded, Role, clock, offers, optimistic, require_role};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::DbConn;
use crate::store::games::{self as stored, GameState};
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

/// The longest move text read: the longest capture of a 10x10 board is far shorter.
const MOVE_TEXT_LIMIT: usize = 200;

/// What a submission did.
#[derive(Debug, Clone)]
pub enum Submitted {
    /// The move is stored now.
    Stored(GameView),
    /// The same move was already stored at that ply (a resend); nothing changed.
    AlreadyStored(GameView),
}

/// Plays `input` in game `game_id` as `actor`.
pub fn submit(
    conn: &mut DbConn,
    actor: &Actor,
    game_id: i64,
    input: &MoveInput,
) -> AppResult<Submitted> {
    let user = actor.require_user()?.clone();
    let text = input.text.trim();
    if text.chars().count() > MOVE_TEXT_LIMIT {
        return Err(AppError::invalid(
            "move",
            Refusal::TooLong {
                max: MOVE_TEXT_LIMIT,
            },
        ));
    }
    if input.ply < 1 {
        return Err(AppError::invalid(
            "ply",
            Refusal::NotBetween {
                min: 1,
                max: i64::from(i32::MAX),
            },
        ));
    }
    if let Some(view) = optimistic::submit(conn, actor, user.id, game_id, input, text)? {
        return Ok(Submitted::Stored(view));
    }
    let outcome = super::write(conn, game_id, |conn, mut loaded| {
        let role = require_role(conn, actor, &loaded.row)?;
        let current = loaded.row.ply;
        if input.ply <= current {
            return resent(&loaded, input.ply, text).map(|()| Locked::Resent);
        }
        let now = conn.now();
        if input.ply == current + 1 && clock::flag_fallen(&loaded.row, now) {
            clock::forfeit_on_time(conn, &mut loaded, now, Some(user.id))?;
            return Ok(Locked::FlagFell(loaded));
        }
        let planned = plan(&mut loaded, role, input, text, now)?;
        stored::insert_move(
            conn,
            game_id,
            input.ply,
            &planned.notation,
            Some(user.id),
            now,
            planned.clock_ms,
        )?;
        loaded.moves.push(stored::MoveRow {
            ply: input.ply,
            notation: planned.notation,
            submitted_by: Some(user.id),
            played_at: now,
            clock_ms: planned.clock_ms,
        });
        super::arbiter::store_state(conn, &mut loaded, planned.state, user.id)?;
        Ok(Locked::Stored(loaded))
    });
    let (loaded, stored_now) = match outcome {
        Ok(Locked::Stored(loaded)) => {
            super::remember(conn, &loaded);
            crate::service::live::game_changed(conn, game_id, loaded.row.event_id);
            (loaded, true)
        }
        Ok(Locked::FlagFell(loaded)) => {
            // The loss on time is stored; the move itself is refused.
            super::remember(conn, &loaded);
            crate::service::live::game_changed(conn, game_id, loaded.row.event_id);
            return Err(AppError::conflict(Refusal::FlagFallen));
        }
        Ok(Locked::Resent) => (super::load(conn, game_id)?, false),
        // Two submissions for one ply that got past the lock together (not possible while
        // the lock holds, but the key is the last word): the loser sees what won.
        Err(AppError::Conflict {
            reason: Refusal::AlreadyExists { .. },
        }) => {
            let loaded = super::load(conn, game_id)?;
            resent(&loaded, input.ply, text)?;
            (loaded, false)
        }
        Err(other) => return Err(other),
    };
    let view = view_of(conn, &loaded)?;
    Ok(if stored_now {
        Submitted::Stored(view)
    } else {
        Submitted::AlreadyStored(view)
    })
}

/// What the locked way of a submission did.
enum Locked {
    Stored(Loaded),
    /// The same move was already stored at that ply.
    Resent,
    /// The mover's time was over: the game is lost on time, the move refused.
    FlagFell(Loaded),
}

/// A move checked and played on a game, not yet stored.
pub(super) struct Planned {
    /// The move in canonical notation.
    pub notation: String,
    /// The mover's remaining time after it (`None`: untimed).
    pub clock_ms: Option<i64>,
    /// The game row's state after it.
    pub state: GameState,
}

impl Planned {
    /// Whether the move ends the game.
    pub fn ends_game(&self) -> bool {
        self.state.status == GameStatus::Finished
    }
}

/// Checks `input` as the next ply of `loaded` by `role` and plays it on `loaded.game`:
/// the refusals of a move that is not next, out of turn, illegal, or an offer not allowed.
pub(super) fn plan(
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
        .map_err(|e| illegal(&loaded.game, e))?;
    let mut state = GameState::of(&loaded.row);
    state.ply = input.ply;
    let clock_ms = clock::after_move(loaded.row.clock, &mut state, mover, now)
        .map_err(|_| AppError::conflict(Refusal::FlagFallen))?;
    // A move by the side an offer was made to answers it: declined.
    if state.draw_offer_pending && state.draw_offer_by != Some(mover) {
        state.draw_offer_pending = false;
    }
    if let Some((result, reason)) = super::verdict(&loaded.game) {
        state.finish(result, reason, now);
    } else if input.offer_draw {
        offers::check_offer(loaded, &state, mover)?;
        state.draw_offer_by = Some(mover);
        state.draw_offer_ply = Some(input.ply);
        state.draw_offer_pending = true;
    }
    Ok(Planned {
        notation: mv.notation(),
        clock_ms,
        state,
    })
}

/// A submission for a ply already stored: the same move again is fine (a resend after a
/// lost answer); another move is refused with the one stored.
fn resent(loaded: &Loaded, ply: i32, text: &str) -> AppResult<()> {
    let stored_move = loaded
        .moves
        .get(ply as usize - 1)
        .ok_or_else(|| AppError::internal("a stored ply is missing"))?;
    if same_move(loaded, ply, text, &stored_move.notation) {
        Ok(())
    } else {
        Err(AppError::conflict(Refusal::PlyTaken {
            ply,
            stored: stored_move.notation.clone(),
        }))
    }
}

/// Whether `text` is the move stored at `ply` in another spelling.
fn same_move(loaded: &Loaded, ply: i32, text: &str, stored_notation: &str) -> bool {
    if text == stored_notation {
        return true;
    }
    let mut before = Game::from_position(*loaded.game.start_position());
    for mv in loaded.moves.iter().take(ply as usize - 1) {
        if before.play_str(&mv.notation).is_err() {
            return false;
        }
    }
    before
        .play_str(text)
        .is_ok_and(|mv| mv.notation() == stored_notation)
}

/// The refusal of an illegal move: the engine's reason and the legal moves.
pub fn illegal(game: &Game, error: MoveError) -> AppError {
    let mut legal: Vec<String> = game.legal_moves().iter().map(|m| m.notation()).collect();
    legal.sort();
    AppError::invalid(
        "move",
        Refusal::IllegalMove {
            reason: Box::new(move_refusal(error)),
            legal_moves: legal,
        },
    )
}

/// The engine's reason as a refusal with its own code.
pub fn move_refusal(error: MoveError) -> Refusal {
    match error {
        MoveError::Empty => Refusal::MoveEmpty,
        MoveError::Malformed { text } => Refusal::MoveMalformed { text },
        MoveError::NotASquare { text } => Refusal::MoveNotASquare { text },
        MoveError::NoPiece { square } => Refusal::MoveNoPiece { square },
        MoveError::NotYourPiece { square } => Refusal::MoveNotYourPiece { square },
        MoveError::CaptureCompulsory { capturers } => Refusal::MoveCaptureCompulsory { capturers },
        MoveError::IllegalPath { text } => Refusal::MoveIllegalPath { text },
        MoveError::Ambiguous { candidates } => Refusal::MoveAmbiguous { candidates },
        MoveError::GameOver => Refusal::GameOver,
    }
}
