//! The results path, and what follows a committed write. Read this first.
//!
//! Every way a game's state or a result changes goes through one path, inside one
//! transaction: a move (also one that ends the game), a resignation, a draw agreed, a flag
//! fall, an arbiter's result or takeback, a result typed on a board, a forfeit, a PDN or
//! TRF import, a correction after the event is reopened.
//!
//! ```text
//!   games::play, offers, arbiter, time_forfeit, pdn::import    events::rounds (typed results)
//!          │ lock the game (then the event: the order every write keeps)     │ lock the event
//!          ▼                                                                  │
//!   results::game::store_state   the game's new state; a changed result ──┐   │
//!                                                                         ▼   ▼
//!   results::board::record_*     the board's (or a micro-match game's) result and its audit
//!                                row; "the ratings of variant V are stale"
//! ```
//!
//! Nothing in that path notifies anyone or computes a rating. It says what it caused as
//! an [`Effects`] value (game G changed, event E changed, the ratings of variant V must be
//! refolded from instant T; the last is stored in the same transaction: the changed
//! counted results in `rated_results` and a request in `rating_requests`, see
//! `ratings::counted` and `ratings::refold`). The use case carries the effects out of its
//! transaction and, after the commit, hands them to [`apply`], the one place where
//!
//! 1. the requested ratings are refolded from their first affected instant, one bounded
//!    window before the answer is sent (a result in the running event needs only that,
//!    so whoever reads ratings after it reads them current), the rest by the background
//!    worker (`ratings::worker`) in windows of their own, then
//! 2. live watchers are told (`live::game_changed`, `live::event_changed`), so what they
//!    read again already has the new ratings.
//!
//! A process that stops between the commit and `apply` leaves its request behind; the
//! worker of the next start (or of another instance) takes it.
use damka_engine::Variant;

use super::AppResult;
use super::live;
use super::ratings::{counted, recompute, refold};
use crate::store::ratings::Scope;
use crate::store::{DbConn, rated_results, rating_catchup};

/// What a write changed, to be applied after its commit by [`apply`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[must_use = "effects are applied after the commit (effects::apply)"]
pub struct Effects {
    /// Games that changed, with the event each belongs to.
    games: Vec<(i64, Option<i64>)>,
    /// Events whose current round changed without one of their games changing.
    events: Vec<i64>,
    /// Variants whose ratings must be refolded (already requested in the database).
    stale_ratings: Vec<Variant>,
}

impl Effects {
    /// Nothing changed (yet).
    pub fn none() -> Effects {
        Effects::default()
    }

    /// Game `game_id` (of event `event_id`, if any) changed.
    pub fn game(game_id: i64, event_id: Option<i64>) -> Effects {
        let mut effects = Effects::none();
        effects.game_changed(game_id, event_id);
        effects
    }

    /// An event's round changed without one of its games changing.
    pub fn event(event_id: i64) -> Effects {
        let mut effects = Effects::none();
        effects.event_changed(event_id);
        effects
    }

    pub fn game_changed(&mut self, game_id: i64, event_id: Option<i64>) {
        if !self.games.contains(&(game_id, event_id)) {
            self.games.push((game_id, event_id));
        }
    }

    pub fn event_changed(&mut self, event_id: i64) {
        if !self.events.contains(&event_id) {
            self.events.push(event_id);
        }
    }

    /// What counts for the variant's ratings may have changed in `scope` (a board's
    /// result, an event's rated flag, an import, a standalone game's end). Call inside the
    /// write: it stores the difference in the fold's input and, when there is one, asks
    /// for the ratings to be refolded from the first instant it affects. Cheap: it reads
    /// the scope, never the variant.
    pub fn results_changed(
        &mut self,
        conn: &mut DbConn,
        variant: Variant,
        scope: Scope,
    ) -> AppResult<()> {
        if let Some(from) = counted::sync(conn, variant, scope)? {
            self.refold_from(conn, variant, from)?;
        }
        Ok(())
    }

    /// Asks for the variant's ratings to be refolded from `from`, inside the write.
    fn refold_from(
        &mut self,
        conn: &mut DbConn,
        variant: Variant,
        from: chrono::NaiveDateTime,
    ) -> AppResult<()> {
        rating_catchup::request(conn, variant, from)?;
        if !self.stale_ratings.contains(&variant) {
            self.stale_ratings.push(variant);
        }
        Ok(())
    }

