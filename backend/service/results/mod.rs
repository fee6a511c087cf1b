//! Recording results: the one path every change of a game's state or of a result takes,
//! inside the transaction of the use case that makes it (see `crate::service::effects`
//! for the whole path and for what follows the commit).
//!
//! - `game`: a game's new state under its lock; a result that changed goes on to its
//!   board, or, for a rated standalone game, makes the variant's ratings stale.
//! - `board`: a board's result (or a micro-match game's) under the event's lock, with
//!   its audit row; a rated event's change makes the variant's ratings stale.
//!
//! Both say what they changed in the `Effects` they are given, and nothing else: no live
//! notification and no rating recompute starts here.
pub mod board;
pub mod game;
