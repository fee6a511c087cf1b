//! Games already replayed, kept per database so that a move does not read and replay the
//! whole move list again. An entry is the state a move left behind, stamped with the game
//! row's revision at that write; every write to a game bumps the revision under the game's
//! lock, so an entry whose stamp still matches is exactly what the database holds, on this
//! instance or any other. Anything else (another instance's write, an arbiter's takeback,
//! a PDN import) changes the revision and the entry is simply not used.
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use damka_engine::Game;

use crate::store::DbConn;
use crate::store::games::{GameRow, MoveRow};

/// How many games are kept: far more than a club plays at once; past it the cache starts
/// again rather than tracking which game was used last.
const CAPACITY: usize = 4096;

#[derive(Default)]
pub struct Replayed {
    games: Mutex<HashMap<i64, Arc<Entry>>>,
}

struct Entry {
    /// The row as the write left it; its revision is the stamp.
    row: GameRow,
    moves: Vec<MoveRow>,
    game: Game,
}

impl Replayed {
    fn of(conn: &mut DbConn) -> Option<Arc<Replayed>> {
        conn.shared().map(|shared| shared.extension::<Replayed>())
    }

    fn entry(&self, game_id: i64) -> Option<Arc<Entry>> {
        self.games
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&game_id)
            .cloned()
    }
}

/// The moves and replayed game of game `game_id`, if kept for the revision `revision`.
pub fn lookup(conn: &mut DbConn, game_id: i64, revision: i64) -> Option<(Vec<MoveRow>, Game)> {
    let entry = Replayed::of(conn)?.entry(game_id)?;
    (entry.row.revision == revision).then(|| (entry.moves.clone(), entry.game.clone()))
}

/// The game as this instance last left it, row included: what a move may be checked
/// against before any lock, to be stored only if the revision is still the same.
pub fn latest(conn: &mut DbConn, game_id: i64) -> Option<(GameRow, Vec<MoveRow>, Game)> {
    let entry = Replayed::of(conn)?.entry(game_id)?;
    Some((entry.row.clone(), entry.moves.clone(), entry.game.clone()))
}

/// Keeps the state a committed write left behind (its row carries the write's revision).
pub fn remember(conn: &mut DbConn, row: &GameRow, moves: &[MoveRow], game: &Game) {
    let Some(cache) = Replayed::of(conn) else {
        return;
    };
    let entry = Arc::new(Entry {
        row: row.clone(),
        moves: moves.to_vec(),
        game: game.clone(),
    });
    let mut games = cache
        .games
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if games.len() >= CAPACITY && !games.contains_key(&row.id) {
        games.clear();
    }
    games.insert(row.id, entry);
}
