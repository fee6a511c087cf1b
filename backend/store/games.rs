//! Games and their moves. A game row holds what the move list alone does not say (who
//! plays, the rules it is played under, how it ended, the pending draw offer); the moves
//! are one row per ply, and the primary key (game, ply) decides any race for a ply.
use chrono::NaiveDateTime;
use damka_domain::clock::TimeControl;
use damka_engine::{Color, Variant};
use diesel::prelude::*;

use super::columns::Spelled;
use super::local_rules::{JsonText, LocalRules};
use super::prepared::Prepared;
use super::schema::{game_changes, game_moves, games, pairings, players, rounds};
use super::time_control::TimeControlText;
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode, Spelling};

/// A stored game.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i64,
    pub variant: Variant,
    pub local_rules: LocalRules,
    pub start_fen: String,
    pub white_player_id: i64,
    pub black_player_id: i64,
    pub event_id: Option<i64>,
    pub pairing_id: Option<i64>,
    pub rated: bool,
    pub draw_offer_min_moves: i32,
    pub status: GameStatus,
    pub result: Option<ResultCode>,
    pub reason: Option<GameEnd>,
    pub ply: i32,
    pub draw_offer_by: Option<Color>,
    pub draw_offer_ply: Option<i32>,
    pub draw_offer_pending: bool,
    pub revision: i64,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub finished_at: Option<NaiveDateTime>,
    pub clock: TimeControl,
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub deadline: Option<NaiveDateTime>,
    /// Which game of its pairing this is: 1, or 2 for a micro-match's return game.
    pub game_no: i32,
    /// How many of its first plies are a drawn opening's.
    pub opening_plies: i32,
    /// The last offer (not pending) was declined; else it lapsed when the opponent moved.
    pub draw_offer_declined: bool,
}

impl GameRow {
    /// Whether a player has moved in it (a drawn opening's plies are nobody's).
    pub fn has_moves(&self) -> bool {
        self.ply > self.opening_plies
    }

    /// Whether it is being played: a player has moved and it is not over (a typed result
    /// would end it: `game_in_progress`).
    pub fn in_progress(&self) -> bool {
        self.has_moves() && self.status == GameStatus::Ongoing
    }
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub variant: Variant,
    pub local_rules: LocalRules,
    pub start_fen: String,
    pub white_player_id: i64,
    pub black_player_id: i64,
    pub event_id: Option<i64>,
    pub pairing_id: Option<i64>,
    pub rated: bool,
    pub draw_offer_min_moves: i32,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub clock: TimeControl,
    /// 1, or 2 for the second game of a micro-match.
    pub game_no: i32,
}

/// One stored ply.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_moves)]
pub struct MoveRow {
    pub ply: i32,
    pub notation: String,
    pub submitted_by: Option<i64>,
    pub played_at: NaiveDateTime,
    /// The mover's remaining time right after the move (`None`: untimed).
    pub clock_ms: Option<i64>,
}

/// What a write changes on the game row after its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct GameState {
    pub ply: i32,
    pub status: GameStatus,
    pub result: Option<ResultCode>,
    pub reason: Option<GameEnd>,
    pub draw_offer_by: Option<Color>,
    pub draw_offer_ply: Option<i32>,
    pub draw_offer_pending: bool,
    /// The last offer was declined (see `GameRow::draw_offer_declined`).
    pub draw_offer_declined: bool,
    pub finished_at: Option<NaiveDateTime>,
    /// The clocks (see `damka_domain::clock::Clocks`), all `None` for an untimed game.
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    pub deadline: Option<NaiveDateTime>,
}

impl GameState {
    /// The game ends now with `result` for `reason`; a pending draw offer lapses.
    pub fn finish(&mut self, result: ResultCode, reason: GameEnd, at: NaiveDateTime) {
        self.status = GameStatus::Finished;
        self.result = Some(result);
        self.reason = Some(reason);
        self.finished_at = Some(at);
        self.draw_offer_pending = false;
    }

