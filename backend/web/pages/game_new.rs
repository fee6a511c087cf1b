//! Starting a casual game from the browser: `/games/new` offers the form (an opponent
//! from the challenger's club or a name, the variant, rated or not, the clock and the
//! colour); `POST /games` creates the game through `games::challenge` and opens it. A
//! refusal shows the form again, as typed, with the reason in the reader's language.
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use damka_domain::clock::{self, TimeControl, TimeControlError};
use damka_domain::vocabulary::{Spelling, spellings};
use damka_engine::Variant;
use serde::Deserialize;

use crate::service::games::challenge::{self, ChallengeInput, ColourChoice, Opponent};
use crate::service::paging::PageRequest;
use crate::service::players::{self, PlayerFilter};
use crate::service::{Actor, AppError, AppResult, DbConn, Refusal};
use crate::web::ctx::Ctx;
use crate::web::form::{CsrfForm, optional_number};
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;

/// Club members the opponent list offers; a larger club's others are typed by name.
const CLUB_CHOICES: usize = 200;

/// The form as typed: every field kept as text so that a refused form comes back as sent.
#[derive(Debug, Clone, Deserialize)]
pub struct ChallengeForm {
    #[serde(default)]
    opponent_id: String,
    #[serde(default)]
    opponent_name: String,
    #[serde(default)]
    variant: String,
    #[serde(default)]
    rated: Option<String>,
    /// `none` or `fischer`.
    #[serde(default)]
    clock: String,
    #[serde(default)]
    clock_base_min: String,
    #[serde(default)]
    clock_increment_s: String,
    /// `white`, `black` or `random`.
    #[serde(default)]
    colour: String,
}

impl Default for ChallengeForm {
    fn default() -> ChallengeForm {
        ChallengeForm {
            opponent_id: String::new(),
            opponent_name: String::new(),
            variant: Variant::default().spelling().to_string(),
            rated: None,
            clock: "none".to_string(),
            clock_base_min: "15".to_string(),
            clock_increment_s: "10".to_string(),
            colour: "random".to_string(),
        }
    }
}

impl ChallengeForm {
    fn input(&self) -> AppResult<ChallengeInput> {
        let opponent = match optional_number::<i64>("opponent", &self.opponent_id)? {
            Some(id) => Some(Opponent::Id(id)),
            None if !self.opponent_name.trim().is_empty() => {
                Some(Opponent::Name(self.opponent_name.trim().to_string()))
            }
            None => None,
        };
        let colour = match self.colour.trim() {
            "white" => ColourChoice::White,
            "black" => ColourChoice::Black,
            "random" | "" => ColourChoice::Random,
            _ => {
                return Err(AppError::invalid(
                    "colour",
                    Refusal::not_one_of(&["white", "black", "random"]),
                ));
            }
        };
        Ok(ChallengeInput {
            opponent,
            variant: match self.variant.trim() {
                "" => Variant::default(),
                text => crate::service::events::settings::parse_variant(text)?,
            },
            rated: self.rated.is_some(),
            clock: self.clock()?,
            colour,
        })
    }

    /// No clock, or base minutes plus an increment, checked by the domain's ranges.
    fn clock(&self) -> AppResult<TimeControl> {
        match self.clock.trim() {
            "none" | "" => return Ok(TimeControl::Untimed),
            "fischer" => {}
            _ => {
                return Err(AppError::invalid(
                    "clock",
                    Refusal::not_one_of(&["none", "fischer"]),
                ));
            }
        }
        let base_min: u32 = optional_number("clock_base_min", &self.clock_base_min)?.unwrap_or(0);
        let increment_s: u32 =
            optional_number("clock_increment_s", &self.clock_increment_s)?.unwrap_or(0);
        let out_of_range = |field: &'static str, min: u32, max: u32| {
            AppError::invalid(
                field,
                Refusal::NotBetween {
                    min: i64::from(min),
                    max: i64::from(max),
                },
            )
        };
        let max_min = clock::MAX_BASE_S / 60;
        if base_min > max_min {
            return Err(out_of_range("clock_base_min", 0, max_min));
        }
        TimeControl::from_parts("fischer", base_min * 60, increment_s).map_err(|e| match e {
            TimeControlError::OutOfRange {
                field: "increment_s",
                min,
                max,
            } => out_of_range("clock_increment_s", min, max),
            TimeControlError::OutOfRange { .. } => {
                out_of_range("clock_base_min", u32::from(increment_s == 0), max_min)
            }
            TimeControlError::Unknown(_) => {
                AppError::invalid("clock", Refusal::not_one_of(&["none", "fischer"]))
            }
        })
    }
}

