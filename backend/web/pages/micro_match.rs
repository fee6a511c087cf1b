//! How the pages write a micro-match and a drawn opening: the match score (`1½–½`, doubled
//! on the 2-1-0 display), the opening with its moves, and the event's settings for them.
use crate::service::events::Event;
use crate::service::events::ballot::OpeningView;
use crate::service::events::micro_match;
use crate::service::events::rounds::BoardGameView;
use crate::web::i18n::Lang;
use damka_domain::vocabulary::{ResultCode, ScoringDisplay};

/// Half-points as a score is written: `1½`, `½`, `2`.
fn half_points_text(half_points: u32) -> String {
    match (half_points / 2, half_points % 2) {
        (whole, 0) => whole.to_string(),
        (0, _) => "½".to_string(),
        (whole, _) => format!("{whole}½"),
    }
}

/// One side's points of a match on the event's scale: `1½`, or `3` on the 2-1-0 display
/// (where every half-point is a point).
pub fn points_text(event: &Event, half_points: u32) -> String {
    match event.scoring_display {
        ScoringDisplay::OneHalfZero => half_points_text(half_points),
        ScoringDisplay::TwoOneZero => half_points.to_string(),
    }
}

/// A match score on the event's scale: `1½–½`, or `3–1` on the 2-1-0 display.
pub fn score_text(event: &Event, first: u32, second: u32) -> String {
    format!(
        "{}–{}",
        points_text(event, first),
        points_text(event, second)
    )
}

/// The score of a board's micro-match, its White (of game 1) first; `None` before any of
/// its games has a result.
pub fn board_score(event: &Event, games: &[BoardGameView]) -> Option<String> {
    if games.iter().all(|g| g.result.is_none()) {
        return None;
    }
    let results: Vec<(i32, Option<ResultCode>)> = games
        .iter()
        .enumerate()
        .map(|(index, g)| (index as i32 + 1, g.result))
        .collect();
    let (white, black) = micro_match::game_points(&results);
    Some(score_text(event, white.0, black.0))
}

/// "Opening 12-IV: c3-d4 f6-g5 ..." in the reader's language; a table entry that is a
/// position of its own (no moves) by its code and a note saying so.
pub fn opening_text(lang: Lang, opening: &OpeningView) -> String {
    if opening.moves.is_empty() {
        lang.tf("micro.opening_position", &[&opening.code])
    } else {
        lang.tf("micro.opening", &[&opening.label()])
    }
}

/// The same for the round as a whole ("Opening for the whole round: ...").
pub fn round_opening_text(lang: Lang, opening: &OpeningView) -> String {
    if opening.moves.is_empty() {
        lang.tf("micro.round_opening_position", &[&opening.code])
    } else {
        lang.tf("micro.round_opening", &[&opening.label()])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_with_halves_or_doubled() {
        assert_eq!(half_points_text(3), "1½");
        assert_eq!(half_points_text(1), "½");
        assert_eq!(half_points_text(4), "2");
        assert_eq!(half_points_text(0), "0");
    }
}
