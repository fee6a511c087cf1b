//! An event's history as stored, and its translation into the domain's `Tournament`.
use std::collections::HashMap;

use damka_domain::tournament::{
    ByeKind, HalfPoints, NextRoundAbsence, PendingGame, Player, PointSystem, RoundEntry, Tournament,
};

use super::micro_match;
use crate::service::{AppError, AppResult};
use crate::store::micro_matches::{self, DrawnOpening};
use crate::store::models::{Entry, Event, Pairing, Player as Profile, Round};
use crate::store::{DbConn, events, players};
use damka_domain::vocabulary::ResultCode;

/// An entry with its player's name and the profile fields a TRF carries.
#[derive(Debug, Clone)]
pub struct EntryRow {
    pub entry: Entry,
    pub name: String,
    pub profile: Option<Profile>,
}

#[derive(Debug, Clone)]
pub struct History {
    pub event: Event,
    pub entries: Vec<EntryRow>,
    pub rounds: Vec<Round>,
    /// (round number, pairing), by round then board.
    pub pairings: Vec<(i32, Pairing)>,
    /// (entry id, round, kind) requested byes and absences.
    pub absences: Vec<(i64, i32, ByeKind)>,
    pub forbidden: Vec<(i64, i64)>,
    /// The game of each board that has one: pairing id to game id (a micro-match's first
    /// game).
    pub games: HashMap<i64, i64>,
    /// Every game of the event's boards: (pairing id, game number) to game id.
    pub game_ids: HashMap<(i64, i32), i64>,
    /// The opening drawn for each board that has one.
    pub openings: HashMap<i64, DrawnOpening>,
    /// In a micro-match event: each board's games and their results, in game order.
    pub game_results: HashMap<i64, Vec<(i32, Option<ResultCode>)>>,
}

pub fn load(conn: &mut DbConn, event: &Event) -> AppResult<History> {
    let entries = events::entries(conn, event.id)?;
    let mut profiles: HashMap<i64, Profile> = players::entered_in(conn, event.id)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let mut history = History {
        event: event.clone(),
        entries: entries
            .into_iter()
            .map(|entry| {
                let profile = profiles.remove(&entry.player_id);
                EntryRow {
                    name: profile.as_ref().map(|p| p.name.clone()).unwrap_or_default(),
                    profile,
                    entry,
                }
            })
            .collect(),
        rounds: events::rounds(conn, event.id)?,
        pairings: events::pairings(conn, event.id)?,
        absences: events::absences(conn, event.id)?,
        forbidden: events::forbidden_pairs(conn, event.id)?,
        games: HashMap::new(),
        game_ids: crate::store::games::ids_by_pairing(conn, event.id)?
            .into_iter()
            .map(|(pairing, game_no, id)| ((pairing, game_no), id))
            .collect(),
        openings: micro_matches::openings(conn, event.id)?
            .into_iter()
            .collect(),
        game_results: HashMap::new(),
    };
    history.games = history
        .game_ids
        .iter()
        .filter(|((_, game_no), _)| *game_no == 1)
        .map(|((pairing, _), id)| (*pairing, *id))
        .collect();
    if event.games_per_pairing > 1 {
        for (pairing, game_no, result) in micro_matches::game_results(conn, event.id)? {
            history
                .game_results
                .entry(pairing)
                .or_default()
                .push((game_no, result));
        }
    }
    if history.rounds.is_empty() {
        history.number_by_starting_rank();
    }
    Ok(history)
}

impl History {
    /// Adds the round with id `round_id`, just stored, to the history: its row, its boards
    /// and the openings drawn for them, read by the round alone. Pairing a round answers with
    /// the new round from the history it was paired from, which is read once.
    pub fn add_stored_round(&mut self, conn: &mut DbConn, round_id: i64) -> AppResult<()> {
        let round = events::rounds(conn, self.event.id)?
            .into_iter()
            .find(|r| r.id == round_id)
            .ok_or_else(|| AppError::internal("the new round vanished"))?;
        let number = round.number;
        self.rounds.retain(|r| r.number != number);
        self.rounds.push(round);
        self.rounds.sort_by_key(|r| r.number);
        self.pairings.retain(|(r, _)| *r != number);
        self.pairings.extend(
            events::pairings_of_round(conn, round_id)?
                .into_iter()
                .map(|p| (number, p)),
        );
        self.openings
            .extend(micro_matches::openings_of_round(conn, round_id)?);
        Ok(())
    }

    /// Before the first round, the start numbers are the ones the first pairing will give
    /// (rating order, `starting_ranks`), not the order of entry: the entries tab,
    /// the TRF and a hand-made first round all use the numbers players will keep.
    fn number_by_starting_rank(&mut self) {
        let ranks: HashMap<i64, i32> = starting_ranks(self).into_iter().collect();
        for row in &mut self.entries {
            if let Some(&no) = ranks.get(&row.entry.id) {
                row.entry.start_no = no;
            }
        }
        self.entries.sort_by_key(|row| row.entry.start_no);
    }

