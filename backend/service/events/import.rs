//! Importing an event from a FIDE TRF: the event, its players, rounds, results, requested
//! byes for the next round and forbidden pairs, in one transaction. The exact inverse of
//! the export (`reports::trf`, through `history::History::tournament`): importing an
//! exported event and exporting it again gives the same file.
//!
//! The file is read, checked and planned before the write transaction opens; the
//! transaction only writes, after checking again that the profiles it links to are still
//! the importer's to change. A file is bounded in size (`MAX_TRF_BYTES`) and in what it
//! holds (`trf::Limits`), so no file costs more than a real event.
use std::collections::{HashMap, HashSet};

use damka_domain::tiebreak::EventKind;
use damka_domain::tournament::{
    ByeKind, Colour, HalfPoints, PointSystem, RoundEntry, StartNo, Tournament,
};
use damka_domain::trf::{self, Limits};
use damka_engine::Variant;
use serde::Serialize;

use super::load;
use super::settings::{self, EventInput};
use crate::service::effects::{self, Effects};
use crate::service::players::ProfileRights;
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::models::{NewPairing, Player, PlayerFields, PlayerRating};
use crate::store::{self, DbConn, events, players};
use damka_domain::vocabulary::{EventStatus, ResultCode, System};

/// The name given to an event whose TRF has no `012` line.
pub const DEFAULT_NAME: &str = "Imported event";

/// The largest TRF accepted: 1 MiB holds 5,000 players with 9 rounds, or 1,000 players
/// with 50; the largest real opens are a fraction of that.
pub const MAX_TRF_BYTES: usize = 1024 * 1024;

/// A TRF larger than `MAX_TRF_BYTES`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrfTooLarge {
    pub bytes: usize,
    pub limit: usize,
}

impl TrfTooLarge {
    pub fn refusal(&self) -> Refusal {
        Refusal::TrfTooLarge {
            bytes: self.bytes,
            limit: self.limit,
        }
    }
}

/// Refuses a file over `MAX_TRF_BYTES` before anything reads it. The web layer calls it
/// first to answer 413; `import_trf` calls it again for any other caller.
pub fn check_size(text: &str) -> Result<(), TrfTooLarge> {
    if text.len() > MAX_TRF_BYTES {
        Err(TrfTooLarge {
            bytes: text.len(),
            limit: MAX_TRF_BYTES,
        })
    } else {
        Ok(())
    }
}

/// One board of an imported round, by start numbers, with the stored codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedBoard {
    pub white: StartNo,
    pub black: Option<StartNo>,
    /// The kind of bye of a player without an opponent.
    pub bye: Option<ByeKind>,
    /// The result of a game.
    pub result: Option<ResultCode>,
}

/// Everything an import stores, worked out from the TRF before anything is written.
#[derive(Debug, Clone)]
pub struct ImportPlan {
    pub input: EventInput,
    /// Round-robins: the number of rounds (the schedule's length).
    pub round_robin_rounds: Option<i32>,
    /// Boards of each round, in board order.
    pub rounds: Vec<Vec<PlannedBoard>>,
    /// (start number, half-point bye or absence) for the round after the last one.
    pub next_round_absences: Vec<(StartNo, ByeKind)>,
}

/// The event an import created, and the players it did not link to the profile their
/// federation id matched.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ImportView {
    #[serde(flatten)]
    pub event: super::EventView,
    /// Players whose federation id belongs to a profile the importer may not edit (another
    /// club's player, say): each got a new profile, so nothing was written into that one.
    pub unlinked_matches: Vec<UnlinkedMatch>,
}

/// A player of the file matched, by federation id, a profile the importer may not edit.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct UnlinkedMatch {
    pub start_no: u32,
    pub name: String,
    pub federation_id: String,
    /// The profile with that federation id, left untouched.
    pub existing_player_id: i64,
    /// The profile created for this player instead.
    pub new_player_id: i64,
}

