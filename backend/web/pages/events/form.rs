//! The organiser's event form: new and edit, raw text converted through one function.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use chrono::NaiveDate;
use serde::Deserialize;

use crate::service::clubs::{self, ClubView};
use crate::service::events::{self as ev, EventInput, LocalRules, settings};
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::{CsrfForm, optional_number};
use crate::web::pages::keizer;
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::clock::{self, TimeControl};
use damka_domain::keizer::{KeizerMethod, KeizerOptions, PRESETS};
use damka_domain::tournament::Colour;
use damka_domain::vocabulary::{
    BallotPer, MatchScoring, OpeningBallot, ScoringDisplay, Spelling, System, TimeCategory,
    spellings,
};
use damka_engine::Variant;

/// The event form's fields as typed.
#[derive(Deserialize, Clone, Default)]
pub struct EventForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    place: String,
    #[serde(default)]
    starts_on: String,
    #[serde(default)]
    ends_on: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    system: String,
    #[serde(default)]
    rounds: String,
    #[serde(default)]
    time_control: String,
    #[serde(default)]
    draw_offer_min_moves: String,
    #[serde(default)]
    rated: Option<String>,
    #[serde(default)]
    scoring_display: String,
    #[serde(default)]
    pab_half_points: String,
    /// Tie-breaks as typed codes (`BH/C1,BH,SB`): read when no tie-break is picked below.
    #[serde(default)]
    tiebreaks: String,
    /// Tie-breaks picked from the list, in order; empty: none at that place.
    #[serde(default)]
    tiebreak_1: String,
    #[serde(default)]
    tiebreak_2: String,
    #[serde(default)]
    tiebreak_3: String,
    #[serde(default)]
    tiebreak_4: String,
    #[serde(default)]
    tiebreak_5: String,
    #[serde(default)]
    first_colour: String,
    #[serde(default)]
    self_registration: Option<String>,
    #[serde(default)]
    late_entry_until_round: String,
    #[serde(default)]
    capture_choice: String,
    #[serde(default)]
    mandatory_capture: String,
    #[serde(default)]
    no_progress_limit: String,
    #[serde(default)]
    move_limit: String,
    #[serde(default)]
    lone_kings_limit: String,
    /// The club the event belongs to; empty: none.
    #[serde(default)]
    club_id: String,
    #[serde(default)]
    games_per_pairing: String,
    #[serde(default)]
    match_scoring: String,
    #[serde(default)]
    opening_ballot: String,
    #[serde(default)]
    ballot_per: String,
    #[serde(default)]
    custom_openings: String,
    /// A preset's stored form (`none`, `fischer:5400+30`, ...) or `custom`.
    #[serde(default)]
    clock: String,
    /// A custom control: `fischer` or `per_move`.
    #[serde(default)]
    clock_kind: String,
    #[serde(default)]
    clock_base_min: String,
    #[serde(default)]
    clock_increment_s: String,
    #[serde(default)]
    clock_per_move_s: String,
    /// A Keizer preset's code, or `custom` (or nothing): the options as typed below.
    #[serde(default)]
    keizer_preset: String,
    /// Empty: the number of entries.
    #[serde(default)]
    keizer_top_value: String,
    #[serde(default)]
    keizer_value_step: String,
    /// `yes`, `no`, or empty for the default.
    #[serde(default)]
    keizer_own_value: String,
    #[serde(default)]
    keizer_win_sixths: String,
    #[serde(default)]
    keizer_draw_sixths: String,
    #[serde(default)]
    keizer_loss_sixths: String,
    #[serde(default)]
    keizer_bye_sixths: String,
    #[serde(default)]
    keizer_excused_sixths: String,
    #[serde(default)]
    keizer_club_duty_sixths: String,
    #[serde(default)]
    keizer_absent_sixths: String,
    #[serde(default)]
    keizer_max_scored_absences: String,
    #[serde(default)]
    keizer_method: String,
    #[serde(default)]
    keizer_repeat_gap: String,
}

/// The value of the clock select for a custom control.
const CUSTOM_CLOCK: &str = "custom";

/// The value of the Keizer preset select that keeps the options as typed.
const CUSTOM_PRESET: &str = "custom";