    pub fn entry(&self, entry_id: i64) -> Option<&EntryRow> {
        self.entries.iter().find(|e| e.entry.id == entry_id)
    }

    pub fn entry_by_start_no(&self, start_no: u32) -> Option<&EntryRow> {
        self.entries
            .iter()
            .find(|e| e.entry.start_no as u32 == start_no)
    }

    /// The history as it stood when round `number` was about to be paired: earlier rounds
    /// only (requests for round `number` stay, as they were known then).
    pub fn before_round(&self, number: i32) -> History {
        let mut before = self.clone();
        before.rounds.retain(|r| r.number < number);
        before.pairings.retain(|(r, _)| *r < number);
        before
    }

    /// The history as the public knows it: a round counts once it is published, so a
    /// draft's byes and absences show in no standings, crosstable or export.
    pub fn published_only(&self) -> History {
        match self.rounds.iter().find(|r| !r.published) {
            Some(draft) => self.before_round(draft.number),
            None => self.clone(),
        }
    }

    pub fn last_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    pub fn round_pairings(&self, number: i32) -> impl Iterator<Item = &Pairing> {
        self.pairings
            .iter()
            .filter(move |(r, _)| *r == number)
            .map(|(_, p)| p)
    }

    /// Whether some game of round `number` has a result (byes do not count): such a
    /// round can no longer be re-paired or changed by hand.
    pub fn round_has_results(&self, number: i32) -> bool {
        self.round_pairings(number)
            .any(|p| p.black_entry_id.is_some() && p.result.is_some())
    }

    /// The last round with an outcome: a game's result, or a bye or absence (known once
    /// the round is paired). Standings and crosstables are shown after it by default: a
    /// later round whose games are all still being played would count in the tie-breaks as
    /// unplayed rounds. 0 when no round has any.
    pub fn last_round_with_outcomes(&self) -> u32 {
        self.pairings
            .iter()
            .filter(|(_, p)| p.result.is_some() || p.black_entry_id.is_none())
            .map(|(round, _)| u32::try_from(*round).unwrap_or(0))
            .max()
            .unwrap_or(0)
    }

    /// Games of the last round that still need a result.
    pub fn missing_results(&self) -> usize {
        match self.last_round() {
            Some(round) => self
                .round_pairings(round.number)
                .filter(|p| p.black_entry_id.is_some() && p.result.is_none())
                .count(),
            None => 0,
        }
    }

    pub fn points_system(&self) -> PointSystem {
        PointSystem {
            pab: HalfPoints(self.event.pab_half_points.clamp(0, 2) as u32),
            ..PointSystem::default()
        }
    }

    /// The domain's view of this event: every player with one entry per paired round,
    /// and what is known about the next round.
    pub fn tournament(&self) -> AppResult<Tournament> {
        let played = self.rounds.len();
        let start_no: HashMap<i64, u32> = self
            .entries
            .iter()
            .map(|e| (e.entry.id, e.entry.start_no as u32))
            .collect();
        let no = |id: i64| -> AppResult<u32> {
            start_no
                .get(&id)
                .copied()
                .ok_or_else(|| AppError::internal(format!("pairing refers to unknown entry {id}")))
        };
        let mut so_far = self.rounds_so_far(played, &no)?;
        let next_round_absences = self.next_round_absences(played);
        let forbidden_pairs = self
            .forbidden
            .iter()
            .map(|(a, b)| Ok((no(*a)?, no(*b)?)))
            .collect::<AppResult<Vec<_>>>()?;
        let micro = self.event.games_per_pairing > 1;
        let mut tournament = Tournament {
            name: self.event.name.clone(),
            // A system that fixes its rounds may be replanned while played rounds stand.
            total_rounds: if super::pairing_system::of(&self.event).organiser_sets_rounds() {
                self.event.rounds as u32
            } else {
                self.event.rounds.max(played as i32) as u32
            },
            points: self.points_system(),
            first_colour: Some(self.event.first_colour),
            players: self
                .entries
                .iter()
                .map(|row| Player {
                    start_no: row.entry.start_no as u32,
                    name: row.name.clone(),
                    rating: row.entry.rating.and_then(|r| u32::try_from(r).ok()),
                    rounds: so_far.by_entry.remove(&row.entry.id).unwrap_or_default(),
                    round_scores: so_far.scores.remove(&row.entry.id).unwrap_or_default(),
                    ..trf_fields(row.profile.as_ref())
                })
                .collect(),
            forbidden_pairs,
            next_round_absences,
            pending_games: so_far.pending_games,
            micro_match: micro.then(|| damka_domain::micro_match::MicroMatch {
                games: self.event.games_per_pairing as u32,
                scoring: self.event.match_scoring.domain(),
            }),
        };
        if micro {
            // Paired on the real totals, as bbpPairings pairs the PlayStrategy TRF.
            damka_domain::micro_match::set_pairing_accelerations(&mut tournament)
                .map_err(AppError::internal)?;
        }
        Ok(tournament)
    }

