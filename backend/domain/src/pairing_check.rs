//! Checks a pairing the arbiter changed by hand. The arbiter may deviate from the system
//! (that is their right), but every rule the changed pairing breaks is named, so that
//! nothing is broken by accident: a repeated game, a forbidden pair, a colour rule of
//! C.04.1 (f, g) or the colour allocation of C.04.3 E, a bye to a player who may not get
//! one (C.04.1 d), a requested bye ignored, and every board that differs from what the
//! system itself produced.
//!
//! What makes a pairing impossible rather than irregular (a player twice, a player left
//! out, a player paired with themself) is a [`PlacementError`], not a warning.

use std::collections::{HashMap, HashSet};

use crate::dutch::{Board, RoundPairing, colours, players};
use crate::tournament::{ByeKind, Colour, RoundEntry, StartNo, Tournament};

/// Which rules the check applies: each pairing system names its own (see the
/// `pairing_system` module), the check itself knows only these two sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// FIDE Dutch: absolute colour criteria and the colour allocation rules apply; only a
    /// game played over the board stops a pair from meeting again.
    Swiss,
    /// Round-robin with one or two cycles of `rounds_per_cycle` rounds: the Berger table
    /// decides pairs and colours; two players meet once per cycle.
    RoundRobin { cycles: u32, rounds_per_cycle: u32 },
    /// Keizer: two players who played each other over the board in the last `repeat_gap`
    /// rounds should not meet again; colours are the system's choice only.
    Keizer { repeat_gap: u32 },
}

/// The name these rules had before pairing systems became the `pairing_system` module's
/// trait; kept so that existing callers read on.
pub type PairingSystem = Rules;

/// One rule the pairing breaks. `board` is 1-based in the order given; `None` for the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub board: Option<u32>,
    pub kind: WarningKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarningKind {
    /// C.04.1 b: the two have already played each other (last in `round`).
    AlreadyPlayed {
        white: StartNo,
        black: StartNo,
        round: u32,
    },
    /// The organiser declared the two a forbidden pair.
    ForbiddenPair { white: StartNo, black: StartNo },
    /// C.04.1 f: the player's colour difference would reach `difference` (more than 2).
    ColourDifference {
        player: StartNo,
        colour: Colour,
        difference: u32,
    },
    /// C.04.1 g: the player would get the same colour three times in a row.
    SameColourThreeTimes { player: StartNo, colour: Colour },
    /// C.04.3 E: the colour allocation rules give White to `should_be_white`.
    ColoursAgainstAllocation {
        white: StartNo,
        black: StartNo,
        should_be_white: StartNo,
    },
    /// C.04.1 d: the player already had a point without playing (PAB, forfeit win or
    /// full-point bye), in `round`.
    ByeNotAllowed { player: StartNo, round: u32 },
    /// The player asked not to be paired this round (a half-point bye or an absence).
    RequestedByeIgnored { player: StartNo, kind: ByeKind },
    /// The pair does not meet in the system's pairing of this round (the Dutch system's,
    /// or the Berger table's).
    NotInSystemPairing { white: StartNo, black: StartNo },
    /// The pair meets in the Berger table with the other colours.
    ColoursDifferFromTable { white: StartNo, black: StartNo },
    /// The system gives the bye to `system` (or to nobody), not to `given`.
    ByeDiffersFromSystem {
        given: Option<StartNo>,
        system: Option<StartNo>,
    },
}

/// Why a proposed pairing cannot be stored at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("player {0} is not in this event")]
    UnknownPlayer(StartNo),
    #[error("player {0} is placed more than once")]
    PlacedTwice(StartNo),
    #[error("player {0} is paired with themself")]
    PairedWithSelf(StartNo),
    #[error("player {0} is not paired and has no bye")]
    NotPlaced(StartNo),
}

