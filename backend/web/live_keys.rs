//! The keys live pages carry (`data-live-key`) so that `static/live.js` can tell whether a
//! stream event shows something the page does not: the same formulas as the script's.
use crate::service::events::rounds::RoundView;
use crate::service::games::GameView;
use damka_domain::vocabulary::{ResultCode, Spelling};

/// A game page: plies, status, result, pending offer (`by@ply`).
pub fn game(game: &GameView) -> String {
    let offer = game
        .draw_offer
        .as_ref()
        .map(|o| format!("{}@{}", o.by.spelling(), o.ply))
        .unwrap_or_default();
    format!(
        "{}|{}|{}|{offer}",
        game.ply,
        game.status.spelling(),
        game.result.map(Spelling::spelling).unwrap_or_default()
    )
}

/// A game in the home page's list: plies and status (it is listed while ongoing).
pub fn turn(ply: i32) -> String {
    format!("{ply}|ongoing")
}

/// An event's pairings: the current (last published) round and its boards' results, each
/// followed by its games' (`,`-separated) when the board has more than one (a micro-match,
/// whose board has no result until both games have one).
pub fn round<'a>(rounds: impl DoubleEndedIterator<Item = &'a RoundView>) -> String {
    let Some(current) = rounds.rev().find(|r| r.published) else {
        return String::new();
    };
    let spelled = |result: Option<ResultCode>| result.map(Spelling::spelling).unwrap_or_default();
    let mut key = current.number.to_string();
    for board in &current.boards {
        key.push('|');
        key.push_str(spelled(board.result));
        if board.games.len() > 1 {
            for game in &board.games {
                key.push(',');
                key.push_str(spelled(game.result));
            }
        }
    }
    key
}