    /// What the stored pairings of the `played` rounds give each entry.
    fn rounds_so_far(
        &self,
        played: usize,
        no: &impl Fn(i64) -> AppResult<u32>,
    ) -> AppResult<RoundsSoFar> {
        let mut so_far = RoundsSoFar {
            played,
            by_entry: self
                .entries
                .iter()
                .map(|e| (e.entry.id, vec![RoundEntry::NotPaired; played]))
                .collect(),
            scores: HashMap::new(),
            pending_games: Vec::new(),
        };
        for (round, pairing) in &self.pairings {
            match pairing.black_entry_id {
                Some(black) => self.record_game(&mut so_far, *round, pairing, black, no)?,
                None => self.record_bye(&mut so_far, *round, pairing),
            }
        }
        Ok(so_far)
    }

    /// A board without an opponent: a bye of its kind. A row with neither an opponent nor
    /// a bye kind counts as an absence.
    fn record_bye(&self, so_far: &mut RoundsSoFar, round: i32, pairing: &Pairing) {
        let index = (round - 1) as usize;
        let kind = pairing.bye.unwrap_or(ByeKind::ZeroPoint);
        if let Some(rounds) = so_far.by_entry.get_mut(&pairing.white_entry_id)
            && index < rounds.len()
        {
            rounds[index] = RoundEntry::Bye(kind);
            if self.event.games_per_pairing > 1 {
                let score = micro_match::bye_score(
                    self.event.match_scoring,
                    kind,
                    self.points_system().pab.0,
                    self.event.games_per_pairing as u32,
                );
                so_far.score_of(pairing.white_entry_id)[index] = Some(score);
            }
        }
    }

    /// A game: its result for both players, or a pending game while it has none.
    fn record_game(
        &self,
        so_far: &mut RoundsSoFar,
        round: i32,
        pairing: &Pairing,
        black: i64,
        no: &impl Fn(i64) -> AppResult<u32>,
    ) -> AppResult<()> {
        let (index, played) = ((round - 1) as usize, so_far.played);
        let white = pairing.white_entry_id;
        let (w_no, b_no) = (no(white)?, no(black)?);
        // A game without a result yet counts as not paired, so standings after an
        // unfinished round show only finished games.
        let (w, b) = match pairing.result {
            Some(result) => result.round_entries(w_no, b_no),
            None => {
                // Only pairings of a round this history holds: a pairing read without
                // its round (a round stored between the two reads of a history loaded
                // outside a transaction) is left out, as its entries are below.
                if index < played {
                    so_far.pending_games.push(PendingGame {
                        round: round as u32,
                        white: w_no,
                        black: b_no,
                    });
                }
                (RoundEntry::NotPaired, RoundEntry::NotPaired)
            }
        };
        for (entry, value) in [(white, w), (black, b)] {
            if let Some(rounds) = so_far.by_entry.get_mut(&entry)
                && index < rounds.len()
            {
                rounds[index] = value;
            }
        }
        // A micro-match event: what the round really gave each player.
        if let (Some(result), Some(games)) = (pairing.result, self.game_results.get(&pairing.id))
            && index < played
        {
            let (w_score, b_score) =
                micro_match::round_scores(self.event.match_scoring, games, result);
            for (entry, score) in [(white, w_score), (black, b_score)] {
                so_far.score_of(entry)[index] = Some(score);
            }
        }
        Ok(())
    }

    /// Who will not be paired in the next round: withdrawn, not yet joined, or asked for
    /// a half-point bye or an absence.
    fn next_round_absences(&self, played: usize) -> Vec<NextRoundAbsence> {
        let next = played as i32 + 1;
        let mut next_round_absences = Vec::new();
        for row in &self.entries {
            let e = &row.entry;
            let withdrawn = e.withdrawn_from_round.is_some_and(|r| r <= next);
            let not_yet = e.first_round > next;
            let requested = self
                .absences
                .iter()
                .find(|(id, round, _)| *id == e.id && *round == next)
                .map(|(_, _, kind)| *kind);
            let kind = match requested {
                _ if withdrawn || not_yet => Some(ByeKind::ZeroPoint),
                Some(kind @ (ByeKind::HalfPoint | ByeKind::Excused | ByeKind::ClubDuty)) => {
                    Some(kind)
                }
                Some(_) => Some(ByeKind::ZeroPoint),
                None => None,
            };
            if let Some(kind) = kind {
                next_round_absences.push(NextRoundAbsence {
                    player: e.start_no as u32,
                    kind,
                });
            }
        }
        next_round_absences
    }
}

