//! Ratings: the two systems computed from results (`recompute`), the lists, histories and
//! event summaries read from what is stored (`views`), starting ratings carried over from
//! another list (`import`), and the site's choice of system (here).
//!
//! Starting ratings. `player_ratings` (player, variant, rating, games) held typed-in
//! ratings before ratings were computed; TRF imports fill it with the federation rating
//! of the file. It is kept as exactly that: the Elo rating a player arrived with, where
//! their Elo starts instead of "unrated" (FIDE's rules need rated opponents, so a club
//! moving to damka brings its list). Glicko-2 starts are `glicko2_starts`. Both are
//! written only by imports (TRF, the ratings CSV); what lists, profiles and seeding show
//! is always the computed rating.
pub mod counted;
pub mod derive;
pub mod import;
pub mod recompute;
pub mod refold;
pub mod views;
pub mod worker;

use damka_engine::Variant;

use super::{Actor, AppResult};
use crate::store::{DbConn, ratings as stored, settings};
use damka_domain::vocabulary::{RatingSystem, Spelling};

/// Site setting: the system rating lists show first.
pub const SETTING_LIST_SYSTEM: &str = "ratings.list_system";
/// Site setting: the system whose ratings seed events (an entry's starting rating).
pub const SETTING_SEEDING_SYSTEM: &str = "ratings.seeding_system";

/// The federation Elo unless the administrator chose otherwise: clubs carry their
/// federation's list over, and events are seeded by it.
const DEFAULT_SYSTEM: RatingSystem = RatingSystem::Elo;

fn system_setting(conn: &mut DbConn, key: &str) -> AppResult<RatingSystem> {
    Ok(settings::get(conn, key)?
        .and_then(|text| RatingSystem::from_spelling(&text))
        .unwrap_or(DEFAULT_SYSTEM))
}

/// The site's choice of systems.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
pub struct SystemChoice {
    /// Which list pages and the API show when no system is asked for: `elo` or `glicko2`.
    #[schema(value_type = String)]
    pub list_system: RatingSystem,
    /// Whose ratings an entry gets as its starting rating: `elo` or `glicko2`.
    #[schema(value_type = String)]
    pub seeding_system: RatingSystem,
}

pub fn system_choice(conn: &mut DbConn) -> AppResult<SystemChoice> {
    Ok(SystemChoice {
        list_system: system_setting(conn, SETTING_LIST_SYSTEM)?,
        seeding_system: system_setting(conn, SETTING_SEEDING_SYSTEM)?,
    })
}

/// Sets the site's choice (administrators).
pub fn set_system_choice(conn: &mut DbConn, actor: &Actor, choice: SystemChoice) -> AppResult<()> {
    actor.require_admin()?;
    conn.write_transaction(|conn| {
        settings::set(conn, SETTING_LIST_SYSTEM, choice.list_system.spelling())?;
        settings::set(
            conn,
            SETTING_SEEDING_SYSTEM,
            choice.seeding_system.spelling(),
        )?;
        Ok(())
    })
}

/// The rating an entry starts with: the player's current rating in the seeding system,
/// rounded as lists show it; none for a player without one (an Elo player short of a
/// first rating, a player who never played the variant).
pub fn seeding_rating(
    conn: &mut DbConn,
    player_id: i64,
    variant: Variant,
) -> AppResult<Option<i32>> {
    let system = system_setting(conn, SETTING_SEEDING_SYSTEM)?;
    Ok(stored::current(conn, player_id, variant, system)?
        .and_then(|row| row.rating)
        .map(|rating| rating.round() as i32))
}