    /// The game goes on again without a result (an arbiter's correction or takeback).
    pub fn reopen(&mut self) {
        self.status = GameStatus::Ongoing;
        self.result = None;
        self.reason = None;
        self.finished_at = None;
        self.draw_offer_pending = false;
    }

    /// Writes this state into `row`, as `set_state` writes it into the table.
    pub fn apply_to(&self, row: &mut GameRow) {
        row.ply = self.ply;
        row.status = self.status;
        row.result = self.result;
        row.reason = self.reason;
        row.draw_offer_by = self.draw_offer_by;
        row.draw_offer_ply = self.draw_offer_ply;
        row.draw_offer_pending = self.draw_offer_pending;
        row.draw_offer_declined = self.draw_offer_declined;
        row.finished_at = self.finished_at;
        row.white_ms = self.white_ms;
        row.black_ms = self.black_ms;
        row.deadline = self.deadline;
    }

    /// The row's state as stored, to change a field or two of.
    pub fn of(row: &GameRow) -> GameState {
        GameState {
            ply: row.ply,
            status: row.status,
            result: row.result,
            reason: row.reason,
            draw_offer_by: row.draw_offer_by,
            draw_offer_ply: row.draw_offer_ply,
            draw_offer_pending: row.draw_offer_pending,
            draw_offer_declined: row.draw_offer_declined,
            finished_at: row.finished_at,
            white_ms: row.white_ms,
            black_ms: row.black_ms,
            deadline: row.deadline,
        }
    }
}

/// A change an arbiter made, as the audit trail shows it.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_changes)]
pub struct GameChange {
    pub id: i64,
    pub game_id: i64,
    pub user_id: i64,
    pub changed_at: NaiveDateTime,
    pub action: String,
    pub ply: Option<i32>,
    pub notation: Option<String>,
    pub old_result: Option<ResultCode>,
    pub new_result: Option<ResultCode>,
    pub reason: Option<GameEnd>,
}

/// The kinds of `game_changes.action`.
pub const CHANGE_RESULT: &str = "result";
pub const CHANGE_TAKEBACK: &str = "takeback";

pub fn insert(conn: &mut DbConn, game: &NewGame) -> QueryResult<i64> {
    diesel::insert_into(games::table)
        .values((
            games::variant.eq(Spelled(game.variant)),
            games::local_rules.eq(JsonText::from(game.local_rules.clone())),
            games::start_fen.eq(&game.start_fen),
            games::white_player_id.eq(game.white_player_id),
            games::black_player_id.eq(game.black_player_id),
            games::event_id.eq(game.event_id),
            games::pairing_id.eq(game.pairing_id),
            games::rated.eq(game.rated),
            games::draw_offer_min_moves.eq(game.draw_offer_min_moves),
            games::status.eq(Spelled(GameStatus::Ongoing)),
            games::ply.eq(0),
            games::draw_offer_pending.eq(false),
            games::revision.eq(0_i64),
            games::created_by.eq(game.created_by),
            games::created_at.eq(game.created_at),
            games::clock.eq(TimeControlText::from(game.clock)),
            games::white_ms.eq(game.clock.start().map(|c| c.white_ms)),
            games::black_ms.eq(game.clock.start().map(|c| c.black_ms)),
            games::game_no.eq(game.game_no),
        ))
        .returning(games::id)
        .get_result(conn)
}

/// Starts a write to the game: bumps its revision, which takes the row lock on PostgreSQL
/// (as `events::lock` does for events), and returns the row as it stands under the lock
/// (one round trip for both). `None`: no such game.
pub fn lock(conn: &mut DbConn, id: i64) -> QueryResult<Option<GameRow>> {
    Prepared(
        diesel::update(games::table.find(id))
            .set(games::revision.eq(games::revision + 1))
            // The columns in the order of `GameRow`'s fields (`as_returning` is not
            // available through the MultiConnection).
            .returning(games::all_columns),
    )
    .get_result::<GameRow>(conn)
    .optional()
}

