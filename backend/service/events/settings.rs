//! Creating and changing an event's settings.
use std::str::FromStr;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{STATUS_REGISTRATION, load, require_manager};
use crate::service::{Actor, AppError, AppResult, Refusal, validate};
use crate::store::models::{Event, EventFields};
use crate::store::{self, DbConn, events};

pub const SYSTEMS: [&str; 3] = ["round_robin", "double_round_robin", "swiss"];
pub const TIME_CONTROLS: [&str; 4] = ["classical", "rapid", "blitz", "none"];
pub const SCORING_DISPLAYS: [&str; 2] = ["1-0.5-0", "2-1-0"];

/// Local rules on top of the variant's preset (RULES.md); `None` keeps the preset's rule.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LocalRules {
    #[serde(default)]
    pub mandatory_capture: Option<bool>,
    /// `free` or `maximum`.
    #[serde(default)]
    pub capture_choice: Option<String>,
    /// Draw after this many plies without a capture or a man move.
    #[serde(default)]
    pub no_progress_limit: Option<u32>,
    /// Draw when the game reaches this many moves.
    #[serde(default)]
    pub move_limit: Option<u32>,
    /// One king each: draw after this many moves without a capture.
    #[serde(default)]
    pub lone_kings_limit: Option<u32>,
}

/// What an organiser sets on an event.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct EventInput {
    pub name: String,
    #[serde(default)]
    pub place: String,
    #[serde(default)]
    pub starts_on: Option<NaiveDate>,
    #[serde(default)]
    pub ends_on: Option<NaiveDate>,
    /// `russian`, `english`, `international` or `brazilian`.
    #[serde(default = "default_variant")]
    pub variant: String,
    #[serde(default)]
    pub local_rules: LocalRules,
    /// `round_robin`, `double_round_robin` or `swiss`.
    pub system: String,
    /// Swiss: the number of rounds. Round-robins: ignored (the number of players decides).
    #[serde(default)]
    pub rounds: i32,
    /// `classical`, `rapid`, `blitz` or `none`.
    #[serde(default = "default_time_control")]
    pub time_control: String,
    /// Moves each side must have made before a draw may be offered (0: no limit).
    #[serde(default = "default_draw_offer")]
    pub draw_offer_min_moves: i32,
    #[serde(default = "default_true")]
    pub rated: bool,
    /// `1-0.5-0` or `2-1-0`.
    #[serde(default = "default_scoring")]
    pub scoring_display: String,
    /// Points for the pairing-allocated bye, in half-points (2 = a win, 1 = a draw, 0).
    #[serde(default = "default_pab")]
    pub pab_half_points: i32,
    /// Tie-break order, e.g. `BH/C1,BH,SB,WIN`; empty: the system's default.
    #[serde(default)]
    pub tiebreaks: String,
    /// Colour of the first-ranked player in round 1: `white` or `black`.
    #[serde(default = "default_colour")]
    pub first_colour: String,
    #[serde(default)]
    pub self_registration: bool,
    /// Swiss: late entries are accepted up to this round (0: none).
    #[serde(default)]
    pub late_entry_until_round: i32,
    #[serde(default)]
    pub club_id: Option<i64>,
}

fn default_variant() -> String {
    "russian".into()
}
fn default_time_control() -> String {
    "classical".into()
}
fn default_draw_offer() -> i32 {
    20
}
fn default_true() -> bool {
    true
}
fn default_scoring() -> String {
    "1-0.5-0".into()
}
fn default_pab() -> i32 {
    2
}
fn default_colour() -> String {
    "white".into()
}

impl Default for EventInput {
    fn default() -> Self {
        EventInput {
            name: String::new(),
            place: String::new(),
            starts_on: None,
            ends_on: None,
            variant: default_variant(),
            local_rules: LocalRules::default(),
            system: "swiss".into(),
            rounds: 7,
            time_control: default_time_control(),
            draw_offer_min_moves: default_draw_offer(),
            rated: true,
            scoring_display: default_scoring(),
            pab_half_points: default_pab(),
            tiebreaks: String::new(),
            first_colour: default_colour(),
            self_registration: false,
            late_entry_until_round: 0,
            club_id: None,
        }
    }
}

/// An event as pages and the API show it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct EventView {
    pub id: i64,
    pub name: String,
    pub place: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub variant: String,
    pub local_rules: LocalRules,
    pub system: String,
    pub rounds: i32,
    pub time_control: String,
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    pub scoring_display: String,
    pub pab_half_points: i32,
    pub tiebreaks: String,
    pub first_colour: String,
    pub status: String,
    pub self_registration: bool,
    pub late_entry_until_round: i32,
    pub organiser_id: i64,
    pub club_id: Option<i64>,
}

