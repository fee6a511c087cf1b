use actix_web::web;
use askama::Template;
use askama_web::WebTemplate;

use crate::service::accounts::{self, RegistrationMode};
use crate::service::claims::{self, ClaimView};
use crate::service::events::{Event, settings};
use crate::service::games::GameFilter;
use crate::service::games::view::{self as games, GameInProgress, GameSummary};
use crate::service::paging::PageRequest;
use crate::service::players::{self, SiteSummary, TopPlayer};
use crate::service::start_here::{self, Step};
use crate::service::{AppResult, DbConn};
use crate::web::ctx::Ctx;
use crate::web::i18n::{Lang, SUPPORTED};
use crate::web::state::AppState;
use crate::web::svg;
use damka_domain::vocabulary::{EventStatus, GameStatus, ScoringDisplay};

#[derive(Template, WebTemplate)]
#[template(path = "home.html")]
pub struct HomePage {
    ctx: Ctx,
    player_count: i64,
    club_count: i64,
    top: Vec<TopPlayer>,
    board_svg: String,
    /// The viewer's games in progress, those where it is their move first.
    my_games: Vec<GameInProgress>,
    /// Events being played now and events taking entries (a few of each).
    running: Vec<Event>,
    upcoming: Vec<Event>,
    /// The latest finished games, newest first.
    latest: Vec<GameSummary>,
    /// Open claims on profiles the reader manages (an organiser's start page).
    pending_claims: Vec<ClaimView>,
    claims_back: &'static str,
    /// The page of all of them, when more wait than the start page shows.
    claims_more: Option<&'static str>,
    /// A new site's first steps, for an administrator, until all are done.
    start_here: Vec<Step>,
    /// How visitors register: openly, or with an invitation code.
    registration: RegistrationMode,
}

/// How many events of each kind and finished games the home page lists.
const HOME_LIST: usize = 5;

impl HomePage {
    /// A finished game's result as boards print it (½-½).
    fn result_text(&self, game: &GameSummary) -> String {
        game.result
            .map(|r| r.shown(ScoringDisplay::OneHalfZero, false))
            .unwrap_or_default()
    }
}

/// How many of the viewer's games the home page watches live: each is a stream, and a
/// browser keeps at most six connections to one site over HTTP/1.1.
const LIVE_GAMES: usize = 3;

impl HomePage {
    fn by_invitation(&self) -> bool {
        self.registration == RegistrationMode::Invitation
    }

    fn live_key(&self, game: &GameInProgress) -> String {
        crate::web::live_keys::turn(game.ply)
    }
}

pub async fn home(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HomePage> {
    let actor = ctx.actor();
    let (
        SiteSummary {
            player_count,
            club_count,
            top,
        },
        my_games,
        events,
        latest,
        pending_claims,
        (start_here, registration),
    ) = state
        .db(move |conn| {
            Ok((
                players::site_summary(conn, 10)?,
                games::in_progress_of(conn, &actor)?,
                (
                    of_status(conn, EventStatus::Running)?,
                    of_status(conn, EventStatus::Registration)?,
                ),
                games::list(
                    conn,
                    &GameFilter {
                        status: Some(GameStatus::Finished),
                        limit: HOME_LIST as i64,
                        ..GameFilter::default()
                    },
                )?,
                claims::pending_for(
                    conn,
                    &actor,
                    None,
                    &PageRequest::first(super::clubs::CLAIMS_SHOWN),
                )?,
                (
                    start_here::steps(conn, &actor)?,
                    accounts::registration_mode(conn)?,
                ),
            ))
        })
        .await?;
    let (running, upcoming) = events;
    let board_svg = start_board(ctx.lang);
    Ok(HomePage {
        ctx,
        player_count,
        club_count,
        top,
        board_svg,
        my_games,
        running,
        upcoming,
        latest,
        claims_more: pending_claims.next_cursor.as_ref().map(|_| "/claims"),
        pending_claims: pending_claims.items,
        claims_back: "/",
        start_here,
        registration,
    })
}

/// The first few events of a status, newest first.
fn of_status(conn: &mut DbConn, status: EventStatus) -> AppResult<Vec<Event>> {
    let first = PageRequest::first(HOME_LIST);
    let filter = settings::ListFilter {
        status: Some(status),
        archived: Some(false),
        ..Default::default()
    };
    Ok(settings::list(conn, filter, &first)?.items)
}

/// The decorative start position, drawn once per language (it never changes).
fn start_board(lang: Lang) -> String {
    static BOARDS: std::sync::OnceLock<Vec<(Lang, String)>> = std::sync::OnceLock::new();
    let boards = BOARDS.get_or_init(|| {
        SUPPORTED
            .iter()
            .map(|l| (*l, svg::russian_start_board(&l.t("home.board_title"))))
            .collect()
    });
    boards
        .iter()
        .find(|(l, _)| *l == lang)
        .map(|(_, svg)| svg.clone())
        .unwrap_or_default()
}