/// Checks `proposal` as the next round of `before` (the event's history up to the previous
/// round, with the requested byes and absences of this round in `next_round_absences`).
/// `system_pairing` is what the pairing system produced for the round, when it produced
/// one. Players with a requested bye or absence may be paired (with a warning); every
/// other player of the round must be placed exactly once.
pub fn check(
    before: &Tournament,
    system: Rules,
    proposal: &RoundPairing,
    system_pairing: Option<&RoundPairing>,
) -> Result<Vec<Warning>, Vec<PlacementError>> {
    let placed = placements(before, proposal)?;
    let mut warnings = Vec::new();

    // Requested byes that the arbiter overrode; those players are paired like the rest.
    let mut tournament = before.clone();
    tournament.next_round_absences.retain(|absence| {
        if placed.contains(&absence.player) {
            warnings.push(Warning {
                board: board_of(proposal, absence.player),
                kind: WarningKind::RequestedByeIgnored {
                    player: absence.player,
                    kind: absence.kind,
                },
            });
            false
        } else {
            true
        }
    });
    let round = players::build(&tournament);
    let history = MeetingHistory::of(&tournament);
    let forbidden: HashSet<(StartNo, StartNo)> = tournament
        .forbidden_pairs
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();

    for (index, b) in proposal.boards.iter().enumerate() {
        let board = Some(index as u32 + 1);
        let mut warn = |kind| warnings.push(Warning { board, kind });
        let (white, black) = (b.white, b.black);
        if let Some(round) = history.repeated(white, black, system) {
            warn(WarningKind::AlreadyPlayed {
                white,
                black,
                round,
            });
        }
        if forbidden.contains(&(white.min(black), white.max(black))) {
            warn(WarningKind::ForbiddenPair { white, black });
        }
        match system {
            Rules::Swiss => {
                for kind in swiss_colour_warnings(&round, b) {
                    warn(kind);
                }
            }
            Rules::Keizer { .. } => {}
            Rules::RoundRobin { .. } => {
                let reversed = Board {
                    white: black,
                    black: white,
                };
                if system_pairing.is_some_and(|s| s.boards.contains(&reversed)) {
                    warn(WarningKind::ColoursDifferFromTable { white, black });
                }
            }
        }
        if let Some(reference) = system_pairing
            && !reference
                .boards
                .iter()
                .any(|r| same_pair(r, b) || same_pair(r, &flip(b)))
        {
            warn(WarningKind::NotInSystemPairing { white, black });
        }
    }

    if let Some(player) = proposal.bye
        && system == Rules::Swiss
        && let Some(round) = point_without_playing(&tournament, player)
    {
        warnings.push(Warning {
            board: None,
            kind: WarningKind::ByeNotAllowed { player, round },
        });
    }
    if let Some(reference) = system_pairing
        && reference.bye != proposal.bye
    {
        warnings.push(Warning {
            board: None,
            kind: WarningKind::ByeDiffersFromSystem {
                given: proposal.bye,
                system: reference.bye,
            },
        });
    }
    Ok(warnings)
}

fn flip(b: &Board) -> Board {
    Board {
        white: b.black,
        black: b.white,
    }
}

fn same_pair(a: &Board, b: &Board) -> bool {
    a.white == b.white && a.black == b.black
}

fn board_of(proposal: &RoundPairing, player: StartNo) -> Option<u32> {
    proposal
        .boards
        .iter()
        .position(|b| b.white == player || b.black == player)
        .map(|i| i as u32 + 1)
}

/// Every player placed exactly once, nobody left out who should play, nobody unknown.
fn placements(
    before: &Tournament,
    proposal: &RoundPairing,
) -> Result<HashSet<StartNo>, Vec<PlacementError>> {
    let known: HashSet<StartNo> = before.players.iter().map(|p| p.start_no).collect();
    let excused: HashSet<StartNo> = before
        .next_round_absences
        .iter()
        .map(|a| a.player)
        .collect();
    let mut errors = Vec::new();
    let mut placed = HashSet::new();
    let everyone = proposal
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(proposal.bye);
    for player in everyone {
        if !known.contains(&player) {
            errors.push(PlacementError::UnknownPlayer(player));
        } else if !placed.insert(player) {
            errors.push(PlacementError::PlacedTwice(player));
        }
    }
    for b in &proposal.boards {
        if b.white == b.black {
            errors.push(PlacementError::PairedWithSelf(b.white));
        }
    }
    let mut missing: Vec<StartNo> = known
        .iter()
        .filter(|p| !placed.contains(p) && !excused.contains(p))
        .copied()
        .collect();
    missing.sort_unstable();
    errors.extend(missing.into_iter().map(PlacementError::NotPlaced));
    errors.dedup();
    if errors.is_empty() {
        Ok(placed)
    } else {
        Err(errors)
    }
}

/// Who met whom, and in which rounds.
struct MeetingHistory {
    /// (smaller, larger start number) -> rounds (1-based) of every pairing between them,
    /// with whether the game was played over the board.
    meetings: HashMap<(StartNo, StartNo), Vec<(u32, bool)>>,
    played_rounds: u32,
}

