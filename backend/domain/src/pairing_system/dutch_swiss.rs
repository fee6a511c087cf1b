//! The FIDE Dutch system (Handbook C.04.3), one game a pairing: the `dutch` module pairs,
//! the organiser sets the number of rounds.

use super::system::{NextRound, PairingSystem, PairingSystemError, check_with};
use crate::dutch::{self, RoundPairing};
use crate::pairing_check::{PlacementError, Rules, Warning};
use crate::tiebreak::EventKind;
use crate::tournament::ByeKind;

/// The FIDE Dutch Swiss system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DutchSwiss;

/// What a player of a Swiss may ask for: a half-point bye or an absence.
const SWISS_REQUESTS: &[ByeKind] = &[ByeKind::HalfPoint, ByeKind::ZeroPoint];

impl PairingSystem for DutchSwiss {
    fn name(&self) -> &'static str {
        "dutch"
    }

    fn pair(&self, round: &NextRound) -> Result<RoundPairing, PairingSystemError> {
        Ok(dutch::pair_next_round(round.before)?)
    }

    fn check(
        &self,
        round: &NextRound,
        proposal: &RoundPairing,
    ) -> Result<Vec<Warning>, Vec<PlacementError>> {
        check_with(self, Rules::Swiss, round, proposal)
    }

    fn fixed_rounds(&self, _entrants: u32) -> Option<u32> {
        None
    }

    fn field_is_fixed(&self) -> bool {
        false
    }

    fn requests(&self) -> &'static [ByeKind] {
        SWISS_REQUESTS
    }

    fn bye_kind(&self) -> ByeKind {
        ByeKind::PairingAllocated
    }

    fn standings_kind(&self) -> EventKind {
        EventKind::Swiss
    }
}