#[derive(Template)]
#[template(path = "game_new.html")]
struct FormPage {
    ctx: Ctx,
    form: ChallengeForm,
    errors: FormErrors,
    /// The challenger has a profile to play with.
    has_profile: bool,
    /// The other players of the challenger's club, by name.
    club_players: Vec<(i64, String)>,
}

impl FormPage {
    fn variants(&self) -> Vec<&'static str> {
        spellings::<Variant>()
    }

    fn is_chosen(&self, id: &i64) -> bool {
        self.form.opponent_id.trim() == id.to_string()
    }

    const FIELDS: [&'static str; 8] = [
        "opponent",
        "opponent_name",
        "variant",
        "rated",
        "clock",
        "clock_base_min",
        "clock_increment_s",
        "colour",
    ];

    fn general_error(&self) -> &str {
        self.errors.general(&Self::FIELDS)
    }
}

/// The other players of the challenger's club, by name (none without a profile or a club).
fn club_players(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<(i64, String)>> {
    let Some(me) = actor.user.as_ref().and_then(|u| u.player_id) else {
        return Ok(Vec::new());
    };
    let Some(club) = players::get(conn, me)?.club_id else {
        return Ok(Vec::new());
    };
    let filter = PlayerFilter {
        club: Some(club),
        ..PlayerFilter::default()
    };
    Ok(
        players::page(conn, &filter, &PageRequest::first(CLUB_CHOICES))?
            .items
            .into_iter()
            .filter(|p| p.id != me)
            .map(|p| (p.id, p.name))
            .collect(),
    )
}

async fn form_page(
    ctx: Ctx,
    state: &AppState,
    status: StatusCode,
    form: ChallengeForm,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let has_profile = actor.user.as_ref().is_some_and(|u| u.player_id.is_some());
    let club_players = state.db(move |conn| club_players(conn, &actor)).await?;
    render::page(
        status,
        &FormPage {
            ctx,
            form,
            errors,
            has_profile,
            club_players,
        },
    )
}

pub async fn new_form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
) -> AppResult<HttpResponse> {
    form_page(
        ctx,
        &state,
        StatusCode::OK,
        ChallengeForm::default(),
        FormErrors::none(),
    )
    .await
}

/// The field of the form a refusal of the game's creation belongs to.
fn on_form(err: AppError) -> AppError {
    match err {
        AppError::Invalid {
            field: "white_player_id" | "black_player_id",
            reason,
        } => AppError::Invalid {
            field: "opponent",
            reason,
        },
        other => other,
    }
}

pub async fn create(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<ChallengeForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    // A player without a profile is told so, whatever else the form says.
    let result = match challenge::own_profile(&actor).and_then(|_| form.input()) {
        Ok(input) => {
            state
                .db(move |conn| challenge::challenge(conn, &actor, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result.map_err(on_form) {
        Ok(game) => Ok(render::redirect(&format!("/games/{}", game.id))),
        Err(AppError::Forbidden {
            reason: reason @ Refusal::NoProfileToPlay,
        }) => {
            let errors = FormErrors {
                field: String::new(),
                message: crate::web::refusals::text(ctx.lang, &reason),
            };
            form_page(ctx, &state, StatusCode::FORBIDDEN, form, errors).await
        }
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            form_page(ctx, &state, StatusCode::UNPROCESSABLE_ENTITY, form, errors).await
        }
    }
}
