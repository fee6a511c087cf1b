//! Standings, crosstable, a player's card and the TRF of an event, computed by the domain
//! from the stored results.
use damka_domain::standings::{self, StandingsOptions};
use damka_domain::tiebreak::parse_tiebreak_list;
use serde::Serialize;

use super::history::{self, History};
use super::{load, may_arbitrate};
use crate::service::{Actor, AppError, AppResult};
use crate::store::DbConn;
use damka_domain::keizer::{KeizerRound, KeizerStandings};
use damka_domain::tournament::{ByeKind, RoundEntry};
use damka_domain::vocabulary::{ResultCode, ScoringDisplay};

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
    /// Keizer events: the exact Keizer score, in sixths of a value number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keizer_sixths: Option<u64>,
    /// Keizer events: the Keizer score as a number, rounded to 2 decimals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keizer_points: Option<f64>,
    /// Keizer events: the value number the player's rank gives now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u32>,
    /// Keizer events: games played over the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// Keizer events: rounds missed (with notice, for the club or without notice).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub absences: Option<u32>,
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
        kind: Some(event.system.event_kind()),
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
    Ok(Tables::of(&history, after_round)?.standings())
}

/// The standings table of the published rounds, computed once, from which both the
/// standings and the crosstable are shown.
pub struct Tables {
    history: History,
    tournament: damka_domain::tournament::Tournament,
    table: standings::Standings,
    /// The system's own ranking (Keizer), which orders the standings.
    own_ranking: Option<KeizerStandings>,
}

impl Tables {
    /// Computes the table after `after_round` (default: the last round with an outcome,
    /// `History::last_round_with_outcomes`) of the history's published rounds.
    pub fn of(history: &History, after_round: Option<u32>) -> AppResult<Tables> {
        let history = history.published_only();
        let tournament = history.tournament()?;
        let after_round = after_round.unwrap_or_else(|| history.last_round_with_outcomes());
        let opts = options(&history.event, Some(after_round))?;
        let table = standings::compute_standings(&tournament, &opts)
            .map_err(|e| AppError::invalid("round", e.into()))?;
        let own_ranking =
            super::pairing_system::of(&history.event).own_ranking(&tournament, table.after_round);
        Ok(Tables {
            history,
            tournament,
            table,
            own_ranking,
        })
    }

    pub fn crosstable(&self) -> AppResult<CrosstableView> {
        crosstable_view(&self.history, &self.tournament, &self.table)
    }

    pub fn standings(&self) -> StandingsView {
        let (event, history, table) = (&self.history.event, &self.history, &self.table);
        let mut rows: Vec<StandingView> = table
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
                    tiebreaks: shown_values(event, &table.tiebreaks, &row.tiebreaks),
                    keizer_sixths: None,
                    keizer_points: None,
                    value: None,
                    games: None,
                    absences: None,
                }
            })
            .collect();
        if let Some(keizer) = &self.own_ranking {
            rows = keizer_order(keizer, rows);
        }
        StandingsView {
            after_round: table.after_round,
            tiebreaks: table.tiebreaks.iter().map(|t| t.code()).collect(),
            rows,
        }
    }

    /// The system's own ranking (Keizer), when it has one.
    pub fn own_ranking(&self) -> Option<&KeizerStandings> {
        self.own_ranking.as_ref()
    }
}

/// The rows in Keizer order with the Keizer score, the value number, the games played and
/// the rounds missed; the place is the Keizer rank (never shared).
fn keizer_order(keizer: &KeizerStandings, rows: Vec<StandingView>) -> Vec<StandingView> {
    let mut by_start_no: std::collections::HashMap<u32, StandingView> =
        rows.into_iter().map(|r| (r.start_no, r)).collect();
    keizer
        .rows
        .iter()
        .filter_map(|k| {
            let mut row = by_start_no.remove(&k.start_no)?;
            row.place = k.rank.to_string();
            row.keizer_sixths = Some(k.sixths);
            row.keizer_points = Some(keizer_points(k.sixths));
            row.value = Some(k.value);
            row.games = Some(count(&k.rounds, |e| matches!(e, RoundEntry::Played { .. })));
            row.absences = Some(count(&k.rounds, |e| {
                matches!(
                    e,
                    RoundEntry::Bye(
                        ByeKind::Excused
                            | ByeKind::ClubDuty
                            | ByeKind::ZeroPoint
                            | ByeKind::HalfPoint
                    )
                )
            }));
            Some(row)
        })
        .collect()
}

fn count(rounds: &[KeizerRound], what: impl Fn(&RoundEntry) -> bool) -> u32 {
    u32::try_from(rounds.iter().filter(|r| what(&r.entry)).count()).unwrap_or(u32::MAX)
}

