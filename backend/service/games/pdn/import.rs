//! A round's games from a PDN file (`POST /events/{id}/rounds/{n}/pdn`): each game of the
//! file is matched to a board of the round, replayed by the engine from that game's start
//! position, and must begin with the moves already stored there. Everything is checked
//! under the games' locks before anything is written, and everything is written in one
//! transaction: a file with one bad game stores nothing.
use damka_engine::pdn::{PdnError, PdnErrorKind, PdnGame, PdnMove};
use damka_engine::{Color, Game, MoveError, Position, Variant, parse_games};
use serde::Serialize;

use crate::service::effects::{self, Effects};
use crate::service::events::require_arbiter;
use crate::service::games::engine_refusal::move_refusal;
use crate::service::games::view::PlayerNames;
use crate::service::games::{Loaded, loaded, verdict};
use crate::service::results::game::store_state;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::games::{self as stored, GameRow, GameState, MoveRow};
use crate::store::{self, DbConn, events};
use damka_domain::vocabulary::{EventStatus, GameEnd, ResultCode, spelled_option};

/// The largest PDN file read: a round of a big open is far smaller.
pub const MAX_PDN_BYTES: usize = 1024 * 1024;

/// What an import did, game by game in the order of the file.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ImportReport {
    pub games: Vec<ImportedGame>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ImportedGame {
    pub game_id: i64,
    pub board: i32,
    /// Half-moves stored by this import (0 when the board already had them all).
    pub plies_added: i32,
    /// The game's result now: `1-0`, `0-1`, `1/2-1/2`, or null while it goes on.
    #[serde(with = "spelled_option")]
    #[schema(value_type = Option<String>)]
    pub result: Option<ResultCode>,
}

/// A round's game as the import sees it.
struct RoundGame {
    loaded: Loaded,
    board: i32,
    white: String,
    black: String,
}

/// A game of the file, checked and ready to store.
struct Checked {
    /// Index into the round's games.
    target: usize,
    /// The game after every move of the file.
    game: Game,
    /// Canonical moves after the stored ones.
    added: Vec<String>,
    /// The file's result, if it is a played one.
    result: Option<ResultCode>,
}

/// Imports `text` into the games of round `round` of event `event_id` (its arbiters only).
pub fn import_round(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    round: i32,
    text: &str,
) -> AppResult<ImportReport> {
    let user_id = actor.require_user()?.id;
    if text.len() > MAX_PDN_BYTES {
        return Err(AppError::PayloadTooLarge {
            limit_bytes: MAX_PDN_BYTES,
        });
    }
    let event = crate::service::events::load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    if event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinishedReopenToChange));
    }
    let stored_round = events::rounds(conn, event_id)?
        .into_iter()
        .find(|r| r.number == round)
        .ok_or(AppError::NotFound { what: "round" })?;
    if !stored_round.published {
        return Err(AppError::conflict(Refusal::RoundNotPublished { round }));
    }
    let file = parse_games(text).map_err(unreadable)?;
    if file.is_empty() {
        return Err(AppError::invalid("pdn", Refusal::PdnEmpty));
    }
    conn.write_transaction(|conn| {
        let mut games = lock_round_games(conn, event_id, round)?;
        if file.len() > games.len() {
            return Err(AppError::invalid(
                "pdn",
                Refusal::PdnTooManyGames {
                    found: file.len(),
                    limit: games.len(),
                },
            ));
        }
        let checked = check_file(&file, &games)?;
        let now = store::now();
        let mut effects = Effects::none();
        let mut report = Vec::with_capacity(checked.len());
        for Checked {
            target,
            game,
            added,
            result,
        } in checked
        {
            let round_game = &mut games[target];
            let loaded = &mut round_game.loaded;
            let first_new = loaded.row.ply + 1;
            let state = state_after(loaded, &game, result, added.len() as i32, now);
            for (offset, notation) in added.iter().enumerate() {
                let ply = first_new + offset as i32;
                stored::insert_move(conn, loaded.row.id, ply, notation, Some(user_id), now, None)?;
                loaded.moves.push(MoveRow {
                    ply,
                    notation: notation.clone(),
                    submitted_by: Some(user_id),
                    played_at: now,
                    clock_ms: None,
                });
            }
            loaded.game = game;
            if state != GameState::of(&loaded.row) {
                store_state(conn, loaded, state, user_id, &mut effects)?;
            }
            report.push(ImportedGame {
                game_id: loaded.row.id,
                board: round_game.board,
                plies_added: added.len() as i32,
                result: loaded.row.result,
            });
        }
        Ok((ImportReport { games: report }, effects))
    })
    .map(|(report, effects)| {
        effects::apply(conn, effects);
        report
    })
}

