//! The game page: the board at any ply (links step through the game without JavaScript),
//! the move list, the FEN and the PDN; for the player on move the move form (a small
//! script lets them click the pieces), draw offers and resignation; for arbiters the result
//! and the takeback.
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use damka_engine::{Color, Game, Move};
use serde::Deserialize;

use crate::service::game_pages::{self, GamePageData};
use crate::service::games::arbiter::{self, GameResultInput};
use crate::service::games::play::{self, MoveInput};
use crate::service::games::{GameView, Loaded};
use crate::service::games::{clock_start, offers};
use crate::service::{Actor, AppError, AppResult, DbConn};
use crate::web::ctx::Ctx;
use crate::web::form::CsrfForm;
use crate::web::game_board::{self, BoardOptions};
use crate::web::opening_diagram::{self, OpeningDiagram};
use crate::web::render::{self, FormErrors};
use crate::web::signed_in::SignedInPage;
use crate::web::state::AppState;
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode, Spelling};

/// One line of the move list: the move number and the two plies of it.
pub struct MoveLine {
    pub number: u32,
    pub first: Option<(i32, String)>,
    pub second: Option<(i32, String)>,
}

#[derive(Template)]
#[template(path = "game.html")]
pub struct GamePage {
    pub ctx: Ctx,
    pub game: GameView,
    /// The ply the board shows (0 = the start position).
    pub shown: i32,
    pub board_svg: String,
    pub fen_shown: String,
    pub lines: Vec<MoveLine>,
    pub event_name: Option<String>,
    /// The viewer plays in this game (`white`/`black`), if they do.
    pub my_side: Option<String>,
    pub is_arbiter: bool,
    /// The side the board was asked to be shown from (`?flip=`), if it was.
    pub flip: Option<u8>,
    /// The viewer may move now (their turn, the latest ply on the board).
    pub may_move: bool,
    /// The legal moves with their paths, as JSON for the click script.
    pub legal_json: String,
    pub may_offer: bool,
    pub may_answer: bool,
    pub may_resign: bool,
    pub errors: FormErrors,
    pub result_words: String,
    /// A game started from a drawn opening: the position after the opening's moves.
    pub opening_diagram: Option<OpeningDiagram>,
}

impl GamePage {
    /// When the first and the last move were played, on the site's clock with its offset.
    fn move_times(&self) -> Option<String> {
        let first = self.game.moves.first()?;
        let last = self.game.moves.last()?;
        let first_at = self.ctx.date_time(&first.played_at.naive_utc());
        if self.game.moves.len() == 1 {
            return Some(self.ctx.tf1("game.first_move_at", &first_at));
        }
        let last_at = self.ctx.date_time(&last.played_at.naive_utc());
        Some(
            self.ctx
                .lang
                .tf("game.moves_between", &[&first_at, &last_at]),
        )
    }

    /// A ply's page, from the side the board is shown from when one was asked for (the step
    /// links and the move list then never turn the board back).
    pub fn ply_link(&self, ply: impl std::fmt::Display) -> String {
        match self.flip {
            Some(flip) => format!("/games/{}?ply={ply}&flip={flip}#board", self.game.id),
            None => format!("/games/{}?ply={ply}#board", self.game.id),
        }
    }

    /// What the page shows, for the live script (`web::live_keys`).
    pub fn live_key(&self) -> String {
        crate::web::live_keys::game(&self.game)
    }

    /// The page the live script fetches again: the latest position, or the ply shown;
    /// from the side asked for (`flip`), so an update never turns the board.
    pub fn live_page(&self) -> String {
        let mut query = Vec::new();
        if self.shown != self.game.ply {
            query.push(format!("ply={}", self.shown));
        }
        if let Some(flip) = self.flip {
            query.push(format!("flip={flip}"));
        }
        if query.is_empty() {
            format!("/games/{}", self.game.id)
        } else {
            format!("/games/{}?{}", self.game.id, query.join("&"))
        }
    }

    /// The ply was the drawn opening's, not the players' own.
    pub fn is_opening(&self, ply: &&i32) -> bool {
        **ply <= self.game.opening_plies
    }

    /// "Game 1 of 2 of the micro-match".
    pub fn micro_match_text(&self) -> String {
        self.ctx
            .t(&format!("micro.game_no_{}", self.game.game_no.clamp(1, 2)))
    }

    pub fn other_game_text(&self) -> String {
        let other = if self.game.game_no == 1 { 2 } else { 1 };
        format!("→ {}", self.ctx.t(&format!("micro.to_game_{other}")))
    }

