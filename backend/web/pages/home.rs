use actix_web::web;
use askama::Template;
use askama_web::WebTemplate;

use crate::service::{AppResult, players};
use crate::store;
use crate::web::ctx::Ctx;
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
    let (player_count, club_count, all) = state
        .db(|conn| {
            Ok((
                store::players::count(conn)?,
                store::clubs::count(conn)?,
                players::list(conn, None, None)?,
            ))
        })
        .await?;
    let mut top: Vec<TopPlayer> = all
        .into_iter()
        .filter_map(|p| {
            let rating = p.ratings.iter().find(|r| r.variant == "russian")?.rating;
            Some(TopPlayer {
                id: p.id,
                name: p.name,
                club: p.club_name.unwrap_or_default(),
                rating: i64::from(rating),
            })
        })
        .collect();
    top.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.name.cmp(&b.name)));
    top.truncate(10);
    let board_svg = svg::russian_start_board(&ctx.t("home.board_title"));
    Ok(HomePage {
        ctx,
        player_count,
        club_count,
        top,
        board_svg,
    })
}
