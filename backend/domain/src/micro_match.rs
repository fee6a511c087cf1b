//! Micro-matches: each pairing of a round plays several games (two in Russian Cup events,
//! colours swapped in the second), scored by summed game points or by match points 2-1-0.
//!
//! The round's [`RoundEntry`] keeps one *collapsed* result per pairing, as PlayStrategy's
//! TRF export writes it for bbpPairings: a win when the player scored more than half the
//! pairing's game points, a draw at exactly half, a loss below. The pairing colour is the
//! first game's colour. What the round really gave goes into [`Player::round_scores`], and
//! [`set_pairing_accelerations`] turns the difference into TRF `XXA` accelerations, so that
//! the Dutch system pairs on the real totals while every other rule (colours, byes, floats
//! of unplayed rounds) reads the collapsed results, exactly as bbpPairings does with
//! PlayStrategy's files.
//!
//! Game points are counted per game on the 1 - 1/2 - 0 scale (two half-points a game).

use crate::tournament::{HalfPoints, Outcome, StartNo, Tournament};

pub use crate::tournament::{MATCH_POINTS_DRAW, MATCH_POINTS_WIN, MatchScoring, MicroMatch};

// The format itself lives with the event's other settings in `tournament` (a `Tournament`
// carries it); the rules that read a round through it live here.
impl MicroMatch {
    /// [`round_score`] with this format.
    pub fn round_score(&self, game_points_for: HalfPoints) -> HalfPoints {
        round_score(self.scoring, game_points_for, self.games)
    }
}