    /// The opening the game started with: its code, and where its moves end.
    pub fn opening_text(&self, code: &str) -> String {
        if self.game.opening_plies > 0 {
            self.ctx.tf1("micro.game_opening", &code)
        } else {
            self.ctx.tf1("micro.game_opening_position", &code)
        }
    }

    /// The drawn opening's moves, as the move list writes them (`c3-d4 f6-g5`).
    pub fn opening_moves(&self) -> String {
        let plies = usize::try_from(self.game.opening_plies).unwrap_or(0);
        let moves: Vec<&str> = self
            .game
            .moves
            .iter()
            .take(plies)
            .map(|m| m.notation.as_str())
            .collect();
        moves.join(" ")
    }

    pub fn opening_plies_text(&self) -> String {
        self.ctx.tf1(
            "micro.opening_plies_note",
            &self.game.opening_code.as_deref().unwrap_or(""),
        )
    }

    pub fn is_shown(&self, ply: impl std::fmt::Display) -> bool {
        ply.to_string() == self.shown.to_string()
    }

    pub fn side_name(&self, side: Color) -> String {
        self.ctx.t(&format!("game.side.{}", side.spelling()))
    }

    /// Whether `side`'s clock runs now (`white` or `black`).
    pub fn clock_runs(&self, side: &str) -> bool {
        self.game.clock.as_ref().is_some_and(|c| c.running)
            && self.game.side_to_move.spelling() == side
    }

    /// The game's time control (untimed when it has no clock).
    pub fn time_control(&self) -> damka_domain::clock::TimeControl {
        self.game
            .clock
            .as_ref()
            .and_then(|c| {
                damka_domain::clock::TimeControl::from_parts(c.kind, c.base_s, c.increment_s).ok()
            })
            .unwrap_or_default()
    }

    /// The arbiter may start the clock: a timed, unfinished game whose clock stands.
    pub fn may_start_clock(&self) -> bool {
        self.is_arbiter && !self.finished() && self.game.clock.as_ref().is_some_and(|c| !c.running)
    }

    pub fn finished(&self) -> bool {
        self.game.status == GameStatus::Finished
    }

    /// The result as PDN writes it (`1-0`, `1/2-1/2`).
    /// `1-0`, `½-½` or `0-1`, as the event's pages write a game's result.
    pub fn result_text(&self) -> String {
        self.game
            .result
            .map(|r| r.shown(damka_domain::vocabulary::ScoringDisplay::OneHalfZero, false))
            .unwrap_or_default()
    }

    /// "White to move" / «Ход белых».
    pub fn to_move_name(&self) -> String {
        self.ctx
            .t(&format!("game.turn.{}", self.game.side_to_move.spelling()))
    }

    pub fn offer_text(&self) -> String {
        match &self.game.draw_offer {
            Some(offer) => self
                .ctx
                .tf1("game.draw_offered_by", &self.side_name(offer.by)),
            None => String::new(),
        }
    }

    /// The move form's label: "Your move" for the player to move; the side's move for an
    /// arbiter who enters moves for both.
    pub fn move_label(&self) -> String {
        match &self.my_side {
            Some(_) => self.ctx.t("game.move_label"),
            None => self.ctx.t(&format!(
                "game.move_label_for.{}",
                self.game.side_to_move.spelling()
            )),
        }
    }

    /// The arbiter's result menu selects the stored result (`1-0`, `1/2-1/2`, `0-1`), or
    /// "none" (`""`) while the game goes on.
    pub fn is_stored_result(&self, code: &str) -> bool {
        match self.game.result {
            Some(result) => result.spelling() == code,
            None => code.is_empty(),
        }
    }

    /// For a player while a draw may not be offered yet: from when it may.
    pub fn offer_note(&self) -> Option<String> {
        let moves_made = &self.game.moves_made;
        let min = u32::try_from(self.game.draw_offer_min_moves).unwrap_or(0);
        let early = moves_made.white.min(moves_made.black) < min;
        (self.my_side.is_some() && !self.finished() && early)
            .then(|| self.ctx.plural("game.offer_after", &i64::from(min)))
    }

    /// To the offerer: their last offer was declined, or lapsed when the opponent moved on.
    pub fn offer_answer_text(&self) -> Option<String> {
        let answer = self.game.draw_offer_answer.as_ref()?;
        let mine = self.my_side.as_deref() == Some(answer.by.spelling());
        mine.then(|| {
            self.ctx.tf1(
                &format!("game.offer_{}", answer.outcome),
                &self.side_name(answer.answered_by),
            )
        })
    }

