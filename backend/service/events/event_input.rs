//! What an organiser sets on an event, as the API's create and update read it
//! (`EventInput` in the OpenAPI document), and its conversions to and from the row.
use chrono::NaiveDate;
use damka_domain::clock::TimeControl;
use damka_domain::tournament::Colour;
use damka_engine::Variant;
use serde::Deserialize;

use super::{Event, LocalRules};
use crate::store::models::EventSettings;
use crate::store::time_control::{self, TimeControlJson};
use damka_domain::keizer::KeizerOptions;
use damka_domain::vocabulary::{
    BallotPer, MatchScoring, OpeningBallot, ScoringDisplay, System, TimeCategory, spelled,
};

/// What an organiser sets on an event.
// The body of the API's create and update and what the use cases take (and check); written
// to the row as `store::models::EventSettings`. Status and owner are changed separately.
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
    #[serde(default, with = "spelled")]
    #[schema(value_type = String)]
    pub variant: Variant,
    #[serde(default)]
    pub local_rules: LocalRules,
    /// `round_robin`, `double_round_robin` or `swiss`.
    #[schema(value_type = String)]
    pub system: System,
    /// Swiss: the number of rounds. Round-robins: ignored (the number of players decides).
    #[serde(default)]
    pub rounds: i32,
    /// The category: `classical`, `rapid`, `blitz` or `none` (games without a clock at
    /// all). Derived from `clock` when the event is timed.
    #[serde(default = "default_time_control")]
    #[schema(value_type = String)]
    pub time_control: TimeCategory,
    /// Moves each side must have made before a draw may be offered (0: no limit).
    #[serde(default = "default_draw_offer")]
    pub draw_offer_min_moves: i32,
    #[serde(default = "default_true")]
    pub rated: bool,
    /// `1-0.5-0` or `2-1-0`.
    #[serde(default = "default_scoring")]
    #[schema(value_type = String)]
    pub scoring_display: ScoringDisplay,
    /// Points for the pairing-allocated bye, in half-points (2 = a win, 1 = a draw, 0).
    #[serde(default = "default_pab")]
    pub pab_half_points: i32,
    /// Tie-break order, e.g. `BH/C1,BH,SB,WIN`; empty: the system's default.
    #[serde(default)]
    pub tiebreaks: String,
    /// Colour of the first-ranked player in round 1: `white` or `black`.
    #[serde(default = "default_colour", with = "spelled")]
    #[schema(value_type = String)]
    pub first_colour: Colour,
    #[serde(default)]
    pub self_registration: bool,
    /// Swiss: late entries are accepted up to this round (0: none).
    #[serde(default)]
    pub late_entry_until_round: i32,
    #[serde(default)]
    pub club_id: Option<i64>,
    /// The clock the games are played with (absent: none). When it is timed, it decides
    /// `time_control` (the category) and the value sent there is not used.
    #[serde(default, with = "time_control::json")]
    #[schema(value_type = TimeControlJson)]
    pub clock: TimeControl,
    /// 1 (default), or 2: each pairing plays a micro-match of two games, colours swapped
    /// in the second.
    #[serde(default = "default_games_per_pairing")]
    pub games_per_pairing: i32,
    /// How a micro-match scores: `game_points` (default: the games' points summed) or
    /// `match_points` (2 for the match won, 1 drawn, 0 lost).
    #[serde(default = "default_match_scoring")]
    #[schema(value_type = String)]
    pub match_scoring: MatchScoring,
    /// The table the openings are drawn from: `none` (default), `idf64`, `fmjd64`,
    /// `basic150` (Russian and Brazilian), `english3` (English), `custom`.
    #[serde(default = "default_opening_ballot")]
    #[schema(value_type = String)]
    pub opening_ballot: OpeningBallot,
    /// `pairing` (default: every board draws its own) or `round` (one for every board).
    #[serde(default = "default_ballot_per")]
    #[schema(value_type = String)]
    pub ballot_per: BallotPer,
    /// With `custom`: one opening a line, `CODE: moves` or a FEN; `#` starts a comment.
    #[serde(default)]
    pub custom_openings: String,
    /// System `keizer`: the options, by name; those left out take their defaults.
    #[serde(default)]
    #[schema(value_type = KeizerOptionsJson)]
    pub keizer: KeizerOptions,
}

fn default_games_per_pairing() -> i32 {
    1
}
fn default_match_scoring() -> MatchScoring {
    MatchScoring::GamePoints
}
fn default_opening_ballot() -> OpeningBallot {
    OpeningBallot::None
}
fn default_ballot_per() -> BallotPer {
    BallotPer::Pairing
}