/// A Keizer event's options from the form: a preset's when one is chosen, else the fields
/// as typed (an empty field takes the option's default; an empty top value is the number
/// of entries).
fn keizer_of(form: &EventForm) -> AppResult<KeizerOptions> {
    let preset = form.keizer_preset.trim();
    if !preset.is_empty() && preset != CUSTOM_PRESET {
        return PRESETS
            .iter()
            .find(|p| p.code == preset)
            .map(|p| p.options)
            .ok_or_else(|| {
                let mut codes: Vec<&str> = vec![CUSTOM_PRESET];
                codes.extend(PRESETS.iter().map(|p| p.code));
                AppError::invalid("keizer_preset", Refusal::not_one_of(&codes))
            });
    }
    let d = KeizerOptions::default();
    let number = |field: &'static str, value: &str, default: u32| -> AppResult<u32> {
        Ok(optional_number(field, value)?.unwrap_or(default))
    };
    Ok(KeizerOptions {
        top_value: optional_number("keizer_top_value", &form.keizer_top_value)?,
        value_step: number("keizer_value_step", &form.keizer_value_step, d.value_step)?,
        own_value: match form.keizer_own_value.trim() {
            "" => d.own_value,
            "yes" => true,
            "no" => false,
            _ => {
                return Err(AppError::invalid(
                    "keizer_own_value",
                    Refusal::not_one_of(&["yes", "no"]),
                ));
            }
        },
        win_sixths: number("keizer_win_sixths", &form.keizer_win_sixths, d.win_sixths)?,
        draw_sixths: number(
            "keizer_draw_sixths",
            &form.keizer_draw_sixths,
            d.draw_sixths,
        )?,
        loss_sixths: number(
            "keizer_loss_sixths",
            &form.keizer_loss_sixths,
            d.loss_sixths,
        )?,
        bye_sixths: number("keizer_bye_sixths", &form.keizer_bye_sixths, d.bye_sixths)?,
        excused_sixths: number(
            "keizer_excused_sixths",
            &form.keizer_excused_sixths,
            d.excused_sixths,
        )?,
        club_duty_sixths: number(
            "keizer_club_duty_sixths",
            &form.keizer_club_duty_sixths,
            d.club_duty_sixths,
        )?,
        absent_sixths: number(
            "keizer_absent_sixths",
            &form.keizer_absent_sixths,
            d.absent_sixths,
        )?,
        max_scored_absences: number(
            "keizer_max_scored_absences",
            &form.keizer_max_scored_absences,
            d.max_scored_absences,
        )?,
        method: match form.keizer_method.trim() {
            "" => d.method,
            code => KeizerMethod::ALL
                .into_iter()
                .find(|m| m.code() == code)
                .ok_or_else(|| {
                    let codes: Vec<&str> = KeizerMethod::ALL.iter().map(|m| m.code()).collect();
                    AppError::invalid("keizer_method", Refusal::not_one_of(&codes))
                })?,
        },
        repeat_gap: number("keizer_repeat_gap", &form.keizer_repeat_gap, d.repeat_gap)?,
    })
}

/// The event's time control from the form: a preset, or the custom fields.
fn clock_of(form: &EventForm) -> AppResult<TimeControl> {
    let chosen = form.clock.trim();
    if chosen.is_empty() {
        return Ok(TimeControl::Untimed);
    }
    if chosen != CUSTOM_CLOCK {
        return TimeControl::parse(chosen)
            .ok()
            .filter(|c| TimeControl::PRESETS.contains(c))
            .ok_or_else(|| {
                AppError::invalid("clock", Refusal::not_one_of(&["none", CUSTOM_CLOCK]))
            });
    }
    let seconds = |field: &'static str, value: &str, max: u32, scale: u32| -> AppResult<u32> {
        let value: u32 = optional_number(field, value)?.unwrap_or(0);
        if value > max {
            return Err(AppError::invalid(
                field,
                Refusal::NotBetween {
                    min: 0,
                    max: i64::from(max),
                },
            ));
        }
        Ok(value * scale)
    };
    let control = match form.clock_kind.trim() {
        "per_move" => TimeControl::PerMove {
            seconds: seconds(
                "clock_per_move_s",
                &form.clock_per_move_s,
                clock::MAX_INCREMENT_S,
                1,
            )?,
        },
        _ => TimeControl::Fischer {
            base_s: seconds(
                "clock_base_min",
                &form.clock_base_min,
                clock::MAX_BASE_S / 60,
                60,
            )?,
            increment_s: seconds(
                "clock_increment_s",
                &form.clock_increment_s,
                clock::MAX_INCREMENT_S,
                1,
            )?,
        },
    };
    control.validated().map_err(|e| match e {
        clock::TimeControlError::OutOfRange { field, min, max } => {
            let field = match (control, field) {
                (TimeControl::PerMove { .. }, _) => "clock_per_move_s",
                (_, "increment_s") => "clock_increment_s",
                _ => "clock_base_min",
            };
            AppError::invalid(
                field,
                Refusal::NotBetween {
                    min: i64::from(min),
                    max: i64::from(max),
                },
            )
        }
        clock::TimeControlError::Unknown(_) => {
            AppError::invalid("clock_kind", Refusal::not_one_of(&["fischer", "per_move"]))
        }
    })
}

