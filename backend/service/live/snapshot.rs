//! What the live feeds read after a change: a game's state with one entry per ply, and an
//! event's current round. Serialised once here, so each subscriber only frames text.
use std::collections::HashMap;

use damka_engine::{Color, Game};
use serde::Serialize;

use crate::service::events::{self, history, round_views};
use crate::service::games;
use crate::service::games::view::{self, GameView};
use crate::service::{AppError, AppResult};
use crate::store::DbConn;
use crate::store::games::{self as stored, MoveRow};
use damka_domain::vocabulary::{GameStatus, ResultCode, spelled, spelled_option};

/// One ply as the `move` event carries it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlyEvent {
    pub ply: i32,
    /// Canonical notation of the variant.
    #[serde(rename = "move")]
    #[schema(rename = "move")]
    pub notation: String,
    /// The position after it (PDN FEN).
    pub fen: String,
    /// `white` or `black`: who is to move after it.
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub side_to_move: Color,
    /// The mover's remaining time after it, in milliseconds; null in an untimed game.
    pub clock_ms: Option<i64>,
}

/// A game as its subscribers are sent it.
#[derive(Debug)]
pub struct GameSnapshot {
    /// The game row's revision: every write to the game moves it, so two snapshots of one
    /// revision show the same game (a clock aside, which moves by itself).
    pub revision: i64,
    pub ply: i32,
    /// Each ply's notation and its `move` event's data (JSON), in order.
    pub plies: Vec<(String, String)>,
    /// The `GameView` (JSON), as `GET /api/v1/games/{id}` answers.
    pub view: String,
}

impl GameSnapshot {
    /// Reads a game now.
    pub fn read(conn: &mut DbConn, game_id: i64) -> AppResult<GameSnapshot> {
        let loaded = games::load(conn, game_id)?;
        let view = view::view_of(conn, &loaded)?;
        GameSnapshot::of(&loaded, &view)
    }

    fn of(loaded: &games::Loaded, view: &GameView) -> AppResult<GameSnapshot> {
        let mut replay = Game::from_position(*loaded.game.start_position());
        let mut plies = Vec::with_capacity(loaded.moves.len());
        for (row, mv) in loaded.moves.iter().zip(loaded.game.history()) {
            replay
                .play(mv)
                .map_err(|e| AppError::internal(format!("game {}: {e}", loaded.row.id)))?;
            let event = PlyEvent {
                ply: row.ply,
                notation: row.notation.clone(),
                fen: replay.position().to_fen(),
                side_to_move: replay.side_to_move(),
                clock_ms: clock_after(row),
            };
            plies.push((row.notation.clone(), json(&event)?));
        }
        Ok(GameSnapshot {
            revision: loaded.row.revision,
            ply: loaded.row.ply,
            plies,
            view: json(view)?,
        })
    }
}

/// The mover's remaining time stored with a move (`None`: untimed).
fn clock_after(row: &MoveRow) -> Option<i64> {
    row.clock_ms
}

/// A player on a board of the live round.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct BoardPlayer {
    pub name: String,
    pub start_no: i32,
}

/// A board of the current round as the `round` event carries it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LiveBoard {
    pub board: i32,
    pub white: BoardPlayer,
    /// Null for a player without an opponent.
    pub black: Option<BoardPlayer>,
    /// The board's result (`1-0`, `0-1`, `1/2-1/2`, `+/-`, ...); null while none is in.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
    pub game_id: Option<i64>,
    /// Plies played in the board's game (0 without a game).
    pub ply: i32,
    /// `ongoing` or `finished`; null without a game.
    #[schema(value_type = Option<String>)]
    pub status: Option<GameStatus>,
    /// The game's clock as `GET /api/v1/games/{id}` shows it; null untimed or without a
    /// game.
    #[schema(value_type = Option<Object>)]
    pub clock: Option<serde_json::Value>,
    /// Every game of the board (both of a micro-match), each with its own result.
    pub games: Vec<LiveGame>,
}

/// One game of a live board.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LiveGame {
    pub game_id: Option<i64>,
    /// In the game's own colours; null while none is in.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
    /// Plies played (0 without a game).
    pub ply: i32,
}

/// The current round of an event (the last one published) as the `round` event carries it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct LiveRound {
    pub event_id: i64,
    /// Null before the first round is published.
    pub round: Option<i32>,
    pub boards: Vec<LiveBoard>,
}

