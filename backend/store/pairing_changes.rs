//! Pairings changed by hand: the round's boards replaced in place, and the record of who
//! changed them, when, from what to what, and which rules the change broke.
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::columns::Spelled;
use super::models::{NewPairing, Pairing, PairingChange};
use super::schema::{pairing_changes, pairings, rounds};
use super::{DbConn, QueryResult};

/// Replaces the boards of a round. A stored row whose players stay together (same pair, or
/// the same player without an opponent) is kept and renumbered, so its history (a result
/// entered and cleared again) stays with it; the others are deleted and new rows inserted.
pub fn replace_round_pairings(
    conn: &mut DbConn,
    round_id: i64,
    new: &[NewPairing],
) -> QueryResult<()> {
    let mut old: Vec<Pairing> = pairings::table
        .filter(pairings::round_id.eq(round_id))
        .select(Pairing::as_select())
        .load(conn)?;
    // Board numbers are unique per round: move the kept rows out of the way first.
    for row in &old {
        diesel::update(pairings::table.find(row.id))
            .set(pairings::board.eq(-(row.board + 1)))
            .execute(conn)?;
    }
    for pairing in new {
        let same_players = |row: &Pairing| {
            let pair = |w: i64, b: Option<i64>| match b {
                Some(b) => (w.min(b), Some(w.max(b))),
                None => (w, None),
            };
            pair(row.white_entry_id, row.black_entry_id)
                == pair(pairing.white_entry_id, pairing.black_entry_id)
        };
        match old.iter().position(same_players) {
            Some(index) => {
                let row = old.swap_remove(index);
                diesel::update(pairings::table.find(row.id))
                    .set((
                        pairings::board.eq(pairing.board),
                        pairings::white_entry_id.eq(pairing.white_entry_id),
                        pairings::black_entry_id.eq(pairing.black_entry_id),
                        pairings::bye.eq(pairing.bye.map(Spelled)),
                    ))
                    .execute(conn)?;
            }
            None => super::events::insert_pairing(conn, pairing)?,
        }
    }
    for row in old {
        diesel::delete(pairings::table.find(row.id)).execute(conn)?;
    }
    Ok(())
}

pub fn record(
    conn: &mut DbConn,
    round_id: i64,
    user_id: i64,
    at: NaiveDateTime,
    old_pairing: &str,
    new_pairing: &str,
    warnings: &str,
) -> QueryResult<()> {
    diesel::insert_into(pairing_changes::table)
        .values((
            pairing_changes::round_id.eq(round_id),
            pairing_changes::user_id.eq(user_id),
            pairing_changes::changed_at.eq(at),
            pairing_changes::old_pairing.eq(old_pairing),
            pairing_changes::new_pairing.eq(new_pairing),
            pairing_changes::warnings.eq(warnings),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The event's hand changes with the round number, oldest first.
pub fn for_event(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i32, PairingChange)>> {
    pairing_changes::table
        .inner_join(rounds::table)
        .filter(rounds::event_id.eq(event_id))
        .order(pairing_changes::id)
        .select((rounds::number, PairingChange::as_select()))
        .load(conn)
}
