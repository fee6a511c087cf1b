//! A casual game offered from the browser: the signed-in player against an opponent of
//! their choosing, on the colour they asked for. The game is created at once through
//! `create::create`, the use case the API calls, so the rules are the same for both.
use damka_domain::clock::TimeControl;
use damka_engine::Variant;

use super::create::{self, NewGameInput};
use super::view::GameView;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::{DbConn, players};

/// The side the challenger asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourChoice {
    White,
    Black,
    /// Drawn by lot when the game is created.
    Random,
}

/// Who is challenged: a profile chosen from a list, or a name typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opponent {
    Id(i64),
    Name(String),
}

#[derive(Debug, Clone)]
pub struct ChallengeInput {
    pub opponent: Option<Opponent>,
    pub variant: Variant,
    pub rated: bool,
    pub clock: TimeControl,
    pub colour: ColourChoice,
}

/// The challenger's own profile, refused (403) when the account has none.
pub fn own_profile(actor: &Actor) -> AppResult<i64> {
    actor
        .require_user()?
        .player_id
        .ok_or_else(|| AppError::forbidden(Refusal::NoProfileToPlay))
}

/// The one live profile called `name` (folded as the search folds names).
pub fn named(conn: &mut DbConn, name: &str) -> AppResult<i64> {
    let found = players::live_named(conn, name)?;
    match found.as_slice() {
        [one] => Ok(one.id),
        [] => Err(AppError::invalid(
            "opponent_name",
            Refusal::NoPlayerNamed {
                name: name.trim().to_string(),
            },
        )),
        many => Err(AppError::invalid(
            "opponent_name",
            Refusal::SeveralPlayersNamed {
                name: name.trim().to_string(),
                count: many.len(),
            },
        )),
    }
}

/// Creates the game between the challenger and the opponent (`POST /games` of the pages).
pub fn challenge(conn: &mut DbConn, actor: &Actor, input: &ChallengeInput) -> AppResult<GameView> {
    let me = own_profile(actor)?;
    let opponent = match &input.opponent {
        Some(Opponent::Id(id)) => *id,
        Some(Opponent::Name(name)) => named(conn, name)?,
        None => return Err(AppError::invalid("opponent", Refusal::OpponentMissing)),
    };
    let white = match input.colour {
        ColourChoice::White => true,
        ColourChoice::Black => false,
        ColourChoice::Random => rand::random::<bool>(),
    };
    let (white_player_id, black_player_id) = if white {
        (me, opponent)
    } else {
        (opponent, me)
    };
    create::create(
        conn,
        actor,
        &NewGameInput {
            variant: input.variant,
            white_player_id,
            black_player_id,
            rated: input.rated,
            draw_offer_min_moves: None,
            local_rules: None,
            clock: input.clock,
        },
    )
}
