//! Games as PDN: one game, or an event's games (all rounds or one), written by the engine's
//! PDN writer from the stored moves; and a round's games imported from a PDN file, every
//! move replayed by the engine and nothing stored unless the whole file is good.
mod import;

pub use import::{ImportReport, ImportedGame, MAX_PDN_BYTES, import_round};

use damka_domain::clock::TimeControl;
use damka_engine::pdn::{PdnGame, PdnMove, write_game};
use damka_engine::{Color, Position};

use super::view::{Names, PlayerNames, board_context, names};
use super::{Loaded, load, replay};
use crate::service::{AppError, AppResult};
use crate::store::games as stored;
use crate::store::models::Event;
use crate::store::{DbConn, events};
use damka_domain::vocabulary::{GameEnd, Spelling};

/// The Event tag of a game played outside any event.
const CASUAL_EVENT: &str = "Casual game";

/// Where a game was played, as its tags say.
struct Setting<'a> {
    event: Option<&'a Event>,
    /// Round number and board of an event game.
    round_board: Option<(i32, i32)>,
    /// The other game of a micro-match (lidraughts' `MicroMatch` tag).
    other_game: Option<i64>,
    /// The code of the drawn opening the game started with.
    opening: Option<String>,
    /// Who decided or entered the result, for a game the arbiter ended or whose result was
    /// entered on the board.
    decided_by: Option<String>,
}

/// One game as PDN (`GET /games/{id}/pdn`).
pub fn game_pdn(conn: &mut DbConn, game_id: i64) -> AppResult<String> {
    let loaded = load(conn, game_id)?;
    let names = names(conn, &loaded.row)?;
    let event = match loaded.row.event_id {
        Some(event_id) => Some(crate::service::events::load(conn, event_id)?),
        None => None,
    };
    let board = board_context(conn, &loaded.row)?;
    let setting = Setting {
        event: event.as_ref(),
        round_board: board.round_board,
        other_game: board.other_game_id,
        opening: board.opening_code,
        decided_by: decided_by(conn, &loaded.row)?,
    };
    Ok(record(&loaded, &names, &setting))
}

/// An event's games as one PDN file, in round and board order; only round `round` when
/// given (`GET /events/{id}/games.pdn[?round=N]`). A round without games is an empty file.
pub fn event_pdn(conn: &mut DbConn, event_id: i64, round: Option<i32>) -> AppResult<String> {
    let event = crate::service::events::load(conn, event_id)?;
    if let Some(number) = round
        && !events::rounds(conn, event_id)?
            .iter()
            .any(|r| r.number == number)
    {
        return Err(AppError::NotFound { what: "round" });
    }
    let games: Vec<_> = stored::of_event(conn, event_id)?
        .into_iter()
        .filter(|(_, number, _)| round.is_none_or(|wanted| wanted == *number))
        .collect();
    let all_names = PlayerNames::of(conn, games.iter().map(|(row, _, _)| row))?;
    let mut records = Vec::with_capacity(games.len());
    for (row, number, board) in games {
        let moves = stored::moves(conn, row.id)?;
        let game = replay(&row, &moves)?;
        let names = all_names.of_game(&row)?;
        let context = board_context(conn, &row)?;
        let setting = Setting {
            event: Some(&event),
            round_board: Some((number, board)),
            other_game: context.other_game_id,
            opening: context.opening_code,
            decided_by: decided_by(conn, &row)?,
        };
        records.push(record(&Loaded { row, moves, game }, &names, &setting));
    }
    // Each record ends with a line break: joined by another, games are a blank line apart.
    Ok(records.join("\n"))
}

/// Who decided the result of a game the arbiter ended, or entered the result of one.
fn decided_by(conn: &mut DbConn, row: &stored::GameRow) -> AppResult<Option<String>> {
    if matches!(row.reason, Some(GameEnd::Arbiter | GameEnd::Entered)) {
        Ok(stored::result_set_by(conn, row.id)?)
    } else {
        Ok(None)
    }
}

/// The Termination tag of a result someone decided or entered, naming them.
fn termination_tag(row: &stored::GameRow, decided_by: Option<&str>) -> Option<String> {
    let name = decided_by?;
    match row.reason? {
        GameEnd::Arbiter => Some(format!("arbiter's decision ({name})")),
        GameEnd::Entered => Some(format!("result entered by {name}")),
        _ => None,
    }
}