/// Where a player of the file goes: a profile the importer may edit, or a new one.
#[derive(Debug, Clone)]
enum PlannedProfile {
    Existing {
        player_id: i64,
        federation_id: String,
    },
    New {
        fields: PlayerFields,
        /// A profile with this player's federation id that the importer may not edit.
        unlinked_match: Option<i64>,
    },
}

/// Creates an event from a TRF (organisers and administrators); the caller owns it.
pub fn import_trf(
    conn: &mut DbConn,
    actor: &Actor,
    text: &str,
    variant: &str,
) -> AppResult<ImportView> {
    actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersImportEvents));
    }
    let variant = settings::parse_variant(variant)?;
    check_size(text).map_err(|e| AppError::invalid("trf", e.refusal()))?;
    let t = trf::parse_with_limits(text, &Limits::default())
        .map_err(|e| AppError::invalid("trf", e.into()))?;
    let lines = player_lines(text);
    let plan = plan(&t, &lines, variant)?;
    let profiles = plan_profiles(conn, actor, &t, &lines)?;
    let (imported, effects) = conn.write_transaction(|conn| {
        let had_start = starts_in(conn, &existing_profiles(&profiles), variant)?;
        let imported = store_plan(conn, actor, &t, &plan, &profiles)?;
        // The file's ratings become starting ratings (of profiles that had none) and its
        // results may count.
        let mut effects = Effects::none();
        let event_id = imported.event.id;
        effects.results_changed(conn, variant, crate::store::ratings::Scope::Event(event_id))?;
        let entered: Vec<i64> = crate::store::events::entries(conn, event_id)?
            .iter()
            .map(|entry| entry.player_id)
            .filter(|player| !had_start.contains(player))
            .collect();
        for player in starts_in(conn, &entered, variant)? {
            effects.start_changed(conn, variant, player)?;
        }
        AppResult::Ok((imported, effects))
    })?;
    effects::apply(conn, effects);
    Ok(imported)
}

/// The existing profiles the file's players go to.
fn existing_profiles(profiles: &[PlannedProfile]) -> Vec<i64> {
    profiles
        .iter()
        .filter_map(|p| match p {
            PlannedProfile::Existing { player_id, .. } => Some(*player_id),
            PlannedProfile::New { .. } => None,
        })
        .collect()
}

/// Those of `players` who have a starting Elo rating in the variant.
fn starts_in(conn: &mut DbConn, players: &[i64], variant: Variant) -> AppResult<HashSet<i64>> {
    Ok(players::ratings_for(conn, players)?
        .into_iter()
        .filter(|r| r.variant == variant)
        .map(|r| r.player_id)
        .collect())
}

/// Decides, before writing, which profile each player of the file goes to: the profile
/// with the same federation id when the importer may edit it (see
/// `players::ProfileRights`), otherwise a new one, with the match reported. Two players of
/// the file with the same federation id are refused.
fn plan_profiles(
    conn: &mut DbConn,
    actor: &Actor,
    t: &Tournament,
    lines: &HashMap<StartNo, usize>,
) -> AppResult<Vec<PlannedProfile>> {
    let mut first_with_id: HashMap<String, StartNo> = HashMap::new();
    for p in &t.players {
        let id = federation_id(p);
        if id.is_empty() {
            continue;
        }
        if let Some(other) = first_with_id.insert(id.clone(), p.start_no) {
            return Err(AppError::invalid(
                "trf",
                Refusal::TrfFederationIdTwice {
                    line: line_of(lines, p.start_no),
                    first: other,
                    second: p.start_no,
                    id,
                },
            ));
        }
    }
    let ids: Vec<String> = first_with_id.into_keys().collect();
    let rights = ProfileRights::of(conn, actor)?;
    // Of several profiles with one federation id, the first the importer may edit, else
    // the first.
    let mut matches: HashMap<String, (Player, bool)> = HashMap::new();
    for profile in players::by_federation_ids(conn, &ids)? {
        let editable = rights.may_edit(&profile);
        let slot = matches.entry(profile.federation_id.clone());
        match slot {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert((profile, editable));
            }
            std::collections::hash_map::Entry::Occupied(mut o) => {
                if editable && !o.get().1 {
                    o.insert((profile, editable));
                }
            }
        }
    }
    Ok(t.players
        .iter()
        .map(|p| {
            let id = federation_id(p);
            match matches.get(&id) {
                Some((profile, true)) => PlannedProfile::Existing {
                    player_id: profile.id,
                    federation_id: id,
                },
                other => PlannedProfile::New {
                    fields: profile_fields(p),
                    unlinked_match: other.map(|(profile, _)| profile.id),
                },
            }
        })
        .collect())
}