/// A score in sixths as a number of points rounded to 2 decimals (71.5, 83.33).
pub fn keizer_points(sixths: u64) -> f64 {
    // Exact in hundredths first, half up, so 0.005 never rounds by float accident.
    let hundredths = (sixths * 100 + 3) / 6;
    hundredths as f64 / 100.0
}

/// Tie-break values as the event shows points: on the 2-1-0 scale the sums of points
/// (BH, SB, DE) are doubled like the points themselves; counts and ratings are not.
fn shown_values(
    event: &crate::store::models::Event,
    kinds: &[damka_domain::tiebreak::TieBreak],
    values: &[damka_domain::tiebreak::TieBreakValue],
) -> Vec<String> {
    let doubled = event.scoring_display == ScoringDisplay::TwoOneZero;
    kinds
        .iter()
        .zip(values)
        .map(|(tb, value)| {
            if doubled && tb.kind.sums_points() {
                value.doubled().to_string()
            } else {
                value.to_string()
            }
        })
        .collect()
}

/// The event as a FIDE TRF file (with XXR, XXC and the byes/absences of the next round).
/// The forbidden pairs (`XXP`) are the organiser's and arbiters' business, hidden from
/// players as in the API: only they get them in the file.
pub fn trf(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<String> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?.published_only();
    let mut tournament = history.tournament()?;
    if !may_arbitrate(conn, actor, &event)? {
        tournament.forbidden_pairs.clear();
    }
    let played = history.last_round_with_outcomes();
    // A Keizer event is ranked by its Keizer scores; its rounds hold the game points.
    if let Some(keizer) = super::pairing_system::of(&event).own_ranking(&tournament, played) {
        let ranked: Vec<u32> = keizer.rows.iter().map(|r| r.start_no).collect();
        return Ok(damka_domain::trf::write_ranked(&tournament, &ranked));
    }
    Ok(damka_domain::trf::write(&tournament))
}

/// One cell of the crosstable, as printed: the opponent's place, the colour and the
/// result (`12w1`), or the bye/unplayed symbol.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CrossCellView {
    pub text: String,
    /// `win`, `draw`, `loss` or `other`, for styling.
    pub class: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CrossRowView {
    pub place: String,
    pub start_no: u32,
    pub player_id: i64,
    pub name: String,
    pub rating: Option<u32>,
    pub half_points: u32,
    /// Swiss: one cell per round. Round-robin: one cell per row of the table (the games
    /// against that player; empty on the diagonal).
    pub cells: Vec<CrossCellView>,
    pub tiebreaks: Vec<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CrosstableView {
    pub after_round: u32,
    pub round_robin: bool,
    pub tiebreaks: Vec<String>,
    pub rows: Vec<CrossRowView>,
}

fn cell_class(code: standings::ResultCode) -> &'static str {
    use standings::ResultCode::*;
    match code {
        Win | UnratedWin | ForfeitWin => "win",
        Draw | UnratedDraw => "draw",
        Loss | UnratedLoss | ForfeitLoss | DoubleForfeit => "loss",
        _ => "other",
    }
}

fn colour_letter(colour: Option<damka_domain::tournament::Colour>) -> &'static str {
    match colour {
        Some(damka_domain::tournament::Colour::White) => "w",
        Some(damka_domain::tournament::Colour::Black) => "b",
        None => "",
    }
}

pub fn crosstable(
    conn: &mut DbConn,
    event_id: i64,
    after_round: Option<u32>,
) -> AppResult<CrosstableView> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?;
    Tables::of(&history, after_round)?.crosstable()
}

