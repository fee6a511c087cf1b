//! The keys live pages carry (`data-live-key`) so that `static/live.js` can tell whether a
//! stream event shows something the page does not: the same formulas as the script's.
use crate::service::events::rounds::RoundView;
use crate::service::games::view::GameView;
use crate::store::values::Spelling;

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

/// An event's pairings: the current (last published) round and its boards' results.
pub fn round<'a>(rounds: impl DoubleEndedIterator<Item = &'a RoundView>) -> String {
    let Some(current) = rounds.rev().find(|r| r.published) else {
        return String::new();
    };
    let mut key = current.number.to_string();
    for board in &current.boards {
        key.push('|');
        key.push_str(board.result.map(Spelling::spelling).unwrap_or_default());
    }
    key
}
