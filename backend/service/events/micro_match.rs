//! A pairing that plays two games (a micro-match): each game has its own result, in that
//! game's colours (the second game's White is the pairing's Black); the pairing's result is
//! the pair of them, collapsed to one result for everything that takes one result a board
//! (the pairing engine, the colour history, the TRF), and its real points per player go to
//! the standings.
use damka_domain::tournament::{ByeKind, HalfPoints};

use damka_domain::vocabulary::{MatchScoring, ResultCode};

/// White's and Black's half-points in one game of its own colours.
fn game_half_points(result: ResultCode) -> (u32, u32) {
    match result {
        ResultCode::WhiteWins | ResultCode::WhiteWinsByForfeit => (2, 0),
        ResultCode::Draw => (1, 1),
        ResultCode::BlackWins | ResultCode::BlackWinsByForfeit => (0, 2),
        ResultCode::DoubleForfeit => (0, 0),
    }
}

/// The pairing White's and Black's game points from the games' results (game 1 in the
/// pairing's colours, game 2 with colours swapped); games without a result count nothing.
pub fn game_points(results: &[(i32, Option<ResultCode>)]) -> (HalfPoints, HalfPoints) {
    let (mut white, mut black) = (0, 0);
    for (game_no, result) in results {
        let Some(result) = result else { continue };
        let (game_white, game_black) = game_half_points(*result);
        if game_no % 2 == 1 {
            white += game_white;
            black += game_black;
        } else {
            white += game_black;
            black += game_white;
        }
    }
    (HalfPoints(white), HalfPoints(black))
}

/// The pairing's one result once every game has one: who scored more of the games' points
/// won it (a draw when they are level), over the board if any game was played, else by
/// forfeit. `None` while a game has no result.
pub fn combined_result(results: &[(i32, Option<ResultCode>)], games: i32) -> Option<ResultCode> {
    if results.len() < games as usize || results.iter().any(|(_, r)| r.is_none()) {
        return None;
    }
    let played = results
        .iter()
        .any(|(_, r)| r.is_some_and(ResultCode::played));
    let (white, black) = game_points(results);
    Some(match (played, white.cmp(&black)) {
        (true, std::cmp::Ordering::Greater) => ResultCode::WhiteWins,
        (true, std::cmp::Ordering::Equal) => ResultCode::Draw,
        (true, std::cmp::Ordering::Less) => ResultCode::BlackWins,
        (false, std::cmp::Ordering::Greater) => ResultCode::WhiteWinsByForfeit,
        (false, std::cmp::Ordering::Less) => ResultCode::BlackWinsByForfeit,
        (false, std::cmp::Ordering::Equal) => ResultCode::DoubleForfeit,
    })
}

/// What the pairing gives each side in the standings: the game points, or match points
/// (2 for the match won, 1 drawn, 0 lost).
pub fn round_scores(
    scoring: MatchScoring,
    results: &[(i32, Option<ResultCode>)],
    combined: ResultCode,
) -> (HalfPoints, HalfPoints) {
    match scoring {
        MatchScoring::GamePoints => game_points(results),
        MatchScoring::MatchPoints => {
            let (white, black) = game_half_points(combined);
            (HalfPoints(white * 2), HalfPoints(black * 2))
        }
    }
}

/// What a round without an opponent gives in a micro-match of `games` games: a bye worth
/// a win (the pairing-allocated bye at its set value, a full-point bye) counts as every
/// game won, a half-point bye as half the games' points; on match points, the match's
/// value for the same outcome.
pub fn bye_score(
    scoring: MatchScoring,
    kind: ByeKind,
    pab_half_points: u32,
    games: u32,
) -> HalfPoints {
    let per_game = match kind {
        ByeKind::PairingAllocated => pab_half_points.min(2),
        ByeKind::FullPoint => 2,
        ByeKind::HalfPoint => 1,
        ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty => 0,
    };
    match scoring {
        MatchScoring::GamePoints => HalfPoints(per_game * games),
        MatchScoring::MatchPoints => HalfPoints(per_game * 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ResultCode::*;

    fn games(first: ResultCode, second: ResultCode) -> Vec<(i32, Option<ResultCode>)> {
        vec![(1, Some(first)), (2, Some(second))]
    }

    #[test]
    fn the_second_game_counts_with_colours_swapped() {
        // The pairing's White wins game 1 with White and game 2 with Black.
        assert_eq!(
            game_points(&games(WhiteWins, BlackWins)),
            (HalfPoints(4), HalfPoints(0))
        );
        assert_eq!(
            combined_result(&games(WhiteWins, BlackWins), 2),
            Some(WhiteWins)
        );
        // Each wins with White: level, a drawn match.
        assert_eq!(combined_result(&games(WhiteWins, WhiteWins), 2), Some(Draw));
        // A win and a draw: 1½-½.
        assert_eq!(
            game_points(&games(Draw, WhiteWins)),
            (HalfPoints(1), HalfPoints(3))
        );
        assert_eq!(combined_result(&games(Draw, WhiteWins), 2), Some(BlackWins));
    }

    #[test]
    fn a_match_without_every_result_has_none() {
        assert_eq!(combined_result(&[(1, Some(WhiteWins)), (2, None)], 2), None);
        assert_eq!(combined_result(&[(1, Some(WhiteWins))], 2), None);
    }

    #[test]
    fn forfeits_make_a_forfeit_only_when_no_game_was_played() {
        assert_eq!(
            combined_result(&games(WhiteWinsByForfeit, BlackWinsByForfeit), 2),
            Some(WhiteWinsByForfeit)
        );
        assert_eq!(
            combined_result(&games(DoubleForfeit, DoubleForfeit), 2),
            Some(DoubleForfeit)
        );
        assert_eq!(combined_result(&games(Draw, DoubleForfeit), 2), Some(Draw));
    }

    #[test]
    fn match_points_give_two_one_or_nothing() {
        let results = games(Draw, WhiteWins);
        let combined = combined_result(&results, 2).expect("complete");
        assert_eq!(
            round_scores(MatchScoring::MatchPoints, &results, combined),
            (HalfPoints(0), HalfPoints(4))
        );
        assert_eq!(
            round_scores(MatchScoring::GamePoints, &results, combined),
            (HalfPoints(1), HalfPoints(3))
        );
        let level = games(WhiteWins, WhiteWins);
        assert_eq!(
            round_scores(MatchScoring::MatchPoints, &level, Draw),
            (HalfPoints(2), HalfPoints(2))
        );
    }

    #[test]
    fn byes_are_worth_the_games_they_stand_for() {
        let pab = ByeKind::PairingAllocated;
        assert_eq!(
            bye_score(MatchScoring::GamePoints, pab, 2, 2),
            HalfPoints(4)
        );
        assert_eq!(
            bye_score(MatchScoring::GamePoints, pab, 1, 2),
            HalfPoints(2)
        );
        assert_eq!(
            bye_score(MatchScoring::GamePoints, ByeKind::HalfPoint, 2, 2),
            HalfPoints(2)
        );
        assert_eq!(
            bye_score(MatchScoring::MatchPoints, pab, 2, 2),
            HalfPoints(4)
        );
        assert_eq!(
            bye_score(MatchScoring::MatchPoints, ByeKind::ZeroPoint, 2, 2),
            HalfPoints(0)
        );
    }
}
