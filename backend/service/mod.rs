//! Use cases: one function per thing a user does, called by both the HTML and the JSON
//! handlers so the two faces never drift. Each takes a connection and the acting user,
//! checks permissions, validates, and runs its writes in one transaction.
pub mod accounts;
pub mod archived;
pub mod auth;
pub mod claims;
pub mod club_bulk;
pub mod clubs;
pub mod csv_cell;
pub mod effects;
pub mod error;
pub mod events;
pub mod game_pages;
pub mod games;
pub mod live;
pub mod merges;
pub mod paging;
pub mod password_limits;
pub mod player_games;
pub mod players;
pub mod ratings;
pub mod refusal;
pub mod removals;
pub mod results;
pub mod start_here;
pub mod tables;
pub mod time_zone;
pub mod token;
pub mod utc_json;
pub mod validate;

pub use error::{AppError, AppResult};
pub use refusal::Refusal;

/// The connection a use case runs on, as the web layer hands it over.
pub use crate::store::DbConn;
/// An account as every layer above the store sees it.
pub use crate::store::models::User;

/// Who is acting: a signed-in user (by session cookie or API token) or nobody.
#[derive(Debug, Clone, Default)]
pub struct Actor {
    pub user: Option<User>,
}

impl Actor {
    pub fn anonymous() -> Actor {
        Actor { user: None }
    }

    pub fn signed_in(user: User) -> Actor {
        Actor { user: Some(user) }
    }

    pub fn require_user(&self) -> AppResult<&User> {
        self.user.as_ref().ok_or(AppError::Unauthenticated)
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.is_admin)
    }

    pub fn is_organiser(&self) -> bool {
        self.user
            .as_ref()
            .is_some_and(|u| u.is_organiser || u.is_admin)
    }

    pub fn require_admin(&self) -> AppResult<&User> {
        let user = self.require_user()?;
        if user.is_admin {
            Ok(user)
        } else {
            Err(AppError::forbidden(Refusal::OnlyAdministrators))
        }
    }
}