/// Inside the write transaction: the profiles the plan links to must still exist, still
/// carry the federation id that matched, and still be the importer's to edit.
fn recheck_links(conn: &mut DbConn, actor: &Actor, profiles: &[PlannedProfile]) -> AppResult<()> {
    let wanted: HashMap<i64, &str> = profiles
        .iter()
        .filter_map(|p| match p {
            PlannedProfile::Existing {
                player_id,
                federation_id,
            } => Some((*player_id, federation_id.as_str())),
            PlannedProfile::New { .. } => None,
        })
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let rights = ProfileRights::of(conn, actor)?;
    let ids: Vec<i64> = wanted.keys().copied().collect();
    let current = players::by_ids(conn, &ids)?;
    let still_valid = current.len() == wanted.len()
        && current
            .iter()
            .all(|p| wanted.get(&p.id) == Some(&p.federation_id.as_str()) && rights.may_edit(p));
    if still_valid {
        Ok(())
    } else {
        Err(AppError::conflict(Refusal::ImportProfilesChanged))
    }
}

fn store_plan(
    conn: &mut DbConn,
    actor: &Actor,
    t: &Tournament,
    plan: &ImportPlan,
    profiles: &[PlannedProfile],
) -> AppResult<ImportView> {
    recheck_links(conn, actor, profiles)?;
    let created = settings::create(conn, actor, &plan.input)?;
    let event_id = created.id;
    let variant = created.variant;
    if let Some(rounds) = plan.round_robin_rounds {
        events::set_rounds(conn, event_id, rounds)?;
    }
    let now = store::now();

    // A linked profile gets the file's rating only when it has none in this variant.
    let linked: Vec<i64> = profiles
        .iter()
        .filter_map(|p| match p {
            PlannedProfile::Existing { player_id, .. } => Some(*player_id),
            PlannedProfile::New { .. } => None,
        })
        .collect();
    let rated: HashSet<i64> = players::ratings_for(conn, &linked)?
        .into_iter()
        .filter(|r| r.variant == variant)
        .map(|r| r.player_id)
        .collect();
    let mut entry_of: HashMap<StartNo, i64> = HashMap::new();
    let mut unlinked_matches = Vec::new();
    for (p, profile) in t.players.iter().zip(profiles) {
        let rating = p.rating.and_then(|r| i32::try_from(r).ok());
        let player_id = match profile {
            PlannedProfile::Existing { player_id, .. } => {
                if let Some(rating) = rating
                    && !rated.contains(player_id)
                {
                    players::set_rating(conn, &rating_row(*player_id, variant, rating))?;
                }
                *player_id
            }
            PlannedProfile::New {
                fields,
                unlinked_match,
            } => {
                let new = players::insert_by(conn, fields, actor.user.as_ref().map(|u| u.id), now)?;
                if let Some(rating) = rating {
                    players::set_rating(conn, &rating_row(new.id, variant, rating))?;
                }
                if let Some(existing) = unlinked_match {
                    unlinked_matches.push(UnlinkedMatch {
                        start_no: p.start_no,
                        name: new.name.clone(),
                        federation_id: new.federation_id.clone(),
                        existing_player_id: *existing,
                        new_player_id: new.id,
                    });
                }
                new.id
            }
        };
        let start_no = i32::try_from(p.start_no).map_err(|_| {
            AppError::invalid(
                "trf",
                Refusal::InvalidStartNumber {
                    start_no: p.start_no,
                },
            )
        })?;
        let entry = events::insert_entry(conn, event_id, player_id, start_no, rating, 1, now)?;
        entry_of.insert(p.start_no, entry.id);
    }
    let entry = |no: StartNo| {
        entry_of
            .get(&no)
            .copied()
            .ok_or_else(|| AppError::internal(format!("import: no entry for player {no}")))
    };

    for (index, boards) in plan.rounds.iter().enumerate() {
        let round = events::insert_round(conn, event_id, index as i32 + 1, now)?;
        let mut new = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            new.push(NewPairing {
                round_id: round.id,
                board: i as i32 + 1,
                white_entry_id: entry(b.white)?,
                black_entry_id: match b.black {
                    Some(black) => Some(entry(black)?),
                    None => None,
                },
                bye: b.bye,
                result: b.result,
            });
        }
        events::insert_pairings(conn, &new)?;
        events::publish_round(conn, round.id, now)?;
    }
    let next = plan.rounds.len() as i32 + 1;
    for (no, kind) in &plan.next_round_absences {
        events::set_absence(conn, entry(*no)?, next, Some(*kind))?;
    }
    for &(a, b) in &t.forbidden_pairs {
        events::add_forbidden_pair(conn, event_id, entry(a)?, entry(b)?)?;
    }
    events::set_status(
        conn,
        event_id,
        if plan.rounds.is_empty() {
            EventStatus::Registration
        } else {
            EventStatus::Running
        },
    )?;
    Ok(ImportView {
        event: load(conn, event_id)?.into(),
        unlinked_matches,
    })
}

