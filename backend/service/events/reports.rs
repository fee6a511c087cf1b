//! Standings, crosstable, a player's card and the TRF of an event, computed by the domain
//! from the stored results.
use damka_domain::standings::{self, StandingsOptions};
use damka_domain::tiebreak::{EventKind, parse_tiebreak_list};
use serde::Serialize;

use super::history;
use super::load;
use super::settings::is_round_robin;
use crate::service::{AppError, AppResult};
use crate::store::DbConn;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct StandingView {
    /// `3`, or `3-4` for a shared place.
    pub place: String,
    pub start_no: u32,
    pub entry_id: i64,
    pub player_id: i64,
    pub name: String,
    pub rating: Option<u32>,
    /// Points in half-points (7 = 3.5).
    pub half_points: u32,
    /// One value per tie-break, as printed.
    pub tiebreaks: Vec<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct StandingsView {
    pub after_round: u32,
    /// Tie-break codes, in order (e.g. `BH/C1`).
    pub tiebreaks: Vec<String>,
    pub rows: Vec<StandingView>,
}

fn options(
    event: &crate::store::models::Event,
    after_round: Option<u32>,
) -> AppResult<StandingsOptions> {
    let tiebreaks =
        parse_tiebreak_list(&event.tiebreaks).map_err(|e| AppError::internal(e.to_string()))?;
    Ok(StandingsOptions {
        after_round,
        tiebreaks: Some(tiebreaks),
        kind: Some(if is_round_robin(&event.system) {
            EventKind::RoundRobin
        } else {
            EventKind::Swiss
        }),
        unrated_rating: None,
    })
}

/// Standings after `after_round` (default: the last round with results).
pub fn standings(
    conn: &mut DbConn,
    event_id: i64,
    after_round: Option<u32>,
) -> AppResult<StandingsView> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    let tournament = history.tournament()?;
    let opts = options(&event, after_round)?;
    let table = standings::compute_standings(&tournament, &opts)
        .map_err(|e| AppError::invalid("round", e.to_string()))?;
    Ok(StandingsView {
        after_round: table.after_round,
        tiebreaks: table.tiebreaks.iter().map(|t| t.code()).collect(),
        rows: table
            .rows
            .iter()
            .map(|row| {
                let entry = history.entry_by_start_no(row.start_no);
                StandingView {
                    place: row.place_label(),
                    start_no: row.start_no,
                    entry_id: entry.map(|e| e.entry.id).unwrap_or_default(),
                    player_id: entry.map(|e| e.entry.player_id).unwrap_or_default(),
                    name: row.name.clone(),
                    rating: row.rating,
                    half_points: row.points.0,
                    tiebreaks: row.tiebreaks.iter().map(|v| v.to_string()).collect(),
                }
            })
            .collect(),
    })
}

/// The event as a FIDE TRF file (with XXR, XXC and the byes/absences of the next round).
pub fn trf(conn: &mut DbConn, event_id: i64) -> AppResult<String> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    Ok(damka_domain::trf::write(&history.tournament()?))
}
