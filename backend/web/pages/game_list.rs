//! The list of games, a page at a time, by player, event and status (the player page links
//! here for more than its latest games).
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use crate::service::games::GameFilter;
use crate::service::games::view::{self, GameSummary};
use crate::service::paging::PageRequest;
use crate::service::{AppError, AppResult, Refusal};
use crate::web::ctx::Ctx;
use crate::web::pager::Pager;
use crate::web::render;
use crate::web::state::AppState;
use damka_domain::vocabulary::{GameStatus, Spelling, spellings};

/// The list's query as typed: empty fields mean "no filter".
#[derive(Debug, Deserialize, Default)]
pub struct ListQuery {
    #[serde(default)]
    player_id: String,
    #[serde(default)]
    event_id: String,
    #[serde(default)]
    status: String,
    limit: Option<i64>,
    cursor: Option<String>,
}

impl ListQuery {
    fn filter(&self) -> AppResult<GameFilter> {
        let id = crate::web::form::optional_number::<i64>;
        let status = match self.status.trim() {
            "" => None,
            text => Some(GameStatus::from_spelling(text).ok_or_else(|| {
                AppError::invalid("status", Refusal::not_one_of(&spellings::<GameStatus>()))
            })?),
        };
        Ok(GameFilter {
            player_id: id("player_id", &self.player_id)?,
            event_id: id("event_id", &self.event_id)?,
            status,
            ..GameFilter::default()
        })
    }
}

#[derive(Template)]
#[template(path = "game_list.html")]
struct ListPage {
    ctx: Ctx,
    games: Vec<GameSummary>,
    pager: Pager,
}

impl ListPage {
    fn result_text(&self, game: &GameSummary) -> String {
        match game.result {
            Some(result) => result.to_string(),
            None => self.ctx.t("game.in_progress"),
        }
    }
}

pub async fn list(
    req: HttpRequest,
    ctx: Ctx,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> AppResult<HttpResponse> {
    let filter = query.filter()?;
    let page = PageRequest::parse(query.limit, query.cursor.as_deref())?;
    let games = state
        .db(move |conn| view::page(conn, &filter, &page))
        .await?;
    let pager = Pager::new(&req, games.next_cursor.as_deref());
    render::page(
        StatusCode::OK,
        &ListPage {
            ctx,
            games: games.items,
            pager,
        },
    )
}
