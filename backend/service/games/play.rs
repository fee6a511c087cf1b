//! Submitting a move. The submission names the ply it makes, so a resend is recognised and
//! two clients racing for one ply get one answer each: the game row's lock orders them, and
//! the primary key (game, ply) would refuse a second row even without it.
use damka_engine::Game;

pub use super::move_check::MoveInput;
use super::move_check::plan;
use super::optimistic::{self, Decided};
use super::view::{GameView, view_of};
use super::{Loaded, clock, require_role, time_forfeit};
use crate::service::effects::{self, Effects};
use crate::service::results;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::DbConn;
use crate::store::games as stored;

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
    match optimistic::submit(conn, actor, user.id, game_id, input, text)? {
        Decided::Stored(view) => return Ok(Submitted::Stored(*view)),
        Decided::Refused(refusal) => return Err(refusal),
        Decided::Locked => {}
    }
    let outcome = super::write(conn, game_id, |conn, mut loaded| {
        let role = require_role(conn, actor, &loaded.row)?;
        let current = loaded.row.ply;
        if input.ply <= current {
            return resent(&loaded, input.ply, text).map(|()| Locked::Resent);
        }
        let now = conn.now();
        let mut effects = Effects::none();
        if input.ply == current + 1 && clock::flag_fallen(&loaded.row, now) {
            time_forfeit::forfeit_on_time(conn, &mut loaded, now, Some(user.id), &mut effects)?;
            return Ok(Locked::FlagFell(loaded, effects));
        }
        let planned = plan(&mut loaded, role, input, text, now)?;
        let offer_refused = planned.offer_refused;
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
        results::game::store_state(conn, &mut loaded, planned.state, user.id, &mut effects)?;
        Ok(Locked::Stored(loaded, effects, offer_refused))
    });
    let mut offer_refused = None;
    let (loaded, stored_now) = match outcome {
        Ok(Locked::Stored(loaded, effects, refused)) => {
            super::remember(conn, &loaded);
            effects::apply(conn, effects);
            offer_refused = refused;
            (loaded, true)
        }
        Ok(Locked::FlagFell(loaded, effects)) => {
            // The loss on time is stored; the move itself is refused.
            super::remember(conn, &loaded);
            effects::apply(conn, effects);
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
    let mut view = view_of(conn, &loaded)?;
    view.draw_offer_refused = offer_refused;
    Ok(if stored_now {
        Submitted::Stored(view)
    } else {
        Submitted::AlreadyStored(view)
    })
}

/// What the locked way of a submission did, with what it changed.
enum Locked {
    /// Stored, with the draw offer sent with the move if it was not made.
    Stored(Loaded, Effects, Option<Refusal>),
    /// The same move was already stored at that ply.
    Resent,
    /// The mover's time was over: the game is lost on time, the move refused.
    FlagFell(Loaded, Effects),
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
