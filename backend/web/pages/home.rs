use actix_web::web;
use askama::Template;
use askama_web::WebTemplate;

use crate::service::AppResult;
use crate::store;
use crate::web::ctx::Ctx;
use crate::web::i18n::{Lang, SUPPORTED};
use crate::web::state::AppState;
use crate::web::svg;

/// A row of the home page's top-rated list.
pub struct TopPlayer {
    pub id: i64,
    pub name: String,
    pub club: String,
    pub rating: i64,
}

#[derive(Template, WebTemplate)]
#[template(path = "home.html")]
pub struct HomePage {
    ctx: Ctx,
    player_count: i64,
    club_count: i64,
    top: Vec<TopPlayer>,
    board_svg: String,
}

pub async fn home(ctx: Ctx, state: web::Data<AppState>) -> AppResult<HomePage> {
    let ((player_count, club_count), top) = state
        .db(|conn| {
            Ok((
                store::players::counts(conn)?,
                store::players::top_rated(conn, damka_engine::Variant::Russian, 10)?,
            ))
        })
        .await?;
    let top = top
        .into_iter()
        .map(|(id, name, club, rating)| TopPlayer {
            id,
            name,
            club: club.unwrap_or_default(),
            rating: i64::from(rating),
        })
        .collect();
    let board_svg = start_board(ctx.lang);
    Ok(HomePage {
        ctx,
        player_count,
        club_count,
        top,
        board_svg,
    })
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