fn rating_row(player_id: i64, variant: Variant, rating: i32) -> PlayerRating {
    PlayerRating {
        player_id,
        variant,
        rating,
        games: 0,
    }
}

/// Trims, drops control characters and cuts to `max` characters.
fn clean(text: &str, max: usize) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .chars()
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

fn profile_fields(p: &damka_domain::tournament::Player) -> PlayerFields {
    let name = clean(&p.name, 100);
    let federation = clean(p.federation.as_deref().unwrap_or(""), 3).to_uppercase();
    let country = if (2..=3).contains(&federation.len())
        && federation.chars().all(|c| c.is_ascii_uppercase())
    {
        federation
    } else {
        String::new()
    };
    let birth_year = p
        .birth_date
        .as_deref()
        .and_then(|d| d.get(0..4))
        .and_then(|y| y.parse::<i32>().ok())
        .filter(|y| (1900..=2100).contains(y));
    PlayerFields {
        name: if name.is_empty() {
            format!("Player {}", p.start_no)
        } else {
            name
        },
        club_id: None,
        country,
        federation_id: federation_id(p),
        birth_year,
        title: clean(p.title.as_deref().unwrap_or(""), 16),
    }
}

/// The player's federation id; `0` (all zeros) is what some programs write for none.
fn federation_id(p: &damka_domain::tournament::Player) -> String {
    let id = clean(p.federation_id.as_deref().unwrap_or(""), 32);
    if id.chars().all(|c| c == '0') {
        String::new()
    } else {
        id
    }
}

/// The line of each player's `001` record (1-based), for error messages.
pub fn player_lines(text: &str) -> HashMap<StartNo, usize> {
    let normalised = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = HashMap::new();
    for (idx, line) in normalised.split('\n').enumerate() {
        if !line.starts_with("001") {
            continue;
        }
        let number: String = line.chars().skip(4).take(4).collect();
        if let Ok(no) = number.trim().parse::<StartNo>() {
            out.entry(no).or_insert(idx + 1);
        }
    }
    out
}

