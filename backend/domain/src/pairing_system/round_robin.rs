//! Round-robins from the Berger tables (the `berger` module): everybody plays everybody
//! once, or twice with colours reversed in a double round-robin. The table fixes the
//! pairs, the colours and the number of rounds; the field is fixed once it starts.

use super::system::{NextRound, PairingSystem, PairingSystemError, check_with};
use crate::berger;
use crate::dutch::{Board, RoundPairing};
use crate::pairing_check::{PlacementError, Rules, Warning};
use crate::tiebreak::EventKind;
use crate::tournament::ByeKind;

/// A round-robin of `cycles` cycles (1: single, 2: double).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundRobin {
    pub cycles: u32,
}

impl RoundRobin {
    /// Everybody plays everybody once.
    pub const SINGLE: RoundRobin = RoundRobin { cycles: 1 };
    /// Everybody plays everybody twice, once with each colour.
    pub const DOUBLE: RoundRobin = RoundRobin { cycles: 2 };
}

impl PairingSystem for RoundRobin {
    fn name(&self) -> &'static str {
        if self.cycles == 2 {
            "double_berger"
        } else {
            "berger"
        }
    }

    /// The table's round for all entrants (present or not: absences do not change a
    /// table), the player paired with the dummy as the one without an opponent.
    fn pair(&self, round: &NextRound) -> Result<RoundPairing, PairingSystemError> {
        let schedule = berger::round_robin_schedule(round.entrants(), self.cycles)?;
        let rounds = u32::try_from(schedule.len()).unwrap_or(u32::MAX);
        let table = round
            .number
            .checked_sub(1)
            .and_then(|index| schedule.get(index as usize))
            .ok_or(PairingSystemError::AllRoundsPaired { rounds })?;
        Ok(RoundPairing {
            boards: table
                .boards
                .iter()
                .map(|b| Board {
                    white: b.white,
                    black: b.black,
                })
                .collect(),
            bye: table.bye,
        })
    }

    /// Against the table: pairs meet once per cycle and the table's colours are expected.
    fn check(
        &self,
        round: &NextRound,
        proposal: &RoundPairing,
    ) -> Result<Vec<Warning>, Vec<PlacementError>> {
        let rules = Rules::RoundRobin {
            cycles: self.cycles,
            rounds_per_cycle: berger::rounds_per_cycle(round.entrants()),
        };
        check_with(self, rules, round, proposal)
    }

    fn fixed_rounds(&self, entrants: u32) -> Option<u32> {
        Some(self.cycles * berger::rounds_per_cycle(entrants))
    }

    fn field_is_fixed(&self) -> bool {
        true
    }

    /// Only an absence: a half-point bye would leave a hole in the table.
    fn requests(&self) -> &'static [ByeKind] {
        &[ByeKind::ZeroPoint]
    }

    /// The table's free player (odd numbers of players) has no game and no point.
    fn bye_kind(&self) -> ByeKind {
        ByeKind::ZeroPoint
    }

    fn standings_kind(&self) -> EventKind {
        EventKind::RoundRobin
    }
}
