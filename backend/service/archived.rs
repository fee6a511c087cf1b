//! The guards of what archiving closes (`service::removals`): an archived profile is
//! entered in nothing new and plays no new game; an archived club takes no new members or
//! events. Apart from `removals` so that the use cases it reads (players, clubs) can call
//! them without an import circle.
use super::{AppError, AppResult, Refusal};
use crate::store::{DbConn, clubs, models::Player};

/// Refuses a change to an archived profile (entering it, a new game, an edit).
pub fn require_player_not_archived(player: &Player) -> AppResult<()> {
    match player.archived_at {
        Some(_) => Err(AppError::conflict(Refusal::PlayerArchived)),
        None => Ok(()),
    }
}

/// Refuses a new member or a new event of an archived club.
pub fn require_club_not_archived(conn: &mut DbConn, club_id: i64) -> AppResult<()> {
    match clubs::by_id(conn, club_id)? {
        Some(club) if club.archived_at.is_some() => Err(AppError::conflict(Refusal::ClubArchived)),
        _ => Ok(()),
    }
}
