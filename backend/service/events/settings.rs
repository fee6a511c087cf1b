//! Creating and changing an event's settings.
use std::str::FromStr;

use damka_engine::Variant;

pub use super::EventInput;
use super::{load, require_manager};
use crate::service::effects::{self, Effects};
use crate::service::paging::{Page, PageRequest};
use crate::service::{Actor, AppError, AppResult, Refusal, validate};
pub use crate::store::events::ListFilter;
use crate::store::models::Event;
pub use crate::store::models::LocalRules;
use crate::store::{self, DbConn, events};
use damka_domain::pairing_system::{PairingSettings, PairingSystem};
use damka_domain::vocabulary::{EventStatus, Spelling, TimeCategory, spellings};

/// The most rounds a season whose rounds the organiser may leave open (Keizer) can plan:
/// a year of weekly club nights with room to spare.
pub const MAX_OPEN_ROUNDS: i32 = damka_domain::keizer::MAX_ROUNDS as i32;

/// Reads a choice as a form posts it (its spelling), naming the field and the choices
/// when it is none of them.
pub fn one_of<T: Spelling>(field: &'static str, value: &str) -> AppResult<T> {
    let allowed = spellings::<T>();
    if let Some(choice) = T::from_spelling(value) {
        Ok(choice)
    } else {
        Err(AppError::invalid(field, Refusal::not_one_of(&allowed)))
    }
}

/// Reads a variant name as typed in a form or given with a file.
pub fn parse_variant(text: &str) -> AppResult<Variant> {
    let variant = Variant::from_str(text.trim())
        .map_err(|_| AppError::invalid("variant", Refusal::not_one_of(&spellings::<Variant>())))?;
    Ok(variant)
}

/// The settings checked, and completed where the organiser left them to the system.
fn fields(conn: &mut DbConn, input: &EventInput) -> AppResult<EventInput> {
    let name = validate::required("name", &input.name, 120)?;
    let place = validate::optional("place", &input.place, 120)?;
    let system = input.system;
    input
        .keizer
        .check()
        .map_err(|e| AppError::invalid("keizer", Refusal::from(e)))?;
    let pairing = damka_domain::pairing_system::choose(PairingSettings {
        system,
        games_per_pairing: input.games_per_pairing,
        keizer: input.keizer,
    });
    let rounds = planned_rounds(pairing.as_ref(), input.rounds)?;
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
        pairing
            .standings_kind()
            .default_tiebreaks()
            .iter()
            .map(|t| t.code())
            .collect::<Vec<_>>()
            .join(",")
    } else {
        let parsed = damka_domain::tiebreak::parse_tiebreak_list(input.tiebreaks.trim())
            .map_err(|e| AppError::invalid("tiebreaks", e.into()))?;
        parsed
            .iter()
            .map(|t| t.code())
            .collect::<Vec<_>>()
            .join(",")
    };
    crate::service::games::create::check_local_rules(&input.local_rules)?;
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
    if !(1..=2).contains(&input.games_per_pairing) {
        return Err(AppError::invalid(
            "games_per_pairing",
            Refusal::NotBetween { min: 1, max: 2 },
        ));
    }
    let custom_openings =
        super::ballot::check_setting(input.variant, input.opening_ballot, &input.custom_openings)?;
    Ok(EventInput {
        name,
        place,
        starts_on,
        ends_on,
        variant: input.variant,
        local_rules: input.local_rules.clone(),
        system,
        rounds,
        time_control: match input.clock.category() {
            Some(category) => TimeCategory::of(category),
            None => input.time_control,
        },
        clock: input.clock,
        draw_offer_min_moves: input.draw_offer_min_moves,
        rated: input.rated,
        scoring_display: input.scoring_display,
        pab_half_points: input.pab_half_points,
        tiebreaks,
        first_colour: input.first_colour,
        self_registration: input.self_registration,
        late_entry_until_round: if pairing.field_is_fixed() {
            0
        } else {
            input.late_entry_until_round
        },
        club_id: input.club_id,
        games_per_pairing: input.games_per_pairing,
        match_scoring: input.match_scoring,
        opening_ballot: input.opening_ballot,
        ballot_per: input.ballot_per,
        custom_openings,
        keizer: input.keizer,
    })
}

/// The rounds the organiser plans, checked: none when the system fixes them (set when the
/// first round is paired), 0 (open) or up to [`MAX_OPEN_ROUNDS`] for a season the
/// system lets stay open, else 1 to 30.
fn planned_rounds(pairing: &dyn PairingSystem, rounds: i32) -> AppResult<i32> {
    if !pairing.organiser_sets_rounds() {
        Ok(0)
    } else if pairing.rounds_may_stay_open() {
        if (0..=MAX_OPEN_ROUNDS).contains(&rounds) {
            Ok(rounds)
        } else {
            Err(AppError::invalid(
                "rounds",
                Refusal::KeizerRoundsOutOfRange {
                    max: MAX_OPEN_ROUNDS,
                },
            ))
        }
    } else if (1..=30).contains(&rounds) {
        Ok(rounds)
    } else {
        Err(AppError::invalid(
            "rounds",
            Refusal::SwissRoundsOutOfRange { min: 1, max: 30 },
        ))
    }
}

/// Only a club's organisers (and administrators) put an event in the club, so that it shows
/// on the club's page; an event keeps the club it already has.
fn check_club(
    conn: &mut DbConn,
    actor: &Actor,
    current: Option<i64>,
    wanted: Option<i64>,
) -> AppResult<()> {
    match wanted {
        Some(club) if wanted != current && !crate::service::clubs::can_edit(conn, actor, club)? => {
            Err(AppError::forbidden(Refusal::NotClubOrganiser))
        }
        Some(club) if wanted != current => {
            crate::service::archived::require_club_not_archived(conn, club)
        }
        _ => Ok(()),
    }
}

