//! Archiving and deleting events, player profiles and clubs. What holds nothing others rely
//! on may be deleted; anything else is archived: hidden from the lists, closed to changes,
//! kept whole (standings, crosstables and rating histories still name it) and restorable.
//! Every archiving, restoring and deletion is in the site's trail (`site_changes`), which
//! outlives what it names.
//!
//! What is kept, and why:
//! - an event with rated results (a rating change names it, or it is rated and a board has
//!   a result): the ratings were computed from it. A running event is finished first.
//! - a profile with entries, games, a rating history, an account or profiles merged into it:
//!   other players' records, or a person, point at it.
//! - a club that events name as theirs.
use chrono::NaiveDateTime;

use super::events as service_events;
use super::players::ProfileRights;
use super::{Actor, AppError, AppResult, Refusal, clubs as service_clubs};
pub use crate::store::removals::SiteChangeRow;
use crate::store::removals::{self, NewSiteChange};
use crate::store::{self, DbConn, clubs, events};
use damka_domain::vocabulary::{EventStatus, RemovalAction, RemovalSubject};

/// What a removal would do to one subject, for its confirmation page.
#[derive(Debug, Clone)]
pub struct RemovalView {
    pub subject: RemovalSubject,
    pub id: i64,
    pub name: String,
    /// When it was archived, and by whom (none: not archived).
    pub archived: Option<Archived>,
    /// Why it may not be deleted (archiving is what is left); none: it may be deleted.
    pub kept_because: Option<Refusal>,
    /// Why neither may be done now (a running event); none: both may.
    pub blocked_because: Option<Refusal>,
}

/// When a subject was archived and by whom, as the trail says.
#[derive(Debug, Clone)]
pub struct Archived {
    pub at: NaiveDateTime,
    /// The display name of who archived it; none when that account is gone.
    pub by: Option<String>,
}

/// The subject as it stands, once the actor is known to manage it.
struct Target {
    name: String,
    archived_at: Option<NaiveDateTime>,
    kept_because: Option<Refusal>,
    blocked_because: Option<Refusal>,
}

/// Loads the subject and checks that `actor` manages it: the event's organiser, the
/// profile's managers (`ProfileRights::may_manage`), the club's organisers; and always
/// administrators.
fn target(conn: &mut DbConn, actor: &Actor, subject: RemovalSubject, id: i64) -> AppResult<Target> {
    actor.require_user()?;
    match subject {
        RemovalSubject::Event => {
            let event = service_events::load(conn, id)?;
            service_events::require_manager(actor, &event)?;
            let rated = removals::event_has_rated_results(conn, id, event.rated)?;
            Ok(Target {
                kept_because: rated.then_some(Refusal::EventHasRatedResults),
                blocked_because: (event.status == EventStatus::Running)
                    .then_some(Refusal::EventRunningFinishFirst),
                name: event.name,
                archived_at: event.archived_at,
            })
        }
        RemovalSubject::Player => {
            let player = super::players::live(conn, id)?;
            if !ProfileRights::of(conn, actor)?.may_manage(&player) {
                return Err(AppError::forbidden(Refusal::OnlyProfileManagers));
            }
            let records = removals::player_records(conn, id)?;
            Ok(Target {
                kept_because: (!records.is_empty()).then_some(Refusal::PlayerHasRecords),
                blocked_because: None,
                name: player.name,
                archived_at: player.archived_at,
            })
        }
        RemovalSubject::Club => {
            let club = clubs::by_id(conn, id)?.ok_or(AppError::NotFound { what: "club" })?;
            if !service_clubs::can_edit(conn, actor, id)? {
                return Err(AppError::forbidden(Refusal::OnlyClubOrganisersEdit));
            }
            let count = removals::club_events(conn, id)?;
            Ok(Target {
                kept_because: (count > 0).then_some(Refusal::ClubHasEvents { count }),
                blocked_because: None,
                name: club.name,
                archived_at: club.archived_at,
            })
        }
    }
}

/// What archiving or deleting would do (for those who manage the subject).
pub fn assess(
    conn: &mut DbConn,
    actor: &Actor,
    subject: RemovalSubject,
    id: i64,
) -> AppResult<RemovalView> {
    let target = target(conn, actor, subject, id)?;
    let archived = match target.archived_at {
        Some(at) => Some(Archived {
            at,
            by: archived_by(conn, subject, id)?,
        }),
        None => None,
    };
    Ok(RemovalView {
        subject,
        id,
        name: target.name,
        archived,
        kept_because: target.kept_because,
        blocked_because: target.blocked_because,
    })
}