fn line_of(lines: &HashMap<StartNo, usize>, no: StartNo) -> usize {
    lines.get(&no).copied().unwrap_or(0)
}

/// Column of round `index`'s cell (0-based round) in a player line.
fn column_of(index: usize) -> usize {
    92 + 10 * index
}

/// Works out the event's settings and every board from a parsed TRF.
pub fn plan(
    t: &Tournament,
    lines: &HashMap<StartNo, usize>,
    variant: Variant,
) -> AppResult<ImportPlan> {
    check_points(t)?;
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let (system, round_robin_rounds) = system_of(t, played);
    let rounds = if t.total_rounds > 0 {
        i32::try_from(t.total_rounds).unwrap_or(i32::MAX)
    } else if played > 0 {
        i32::try_from(played).unwrap_or(i32::MAX)
    } else {
        EventInput::default().rounds
    };
    let name = clean(&t.name, 120);
    let input = EventInput {
        name: if name.is_empty() {
            DEFAULT_NAME.to_string()
        } else {
            name
        },
        variant,
        system,
        rounds,
        pab_half_points: t.points.pab.0 as i32,
        first_colour: t.first_colour.unwrap_or(Colour::White),
        ..EventInput::default()
    };
    Ok(ImportPlan {
        input,
        round_robin_rounds,
        rounds: planned_rounds(t, played, lines)?,
        next_round_absences: requested_absences(t, played, lines)?,
    })
}

/// Refuses a point system damka cannot store: only the PAB's points (up to a whole
/// point) may differ from the standard ones.
fn check_points(t: &Tournament) -> AppResult<()> {
    let default = PointSystem::default();
    if (PointSystem {
        pab: default.pab,
        ..t.points
    }) != default
        || t.points.pab.0 > 2
    {
        let p = &t.points;
        return Err(AppError::invalid(
            "trf",
            Refusal::TrfPointsUnsupported {
                win: show(p.win),
                draw: show(p.draw),
                loss: show(p.loss),
                bye: show(p.pab),
            },
        ));
    }
    Ok(())
}

/// The pairing system the file's rounds show, and a round-robin's number of rounds.
fn system_of(t: &Tournament, played: usize) -> (System, Option<i32>) {
    // A round-robin needs n - 1 rounds at least: only then is the (quadratic) detection
    // worth running, and never on a field larger than any round-robin.
    let n = t.players.len();
    let could_be_round_robin = n <= 200 && played.max(t.total_rounds as usize) + 1 >= n;
    let kind = if could_be_round_robin {
        EventKind::detect(t)
    } else {
        EventKind::Swiss
    };
    match kind {
        EventKind::RoundRobin => {
            let cycle = (n + n % 2).saturating_sub(1);
            let rounds = if t.total_rounds > 0 {
                t.total_rounds as usize
            } else {
                played
            };
            let double = rounds > cycle || met_twice(t);
            (
                if double {
                    System::DoubleRoundRobin
                } else {
                    System::RoundRobin
                },
                Some(i32::try_from(rounds).unwrap_or(i32::MAX)),
            )
        }
        _ => (System::Swiss, None),
    }
}