/// What the stored rounds give each entry (by entry id): its entry per round, its score
/// per round in a micro-match event, and the games still without a result.
struct RoundsSoFar {
    played: usize,
    by_entry: HashMap<i64, Vec<RoundEntry>>,
    scores: HashMap<i64, Vec<Option<HalfPoints>>>,
    pending_games: Vec<PendingGame>,
}

impl RoundsSoFar {
    fn score_of(&mut self, entry: i64) -> &mut Vec<Option<HalfPoints>> {
        let played = self.played;
        self.scores
            .entry(entry)
            .or_insert_with(|| vec![None; played])
    }
}

/// Starting ranks by rating (highest first), then name, as (entry, start number): given
/// when the first round is paired.
pub(super) fn starting_ranks(history: &History) -> Vec<(i64, i32)> {
    let mut rows: Vec<&EntryRow> = history.entries.iter().collect();
    rows.sort_by(|a, b| {
        b.entry
            .rating
            .unwrap_or(0)
            .cmp(&a.entry.rating.unwrap_or(0))
            .then_with(|| a.name.cmp(&b.name))
            .then(a.entry.id.cmp(&b.entry.id))
    });
    rows.iter()
        .enumerate()
        .map(|(i, row)| (row.entry.id, i as i32 + 1))
        .collect()
}

/// The profile fields a TRF player line carries: title, federation (the country code), the
/// federation id and the birth year (TRF columns 11-13, 54-56, 58-68, 70-79). Sex is not
/// kept in profiles and stays blank.
fn trf_fields(profile: Option<&Profile>) -> Player {
    let text = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
    match profile {
        Some(p) => Player {
            title: text(&p.title),
            federation: text(&p.country),
            federation_id: text(&p.federation_id),
            birth_date: p.birth_year.map(|y| y.to_string()),
            ..Player::default()
        },
        None => Player::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_domain::vocabulary::{EventStatus, ScoringDisplay, System, TimeCategory};

    fn event() -> Event {
        Event {
            id: 1,
            name: "Club Swiss".into(),
            place: String::new(),
            starts_on: None,
            ends_on: None,
            variant: damka_engine::Variant::Russian,
            local_rules: Default::default(),
            system: System::Swiss,
            rounds: 5,
            time_control: TimeCategory::Classical,
            draw_offer_min_moves: 20,
            rated: true,
            scoring_display: ScoringDisplay::OneHalfZero,
            pab_half_points: 2,
            tiebreaks: String::new(),
            first_colour: damka_domain::tournament::Colour::White,
            status: EventStatus::Running,
            self_registration: false,
            late_entry_until_round: 0,
            organiser_id: 1,
            club_id: None,
            created_at: chrono::NaiveDateTime::default(),
            revision: 0,
            clock: Default::default(),
            games_per_pairing: 1,
            match_scoring: damka_domain::vocabulary::MatchScoring::GamePoints,
            opening_ballot: damka_domain::vocabulary::OpeningBallot::None,
            ballot_per: damka_domain::vocabulary::BallotPer::Pairing,
            custom_openings: String::new(),
            keizer: Default::default(),
            archived_at: None,
        }
    }

    fn entry(id: i64) -> EntryRow {
        EntryRow {
            entry: Entry {
                id,
                event_id: 1,
                player_id: id,
                start_no: id as i32,
                rating: None,
                first_round: 1,
                withdrawn_from_round: None,
                created_at: chrono::NaiveDateTime::default(),
            },
            name: format!("P{id}"),
            profile: None,
        }
    }

    /// A history read outside a transaction can see a round's pairings without the round
    /// (stored between the two reads by a racing "pair the next round"): those pairings are
    /// no games of this history, so they must not stop its pairing as games without a
    /// result (the pairing race on PostgreSQL failed so, once in 30 tries).
    #[test]
    fn pairings_of_a_round_the_history_lacks_are_no_pending_games() {
        let pairing = Pairing {
            id: 7,
            round_id: 3,
            board: 1,
            white_entry_id: 1,
            black_entry_id: Some(2),
            bye: None,
            result: None,
        };
        let history = History {
            event: event(),
            entries: vec![entry(1), entry(2)],
            rounds: Vec::new(),
            pairings: vec![(1, pairing)],
            absences: Vec::new(),
            forbidden: Vec::new(),
            games: HashMap::new(),
            game_ids: HashMap::new(),
            openings: HashMap::new(),
            game_results: HashMap::new(),
        };
        let tournament = history.tournament().unwrap();
        assert!(tournament.pending_games.is_empty());
        assert!(damka_domain::dutch::pair_next_round(&tournament).is_ok());
    }
}
