//! The one place an event's settings choose its pairing system: the system value (and, for
//! a Swiss, whether a pairing plays several games) gives an implementation of the domain's
//! `PairingSystem` trait, and everything that pairs or decides by the way an event pairs
//! asks that. Adding a system is one domain module and one arm here (see the trait).
//!
//! The function reads only the system vocabulary and plain numbers, so once `System` lives
//! in the domain it moves there unchanged.
use damka_domain::pairing_system::{
    DutchSwiss, MicroMatchSwiss, PairingSystem, PairingSystemError, RoundRobin,
};

use crate::service::{AppError, Refusal};
use crate::store::models::Event;
use crate::store::values::System;

/// The pairing system of an event with `system` whose pairings play `games_per_pairing`
/// games each.
pub fn choose(system: System, games_per_pairing: i32) -> Box<dyn PairingSystem> {
    match system {
        System::Swiss if games_per_pairing > 1 => Box::new(MicroMatchSwiss),
        System::Swiss => Box::new(DutchSwiss),
        System::RoundRobin => Box::new(RoundRobin::SINGLE),
        System::DoubleRoundRobin => Box::new(RoundRobin::DOUBLE),
    }
}

/// The pairing system `event` uses.
pub fn of(event: &Event) -> Box<dyn PairingSystem> {
    choose(event.system, event.games_per_pairing)
}

/// Why a round cannot be paired, as the user is told: the system's refusals are
/// conflicts with the event's state; accelerations that cannot be written are a fault of
/// the stored results, as when the history is built.
pub fn refusal(err: PairingSystemError) -> AppError {
    match err {
        PairingSystemError::Dutch(e) => AppError::conflict(e.into()),
        PairingSystemError::Table(e) => AppError::conflict(e.into()),
        PairingSystemError::AllRoundsPaired { rounds } => {
            AppError::conflict(Refusal::AllRoundsPaired { rounds })
        }
        PairingSystemError::Accelerations(e) => AppError::internal(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::values::Spelling;
    use damka_domain::tournament::ByeKind;

    #[test]
    fn every_system_value_chooses_its_implementation() {
        let chosen = |system, games| choose(system, games).name();
        assert_eq!(chosen(System::Swiss, 1), "dutch");
        assert_eq!(chosen(System::Swiss, 2), "micro_match_swiss");
        assert_eq!(chosen(System::RoundRobin, 1), "berger");
        assert_eq!(chosen(System::RoundRobin, 2), "berger");
        assert_eq!(chosen(System::DoubleRoundRobin, 1), "double_berger");
        assert_eq!(chosen(System::DoubleRoundRobin, 2), "double_berger");
    }

    /// What the service decided by matching on the system before the seam, the chosen
    /// system now answers the same.
    #[test]
    fn the_chosen_system_answers_as_the_system_value_did() {
        for &system in System::ALL {
            for games in [1, 2] {
                let chosen = choose(system, games);
                let name = chosen.name();
                assert_eq!(chosen.standings_kind(), system.event_kind(), "{name}");
                let defaults: Vec<String> = chosen
                    .standings_kind()
                    .default_tiebreaks()
                    .iter()
                    .map(|t| t.code())
                    .collect();
                assert_eq!(defaults.join(","), system.default_tiebreaks(), "{name}");
                assert_eq!(chosen.field_is_fixed(), system.is_round_robin(), "{name}");
                assert_eq!(
                    chosen.fixed_rounds(10),
                    system
                        .is_round_robin()
                        .then(|| system.cycles() * damka_domain::berger::rounds_per_cycle(10)),
                    "{name}"
                );
                let bye = if system.is_round_robin() {
                    ByeKind::ZeroPoint
                } else {
                    ByeKind::PairingAllocated
                };
                assert_eq!(chosen.bye_kind(), bye, "{name}");
                assert_eq!(
                    chosen.requests().contains(&ByeKind::HalfPoint),
                    !system.is_round_robin(),
                    "{name}"
                );
            }
        }
    }
}