/// The boards of every round played, in board order: games by the higher score of the
/// two players before the round, then byes.
fn planned_rounds(
    t: &Tournament,
    played: usize,
    lines: &HashMap<StartNo, usize>,
) -> AppResult<Vec<Vec<PlannedBoard>>> {
    let mut rounds_out = Vec::with_capacity(played);
    let mut scores: HashMap<StartNo, HalfPoints> = t
        .players
        .iter()
        .map(|p| (p.start_no, HalfPoints::ZERO))
        .collect();
    let by_no: HashMap<StartNo, usize> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_no, i))
        .collect();
    for r in 0..played {
        let entry_of = |no: StartNo| -> RoundEntry {
            by_no
                .get(&no)
                .and_then(|&i| t.players[i].rounds.get(r))
                .copied()
                .unwrap_or(RoundEntry::NotPaired)
        };
        let (mut games, mut byes) = boards_of_round(t, r, &entry_of, &by_no, lines)?;
        let score = |no: StartNo| scores.get(&no).copied().unwrap_or_default();
        games.sort_by_key(|g| {
            let black = g.black.unwrap_or(g.white);
            (
                std::cmp::Reverse(score(g.white).max(score(black))),
                g.white.min(black),
            )
        });
        byes.sort_by_key(|(order, b)| (*order, b.white));
        let mut boards = games;
        boards.extend(byes.into_iter().map(|(_, b)| b));
        rounds_out.push(boards);
        for p in &t.players {
            let points = t.points.points(&entry_of(p.start_no));
            if let Some(s) = scores.get_mut(&p.start_no) {
                *s += points;
            }
        }
    }
    Ok(rounds_out)
}

/// A round's games (each once) and byes (with their place among the byes), unordered.
type RoundBoards = (Vec<PlannedBoard>, Vec<(usize, PlannedBoard)>);

/// The boards of round `r` (0-based), unordered.
fn boards_of_round(
    t: &Tournament,
    r: usize,
    entry_of: &impl Fn(StartNo) -> RoundEntry,
    by_no: &HashMap<StartNo, usize>,
    lines: &HashMap<StartNo, usize>,
) -> AppResult<RoundBoards> {
    let mut games: Vec<PlannedBoard> = Vec::new();
    let mut byes: Vec<(usize, PlannedBoard)> = Vec::new();
    for p in &t.players {
        let own = entry_of(p.start_no);
        match own {
            RoundEntry::NotPaired => {}
            RoundEntry::Bye(kind) => {
                byes.push((
                    bye_order(kind),
                    PlannedBoard {
                        white: p.start_no,
                        black: None,
                        bye: Some(kind),
                        result: None,
                    },
                ));
            }
            RoundEntry::Played { opponent, .. }
            | RoundEntry::Forfeit { opponent, .. }
            | RoundEntry::DoubleForfeit { opponent, .. } => {
                if opponent == p.start_no || !by_no.contains_key(&opponent) {
                    return Err(AppError::invalid(
                        "trf",
                        Refusal::TrfNoOpponent {
                            line: line_of(lines, p.start_no),
                            column: column_of(r),
                            round: r + 1,
                            player: p.start_no,
                            opponent,
                        },
                    ));
                }
                // Each game once, from the side of the lower start number.
                if opponent < p.start_no && entry_of(opponent).opponent() == Some(p.start_no) {
                    continue;
                }
                games.push(game(
                    p.start_no,
                    own,
                    opponent,
                    entry_of(opponent),
                    r,
                    lines,
                )?);
            }
        }
    }
    Ok((games, byes))
}

/// The byes and absences requested for the round after the last one: a half-point bye or
/// an absence; a full-point bye cannot be requested.
fn requested_absences(
    t: &Tournament,
    played: usize,
    lines: &HashMap<StartNo, usize>,
) -> AppResult<Vec<(StartNo, ByeKind)>> {
    let mut next_round_absences = Vec::new();
    for a in &t.next_round_absences {
        let kind = match a.kind {
            ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty => {
                a.kind
            }
            ByeKind::FullPoint | ByeKind::PairingAllocated => {
                return Err(AppError::invalid(
                    "trf",
                    Refusal::TrfFullPointByeRequested {
                        line: line_of(lines, a.player),
                        column: column_of(played),
                        player: a.player,
                    },
                ));
            }
        };
        next_round_absences.push((a.player, kind));
    }
    next_round_absences.sort_unstable_by_key(|(player, kind)| (*player, bye_order(*kind)));
    Ok(next_round_absences)
}

fn show(p: HalfPoints) -> String {
    format!("{}.{}", p.0 / 2, if p.0 % 2 == 1 { 5 } else { 0 })
}