    /// A legal move to show as the form's example.
    pub fn example_move(&self) -> &str {
        self.game.legal_moves.first().map_or("", String::as_str)
    }
}

#[derive(Deserialize)]
pub struct ShowQuery {
    ply: Option<i32>,
    /// Show the board from Black's side (`1`) or White's (`0`); default: the viewer's own.
    flip: Option<u8>,
}

pub async fn show(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<ShowQuery>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let query = query.into_inner();
    page(
        ctx,
        &state,
        id,
        query.ply,
        query.flip,
        FormErrors::none(),
        StatusCode::OK,
    )
    .await
}

async fn page(
    ctx: Ctx,
    state: &AppState,
    id: i64,
    ply: Option<i32>,
    flip: Option<u8>,
    errors: FormErrors,
    status: StatusCode,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    let data = state
        .db(move |conn| game_pages::game_page(conn, &actor, id))
        .await?;
    let page = build(ctx, data, ply, flip, errors);
    render::page(status, &page)
}

fn build(
    ctx: Ctx,
    data: GamePageData,
    ply: Option<i32>,
    flip: Option<u8>,
    errors: FormErrors,
) -> GamePage {
    let my_side = data.my_side();
    let GamePageData {
        loaded,
        view,
        role: _,
        is_arbiter,
        event_name,
        may_offer,
        may_answer,
    } = data;
    let latest = loaded.row.ply;
    let shown = ply.unwrap_or(latest).clamp(0, latest);
    let (position_game, last_move) = game_at(&loaded, shown);
    let flipped = match flip {
        Some(f) => f == 1,
        None => my_side == Some(Color::Black),
    };
    let title = if shown == 0 {
        ctx.t("game.board.start")
    } else {
        ctx.tf1("game.board.after", &shown)
    };
    let board_svg = game_board::draw(
        position_game.position(),
        &BoardOptions {
            flipped,
            last_move: last_move.as_ref(),
            title: &title,
        },
    );
    let ongoing = loaded.row.status == GameStatus::Ongoing;
    let to_move = loaded.game.side_to_move();
    let on_move = ongoing
        && shown == latest
        && (my_side == Some(to_move) || (my_side.is_none() && is_arbiter));
    let legal_json = if on_move {
        game_board::legal_moves_json(loaded.game.legal_moves())
    } else {
        "[]".to_string()
    };
    let result_words = result_words(&ctx, &view);
    let opening_diagram = view.opening_code.as_deref().map(|code| {
        let (after_opening, _) = game_at(&loaded, view.opening_plies.clamp(0, latest));
        opening_diagram::of_position(ctx.lang, code, after_opening.position())
    });
    GamePage {
        lines: move_lines(&view),
        fen_shown: position_game.position().to_fen(),
        board_svg,
        shown,
        event_name,
        my_side: my_side.map(|s| s.spelling().to_string()),
        flip,
        is_arbiter,
        may_move: on_move,
        legal_json,
        may_offer,
        may_answer,
        may_resign: ongoing && my_side.is_some(),
        errors,
        result_words,
        opening_diagram,
        game: view,
        ctx,
    }
}

/// The game replayed to `ply`, and the move that led there.
fn game_at(loaded: &Loaded, ply: i32) -> (Game, Option<Move>) {
    if ply == loaded.row.ply {
        return (loaded.game.clone(), loaded.game.history().last().copied());
    }
    let mut game = Game::from_position(*loaded.game.start_position());
    let mut last = None;
    for mv in loaded.game.history().iter().take(ply as usize) {
        // The history was legal when it was replayed; a move that fails here cannot happen.
        if game.play(mv).is_ok() {
            last = Some(*mv);
        }
    }
    (game, last)
}

fn move_lines(view: &GameView) -> Vec<MoveLine> {
    view.moves
        .chunks(2)
        .enumerate()
        .map(|(index, pair)| MoveLine {
            number: index as u32 + 1,
            first: pair.first().map(|m| (m.ply, m.notation.clone())),
            second: pair.get(1).map(|m| (m.ply, m.notation.clone())),
        })
        .collect()
}

fn result_words(ctx: &Ctx, view: &GameView) -> String {
    let (Some(result), Some(reason)) = (view.result, view.reason) else {
        return String::new();
    };
    let outcome = match result {
        ResultCode::WhiteWins => ctx.t("game.outcome.white_wins"),
        ResultCode::BlackWins => ctx.t("game.outcome.black_wins"),
        _ => ctx.t("game.outcome.draw"),
    };
    format!(
        "{outcome}: {}",
        reason_words(ctx, reason, view.decided_by.as_deref())
    )
}

