//! Pairing systems: who plays whom in the next round, and everything else an event decides
//! by the way it pairs (how many rounds it has, who may stay out of a round, which
//! standings rules it uses, how a pairing the arbiter changed by hand is checked). The
//! [`PairingSystem`] trait (in `system.rs`) is the seam, and its documentation says how to
//! add a system; each system is one module beside it.

pub mod dutch_swiss;
pub mod keizer;
pub mod micro_match_swiss;
pub mod round_robin;
pub mod system;

pub use dutch_swiss::DutchSwiss;
pub use keizer::Keizer;
pub use micro_match_swiss::MicroMatchSwiss;
pub use round_robin::RoundRobin;
pub use system::{NextRound, PairingSystem, PairingSystemError, check_with};

use crate::keizer::KeizerOptions;
use crate::vocabulary::System;

/// What an event's settings say about how it pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairingSettings {
    pub system: System,
    /// Games each pairing plays (2 or more: a micro-match).
    pub games_per_pairing: i32,
    /// A Keizer event's options (ignored by the other systems).
    pub keizer: KeizerOptions,
}

/// The pairing system of an event with `settings`: the one `match` on the system value.
/// Adding a system is one module beside this one and one arm here (see the trait).
pub fn choose(settings: PairingSettings) -> Box<dyn PairingSystem> {
    let PairingSettings {
        system,
        games_per_pairing,
        keizer,
    } = settings;
    match system {
        System::Swiss if games_per_pairing > 1 => Box::new(MicroMatchSwiss),
        System::Swiss => Box::new(DutchSwiss),
        System::RoundRobin => Box::new(RoundRobin::SINGLE),
        System::DoubleRoundRobin => Box::new(RoundRobin::DOUBLE),
        System::Keizer => Box::new(Keizer { options: keizer }),
    }
}

#[cfg(test)]
mod tests;