/// Organisers and administrators create events; the creator owns it.
pub fn create(conn: &mut DbConn, actor: &Actor, input: &EventInput) -> AppResult<Event> {
    let user = actor.require_user()?;
    if !actor.is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateEvents));
    }
    conn.write_transaction(|conn| {
        let fields = fields(conn, input)?;
        check_club(conn, actor, None, fields.club_id)?;
        let event = events::insert(
            conn,
            &fields.row(),
            user.id,
            EventStatus::Registration,
            store::now(),
        )?;
        Ok(event)
    })
}

/// Changes the settings. Once a round has been paired the variant and the system are
/// fixed (the games and the schedule depend on them).
pub fn update(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    input: &EventInput,
) -> AppResult<Event> {
    let (updated, effects) = super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if event.status == EventStatus::Finished {
            return Err(AppError::conflict(Refusal::EventFinishedReopenToChange));
        }
        let mut fields = fields(conn, input)?;
        check_club(conn, actor, event.club_id, fields.club_id)?;
        let paired = events::rounds(conn, event_id)?;
        if !paired.is_empty() {
            if fields.variant != event.variant {
                return Err(AppError::invalid("variant", Refusal::FixedOncePaired));
            }
            if fields.system != event.system {
                return Err(AppError::invalid("system", Refusal::FixedOncePaired));
            }
            // The games a pairing plays decide what every result of the event means.
            if fields.games_per_pairing != event.games_per_pairing {
                return Err(AppError::invalid(
                    "games_per_pairing",
                    Refusal::FixedOncePaired,
                ));
            }
            let pairing = damka_domain::pairing_system::choose(PairingSettings {
                system: fields.system,
                games_per_pairing: fields.games_per_pairing,
                keizer: fields.keizer,
            });
            if !pairing.organiser_sets_rounds() {
                fields.rounds = event.rounds;
            } else if fields.rounds != 0 && (fields.rounds as usize) < paired.len() {
                return Err(AppError::invalid("rounds", Refusal::FewerRoundsThanPaired));
            }
        }
        let updated = events::update(conn, event_id, &fields.row())?;
        let mut effects = Effects::none();
        // Whether the event is rated decides whether its results count.
        if updated.rated != event.rated && !paired.is_empty() {
            effects.results_changed(
                conn,
                updated.variant,
                crate::store::ratings::Scope::Event(event_id),
            )?;
        }
        Ok((updated, effects))
    })?;
    effects::apply(conn, effects);
    Ok(updated)
}

pub fn get(conn: &mut DbConn, event_id: i64) -> AppResult<Event> {
    load(conn, event_id)
}

/// A page of the events (of a status, a club, a player, or all), newest first: by start
/// day, undated events last, then the latest created first.
pub fn list(
    conn: &mut DbConn,
    filter: events::ListFilter,
    page: &PageRequest<events::ListKey>,
) -> AppResult<Page<Event>> {
    let rows = events::page(conn, filter, page.after, page.fetch())?;
    Ok(Page::from_rows(rows, page.limit, |e| (e.starts_on, e.id)))
}

/// The filters of an events list as typed (page form or API query): empty text is no filter.
#[derive(Debug, Clone, Default)]
pub struct ListFilterText {
    pub status: Option<String>,
    pub club_id: Option<i64>,
    pub player_id: Option<i64>,
    pub variant: Option<String>,
    pub year: Option<i64>,
    /// Words of the event's name, in any order.
    pub q: Option<String>,
    /// The archived events instead of the others.
    pub archived: bool,
}

/// The years an events list can be filtered by (as event dates are accepted).
const FIRST_YEAR: i32 = 1900;
const LAST_YEAR: i32 = 2200;

impl ListFilterText {
    /// Reads every filter, refusing the first bad one by its field.
    pub fn read(&self) -> AppResult<events::ListFilter> {
        let variant = match self.variant.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(parse_variant(text)?),
        };
        let year = match self.year {
            None => None,
            Some(year) => Some(
                i32::try_from(year)
                    .ok()
                    .filter(|y| (FIRST_YEAR..=LAST_YEAR).contains(y))
                    .ok_or_else(|| {
                        AppError::invalid(
                            "year",
                            Refusal::YearOutOfRange {
                                first: FIRST_YEAR,
                                last: LAST_YEAR,
                            },
                        )
                    })?,
            ),
        };
        Ok(events::ListFilter {
            status: status_filter(self.status.as_deref())?,
            club_id: self.club_id,
            player_id: self.player_id,
            variant,
            year,
            name: self
                .q
                .as_deref()
                .and_then(damka_domain::names::NameQuery::parse),
            archived: Some(self.archived),
        })
    }
}

/// Reads a list's `status` filter as typed: empty is every status.
pub fn status_filter(text: Option<&str>) -> AppResult<Option<EventStatus>> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => one_of::<EventStatus>("status", text).map(Some),
    }
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
        events::set_status(conn, event_id, EventStatus::Finished)?;
        Ok(())
    })
}

/// Reopens a finished event (the organiser), so that results can be corrected or more
/// rounds paired; the corrections keep their audit trail as before.
pub fn reopen(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<()> {
    super::write(conn, event_id, |conn, event| {
        require_manager(actor, &event)?;
        if event.status != EventStatus::Finished {
            return Err(AppError::conflict(Refusal::EventNotFinished));
        }
        let paired = !events::rounds(conn, event_id)?.is_empty();
        let status = if paired {
            EventStatus::Running
        } else {
            EventStatus::Registration
        };
        events::set_status(conn, event_id, status)?;
        Ok(())
    })
}
