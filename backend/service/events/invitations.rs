//! Invitation links to an event: its managers make a link and send it to the people they
//! want; whoever opens it (signed in, with a profile) enters themselves with the rules of
//! an organiser's entry, even while the event's open self-registration is off. A link may
//! be used by many (a group) until it is revoked; each use is recorded for the managers.
//! Only the hash of a code is stored; the code is shown once, to the manager who made it.
use std::collections::HashMap;

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize};

use super::entries::{self, EntryView};
use super::{load, require_manager};
use crate::service::auth::{self, token_hash};
use crate::service::{Actor, AppError, AppResult, Refusal, validate};
use crate::store::models::EventInvitation;
use crate::store::{self, DbConn, event_invitations as stored, events};
use damka_domain::vocabulary::EventStatus;

/// The longest organiser's note on a link.
pub const LABEL_MAX_CHARS: usize = 100;

/// Random bytes in a code (32 characters of URL-safe base64).
const CODE_BYTES: usize = 24;

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct InvitationInput {
    /// The organiser's note on the link ("club night group"); may be empty.
    #[serde(default)]
    pub label: String,
}

/// A link just made: its code, here and nowhere else.
#[derive(Debug, Clone)]
pub struct CreatedInvitation {
    pub id: i64,
    pub event_id: i64,
    pub label: String,
    pub code: String,
}

/// One player who joined through a link.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct InvitationUseView {
    pub player_id: i64,
    pub player_name: String,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub used_at: NaiveDateTime,
}

/// A link as its event's managers see it (never its code).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct InvitationView {
    pub id: i64,
    pub label: String,
    /// The display name of the account that made it.
    pub created_by: String,
    #[serde(serialize_with = "crate::service::utc_json::at")]
    pub created_at: NaiveDateTime,
    /// The display name of the account that revoked it; none while it works.
    pub revoked_by: Option<String>,
    #[serde(serialize_with = "crate::service::utc_json::optional")]
    pub revoked_at: Option<NaiveDateTime>,
    /// How many players joined through it.
    pub uses: i32,
    /// Who joined through it, and when, in that order.
    pub joined: Vec<InvitationUseView>,
}

/// A manager makes a link to the event (not to a finished one).
pub fn create(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    input: &InvitationInput,
) -> AppResult<CreatedInvitation> {
    let user = actor.require_user()?;
    let label = validate::optional("label", &input.label, LABEL_MAX_CHARS)?;
    let code = auth::random_token(CODE_BYTES);
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if event.status == EventStatus::Finished {
            return Err(AppError::conflict(Refusal::EventFinished));
        }
        let made = stored::insert(
            conn,
            event.id,
            &token_hash(&code),
            &label,
            user.id,
            store::now(),
        )?;
        Ok(CreatedInvitation {
            id: made.id,
            event_id: event.id,
            label: made.label,
            code,
        })
    })
}

/// The event's links, oldest first, with who joined through each: its managers only.
pub fn list(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<Vec<InvitationView>> {
    let event = load(conn, event_id)?;
    require_manager(actor, &event)?;
    let links = stored::of_event(conn, event_id)?;
    let mut accounts: Vec<i64> = links
        .iter()
        .flat_map(|l| std::iter::once(l.created_by).chain(l.revoked_by))
        .collect();
    accounts.sort_unstable();
    accounts.dedup();
    let names: HashMap<i64, String> = stored::user_names(conn, &accounts)?.into_iter().collect();
    let mut joined: HashMap<i64, Vec<InvitationUseView>> = HashMap::new();
    for (link, player_id, player_name, used_at) in stored::uses_in_event(conn, event_id)? {
        joined.entry(link).or_default().push(InvitationUseView {
            player_id,
            player_name,
            used_at,
        });
    }
    let name_of = |id: i64| names.get(&id).cloned().unwrap_or_default();
    Ok(links
        .into_iter()
        .map(|link| InvitationView {
            created_by: name_of(link.created_by),
            revoked_by: link.revoked_by.map(name_of),
            joined: joined.remove(&link.id).unwrap_or_default(),
            id: link.id,
            label: link.label,
            created_at: link.created_at,
            revoked_at: link.revoked_at,
            uses: link.uses,
        })
        .collect())
}

/// A manager revokes a link: its code no longer works. Revoking it again changes nothing.
pub fn revoke(conn: &mut DbConn, actor: &Actor, event_id: i64, id: i64) -> AppResult<()> {
    let user = actor.require_user()?;
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if !stored::revoke(conn, event.id, id, user.id, store::now())? {
            return Err(AppError::NotFound { what: "invitation" });
        }
        Ok(())
    })
}

/// The working link of `code` to the event `event_id`. A code of no link, of a revoked
/// one or of another event's is not found: a code that no longer works tells nothing.
fn working_link(conn: &mut DbConn, event_id: i64, code: &str) -> AppResult<EventInvitation> {
    stored::by_hash(conn, &token_hash(code.trim()))?
        .filter(|link| link.event_id == event_id && link.revoked_at.is_none())
        .ok_or(AppError::NotFound { what: "invitation" })
}

/// What a link's page shows before anyone joins.
#[derive(Debug, Clone)]
pub struct InvitationTarget {
    pub event_id: i64,
    pub event_name: String,
    /// Why the event takes no entry now (finished, started round-robin, late entries
    /// over); none while the link can be used.
    pub closed: Option<Refusal>,
    /// The viewer's own profile is entered already.
    pub already_entered: bool,
}

/// The event of a working link, as its page shows it to `actor`.
pub fn target(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    code: &str,
) -> AppResult<InvitationTarget> {
    working_link(conn, event_id, code)?;
    let event = load(conn, event_id)?;
    let paired = events::rounds(conn, event_id)?.len() as i32;
    let closed = entries::closed_to_entries(&event, paired);
    let already_entered = match actor.user.as_ref().and_then(|u| u.player_id) {
        Some(own) => events::entries(conn, event_id)?
            .iter()
            .any(|e| e.player_id == own),
        None => false,
    };
    Ok(InvitationTarget {
        event_id,
        event_name: event.name,
        closed,
        already_entered,
    })
}

/// The signed-in account's own profile joins the event through a working link of it.
pub fn join(conn: &mut DbConn, actor: &Actor, event_id: i64, code: &str) -> AppResult<EntryView> {
    let user = actor.require_user()?;
    super::write(conn, event_id, |conn, event| {
        let link = working_link(conn, event.id, code)?;
        let Some(own) = user.player_id else {
            return Err(AppError::invalid("player_id", Refusal::NoProfileToEnter));
        };
        let entry = entries::enter(conn, &event, own)?;
        stored::record_use(conn, link.id, own, user.id, store::now())?;
        Ok(entry)
    })
}
