use actix_web::web;
use askama::Template;
use askama_web::WebTemplate;

use crate::service::players::{self, SiteSummary, TopPlayer};
use crate::service::{AppResult, games};
use crate::store::games::GameFilter;
use crate::store::values::GameStatus;
use crate::web::ctx::Ctx;
use crate::web::i18n::{Lang, SUPPORTED};
use crate::web::state::AppState;
use crate::web::svg;
use damka_engine::Color;

#[derive(Template, WebTemplate)]
#[template(path = "home.html")]
pub struct HomePage {
    ctx: Ctx,
    player_count: i64,
    club_count: i64,
    top: Vec<TopPlayer>,
    board_svg: String,
    /// The viewer's games in progress, those where it is their move first.
    my_games: Vec<MyGame>,
}

/// A game of the viewer's in progress, as the home page lists it.
pub struct MyGame {
    pub id: i64,
    pub opponent: String,
    pub my_move: bool,
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
    ) = state
        .db(move |conn| Ok((players::site_summary(conn, 10)?, my_games(conn, &actor)?)))
        .await?;
    let board_svg = start_board(ctx.lang);
    Ok(HomePage {
        ctx,
        player_count,
        club_count,
        top,
        board_svg,
        my_games,
    })
}

/// The viewer's ongoing games, those where it is their move first.
fn my_games(
    conn: &mut crate::store::DbConn,
    actor: &crate::service::Actor,
) -> AppResult<Vec<MyGame>> {
    let Some(me) = actor.user.as_ref().and_then(|u| u.player_id) else {
        return Ok(Vec::new());
    };
    let ongoing = games::view::list(
        conn,
        &GameFilter {
            player_id: Some(me),
            status: Some(GameStatus::Ongoing),
            limit: 50,
            ..GameFilter::default()
        },
    )?;
    let mut mine: Vec<MyGame> = ongoing
        .into_iter()
        .map(|g| {
            let (my_side, opponent) = if g.white.player_id == me {
                (Color::White, g.black.name)
            } else {
                (Color::Black, g.white.name)
            };
            MyGame {
                id: g.id,
                opponent,
                my_move: g.side_to_move == my_side,
            }
        })
        .collect();
    mine.sort_by_key(|g| !g.my_move);
    Ok(mine)
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
