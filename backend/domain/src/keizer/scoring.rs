//! The Keizer score of every player for a ranking, and the ranking after a round.

use super::options::{KeizerMethod, KeizerOptions, MAX_ITERATIONS};
use super::{KeizerRound, KeizerRow, KeizerStandings};
use crate::tournament::{ByeKind, Outcome, RoundEntry, Tournament};

/// A ranking: player indices (into `Tournament::players`), first-ranked first.
type Ranking = Vec<usize>;

/// The value number of every player (by index) in `ranking`: the player ranked r has
/// `top_value - (r - 1) * value_step`, never below zero.
fn values(ranking: &[usize], options: &KeizerOptions) -> Vec<u32> {
    let entries = u32::try_from(ranking.len()).unwrap_or(u32::MAX);
    let top = options.top_value.unwrap_or(entries);
    let mut values = vec![0; ranking.len()];
    for (place, &player) in ranking.iter().enumerate() {
        let place = u32::try_from(place).unwrap_or(u32::MAX);
        values[player] = top.saturating_sub(place.saturating_mul(options.value_step));
    }
    values
}

/// The start order: by start number.
fn start_order(t: &Tournament) -> Ranking {
    let mut order: Ranking = (0..t.players.len()).collect();
    order.sort_by_key(|&i| t.players[i].start_no);
    order
}

/// Player index by start number, for the opponents a round entry names.
fn index_of_start_no(t: &Tournament) -> Vec<Option<usize>> {
    let highest = t.players.iter().map(|p| p.start_no).max().unwrap_or(0) as usize;
    let mut index = vec![None; highest + 1];
    for (i, p) in t.players.iter().enumerate() {
        index[p.start_no as usize] = Some(i);
    }
    index
}

/// What one round gave: the value it is scored with (`None`: it scores nothing by rule)
/// and the share of it, in sixths.
fn round_share(
    entry: RoundEntry,
    own: u32,
    opponent_value: impl Fn(u32) -> u32,
    excused_so_far: &mut u32,
    options: &KeizerOptions,
) -> (Option<u32>, u32) {
    match entry {
        RoundEntry::Played {
            opponent, outcome, ..
        } => {
            let share = match outcome {
                Outcome::Win => options.win_sixths,
                Outcome::Draw => options.draw_sixths,
                Outcome::Loss => options.loss_sixths,
            };
            (Some(opponent_value(opponent)), share)
        }
        RoundEntry::Forfeit {
            opponent,
            won: true,
            ..
        } => (Some(opponent_value(opponent)), options.win_sixths),
        RoundEntry::Forfeit { won: false, .. }
        | RoundEntry::DoubleForfeit { .. }
        | RoundEntry::NotPaired => (None, 0),
        RoundEntry::Bye(ByeKind::PairingAllocated | ByeKind::FullPoint) => {
            (Some(own), options.bye_sixths)
        }
        // A half-point bye (an imported event's) is an absence the player announced.
        RoundEntry::Bye(ByeKind::Excused | ByeKind::HalfPoint) => {
            *excused_so_far += 1;
            if *excused_so_far <= options.max_scored_absences {
                (Some(own), options.excused_sixths)
            } else {
                (None, 0)
            }
        }
        RoundEntry::Bye(ByeKind::ClubDuty) => (Some(own), options.club_duty_sixths),
        RoundEntry::Bye(ByeKind::ZeroPoint) => (Some(own), options.absent_sixths),
    }
}

/// Scores rounds `1..=rounds` of every player with the value numbers of `ranking`. With
/// `explain`, each player's rounds are listed too (the cards need them; the iterations
/// that only rank do not).
struct Scorer<'a> {
    t: &'a Tournament,
    options: &'a KeizerOptions,
    index: Vec<Option<usize>>,
}

/// One player's score for a ranking.
struct Score {
    sixths: u64,
    own_value_sixths: u64,
    rounds: Vec<KeizerRound>,
}

impl Scorer<'_> {
    fn score(&self, ranking: &[usize], rounds: u32, explain: bool) -> Vec<Score> {
        let values = values(ranking, self.options);
        let opponent_value = |start_no: u32| {
            self.index
                .get(start_no as usize)
                .copied()
                .flatten()
                .map_or(0, |i| values[i])
        };
        let mut scores = Vec::with_capacity(self.t.players.len());
        for (i, player) in self.t.players.iter().enumerate() {
            let own = values[i];
            let own_value_sixths = if self.options.own_value {
                u64::from(own) * 6
            } else {
                0
            };
            let mut score = Score {
                sixths: own_value_sixths,
                own_value_sixths,
                rounds: Vec::new(),
            };
            let mut excused = 0;
            for round in 0..rounds {
                let entry = player.entry(round as usize);
                let (value, share) =
                    round_share(entry, own, opponent_value, &mut excused, self.options);
                let earned_sixths = value.map_or(0, |v| u64::from(v) * u64::from(share));
                score.sixths += earned_sixths;
                if explain {
                    score.rounds.push(KeizerRound {
                        round: round + 1,
                        entry,
                        value,
                        share_sixths: share,
                        earned_sixths,
                    });
                }
            }
            scores.push(score);
        }
        scores
    }

    /// The ranking the scores give: higher first, equal scores by start number.
    fn rank(&self, scores: &[Score]) -> Ranking {
        let mut order: Ranking = (0..self.t.players.len()).collect();
        order.sort_by(|&a, &b| {
            scores[b]
                .sixths
                .cmp(&scores[a].sixths)
                .then(self.t.players[a].start_no.cmp(&self.t.players[b].start_no))
        });
        order
    }

    /// The ranking after round `round` that starts from `before` (the ranking after the
    /// round before it), and the ranking its scores were computed with.
    fn ranking_after(&self, before: Ranking, round: u32) -> (Ranking, Ranking) {
        match self.options.method {
            KeizerMethod::PerRound => {
                let after = self.rank(&self.score(&before, round, false));
                (before, after)
            }
            KeizerMethod::Iterative => {
                let mut used = before;
                let mut after = self.rank(&self.score(&used, round, false));
                for _ in 1..MAX_ITERATIONS {
                    if after == used {
                        break;
                    }
                    used = after;
                    after = self.rank(&self.score(&used, round, false));
                }
                (used, after)
            }
        }
    }
}

/// The Keizer standings of `t` after round `after_round` (0: the start order, every
/// score the own value).
///
/// With `iterative`, a ranking that has not settled after [`MAX_ITERATIONS`] rankings
/// stands as the last one computed: its scores (and the cards) are those of the ranking
/// before it.
pub fn standings(t: &Tournament, options: &KeizerOptions, after_round: u32) -> KeizerStandings {
    let scorer = Scorer {
        t,
        options,
        index: index_of_start_no(t),
    };
    let mut used = start_order(t);
    let mut after = used.clone();
    for round in 1..=after_round {
        (used, after) = scorer.ranking_after(after, round);
    }
    let scores = scorer.score(&used, after_round, true);
    let values_now = values(&after, options);
    let rows = after
        .iter()
        .enumerate()
        .map(|(place, &i)| {
            let Score {
                sixths,
                own_value_sixths,
                ref rounds,
            } = scores[i];
            KeizerRow {
                start_no: t.players[i].start_no,
                rank: u32::try_from(place + 1).unwrap_or(u32::MAX),
                value: values_now[i],
                sixths,
                own_value_sixths,
                rounds: rounds.clone(),
            }
        })
        .collect();
    KeizerStandings { after_round, rows }
}
