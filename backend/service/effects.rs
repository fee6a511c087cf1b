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
//! Nothing in that path notifies anyone or recomputes a rating. It says what it caused as
//! an [`Effects`] value (game G changed, event E changed, the ratings of variant V are
//! stale; the last is also marked in the database in the same transaction, see
//! `ratings::dirty`). The use case carries the effects out of its transaction and, after
//! the commit, hands them to [`apply`], the one place where
//!
//! 1. stale ratings are recomputed from scratch and their mark cleared, before the answer
//!    is sent, so whoever reads ratings after a result reads them current (and
//!    `damka ratings recompute --check` finds nothing to do), then
//! 2. live watchers are told (`live::game_changed`, `live::event_changed`), so what they
//!    read again already has the new ratings.
//!
//! A process that stops between the commit and `apply` leaves the mark behind;
//! [`finish_leftovers`] recomputes those variants at start-up. Where a rating period is
//! concerned, nothing is tracked yet: the recompute always starts from scratch (well under
//! a second for 100,000 games, README "Benchmarks"), so "stale from period P" would carry
//! no information until a recompute can start from P.
use damka_engine::Variant;

use super::AppResult;
use super::live;
use super::ratings::{dirty, recompute};
use crate::store::DbConn;

/// What a write changed, to be applied after its commit by [`apply`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[must_use = "effects are applied after the commit (effects::apply)"]
pub struct Effects {
    /// Games that changed, with the event each belongs to.
    games: Vec<(i64, Option<i64>)>,
    /// Events whose current round changed without one of their games changing.
    events: Vec<i64>,
    /// Variants whose ratings are stale (already marked so in the database).
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

    /// The variant's ratings no longer match its results. Call inside the write that made
    /// them so: the mark is stored in its transaction (and takes the variant's rating lock,
    /// the last lock a write takes), so that a crash before `apply` loses nothing.
    pub fn ratings_stale(&mut self, conn: &mut DbConn, variant: Variant) -> AppResult<()> {
        dirty::mark(conn, variant)?;
        if !self.stale_ratings.contains(&variant) {
            self.stale_ratings.push(variant);
        }
        Ok(())
    }

    /// Every variant's ratings are stale (a birth year changed: the Elo K factor reads it).
    pub fn all_ratings_stale(&mut self, conn: &mut DbConn) -> AppResult<()> {
        for variant in Variant::ALL {
            self.ratings_stale(conn, variant)?;
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

/// Applies what a committed write changed: recomputes the stale ratings, then tells the
/// live watchers. Call after the commit, before answering. Nothing here can undo the
/// write, so a failure is logged, not returned: a recompute that failed leaves its mark,
/// and the next write of the variant or the next start-up does it.
pub fn apply(conn: &mut DbConn, effects: Effects) {
    for variant in effects.stale_ratings {
        if let Err(e) = recompute_stale(conn, variant) {
            tracing::error!(
                ?variant,
                "ratings left stale, recomputed at the next chance: {e}"
            );
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

/// Recomputes a stale variant and clears its mark, in one write transaction (the
/// recompute takes the variant's lock first, so the mark it clears is one whose result it
/// has read; see `ratings::dirty`).
fn recompute_stale(conn: &mut DbConn, variant: Variant) -> AppResult<usize> {
    conn.write_transaction(|conn| {
        let changed = recompute::recompute(conn, variant)?;
        dirty::clear(conn, variant)?;
        Ok(changed)
    })
}

/// At start-up: recomputes the variants a stopped process left marked stale.
pub fn finish_leftovers(conn: &mut DbConn) -> AppResult<Vec<Variant>> {
    let marked = dirty::marked(conn)?;
    for &variant in &marked {
        recompute_stale(conn, variant)?;
    }
    Ok(marked)
}

/// Recomputes every variant (the demo seeder, which moves results in time behind the use
/// cases' back).
pub fn recompute_everything(conn: &mut DbConn) -> AppResult<()> {
    for variant in Variant::ALL {
        recompute_stale(conn, variant)?;
    }
    Ok(())
}
