//! A game as the API and the pages show it.
use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use damka_engine::Color;
use serde::Serialize;

use super::clock::ClockView;
use super::{Loaded, utc};
use crate::service::paging::{Page, PageRequest};
use crate::service::{Actor, AppError, AppResult};
use crate::store::DbConn;
use crate::store::games::{self as stored, GameFilter, GameRow};
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode, spelled, spelled_option};

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct GamePlayer {
    pub player_id: i64,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayedMove {
    pub ply: i32,
    /// Canonical notation of the variant.
    #[serde(rename = "move")]
    #[schema(rename = "move")]
    pub notation: String,
    pub played_at: DateTime<Utc>,
    /// The mover's remaining time right after the move; null when untimed.
    pub clock_ms: Option<i64>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct MovesMade {
    pub white: u32,
    pub black: u32,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DrawOffer {
    /// `white` or `black`.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub by: Color,
    /// The ply after which it was made.
    pub ply: i32,
}

/// The last draw offer, not taken up: declined, or lapsed when the opponent moved on
/// without answering. Said until the offerer moves again.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct DrawOfferAnswer {
    /// `white` or `black`: who offered.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub by: Color,
    /// The ply after which it was made.
    pub ply: i32,
    /// `declined` or `lapsed`.
    pub outcome: String,
    /// `white` or `black`: who declined it, or moved without answering.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub answered_by: Color,
}

/// A game with its moves, position and what may be played now.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct GameView {
    pub id: i64,
    /// `russian`, `english`, `international` or `brazilian`.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub variant: damka_engine::Variant,
    pub event_id: Option<i64>,
    pub round: Option<i32>,
    pub board: Option<i32>,
    pub white: GamePlayer,
    pub black: GamePlayer,
    pub rated: bool,
    /// `ongoing` or `finished`.
    #[schema(value_type = String)]
    pub status: GameStatus,
    /// `1-0`, `0-1`, `1/2-1/2`; null while the game goes on.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
    /// Why it finished: `no_legal_moves`, `resignation`, `agreement`,
    /// `threefold_repetition`, `no_capture_or_promotion`, `only_kings_moved`,
    /// `lone_king_not_caught`, `no_progress_limit`, `move_limit`, `lone_kings_limit`,
    /// `time_forfeit`, `arbiter` (the arbiter's decision), `entered` (a result entered on
    /// the event's board, as reported).
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub reason: Option<GameEnd>,
    /// For `arbiter` and `entered`: the display name of who decided or entered the result.
    pub decided_by: Option<String>,
    /// The position now (PDN FEN).
    pub fen: String,
    /// The start position (PDN FEN).
    pub start_fen: String,
    /// `white` or `black`.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub side_to_move: Color,
    /// Plies played.
    pub ply: i32,
    pub moves: Vec<PlayedMove>,
    /// Legal moves now in canonical notation, sorted; empty once the game is over.
    pub legal_moves: Vec<String>,
    pub moves_made: MovesMade,
    pub draw_offer_min_moves: i32,
    /// The pending draw offer, if any.
    pub draw_offer: Option<DrawOffer>,
    /// The last offer, declined or lapsed, until its offerer moves again.
    pub draw_offer_answer: Option<DrawOfferAnswer>,
    /// A move's answer only: the draw offer sent with the move and not made (the move is
    /// stored all the same). The API answer carries it as `draw_offer_refused`.
    #[serde(skip)]
    pub draw_offer_refused: Option<crate::service::Refusal>,
    /// The clocks as of this answer; null for a game played without a clock.
    pub clock: Option<ClockView>,
    /// Which game of its pairing this is: 1, or 2 for a micro-match's return game.
    pub game_no: i32,
    /// The other game of its micro-match, if it is one.
    pub other_game_id: Option<i64>,
    /// The drawn opening it started with (its code in the event's table), if any.
    pub opening_code: Option<String>,
    /// How many of its first plies are that opening's (nobody's moves, never taken back).
    pub opening_plies: i32,
}

/// What a game's board adds to its view: the round and board, the other game of a
/// micro-match, the drawn opening.
pub type BoardContext = stored::BoardOfGame;

impl GameView {
    pub fn of(loaded: &Loaded, names: &Names, board: BoardContext, now: NaiveDateTime) -> GameView {
        let round_board = board.round_board;
        let row = &loaded.row;
        let game = &loaded.game;
        let mut legal: Vec<String> = if row.status == GameStatus::Finished {
            Vec::new()
        } else {
            game.legal_moves().iter().map(|m| m.notation()).collect()
        };
        legal.sort();
        GameView {
            id: row.id,
            variant: row.variant,
            event_id: row.event_id,
            round: round_board.map(|(round, _)| round),
            board: round_board.map(|(_, board)| board),
            white: GamePlayer {
                player_id: row.white_player_id,
                name: names.white.clone(),
            },
            black: GamePlayer {
                player_id: row.black_player_id,
                name: names.black.clone(),
            },
            rated: row.rated,
            status: row.status,
            result: row.result,
            reason: row.reason,
            decided_by: None,
            fen: game.position().to_fen(),
            start_fen: row.start_fen.clone(),
            side_to_move: game.side_to_move(),
            ply: row.ply,
            moves: loaded
                .moves
                .iter()
                .map(|m| PlayedMove {
                    ply: m.ply,
                    notation: m.notation.clone(),
                    played_at: utc(m.played_at),
                    clock_ms: m.clock_ms,
                })
                .collect(),
            legal_moves: legal,
            moves_made: MovesMade {
                white: game.moves_made(Color::White),
                black: game.moves_made(Color::Black),
            },
            draw_offer_min_moves: row.draw_offer_min_moves,
            draw_offer: pending_offer(row),
            draw_offer_answer: offer_answer(row),
            draw_offer_refused: None,
            clock: super::clock::view(row, game.side_to_move(), now),
            game_no: row.game_no,
            other_game_id: board.other_game_id,
            opening_code: board.opening_code,
            opening_plies: row.opening_plies,
        }
    }
}

fn pending_offer(row: &GameRow) -> Option<DrawOffer> {
    if !row.draw_offer_pending || row.status == GameStatus::Finished {
        return None;
    }
    Some(DrawOffer {
        by: row.draw_offer_by?,
        ply: row.draw_offer_ply?,
    })
}

fn offer_answer(row: &GameRow) -> Option<DrawOfferAnswer> {
    if row.draw_offer_pending || row.status == GameStatus::Finished {
        return None;
    }
    let (by, ply) = (row.draw_offer_by?, row.draw_offer_ply?);
    let outcome = if row.draw_offer_declined && (row.ply == ply || row.ply == ply + 1) {
        "declined"
    } else if !row.draw_offer_declined && row.ply == ply + 1 {
        "lapsed"
    } else {
        return None;
    };
    Some(DrawOfferAnswer {
        by,
        ply,
        outcome: outcome.to_string(),
        answered_by: by.opponent(),
    })
}

/// The players' names of a game.
#[derive(Debug, Clone)]
pub struct Names {
    pub white: String,
    pub black: String,
}

pub fn names(conn: &mut DbConn, row: &GameRow) -> AppResult<Names> {
    PlayerNames::of(conn, [row])?.of_game(row)
}

/// The names of the players of several games, read in one query.
pub struct PlayerNames(HashMap<i64, String>);

impl PlayerNames {
    pub fn of<'a>(
        conn: &mut DbConn,
        rows: impl IntoIterator<Item = &'a GameRow>,
    ) -> AppResult<PlayerNames> {
        let mut ids: Vec<i64> = rows
            .into_iter()
            .flat_map(|r| [r.white_player_id, r.black_player_id])
            .collect();
        ids.sort_unstable();
        ids.dedup();
        Ok(PlayerNames(
            stored::player_names(conn, &ids)?.into_iter().collect(),
        ))
    }

    /// A player's name; empty for a player not read.
    pub fn get(&self, player_id: i64) -> String {
        self.0.get(&player_id).cloned().unwrap_or_default()
    }

    /// Both names of a game; a player missing is a damaged game (an internal error).
    pub fn of_game(&self, row: &GameRow) -> AppResult<Names> {
        let name = |id: i64| {
            self.0
                .get(&id)
                .cloned()
                .ok_or_else(|| AppError::internal(format!("game {}: player {id} missing", row.id)))
        };
        Ok(Names {
            white: name(row.white_player_id)?,
            black: name(row.black_player_id)?,
        })
    }
}

