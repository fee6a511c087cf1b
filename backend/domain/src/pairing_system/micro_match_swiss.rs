//! A Swiss whose pairings play several games each (a micro-match): the Dutch system paired
//! on the real totals, which the collapsed results of the rounds carry as accelerations
//! (TRF `XXA`, see `micro_match`), exactly as bbpPairings pairs PlayStrategy's files.
//! Everything but the pairing is the Dutch Swiss's.

use super::dutch_swiss::DutchSwiss;
use super::system::{NextRound, PairingSystem, PairingSystemError, check_with};
use crate::dutch::{self, RoundPairing};
use crate::micro_match::set_pairing_accelerations;
use crate::pairing_check::{PlacementError, Rules, Warning};
use crate::tiebreak::EventKind;
use crate::tournament::ByeKind;

/// The Dutch Swiss of micro-matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MicroMatchSwiss;

impl PairingSystem for MicroMatchSwiss {
    fn name(&self) -> &'static str {
        "micro_match_swiss"
    }

    /// Pairs on the accelerations computed from the real round scores (already there
    /// when the history was built for pairing; computing them again changes nothing).
    fn pair(&self, round: &NextRound) -> Result<RoundPairing, PairingSystemError> {
        let mut before = round.before.clone();
        set_pairing_accelerations(&mut before)?;
        Ok(dutch::pair_next_round(&before)?)
    }

    fn check(
        &self,
        round: &NextRound,
        proposal: &RoundPairing,
    ) -> Result<Vec<Warning>, Vec<PlacementError>> {
        check_with(self, Rules::Swiss, round, proposal)
    }

    fn fixed_rounds(&self, entrants: u32) -> Option<u32> {
        DutchSwiss.fixed_rounds(entrants)
    }

    fn field_is_fixed(&self) -> bool {
        DutchSwiss.field_is_fixed()
    }

    fn requests(&self) -> &'static [ByeKind] {
        DutchSwiss.requests()
    }

    fn bye_kind(&self) -> ByeKind {
        DutchSwiss.bye_kind()
    }

    fn standings_kind(&self) -> EventKind {
        DutchSwiss.standings_kind()
    }
}
