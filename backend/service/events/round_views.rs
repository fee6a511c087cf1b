//! Rounds and boards as pages and the API show them, built from an event's history alone
//! (no reads, no writes): what the rounds tab, the overview and the live round feed show.
use damka_domain::tournament::ByeKind;
use serde::Serialize;

use super::ballot::OpeningView;
use super::history;
use crate::store::models::Pairing;
use damka_domain::vocabulary::{ResultCode, spelled_option};

/// A board as pages and the API show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BoardView {
    pub pairing_id: i64,
    pub board: i32,
    pub white_entry_id: i64,
    pub white_name: String,
    pub white_start_no: i32,
    pub black_entry_id: Option<i64>,
    pub black_name: Option<String>,
    pub black_start_no: Option<i32>,
    /// For a player without an opponent: `U` pairing-allocated bye, `H` half-point bye,
    /// `F` full-point bye, `Z` absent or free.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub bye: Option<ByeKind>,
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
    /// The game played on this board (`/api/v1/games/{id}`), once the round is published
    /// (a micro-match's first game).
    pub game_id: Option<i64>,
    /// The games of the pairing: one, or two in a micro-match (the second with colours
    /// swapped), each with its own result in its own colours; none for a bye.
    pub games: Vec<BoardGameView>,
    /// The opening drawn for the board, which both its games start from.
    pub opening: Option<OpeningView>,
}

/// One game of a board.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BoardGameView {
    /// `/api/v1/games/{id}`, once the round is published and the game is played on the site.
    pub game_id: Option<i64>,
    /// The entry playing White in this game.
    pub white: i64,
    /// The entry playing Black in this game.
    pub black: i64,
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct RoundView {
    pub number: i32,
    pub published: bool,
    /// The seed the round's openings were drawn with (`damka_domain::ballots::draw`), so
    /// that anyone can repeat the draw; null without a ballot.
    pub ballot_seed: Option<i64>,
    pub boards: Vec<BoardView>,
}

/// The rounds of `history` as shown; drafts only with `show_drafts`.
pub fn views_of(history: &history::History, show_drafts: bool) -> Vec<RoundView> {
    let mut out = Vec::new();
    for round in history.rounds.iter().filter(|r| r.published || show_drafts) {
        let boards = history
            .round_pairings(round.number)
            .map(|p| {
                let white = history.entry(p.white_entry_id);
                let black = p.black_entry_id.and_then(|id| history.entry(id));
                BoardView {
                    pairing_id: p.id,
                    board: p.board,
                    white_entry_id: p.white_entry_id,
                    white_name: white.map(|w| w.name.clone()).unwrap_or_default(),
                    white_start_no: white.map(|w| w.entry.start_no).unwrap_or_default(),
                    black_entry_id: p.black_entry_id,
                    black_name: black.map(|b| b.name.clone()),
                    black_start_no: black.map(|b| b.entry.start_no),
                    bye: p.bye,
                    result: p.result,
                    game_id: history.games.get(&p.id).copied(),
                    games: board_games(history, p),
                    opening: history
                        .openings
                        .get(&p.id)
                        .map(|o| OpeningView::of(history, o)),
                }
            })
            .collect();
        out.push(RoundView {
            number: round.number,
            published: round.published,
            ballot_seed: round.ballot_seed,
            boards,
        });
    }
    out
}

/// The games of board `p`: in a micro-match each game with its colours and its own result.
fn board_games(history: &history::History, p: &Pairing) -> Vec<BoardGameView> {
    let Some(black) = p.black_entry_id else {
        return Vec::new();
    };
    let games = history.event.games_per_pairing.max(1);
    (1..=games)
        .map(|game_no| {
            let (white, black) = if game_no % 2 == 1 {
                (p.white_entry_id, black)
            } else {
                (black, p.white_entry_id)
            };
            let result = if games == 1 {
                p.result
            } else {
                history
                    .game_results
                    .get(&p.id)
                    .and_then(|g| g.iter().find(|(no, _)| *no == game_no))
                    .and_then(|(_, r)| *r)
            };
            BoardGameView {
                game_id: history.game_ids.get(&(p.id, game_no)).copied(),
                white,
                black,
                result,
            }
        })
        .collect()
}
