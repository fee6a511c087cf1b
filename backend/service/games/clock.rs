//! Game clocks kept by the server: what a stored game's clocks say now, and what a move, a
//! finish, a takeback and an arbiter's start do to them (no writes here: the loss on time
//! is `time_forfeit`, an arbiter's start `clock_start`). Only stored numbers are used (`damka_domain::clock`), with the time from
//! the database's time source (`DbConn::now`), so every instance agrees and tests run on a
//! fake clock.
use chrono::{DateTime, NaiveDateTime};
use damka_domain::clock::{Clocks, FlagFell, Side, TimeControl};
use damka_engine::Color;
use serde::Serialize;

use super::Loaded;
use crate::store::games::{GameRow, GameState};
use damka_domain::vocabulary::GameStatus;

/// A game's clock as the API shows it, as of the answer's time.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ClockView {
    /// `fischer` or `per_move`.
    pub kind: &'static str,
    /// Fischer: the base time; per move: the time for each move.
    pub base_s: u32,
    /// Fischer: added after each timed move.
    pub increment_s: u32,
    pub white_ms: i64,
    pub black_ms: i64,
    /// Whether the side to move's clock runs.
    pub running: bool,
}

pub fn millis(at: NaiveDateTime) -> i64 {
    at.and_utc().timestamp_millis()
}

fn instant(ms: i64) -> NaiveDateTime {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .naive_utc()
}

pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// The clocks a state holds; `None` for an untimed game.
pub fn clocks_of(state: &GameState) -> Option<Clocks> {
    Some(Clocks {
        white_ms: state.white_ms?,
        black_ms: state.black_ms?,
        deadline_ms: state.deadline.map(millis),
    })
}

pub fn set_clocks(state: &mut GameState, clocks: Clocks) {
    state.white_ms = Some(clocks.white_ms);
    state.black_ms = Some(clocks.black_ms);
    state.deadline = clocks.deadline_ms.map(instant);
}

/// The clock of a game as of `now`; `None` for an untimed game.
pub fn view(row: &GameRow, to_move: Color, now: NaiveDateTime) -> Option<ClockView> {
    let clocks = clocks_of(&GameState::of(row))?;
    let running = row.status == GameStatus::Ongoing && clocks.running();
    let now = millis(now);
    let to_move = side(to_move);
    let left = |side: Side| {
        if running {
            clocks.remaining_ms(side, to_move, now)
        } else {
            clocks.stored_ms(side)
        }
    };
    Some(ClockView {
        kind: row.clock.kind(),
        base_s: row.clock.base_s(),
        increment_s: row.clock.increment_s(),
        white_ms: left(Side::White),
        black_ms: left(Side::Black),
        running,
    })
}

/// Whether the side to move of an ongoing game has run out of time at `now`.
pub fn flag_fallen(row: &GameRow, now: NaiveDateTime) -> bool {
    row.status == GameStatus::Ongoing
        && clocks_of(&GameState::of(row)).is_some_and(|c| c.flag_fallen(millis(now)))
}

/// A move by `mover` at `now` on the clocks of `state`: the mover's time after it (for the
/// move's row), or the flag fall that refuses it.
pub fn after_move(
    control: TimeControl,
    state: &mut GameState,
    mover: Color,
    now: NaiveDateTime,
) -> Result<Option<i64>, FlagFell> {
    let Some(clocks) = clocks_of(state) else {
        return Ok(None);
    };
    let after = clocks.after_move(control, side(mover), millis(now))?;
    set_clocks(state, after);
    Ok(Some(after.stored_ms(side(mover))))
}

/// Keeps the clocks in step with a state change made under the game's lock: a game that
/// ends stops them (the side to move keeps what it had left); a game that goes on again
/// (a result cleared) restarts the side to move's clock if its opponent has moved.
pub fn settle(state: &mut GameState, row: &GameRow, to_move: Color, now: NaiveDateTime) {
    let Some(clocks) = clocks_of(state) else {
        return;
    };
    let now = millis(now);
    if state.status == GameStatus::Finished {
        if clocks.running() {
            set_clocks(state, clocks.stopped(side(to_move), now));
        }
    } else if row.status == GameStatus::Finished && state.ply > row.opening_plies {
        set_clocks(state, clocks.started(side(to_move), now));
    }
}

/// The clocks after a takeback to `loaded`'s moves: each side has what it had after its
/// last remaining move (its base time before any), and the side to move's clock runs again
/// if its opponent has moved.
pub fn after_takeback(state: &mut GameState, loaded: &Loaded, now: NaiveDateTime) {
    let Some(start) = loaded.row.clock.start() else {
        return;
    };
    let first_mover = loaded.game.start_position().side_to_move();
    let mut clocks = start;
    for mv in &loaded.moves {
        let mover = super::mover_of_ply(first_mover, mv.ply);
        if let Some(ms) = mv.clock_ms {
            match mover {
                Color::White => clocks.white_ms = ms,
                Color::Black => clocks.black_ms = ms,
            }
        }
    }
    if state.status == GameStatus::Ongoing && state.ply > loaded.row.opening_plies {
        clocks = clocks.started(side(loaded.game.side_to_move()), millis(now));
    }
    set_clocks(state, clocks);
}