impl From<&Event> for EventView {
    fn from(e: &Event) -> EventView {
        EventView {
            id: e.id,
            name: e.name.clone(),
            place: e.place.clone(),
            starts_on: e.starts_on,
            ends_on: e.ends_on,
            variant: e.variant.clone(),
            local_rules: serde_json::from_str(&e.local_rules).unwrap_or_default(),
            system: e.system.clone(),
            rounds: e.rounds,
            time_control: e.time_control.clone(),
            draw_offer_min_moves: e.draw_offer_min_moves,
            rated: e.rated,
            scoring_display: e.scoring_display.clone(),
            pab_half_points: e.pab_half_points,
            tiebreaks: e.tiebreaks.clone(),
            first_colour: e.first_colour.clone(),
            status: e.status.clone(),
            self_registration: e.self_registration,
            late_entry_until_round: e.late_entry_until_round,
            organiser_id: e.organiser_id,
            club_id: e.club_id,
        }
    }
}

impl EventView {
    /// How a new event with these settings would look (for a blank form).
    pub fn from_input(input: &EventInput) -> EventView {
        EventView {
            id: 0,
            name: input.name.clone(),
            place: input.place.clone(),
            starts_on: input.starts_on,
            ends_on: input.ends_on,
            variant: input.variant.clone(),
            local_rules: input.local_rules.clone(),
            system: input.system.clone(),
            rounds: input.rounds,
            time_control: input.time_control.clone(),
            draw_offer_min_moves: input.draw_offer_min_moves,
            rated: input.rated,
            scoring_display: input.scoring_display.clone(),
            pab_half_points: input.pab_half_points,
            tiebreaks: input.tiebreaks.clone(),
            first_colour: input.first_colour.clone(),
            status: super::STATUS_REGISTRATION.to_string(),
            self_registration: input.self_registration,
            late_entry_until_round: input.late_entry_until_round,
            organiser_id: 0,
            club_id: input.club_id,
        }
    }
}

pub fn is_round_robin(system: &str) -> bool {
    system != "swiss"
}

/// The tie-breaks an event uses when the organiser has not picked any (TOURNAMENTS.md).
pub fn default_tiebreaks(system: &str) -> &'static str {
    if is_round_robin(system) {
        "SB,DE,WIN"
    } else {
        "BH/C1,BH,SB,WIN"
    }
}

fn one_of(field: &'static str, value: &str, allowed: &[&str]) -> AppResult<String> {
    if allowed.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(AppError::invalid(field, Refusal::not_one_of(allowed)))
    }
}

fn fields(conn: &mut DbConn, input: &EventInput) -> AppResult<EventFields> {
    let name = validate::required("name", &input.name, 120)?;
    let place = validate::optional("place", &input.place, 120)?;
    let variant = damka_engine::Variant::from_str(input.variant.trim()).map_err(|_| {
        AppError::invalid(
            "variant",
            Refusal::not_one_of(&["russian", "english", "international", "brazilian"]),
        )
    })?;
    let system = one_of("system", &input.system, &SYSTEMS)?;
    let rounds = if is_round_robin(&system) {
        0
    } else if (1..=30).contains(&input.rounds) {
        input.rounds
    } else {
        return Err(AppError::invalid(
            "rounds",
            Refusal::SwissRoundsOutOfRange { min: 1, max: 30 },
        ));
    };
    let starts_on = validate::date("starts_on", input.starts_on)?;
    let ends_on = validate::date("ends_on", input.ends_on)?;
    if let (Some(start), Some(end)) = (starts_on, ends_on)
        && end < start
    {
        return Err(AppError::invalid("ends_on", Refusal::EndsBeforeStart));
    }
    if !(0..=200).contains(&input.draw_offer_min_moves) {
        return Err(AppError::invalid(
            "draw_offer_min_moves",
            Refusal::NotBetween { min: 0, max: 200 },
        ));
    }
    if !(0..=2).contains(&input.pab_half_points) {
        return Err(AppError::invalid(
            "pab_half_points",
            Refusal::InvalidByePoints,
        ));
    }
    let tiebreaks = if input.tiebreaks.trim().is_empty() {
        default_tiebreaks(&system).to_string()
    } else {
        let parsed = damka_domain::tiebreak::parse_tiebreak_list(input.tiebreaks.trim())
            .map_err(|e| AppError::invalid("tiebreaks", e.into()))?;
        parsed
            .iter()
            .map(|t| t.code())
            .collect::<Vec<_>>()
            .join(",")
    };
    if let Some(choice) = &input.local_rules.capture_choice
        && !matches!(choice.as_str(), "free" | "maximum")
    {
        return Err(AppError::invalid(
            "capture_choice",
            Refusal::not_one_of(&["free", "maximum"]),
        ));
    }
    if !(0..=30).contains(&input.late_entry_until_round) {
        return Err(AppError::invalid(
            "late_entry_until_round",
            Refusal::NotBetween { min: 0, max: 30 },
        ));
    }
    if let Some(club) = input.club_id
        && store::clubs::by_id(conn, club)?.is_none()
    {
        return Err(AppError::invalid("club_id", Refusal::NoSuchClub));
    }
    Ok(EventFields {
        name,
        place,
        starts_on,
        ends_on,
        variant: variant.to_string(),
        local_rules: serde_json::to_string(&input.local_rules).map_err(AppError::internal)?,
        system,
        rounds,
        time_control: one_of("time_control", &input.time_control, &TIME_CONTROLS)?,
        draw_offer_min_moves: input.draw_offer_min_moves,
        rated: input.rated,
        scoring_display: one_of("scoring_display", &input.scoring_display, &SCORING_DISPLAYS)?,
        pab_half_points: input.pab_half_points,
        tiebreaks,
        first_colour: one_of("first_colour", &input.first_colour, &["white", "black"])?,
        self_registration: input.self_registration,
        late_entry_until_round: if is_round_robin(&input.system) {
            0
        } else {
            input.late_entry_until_round
        },
        club_id: input.club_id,
    })
}