/// Locks the games `ids` for this transaction without waiting: the ids locked. A game that
/// another transaction is writing to right now is left out (PostgreSQL `SKIP LOCKED`); on
/// SQLite a write transaction already excludes every other writer, so all are locked.
pub fn lock_unless_busy(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<i64>> {
    match conn {
        DbConn::Pg(pg) => games::table
            .filter(games::id.eq_any(ids))
            .select(games::id)
            .for_update()
            .skip_locked()
            .load(pg),
        DbConn::Sqlite(_) => Ok(ids.to_vec()),
    }
}

// Lookups by a unique key use `get_result`, not `first`: the `LIMIT ?` of `first` makes
// SQLite compile the statement again on every execution.
pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<GameRow>> {
    games::table
        .find(id)
        .select(GameRow::as_select())
        .get_result(conn)
        .optional()
}

/// The round number and board of an event game's pairing.
pub fn round_and_board(conn: &mut DbConn, pairing_id: i64) -> QueryResult<Option<(i32, i32)>> {
    pairings::table
        .inner_join(rounds::table)
        .filter(pairings::id.eq(pairing_id))
        .select((rounds::number, pairings::board))
        .get_result(conn)
        .optional()
}

/// What a game's view shows of its board.
#[derive(Debug, Clone, Default)]
pub struct BoardOfGame {
    /// Round number and board.
    pub round_board: Option<(i32, i32)>,
    /// The drawn opening's code.
    pub opening_code: Option<String>,
    /// The other game of a micro-match.
    pub other_game_id: Option<i64>,
}

/// The board of game `game_id`, in two light lookups.
pub fn board_of_game(conn: &mut DbConn, pairing_id: i64, game_id: i64) -> QueryResult<BoardOfGame> {
    let board: Option<(i32, i32, Option<String>)> = pairings::table
        .inner_join(rounds::table)
        .filter(pairings::id.eq(pairing_id))
        .select((rounds::number, pairings::board, pairings::opening_code))
        .get_result(conn)
        .optional()?;
    let other: Option<i64> = games::table
        .filter(games::pairing_id.eq(pairing_id))
        .filter(games::id.ne(game_id))
        .select(games::id)
        .get_result(conn)
        .optional()?;
    Ok(BoardOfGame {
        round_board: board.as_ref().map(|(round, number, _)| (*round, *number)),
        opening_code: board.and_then(|(_, _, code)| code),
        other_game_id: other,
    })
}

/// The names of the given players.
pub fn player_names(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    Prepared(
        players::table
            .filter(players::id.eq_any(ids))
            .select((players::id, players::name)),
    )
    .load(conn)
}

pub fn moves(conn: &mut DbConn, game_id: i64) -> QueryResult<Vec<MoveRow>> {
    game_moves::table
        .filter(game_moves::game_id.eq(game_id))
        .order(game_moves::ply)
        .select(MoveRow::as_select())
        .load(conn)
}

pub fn insert_move(
    conn: &mut DbConn,
    game_id: i64,
    ply: i32,
    notation: &str,
    submitted_by: Option<i64>,
    at: NaiveDateTime,
    clock_ms: Option<i64>,
) -> QueryResult<()> {
    Prepared(diesel::insert_into(game_moves::table).values((
        game_moves::game_id.eq(game_id),
        game_moves::ply.eq(ply),
        game_moves::notation.eq(notation),
        game_moves::submitted_by.eq(submitted_by),
        game_moves::played_at.eq(at),
        game_moves::clock_ms.eq(clock_ms),
    )))
    .execute(conn)
    .map(|_| ())
}

pub fn delete_move(conn: &mut DbConn, game_id: i64, ply: i32) -> QueryResult<()> {
    diesel::delete(game_moves::table.find((game_id, ply)))
        .execute(conn)
        .map(|_| ())
}

pub fn set_state(conn: &mut DbConn, game_id: i64, state: &GameState) -> QueryResult<()> {
    Prepared(diesel::update(games::table.find(game_id)).set(StateColumns::of(state)))
        .execute(conn)
        .map(|_| ())
}

/// The columns of `GameState`, as one changeset (None is written as NULL).
#[derive(AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
struct StateColumns {
    ply: i32,
    status: Spelled<GameStatus>,
    result: Option<Spelled<ResultCode>>,
    reason: Option<Spelled<GameEnd>>,
    draw_offer_by: Option<Spelled<Color>>,
    draw_offer_ply: Option<i32>,
    draw_offer_pending: bool,
    draw_offer_declined: bool,
    finished_at: Option<NaiveDateTime>,
    white_ms: Option<i64>,
    black_ms: Option<i64>,
    deadline: Option<NaiveDateTime>,
}

impl StateColumns {
    fn of(state: &GameState) -> StateColumns {
        StateColumns {
            ply: state.ply,
            status: Spelled(state.status),
            result: state.result.map(Spelled),
            reason: state.reason.map(Spelled),
            draw_offer_by: state.draw_offer_by.map(Spelled),
            draw_offer_ply: state.draw_offer_ply,
            draw_offer_pending: state.draw_offer_pending,
            draw_offer_declined: state.draw_offer_declined,
            finished_at: state.finished_at,
            white_ms: state.white_ms,
            black_ms: state.black_ms,
            deadline: state.deadline,
        }
    }
}

/// The game of a board, if the board has one (a micro-match's first game).
pub fn of_pairing(conn: &mut DbConn, pairing_id: i64) -> QueryResult<Option<GameRow>> {
    games::table
        .filter(games::pairing_id.eq(pairing_id))
        .filter(games::game_no.eq(1))
        .select(GameRow::as_select())
        .get_result(conn)
        .optional()
}

/// The games of one round's boards.
pub fn of_round(conn: &mut DbConn, round_id: i64) -> QueryResult<Vec<GameRow>> {
    games::table
        .inner_join(pairings::table)
        .filter(pairings::round_id.eq(round_id))
        .select(GameRow::as_select())
        .load(conn)
}

/// Every game of an event, with its round number and board, in round and board order.
pub fn of_event(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(GameRow, i32, i32)>> {
    games::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(games::event_id.eq(event_id))
        .order((rounds::number, pairings::board))
        .select((GameRow::as_select(), rounds::number, pairings::board))
        .load(conn)
}

/// (pairing, game number, game) of an event's games, for the pairing tables.
pub fn ids_by_pairing(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i64, i32, i64)>> {
    games::table
        .filter(games::event_id.eq(event_id))
        .filter(games::pairing_id.is_not_null())
        .select((
            games::pairing_id.assume_not_null(),
            games::game_no,
            games::id,
        ))
        .load(conn)
}

/// A new game that starts with the `plies` of a drawn opening already stored as its moves.
pub fn set_opening_plies(conn: &mut DbConn, game_id: i64, plies: i32) -> QueryResult<()> {
    diesel::update(games::table.find(game_id))
        .set((games::ply.eq(plies), games::opening_plies.eq(plies)))
        .execute(conn)
        .map(|_| ())
}

/// Game `game_no` of a board, if the board has it.
pub fn of_pairing_game(
    conn: &mut DbConn,
    pairing_id: i64,
    game_no: i32,
) -> QueryResult<Option<GameRow>> {
    games::table
        .filter(games::pairing_id.eq(pairing_id))
        .filter(games::game_no.eq(game_no))
        .select(GameRow::as_select())
        .get_result(conn)
        .optional()
}

pub fn delete(conn: &mut DbConn, game_id: i64) -> QueryResult<()> {
    diesel::delete(games::table.find(game_id))
        .execute(conn)
        .map(|_| ())
}

/// Ongoing games whose side to move ran out of time by `now` (at most `limit`, the
/// longest overdue first).
pub fn overdue(conn: &mut DbConn, now: NaiveDateTime, limit: i64) -> QueryResult<Vec<i64>> {
    games::table
        .filter(games::deadline.le(now))
        .filter(games::status.eq(Spelled(GameStatus::Ongoing)))
        .order(games::deadline)
        .limit(limit)
        .select(games::id)
        .load(conn)
}

/// Which games a list shows.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    pub player_id: Option<i64>,
    pub event_id: Option<i64>,
    pub status: Option<GameStatus>,
    /// Only games older than this one (a smaller id): the list after a page's last game.
    pub older_than: Option<i64>,
    /// At most this many, newest first.
    pub limit: i64,
}

pub fn list(conn: &mut DbConn, filter: &GameFilter) -> QueryResult<Vec<GameRow>> {
    let mut query = games::table.select(GameRow::as_select()).into_boxed();
    if let Some(player) = filter.player_id {
        query = query.filter(
            games::white_player_id
                .eq(player)
                .or(games::black_player_id.eq(player)),
        );
    }
    if let Some(event) = filter.event_id {
        query = query.filter(games::event_id.eq(event));
    }
    if let Some(status) = filter.status {
        query = query.filter(games::status.eq(Spelled(status)));
    }
    if let Some(id) = filter.older_than {
        query = query.filter(games::id.lt(id));
    }
    query.order(games::id.desc()).limit(filter.limit).load(conn)
}

/// A player's games outside any event (casual games), newest first, at most `limit`.
pub fn standalone_of_player(
    conn: &mut DbConn,
    player_id: i64,
    limit: i64,
) -> QueryResult<Vec<GameRow>> {
    games::table
        .select(GameRow::as_select())
        .filter(games::event_id.is_null())
        .filter(
            games::white_player_id
                .eq(player_id)
                .or(games::black_player_id.eq(player_id)),
        )
        .order(games::id.desc())
        .limit(limit)
        .load(conn)
}

pub struct NewGameChange<'a> {
    pub game_id: i64,
    pub user_id: i64,
    pub at: NaiveDateTime,
    pub action: &'a str,
    pub ply: Option<i32>,
    pub notation: Option<&'a str>,
    pub old_result: Option<ResultCode>,
    pub new_result: Option<ResultCode>,
    pub reason: Option<GameEnd>,
}

