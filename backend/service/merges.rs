//! Merging two profiles of one person: everything of the merged profile (entries, games
//! and so results, claims, links, the account, starting ratings) moves to the survivor,
//! the merge is in both profiles' audit, and the merged id answers `player_merged` from
//! then on. The ratings are recomputed from the moved games after the commit, like after
//! any result (`effects::apply`).
use damka_domain::vocabulary::PlayerChangeAction;
use serde::Deserialize;

use super::effects::{self, Effects};
use super::players::{self, PlayerView, ProfileRights};
use super::{Actor, AppError, AppResult, Refusal};
use crate::store::claims::{self as audit, NewChange};
use crate::store::{self, DbConn, accounts, merges};

/// What `POST /players/{id}/merge` sends: the profile that stays.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct MergeInput {
    /// The id of the profile the merged one goes into (the one that stays).
    pub into: i64,
}

/// Merges profile `from` into profile `into`: administrators, or an organiser who manages
/// both. Refused when both played in one event (two people, not one) and when both have
/// an account.
pub fn merge(
    conn: &mut DbConn,
    actor: &Actor,
    from: i64,
    input: &MergeInput,
) -> AppResult<PlayerView> {
    let user = actor.require_user()?;
    let into = input.into;
    if from == into {
        return Err(AppError::invalid("into", Refusal::MergeIntoItself));
    }
    let effects = conn.write_transaction(|conn| {
        // Who may is asked first, so that a merged id tells nobody else more than a 403.
        let merged =
            store::players::by_id(conn, from)?.ok_or(AppError::NotFound { what: "player" })?;
        let survivor =
            store::players::by_id(conn, into)?.ok_or(AppError::NotFound { what: "player" })?;
        let rights = ProfileRights::of(conn, actor)?;
        if !(rights.may_manage(&merged) && rights.may_manage(&survivor)) {
            return Err(AppError::forbidden(Refusal::OnlyManagersOfBothMerge));
        }
        players::live(conn, from)?;
        players::live(conn, into)?;
        if let Some(event) = merges::shared_event(conn, from, into)? {
            return Err(AppError::conflict(Refusal::SameEvent { event }));
        }
        if accounts::user_by_player(conn, from)?.is_some()
            && accounts::user_by_player(conn, into)?.is_some()
        {
            return Err(AppError::conflict(Refusal::BothProfilesHaveAccounts));
        }
        merges::move_rows(conn, from, into)?;
        merges::move_ratings(conn, from, into)?;
        merges::mark_merged(conn, from, into)?;
        let now = store::now();
        for (player_id, action, other) in [
            (from, PlayerChangeAction::MergedInto, into),
            (into, PlayerChangeAction::MergedFrom, from),
        ] {
            let change = NewChange {
                player_id,
                user_id: user.id,
                action,
                other_player_id: Some(other),
                account_id: None,
            };
            audit::record_change(conn, &change, now)?;
        }
        // The moved games count for the survivor now: every variant is recomputed (the
        // mark is the last lock this write takes).
        let mut effects = Effects::none();
        effects.players_merged(conn, from, into)?;
        Ok(effects)
    })?;
    effects::apply(conn, effects);
    players::get(conn, into)
}