/// Organisers and administrators create events; the creator owns it.
pub fn create(conn: &mut DbConn, actor: &Actor, input: &EventInput) -> AppResult<EventView> {
    let user = actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateEvents));
    }
    conn.write_transaction(|conn| {
        let fields = fields(conn, input)?;
        let event = events::insert(conn, &fields, user.id, STATUS_REGISTRATION, store::now())?;
        Ok(EventView::from(&event))
    })
}

/// Changes the settings. Once a round has been paired the variant and the system are
/// fixed (the games and the schedule depend on them).
pub fn update(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    input: &EventInput,
) -> AppResult<EventView> {
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if event.status == super::STATUS_FINISHED {
            return Err(AppError::conflict(Refusal::EventFinishedReopenToChange));
        }
        let mut fields = fields(conn, input)?;
        let paired = events::rounds(conn, event_id)?;
        if !paired.is_empty() {
            if fields.variant != event.variant {
                return Err(AppError::invalid("variant", Refusal::FixedOncePaired));
            }
            if fields.system != event.system {
                return Err(AppError::invalid("system", Refusal::FixedOncePaired));
            }
            if is_round_robin(&fields.system) {
                fields.rounds = event.rounds;
            } else if (fields.rounds as usize) < paired.len() {
                return Err(AppError::invalid("rounds", Refusal::FewerRoundsThanPaired));
            }
        }
        Ok(EventView::from(&events::update(conn, event_id, &fields)?))
    })
}

pub fn get(conn: &mut DbConn, event_id: i64) -> AppResult<EventView> {
    Ok(EventView::from(&load(conn, event_id)?))
}

pub fn list(conn: &mut DbConn) -> AppResult<Vec<EventView>> {
    Ok(events::list(conn)?.iter().map(EventView::from).collect())
}

/// Names an arbiter (by e-mail of their account).
pub fn add_arbiter(conn: &mut DbConn, actor: &Actor, event_id: i64, email: &str) -> AppResult<()> {
    let email = validate::email(email)?;
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        let user = store::accounts::user_by_email(conn, &email)?
            .ok_or_else(|| AppError::invalid("email", Refusal::NoAccountWithEmail))?;
        events::add_arbiter(conn, event_id, user.id)?;
        Ok(())
    })
}

/// Closes the event: no more rounds are paired and the standings are final.
pub fn finish(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        let history = super::history::load(conn, &event)?;
        if history.rounds.iter().any(|r| !r.published) {
            return Err(AppError::conflict(Refusal::UnpublishedRoundLeft));
        }
        if history.missing_results() > 0 {
            return Err(AppError::conflict(Refusal::ResultsMissing));
        }
        events::set_status(conn, event_id, super::STATUS_FINISHED)?;
        Ok(())
    })
}

/// Reopens a finished event (the organiser), so that results can be corrected or more
/// rounds paired; the corrections keep their audit trail as before.
pub fn reopen(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if event.status != super::STATUS_FINISHED {
            return Err(AppError::conflict(Refusal::EventNotFinished));
        }
        let paired = !events::rounds(conn, event_id)?.is_empty();
        let status = if paired {
            super::STATUS_RUNNING
        } else {
            super::STATUS_REGISTRATION
        };
        events::set_status(conn, event_id, status)?;
        Ok(())
    })
}