fn date(field: &'static str, value: &str) -> AppResult<Option<NaiveDate>> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| AppError::invalid(field, Refusal::NotADate))
}

impl EventForm {
    fn of(e: &EventInput) -> EventForm {
        EventForm {
            name: e.name.clone(),
            place: e.place.clone(),
            starts_on: e.starts_on.map(|d| d.to_string()).unwrap_or_default(),
            ends_on: e.ends_on.map(|d| d.to_string()).unwrap_or_default(),
            variant: e.variant.spelling().to_string(),
            system: e.system.spelling().to_string(),
            rounds: e.rounds.to_string(),
            time_control: e.time_control.spelling().to_string(),
            draw_offer_min_moves: e.draw_offer_min_moves.to_string(),
            rated: e.rated.then(|| "1".into()),
            scoring_display: e.scoring_display.spelling().to_string(),
            pab_half_points: e.pab_half_points.to_string(),
            tiebreaks: String::new(),
            tiebreak_1: nth_tiebreak(&e.tiebreaks, 0),
            tiebreak_2: nth_tiebreak(&e.tiebreaks, 1),
            tiebreak_3: nth_tiebreak(&e.tiebreaks, 2),
            tiebreak_4: nth_tiebreak(&e.tiebreaks, 3),
            tiebreak_5: nth_tiebreak(&e.tiebreaks, 4),
            first_colour: e.first_colour.spelling().to_string(),
            self_registration: e.self_registration.then(|| "1".into()),
            late_entry_until_round: e.late_entry_until_round.to_string(),
            capture_choice: e.local_rules.capture_choice.clone().unwrap_or_default(),
            mandatory_capture: match e.local_rules.mandatory_capture {
                Some(true) => "on".into(),
                Some(false) => "off".into(),
                None => String::new(),
            },
            no_progress_limit: optional_text(e.local_rules.no_progress_limit),
            move_limit: optional_text(e.local_rules.move_limit),
            lone_kings_limit: optional_text(e.local_rules.lone_kings_limit),
            club_id: optional_text(e.club_id),
            games_per_pairing: e.games_per_pairing.to_string(),
            match_scoring: e.match_scoring.spelling().to_string(),
            opening_ballot: e.opening_ballot.spelling().to_string(),
            ballot_per: e.ballot_per.spelling().to_string(),
            custom_openings: e.custom_openings.clone(),
            clock: if TimeControl::PRESETS.contains(&e.clock) {
                e.clock.to_string()
            } else {
                CUSTOM_CLOCK.to_string()
            },
            clock_kind: e.clock.kind().to_string(),
            clock_base_min: match e.clock {
                TimeControl::Fischer { base_s, .. } => (base_s / 60).to_string(),
                _ => String::new(),
            },
            clock_increment_s: match e.clock {
                TimeControl::Fischer { increment_s, .. } => increment_s.to_string(),
                _ => String::new(),
            },
            clock_per_move_s: match e.clock {
                TimeControl::PerMove { seconds } => seconds.to_string(),
                _ => String::new(),
            },
            keizer_preset: CUSTOM_PRESET.to_string(),
            keizer_top_value: optional_text(e.keizer.top_value),
            keizer_value_step: e.keizer.value_step.to_string(),
            keizer_own_value: if e.keizer.own_value { "yes" } else { "no" }.to_string(),
            keizer_win_sixths: e.keizer.win_sixths.to_string(),
            keizer_draw_sixths: e.keizer.draw_sixths.to_string(),
            keizer_loss_sixths: e.keizer.loss_sixths.to_string(),
            keizer_bye_sixths: e.keizer.bye_sixths.to_string(),
            keizer_excused_sixths: e.keizer.excused_sixths.to_string(),
            keizer_club_duty_sixths: e.keizer.club_duty_sixths.to_string(),
            keizer_absent_sixths: e.keizer.absent_sixths.to_string(),
            keizer_max_scored_absences: e.keizer.max_scored_absences.to_string(),
            keizer_method: e.keizer.method.code().to_string(),
            keizer_repeat_gap: e.keizer.repeat_gap.to_string(),
        }
    }