pub fn record_change(conn: &mut DbConn, change: &NewGameChange<'_>) -> QueryResult<()> {
    diesel::insert_into(game_changes::table)
        .values((
            game_changes::game_id.eq(change.game_id),
            game_changes::user_id.eq(change.user_id),
            game_changes::changed_at.eq(change.at),
            game_changes::action.eq(change.action),
            game_changes::ply.eq(change.ply),
            game_changes::notation.eq(change.notation),
            game_changes::old_result.eq(change.old_result.map(Spelled)),
            game_changes::new_result.eq(change.new_result.map(Spelled)),
            game_changes::reason.eq(change.reason.map(Spelled)),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The arbiters' changes to an event's games with the board (pairing) of each, oldest
/// first.
pub fn changes_of_event(
    conn: &mut DbConn,
    event_id: i64,
) -> QueryResult<Vec<(GameChange, Option<i64>)>> {
    game_changes::table
        .inner_join(games::table)
        .filter(games::event_id.eq(event_id))
        .order(game_changes::id)
        .select((GameChange::as_select(), games::pairing_id))
        .load(conn)
}

pub fn changes_of_game(conn: &mut DbConn, game_id: i64) -> QueryResult<Vec<GameChange>> {
    game_changes::table
        .filter(game_changes::game_id.eq(game_id))
        .order(game_changes::id)
        .select(GameChange::as_select())
        .load(conn)
}

/// The display name of who set the game's result last (its latest result change), if
/// someone did.
pub fn result_set_by(conn: &mut DbConn, game_id: i64) -> QueryResult<Option<String>> {
    game_changes::table
        .inner_join(super::schema::users::table)
        .filter(game_changes::game_id.eq(game_id))
        .filter(game_changes::action.eq(CHANGE_RESULT))
        .order(game_changes::id.desc())
        .select(super::schema::users::display_name)
        .first(conn)
        .optional()
}

/// A move stored without the game's lock, only if the game is still at `revision`.
pub struct Advance<'a> {
    pub game_id: i64,
    pub revision: i64,
    /// The row's state after the move.
    pub state: &'a GameState,
    pub notation: &'a str,
    pub submitted_by: Option<i64>,
    pub at: NaiveDateTime,
    /// The mover's remaining time after the move.
    pub clock_ms: Option<i64>,
}

/// PostgreSQL: the revision check, the row's new state and the move in one statement, so a
/// move costs one round trip and no explicit transaction (SQLite has no `UPDATE` inside
/// `WITH`).
const ADVANCE_PG: &str = "WITH advanced AS (
    UPDATE games SET revision = revision + 1, ply = $3, status = $4, result = $5,
        reason = $6, draw_offer_by = $7, draw_offer_ply = $8, draw_offer_pending = $9,
        finished_at = $10, white_ms = $14, black_ms = $15, deadline = $16,
        draw_offer_declined = $18
    WHERE id = $1 AND revision = $2
    RETURNING id, white_player_id, black_player_id),
stored AS (
    INSERT INTO game_moves (game_id, ply, notation, submitted_by, played_at, clock_ms)
    SELECT id, $3, $11, $12, $13, $17 FROM advanced)
SELECT white.name AS white_name, black.name AS black_name
FROM advanced
JOIN players white ON white.id = advanced.white_player_id
JOIN players black ON black.id = advanced.black_player_id";

/// What `advance` did.
#[derive(Debug)]
pub enum Advanced {
    /// Another write came first; nothing was written.
    No,
    /// Stored. PostgreSQL reads the players' names in the same statement (White, Black).
    Yes { names: Option<(String, String)> },
}

#[derive(QueryableByName)]
struct AdvancedNames {
    #[diesel(sql_type = diesel::sql_types::Text)]
    white_name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    black_name: String,
}

/// Stores the move and the game's new state if the game is still at `advance.revision`
/// (and bumps it).
pub fn advance(conn: &mut DbConn, advance: &Advance<'_>) -> QueryResult<Advanced> {
    use diesel::sql_types::{BigInt, Bool, Integer, Nullable, Text, Timestamp};
    let state = advance.state;
    if conn.backend() == super::Backend::Postgres {
        let spelled = |value: Option<&'static str>| value.map(str::to_string);
        let names: Option<AdvancedNames> = Prepared(
            diesel::sql_query(ADVANCE_PG)
                .bind::<BigInt, _>(advance.game_id)
                .bind::<BigInt, _>(advance.revision)
                .bind::<Integer, _>(state.ply)
                .bind::<Text, _>(state.status.spelling())
                .bind::<Nullable<Text>, _>(spelled(state.result.map(|r| r.spelling())))
                .bind::<Nullable<Text>, _>(spelled(state.reason.map(|r| r.spelling())))
                .bind::<Nullable<Text>, _>(spelled(state.draw_offer_by.map(|c| c.spelling())))
                .bind::<Nullable<Integer>, _>(state.draw_offer_ply)
                .bind::<Bool, _>(state.draw_offer_pending)
                .bind::<Nullable<Timestamp>, _>(state.finished_at)
                .bind::<Text, _>(advance.notation)
                .bind::<Nullable<BigInt>, _>(advance.submitted_by)
                .bind::<Timestamp, _>(advance.at)
                .bind::<Nullable<BigInt>, _>(state.white_ms)
                .bind::<Nullable<BigInt>, _>(state.black_ms)
                .bind::<Nullable<Timestamp>, _>(state.deadline)
                .bind::<Nullable<BigInt>, _>(advance.clock_ms)
                .bind::<Bool, _>(state.draw_offer_declined),
        )
        .get_result(conn)
        .optional()?;
        return Ok(match names {
            Some(names) => Advanced::Yes {
                names: Some((names.white_name, names.black_name)),
            },
            None => Advanced::No,
        });
    }
    conn.write_transaction(|conn| {
        let updated = Prepared(
            diesel::update(
                games::table
                    .filter(games::id.eq(advance.game_id))
                    .filter(games::revision.eq(advance.revision)),
            )
            .set((
                games::revision.eq(advance.revision + 1),
                StateColumns::of(state),
            )),
        )
        .execute(conn)?;
        if updated != 1 {
            return Ok(Advanced::No);
        }
        insert_move(
            conn,
            advance.game_id,
            state.ply,
            advance.notation,
            advance.submitted_by,
            advance.at,
            advance.clock_ms,
        )?;
        Ok(Advanced::Yes { names: None })
    })
}