fn crosstable_view(
    history: &History,
    tournament: &damka_domain::tournament::Tournament,
    table: &standings::Standings,
) -> AppResult<CrosstableView> {
    let cross = standings::crosstable(tournament, table)
        .map_err(|e| AppError::invalid("round", e.into()))?;
    let event = &history.event;
    // A round-robin's crosstable is player against player, a Swiss's round by round.
    let round_robin = super::pairing_system::of(event).standings_kind()
        == damka_domain::tiebreak::EventKind::RoundRobin;
    let micro = event.games_per_pairing > 1;
    // In a micro-match a cell names both games' results after the first game's colour
    // (`5w 1 ½`); a bye or an absence keeps its one symbol.
    let results_of = |start_no: u32, c: &standings::CrossCell| match micro_match_games(
        history, start_no, c.round,
    ) {
        Some(games) => format!(" {}", games.symbols.join(" ")),
        None => c.result.symbol().to_string(),
    };
    let render = |start_no: u32, c: &standings::CrossCell| CrossCellView {
        text: match c.opponent_place {
            Some(place) => format!(
                "{place}{}{}",
                colour_letter(c.colour),
                results_of(start_no, c)
            ),
            None => c.result.symbol().to_string(),
        },
        class: cell_class(c.result).to_string(),
    };
    Ok(CrosstableView {
        after_round: cross.after_round,
        round_robin,
        tiebreaks: cross.tiebreaks.iter().map(|t| t.code()).collect(),
        rows: cross
            .rows
            .iter()
            .map(|row| CrossRowView {
                place: if row.place == row.place_to {
                    row.place.to_string()
                } else {
                    format!("{}-{}", row.place, row.place_to)
                },
                start_no: row.start_no,
                player_id: history
                    .entry_by_start_no(row.start_no)
                    .map(|e| e.entry.player_id)
                    .unwrap_or_default(),
                name: row.name.clone(),
                rating: row.rating,
                half_points: row.points.0,
                cells: if round_robin {
                    row.versus
                        .iter()
                        .map(|games| CrossCellView {
                            text: games
                                .iter()
                                .map(
                                    |g| match micro_match_games(history, row.start_no, g.round) {
                                        Some(micro) => micro.symbols.join(" "),
                                        None => g.result.symbol().to_string(),
                                    },
                                )
                                .collect::<Vec<_>>()
                                .join(if micro { " · " } else { " " }),
                            class: games
                                .first()
                                .map_or("other", |g| cell_class(g.result))
                                .to_string(),
                        })
                        .collect()
                } else {
                    row.rounds.iter().map(|c| render(row.start_no, c)).collect()
                },
                tiebreaks: shown_values(event, &cross.tiebreaks, &row.tiebreaks),
            })
            .collect(),
    })
}

/// One round on a player's card.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CardRoundView {
    pub round: u32,
    pub opponent_name: Option<String>,
    pub opponent_rating: Option<u32>,
    /// `w`, `b` or empty.
    pub colour: String,
    pub result: String,
    /// Half-points after this round.
    pub running_half_points: u32,
    /// In a micro-match: the player's result in each game and the match score (pages
    /// only; the API has each game on the round's boards).
    #[serde(skip)]
    pub micro_match: Option<MicroMatchGames>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PlayerCardView {
    pub start_no: u32,
    pub player_id: i64,
    pub name: String,
    pub rating: Option<u32>,
    pub half_points: u32,
    pub rounds: Vec<CardRoundView>,
    pub average_opponent_rating: Option<i64>,
    /// Performance rating (average opponent rating + dp, FIDE table).
    pub performance: Option<i64>,
    /// Keizer events: the score explained round by round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keizer: Option<KeizerCardView>,
}

/// A player's Keizer score, as their card explains it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct KeizerCardView {
    pub rank: u32,
    /// The value number the rank gives now.
    pub value: u32,
    /// The whole score, in sixths.
    pub sixths: u64,
    /// The score rounded to 2 decimals.
    pub points: f64,
    /// The own value counted once, in sixths (0 when the event does not count it).
    pub own_value_sixths: u64,
    pub rounds: Vec<KeizerCardRound>,
}

/// What one round gave a player of a Keizer event.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct KeizerCardRound {
    pub round: u32,
    /// `win`, `draw`, `loss`, `forfeit_win`, `forfeit_loss`, `double_forfeit`, `bye`,
    /// `excused`, `club_duty`, `absent` or `not_paired`.
    pub outcome: String,
    pub opponent_name: Option<String>,
    /// The value the round was scored with: the opponent's for a game, the player's own
    /// for a bye or an absence; none when the round scores nothing by rule.
    pub value: Option<u32>,
    /// The share of the value the round earned, in sixths.
    pub share_sixths: u32,
    /// What the round added, in sixths, and as points rounded to 2 decimals.
    pub earned_sixths: u64,
    pub earned_points: f64,
}

/// The card's Keizer rounds of the player `start_no`, from the system's own ranking.
fn keizer_card(
    keizer: &KeizerStandings,
    history: &History,
    start_no: u32,
) -> Option<KeizerCardView> {
    let row = keizer.row(start_no)?;
    let name = |s: u32| history.entry_by_start_no(s).map(|e| e.name.clone());
    Some(KeizerCardView {
        rank: row.rank,
        value: row.value,
        sixths: row.sixths,
        points: keizer_points(row.sixths),
        own_value_sixths: row.own_value_sixths,
        rounds: row
            .rounds
            .iter()
            .map(|r| KeizerCardRound {
                round: r.round,
                outcome: keizer_outcome(&r.entry).to_string(),
                opponent_name: r.entry.opponent().and_then(name),
                value: r.value,
                share_sixths: r.share_sixths,
                earned_sixths: r.earned_sixths,
                earned_points: keizer_points(r.earned_sixths),
            })
            .collect(),
    })
}

