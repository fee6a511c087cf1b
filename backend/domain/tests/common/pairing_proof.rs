//! An exhaustive prover for "no valid pairing exists", independent of the pairing engine
//! (no matching algorithm, no code of `damka_domain::dutch`): given who is to be paired and
//! what each player did before, does ANY pairing satisfy the absolute criteria of FIDE
//! C.04.1 / C.04.3 (TOURNAMENTS.md)?
//!
//! - no two players meet twice over the board (a forfeited pairing may be repeated: FIDE
//!   "such a pairing is not considered to be illegal in future rounds"; bbpPairings agrees);
//! - forbidden pairs never meet;
//! - the pairing-allocated bye only when the number of players to pair is odd, at most once
//!   per player and never after an unplayed full point (a forfeit win, a full-point bye);
//! - two non-topscorers with the same absolute colour preference never meet (topscorers:
//!   above 50% of the maximum score, when the last round is paired).
//!
//! Players with a requested bye or an absence are not paired and so are not in a
//! [`Problem`]. The search is a backtracking over the most constrained unpaired player, with
//! a memo of the sets of players already shown to have no valid pairing; it either finds a
//! pairing, proves that none exists, or gives up after a node budget (then the caller must
//! fail: an unproven claim is not accepted).
//!
//! Shared by `backend/domain/tests` and `tests/integration/swiss_random.rs` (included with
//! `#[path]`), each with its own adapter from what it knows to [`PlayerFacts`].
#![allow(dead_code)]

use damka_domain::tournament::{ByeKind, Colour, RoundEntry, Tournament};
use std::collections::HashSet;

/// What the absolute criteria need to know about one player to be paired.
#[derive(Debug, Clone, Default)]
pub struct PlayerFacts {
    /// A number that names the player in messages and in the pairing found (start number).
    pub id: u32,
    /// Score in half-points before the round.
    pub score: u32,
    /// Colours of the games played over the board, oldest first.
    pub colours: Vec<Colour>,
    /// Opponents met over the board (forfeited pairings are not listed).
    pub met: Vec<u32>,
    /// Had a pairing-allocated bye or another point without playing (a forfeit win, a bye
    /// worth a win): may not get the pairing-allocated bye.
    pub scored_without_playing: bool,
}

/// The absolute colour preference (C.04.3 A.6.a): a colour difference beyond ±1, or the same
/// colour in the last two games played.
pub fn absolute_preference(colours: &[Colour]) -> Option<Colour> {
    let whites = colours.iter().filter(|c| **c == Colour::White).count() as i64;
    let blacks = colours.len() as i64 - whites;
    if whites - blacks > 1 {
        return Some(Colour::Black);
    }
    if blacks - whites > 1 {
        return Some(Colour::White);
    }
    match colours {
        [.., a, b] if a == b => Some(b.opposite()),
        _ => None,
    }
}

/// The round to pair, as the absolute criteria see it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub players: Vec<PlayerFacts>,
    /// Forbidden pairs by id (either order).
    pub forbidden: Vec<(u32, u32)>,
    /// Whether this is the event's last round (the topscorer exception of C3 applies).
    pub last_round: bool,
    /// The maximum score (half-points) a player could have before the round.
    pub max_score: u32,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A pairing that satisfies every absolute criterion: pairs by id, and the bye.
    Pairing {
        pairs: Vec<(u32, u32)>,
        bye: Option<u32>,
    },
    /// No such pairing exists; `nodes` search nodes were needed to show it.
    Impossible { nodes: u64 },
    /// The budget ran out before the search was done.
    Undecided { nodes: u64 },
}

/// The search nodes a proof may take; the sizes the tests use need far fewer.
pub const DEFAULT_BUDGET: u64 = 20_000_000;

impl Problem {
    fn topscorer(&self, p: &PlayerFacts) -> bool {
        self.last_round && 2 * p.score > self.max_score
    }