/// The round's games, each locked (in id order, so two imports never wait on each other
/// in a circle) and then read as they stand under the lock; in board order.
fn lock_round_games(conn: &mut DbConn, event_id: i64, round: i32) -> AppResult<Vec<RoundGame>> {
    let mut rows: Vec<(GameRow, i32)> = stored::of_event(conn, event_id)?
        .into_iter()
        .filter(|(_, number, _)| *number == round)
        .map(|(row, _, board)| (row, board))
        .collect();
    rows.sort_by_key(|(row, _)| row.id);
    for (row, _) in &mut rows {
        *row = stored::lock(conn, row.id)?.ok_or(AppError::NotFound { what: "game" })?;
    }
    rows.sort_by_key(|(_, board)| *board);
    let names = PlayerNames::of(conn, rows.iter().map(|(row, _)| row))?;
    let name_of = |id: i64| names.get(id);
    let mut games = Vec::with_capacity(rows.len());
    for (row, board) in rows {
        games.push(RoundGame {
            white: name_of(row.white_player_id),
            black: name_of(row.black_player_id),
            loaded: loaded(conn, row)?,
            board,
        });
    }
    Ok(games)
}

/// Checks every game of the file in order; the first problem refuses the whole file.
fn check_file(file: &[PdnGame], games: &[RoundGame]) -> AppResult<Vec<Checked>> {
    let mut claimed: Vec<Option<usize>> = vec![None; games.len()];
    let mut checked = Vec::with_capacity(file.len());
    for (index, pdn) in file.iter().enumerate() {
        let number = index + 1;
        let target = matching_game(number, pdn, games)?;
        if let Some(first) = claimed[target] {
            return Err(AppError::invalid(
                "pdn",
                Refusal::PdnBoardTwice {
                    board: games[target].board,
                    first,
                    second: number,
                },
            ));
        }
        claimed[target] = Some(number);
        let round_game = &games[target];
        check_start(number, pdn, &round_game.loaded)?;
        let (game, added) = replay_over(number, pdn, round_game)?;
        let result = pdn
            .tag("Result")
            .or(pdn.result.as_deref())
            .and_then(|tag| ResultCode::from_pdn(tag.trim()));
        checked.push(Checked {
            target,
            game,
            added,
            result,
        });
    }
    Ok(checked)
}

/// Names compare as written, ignoring case and the spaces around them.
fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A tag's value, unless it is empty or PDN's "unknown" (`?`, `-`).
fn known_tag<'a>(pdn: &'a PdnGame, name: &str) -> Option<&'a str> {
    pdn.tag(name)
        .map(str::trim)
        .filter(|value| !matches!(*value, "" | "?" | "-"))
}

/// The round's game a game of the file is for: the board its Board tag names (whose
/// players must then be the ones its White and Black tags name, when it names them; of a
/// micro-match's two games, the one they name), or else the one whose players its White
/// and Black tags name.
fn matching_game(number: usize, pdn: &PdnGame, games: &[RoundGame]) -> AppResult<usize> {
    let white = pdn.tag("White").unwrap_or("").trim();
    let black = pdn.tag("Black").unwrap_or("").trim();
    let players_fit = |game: &RoundGame, strict: bool| {
        let fits = |tag: Option<&str>, name: &str| match tag {
            Some(tag) => same_name(tag, name),
            None => !strict,
        };
        fits(known_tag(pdn, "White"), &game.white) && fits(known_tag(pdn, "Black"), &game.black)
    };
    let found = match known_tag(pdn, "Board") {
        // A micro-match's board has two games, told apart by who has White.
        Some(board) => board.parse::<i32>().ok().and_then(|board| {
            games
                .iter()
                .position(|g| g.board == board && players_fit(g, false))
        }),
        None => games.iter().position(|g| players_fit(g, true)),
    };
    found.ok_or_else(|| {
        AppError::invalid(
            "pdn",
            Refusal::PdnNoMatchingGame {
                game: number,
                white: white.to_string(),
                black: black.to_string(),
            },
        )
    })
}

/// A file's game may name its variant (GameType) and start (FEN) only if they are the
/// round game's: an imported game continues the game the round set up.
fn check_start(number: usize, pdn: &PdnGame, loaded: &Loaded) -> AppResult<()> {
    let differs = || AppError::invalid("pdn", Refusal::PdnStartPositionDiffers { game: number });
    if let Some((variant, _)) = pdn.game_type().map_err(unreadable)?
        && variant != loaded.row.variant
    {
        return Err(differs());
    }
    if pdn.tag("FEN").is_some() {
        let start = pdn
            .start_position(*loaded.game.rules())
            .map_err(unreadable)?;
        if start != *loaded.game.start_position() {
            return Err(differs());
        }
    }
    Ok(())
}