/// The view of a loaded game (reads the names and the board).
pub fn view_of(conn: &mut DbConn, loaded: &Loaded) -> AppResult<GameView> {
    let names = names(conn, &loaded.row)?;
    view_with_names(conn, loaded, &names)
}

/// The view of a loaded game whose players' names are already read (reads the board).
pub fn view_with_names(conn: &mut DbConn, loaded: &Loaded, names: &Names) -> AppResult<GameView> {
    let board = board_context(conn, &loaded.row)?;
    let now = conn.now();
    let mut view = GameView::of(loaded, names, board, now);
    if matches!(loaded.row.reason, Some(GameEnd::Arbiter | GameEnd::Entered)) {
        view.decided_by = stored::result_set_by(conn, loaded.row.id)?;
    }
    Ok(view)
}

/// The board a game is played on, as its view shows it.
pub fn board_context(conn: &mut DbConn, row: &GameRow) -> AppResult<BoardContext> {
    match row.pairing_id {
        Some(pairing) => Ok(stored::board_of_game(conn, pairing, row.id)?),
        None => Ok(BoardContext::default()),
    }
}

/// One game, as anyone may see it (games are public, as the event's pairings are).
pub fn get(conn: &mut DbConn, game_id: i64) -> AppResult<GameView> {
    let loaded = super::load(conn, game_id)?;
    view_of(conn, &loaded)
}

