//! Pairing systems: who plays whom in the next round, and everything else an event decides
//! by the way it pairs (how many rounds it has, who may stay out of a round, which
//! standings rules it uses, how a pairing the arbiter changed by hand is checked). The
//! [`PairingSystem`] trait (in `system.rs`) is the seam, and its documentation says how to
//! add a system; each system is one module beside it.

pub mod dutch_swiss;
pub mod micro_match_swiss;
pub mod round_robin;
pub mod system;

pub use dutch_swiss::DutchSwiss;
pub use micro_match_swiss::MicroMatchSwiss;
pub use round_robin::RoundRobin;
pub use system::{NextRound, PairingSystem, PairingSystemError, check_with};

#[cfg(test)]
mod tests;
