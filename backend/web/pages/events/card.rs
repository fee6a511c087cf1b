//! A player's card in the event.
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

use crate::service::AppResult;
use crate::service::events::reports::{self, KeizerCardRound, MicroMatchGames, PlayerCardView};
use crate::service::events::{Event, settings};
use crate::web::ctx::Ctx;
use crate::web::pages::keizer;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::ScoringDisplay;

#[derive(Template)]
#[template(path = "event_card.html")]
struct CardPage {
    ctx: Ctx,
    event: Event,
    card: PlayerCardView,
    chart_svg: String,
}

impl CardPage {
    /// Points on the event's scale (doubled on 2-1-0), as on the standings tab.
    fn points(&self, half_points: &u32) -> String {
        self.ctx.event_points(&self.event, *half_points)
    }

    /// A micro-match's games from the player's side: `1 · ½`.
    fn games_text(&self, games: &MicroMatchGames) -> String {
        games.symbols.join(" · ")
    }

    /// Its score, the player's points first: `1½–½`.
    fn score(&self, games: &MicroMatchGames) -> String {
        crate::web::pages::micro_match::score_text(&self.event, games.mine, games.theirs)
    }

    /// A Keizer score in sixths as the reader writes numbers (`71.5`, `83,33`).
    fn keizer_points(&self, sixths: &u64) -> String {
        keizer::points(self.ctx.lang, *sixths)
    }

    /// What happened in a Keizer round, in words.
    fn keizer_outcome(&self, round: &KeizerCardRound) -> String {
        keizer::outcome(self.ctx.lang, &round.outcome)
    }

    /// The share of the value a round earned: `1`, `½`, `⅔`.
    fn keizer_share(&self, round: &KeizerCardRound) -> String {
        keizer::share(round.share_sixths)
    }

    /// The own value counted once, when the event counts it: the value number.
    fn own_value(&self, sixths: &u64) -> Option<u64> {
        (self.event.keizer.own_value && *sixths > 0).then_some(*sixths / 6)
    }
}

/// A player's card: opponents, colours, results, running score and performance.
pub async fn card(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(i64, u32)>,
) -> AppResult<HttpResponse> {
    let (id, start_no) = path.into_inner();
    let (event, card) = state
        .db(move |conn| {
            Ok((
                settings::get(conn, id)?,
                reports::player_card(conn, id, start_no)?,
            ))
        })
        .await?;
    let points: Vec<(String, i64)> = card
        .rounds
        .iter()
        .map(|r| (r.round.to_string(), i64::from(r.running_half_points)))
        .collect();
    // The chart's values are half-points: two per point on 1-½-0, one per point on 2-1-0.
    let per_point = if event.scoring_display == ScoringDisplay::TwoOneZero {
        1
    } else {
        2
    };
    // Labelled as the tables write points (4,5 in Russian; doubled on 2-1-0).
    let lang = ctx.lang;
    let label = move |half_points: i64| lang.points(half_points * 2 / per_point);
    let chart_svg =
        crate::web::svg::line_chart_with(&points, &ctx.t("event.running_score"), &label);
    render::page(
        StatusCode::OK,
        &CardPage {
            ctx,
            event,
            card,
            chart_svg,
        },
    )
}
