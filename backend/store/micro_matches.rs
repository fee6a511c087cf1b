//! The rows of micro-matches and opening ballots: the seed a round's openings were drawn
//! with, the opening drawn for each board, and each game's own result in a pairing that
//! plays two games.
use diesel::prelude::*;

use super::columns::Spelled;
use super::schema::{pairing_games, pairings, rounds};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::ResultCode;

/// The opening a board was given, as it was when drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnOpening {
    /// Its place in the table it was drawn from (0-based).
    pub index: i32,
    /// The table's name for it: `12-IV`, `I-1`, `001`.
    pub code: String,
    /// Its moves in canonical notation.
    pub moves: Vec<String>,
    /// The position it starts from, when that is not the variant's initial one.
    pub start_fen: Option<String>,
    /// The position after its moves.
    pub fen: String,
}

type OpeningColumns = (
    Option<i32>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn read(pairing: i64, columns: OpeningColumns) -> Option<(i64, DrawnOpening)> {
    let (index, code, moves, start_fen, fen) = columns;
    Some((
        pairing,
        DrawnOpening {
            index: index?,
            code: code?,
            moves: moves?.split_whitespace().map(str::to_string).collect(),
            start_fen,
            fen: fen?,
        },
    ))
}

/// The openings drawn for the event's boards, by pairing.
pub fn openings(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i64, DrawnOpening)>> {
    let rows: Vec<(i64, OpeningColumns)> = pairings::table
        .inner_join(rounds::table)
        .filter(rounds::event_id.eq(event_id))
        .filter(pairings::opening_index.is_not_null())
        .select((
            pairings::id,
            (
                pairings::opening_index,
                pairings::opening_code,
                pairings::opening_moves,
                pairings::opening_start_fen,
                pairings::opening_fen,
            ),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, columns)| read(id, columns))
        .collect())
}

/// The openings drawn for the boards of one round.
pub fn openings_of_round(
    conn: &mut DbConn,
    round_id: i64,
) -> QueryResult<Vec<(i64, DrawnOpening)>> {
    let rows: Vec<(i64, OpeningColumns)> = pairings::table
        .filter(pairings::round_id.eq(round_id))
        .filter(pairings::opening_index.is_not_null())
        .select((
            pairings::id,
            (
                pairings::opening_index,
                pairings::opening_code,
                pairings::opening_moves,
                pairings::opening_start_fen,
                pairings::opening_fen,
            ),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, columns)| read(id, columns))
        .collect())
}

pub fn set_opening(conn: &mut DbConn, pairing_id: i64, opening: &DrawnOpening) -> QueryResult<()> {
    diesel::update(pairings::table.find(pairing_id))
        .set((
            pairings::opening_index.eq(Some(opening.index)),
            pairings::opening_code.eq(Some(&opening.code)),
            pairings::opening_moves.eq(Some(opening.moves.join(" "))),
            pairings::opening_start_fen.eq(opening.start_fen.as_ref()),
            pairings::opening_fen.eq(Some(&opening.fen)),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn set_round_seed(conn: &mut DbConn, round_id: i64, seed: i64) -> QueryResult<()> {
    diesel::update(rounds::table.find(round_id))
        .set(rounds::ballot_seed.eq(Some(seed)))
        .execute(conn)
        .map(|_| ())
}

/// Each game's result in the event's micro-matches: (pairing, game, result).
pub fn game_results(
    conn: &mut DbConn,
    event_id: i64,
) -> QueryResult<Vec<(i64, i32, Option<ResultCode>)>> {
    pairing_games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(rounds::event_id.eq(event_id))
        .order((pairing_games::pairing_id, pairing_games::game_no))
        .select((
            pairing_games::pairing_id,
            pairing_games::game_no,
            pairing_games::result.nullable(),
        ))
        .load(conn)
}

/// The results of one pairing's games, in game order.
pub fn results_of_pairing(
    conn: &mut DbConn,
    pairing_id: i64,
) -> QueryResult<Vec<(i32, Option<ResultCode>)>> {
    pairing_games::table
        .filter(pairing_games::pairing_id.eq(pairing_id))
        .order(pairing_games::game_no)
        .select((pairing_games::game_no, pairing_games::result.nullable()))
        .load(conn)
}

/// Makes sure the pairing has a row for each of its `games`, without a result.
pub fn ensure_games(conn: &mut DbConn, pairing_id: i64, games: i32) -> QueryResult<()> {
    let have = results_of_pairing(conn, pairing_id)?;
    for game_no in 1..=games {
        if !have.iter().any(|(no, _)| *no == game_no) {
            diesel::insert_into(pairing_games::table)
                .values((
                    pairing_games::pairing_id.eq(pairing_id),
                    pairing_games::game_no.eq(game_no),
                ))
                .execute(conn)?;
        }
    }
    Ok(())
}

pub fn set_game_result(
    conn: &mut DbConn,
    pairing_id: i64,
    game_no: i32,
    result: Option<ResultCode>,
) -> QueryResult<()> {
    diesel::update(
        pairing_games::table
            .filter(pairing_games::pairing_id.eq(pairing_id))
            .filter(pairing_games::game_no.eq(game_no)),
    )
    .set(pairing_games::result.eq(result.map(Spelled)))
    .execute(conn)
    .map(|_| ())
}