/// The card's word for what happened in a round.
fn keizer_outcome(entry: &RoundEntry) -> &'static str {
    use damka_domain::tournament::Outcome;
    match *entry {
        RoundEntry::Played { outcome, .. } => match outcome {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        },
        RoundEntry::Forfeit { won: true, .. } => "forfeit_win",
        RoundEntry::Forfeit { won: false, .. } => "forfeit_loss",
        RoundEntry::DoubleForfeit { .. } => "double_forfeit",
        RoundEntry::Bye(ByeKind::PairingAllocated | ByeKind::FullPoint) => "bye",
        RoundEntry::Bye(ByeKind::Excused | ByeKind::HalfPoint) => "excused",
        RoundEntry::Bye(ByeKind::ClubDuty) => "club_duty",
        RoundEntry::Bye(ByeKind::ZeroPoint) => "absent",
        RoundEntry::NotPaired => "not_paired",
    }
}

pub fn player_card(conn: &mut DbConn, event_id: i64, start_no: u32) -> AppResult<PlayerCardView> {
    let event = load(conn, event_id)?;
    let history = history::load(conn, &event)?.published_only();
    let entry = history
        .entry_by_start_no(start_no)
        .ok_or(AppError::NotFound { what: "player" })?;
    let player_id = entry.entry.player_id;
    let tournament = history.tournament()?;
    let card = standings::player_card(&tournament, start_no, None, None)
        .map_err(|e| AppError::invalid("player", e.into()))?;
    let played = history.last_round_with_outcomes();
    let keizer = super::pairing_system::of(&event)
        .own_ranking(&tournament, played)
        .and_then(|k| keizer_card(&k, &history, start_no));
    Ok(PlayerCardView {
        start_no,
        player_id,
        name: card.name,
        rating: card.rating,
        half_points: card.points.0,
        rounds: card
            .rounds
            .iter()
            .map(|r| CardRoundView {
                round: r.round,
                opponent_name: r.opponent_name.clone(),
                opponent_rating: r.opponent_rating,
                colour: colour_letter(r.colour).to_string(),
                result: r.result.symbol().to_string(),
                running_half_points: r.running_score.0,
                micro_match: micro_match_games(&history, start_no, r.round),
            })
            .collect(),
        average_opponent_rating: card.average_opponent_rating,
        performance: card.performance,
        keizer,
    })
}

/// A player's micro-match in one round, from their side: each game's result (`1`, `½`,
/// `0`, `+`, `-`, `--`, `*` while it has none) in game order, the first game in the
/// colour of the pairing and the second with colours swapped, and the game points of
/// both players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MicroMatchGames {
    pub symbols: Vec<&'static str>,
    /// The player's and the opponent's game points, in half-points.
    pub mine: u32,
    pub theirs: u32,
}

/// The micro-match the player with `start_no` played in `round`; `None` in a one-game
/// event and for a round without an opponent.
pub fn micro_match_games(history: &History, start_no: u32, round: u32) -> Option<MicroMatchGames> {
    let games = history.event.games_per_pairing;
    if games < 2 {
        return None;
    }
    let entry = history.entry_by_start_no(start_no)?.entry.id;
    let pairing = history
        .round_pairings(i32::try_from(round).ok()?)
        .find(|p| p.white_entry_id == entry || p.black_entry_id == Some(entry))?;
    pairing.black_entry_id?;
    let played_white = pairing.white_entry_id == entry;
    let results: Vec<(i32, Option<ResultCode>)> = (1..=games)
        .map(|game_no| {
            let result = history
                .game_results
                .get(&pairing.id)
                .and_then(|g| g.iter().find(|(no, _)| *no == game_no))
                .and_then(|(_, r)| *r);
            (game_no, result)
        })
        .collect();
    let symbols = results
        .iter()
        .map(|(game_no, result)| game_symbol(*result, played_white == (game_no % 2 == 1)))
        .collect();
    let (white, black) = super::micro_match::game_points(&results);
    let (mine, theirs) = if played_white {
        (white.0, black.0)
    } else {
        (black.0, white.0)
    };
    Some(MicroMatchGames {
        symbols,
        mine,
        theirs,
    })
}

/// One game's result from one player's side (`as_white`: they had White in it).
pub fn game_symbol(result: Option<ResultCode>, as_white: bool) -> &'static str {
    use ResultCode::*;
    match (result, as_white) {
        (None, _) => "*",
        (Some(Draw), _) => "½",
        (Some(WhiteWins), true) | (Some(BlackWins), false) => "1",
        (Some(WhiteWins), false) | (Some(BlackWins), true) => "0",
        (Some(WhiteWinsByForfeit), true) | (Some(BlackWinsByForfeit), false) => "+",
        (Some(WhiteWinsByForfeit), false) | (Some(BlackWinsByForfeit), true) => "-",
        (Some(DoubleForfeit), _) => "--",
    }
}