    /// A player's birth year changed: the Elo K factor reads it, from their first result.
    pub fn birth_year_changed(&mut self, conn: &mut DbConn, player: i64) -> AppResult<()> {
        for variant in Variant::ALL {
            if let Some(first) = rated_results::first_of_player(conn, variant, player)? {
                self.refold_from(conn, variant, first)?;
            }
        }
        Ok(())
    }

    /// A player's imported start in the variant changed: where they stand without results
    /// at once, and their ratings from their first result on.
    pub fn start_changed(
        &mut self,
        conn: &mut DbConn,
        variant: Variant,
        player: i64,
    ) -> AppResult<()> {
        refold::refresh_player(conn, variant, player)?;
        if let Some(first) = rated_results::first_of_player(conn, variant, player)? {
            self.refold_from(conn, variant, first)?;
        }
        Ok(())
    }

    /// Player `from`'s results now belong to `into` (a merge, after its rows moved).
    pub fn players_merged(&mut self, conn: &mut DbConn, from: i64, into: i64) -> AppResult<()> {
        let mut scopes: Vec<(Variant, Scope)> = Vec::new();
        for (variant, standalone, source, event) in rated_results::sources_of_player(conn, from)? {
            let scope = match (standalone, event) {
                (false, Some(event)) => Scope::Event(event),
                _ => Scope::Game(source),
            };
            if !scopes.contains(&(variant, scope)) {
                scopes.push((variant, scope));
            }
        }
        for (variant, scope) in scopes {
            self.results_changed(conn, variant, scope)?;
        }
        for variant in Variant::ALL {
            for player in [from, into] {
                self.start_changed(conn, variant, player)?;
            }
        }
        Ok(())
    }

    /// Adds what another write of the same use case changed.
    pub fn merge(&mut self, other: Effects) {
        for (game_id, event_id) in other.games {
            self.game_changed(game_id, event_id);
        }
        for event_id in other.events {
            self.event_changed(event_id);
        }
        self.stale_ratings.extend(
            other
                .stale_ratings
                .into_iter()
                .filter(|v| !self.stale_ratings.contains(v))
                .collect::<Vec<_>>(),
        );
    }
}

/// Applies what a committed write changed: brings stale ratings up to date, then tells
/// the live watchers. Call after the commit, before answering. A variant that one window
/// brings up to date is refolded here (a result of the running event needs no more); what
/// reaches further back is left to the worker (`ratings::worker`) at once, so the write
/// answers without waiting for it. Nothing here can undo the
/// write, so a failure is logged, not returned: the request stays and the worker does it.
pub fn apply(conn: &mut DbConn, effects: Effects) {
    for variant in effects.stale_ratings {
        // While a catch-up runs, its worker takes this request with the rest: waiting for
        // the worker's window would make this write's answer wait for it.
        let wait = rating_catchup::progress(conn, variant).is_ok_and(|p| p.from.is_none());
        match refold::step_with(conn, variant, wait, refold::Reach::LastWindowOnly) {
            Ok(refold::CatchUp::Current | refold::CatchUp::Busy) => {}
            Ok(refold::CatchUp::Behind(at)) => {
                tracing::info!(?variant, %at, "ratings catching up in the background");
            }
            Err(e) => tracing::error!(
                ?variant,
                "ratings left stale, brought up to date by the worker: {e}"
            ),
        }
    }
    for &(game_id, event_id) in &effects.games {
        live::game_changed(conn, game_id, event_id);
    }
    for event_id in effects.events {
        // A game's change already wakes its event's watchers.
        if !effects.games.iter().any(|&(_, e)| e == Some(event_id)) {
            live::event_changed(conn, event_id);
        }
    }
}

/// Brings every variant's ratings up to date here and now (start-up of a command that
/// reads them, the demo seeder, which moves results in time behind the use cases' back).
pub fn recompute_everything(conn: &mut DbConn) -> AppResult<()> {
    for variant in Variant::ALL {
        recompute::recompute(conn, variant)?;
    }
    Ok(())
}
