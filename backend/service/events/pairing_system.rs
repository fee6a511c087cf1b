//! How the service asks an event for its pairing system: the domain's `choose` reads the
//! system value (and, for a Swiss, whether a pairing plays several games) and gives an
//! implementation of the `PairingSystem` trait; everything that pairs or decides by the way
//! an event pairs asks that.
use damka_domain::pairing_system::{PairingSettings, PairingSystem, PairingSystemError, choose};

use crate::service::{AppError, Refusal};
use crate::store::models::Event;

/// The pairing system `event` uses.
pub fn of(event: &Event) -> Box<dyn PairingSystem> {
    choose(PairingSettings {
        system: event.system,
        games_per_pairing: event.games_per_pairing,
        keizer: event.keizer,
    })
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
        PairingSystemError::TooFewPresent { present } => {
            AppError::conflict(Refusal::TooFewPresent { present })
        }
    }
}
