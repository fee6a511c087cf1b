//! Print sheets: the pairing sheet of one round and the standings (or crosstable) after a
//! round, with what a sheet on the wall needs beyond the tabs' views: each player's points
//! before the round, rating, club and country. Visibility follows the event's tabs: a draft
//! round exists only for those who may arbitrate the event.
use std::collections::HashMap;

use damka_domain::tournament::{ByeKind, HalfPoints, Tournament};

use super::ballot::OpeningView;
use super::history;
use super::reports::{self, CrosstableView, StandingsView};
use super::rounds::{self, RoundView};
use super::{Event, load};
use crate::service::{Actor, AppError, AppResult};
use crate::store::{DbConn, clubs, players};
use damka_domain::vocabulary::{BallotPer, ResultCode};

/// A player as a sheet prints them.
#[derive(Debug, Clone)]
pub struct SheetPlayer {
    pub start_no: i32,
    pub name: String,
    pub rating: Option<i32>,
    /// Points before the round, in half-points.
    pub points_before: u32,
}

#[derive(Debug, Clone)]
pub struct SheetBoard {
    pub board: i32,
    pub white: SheetPlayer,
    pub black: SheetPlayer,
    /// `None` while the game is on.
    pub result: Option<ResultCode>,
    /// In a micro-match: each game's result as the sheet prints it, the left (game 1's
    /// White) player's side first, whatever the game's colours; one game: empty.
    pub games: Vec<Option<ResultCode>>,
    /// The opening drawn for the board (`None` when the sheet names one for the round).
    pub opening: Option<OpeningView>,
}

/// A player without an opponent in the round.
#[derive(Debug, Clone)]
pub struct SheetBye {
    pub player: SheetPlayer,
    pub kind: ByeKind,
}

#[derive(Debug, Clone)]
pub struct PairingSheet {
    pub event: Event,
    pub round: i32,
    pub published: bool,
    pub boards: Vec<SheetBoard>,
    pub byes: Vec<SheetBye>,
    /// The opening of the whole round, when the event draws one per round.
    pub round_opening: Option<OpeningView>,
}

/// The pairing sheet of round `number`: `NotFound` when the round does not exist or is a
/// draft the actor may not see (exactly the rounds `rounds::list` shows them).
pub fn pairing_sheet(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    number: i32,
) -> AppResult<PairingSheet> {
    let round = rounds::list(conn, actor, event_id)?
        .into_iter()
        .find(|r| r.number == number)
        .ok_or(AppError::NotFound { what: "round" })?;
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    let tournament = history.tournament()?;
    sheet_of(event, &history, &tournament, &round)
}