/// Whether some two players met more than once (a double round-robin).
fn met_twice(t: &Tournament) -> bool {
    t.players.iter().any(|p| {
        let mut seen = std::collections::HashSet::new();
        p.rounds
            .iter()
            .filter_map(RoundEntry::opponent)
            .any(|o| !seen.insert(o))
    })
}

/// The place of a bye among the byes of a round (after the games).
fn bye_order(kind: ByeKind) -> usize {
    ByeKind::ALL
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(ByeKind::ALL.len())
}

/// One game from the two players' lines: who had white and the stored result code. The
/// two lines must tell the same story.
fn game(
    a: StartNo,
    a_entry: RoundEntry,
    b: StartNo,
    b_entry: RoundEntry,
    round: usize,
    lines: &HashMap<StartNo, usize>,
) -> AppResult<PlannedBoard> {
    let disagree = || {
        AppError::invalid(
            "trf",
            Refusal::TrfLinesDisagree {
                line: line_of(lines, a),
                column: column_of(round),
                round: round + 1,
                player: a,
                opponent: b,
                cell: trf::cell_text(&a_entry).trim().to_string(),
                opponent_line: line_of(lines, b),
                opponent_cell: trf::cell_text(&b_entry).trim().to_string(),
            },
        )
    };
    if b_entry.opponent() != Some(a) {
        return Err(disagree());
    }
    let board = |white: StartNo, black: StartNo, result: ResultCode| PlannedBoard {
        white,
        black: Some(black),
        bye: None,
        result: Some(result),
    };
    match (a_entry, b_entry) {
        (
            RoundEntry::Played {
                colour: ca,
                outcome: oa,
                ..
            },
            RoundEntry::Played {
                colour: cb,
                outcome: ob,
                ..
            },
        ) => {
            if ca == cb {
                return Err(disagree());
            }
            let (white, black, ow, ob) = if ca == Colour::White {
                (a, b, oa, ob)
            } else {
                (b, a, ob, oa)
            };
            let Some(result) = ResultCode::of_game(ow, ob) else {
                return Err(disagree());
            };
            Ok(board(white, black, result))
        }
        (RoundEntry::Played { .. }, _) | (_, RoundEntry::Played { .. }) => Err(disagree()),
        _ => {
            let unplayed = |e: RoundEntry| match e {
                RoundEntry::Forfeit { colour, won, .. } => Some((colour, won)),
                RoundEntry::DoubleForfeit { colour, .. } => Some((colour, false)),
                _ => None,
            };
            let (Some((ca, wa)), Some((cb, wb))) = (unplayed(a_entry), unplayed(b_entry)) else {
                return Err(disagree());
            };
            let a_white = match (ca, cb) {
                (Some(x), Some(y)) if x == y => return Err(disagree()),
                (Some(Colour::White), _) | (_, Some(Colour::Black)) => true,
                (Some(Colour::Black), _) | (_, Some(Colour::White)) => false,
                (None, None) => a < b,
            };
            let (white, black, ww, wb2) = if a_white {
                (a, b, wa, wb)
            } else {
                (b, a, wb, wa)
            };
            let Some(result) = ResultCode::of_forfeit(ww, wb2) else {
                return Err(disagree());
            };
            Ok(board(white, black, result))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell_line(no: u32, name: &str, cells: &[&str]) -> String {
        let head = format!("001 {no:>4}      {name}");
        let mut l = format!("{head:<80}{:>4}{:>5} ", "0.0", no);
        for c in cells {
            l.push_str(&format!(" {c:<8} "));
        }
        l.trim_end().to_string()
    }

    fn parse(text: &str) -> (Tournament, HashMap<StartNo, usize>) {
        (
            damka_domain::trf::parse(text).expect("parse"),
            player_lines(text),
        )
    }

    #[test]
    fn results_and_byes_map_to_stored_codes() {
        let text = [
            "012 T".to_string(),
            "XXR 3".to_string(),
            cell_line(1, "A", &["   2 w 1", "   3 b +", "0000 - H"]),
            cell_line(2, "B", &["   1 b 0", "0000 - U", "   3 w -"]),
            cell_line(3, "C", &["0000 - Z", "   1 w -", "   2 b -"]),
        ]
        .join("\n");
        let (t, lines) = parse(&text);
        let plan = plan(&t, &lines, Variant::Russian).expect("plan");
        // Everybody met everybody: a round-robin.
        assert_eq!(plan.input.system, System::RoundRobin);
        assert_eq!(plan.round_robin_rounds, Some(3));
        let game = |white, black, result| PlannedBoard {
            white,
            black: Some(black),
            bye: None,
            result: Some(result),
        };
        let bye = |white, code| PlannedBoard {
            white,
            black: None,
            bye: Some(code),
            result: None,
        };
        assert_eq!(
            plan.rounds,
            vec![
                vec![
                    game(1, 2, ResultCode::WhiteWins),
                    bye(3, ByeKind::ZeroPoint)
                ],
                vec![
                    game(3, 1, ResultCode::BlackWinsByForfeit),
                    bye(2, ByeKind::PairingAllocated)
                ],
                vec![
                    game(2, 3, ResultCode::DoubleForfeit),
                    bye(1, ByeKind::HalfPoint)
                ],
            ]
        );
    }

    #[test]
    fn disagreeing_lines_are_named() {
        let text = [
            "XXR 3".to_string(),
            cell_line(1, "A", &["   2 w 1"]),
            cell_line(2, "B", &["   1 b 1"]),
        ]
        .join("\n");
        let (t, lines) = parse(&text);
        let err = plan(&t, &lines, Variant::Russian).expect_err("both won");
        // The two cells as the file has them, each at its line.
        assert_eq!(
            err,
            AppError::invalid(
                "trf",
                Refusal::TrfLinesDisagree {
                    line: 2,
                    column: 92,
                    round: 1,
                    player: 1,
                    opponent: 2,
                    cell: "2 w 1".into(),
                    opponent_line: 3,
                    opponent_cell: "1 b 1".into(),
                }
            )
        );
    }

    #[test]
    fn zero_federation_ids_are_none() {
        let mut p = damka_domain::tournament::Player {
            federation_id: Some("00000".into()),
            ..Default::default()
        };
        assert_eq!(federation_id(&p), "");
        p.federation_id = Some(" 4100018 ".into());
        assert_eq!(federation_id(&p), "4100018");
    }

    #[test]
    fn other_scoring_is_refused() {
        let text = [
            "162  W 3.0    D 1.0".to_string(),
            cell_line(1, "A", &[]),
            cell_line(2, "B", &[]),
        ]
        .join("\n");
        let (t, lines) = parse(&text);
        assert!(plan(&t, &lines, Variant::Russian).is_err());
    }

    /// Every file of the Dutch corpus either plans (one board per game, every player in at
    /// most one board per round) or is refused for its scoring.
    #[test]
    fn corpus_files_plan() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
        let mut planned = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "trf") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let (t, lines) = parse(&text);
            let standard = PointSystem {
                pab: PointSystem::default().pab,
                ..t.points
            } == PointSystem::default();
            match plan(&t, &lines, Variant::Russian) {
                Ok(plan) => {
                    assert!(standard, "{}", path.display());
                    for (r, boards) in plan.rounds.iter().enumerate() {
                        let mut seen = std::collections::HashSet::new();
                        for b in boards {
                            assert!(seen.insert(b.white), "{} round {}", path.display(), r + 1);
                            if let Some(black) = b.black {
                                assert!(seen.insert(black), "{} round {}", path.display(), r + 1);
                            }
                        }
                    }
                    planned += 1;
                }
                Err(e) => assert!(!standard, "{}: {e}", path.display()),
            }
        }
        assert!(planned > 30, "{planned}");
    }
}