impl MeetingHistory {
    fn of(t: &Tournament) -> MeetingHistory {
        let mut meetings: HashMap<(StartNo, StartNo), Vec<(u32, bool)>> = HashMap::new();
        let mut played_rounds = 0;
        for p in &t.players {
            played_rounds = played_rounds.max(p.rounds.len() as u32);
            for (r, entry) in p.rounds.iter().enumerate() {
                if let Some(opponent) = entry.opponent()
                    && p.start_no < opponent
                {
                    let over_the_board = matches!(entry, RoundEntry::Played { .. });
                    meetings
                        .entry((p.start_no, opponent))
                        .or_default()
                        .push((r as u32 + 1, over_the_board));
                }
            }
        }
        MeetingHistory {
            meetings,
            played_rounds,
        }
    }

    /// The last round in which the pair met when meeting again breaks the system's rule.
    fn repeated(&self, a: StartNo, b: StartNo, system: Rules) -> Option<u32> {
        let meetings = self.meetings.get(&(a.min(b), a.max(b)))?;
        match system {
            // A forfeited pairing may be repeated (FIDE C.04.1 b, as bbpPairings does).
            Rules::Swiss => meetings.iter().rev().find(|m| m.1).map(|m| m.0),
            Rules::Keizer { repeat_gap } => meetings
                .iter()
                .rev()
                .find(|m| m.1)
                .map(|m| m.0)
                .filter(|&round| round + repeat_gap > self.played_rounds),
            // Once per cycle: a repeat is a rule break if they met in the current cycle or
            // already as often as there are cycles.
            Rules::RoundRobin {
                cycles,
                rounds_per_cycle,
            } => {
                let last = meetings.last()?.0;
                let cycle = |round: u32| (round - 1) / rounds_per_cycle.max(1);
                let same_cycle = cycle(last) == cycle(self.played_rounds + 1);
                (same_cycle || meetings.len() as u32 >= cycles).then_some(last)
            }
        }
    }
}

/// C.04.1 f and g for both players, unless a topscorer plays on the board in the last
/// round (C.04.3 A7 and C3: the absolute colour criteria do not bind there), and the
/// colour allocation of C.04.3 E.
fn swiss_colour_warnings(round: &players::RoundContext, b: &Board) -> Vec<WarningKind> {
    let mut out = Vec::new();
    let last_round = round.played_rounds + 1 >= round.total_rounds;
    let topscorer = |player: StartNo| {
        round
            .index_of
            .get(&player)
            .is_some_and(|&i| round.players[i].score > round.topscore_threshold)
    };
    let exempt = last_round && (topscorer(b.white) || topscorer(b.black));
    for (player, colour) in [(b.white, Colour::White), (b.black, Colour::Black)] {
        let Some(&i) = round.index_of.get(&player) else {
            continue;
        };
        if exempt {
            continue;
        }
        let state = &round.players[i];
        let whites = state
            .colours
            .iter()
            .filter(|c| **c == Colour::White)
            .count() as u32
            + u32::from(colour == Colour::White);
        let blacks = state.colours.len() as u32 + 1 - whites;
        let difference = whites.abs_diff(blacks);
        if difference > 2 {
            out.push(WarningKind::ColourDifference {
                player,
                colour,
                difference,
            });
        }
        let last_two = state.colours.iter().rev().take(2);
        if state.colours.len() >= 2 && last_two.clone().all(|c| *c == colour) {
            out.push(WarningKind::SameColourThreeTimes { player, colour });
        }
    }
    if let (Some(&w), Some(&k)) = (round.index_of.get(&b.white), round.index_of.get(&b.black)) {
        // The allocation is decided from the side of the smaller start number, as the
        // pairing engine does.
        let (p, o) = if b.white < b.black { (w, k) } else { (k, w) };
        let p_colour = colours::colour_of(round, p, o);
        let should_be_white = if p_colour == Colour::White {
            round.players[p].start_no
        } else {
            round.players[o].start_no
        };
        if should_be_white != b.white {
            out.push(WarningKind::ColoursAgainstAllocation {
                white: b.white,
                black: b.black,
                should_be_white,
            });
        }
    }
    out
}

/// The round (1-based) in which the player last scored a point without playing: a
/// pairing-allocated bye, a forfeit win, or a bye worth a win (C.04.1 d).
fn point_without_playing(t: &Tournament, player: StartNo) -> Option<u32> {
    let p = t.players.iter().find(|p| p.start_no == player)?;
    p.rounds
        .iter()
        .enumerate()
        .rev()
        .find(|(_, e)| {
            e.played_colour().is_none()
                && (matches!(e, RoundEntry::Bye(ByeKind::PairingAllocated))
                    || t.points.points(e) >= t.points.win)
        })
        .map(|(r, _)| r as u32 + 1)
}
