//! What the Dutch system needs to know about each player before a round: score, colour
//! history and preference (C.04.1 / C.04.3 A6), floats of the last two rounds, bye
//! eligibility, and the effective pairing number.

use crate::tournament::{ByeKind, Colour, RoundEntry, StartNo, Tournament};
use std::collections::HashSet;

/// Direction of a player's float in a past round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

#[derive(Debug, Clone)]
pub struct PlayerState {
    pub start_no: StartNo,
    /// Effective pairing number, 0-based, among the players still in the event.
    pub rank: usize,
    /// Score for pairing in half-points: the score plus the round's acceleration (TRF
    /// `XXA`), which is what bbpPairings pairs, floats and allocates colours on.
    pub score: u32,
    /// Score without acceleration: only the order of the boards uses it, as in
    /// bbpPairings.
    pub unaccelerated_score: u32,
    pub played_games: u32,
    /// Colours played over the board, oldest first.
    pub colours: Vec<Colour>,
    pub preference: Option<Colour>,
    /// |games with White - games with Black|.
    pub imbalance: u32,
    /// The colour of the last two games played, when they were the same.
    pub repeated: Option<Colour>,
    pub strong: bool,
    pub bye_eligible: bool,
    /// Floats one and two rounds back.
    pub floats: [Float; 2],
}

impl PlayerState {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// Everything computed once per round.
pub struct RoundContext {
    /// The players to pair, in start-number order.
    pub players: Vec<PlayerState>,
    /// Index in `players` by start number.
    pub index_of: std::collections::HashMap<StartNo, usize>,
    /// Pairs (by index in `players`) that may not meet: played games and forbidden pairs.
    pub forbidden: HashSet<(usize, usize)>,
    pub played_rounds: u32,
    pub total_rounds: u32,
    /// Score (half-points) above which a player is a topscorer.
    pub topscore_threshold: u32,
    pub initial_colour: Colour,
}

fn entry_at(t: &Tournament, p: usize, r: usize) -> RoundEntry {
    t.players[p]
        .rounds
        .get(r)
        .copied()
        .unwrap_or(RoundEntry::NotPaired)
}

fn participated(e: &RoundEntry) -> bool {
    matches!(
        e,
        RoundEntry::Played { .. }
            | RoundEntry::Forfeit { .. }
            | RoundEntry::DoubleForfeit { .. }
            | RoundEntry::Bye(ByeKind::PairingAllocated)
    )
}

/// The colour of the top player in round 1 when the file does not say: inferred from the
/// first round with colours, as bbpPairings does; White when nothing is known.
fn infer_initial_colour(t: &Tournament, valid: &[bool], played: usize) -> Colour {
    let first_colour_round = (0..played).find(|&r| {
        (0..t.players.len()).any(|p| valid[p] && entry_at(t, p, r).played_colour().is_some())
    });
    let Some(r) = first_colour_round else {
        return Colour::White;
    };
    let mut number = 0usize;
    for p in 0..t.players.len() {
        if (0..=r).any(|k| participated(&entry_at(t, p, k))) {
            // The file's colour for this player, reversed for odd pairing numbers.
            let c = entry_at(t, p, r).played_colour();
            if let Some(c) = c {
                return if number % 2 == 1 { c.opposite() } else { c };
            }
            number += 1;
        }
    }
    Colour::White
}

pub fn build(t: &Tournament) -> RoundContext {
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let absent: HashSet<StartNo> = t.next_round_absences.iter().map(|a| a.player).collect();
    let mut order: Vec<usize> = (0..t.players.len()).collect();
    order.sort_by_key(|&i| t.players[i].start_no);
    let valid: Vec<bool> = (0..t.players.len())
        .map(|p| {
            !absent.contains(&t.players[p].start_no) || t.players[p].rounds.iter().any(participated)
        })
        .collect();
    let mut rank_of = vec![0usize; t.players.len()];
    let mut next_rank = 0;
    for &p in &order {
        if valid[p] {
            rank_of[p] = next_rank;
            next_rank += 1;
        }
    }
    let by_start: std::collections::HashMap<StartNo, usize> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_no, i))
        .collect();
    let mut players = Vec::new();
    for &p in &order {
        let pl = &t.players[p];
        if absent.contains(&pl.start_no) {
            continue;
        }
        let ColourHistory {
            colours,
            consecutive,
            last,
            bye_eligible,
        } = colour_history(t, p, played);
        let whites = colours.iter().filter(|c| **c == Colour::White).count() as u32;
        let blacks = colours.len() as u32 - whites;
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = whites.abs_diff(blacks);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if consecutive > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if consecutive > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let floats = floats_of(t, p, played, &by_start);
        players.push(PlayerState {
            start_no: pl.start_no,
            rank: rank_of[p],
            score: pairing_score(t, p, played),
            unaccelerated_score: score_after(t, p, played),
            played_games: colours.len() as u32,
            colours,
            preference,
            imbalance,
            repeated,
            strong: !absolute && imbalance != 0,
            bye_eligible,
            floats,
        });
    }
    let index_of: std::collections::HashMap<StartNo, usize> = players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_no, i))
        .collect();
    let forbidden = forbidden_pairs(t, &index_of);
    let max_result = t.points.win.0.max(t.points.draw.0);
    RoundContext {
        initial_colour: t
            .first_colour
            .unwrap_or_else(|| infer_initial_colour(t, &valid, played)),
        players,
        index_of,
        forbidden,
        played_rounds: played as u32,
        total_rounds: t.total_rounds,
        topscore_threshold: (played as u32 * max_result) >> 1,
    }
}

