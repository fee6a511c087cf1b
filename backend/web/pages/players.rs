//! Player profile pages: list with search, profile, create and edit forms.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_domain::tournament::ByeKind;
use damka_domain::vocabulary::System;
use damka_engine::{Color, Variant};
use serde::Deserialize;

use crate::service::claims::{self, ChangeView, ClaimView};
use crate::service::clubs::ClubView;
use crate::service::events::Event;
use crate::service::events::reports::game_symbol;
use crate::service::games::view::{GamePlayer, GameSummary};
use crate::service::paging::PageRequest;
use crate::service::player_games::{self, PlayerGames, RoundRow};
use crate::service::players::{self, PlayerFilter, PlayerInput, PlayerView};
use crate::service::ratings::views::{self as rating_views, StepView, VariantRatings};
use crate::service::{AppError, AppResult, DbConn, Refusal, clubs};
use crate::web::ctx::Ctx;
use crate::web::form::{CsrfForm, optional_number};
use crate::web::pager::Pager;
use crate::web::pages::{keizer, micro_match};
use crate::web::rating_chart::{self, Series};
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::{PlayerChangeAction, RatingSystem, Spelling};

#[derive(Template)]
#[template(path = "players.html")]
struct ListPage {
    ctx: Ctx,
    players: Vec<PlayerView>,
    /// How many profiles the club filter leaves (none while a name is searched: counting
    /// the matches would fold every name).
    count: Option<i64>,
    pager: Pager,
    clubs: Vec<ClubView>,
    search: String,
    club: Option<i64>,
}

impl ListPage {
    /// The variants the list has a rating column for (the rarest one is on the profile).
    fn rating_columns(&self) -> &'static [Variant] {
        &[Variant::Russian, Variant::International, Variant::English]
    }

    fn club_selected(&self, id: &i64) -> bool {
        self.club == Some(*id)
    }
}

#[derive(Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    q: String,
    #[serde(default)]
    club: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let ListQuery {
        q,
        club,
        limit,
        cursor,
    } = query.into_inner();
    let club = club.trim().parse::<i64>().ok();
    let asked = PageRequest::parse(limit, cursor.as_deref())?;
    let searching = !q.trim().is_empty();
    let filter = PlayerFilter {
        club,
        search: Some(q.clone()),
    };
    let (page, count, clubs) = state
        .db(move |conn| {
            let count = if searching {
                None
            } else {
                Some(players::count(conn, club)?)
            };
            Ok((
                players::page(conn, &filter, &asked)?,
                count,
                clubs::list(conn)?,
            ))
        })
        .await?;
    render::page(
        StatusCode::OK,
        &ListPage {
            ctx,
            pager: Pager::new(&req, page.next_cursor.as_deref()),
            players: page.items,
            count,
            clubs,
            search: q,
            club,
        },
    )
}

#[derive(Template)]
#[template(path = "player.html")]
struct ShowPage {
    ctx: Ctx,
    player: PlayerView,
    can_edit: bool,
    /// Per variant the player has ratings in: both systems now, the chart, the steps.
    ratings: Vec<RatingsCard>,
    /// The player's games by event (latest events) and outside events (latest games).
    games: PlayerGames,
    /// The latest events the player is entered in; `all_events` leads to the rest.
    events: Vec<crate::service::events::Event>,
    all_events: Option<String>,
    claims: ProfileClaims,
}

/// What the profile page shows of claims, links, merges and the audit to this reader.
struct ProfileClaims {
    /// The reader manages the profile: links, merge, audit, its open claims.
    can_manage: bool,
    /// The reader's account has no profile and this one has no account: "This is me".
    may_claim: bool,
    /// The reader's latest claim on this profile.
    own_claim: Option<ClaimView>,
    /// The profile's audit (those who manage it only).
    audit: Vec<ChangeView>,
}

