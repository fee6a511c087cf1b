//! The results that count for ratings, derived from the boards, micro-match games and
//! standalone games: what a recompute from scratch folds and what `rated_results` keeps
//! (see `super::recompute` for what counts and from when).
use std::collections::HashMap;

use chrono::{DateTime, Datelike, NaiveDateTime};
use damka_domain::ratings::Score;
use damka_domain::ratings::ledger::{CountedResult, Micros, Month, Origin};
use damka_domain::vocabulary::ResultCode;
use damka_engine::Variant;

use crate::store::ratings::{self as stored, Scope};
use crate::store::{DbConn, QueryResult};

pub fn micros(at: NaiveDateTime) -> Micros {
    at.and_utc().timestamp_micros()
}

pub fn instant(at: Micros) -> NaiveDateTime {
    DateTime::from_timestamp_micros(at)
        .map(|t| t.naive_utc())
        .unwrap_or_default()
}

pub fn month_of(at: NaiveDateTime) -> Month {
    Month {
        year: at.year(),
        month: at.month(),
    }
}

/// White's score of a played result.
pub fn white_score(result: ResultCode) -> Option<Score> {
    match result {
        ResultCode::WhiteWins => Some(Score::Win),
        ResultCode::Draw => Some(Score::Draw),
        ResultCode::BlackWins => Some(Score::Loss),
        _ => None,
    }
}

/// The results that count in `scope`, derived from the boards, micro-match games and
/// standalone games: what `rated_results` must hold for that scope.
pub fn counted_results(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<CountedResult>> {
    let players_of_entries: HashMap<i64, i64> = stored::rated_entries(conn, variant, scope)?
        .into_iter()
        .collect();
    let games_of_boards = games_of_boards(conn, variant, scope)?;
    let mut results = counted_boards(conn, variant, scope, &players_of_entries, &games_of_boards)?;
    results.extend(counted_micro_games(
        conn,
        variant,
        scope,
        &players_of_entries,
        &games_of_boards,
    )?);
    results.extend(counted_games(conn, variant, scope)?);
    Ok(results)
}

/// The played results of published boards of rated events, each at its last change (or
/// the round's publication, or its pairing).
fn counted_boards(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
    players_of_entries: &HashMap<i64, i64>,
    games_of_boards: &HashMap<(i64, i32), i64>,
) -> QueryResult<Vec<CountedResult>> {
    let last_changes: HashMap<i64, NaiveDateTime> =
        stored::last_result_changes(conn, variant, scope)?
            .into_iter()
            .filter_map(|(pairing, at)| at.map(|at| (pairing, at)))
            .collect();
    let mut results = Vec::new();
    for board in stored::counted_boards(conn, variant, scope)? {
        let (Some(black_entry), Some(score)) =
            (board.black_entry_id, board.result.and_then(white_score))
        else {
            continue;
        };
        let (Some(&white), Some(&black)) = (
            players_of_entries.get(&board.white_entry_id),
            players_of_entries.get(&black_entry),
        ) else {
            continue;
        };
        let at = last_changes
            .get(&board.pairing_id)
            .copied()
            .or(board.published_at)
            .unwrap_or(board.paired_at);
        results.push(CountedResult {
            at: micros(at),
            month: month_of(at),
            origin: Origin::Board {
                event_id: board.event_id,
                pairing_id: board.pairing_id,
                game_id: games_of_boards.get(&(board.pairing_id, 1)).copied(),
            },
            game_no: 0,
            white,
            black,
            white_score: score,
        });
    }
    Ok(results)
}

/// The game of each board that has one: (pairing, game number) to game id.
fn games_of_boards(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<HashMap<(i64, i32), i64>> {
    Ok(stored::board_games(conn, variant, scope)?
        .into_iter()
        .filter_map(|(pairing, game_no, game)| pairing.map(|pairing| ((pairing, game_no), game)))
        .collect())
}

/// Every game of a micro-match is rated on its own, in its own colours.
fn counted_micro_games(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
    players_of_entries: &HashMap<i64, i64>,
    games_of_boards: &HashMap<(i64, i32), i64>,
) -> QueryResult<Vec<CountedResult>> {
    let last_game_changes: HashMap<(i64, i32), NaiveDateTime> =
        stored::last_game_result_changes(conn, variant, scope)?
            .into_iter()
            .filter_map(|(key, at)| at.map(|at| (key, at)))
            .collect();
    let mut results = Vec::new();
    for game in stored::counted_micro_games(conn, variant, scope)? {
        let Some(score) = white_score(game.result) else {
            continue;
        };
        let (Some(&white), Some(&black)) = (
            players_of_entries.get(&game.white_entry_id),
            players_of_entries.get(&game.black_entry_id),
        ) else {
            continue;
        };
        let key = (game.pairing_id, game.game_no);
        let at = last_game_changes
            .get(&key)
            .copied()
            .or(game.published_at)
            .unwrap_or(game.paired_at);
        results.push(CountedResult {
            at: micros(at),
            month: month_of(at),
            origin: Origin::Board {
                event_id: game.event_id,
                pairing_id: game.pairing_id,
                game_id: games_of_boards.get(&key).copied(),
            },
            game_no: game.game_no,
            white,
            black,
            white_score: score,
        });
    }
    Ok(results)
}

/// The finished rated standalone games, each at its end.
fn counted_games(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<CountedResult>> {
    let mut results = Vec::new();
    for game in stored::counted_games(conn, variant, scope)? {
        let (Some(score), Some(at)) = (game.result.and_then(white_score), game.finished_at) else {
            continue;
        };
        results.push(CountedResult {
            at: micros(at),
            month: month_of(at),
            origin: Origin::Standalone {
                game_id: game.game_id,
            },
            game_no: 0,
            white: game.white,
            black: game.black,
            white_score: score,
        });
    }
    Ok(results)
}