/// Who archived the subject: the latest `archived` row of the trail about it.
fn archived_by(conn: &mut DbConn, subject: RemovalSubject, id: i64) -> AppResult<Option<String>> {
    Ok(removals::last_change(conn, subject, id)?
        .filter(|row| row.action == RemovalAction::Archived)
        .and_then(|row| row.by))
}

/// Runs `f` on the subject under a write transaction, the event locked first (its writers
/// all take that lock), and records `action` in the trail.
fn change(
    conn: &mut DbConn,
    actor: &Actor,
    subject: RemovalSubject,
    id: i64,
    action: RemovalAction,
    f: impl FnOnce(&mut DbConn, &Target) -> AppResult<()>,
) -> AppResult<()> {
    let user = actor.require_user()?;
    conn.write_transaction(|conn| {
        if subject == RemovalSubject::Event {
            events::lock(conn, id)?.ok_or(AppError::NotFound { what: "event" })?;
        }
        let target = target(conn, actor, subject, id)?;
        f(conn, &target)?;
        let change = NewSiteChange {
            user_id: user.id,
            subject,
            subject_id: id,
            subject_name: &target.name,
            action,
        };
        removals::record_change(conn, &change, store::now())?;
        Ok(())
    })
}

fn set_archived(
    conn: &mut DbConn,
    subject: RemovalSubject,
    id: i64,
    at: Option<NaiveDateTime>,
) -> AppResult<()> {
    match subject {
        RemovalSubject::Event => removals::set_event_archived(conn, id, at)?,
        RemovalSubject::Player => removals::set_player_archived(conn, id, at)?,
        RemovalSubject::Club => removals::set_club_archived(conn, id, at)?,
    }
    Ok(())
}

/// Archives the subject: hidden from the lists and closed to changes, kept whole.
pub fn archive(
    conn: &mut DbConn,
    actor: &Actor,
    subject: RemovalSubject,
    id: i64,
) -> AppResult<()> {
    change(
        conn,
        actor,
        subject,
        id,
        RemovalAction::Archived,
        |conn, target| {
            if let Some(blocked) = &target.blocked_because {
                return Err(AppError::conflict(blocked.clone()));
            }
            if target.archived_at.is_some() {
                return Err(AppError::conflict(Refusal::AlreadyArchived));
            }
            set_archived(conn, subject, id, Some(store::now()))
        },
    )
}

/// Brings an archived subject back into the lists, open to changes again.
pub fn restore(
    conn: &mut DbConn,
    actor: &Actor,
    subject: RemovalSubject,
    id: i64,
) -> AppResult<()> {
    change(
        conn,
        actor,
        subject,
        id,
        RemovalAction::Restored,
        |conn, target| {
            if target.archived_at.is_none() {
                return Err(AppError::conflict(Refusal::NotArchived));
            }
            set_archived(conn, subject, id, None)
        },
    )
}

/// Deletes the subject for good, when it holds nothing others rely on.
pub fn delete(conn: &mut DbConn, actor: &Actor, subject: RemovalSubject, id: i64) -> AppResult<()> {
    change(
        conn,
        actor,
        subject,
        id,
        RemovalAction::Deleted,
        |conn, target| {
            if let Some(blocked) = &target.blocked_because {
                return Err(AppError::conflict(blocked.clone()));
            }
            if let Some(kept) = &target.kept_because {
                return Err(AppError::conflict(kept.clone()));
            }
            match subject {
                RemovalSubject::Event => removals::delete_event(conn, id)?,
                RemovalSubject::Player => removals::delete_player(conn, id)?,
                RemovalSubject::Club => removals::delete_club(conn, id)?,
            }
            Ok(())
        },
    )
}

/// The most rows of the site's trail one page shows.
pub const TRAIL_PAGE: i64 = 100;

/// A page of the site's trail of removals, newest first (administrators).
pub fn trail(
    conn: &mut DbConn,
    actor: &Actor,
    before: Option<i64>,
) -> AppResult<Vec<SiteChangeRow>> {
    actor.require_user()?;
    if !actor.is_admin() {
        return Err(AppError::forbidden(Refusal::OnlyAdministrators));
    }
    Ok(removals::changes(conn, before, TRAIL_PAGE)?)
}
