//! Events: settings, entries, rounds and results, standings. The pairing and tie-break
//! rules live in `damka-domain`; this module loads an event's history from storage, hands
//! it to the domain and stores what comes back.
pub mod audit;
pub mod entries;
pub mod history;
pub mod import;
pub mod manual;
pub mod reports;
pub mod rounds;
pub mod settings;
pub mod sheets;

pub use settings::{EventInput, EventView, LocalRules};

use super::{Actor, AppError, AppResult};
use crate::store::models::Event;
use crate::store::{DbConn, events};

pub const STATUS_REGISTRATION: &str = "registration";
pub const STATUS_RUNNING: &str = "running";
pub const STATUS_FINISHED: &str = "finished";

pub fn load(conn: &mut DbConn, event_id: i64) -> AppResult<Event> {
    events::by_id(conn, event_id)?.ok_or(AppError::NotFound { what: "event" })
}

/// The organiser who owns the event, or a site administrator.
pub fn may_manage(actor: &Actor, event: &Event) -> bool {
    actor
        .user
        .as_ref()
        .is_some_and(|u| u.is_admin || u.id == event.organiser_id)
}

/// Those who run rounds and enter results: the managers and the event's arbiters.
pub fn may_arbitrate(conn: &mut DbConn, actor: &Actor, event: &Event) -> AppResult<bool> {
    if may_manage(actor, event) {
        return Ok(true);
    }
    let Some(user) = &actor.user else {
        return Ok(false);
    };
    Ok(events::arbiters(conn, event.id)?.contains(&user.id))
}

pub fn require_manager(actor: &Actor, event: &Event) -> AppResult<()> {
    actor.require_user()?;
    if may_manage(actor, event) {
        Ok(())
    } else {
        Err(AppError::forbidden(
            "only this event's organiser may do this",
        ))
    }
}

pub fn require_arbiter(conn: &mut DbConn, actor: &Actor, event: &Event) -> AppResult<()> {
    actor.require_user()?;
    if may_arbitrate(conn, actor, event)? {
        Ok(())
    } else {
        Err(AppError::forbidden(
            "only this event's organiser and arbiters may do this",
        ))
    }
}