    /// Whether `a` and `b` may meet under the absolute criteria.
    pub fn may_meet(&self, a: &PlayerFacts, b: &PlayerFacts) -> bool {
        if a.id == b.id || a.met.contains(&b.id) || b.met.contains(&a.id) {
            return false;
        }
        let pair = (a.id.min(b.id), a.id.max(b.id));
        if self
            .forbidden
            .iter()
            .any(|&(x, y)| (x.min(y), x.max(y)) == pair)
        {
            return false;
        }
        match (
            absolute_preference(&a.colours),
            absolute_preference(&b.colours),
        ) {
            (Some(x), Some(y)) if x == y => self.topscorer(a) || self.topscorer(b),
            _ => true,
        }
    }

    /// Whether `p` may get the pairing-allocated bye.
    pub fn may_have_bye(&self, p: &PlayerFacts) -> bool {
        !p.scored_without_playing
    }

    /// Every absolute criterion `pairs` and `bye` break (empty: a valid pairing), for
    /// checking the prover's own answers and the engine's.
    pub fn violations(&self, pairs: &[(u32, u32)], bye: Option<u32>) -> Vec<String> {
        let mut out = Vec::new();
        let find = |id: u32| self.players.iter().find(|p| p.id == id);
        let mut seen = HashSet::new();
        for id in pairs.iter().flat_map(|&(a, b)| [a, b]).chain(bye) {
            if find(id).is_none() {
                out.push(format!("{id} is not to be paired"));
            } else if !seen.insert(id) {
                out.push(format!("{id} is placed twice"));
            }
        }
        for p in &self.players {
            if !seen.contains(&p.id) {
                out.push(format!("{} is left out", p.id));
            }
        }
        for &(a, b) in pairs {
            if let (Some(x), Some(y)) = (find(a), find(b))
                && !self.may_meet(x, y)
            {
                out.push(format!("{a} and {b} may not meet"));
            }
        }
        match bye {
            Some(id) if self.players.len().is_multiple_of(2) => {
                out.push(format!("a bye for {id} with an even number of players"))
            }
            Some(id) if find(id).is_some_and(|p| !self.may_have_bye(p)) => {
                out.push(format!("{id} may not get the bye"))
            }
            None if !self.players.len().is_multiple_of(2) => {
                out.push("no bye with an odd number of players".to_string())
            }
            _ => {}
        }
        out
    }

    /// Searches for a valid pairing with at most `budget` search nodes.
    pub fn solve(&self, budget: u64) -> Verdict {
        let n = self.players.len();
        // The players, then (when their number is odd) the bye as one more vertex that
        // must be matched too.
        let vertices = n + n % 2;
        assert!(
            vertices <= 128,
            "the prover handles at most 127 players, not {n}"
        );
        let mut adjacent = vec![0u128; vertices];
        for i in 0..n {
            for j in i + 1..n {
                if self.may_meet(&self.players[i], &self.players[j]) {
                    adjacent[i] |= 1 << j;
                    adjacent[j] |= 1 << i;
                }
            }
            if !n.is_multiple_of(2) && self.may_have_bye(&self.players[i]) {
                adjacent[i] |= 1 << n;
                adjacent[n] |= 1 << i;
            }
        }
        let all = if vertices == 128 {
            u128::MAX
        } else {
            (1u128 << vertices) - 1
        };
        let mut search = Search {
            adjacent,
            failed: HashSet::new(),
            nodes: 0,
            budget,
            matched: Vec::new(),
        };
        match search.run(all) {
            Some(true) => {
                let mut pairs = Vec::new();
                let mut bye = None;
                for &(a, b) in &search.matched {
                    let (a, b) = (a.min(b), a.max(b));
                    if b == n {
                        bye = Some(self.players[a].id);
                    } else {
                        pairs.push((self.players[a].id, self.players[b].id));
                    }
                }
                Verdict::Pairing { pairs, bye }
            }
            Some(false) => Verdict::Impossible {
                nodes: search.nodes,
            },
            None => Verdict::Undecided {
                nodes: search.nodes,
            },
        }
    }