impl ProfileClaims {
    fn load(
        conn: &mut DbConn,
        actor: &crate::service::Actor,
        player: &PlayerView,
    ) -> AppResult<ProfileClaims> {
        let own_claim = claims::own(conn, actor)?
            .into_iter()
            .find(|c| c.player_id == player.id);
        let free = player.account.is_none();
        let without_profile = actor.user.as_ref().is_some_and(|u| u.player_id.is_none());
        Ok(ProfileClaims {
            can_manage: players::can_manage(conn, actor, player.id)?,
            may_claim: free && without_profile,
            own_claim,
            audit: claims::audit(conn, actor, player.id)?,
        })
    }

    /// The reader's claim on this profile is waiting for an answer.
    fn claim_pending(&self) -> bool {
        self.own_claim
            .as_ref()
            .is_some_and(|c| c.status == "pending")
    }
}

/// One variant's ratings as the profile shows them.
struct RatingsCard {
    ratings: VariantRatings,
    chart_svg: Option<String>,
}

/// Steps of each system the profile lists (the newest); the chart shows them all.
const PROFILE_STEPS: usize = 30;

impl RatingsCard {
    fn of(ctx: &Ctx, ratings: VariantRatings) -> RatingsCard {
        let series: Vec<Series> = ratings
            .histories
            .iter()
            .map(|(system, steps)| Series {
                label: ctx.t(&format!("ratings.system.{}", system.spelling())),
                points: steps
                    .iter()
                    .filter_map(|step| {
                        let rating = step.rating?;
                        let cause = step.event_name.clone().unwrap_or_default();
                        Some((
                            step.at.and_utc().timestamp(),
                            rating,
                            format!("{}: {rating} {cause}", ctx.date(&step.at))
                                .trim()
                                .to_string(),
                        ))
                    })
                    .collect(),
                colour: match system {
                    RatingSystem::Elo => "#8a4b1f",
                    RatingSystem::Glicko2 => "#2b6cb0",
                },
                dashed: *system == RatingSystem::Glicko2,
            })
            .collect();
        let dates: Vec<&StepView> = ratings
            .histories
            .iter()
            .flat_map(|(_, s)| s.iter())
            .collect();
        let first = dates.iter().map(|s| s.at).min();
        let last = dates.iter().map(|s| s.at).max();
        let title = ctx.tf1("ratings.chart_title", &ctx.variant_name(&ratings.variant));
        let chart_svg = rating_chart::draw(
            &series,
            &title,
            &first.map(|at| ctx.date(&at)).unwrap_or_default(),
            &last.map(|at| ctx.date(&at)).unwrap_or_default(),
        );
        RatingsCard { ratings, chart_svg }
    }

    /// The newest steps of a system, newest first.
    fn recent<'a>(&self, steps: &'a [StepView]) -> Vec<&'a StepView> {
        steps.iter().rev().take(PROFILE_STEPS).collect()
    }
}