/// Replays the file's moves from the round game's start: returns the game after them and
/// the moves beyond the stored ones. The stored moves must be where the file begins.
fn replay_over(
    number: usize,
    pdn: &PdnGame,
    round_game: &RoundGame,
) -> AppResult<(Game, Vec<String>)> {
    let loaded = &round_game.loaded;
    let start = *loaded.game.start_position();
    let mut game = Game::from_position(start);
    let mut added = Vec::new();
    let differs_at = |ply: usize| {
        AppError::conflict(Refusal::PdnMovesDiffer {
            game: number,
            board: round_game.board,
            ply: ply as i32,
        })
    };
    for (index, mv) in pdn.moves.iter().enumerate() {
        let played = game
            .play_str(&mv.text)
            .map_err(|error| illegal(number, &start, loaded.row.variant, index, mv, error))?;
        let notation = played.notation();
        match loaded.moves.get(index) {
            Some(stored) if stored.notation != notation => return Err(differs_at(index + 1)),
            Some(_) => {}
            None => added.push(notation),
        }
    }
    if pdn.moves.len() < loaded.moves.len() {
        return Err(differs_at(pdn.moves.len() + 1));
    }
    Ok((game, added))
}

/// The refusal of the file's first illegal move: which game, the move number as the file
/// numbers it and the side, the move as written, and the engine's reason.
fn illegal(
    number: usize,
    start: &Position,
    variant: Variant,
    index: usize,
    mv: &PdnMove,
    error: MoveError,
) -> AppError {
    let (move_number, side) = move_number(start, variant, index);
    AppError::invalid(
        "pdn",
        Refusal::PdnIllegalMove {
            game: number,
            move_number,
            side,
            text: mv.text.clone(),
            reason: Box::new(move_refusal(error)),
        },
    )
}

/// The move number and side of the 0-based ply `index`, numbered as the engine's writer
/// numbers them: move 1 begins with the variant's first mover (Black in English
/// draughts), so a set-up start with the other side to move begins at "1...".
fn move_number(start: &Position, variant: Variant, index: usize) -> (usize, Color) {
    let first = start.side_to_move();
    let offset = usize::from(first != variant.first_to_move());
    let side = if index.is_multiple_of(2) {
        first
    } else {
        first.opponent()
    };
    ((index + offset) / 2 + 1, side)
}

/// The game's state once the file's moves are in: over by the rules if the engine says so;
/// otherwise the file's played result, entered as an arbiter's (a result the board already
/// has keeps its reason); otherwise as it stood. A move answers any pending draw offer.
fn state_after(
    loaded: &Loaded,
    game: &Game,
    file_result: Option<ResultCode>,
    added: i32,
    now: chrono::NaiveDateTime,
) -> GameState {
    let row = &loaded.row;
    let mut state = GameState::of(row);
    state.ply = row.ply + added;
    if added > 0 {
        state.draw_offer_pending = false;
    }
    let end = match verdict(game) {
        Some(by_rules) => Some(by_rules),
        None => file_result
            .filter(|result| row.result != Some(*result))
            .map(|result| (result, GameEnd::Arbiter)),
    };
    if let Some((result, reason)) = end
        && (state.result, state.reason) != (Some(result), Some(reason))
    {
        state.finish(result, reason, now);
    }
    state
}

/// The engine's PDN reader's complaint, at its line and column.
fn unreadable(error: PdnError) -> AppError {
    let problem = match error.kind {
        PdnErrorKind::UnterminatedTag => Refusal::PdnTagNotClosed,
        PdnErrorKind::BadTag(text) => Refusal::PdnBadTag { text },
        PdnErrorKind::UnterminatedComment => Refusal::PdnCommentNotClosed,
        PdnErrorKind::UnterminatedVariation => Refusal::PdnVariationNotClosed,
        PdnErrorKind::Unexpected(c) => Refusal::PdnUnexpectedCharacter {
            text: format!("{c:?}"),
        },
        PdnErrorKind::UnknownGameType(text) => Refusal::PdnUnknownGameType { text },
        PdnErrorKind::Fen(_) => Refusal::PdnBadFen,
    };
    AppError::invalid(
        "pdn",
        Refusal::PdnUnreadable {
            line: error.line,
            column: error.column,
            problem: Box::new(problem),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_follow_the_variants_first_mover() {
        let russian = Position::start(damka_engine::Rules::preset(Variant::Russian));
        assert_eq!(
            move_number(&russian, Variant::Russian, 0),
            (1, Color::White)
        );
        assert_eq!(
            move_number(&russian, Variant::Russian, 1),
            (1, Color::Black)
        );
        assert_eq!(
            move_number(&russian, Variant::Russian, 22),
            (12, Color::White)
        );
        let english = Position::start(damka_engine::Rules::preset(Variant::English));
        assert_eq!(
            move_number(&english, Variant::English, 0),
            (1, Color::Black)
        );
        assert_eq!(
            move_number(&english, Variant::English, 3),
            (2, Color::White)
        );
    }

    #[test]
    fn names_match_without_case_or_surrounding_spaces() {
        assert!(same_name(" Иванов ", "иванов"));
        assert!(!same_name("Ivanov", "Ivanova"));
    }
}
