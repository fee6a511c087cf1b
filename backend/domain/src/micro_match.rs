//! STUB (replaced by the `micro-domain` branch at merge).
use crate::tournament::{HalfPoints, Outcome, Tournament};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchScoring {
    GamePoints,
    MatchPoints,
}

pub fn collapse(points: HalfPoints, games: u32) -> Outcome {
    match points.0.cmp(&games) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

pub fn round_score(scoring: MatchScoring, game_points_for: HalfPoints, games: u32) -> HalfPoints {
    match scoring {
        MatchScoring::GamePoints => game_points_for,
        MatchScoring::MatchPoints => match collapse(game_points_for, games) {
            Outcome::Win => HalfPoints(4),
            Outcome::Draw => HalfPoints(2),
            Outcome::Loss => HalfPoints(0),
        },
    }
}

pub fn set_pairing_accelerations(_t: &mut Tournament) {}