impl ShowPage {
    /// The player's colour in a standalone game, and the opponent.
    fn standalone_side<'g>(&self, game: &'g GameSummary) -> (Color, &'g GamePlayer) {
        if game.white.player_id == self.player.id {
            (Color::White, &game.black)
        } else {
            (Color::Black, &game.white)
        }
    }

    /// "White" / «Белые».
    fn colour_name(&self, colour: &Option<Color>) -> String {
        colour.map(|c| self.side_word(&c)).unwrap_or_default()
    }

    fn side_word(&self, colour: &Color) -> String {
        self.ctx.t(&format!("game.side.{}", colour.spelling()))
    }

    /// A standalone game's result from the player's side (`1`, `½`, `0`); none while
    /// it goes on.
    fn standalone_result(&self, game: &GameSummary) -> Option<&'static str> {
        let (colour, _) = self.standalone_side(game);
        game.result
            .map(|_| game_symbol(game.result, colour == Color::White))
    }

    /// What a result mark means, for its `<abbr title>`.
    fn result_meaning(&self, symbol: &&str) -> String {
        let key = match *symbol {
            "1" => "win",
            "½" => "draw",
            "0" => "loss",
            "+" => "forfeit_win",
            "-" => "forfeit_loss",
            "--" => "double_forfeit",
            _ => "unknown",
        };
        self.ctx.t(&format!("player.result_title.{key}"))
    }

    /// A micro-match's score, the player's points first (`1½–½`, or the 2-1-0 scale).
    fn match_score(&self, event: &Event, points: &(u32, u32)) -> String {
        micro_match::score_text(event, points.0, points.1)
    }

    /// Why the player had no opponent in a round (a Keizer event by its own names).
    fn bye_text(&self, event: &Event, bye: &Option<ByeKind>) -> String {
        match bye {
            Some(kind) if event.system == System::Keizer => keizer::absence(self.ctx.lang, *kind),
            Some(kind) => self.ctx.t(&format!("event.bye.{kind}")),
            None => String::new(),
        }
    }

    /// The link to a round's game: "game", or "game 2" in a micro-match.
    fn game_link_text(&self, row: &RoundRow, number: &usize) -> String {
        if row.games.len() > 1 {
            self.ctx.tf1("micro.game_link", number)
        } else {
            self.ctx.t("event.game_link")
        }
    }

    /// Some event lists a round of the player.
    fn has_event_rounds(&self) -> bool {
        self.games.events.iter().any(|e| !e.rounds.is_empty())
    }

    /// Some current rating is provisional (the table marks it `?`).
    fn has_provisional(&self) -> bool {
        self.ratings
            .iter()
            .flat_map(|card| card.ratings.current.iter())
            .any(|r| r.rating.is_some() && r.provisional)
    }

    /// Some current rating has a deviation (the table writes it after `±`).
    fn has_deviation(&self) -> bool {
        self.ratings
            .iter()
            .flat_map(|card| card.ratings.current.iter())
            .any(|r| r.rating.is_some() && r.rd.is_some())
    }

    /// The audit shows its latest changes only: there may be older ones.
    fn audit_cut(&self) -> bool {
        self.claims.audit.len() >= claims::AUDIT_SHOWN
    }

    fn system_name(&self, system: &RatingSystem) -> String {
        self.ctx.t(&format!("ratings.system.{}", system.spelling()))
    }

    /// A change with its sign (`+12`, `−5`, `0`).
    fn signed(&self, change: &i64) -> String {
        match change {
            c if *c > 0 => format!("+{c}"),
            c if *c < 0 => format!("−{}", c.abs()),
            _ => "0".into(),
        }
    }

    /// One row of the audit, in words.
    fn audit_text(&self, change: &ChangeView) -> String {
        let other = change.other_player_id.unwrap_or_default();
        match change.action {
            PlayerChangeAction::MergedInto => self.ctx.tf1("player.audit.merged_into", &other),
            PlayerChangeAction::MergedFrom => self.ctx.tf1("player.audit.merged_from", &other),
            PlayerChangeAction::AccountLinked => self.ctx.tf1(
                "player.audit.account_linked",
                &change.account.as_deref().unwrap_or("—"),
            ),
        }
    }

    /// The reader's claim on this profile, in words (pending, accepted, declined).
    fn claim_notice(&self, claim: &ClaimView) -> String {
        self.ctx.t(&format!("claims.own.{}", claim.status))
    }

    /// What caused a step: the month of standalone games of an Elo period.
    fn month_of(&self, step: &StepView) -> String {
        self.ctx
            .tf1("ratings.month_games", &step.at.format("%m.%Y"))
    }
}

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let loaded = state
        .db(move |conn| {
            let player = players::get(conn, id)?;
            let claims = ProfileClaims::load(conn, &actor, &player)?;
            Ok((
                player,
                claims,
                players::can_edit(conn, &actor, id)?,
                rating_views::of_player(conn, id)?,
                player_games::of_player(conn, id)?,
            ))
        })
        .await;
    let (player, claims, can_edit, ratings, games) = match loaded {
        // A merged profile's page leads to the profile it was merged into, for good.
        Err(AppError::NotFoundBecause {
            reason: Refusal::PlayerMerged { into },
        }) => {
            return Ok(HttpResponse::PermanentRedirect()
                .insert_header((
                    actix_web::http::header::LOCATION,
                    format!("/players/{into}"),
                ))
                .finish());
        }
        other => other?,
    };
    let ratings = ratings
        .into_iter()
        .map(|variant| RatingsCard::of(&ctx, variant))
        .collect();
    render::page(
        StatusCode::OK,
        &ShowPage {
            ctx,
            player,
            can_edit,
            ratings,
            all_events: games.more_events.then(|| format!("/events?player_id={id}")),
            events: games.events.iter().map(|e| e.event.clone()).collect(),
            games,
            claims,
        },
    )
}