    fn blank() -> EventForm {
        EventForm::of(&EventInput::default())
    }

    /// The form's text as the use cases take it: the one conversion of the event form.
    /// The settings as typed. A choice the form did not send at all takes the same
    /// default as in the API; one that was sent must be one of the choices.
    fn input(&self) -> AppResult<EventInput> {
        let defaults = EventInput::default();
        Ok(EventInput {
            name: self.name.clone(),
            place: self.place.clone(),
            starts_on: date("starts_on", &self.starts_on)?,
            ends_on: date("ends_on", &self.ends_on)?,
            variant: if self.variant.trim().is_empty() {
                defaults.variant
            } else {
                settings::parse_variant(&self.variant)?
            },
            local_rules: LocalRules {
                mandatory_capture: match self.mandatory_capture.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => None,
                },
                capture_choice: Some(self.capture_choice.clone()).filter(|c| !c.is_empty()),
                no_progress_limit: optional_number("no_progress_limit", &self.no_progress_limit)?,
                move_limit: optional_number("move_limit", &self.move_limit)?,
                lone_kings_limit: optional_number("lone_kings_limit", &self.lone_kings_limit)?,
            },
            system: choice("system", &self.system, defaults.system)?,
            rounds: optional_number("rounds", &self.rounds)?.unwrap_or(0),
            time_control: choice("time_control", &self.time_control, defaults.time_control)?,
            draw_offer_min_moves: optional_number(
                "draw_offer_min_moves",
                &self.draw_offer_min_moves,
            )?
            .unwrap_or(0),
            rated: self.rated.is_some(),
            scoring_display: choice(
                "scoring_display",
                &self.scoring_display,
                defaults.scoring_display,
            )?,
            pab_half_points: optional_number("pab_half_points", &self.pab_half_points)?
                .unwrap_or(2),
            tiebreaks: self.tiebreak_list(),
            first_colour: choice("first_colour", &self.first_colour, defaults.first_colour)?,
            self_registration: self.self_registration.is_some(),
            late_entry_until_round: optional_number(
                "late_entry_until_round",
                &self.late_entry_until_round,
            )?
            .unwrap_or(0),
            club_id: optional_number("club_id", &self.club_id)?,
            clock: clock_of(self)?,
            games_per_pairing: optional_number("games_per_pairing", &self.games_per_pairing)?
                .unwrap_or(defaults.games_per_pairing),
            match_scoring: choice("match_scoring", &self.match_scoring, defaults.match_scoring)?,
            opening_ballot: choice(
                "opening_ballot",
                &self.opening_ballot,
                defaults.opening_ballot,
            )?,
            ballot_per: choice("ballot_per", &self.ballot_per, defaults.ballot_per)?,
            custom_openings: self.custom_openings.clone(),
            keizer: keizer_of(self)?,
        })
    }
}

/// The `n`th (0-based) code of a stored tie-break list, or nothing.
fn nth_tiebreak(list: &str, n: usize) -> String {
    list.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .nth(n)
        .unwrap_or_default()
        .to_string()
}

/// The tie-breaks the form offers, in the order FIDE's and the Russian rules list them.
const TIEBREAK_CHOICES: [&str; 13] = [
    "BH/C1", "BH", "BH/C2", "BH/M1", "SB", "SB/C1", "DE", "WIN", "WON", "BPG", "ARO", "TPR",
    "BH/M2",
];

/// How many tie-breaks the form lets the organiser pick.
const TIEBREAK_PLACES: usize = 5;