fn default_time_control() -> TimeCategory {
    TimeCategory::Classical
}
fn default_draw_offer() -> i32 {
    20
}
fn default_true() -> bool {
    true
}
fn default_scoring() -> ScoringDisplay {
    ScoringDisplay::OneHalfZero
}
fn default_pab() -> i32 {
    2
}
fn default_colour() -> Colour {
    Colour::White
}

impl Default for EventInput {
    fn default() -> Self {
        EventInput {
            name: String::new(),
            place: String::new(),
            starts_on: None,
            ends_on: None,
            variant: Variant::default(),
            local_rules: LocalRules::default(),
            system: System::Swiss,
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
            clock: TimeControl::Untimed,
            games_per_pairing: default_games_per_pairing(),
            match_scoring: default_match_scoring(),
            opening_ballot: default_opening_ballot(),
            ballot_per: default_ballot_per(),
            custom_openings: String::new(),
            keizer: KeizerOptions::default(),
        }
    }
}

impl EventInput {
    /// The settings as written to the event's row.
    pub fn row(&self) -> EventSettings {
        EventSettings {
            name: self.name.clone(),
            place: self.place.clone(),
            starts_on: self.starts_on,
            ends_on: self.ends_on,
            variant: self.variant,
            local_rules: self.local_rules.clone(),
            system: self.system,
            rounds: self.rounds,
            time_control: self.time_control,
            draw_offer_min_moves: self.draw_offer_min_moves,
            rated: self.rated,
            scoring_display: self.scoring_display,
            pab_half_points: self.pab_half_points,
            tiebreaks: self.tiebreaks.clone(),
            first_colour: self.first_colour,
            self_registration: self.self_registration,
            late_entry_until_round: self.late_entry_until_round,
            club_id: self.club_id,
            clock: self.clock,
            games_per_pairing: self.games_per_pairing,
            match_scoring: self.match_scoring,
            opening_ballot: self.opening_ballot,
            ballot_per: self.ballot_per,
            custom_openings: self.custom_openings.clone(),
            keizer: self.keizer,
        }
    }
}

// An inherent method of the row, kept here so the store never names an API type.
impl Event {
    /// What the organiser set on the event, as a form or an update starts from.
    pub fn settings(&self) -> EventInput {
        EventInput {
            name: self.name.clone(),
            place: self.place.clone(),
            starts_on: self.starts_on,
            ends_on: self.ends_on,
            variant: self.variant,
            local_rules: self.local_rules.clone(),
            system: self.system,
            rounds: self.rounds,
            time_control: self.time_control,
            draw_offer_min_moves: self.draw_offer_min_moves,
            rated: self.rated,
            scoring_display: self.scoring_display,
            pab_half_points: self.pab_half_points,
            tiebreaks: self.tiebreaks.clone(),
            first_colour: self.first_colour,
            self_registration: self.self_registration,
            late_entry_until_round: self.late_entry_until_round,
            club_id: self.club_id,
            clock: self.clock,
            games_per_pairing: self.games_per_pairing,
            match_scoring: self.match_scoring,
            opening_ballot: self.opening_ballot,
            ballot_per: self.ballot_per,
            custom_openings: self.custom_openings.clone(),
            keizer: self.keizer,
        }
    }
}

/// A Keizer event's options as the API documents them (`damka_domain::keizer::KeizerOptions`
/// reads and writes them; every share is in sixths of a value number).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // a schema only
pub struct KeizerOptionsJson {
    /// The first-ranked player's value number; absent or null: the number of entries.
    top_value: Option<u32>,
    /// How much lower each next rank's value is (default 1).
    value_step: Option<u32>,
    /// Whether each score holds the player's own value once (default true).
    own_value: Option<bool>,
    /// Share of the opponent's value a win earns, a forfeit win too (default 6).
    win_sixths: Option<u32>,
    /// ... a draw earns (default 3).
    draw_sixths: Option<u32>,
    /// ... a loss earns (default 0; a forfeit loss earns nothing).
    loss_sixths: Option<u32>,
    /// Share of one's own value the pairing bye earns (default 4).
    bye_sixths: Option<u32>,
    /// ... an absence with notice earns, the first `max_scored_absences` of them (default 2).
    excused_sixths: Option<u32>,
    /// ... playing for the club elsewhere earns, always (default 4).
    club_duty_sixths: Option<u32>,
    /// ... an absence without notice earns (default 0).
    absent_sixths: Option<u32>,
    /// How many absences with notice score (default 5).
    max_scored_absences: Option<u32>,
    /// `iterative` (default) or `per_round` (Keizer's own 1956 way).
    method: Option<String>,
    /// Rounds within which two players do not meet again while the rest can be paired
    /// (default 3).
    repeat_gap: Option<u32>,
}
