//! Events: settings, entries, rounds and results, standings. The pairing and tie-break
//! rules live in `damka-domain`; this module loads an event's history from storage, hands
//! it to the domain and stores what comes back.
pub mod audit;
pub mod ballot;
pub mod confirmations;
pub mod entries;
pub mod event_input;
pub mod event_view;
pub mod exports;
pub mod history;
pub mod import;
pub mod invitations;
pub mod manual;
pub mod micro_match;
pub mod overview;
pub mod pairing_system;
pub mod presence;
pub mod reports;
pub mod round_views;
pub mod rounds;
pub mod schedule;
pub mod settings;
pub mod sheets;

pub use crate::store::models::{Event, LocalRules};
pub use event_input::EventInput;
pub use event_view::EventView;

use super::{Actor, AppError, AppResult, Refusal};
use crate::store::{DbConn, events};

pub fn load(conn: &mut DbConn, event_id: i64) -> AppResult<Event> {
    events::by_id(conn, event_id)?.ok_or(AppError::NotFound { what: "event" })
}

/// Runs a write to one event: a write transaction that first locks the event (see
/// `store::events::lock`) and then hands `f` the event as it stands under the lock. Every
/// use case that changes an event, its entries, rounds or results goes through here, so
/// that what it decides on is what it writes over, on one instance or many. An archived
/// event takes no write until it is restored (`service::removals`).
pub fn write<T>(
    conn: &mut DbConn,
    event_id: i64,
    f: impl FnOnce(&mut DbConn, Event) -> AppResult<T>,
) -> AppResult<T> {
    conn.write_transaction(|conn| {
        events::lock(conn, event_id)?.ok_or(AppError::NotFound { what: "event" })?;
        let event = load(conn, event_id)?;
        if event.archived_at.is_some() {
            return Err(AppError::conflict(Refusal::EventArchived));
        }
        f(conn, event)
    })
}

/// How often a planned write is computed again when the event changed while it was being
/// computed, before the caller is told to try again.
const PLAN_ATTEMPTS: usize = 3;

/// A write that needs a long computation first (pairing a round of a thousand players):
/// `plan` runs outside any write transaction, on the event as read, so other users'
/// writes go on meanwhile; `apply` then runs under the event's lock, and only if the event
/// is still at the revision `plan` saw. Otherwise the plan is made again from the new
/// state. `plan` must read the event's other rows after the event row it is given: every
/// write bumps the revision, so an unchanged revision means `plan` saw one consistent state.
pub fn write_planned<P, T>(
    conn: &mut DbConn,
    event_id: i64,
    mut plan: impl FnMut(&mut DbConn, &Event) -> AppResult<P>,
    mut apply: impl FnMut(&mut DbConn, &Event, P) -> AppResult<T>,
) -> AppResult<T> {
    for _ in 0..PLAN_ATTEMPTS {
        let seen = load(conn, event_id)?;
        let planned = plan(conn, &seen)?;
        let applied = write(conn, event_id, |conn, current| {
            if current.revision != seen.revision + 1 {
                return Ok(None);
            }
            apply(conn, &current, planned).map(Some)
        })?;
        if let Some(done) = applied {
            return Ok(done);
        }
    }
    Err(AppError::conflict(Refusal::EventChangedMeanwhile))
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
        Err(AppError::forbidden(Refusal::OnlyEventOrganiser))
    }
}

pub fn require_arbiter(conn: &mut DbConn, actor: &Actor, event: &Event) -> AppResult<()> {
    actor.require_user()?;
    if may_arbitrate(conn, actor, event)? {
        Ok(())
    } else {
        Err(AppError::forbidden(Refusal::OnlyEventOfficials))
    }
}