impl EventForm {
    /// The picked tie-breaks joined in order (`BH/C1,BH,SB`); the typed list when none
    /// was picked (a form from an older page, or a script).
    fn tiebreak_list(&self) -> String {
        let picked: Vec<&str> = self
            .tiebreak_places()
            .into_iter()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if picked.is_empty() {
            self.tiebreaks.clone()
        } else {
            picked.join(",")
        }
    }

    fn tiebreak_places(&self) -> [&str; TIEBREAK_PLACES] {
        [
            &self.tiebreak_1,
            &self.tiebreak_2,
            &self.tiebreak_3,
            &self.tiebreak_4,
            &self.tiebreak_5,
        ]
    }
}

/// A select's value: `default` when the form did not send it, else one of the choices.
fn choice<T: Spelling>(field: &'static str, value: &str, default: T) -> AppResult<T> {
    if value.trim().is_empty() {
        Ok(default)
    } else {
        settings::one_of::<T>(field, value.trim())
    }
}

/// A form field for an optional stored value: empty when there is none.
fn optional_text(value: Option<impl ToString>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

#[derive(Template)]
#[template(path = "event_form.html")]
struct FormPage {
    ctx: Ctx,
    event_id: Option<i64>,
    form: EventForm,
    errors: FormErrors,
    /// The clubs an event may belong to, by name.
    clubs: Vec<ClubView>,
    /// The Keizer option a refusal is about (its code), to mark its input.
    keizer_invalid: String,
}

impl FormPage {
    fn club_selected(&self, club: &ClubView) -> bool {
        self.form.club_id == club.id.to_string()
    }

    fn variants(&self) -> Vec<&'static str> {
        spellings::<Variant>()
    }

    fn systems(&self) -> Vec<&'static str> {
        spellings::<System>()
    }

    fn time_controls(&self) -> Vec<&'static str> {
        spellings::<TimeCategory>()
    }

    /// The tie-break places: (field name, picked code), first to last.
    fn tiebreak_places(&self) -> Vec<(String, String)> {
        self.form
            .tiebreak_places()
            .iter()
            .enumerate()
            .map(|(i, code)| (format!("tiebreak_{}", i + 1), code.trim().to_string()))
            .collect()
    }

    /// The tie-breaks to pick from: (code, name in this event's terms); a code the event
    /// has that the list lacks (set through the API) is offered too, so saving keeps it.
    fn tiebreak_choices(&self) -> Vec<(String, String)> {
        let variant = Variant::from_spelling(&self.form.variant).unwrap_or_default();
        let system = System::from_spelling(&self.form.system).unwrap_or(System::Swiss);
        let mut codes: Vec<String> = TIEBREAK_CHOICES.iter().map(|c| c.to_string()).collect();
        for picked in self.form.tiebreak_places() {
            let picked = picked.trim();
            if !picked.is_empty() && !codes.iter().any(|c| c == picked) {
                codes.push(picked.to_string());
            }
        }
        codes
            .into_iter()
            .map(|code| {
                let name = crate::web::tiebreaks::label(self.ctx.lang, variant, system, &code);
                let label = format!("{name} ({code})");
                (code, label)
            })
            .collect()
    }

    /// The clock select's options: (value, label), the presets then a custom one.
    fn clock_choices(&self) -> Vec<(String, String)> {
        let mut choices: Vec<(String, String)> = TimeControl::PRESETS
            .iter()
            .map(|c| (c.to_string(), self.ctx.time_control(c)))
            .collect();
        choices.push((CUSTOM_CLOCK.to_string(), self.ctx.t("clock.custom")));
        choices
    }

    fn scorings(&self) -> Vec<&'static str> {
        spellings::<ScoringDisplay>()
    }

    fn colours(&self) -> Vec<&'static str> {
        spellings::<Colour>()
    }

    fn match_scorings(&self) -> Vec<&'static str> {
        spellings::<MatchScoring>()
    }

    fn ballots(&self) -> Vec<&'static str> {
        spellings::<OpeningBallot>()
    }

    fn ballot_pers(&self) -> Vec<&'static str> {
        spellings::<BallotPer>()
    }

    /// The Keizer preset select: (value, label), "as typed below" first.
    fn keizer_presets(&self) -> Vec<(String, String)> {
        let mut choices = vec![(
            CUSTOM_PRESET.to_string(),
            self.ctx.t("keizer.preset.custom"),
        )];
        choices.extend(PRESETS.iter().map(|p| {
            (
                p.code.to_string(),
                self.ctx.t(&format!("keizer.preset.{}", p.code)),
            )
        }));
        choices
    }

    /// The methods: (value, label).
    fn keizer_methods(&self) -> Vec<(String, String)> {
        KeizerMethod::ALL
            .iter()
            .map(|m| (m.code().to_string(), keizer::method(self.ctx.lang, *m)))
            .collect()
    }

    /// The Keizer number fields in the form's order: (field name, label, value as typed).
    fn keizer_numbers(&self) -> Vec<(String, String, String)> {
        let f = &self.form;
        [
            ("top_value", &f.keizer_top_value),
            ("value_step", &f.keizer_value_step),
            ("win_sixths", &f.keizer_win_sixths),
            ("draw_sixths", &f.keizer_draw_sixths),
            ("loss_sixths", &f.keizer_loss_sixths),
            ("bye_sixths", &f.keizer_bye_sixths),
            ("excused_sixths", &f.keizer_excused_sixths),
            ("club_duty_sixths", &f.keizer_club_duty_sixths),
            ("absent_sixths", &f.keizer_absent_sixths),
            ("max_scored_absences", &f.keizer_max_scored_absences),
            ("repeat_gap", &f.keizer_repeat_gap),
        ]
        .into_iter()
        .map(|(code, value)| {
            (
                format!("keizer_{code}"),
                self.ctx.t(&format!("keizer.opt.{code}")),
                value.clone(),
            )
        })
        .collect()
    }

    /// The message for a Keizer field, or the refusal of the options when it is about this
    /// one.
    fn keizer_error(&self, name: &str) -> String {
        let own = self.errors.on(name);
        if !own.is_empty() {
            return own.to_string();
        }
        if !self.keizer_invalid.is_empty() && name == format!("keizer_{}", self.keizer_invalid) {
            return self.errors.on("keizer").to_string();
        }
        String::new()
    }
}