/// The form's fields as typed (strings), so a bad value can be shown back as it was.
#[derive(Deserialize, Default, Clone)]
pub struct PlayerForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    club_id: String,
    #[serde(default)]
    country: String,
    #[serde(default)]
    federation_id: String,
    #[serde(default)]
    birth_year: String,
    #[serde(default)]
    title: String,
}

impl PlayerForm {
    fn of(player: &PlayerView) -> PlayerForm {
        PlayerForm {
            name: player.name.clone(),
            club_id: player.club_id.map(|c| c.to_string()).unwrap_or_default(),
            country: player.country.clone(),
            federation_id: player.federation_id.clone(),
            birth_year: player.birth_year.map(|y| y.to_string()).unwrap_or_default(),
            title: player.title.clone(),
        }
    }

    fn input(&self) -> AppResult<PlayerInput> {
        Ok(PlayerInput {
            name: self.name.clone(),
            club_id: optional_number("club_id", &self.club_id)?,
            country: self.country.clone(),
            federation_id: self.federation_id.clone(),
            birth_year: optional_number("birth_year", &self.birth_year)?,
            title: self.title.clone(),
        })
    }
}

#[derive(Template)]
#[template(path = "player_form.html")]
struct FormPage {
    ctx: Ctx,
    /// `None` when creating.
    player_id: Option<i64>,
    form: PlayerForm,
    clubs: Vec<ClubView>,
    /// The country list by name in the reader's language, the form's country selected.
    countries: Vec<crate::web::countries::CountryOption>,
    errors: FormErrors,
}

async fn form_page(
    ctx: Ctx,
    state: &AppState,
    status: StatusCode,
    player_id: Option<i64>,
    form: PlayerForm,
    errors: FormErrors,
) -> AppResult<HttpResponse> {
    let clubs = state.db(clubs::list).await?;
    let countries = crate::web::countries::options(ctx.lang, &form.country);
    render::page(
        status,
        &FormPage {
            ctx,
            player_id,
            form,
            clubs,
            countries,
            errors,
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
        None,
        PlayerForm::default(),
        FormErrors::none(),
    )
    .await
}

pub async fn create(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    CsrfForm(form): CsrfForm<PlayerForm>,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let submitted = form.clone();
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| players::create(conn, &actor, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(player) => Ok(render::redirect_with_flash(
            &req,
            &format!("/players/{}", player.id),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            form_page(
                ctx,
                &state,
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                submitted,
                errors,
            )
            .await
        }
    }
}

pub async fn edit_form(
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let player = state
        .db(move |conn| {
            let player = players::get(conn, id)?;
            if !players::can_edit(conn, &actor, id)? {
                return Err(crate::service::AppError::forbidden(
                    crate::service::Refusal::MayNotEditProfile,
                ));
            }
            Ok(player)
        })
        .await?;
    form_page(
        ctx,
        &state,
        StatusCode::OK,
        Some(id),
        PlayerForm::of(&player),
        FormErrors::none(),
    )
    .await
}

pub async fn update(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<PlayerForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let actor = ctx.actor();
    let submitted = form.clone();
    let result = match form.input() {
        Ok(input) => {
            state
                .db(move |conn| players::update(conn, &actor, id, &input))
                .await
        }
        Err(err) => Err(err),
    };
    match result {
        Ok(_) => Ok(render::redirect_with_flash(
            &req,
            &format!("/players/{id}"),
            "ok",
            "flash.saved",
        )),
        Err(err) => {
            let errors = FormErrors::from_error(&err, ctx.lang).ok_or(err)?;
            form_page(
                ctx,
                &state,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(id),
                submitted,
                errors,
            )
            .await
        }
    }
}