/// Score of player `p` after the first `k` rounds.
fn score_after(t: &Tournament, p: usize, k: usize) -> u32 {
    (0..k).map(|r| t.points.points(&entry_at(t, p, r)).0).sum()
}

/// The score round `k` (0-based) was or is paired on: bbpPairings' scoreWithAcceleration,
/// the score after the rounds before it plus that round's acceleration.
fn pairing_score(t: &Tournament, p: usize, k: usize) -> u32 {
    score_after(t, p, k) + t.players[p].acceleration(k).0
}

/// The colours a player had in the games played, how many times in a row the last one,
/// and whether a bye may still be given (no PAB and no point as large as a win yet).
struct ColourHistory {
    colours: Vec<Colour>,
    consecutive: u32,
    last: Option<Colour>,
    bye_eligible: bool,
}

fn colour_history(t: &Tournament, p: usize, played: usize) -> ColourHistory {
    let mut colours = Vec::new();
    let mut consecutive = 0u32;
    let mut last: Option<Colour> = None;
    let mut bye_eligible = true;
    for r in 0..played {
        let e = entry_at(t, p, r);
        if let Some(c) = e.played_colour() {
            colours.push(c);
            consecutive = if last == Some(c) { consecutive + 1 } else { 1 };
            last = Some(c);
        } else {
            let pts = t.points.points(&e);
            if pts >= t.points.win || matches!(e, RoundEntry::Bye(ByeKind::PairingAllocated)) {
                bye_eligible = false;
            }
        }
    }
    ColourHistory {
        colours,
        consecutive,
        last,
        bye_eligible,
    }
}

/// How player `p` floated in the last two rounds (the last first): down or up against an
/// opponent of another pairing score, down with a bye worth more than a loss.
fn floats_of(
    t: &Tournament,
    p: usize,
    played: usize,
    by_start: &std::collections::HashMap<StartNo, usize>,
) -> [Float; 2] {
    let mut floats = [Float::None; 2];
    for (k, f) in floats.iter_mut().enumerate() {
        let back = k + 1;
        if played < back {
            continue;
        }
        let r = played - back;
        let e = entry_at(t, p, r);
        *f = match e {
            RoundEntry::Played { opponent, .. } => {
                let own = pairing_score(t, p, r);
                let opp = by_start
                    .get(&opponent)
                    .map_or(own, |&o| pairing_score(t, o, r));
                if own > opp {
                    Float::Down
                } else if own < opp {
                    Float::Up
                } else {
                    Float::None
                }
            }
            _ => {
                if t.points.points(&e) > t.points.loss {
                    Float::Down
                } else {
                    Float::None
                }
            }
        };
    }
    floats
}

/// Pairs that may not meet again (by index into `players`): those who met, and the pairs
/// the event forbids.
fn forbidden_pairs(
    t: &Tournament,
    index_of: &std::collections::HashMap<StartNo, usize>,
) -> HashSet<(usize, usize)> {
    let mut forbidden = HashSet::new();
    let mut forbid = |a: StartNo, b: StartNo| {
        if let (Some(&x), Some(&y)) = (index_of.get(&a), index_of.get(&b)) {
            forbidden.insert((x.min(y), x.max(y)));
        }
    };
    for pl in &t.players {
        for e in &pl.rounds {
            if let RoundEntry::Played { opponent, .. } = e {
                forbid(pl.start_no, *opponent);
            }
        }
    }
    for &(a, b) in &t.forbidden_pairs {
        forbid(a, b);
    }
    forbidden
}

impl RoundContext {
    /// Absolute criteria C1 and C3 (with the topscorer exception in the last round).
    pub fn compatible(&self, a: usize, b: usize) -> bool {
        if self.forbidden.contains(&(a.min(b), a.max(b))) {
            return false;
        }
        let (pa, pb) = (&self.players[a], &self.players[b]);
        !pa.absolute()
            || !pb.absolute()
            || pa.preference != pb.preference
            || (self.played_rounds + 1 >= self.total_rounds
                && (pa.score > self.topscore_threshold || pb.score > self.topscore_threshold))
    }
}