/// The clubs the form offers: those the signed-in user may put an event in (only a club's
/// organisers may), and the club the form already shows.
async fn club_choices(state: &AppState, ctx: &Ctx, shown: &str) -> AppResult<Vec<ClubView>> {
    let actor = ctx.actor();
    let keep = shown.trim().parse::<i64>().ok();
    state
        .db(move |conn| clubs::attachable(conn, &actor, keep))
        .await
}

pub async fn new_form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
) -> AppResult<HttpResponse> {
    if !ctx.actor().is_organiser() {
        return Err(AppError::forbidden(Refusal::OnlyOrganisersCreateEvents));
    }
    let clubs = club_choices(&state, &ctx, "").await?;
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            event_id: None,
            form: EventForm::blank(),
            errors: FormErrors::none(),
            clubs,
            keizer_invalid: String::new(),
        },
    )
}

pub async fn create(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<EventForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| settings::create(conn, &actor, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(event) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{}", event.id),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let (errors, keizer_invalid) = keizer::form_errors(&err, ctx.lang).ok_or(err)?;
            let clubs = club_choices(&state, &ctx, &form.club_id).await?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    event_id: None,
                    form,
                    errors,
                    clubs,
                    keizer_invalid,
                },
            )
        }
    }
}

pub async fn edit_form(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let event = state
        .db(move |conn| {
            let event = ev::load(conn, id)?;
            ev::require_manager(&actor, &event)?;
            Ok(event)
        })
        .await?;
    let form = EventForm::of(&event.settings());
    let clubs = club_choices(&state, &ctx, &form.club_id).await?;
    render::page(
        StatusCode::OK,
        &FormPage {
            ctx,
            event_id: Some(id),
            form,
            errors: FormErrors::none(),
            clubs,
            keizer_invalid: String::new(),
        },
    )
}

pub async fn update(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<EventForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| settings::update(conn, &actor, id, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/events/{id}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let (errors, keizer_invalid) = keizer::form_errors(&err, ctx.lang).ok_or(err)?;
            let clubs = club_choices(&state, &ctx, &form.club_id).await?;
            render::page(
                StatusCode::UNPROCESSABLE_ENTITY,
                &FormPage {
                    ctx,
                    event_id: Some(id),
                    form,
                    errors,
                    clubs,
                    keizer_invalid,
                },
            )
        }
    }
}
