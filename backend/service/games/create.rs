//! Standalone games: a club evening's game between two players, outside any event, rated
//! or not. Either player or an organiser creates one; the creating organiser is its
//! arbiter.
use damka_domain::clock::TimeControl;
use damka_engine::{Position, Variant};
use serde::Deserialize;

use super::engine_rules;
use super::view::{GameView, get};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::games::{self as stored, NewGame};
use crate::store::models::LocalRules;
use crate::store::time_control::{self, TimeControlJson};
use crate::store::{self, DbConn, players};
use damka_domain::vocabulary::spelled;

/// The draw-offer minimum when none is given (RULES.md: 20 moves each).
pub const DEFAULT_DRAW_OFFER_MIN_MOVES: i32 = 20;

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct NewGameInput {
    /// `russian`, `english`, `international` or `brazilian`.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub variant: Variant,
    pub white_player_id: i64,
    pub black_player_id: i64,
    #[serde(default)]
    pub rated: bool,
    /// Moves each side must have made before a draw may be offered (default 20; 0: any
    /// time).
    #[serde(default)]
    pub draw_offer_min_moves: Option<i32>,
    #[serde(default)]
    pub local_rules: Option<LocalRules>,
    /// The clock (absent: none). The first move is not timed; each side's clock starts
    /// once the opponent has moved, or when the game's arbiter starts it.
    #[serde(default, with = "time_control::json")]
    #[schema(value_type = TimeControlJson)]
    pub clock: TimeControl,
}

/// Checks local rules given by a user (an event's or a game's).
pub fn check_local_rules(rules: &LocalRules) -> AppResult<()> {
    if let Some(choice) = &rules.capture_choice
        && !matches!(choice.as_str(), "free" | "maximum")
    {
        return Err(AppError::invalid(
            "capture_choice",
            Refusal::not_one_of(&["free", "maximum"]),
        ));
    }
    for (field, value) in [
        ("no_progress_limit", rules.no_progress_limit),
        ("move_limit", rules.move_limit),
        ("lone_kings_limit", rules.lone_kings_limit),
    ] {
        if let Some(value) = value
            && !(1..=1000).contains(&value)
        {
            return Err(AppError::invalid(
                field,
                Refusal::NotBetween { min: 1, max: 1000 },
            ));
        }
    }
    Ok(())
}

pub fn check_draw_offer_min_moves(moves: i32) -> AppResult<()> {
    if (0..=200).contains(&moves) {
        Ok(())
    } else {
        Err(AppError::invalid(
            "draw_offer_min_moves",
            Refusal::NotBetween { min: 0, max: 200 },
        ))
    }
}

/// The FEN of the variant's start position under `rules`.
pub fn start_fen(variant: Variant, local: &LocalRules) -> String {
    Position::start(engine_rules(variant, local)).to_fen()
}

/// Creates a standalone game (`POST /games`).
pub fn create(conn: &mut DbConn, actor: &Actor, input: &NewGameInput) -> AppResult<GameView> {
    let user = actor.require_user()?;
    let local_rules = input.local_rules.clone().unwrap_or_default();
    check_local_rules(&local_rules)?;
    let min_moves = input
        .draw_offer_min_moves
        .unwrap_or(DEFAULT_DRAW_OFFER_MIN_MOVES);
    check_draw_offer_min_moves(min_moves)?;
    if input.white_player_id == input.black_player_id {
        return Err(AppError::invalid(
            "black_player_id",
            Refusal::SamePlayerBothSides,
        ));
    }
    for (field, id) in [
        ("white_player_id", input.white_player_id),
        ("black_player_id", input.black_player_id),
    ] {
        match players::by_id(conn, id)? {
            None => return Err(AppError::invalid(field, Refusal::NoSuchPlayer)),
            Some(player) => crate::service::archived::require_player_not_archived(&player)?,
        }
    }
    let plays = user
        .player_id
        .is_some_and(|p| p == input.white_player_id || p == input.black_player_id);
    if !(plays || user.is_organiser || user.is_admin) {
        return Err(AppError::forbidden(
            Refusal::OnlyPlayersOrOrganisersCreateGames,
        ));
    }
    let id = conn.write_transaction(|conn| {
        stored::insert(
            conn,
            &NewGame {
                variant: input.variant,
                start_fen: start_fen(input.variant, &local_rules),
                local_rules: local_rules.clone(),
                white_player_id: input.white_player_id,
                black_player_id: input.black_player_id,
                event_id: None,
                pairing_id: None,
                game_no: 1,
                rated: input.rated,
                draw_offer_min_moves: min_moves,
                created_by: user.id,
                created_at: store::now(),
                clock: input.clock,
            },
        )
        .map_err(AppError::from)
    })?;
    get(conn, id)
}
