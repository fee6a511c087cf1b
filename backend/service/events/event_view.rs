//! An event as the API shows it (`EventView` in the OpenAPI document), converted from its
//! stored row.
use chrono::NaiveDate;
use damka_domain::clock::TimeControl;
use damka_domain::tournament::Colour;
use damka_engine::Variant;
use serde::Serialize;

use super::event_input::KeizerOptionsJson;
use super::{Event, LocalRules};
use crate::store::time_control::{self, TimeControlJson};
use damka_domain::keizer::KeizerOptions;
use damka_domain::vocabulary::{
    BallotPer, EventStatus, MatchScoring, OpeningBallot, ScoringDisplay, System, TimeCategory,
    spelled,
};

/// An event as pages and the API show it.
// The row (`store::models::Event`) without what only the store keeps (its creation time
// and revision), field for field and in the same order, so the JSON is what it was when
// the row itself was serialised.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct EventView {
    pub id: i64,
    pub name: String,
    pub place: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub variant: Variant,
    pub local_rules: LocalRules,
    #[schema(value_type = String)]
    pub system: System,
    pub rounds: i32,
    #[schema(value_type = String)]
    pub time_control: TimeCategory,
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    #[schema(value_type = String)]
    pub scoring_display: ScoringDisplay,
    pub pab_half_points: i32,
    pub tiebreaks: String,
    #[serde(with = "spelled")]
    #[schema(value_type = String)]
    pub first_colour: Colour,
    #[schema(value_type = String)]
    pub status: EventStatus,
    pub self_registration: bool,
    pub late_entry_until_round: i32,
    pub organiser_id: i64,
    pub club_id: Option<i64>,
    /// The clock its games are played with.
    #[serde(with = "time_control::json")]
    #[schema(value_type = TimeControlJson)]
    pub clock: TimeControl,
    /// 1, or 2: a micro-match, the second game with colours swapped.
    pub games_per_pairing: i32,
    /// How a micro-match scores: `game_points` or `match_points` (2/1/0).
    #[schema(value_type = String)]
    pub match_scoring: MatchScoring,
    /// `none`, `idf64`, `fmjd64`, `basic150`, `english3` or `custom`.
    #[schema(value_type = String)]
    pub opening_ballot: OpeningBallot,
    /// `pairing` (every board draws its own opening) or `round` (one for all boards).
    #[schema(value_type = String)]
    pub ballot_per: BallotPer,
    /// The organiser's own table (`custom`): one opening a line, moves or a FEN.
    pub custom_openings: String,
    /// System `keizer` only: the options, every one spelled out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<KeizerOptionsJson>)]
    pub keizer: Option<KeizerOptions>,
    /// When it was archived (left out of the lists, closed to changes); null when it is not.
    #[serde(serialize_with = "crate::service::utc_json::optional")]
    pub archived_at: Option<chrono::NaiveDateTime>,
}

impl From<Event> for EventView {
    fn from(event: Event) -> EventView {
        EventView {
            id: event.id,
            name: event.name,
            place: event.place,
            starts_on: event.starts_on,
            ends_on: event.ends_on,
            variant: event.variant,
            local_rules: event.local_rules,
            system: event.system,
            rounds: event.rounds,
            time_control: event.time_control,
            draw_offer_min_moves: event.draw_offer_min_moves,
            rated: event.rated,
            scoring_display: event.scoring_display,
            pab_half_points: event.pab_half_points,
            tiebreaks: event.tiebreaks,
            first_colour: event.first_colour,
            status: event.status,
            self_registration: event.self_registration,
            late_entry_until_round: event.late_entry_until_round,
            organiser_id: event.organiser_id,
            club_id: event.club_id,
            clock: event.clock,
            games_per_pairing: event.games_per_pairing,
            match_scoring: event.match_scoring,
            opening_ballot: event.opening_ballot,
            ballot_per: event.ballot_per,
            keizer: (event.system == System::Keizer).then_some(event.keizer),
            custom_openings: event.custom_openings,
            archived_at: event.archived_at,
        }
    }
}