/// The sheet of a round the actor may see, from the event's loaded history.
pub(super) fn sheet_of(
    event: Event,
    history: &history::History,
    tournament: &Tournament,
    round: &RoundView,
) -> AppResult<PairingSheet> {
    let number = round.number;
    let before = points_before(tournament, number);
    let player = |entry_id: i64| -> AppResult<SheetPlayer> {
        let row = history.entry(entry_id).ok_or_else(|| {
            AppError::internal(format!("round refers to unknown entry {entry_id}"))
        })?;
        Ok(SheetPlayer {
            start_no: row.entry.start_no,
            name: row.name.clone(),
            rating: row.entry.rating,
            points_before: before.get(&row.entry.start_no).copied().unwrap_or(0),
        })
    };
    let round_opening = round_opening(&event, round);
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for b in &round.boards {
        match b.black_entry_id {
            Some(black) => boards.push(SheetBoard {
                board: b.board,
                white: player(b.white_entry_id)?,
                black: player(black)?,
                result: b.result,
                games: if event.games_per_pairing > 1 {
                    b.games
                        .iter()
                        .map(|g| {
                            let swapped = g.white != b.white_entry_id;
                            g.result.map(|r| if swapped { r.swapped() } else { r })
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                opening: if round_opening.is_some() {
                    None
                } else {
                    b.opening.clone()
                },
            }),
            None => byes.push(SheetBye {
                player: player(b.white_entry_id)?,
                // A row with neither an opponent nor a bye kind counts as an absence.
                kind: b.bye.unwrap_or(ByeKind::ZeroPoint),
            }),
        }
    }
    Ok(PairingSheet {
        event,
        round: round.number,
        published: round.published,
        boards,
        byes,
        round_opening,
    })
}

/// The one opening every board of `round` starts from, when the event draws it once per
/// round: the pages and the sheet name it once, above the boards.
pub fn round_opening(event: &Event, round: &RoundView) -> Option<OpeningView> {
    if event.ballot_per != BallotPer::Round {
        return None;
    }
    let mut openings = round.boards.iter().filter_map(|b| b.opening.as_ref());
    let first = openings.next()?;
    openings
        .all(|o| o.code == first.code)
        .then(|| first.clone())
}

/// Each player's score (by start number) from the rounds before `round`.
pub(super) fn points_before(t: &Tournament, round: i32) -> HashMap<i32, u32> {
    let earlier = usize::try_from(round - 1).unwrap_or(0);
    t.players
        .iter()
        .map(|p| {
            let score: HalfPoints = p
                .rounds
                .iter()
                .take(earlier)
                .map(|e| t.points.points(e))
                .sum();
            (p.start_no as i32, score.0)
        })
        .collect()
}

/// A standings line with what the profile adds.
#[derive(Debug, Clone)]
pub struct SheetStanding {
    pub place: String,
    pub start_no: u32,
    pub name: String,
    pub rating: Option<u32>,
    pub club: Option<String>,
    pub country: String,
    pub half_points: u32,
    pub tiebreaks: Vec<String>,
    /// Keizer events: the Keizer score in sixths, the value number, games played and
    /// rounds missed (see `reports::StandingView`).
    pub keizer_sixths: Option<u64>,
    pub value: Option<u32>,
    pub games: Option<u32>,
    pub absences: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct StandingsSheet {
    pub event: Event,
    pub after_round: u32,
    pub tiebreaks: Vec<String>,
    pub rows: Vec<SheetStanding>,
}

/// The standings after round `after` (default: the last round the actor can see whose
/// games all have results; 0 before any). A round beyond those the actor can see is
/// `NotFound`, so a sheet never counts a draft's byes for the public.
pub fn standings_sheet(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    after: Option<u32>,
) -> AppResult<StandingsSheet> {
    let after = visible_round(conn, actor, event_id, after)?;
    let standings: StandingsView = reports::standings(conn, event_id, Some(after))?;
    let profiles = profiles(conn, standings.rows.iter().map(|r| r.player_id))?;
    Ok(StandingsSheet {
        event: load(conn, event_id)?,
        after_round: standings.after_round,
        tiebreaks: standings.tiebreaks,
        rows: standings
            .rows
            .into_iter()
            .map(|row| {
                let (club, country) = profiles.get(&row.player_id).cloned().unwrap_or_default();
                SheetStanding {
                    place: row.place,
                    start_no: row.start_no,
                    name: row.name,
                    rating: row.rating,
                    club,
                    country,
                    half_points: row.half_points,
                    tiebreaks: row.tiebreaks,
                    keizer_sixths: row.keizer_sixths,
                    value: row.value,
                    games: row.games,
                    absences: row.absences,
                }
            })
            .collect(),
    })
}

#[derive(Debug, Clone)]
pub struct CrosstableSheet {
    pub event: Event,
    pub table: CrosstableView,
}

/// The crosstable after round `after`, with the same choice of round as the standings.
pub fn crosstable_sheet(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    after: Option<u32>,
) -> AppResult<CrosstableSheet> {
    let after = visible_round(conn, actor, event_id, after)?;
    Ok(CrosstableSheet {
        table: reports::crosstable(conn, event_id, Some(after))?,
        event: load(conn, event_id)?,
    })
}

/// The round a standings sheet is computed after, checked against the rounds this actor
/// may see.
fn visible_round(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    asked: Option<u32>,
) -> AppResult<u32> {
    let visible = rounds::list(conn, actor, event_id)?;
    match asked {
        Some(round) if round >= 1 && round as usize <= visible.len() => Ok(round),
        Some(_) => Err(AppError::NotFound { what: "round" }),
        None => Ok(complete_rounds(&visible)),
    }
}

/// How many rounds, from the first, have a result on every board.
fn complete_rounds(rounds: &[RoundView]) -> u32 {
    rounds
        .iter()
        .take_while(|r| {
            r.boards
                .iter()
                .all(|b| b.black_entry_id.is_none() || b.result.is_some())
        })
        .count() as u32
}

/// (club name, country) of each player profile.
fn profiles(
    conn: &mut DbConn,
    ids: impl Iterator<Item = i64>,
) -> AppResult<HashMap<i64, (Option<String>, String)>> {
    let mut club_names: HashMap<i64, Option<String>> = HashMap::new();
    let mut out = HashMap::new();
    for id in ids {
        let Some(player) = players::by_id(conn, id)? else {
            continue;
        };
        let club = match player.club_id {
            Some(club_id) => match club_names.get(&club_id) {
                Some(name) => name.clone(),
                None => {
                    let name = clubs::by_id(conn, club_id)?.map(|c| c.name);
                    club_names.insert(club_id, name.clone());
                    name
                }
            },
            None => None,
        };
        out.insert(id, (club, player.country));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_domain::tournament::{ByeKind, Colour, Outcome, Player, RoundEntry};

    #[test]
    fn points_before_count_only_earlier_rounds() {
        let played = |opponent, colour, outcome| RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        };
        let t = Tournament {
            players: vec![
                Player {
                    start_no: 1,
                    rounds: vec![
                        played(2, Colour::White, Outcome::Win),
                        played(3, Colour::Black, Outcome::Draw),
                    ],
                    ..Player::default()
                },
                Player {
                    start_no: 2,
                    rounds: vec![
                        played(1, Colour::Black, Outcome::Loss),
                        RoundEntry::Bye(ByeKind::PairingAllocated),
                    ],
                    ..Player::default()
                },
            ],
            ..Tournament::default()
        };
        assert_eq!(points_before(&t, 1), HashMap::from([(1, 0), (2, 0)]));
        assert_eq!(points_before(&t, 2), HashMap::from([(1, 2), (2, 0)]));
        assert_eq!(points_before(&t, 3), HashMap::from([(1, 3), (2, 2)]));
    }
}