/// A game in a list: who, where, how it stands.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct GameSummary {
    pub id: i64,
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub variant: damka_engine::Variant,
    pub event_id: Option<i64>,
    pub white: GamePlayer,
    pub black: GamePlayer,
    pub rated: bool,
    #[schema(value_type = String)]
    pub status: GameStatus,
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub reason: Option<GameEnd>,
    pub ply: i32,
    /// `white` or `black`; meaningless once finished.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub side_to_move: Color,
    pub created_at: DateTime<Utc>,
}

/// The most games a list returns.
pub const LIST_LIMIT: i64 = 500;

/// Games by player, event and status, newest first.
pub fn list(conn: &mut DbConn, filter: &GameFilter) -> AppResult<Vec<GameSummary>> {
    let rows = stored::list(
        conn,
        &GameFilter {
            limit: filter.limit.clamp(1, LIST_LIMIT),
            ..filter.clone()
        },
    )?;
    summaries(conn, rows)
}

/// A page of the games by player, event and status, newest first (the id is the order: a
/// later game has a larger one).
pub fn page(
    conn: &mut DbConn,
    filter: &GameFilter,
    page: &PageRequest<i64>,
) -> AppResult<Page<GameSummary>> {
    let rows = stored::list(
        conn,
        &GameFilter {
            older_than: page.after,
            limit: page.fetch() as i64,
            ..filter.clone()
        },
    )?;
    Ok(Page::from_rows(summaries(conn, rows)?, page.limit, |g| {
        g.id
    }))
}

/// Summaries of stored rows (one query for all the names).
pub fn summaries(conn: &mut DbConn, rows: Vec<GameRow>) -> AppResult<Vec<GameSummary>> {
    let names = PlayerNames::of(conn, &rows)?;
    let name = |id: i64| names.get(id);
    Ok(rows
        .into_iter()
        .map(|row| {
            let side_to_move = super::mover_of_ply(first_mover(&row), row.ply + 1);
            GameSummary {
                id: row.id,
                variant: row.variant,
                event_id: row.event_id,
                white: GamePlayer {
                    player_id: row.white_player_id,
                    name: name(row.white_player_id),
                },
                black: GamePlayer {
                    player_id: row.black_player_id,
                    name: name(row.black_player_id),
                },
                rated: row.rated,
                status: row.status,
                result: row.result,
                reason: row.reason,
                ply: row.ply,
                side_to_move,
                created_at: utc(row.created_at),
            }
        })
        .collect())
}

/// The side that moves first from the game's start position (from its FEN: `W:` or `B:`).
fn first_mover(row: &GameRow) -> Color {
    match row.start_fen.trim_start().chars().next() {
        Some('B') | Some('b') => Color::Black,
        _ => Color::White,
    }
}

/// A game of a player's in progress, as the home page lists it.
#[derive(Debug, Clone)]
pub struct GameInProgress {
    pub id: i64,
    pub opponent: String,
    /// It is the player's move.
    pub my_move: bool,
    /// Plies played.
    pub ply: i32,
}

/// The actor's own games in progress, those where it is their move first.
pub fn in_progress_of(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<GameInProgress>> {
    let Some(player_id) = actor.user.as_ref().and_then(|u| u.player_id) else {
        return Ok(Vec::new());
    };
    let ongoing = list(
        conn,
        &GameFilter {
            player_id: Some(player_id),
            status: Some(GameStatus::Ongoing),
            limit: 50,
            ..GameFilter::default()
        },
    )?;
    let mut games: Vec<GameInProgress> = ongoing
        .into_iter()
        .map(|g| {
            let (mine, opponent) = if g.white.player_id == player_id {
                (Color::White, g.black.name)
            } else {
                (Color::Black, g.white.name)
            };
            GameInProgress {
                id: g.id,
                opponent,
                my_move: g.side_to_move == mine,
                ply: g.ply,
            }
        })
        .collect();
    games.sort_by_key(|g| !g.my_move);
    Ok(games)
}
