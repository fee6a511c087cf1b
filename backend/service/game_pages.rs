//! What the game page reads: the game, its view, who is looking (their side or arbiter
//! rights), the event's name and which draw-offer buttons apply. One call, so the page
//! asks the service only and never the store.
use damka_engine::Color;

use crate::service::games::offers;
use crate::service::games::{self, GameView, Loaded, Role};
use crate::service::{Actor, AppResult};
use crate::store::games::GameState;
use crate::store::{DbConn, events};
use damka_domain::vocabulary::GameStatus;

/// The game page's data for `actor`.
pub struct GamePageData {
    pub loaded: Loaded,
    pub view: GameView,
    pub role: Option<Role>,
    pub is_arbiter: bool,
    /// The name of the game's event; `None` for a game of no event.
    pub event_name: Option<String>,
    /// The viewer may offer a draw now.
    pub may_offer: bool,
    /// The viewer may accept or decline the opponent's pending offer.
    pub may_answer: bool,
}

impl GamePageData {
    /// The side the viewer plays, if they play in this game.
    pub fn my_side(&self) -> Option<Color> {
        match self.role {
            Some(Role::Player(side)) => Some(side),
            _ => None,
        }
    }
}

pub fn game_page(conn: &mut DbConn, actor: &Actor, id: i64) -> AppResult<GamePageData> {
    let loaded = games::load(conn, id)?;
    let view = games::view::view_of(conn, &loaded)?;
    let role = games::role_of(conn, actor, &loaded.row)?;
    let is_arbiter = games::is_arbiter(conn, actor, &loaded.row)?;
    let event_name = match loaded.row.event_id {
        Some(event) => events::by_id(conn, event)?.map(|e| e.name),
        None => None,
    };
    let mut data = GamePageData {
        loaded,
        view,
        role,
        is_arbiter,
        event_name,
        may_offer: false,
        may_answer: false,
    };
    if let Some(side) = data.my_side()
        && data.loaded.row.status == GameStatus::Ongoing
    {
        let state = GameState::of(&data.loaded.row);
        data.may_offer = offers::check_offer(&data.loaded, &state, side).is_ok();
        data.may_answer = state.draw_offer_pending && state.draw_offer_by == Some(side.opponent());
    }
    Ok(data)
}
