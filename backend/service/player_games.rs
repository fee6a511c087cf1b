//! A player's games as their page lists them: by event, newest event first (each round's
//! opponent, colour and result from the player's side, with the round's games), and their
//! games outside any event. Both lists are bounded; the page links to the full lists.
use damka_domain::tournament::ByeKind;
use damka_domain::vocabulary::ResultCode;
use damka_engine::Color;

use crate::service::events::history::{self, History};
use crate::service::events::reports::game_symbol;
use crate::service::events::{Event, micro_match, settings};
use crate::service::games::view::{self, GamePlayer, GameSummary};
use crate::service::paging::PageRequest;
use crate::service::{AppResult, DbConn};
use crate::store;

/// The latest events the page lists the player's rounds of.
pub const EVENTS_SHOWN: usize = 20;
/// The latest standalone games the page lists.
pub const STANDALONE_SHOWN: i64 = 50;

/// One round of an event from the player's side.
#[derive(Debug, Clone)]
pub struct RoundRow {
    pub round: i32,
    /// None for a round without an opponent (a bye).
    pub opponent: Option<GamePlayer>,
    /// The player's colour (in a micro-match: in its first game).
    pub colour: Option<Color>,
    /// `1`, `½`, `0`, `+`, `-`, `--` from the player's side; none while it has no result.
    pub result: Option<&'static str>,
    /// Why the player had no opponent.
    pub bye: Option<ByeKind>,
    /// A micro-match: the player's and the opponent's game points, in half-points.
    pub match_points: Option<(u32, u32)>,
    /// The round's games on the site, in game order.
    pub games: Vec<i64>,
}

/// The player's rounds in one event, in round order.
#[derive(Debug, Clone)]
pub struct EventGames {
    pub event: Event,
    pub rounds: Vec<RoundRow>,
}

#[derive(Debug, Clone)]
pub struct PlayerGames {
    /// The latest events the player is entered in, newest first (as the events list
    /// orders them), with the rounds published so far.
    pub events: Vec<EventGames>,
    /// There are older events than these.
    pub more_events: bool,
    /// The latest games outside any event, newest first.
    pub standalone: Vec<GameSummary>,
    /// There are older standalone games than these.
    pub more_standalone: bool,
}

/// The games of player `player_id` by event and outside events, as anyone may see them
/// (rounds not yet published are left out).
pub fn of_player(conn: &mut DbConn, player_id: i64) -> AppResult<PlayerGames> {
    let events = settings::list(
        conn,
        settings::ListFilter {
            player_id: Some(player_id),
            ..Default::default()
        },
        &PageRequest::first(EVENTS_SHOWN),
    )?;
    let more_events = events.next_cursor.is_some();
    let mut by_event = Vec::with_capacity(events.items.len());
    for event in events.items {
        let history = history::load(conn, &event)?.published_only();
        by_event.push(EventGames {
            rounds: rounds_of(&history, player_id),
            event,
        });
    }
    let mut rows = store::games::standalone_of_player(conn, player_id, STANDALONE_SHOWN + 1)?;
    let more_standalone = rows.len() as i64 > STANDALONE_SHOWN;
    rows.truncate(STANDALONE_SHOWN as usize);
    Ok(PlayerGames {
        events: by_event,
        more_events,
        standalone: view::summaries(conn, rows)?,
        more_standalone,
    })
}

/// The player's rounds in an event's history, in round order.
fn rounds_of(history: &History, player_id: i64) -> Vec<RoundRow> {
    let Some(entry) = history
        .entries
        .iter()
        .find(|e| e.entry.player_id == player_id)
        .map(|e| e.entry.id)
    else {
        return Vec::new();
    };
    let games_per_pairing = history.event.games_per_pairing.max(1);
    history
        .pairings
        .iter()
        .filter(|(_, p)| p.white_entry_id == entry || p.black_entry_id == Some(entry))
        .map(|(round, pairing)| {
            let as_white = pairing.white_entry_id == entry;
            let opponent_entry = if as_white {
                pairing.black_entry_id
            } else {
                Some(pairing.white_entry_id)
            };
            let opponent = opponent_entry
                .and_then(|id| history.entry(id))
                .map(|row| GamePlayer {
                    player_id: row.entry.player_id,
                    name: row.name.clone(),
                });
            let paired = pairing.black_entry_id.is_some();
            RoundRow {
                round: *round,
                colour: paired.then_some(if as_white { Color::White } else { Color::Black }),
                result: (paired && pairing.result.is_some())
                    .then(|| game_symbol(pairing.result, as_white)),
                bye: if paired { None } else { pairing.bye },
                match_points: match_points(history, pairing.id, as_white)
                    .filter(|_| paired && games_per_pairing > 1),
                games: (1..=games_per_pairing)
                    .filter_map(|no| history.game_ids.get(&(pairing.id, no)).copied())
                    .collect(),
                opponent,
            }
        })
        .collect()
}

/// A micro-match's game points, the player's first; none before any game has a result.
fn match_points(history: &History, pairing_id: i64, as_white: bool) -> Option<(u32, u32)> {
    let results: &Vec<(i32, Option<ResultCode>)> = history.game_results.get(&pairing_id)?;
    if results.iter().all(|(_, r)| r.is_none()) {
        return None;
    }
    let (white, black) = micro_match::game_points(results);
    Some(if as_white {
        (white.0, black.0)
    } else {
        (black.0, white.0)
    })
}