/// The PDN of one stored game: the seven-tag roster (Board after Round), GameType, and
/// FEN only for a start that is not the variant's own; the stored (canonical) moves,
/// numbered by the engine's writer from the side that moves first in the variant.
fn record(loaded: &Loaded, names: &Names, setting: &Setting<'_>) -> String {
    let row = &loaded.row;
    let start = loaded.game.start_position();
    let result = row
        .result
        .filter(|r| r.played())
        .map_or("*", |r| r.spelling());
    let mut tags: Vec<(String, String)> = vec![
        (
            "Event".into(),
            setting
                .event
                .map_or(CASUAL_EVENT.to_string(), |e| e.name.clone()),
        ),
        (
            "Site".into(),
            setting.event.map_or(String::new(), |e| e.place.clone()),
        ),
        ("Date".into(), row.created_at.format("%Y.%m.%d").to_string()),
        (
            "Round".into(),
            setting
                .round_board
                .map_or("-".to_string(), |(round, _)| round.to_string()),
        ),
    ];
    if let Some((_, board)) = setting.round_board {
        tags.push(("Board".into(), board.to_string()));
    }
    tags.extend([
        ("White".into(), names.white.clone()),
        ("Black".into(), names.black.clone()),
        ("Result".into(), result.to_string()),
        ("GameType".into(), row.variant.pdn_game_type().to_string()),
    ]);
    if let Some(control) = time_control_tag(row.clock) {
        tags.push(("TimeControl".into(), control));
    }
    if let Some(termination) = termination_tag(row, setting.decided_by.as_deref()) {
        tags.push(("Termination".into(), termination));
    }
    // As lidraughts links the two games of a micro-match: the other game's id.
    if let Some(other) = setting.other_game {
        tags.push(("MicroMatch".into(), other.to_string()));
    }
    if let Some(opening) = &setting.opening {
        tags.push(("Opening".into(), opening.clone()));
    }
    if *start != Position::start(*start.rules()) {
        tags.push(("FEN".into(), start.to_fen()));
    }
    let comments = clock_comments(loaded);
    let game = PdnGame {
        tags,
        intro_comment: None,
        moves: loaded
            .moves
            .iter()
            .zip(comments)
            .map(|(mv, comment)| PdnMove {
                text: mv.notation.clone(),
                comment,
                line: 0,
                column: 0,
            })
            .collect(),
        result: Some(result.to_string()),
        line: 1,
    };
    let first_mover_is_second = start.side_to_move() != row.variant.first_to_move();
    write_game(&game, first_mover_is_second)
}

/// The PGN-style TimeControl tag: `300+3` (seconds and increment), `1/30` (one move in 30
/// seconds, again and again); none for an untimed game.
fn time_control_tag(control: TimeControl) -> Option<String> {
    match control {
        TimeControl::Untimed => None,
        TimeControl::Fischer {
            base_s,
            increment_s,
        } => Some(format!("{base_s}+{increment_s}")),
        TimeControl::PerMove { seconds } => Some(format!("1/{seconds}")),
    }
}

/// Each move's clock comment as lidraughts writes it, `[%clock w0:04:57 B0:05:00]`: both
/// sides' remaining time after the move, the mover's letter in lower case; `None` for a
/// move stored without a clock (an untimed or transcribed game).
fn clock_comments(loaded: &Loaded) -> Vec<Option<String>> {
    let Some(start) = loaded.row.clock.start() else {
        return vec![None; loaded.moves.len()];
    };
    let first_mover = loaded.game.start_position().side_to_move();
    let (mut white_ms, mut black_ms) = (start.white_ms, start.black_ms);
    loaded
        .moves
        .iter()
        .map(|mv| {
            let clock_ms = mv.clock_ms?;
            let mover = super::mover_of_ply(first_mover, mv.ply);
            let (white, black) = match mover {
                Color::White => {
                    white_ms = clock_ms;
                    ('w', 'B')
                }
                Color::Black => {
                    black_ms = clock_ms;
                    ('W', 'b')
                }
            };
            Some(format!(
                "[%clock {white}{} {black}{}]",
                hours_minutes_seconds(white_ms),
                hours_minutes_seconds(black_ms)
            ))
        })
        .collect()
}

/// `0:04:57`: whole seconds, rounded as lidraughts rounds them.
fn hours_minutes_seconds(ms: i64) -> String {
    let seconds = (ms.max(0) + 500) / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}
