//! Round-robin schedules from the Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! Players are numbered 1..n. For an odd n a dummy player n+1 is added; whoever is paired
//! with the dummy has the bye that round. The first-named player of a board has White.
//!
//! In round r of the table for an even m (m = n, or n+1 for odd n), with
//! a = ((r-1)·m/2 mod (m-1)) + 1, player m meets a (m has Black in odd rounds, White in even
//! rounds) on board 1; board k+1 pairs (a+k) with White against (a-k), both taken mod (m-1)
//! in 1..m-1, for k = 1..m/2-1. This reproduces the published tables for every m.
//!
//! A double round-robin repeats the first cycle with colours reversed; in the first cycle the
//! last two rounds are swapped, otherwise some players would get the same colour three times
//! running across the two cycles (TOURNAMENTS.md).

use crate::tournament::StartNo;

/// Smallest and largest number of players a schedule is built for.
pub const MIN_PLAYERS: u32 = 2;
pub const MAX_PLAYERS: u32 = 1000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    #[error("a round-robin needs between {MIN_PLAYERS} and {MAX_PLAYERS} players, not {0}")]
    PlayerCount(u32),
    #[error("round {round} does not exist: a cycle for {players} players has {rounds} rounds")]
    Round {
        players: u32,
        round: u32,
        rounds: u32,
    },
    #[error("a round-robin has one or two cycles, not {0}")]
    Cycles(u32),
}

/// One board of a round: `white` has White.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pub white: StartNo,
    pub black: StartNo,
}

/// The pairings of one round, boards in the order of the published table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPairings {
    /// 1-based round number in the whole event (the second cycle continues the numbering).
    pub round: u32,
    pub boards: Vec<Board>,
    /// The player paired with the dummy (odd numbers of players only).
    pub bye: Option<StartNo>,
}

/// Rounds in one cycle for `players` players: n-1 for even n, n for odd n.
pub fn rounds_per_cycle(players: u32) -> u32 {
    even_size(players) - 1
}

fn even_size(players: u32) -> u32 {
    players + players % 2
}

fn check_players(players: u32) -> Result<(), BergerError> {
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        Ok(())
    } else {
        Err(BergerError::PlayerCount(players))
    }
}

/// Round `round` (1-based) of the single-cycle Berger table for `players` players.
pub fn berger_round(players: u32, round: u32) -> Result<RoundPairings, BergerError> {
    check_players(players)?;
    let m = even_size(players);
    let rounds = m - 1;
    if round == 0 || round > rounds {
        return Err(BergerError::Round {
            players,
            round,
            rounds,
        });
    }
    // Numbers 1..m-1 on a circle: wrap any integer into 1..=m-1.
    let wrap = |x: i64| -> StartNo {
        let modulus = i64::from(rounds);
        // rem_euclid of a positive modulus lies in 0..modulus, which fits a u32.
        u32::try_from((x - 1).rem_euclid(modulus) + 1).unwrap_or(1)
    };
    let a = ((round - 1) * (m / 2)) % rounds + 1;
    let mut boards = Vec::with_capacity((m / 2) as usize);
    if round % 2 == 1 {
        boards.push(Board { white: a, black: m });
    } else {
        boards.push(Board { white: m, black: a });
    }
    for k in 1..m / 2 {
        boards.push(Board {
            white: wrap(i64::from(a) + i64::from(k)),
            black: wrap(i64::from(a) - i64::from(k)),
        });
    }
    let mut bye = None;
    if m != players {
        // The dummy is player m: drop its board and record the bye.
        boards.retain(|b| {
            if b.white == m || b.black == m {
                bye = Some(if b.white == m { b.black } else { b.white });
                false
            } else {
                true
            }
        });
    }
    Ok(RoundPairings { round, boards, bye })
}

/// The whole single-cycle schedule for `players` players.
pub fn single_round_robin(players: u32) -> Result<Vec<RoundPairings>, BergerError> {
    check_players(players)?;
    (1..=rounds_per_cycle(players))
        .map(|r| berger_round(players, r))
        .collect()
}

/// The double round-robin: the first cycle with its last two rounds swapped, then the
/// first cycle again with colours reversed. Rounds are numbered 1..2·(rounds per cycle).
pub fn double_round_robin(players: u32) -> Result<Vec<RoundPairings>, BergerError> {
    let mut first = single_round_robin(players)?;
    let len = first.len();
    let second: Vec<RoundPairings> = first
        .iter()
        .map(|r| RoundPairings {
            round: r.round + len as u32,
            boards: r
                .boards
                .iter()
                .map(|b| Board {
                    white: b.black,
                    black: b.white,
                })
                .collect(),
            bye: r.bye,
        })
        .collect();
    if len >= 2 {
        first.swap(len - 1, len - 2);
    }
    for (i, r) in first.iter_mut().enumerate() {
        r.round = i as u32 + 1;
    }
    first.extend(second);
    Ok(first)
}

/// One or two cycles, as an event is configured.
pub fn round_robin_schedule(players: u32, cycles: u32) -> Result<Vec<RoundPairings>, BergerError> {
    match cycles {
        1 => single_round_robin(players),
        2 => double_round_robin(players),
        other => Err(BergerError::Cycles(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_input() {
        assert_eq!(berger_round(1, 1), Err(BergerError::PlayerCount(1)));
        assert!(matches!(
            berger_round(4, 4),
            Err(BergerError::Round { rounds: 3, .. })
        ));
        assert!(matches!(berger_round(5, 0), Err(BergerError::Round { .. })));
        assert_eq!(round_robin_schedule(4, 3), Err(BergerError::Cycles(3)));
    }

    #[test]
    fn three_players_have_one_bye_each() {
        let s = single_round_robin(3).expect("3 players");
        assert_eq!(s.len(), 3);
        let byes: Vec<_> = s.iter().map(|r| r.bye.expect("a bye")).collect();
        assert_eq!(byes, vec![1, 3, 2]);
        assert!(s.iter().all(|r| r.boards.len() == 1));
    }
}