/// How the game ended, in words: by its rule, or as the arbiter's decision or a result
/// entered, naming who (`decided_by`) when known.
pub fn reason_words(ctx: &Ctx, reason: GameEnd, decided_by: Option<&str>) -> String {
    match (reason, decided_by) {
        (GameEnd::Arbiter | GameEnd::Entered, Some(name)) => {
            ctx.tf1(&format!("game.reason.{}_by", reason.spelling()), &name)
        }
        _ => ctx.t(&format!("game.reason.{}", reason.spelling())),
    }
}

/// After a refused action: the page again with the refusal in the reader's language.
async fn refused(ctx: Ctx, state: &AppState, id: i64, err: AppError) -> AppResult<HttpResponse> {
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::CONFLICT);
    let message = match &err {
        AppError::Invalid { reason, .. }
        | AppError::Conflict { reason }
        | AppError::Forbidden { reason } => crate::web::refusals::text(ctx.lang, reason),
        _ => return Err(err),
    };
    let errors = FormErrors {
        field: String::new(),
        message,
    };
    page(ctx, state, id, None, None, errors, status).await
}

/// Runs a player's or arbiter's action for a handler that extracted `SignedInPage`; on a
/// refusal shows the game again with the message, else redirects back to the board.
async fn act(
    req: &HttpRequest,
    ctx: Ctx,
    state: &AppState,
    id: i64,
    work: impl FnOnce(&mut DbConn, &Actor) -> AppResult<()> + Send + 'static,
) -> AppResult<HttpResponse> {
    let actor = ctx.actor();
    match state.db(move |conn| work(conn, &actor)).await {
        Ok(()) => Ok(render::redirect_with_flash(
            req,
            &format!("/games/{id}#board"),
            "ok",
            "flash.saved",
        )),
        Err(err) => refused(ctx, state, id, err).await,
    }
}

#[derive(Deserialize)]
pub struct MoveForm {
    #[serde(default)]
    ply: String,
    #[serde(default, rename = "move")]
    text: String,
    #[serde(default)]
    offer_draw: Option<String>,
}

pub async fn play_move(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<MoveForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let ply = form.ply.trim().parse::<i32>().unwrap_or(0);
    let input = MoveInput {
        ply,
        text: form.text,
        offer_draw: form.offer_draw.is_some(),
    };
    let actor = ctx.actor();
    match state
        .db(move |conn| play::submit(conn, &actor, id, &input))
        .await
    {
        Ok(submitted) => {
            let offer_refused = match &submitted {
                play::Submitted::Stored(view) => view.draw_offer_refused.is_some(),
                play::Submitted::AlreadyStored(_) => false,
            };
            let board = format!("/games/{id}#board");
            // The board shows the move played; only a refused offer needs words.
            Ok(if offer_refused {
                render::redirect_with_flash(&req, &board, "error", "game.move_played_offer_refused")
            } else {
                render::redirect(&board)
            })
        }
        Err(err) => refused(ctx, &state, id, err).await,
    }
}

macro_rules! player_action {
    ($name:ident, $service:path) => {
        pub async fn $name(
            req: HttpRequest,
            SignedInPage(ctx): SignedInPage,
            state: web::Data<AppState>,
            path: web::Path<i64>,
            CsrfForm(_form): CsrfForm<Empty>,
        ) -> AppResult<HttpResponse> {
            let id = path.into_inner();
            act(&req, ctx, &state, id, move |conn, actor| {
                $service(conn, actor, id).map(|_| ())
            })
            .await
        }
    };
}

#[derive(Deserialize)]
pub struct Empty {}

player_action!(offer_draw, offers::offer);
player_action!(accept_draw, offers::accept);
player_action!(decline_draw, offers::decline);
player_action!(resign, offers::resign);
player_action!(take_back, arbiter::take_back);
player_action!(start_clock, clock_start::start);

#[derive(Deserialize)]
pub struct ResultForm {
    #[serde(default)]
    result: String,
}

pub async fn set_result(
    req: HttpRequest,
    SignedInPage(ctx): SignedInPage,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    CsrfForm(form): CsrfForm<ResultForm>,
) -> AppResult<HttpResponse> {
    let id = path.into_inner();
    let input = GameResultInput {
        result: Some(form.result),
        reason: None,
    };
    act(&req, ctx, &state, id, move |conn, actor| {
        arbiter::set_result(conn, actor, id, &input).map(|_| ())
    })
    .await
}