    /// The problem of the next round of `t`: the players not listed in
    /// `t.next_round_absences`, read from their round entries.
    pub fn of_tournament(t: &Tournament) -> Problem {
        let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0) as u32;
        let players = t
            .players
            .iter()
            .filter(|p| !t.next_round_absences.iter().any(|a| a.player == p.start_no))
            .map(|p| PlayerFacts {
                id: p.start_no,
                score: p.rounds.iter().map(|e| t.points.points(e).0).sum(),
                colours: p
                    .rounds
                    .iter()
                    .filter_map(|e| match *e {
                        RoundEntry::Played { colour, .. } => Some(colour),
                        _ => None,
                    })
                    .collect(),
                met: p
                    .rounds
                    .iter()
                    .filter_map(|e| match *e {
                        RoundEntry::Played { opponent, .. } => Some(opponent),
                        _ => None,
                    })
                    .collect(),
                scored_without_playing: p.rounds.iter().any(|e| {
                    !matches!(e, RoundEntry::Played { .. })
                        && (matches!(e, RoundEntry::Bye(ByeKind::PairingAllocated))
                            || t.points.points(e) >= t.points.win)
                }),
            })
            .collect();
        Problem {
            players,
            forbidden: t.forbidden_pairs.clone(),
            last_round: played + 1 == t.total_rounds,
            max_score: played * t.points.win.0,
        }
    }

    /// A short reason why no pairing exists, when a simple one does: a player nobody may
    /// meet, or an odd number of players none of whom may have the bye. `None`: the reason
    /// is a combination only the exhaustive search shows.
    pub fn obstruction(&self) -> Option<String> {
        let odd = !self.players.len().is_multiple_of(2);
        if odd && !self.players.iter().any(|p| self.may_have_bye(p)) {
            return Some(format!(
                "{} players and none of them may have the bye",
                self.players.len()
            ));
        }
        self.players.iter().find_map(|p| {
            let partners = self.players.iter().filter(|q| self.may_meet(p, q)).count();
            let bye = odd && self.may_have_bye(p);
            (partners == 0 && !bye).then(|| format!("player {} may meet nobody", p.id))
        })
    }

    /// The players and their facts, one line each, for a failure message.
    pub fn describe(&self) -> String {
        let mut out = format!(
            "{} players to pair, last round: {}, maximum score {}/2, forbidden pairs {:?}\n",
            self.players.len(),
            self.last_round,
            self.max_score,
            self.forbidden
        );
        for p in &self.players {
            let colours: String = p
                .colours
                .iter()
                .map(|c| if *c == Colour::White { 'w' } else { 'b' })
                .collect();
            out.push_str(&format!(
                "  {:>3}: score {}/2, colours {colours:<9} absolute {:?}, met {:?}{}\n",
                p.id,
                p.score,
                absolute_preference(&p.colours),
                p.met,
                if p.scored_without_playing {
                    ", no bye"
                } else {
                    ""
                }
            ));
        }
        out
    }
}

struct Search {
    /// Bit j of `adjacent[i]`: vertices i and j may be matched.
    adjacent: Vec<u128>,
    /// Sets of unmatched vertices known to have no perfect matching.
    failed: HashSet<u128>,
    nodes: u64,
    budget: u64,
    /// The matching of the branch being explored (complete when the search succeeds).
    matched: Vec<(usize, usize)>,
}

impl Search {
    /// Whether the vertices in `left` can all be matched; `None` when the budget ran out.
    fn run(&mut self, left: u128) -> Option<bool> {
        if left == 0 {
            return Some(true);
        }
        if self.failed.contains(&left) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        // Every vertex must be matched, so branching on any one of them is exhaustive:
        // take the one with the fewest partners left (none: this set fails at once).
        let mut best = usize::MAX;
        let mut best_options = u32::MAX;
        let mut rest = left;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let options = (self.adjacent[v] & left).count_ones();
            if options < best_options {
                best = v;
                best_options = options;
                if options <= 1 {
                    break;
                }
            }
        }
        let v = best;
        let mut partners = self.adjacent[v] & left;
        while partners != 0 {
            let u = partners.trailing_zeros() as usize;
            partners &= partners - 1;
            self.matched.push((v, u));
            match self.run(left & !(1 << v) & !(1 << u)) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => return None,
            }
            self.matched.pop();
        }
        self.failed.insert(left);
        Some(false)
    }
}