/// An event's round as its subscribers are sent it.
#[derive(Debug)]
pub struct RoundSnapshot {
    /// The `LiveRound` (JSON).
    pub json: String,
    /// Each game's clock as read, so the next read loads again only the games that
    /// changed.
    clocks: HashMap<i64, KeptClock>,
}

impl RoundSnapshot {
    /// Reads an event's current round now; `previous` saves reading unchanged games again.
    pub fn read(
        conn: &mut DbConn,
        event_id: i64,
        previous: Option<&RoundSnapshot>,
    ) -> AppResult<RoundSnapshot> {
        let event = events::load(conn, event_id)?;
        let history = history::load(conn, &event)?;
        let current = history.rounds.iter().rev().find(|r| r.published).cloned();
        let mut clocks = HashMap::new();
        let mut boards = Vec::new();
        if let Some(round) = &current {
            let games: HashMap<i64, stored::GameRow> = stored::of_round(conn, round.id)?
                .into_iter()
                .map(|g| (g.id, g))
                .collect();
            let views = round_views::views_of(&history, false);
            let Some(view) = views.iter().find(|v| v.number == round.number) else {
                return Err(AppError::internal("the published round has no view"));
            };
            for board in &view.boards {
                let game = board.game_id.and_then(|id| games.get(&id));
                let clock = match game {
                    Some(game) => {
                        let kept = previous
                            .and_then(|p| p.clocks.get(&game.id))
                            .filter(|kept| kept.revision == game.revision)
                            .cloned();
                        let kept = match kept {
                            Some(kept) => kept,
                            None => KeptClock::read(conn, game)?,
                        };
                        let clock = kept.now();
                        clocks.insert(game.id, kept);
                        clock
                    }
                    None => None,
                };
                boards.push(LiveBoard {
                    board: board.board,
                    white: BoardPlayer {
                        name: board.white_name.clone(),
                        start_no: board.white_start_no,
                    },
                    black: match (&board.black_name, board.black_start_no) {
                        (Some(name), Some(start_no)) => Some(BoardPlayer {
                            name: name.clone(),
                            start_no,
                        }),
                        _ => None,
                    },
                    result: board.result,
                    game_id: game.map(|g| g.id),
                    ply: game.map_or(0, |g| g.ply),
                    status: game.map(|g| g.status),
                    clock,
                    games: board
                        .games
                        .iter()
                        .map(|g| LiveGame {
                            game_id: g.game_id,
                            result: g.result,
                            ply: g.game_id.and_then(|id| games.get(&id)).map_or(0, |r| r.ply),
                        })
                        .collect(),
                });
            }
        }
        let round = LiveRound {
            event_id,
            round: current.map(|r| r.number),
            boards,
        };
        Ok(RoundSnapshot {
            json: json(&round)?,
            clocks,
        })
    }
}

/// A game's clock as its view showed it at a revision.
#[derive(Debug, Clone)]
struct KeptClock {
    revision: i64,
    clock: Option<serde_json::Value>,
    side_to_move: Color,
    read_at: std::time::Instant,
}

impl KeptClock {
    fn read(conn: &mut DbConn, game: &stored::GameRow) -> AppResult<KeptClock> {
        let view = view::get(conn, game.id)?;
        let value = serde_json::to_value(&view).map_err(AppError::internal)?;
        Ok(KeptClock {
            // The view's own revision may be newer than the round's; keeping the round's
            // means the next read loads it again, never that a change is missed.
            revision: game.revision,
            clock: value.get("clock").filter(|c| !c.is_null()).cloned(),
            side_to_move: view.side_to_move,
            read_at: std::time::Instant::now(),
        })
    }

    /// The clock as of now: the running side's time less what has passed since the read.
    fn now(&self) -> Option<serde_json::Value> {
        let mut clock = self.clock.clone()?;
        if clock.get("running").and_then(|r| r.as_bool()) == Some(true) {
            let side = match self.side_to_move {
                Color::White => "white_ms",
                Color::Black => "black_ms",
            };
            let passed = i64::try_from(self.read_at.elapsed().as_millis()).unwrap_or(i64::MAX);
            if let Some(ms) = clock.get(side).and_then(|ms| ms.as_i64()) {
                clock[side] = serde_json::Value::from(ms.saturating_sub(passed).max(0));
            }
        }
        Some(clock)
    }
}

fn json(value: &impl Serialize) -> AppResult<String> {
    serde_json::to_string(value).map_err(AppError::internal)
}
