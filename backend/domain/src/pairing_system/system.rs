//! The pairing-system trait and what it is given and may refuse with.

use crate::berger::BergerError;
use crate::dutch::{PairingError, RoundPairing};
use crate::keizer::KeizerStandings;
use crate::micro_match::AccelerationError;
use crate::pairing_check::{self, PlacementError, Rules, Warning};
use crate::tiebreak::EventKind;
use crate::tournament::{ByeKind, Tournament};

/// A round about to be paired.
#[derive(Debug, Clone, Copy)]
pub struct NextRound<'a> {
    /// The round's number, 1-based.
    pub number: u32,
    /// The event as it stood before the round: every entrant (withdrawn or joining later
    /// too) with one entry per earlier round, and in `next_round_absences` who is not to
    /// be paired in this round and why.
    pub before: &'a Tournament,
}

impl NextRound<'_> {
    /// Everyone entered in the event, start numbers 1 ..= this.
    pub fn entrants(&self) -> u32 {
        u32::try_from(self.before.players.len()).unwrap_or(u32::MAX)
    }
}

/// Why a system could not pair a round.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingSystemError {
    #[error(transparent)]
    Dutch(#[from] PairingError),
    #[error(transparent)]
    Table(#[from] BergerError),
    /// A round-robin's table has no round left.
    #[error("all {rounds} rounds of the table have been paired already")]
    AllRoundsPaired { rounds: u32 },
    #[error(transparent)]
    Accelerations(#[from] AccelerationError),
    /// A system that pairs whoever is present (Keizer) has fewer than two players to pair.
    #[error("{present} players are present; at least two are needed to pair a round")]
    TooFewPresent { present: u32 },
}

/// How an event pairs its players, and what follows from it.
///
/// # Adding a system
///
/// 1. Write one module in `backend/domain/src/pairing_system/` with a type that implements
///    this trait. Pure logic only: it gets the event's history as a [`Tournament`] (through
///    [`NextRound`]) and returns start numbers; the service turns them into rows. Test it
///    there with small tournaments built by hand, as the existing modules do.
/// 2. Add the system's value to the system vocabulary (the `System` enum and its spelling)
///    and one arm to the function that chooses the implementation for an event's settings
///    (`pairing_system::choose`, the only `match` on the system that
///    concerns pairing). Nothing else matches on the system to decide how to pair: the
///    round workflow, the manual pairing editor, the entry and settings rules, the
///    crosstable, the event's history and the event page all ask the trait; the default
///    tie-breaks follow from `standings_kind`.
/// 3. Answer every method below; the table says what the existing systems answer, and
///    `pairing_system/tests.rs` is the place for the new system's own cases.
///
/// What the trait asks of a system, and how the existing ones answer:
///
/// | method | Dutch Swiss | micro-match Swiss | round-robin (single, double) | Keizer |
/// |---|---|---|---|---|
/// | [`pair`](PairingSystem::pair) | FIDE Dutch | Dutch on real totals (`XXA`) | Berger table | top-down by the Keizer ranking |
/// | [`fixed_rounds`](PairingSystem::fixed_rounds) | none: the organiser sets them | none | one or two cycles | none |
/// | [`field_is_fixed`](PairingSystem::field_is_fixed) | no | no | yes | no |
/// | [`requests`](PairingSystem::requests) | `H`, `Z` | `H`, `Z` | `Z` | `excused`, `club_duty`, `Z` |
/// | [`bye_kind`](PairingSystem::bye_kind) | `U` (PAB) | `U` | `Z` (the table's free player) | `U` |
/// | [`standings_kind`](PairingSystem::standings_kind) | Swiss | Swiss | round-robin | Swiss (the Keizer order comes from `keizer::standings`) |
///
/// Keizer pairs whoever is present by a ranking: it answers `pair` from the standings it
/// computes from `before` and the players not in `next_round_absences`; a team event pairs teams (its `pair` returns the
/// matches, boards within a match being the team's line-up) and names its own standings
/// kind. Where the current vocabulary is too narrow for such a system (`RoundPairing`,
/// `EventKind`, `pairing_check::Rules`), widen it in the same change.
pub trait PairingSystem: std::fmt::Debug + Send + Sync {
    /// A stable name for logs and tests (`dutch`, `berger`, ...), never shown to users.
    fn name(&self) -> &'static str;

    /// Pairs the round: boards by start numbers, and the player without an opponent (who
    /// gets [`bye_kind`](PairingSystem::bye_kind)). Players in `next_round_absences` are
    /// left out unless the system places everyone (a round-robin's table); the service
    /// gives those left out the bye they asked for.
    fn pair(&self, round: &NextRound) -> Result<RoundPairing, PairingSystemError>;

    /// Checks a pairing the arbiter wrote by hand for the round: the rules it breaks, or
    /// why it cannot be stored at all. `round.before` holds as absences only the players
    /// who may stay out of the round (see [`field_is_fixed`](PairingSystem::field_is_fixed)).
    fn check(
        &self,
        round: &NextRound,
        proposal: &RoundPairing,
    ) -> Result<Vec<Warning>, Vec<PlacementError>>;

    /// How many rounds the system itself sets for `entrants` players, or `None` (for every
    /// number of entrants) when the organiser sets them.
    fn fixed_rounds(&self, entrants: u32) -> Option<u32>;

    /// Whether the organiser sets the number of rounds: the system does not fix it.
    fn organiser_sets_rounds(&self) -> bool {
        self.fixed_rounds(crate::berger::MIN_PLAYERS).is_none()
    }

    /// Whether the organiser may leave the number of rounds open (0): the season goes on
    /// until it is finished (Keizer club nights).
    fn rounds_may_stay_open(&self) -> bool {
        false
    }

    /// Whether players may join in any round, whatever the event's last round for late
    /// entries says (a club's season: a new member plays from the next club night).
    fn late_entries_any_round(&self) -> bool {
        false
    }

    /// The system's own ranking after `after_round`, when it ranks by a score of its own
    /// rather than by points and tie-breaks (Keizer); `None`: points and tie-breaks.
    fn own_ranking(&self, _t: &Tournament, _after_round: u32) -> Option<KeizerStandings> {
        None
    }

    /// Whether the field is fixed once the first round is paired: no late entries, a player
    /// who withdraws stays in the pairing (their games are decided at the board), and
    /// only a player's own request keeps them out of a round.
    fn field_is_fixed(&self) -> bool;

    /// What a player may ask for instead of a game in a coming round.
    fn requests(&self) -> &'static [ByeKind];

    /// What the player the pairing leaves without an opponent gets.
    fn bye_kind(&self) -> ByeKind;

    /// Which rules the standings and tie-breaks follow.
    fn standings_kind(&self) -> EventKind;
}

/// Checks `proposal` under `rules`, against the system's own pairing of the round when it
/// has one: the shared body of [`PairingSystem::check`].
pub fn check_with(
    system: &dyn PairingSystem,
    rules: Rules,
    round: &NextRound,
    proposal: &RoundPairing,
) -> Result<Vec<Warning>, Vec<PlacementError>> {
    let own = system.pair(round).ok();
    pairing_check::check(round.before, rules, proposal, own.as_ref())
}
