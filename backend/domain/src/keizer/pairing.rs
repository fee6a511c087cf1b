//! Pairing a Keizer round: the present players top-down by the ranking after the last
//! round, no rematch within `repeat_gap` rounds while the rest can still be paired.

use super::options::KeizerOptions;
use super::scoring::standings;
use crate::dutch::bigint::Big;
use crate::dutch::blossom::max_weight_matching;
use crate::dutch::{Board, PairingError, RoundPairing};
use crate::pairing_system::PairingSystemError;
use crate::tournament::{ByeKind, Colour, RoundEntry, StartNo, Tournament};
use std::collections::{HashMap, HashSet};

/// Pairs the next round of `t` (the round after the longest history): the players not in
/// `t.next_round_absences`, by the ranking after the last round.
pub fn pair_next_round(
    t: &Tournament,
    options: &KeizerOptions,
) -> Result<RoundPairing, PairingSystemError> {
    if !t.pending_games.is_empty() {
        let mut games = t.pending_games.clone();
        games.sort_unstable();
        return Err(PairingError::UnplayedGames(games).into());
    }
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let after = standings(t, options, u32::try_from(played).unwrap_or(u32::MAX));
    let absent: HashSet<StartNo> = t.next_round_absences.iter().map(|a| a.player).collect();
    let mut present: Vec<StartNo> = after
        .rows
        .iter()
        .map(|row| row.start_no)
        .filter(|s| !absent.contains(s))
        .collect();
    if present.len() < 2 {
        return Err(PairingSystemError::TooFewPresent {
            present: u32::try_from(present.len()).unwrap_or(u32::MAX),
        });
    }
    let history = History::of(t, played);
    let bye = (present.len() % 2 == 1).then(|| {
        let place = present
            .iter()
            .rposition(|s| !history.had_bye.contains(s))
            .unwrap_or(present.len() - 1);
        present.remove(place)
    });
    let pairs = (0..=options.repeat_gap)
        .rev()
        .find_map(|gap| top_down(&present, |a, b| !history.met_within(a, b, gap)))
        .unwrap_or_default();
    let boards = pairs
        .into_iter()
        .map(|(higher, lower)| history.colours(higher, lower))
        .collect();
    Ok(RoundPairing { boards, bye })
}

/// What pairing needs from the rounds played: who met whom last, colours, byes.
struct History {
    rounds_played: usize,
    /// The last round (0-based) each pair met over the board, keyed lower start number
    /// first.
    last_met: HashMap<(StartNo, StartNo), usize>,
    /// Whites minus blacks of each player's games over the board.
    balance: HashMap<StartNo, i64>,
    /// The colour of each player's last game over the board.
    last_colour: HashMap<StartNo, Colour>,
    had_bye: HashSet<StartNo>,
}

impl History {
    fn of(t: &Tournament, rounds_played: usize) -> History {
        let mut history = History {
            rounds_played,
            last_met: HashMap::new(),
            balance: HashMap::new(),
            last_colour: HashMap::new(),
            had_bye: HashSet::new(),
        };
        for p in &t.players {
            for (round, entry) in p.rounds.iter().enumerate() {
                match *entry {
                    RoundEntry::Played {
                        opponent, colour, ..
                    } => {
                        let key = (p.start_no.min(opponent), p.start_no.max(opponent));
                        history.last_met.insert(key, round);
                        *history.balance.entry(p.start_no).or_default() += match colour {
                            Colour::White => 1,
                            Colour::Black => -1,
                        };
                        history.last_colour.insert(p.start_no, colour);
                    }
                    RoundEntry::Bye(ByeKind::PairingAllocated) => {
                        history.had_bye.insert(p.start_no);
                    }
                    _ => {}
                }
            }
        }
        history
    }

    /// Whether `a` and `b` played each other in one of the last `gap` rounds (a forfeited
    /// game was not played: it does not count).
    fn met_within(&self, a: StartNo, b: StartNo, gap: u32) -> bool {
        self.last_met
            .get(&(a.min(b), a.max(b)))
            .is_some_and(|&round| round + gap as usize >= self.rounds_played)
    }

    /// The board of `higher` (ranked higher) and `lower`: White to the one with fewer
    /// whites than blacks so far; equal, to the one who had Black last; still equal, to the
    /// higher-ranked.
    fn colours(&self, higher: StartNo, lower: StartNo) -> Board {
        let balance = |s| self.balance.get(&s).copied().unwrap_or(0);
        let black_last = |s| self.last_colour.get(&s) == Some(&Colour::Black);
        let lower_white = match balance(lower).cmp(&balance(higher)) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => black_last(lower) && !black_last(higher),
        };
        if lower_white {
            Board {
                white: lower,
                black: higher,
            }
        } else {
            Board {
                white: higher,
                black: lower,
            }
        }
    }
}

/// The lexicographically first top-down pairing of `players` (in ranking order, an even
/// number) where every pair is `allowed`: the highest unpaired player meets the highest
/// one below for whom the rest can still be paired. `None` when no pairing exists.
fn top_down(
    players: &[StartNo],
    allowed: impl Fn(StartNo, StartNo) -> bool,
) -> Option<Vec<(StartNo, StartNo)>> {
    if !can_all_be_paired(players, &allowed) {
        return None;
    }
    let mut rest = players.to_vec();
    let mut pairs = Vec::with_capacity(players.len() / 2);
    while !rest.is_empty() {
        let top = rest.remove(0);
        let place = (0..rest.len()).find(|&i| {
            allowed(top, rest[i]) && {
                let mut others = rest.clone();
                others.remove(i);
                can_all_be_paired(&others, &allowed)
            }
        })?;
        pairs.push((top, rest.remove(place)));
    }
    Some(pairs)
}

/// Whether `players` (an even number) can all be paired with `allowed` pairs: at once
/// when everyone may meet at least half the others (Dirac: the graph has a Hamiltonian
/// cycle, so a perfect matching), else by a maximum matching.
fn can_all_be_paired(players: &[StartNo], allowed: &impl Fn(StartNo, StartNo) -> bool) -> bool {
    let n = players.len();
    if n == 0 {
        return true;
    }
    let degree = |a: StartNo| players.iter().filter(|&&b| b != a && allowed(a, b)).count();
    if n >= 2 && players.iter().all(|&a| 2 * degree(a) >= n) {
        return true;
    }
    let mut weights = vec![Big::<1>::from_u64(0); n * n];
    for (u, &a) in players.iter().enumerate() {
        for (v, &b) in players.iter().enumerate() {
            if u != v && allowed(a, b) {
                weights[u * n + v] = Big::from_u64(1);
            }
        }
    }
    let mates = max_weight_matching(n, &weights);
    mates.iter().enumerate().all(|(u, &v)| v != u)
}
