//! The Keizer system: the present players paired top-down by the Keizer ranking (the
//! `keizer` module pairs and scores), the organiser sets the rounds or leaves them open.

use super::system::{NextRound, PairingSystem, PairingSystemError, check_with};
use crate::dutch::RoundPairing;
use crate::keizer::{self, KeizerOptions, KeizerStandings};
use crate::pairing_check::{PlacementError, Rules, Warning};
use crate::tiebreak::EventKind;
use crate::tournament::{ByeKind, Tournament};

/// The Keizer system with an event's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Keizer {
    pub options: KeizerOptions,
}

/// What a player of a Keizer event may announce for a coming round: an absence with
/// notice, playing for the club elsewhere, or an absence without notice.
const KEIZER_REQUESTS: &[ByeKind] = &[ByeKind::Excused, ByeKind::ClubDuty, ByeKind::ZeroPoint];

impl PairingSystem for Keizer {
    fn name(&self) -> &'static str {
        "keizer"
    }

    fn pair(&self, round: &NextRound) -> Result<RoundPairing, PairingSystemError> {
        // A season left open (0) still ends at the most rounds one can plan.
        let planned = match round.before.total_rounds {
            0 => keizer::MAX_ROUNDS,
            planned => planned,
        };
        if round.number > planned {
            return Err(PairingSystemError::AllRoundsPaired { rounds: planned });
        }
        keizer::pair_next_round(round.before, &self.options)
    }

    fn own_ranking(&self, t: &Tournament, after_round: u32) -> Option<KeizerStandings> {
        Some(keizer::standings(t, &self.options, after_round))
    }

    fn rounds_may_stay_open(&self) -> bool {
        true
    }

    fn late_entries_any_round(&self) -> bool {
        true
    }

    fn check(
        &self,
        round: &NextRound,
        proposal: &RoundPairing,
    ) -> Result<Vec<Warning>, Vec<PlacementError>> {
        let rules = Rules::Keizer {
            repeat_gap: self.options.repeat_gap,
        };
        check_with(self, rules, round, proposal)
    }

    fn fixed_rounds(&self, _entrants: u32) -> Option<u32> {
        None
    }

    fn field_is_fixed(&self) -> bool {
        false
    }

    fn requests(&self) -> &'static [ByeKind] {
        KEIZER_REQUESTS
    }

    fn bye_kind(&self) -> ByeKind {
        ByeKind::PairingAllocated
    }

    fn standings_kind(&self) -> EventKind {
        EventKind::Swiss
    }
}