/// The collapsed result of a pairing in which the player scored `points` game points over
/// `games` games: the pairing holds `2 * games` half-points, so above `games` half-points
/// is a win, exactly `games` a draw, below a loss.
pub fn collapse(points: HalfPoints, games: u32) -> Outcome {
    match points.0.cmp(&games) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// What the round gives a player who scored `game_points_for` over `games` games: the sum
/// itself, or 2/1/0 match points by the collapsed result.
pub fn round_score(scoring: MatchScoring, game_points_for: HalfPoints, games: u32) -> HalfPoints {
    match scoring {
        MatchScoring::GamePoints => game_points_for,
        MatchScoring::MatchPoints => match collapse(game_points_for, games) {
            Outcome::Win => MATCH_POINTS_WIN,
            Outcome::Draw => MATCH_POINTS_DRAW,
            Outcome::Loss => HalfPoints::ZERO,
        },
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccelerationError {
    /// bbpPairings' points are unsigned: a real total below the collapsed total (possible
    /// only with a point system worth more per collapsed win than the games give, such as
    /// 3-1-0, or a round score below the collapsed result) cannot be written as `XXA`.
    #[error(
        "player {player} has {real_half_points} half-points before round {round} but the \
         collapsed results give {collapsed_half_points}: a negative acceleration cannot be \
         paired"
    )]
    Negative {
        player: StartNo,
        /// 1-based: the round whose acceleration would be negative.
        round: u32,
        real_half_points: u64,
        collapsed_half_points: u64,
    },
}

/// Fills every player's [`crate::tournament::Player::accelerations`] the way PlayStrategy
/// writes `XXA`: for rounds 1 ..= min(played + 1, total rounds) (all rounds once the event
/// is finished), the acceleration of round n is the real points minus the collapsed points
/// over the rounds before n. Call it before pairing or exporting a micro-match event; for
/// other events every acceleration comes out zero.
pub fn set_pairing_accelerations(t: &mut Tournament) -> Result<(), AccelerationError> {
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let count = match t.total_rounds {
        0 => played + 1,
        total => (played + 1).min(total as usize),
    };
    let points = t.points;
    for player in &mut t.players {
        let mut real = 0u64;
        let mut collapsed = 0u64;
        let mut accelerations = Vec::with_capacity(count);
        for r in 0..count {
            let difference = real
                .checked_sub(collapsed)
                .ok_or(AccelerationError::Negative {
                    player: player.start_no,
                    round: r as u32 + 1,
                    real_half_points: real,
                    collapsed_half_points: collapsed,
                })?;
            accelerations.push(HalfPoints(u32::try_from(difference).unwrap_or(u32::MAX)));
            real += u64::from(player.round_points(&points, r).0);
            collapsed += u64::from(points.points(&player.entry(r)).0);
        }
        player.accelerations = accelerations;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{ByeKind, Colour, Player, PointSystem, RoundEntry};

    #[test]
    fn collapse_compares_with_half_the_pairing() {
        // Two games: 4 half-points in the pairing.
        assert_eq!(collapse(HalfPoints(4), 2), Outcome::Win);
        assert_eq!(collapse(HalfPoints(3), 2), Outcome::Win);
        assert_eq!(collapse(HalfPoints(2), 2), Outcome::Draw);
        assert_eq!(collapse(HalfPoints(1), 2), Outcome::Loss);
        assert_eq!(collapse(HalfPoints(0), 2), Outcome::Loss);
        // Three games: 1.5 points is a draw, 2 a win.
        assert_eq!(collapse(HalfPoints(3), 3), Outcome::Draw);
        assert_eq!(collapse(HalfPoints(4), 3), Outcome::Win);
        // One game is an ordinary game.
        assert_eq!(collapse(HalfPoints(2), 1), Outcome::Win);
        assert_eq!(collapse(HalfPoints(1), 1), Outcome::Draw);
    }

    #[test]
    fn round_score_sums_game_points_or_gives_match_points() {
        let gp = MatchScoring::GamePoints;
        let mp = MatchScoring::MatchPoints;
        assert_eq!(round_score(gp, HalfPoints(3), 2), HalfPoints(3));
        assert_eq!(round_score(gp, HalfPoints(0), 2), HalfPoints(0));
        assert_eq!(round_score(mp, HalfPoints(3), 2), HalfPoints(4));
        assert_eq!(round_score(mp, HalfPoints(4), 2), HalfPoints(4));
        assert_eq!(round_score(mp, HalfPoints(2), 2), HalfPoints(2));
        assert_eq!(round_score(mp, HalfPoints(1), 2), HalfPoints(0));
        let m = MicroMatch {
            games: 2,
            scoring: mp,
        };
        assert_eq!(m.round_score(HalfPoints(3)), HalfPoints(4));
        let p = PointSystem::default();
        assert_eq!(m.round_win(&p), HalfPoints(4));
        assert_eq!(m.round_draw(&p), HalfPoints(2));
        let g = MicroMatch {
            games: 3,
            scoring: gp,
        };
        assert_eq!(g.round_win(&p), HalfPoints(6));
        assert_eq!(g.round_draw(&p), HalfPoints(3));
    }

    #[test]
    fn scoring_codes_read_back() {
        for s in MatchScoring::ALL {
            assert_eq!(MatchScoring::from_code(s.code()), Some(s));
        }
        assert_eq!(MatchScoring::GamePoints.code(), "game_points");
        assert_eq!(MatchScoring::MatchPoints.code(), "match_points");
        assert_eq!(MatchScoring::from_code("points"), None);
        assert_eq!(MatchScoring::default(), MatchScoring::GamePoints);
    }

    fn game(opponent: StartNo, colour: Colour, outcome: Outcome) -> RoundEntry {
        RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        }
    }

    /// Player 1 of a 2-game micro-match: round 1 won 2-0, round 2 drawn 1-1, round 3 lost
    /// 0.5-1.5, round 4 the PAB (worth two games won).
    fn event(scoring: MatchScoring) -> Tournament {
        let m = MicroMatch { games: 2, scoring };
        let entries = [
            game(2, Colour::White, Outcome::Win),
            game(3, Colour::Black, Outcome::Draw),
            game(4, Colour::White, Outcome::Loss),
            RoundEntry::Bye(ByeKind::PairingAllocated),
        ];
        let game_points = [HalfPoints(4), HalfPoints(2), HalfPoints(1)];
        let mut round_scores: Vec<Option<HalfPoints>> = game_points
            .iter()
            .map(|&gp| Some(m.round_score(gp)))
            .collect();
        // The service gives a bye the points of every game won.
        round_scores.push(Some(m.round_win(&PointSystem::default())));
        Tournament {
            total_rounds: 5,
            micro_match: Some(m),
            players: vec![Player {
                start_no: 1,
                rounds: entries.to_vec(),
                round_scores,
                ..Player::default()
            }],
            ..Tournament::default()
        }
    }

    fn accelerations_after(scoring: MatchScoring, rounds: usize) -> Vec<f64> {
        let mut t = event(scoring);
        t.players[0].rounds.truncate(rounds);
        t.players[0].round_scores.truncate(rounds);
        set_pairing_accelerations(&mut t).expect("non-negative");
        t.players[0]
            .accelerations
            .iter()
            .map(|a| a.as_f64())
            .collect()
    }

    #[test]
    fn accelerations_are_playstrategys_cumulative_differences() {
        // Game points: +1 (2 vs 1), +0.5 (1 vs 0.5), +0.5 (0.5 vs 0), +1 (PAB 2 vs 1).
        let gp = MatchScoring::GamePoints;
        assert_eq!(accelerations_after(gp, 0), [0.0]);
        assert_eq!(accelerations_after(gp, 1), [0.0, 1.0]);
        assert_eq!(accelerations_after(gp, 3), [0.0, 1.0, 1.5, 2.0]);
        // Five rounds in all: the last round paired uses round 5's entry; after the event
        // (played = total) there is one entry per round, no more.
        assert_eq!(accelerations_after(gp, 4), [0.0, 1.0, 1.5, 2.0, 3.0]);
        // Match points: +1 (2 vs 1), +0.5 (1 vs 0.5), 0 (0 vs 0), +1 (PAB 2 vs 1).
        let mp = MatchScoring::MatchPoints;
        assert_eq!(accelerations_after(mp, 3), [0.0, 1.0, 1.5, 1.5]);
        assert_eq!(accelerations_after(mp, 4), [0.0, 1.0, 1.5, 1.5, 2.5]);
    }

    #[test]
    fn an_event_that_is_over_has_one_acceleration_per_round() {
        let mut t = event(MatchScoring::GamePoints);
        t.total_rounds = 4;
        set_pairing_accelerations(&mut t).expect("non-negative");
        assert_eq!(t.players[0].accelerations.len(), 4);
    }

    #[test]
    fn a_real_total_below_the_collapsed_one_is_refused() {
        // 3-1-0 scoring: a collapsed win is worth 3 points, two games give 2 at most.
        let mut t = event(MatchScoring::GamePoints);
        t.points.win = HalfPoints(6);
        assert_eq!(
            set_pairing_accelerations(&mut t),
            Err(AccelerationError::Negative {
                player: 1,
                round: 2,
                real_half_points: 4,
                collapsed_half_points: 6,
            })
        );
    }
}
