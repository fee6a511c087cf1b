//! Ending a game in progress with a typed result is a decision: before a results form
//! ends a game that has moves and is not over, the organiser or arbiter is asked in words
//! ("the game is being played, 23 moves; end it with 1-0?"), and the page's button posts
//! the same form again with `end_game_<board>[_<game>]` for each game it names. Without
//! JavaScript this is the whole question.
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use askama::Template;

use crate::service::AppResult;
use crate::service::events::confirmations::GameToEnd;
use crate::web::ctx::Ctx;
use crate::web::render;
use damka_domain::vocabulary::ScoringDisplay;

#[derive(Template)]
#[template(path = "confirm_end_game.html")]
struct ConfirmEndGame {
    ctx: Ctx,
    /// One sentence per game the form would end.
    questions: Vec<String>,
    /// Where the confirming button posts: the form's own action.
    action: String,
    /// The form's fields as sent, and the confirmations.
    fields: Vec<(String, String)>,
    cancel: String,
}

/// The field that confirms ending `game` (`end_game_<board>` for a board's only game).
pub fn end_game_field(game: &GameToEnd) -> String {
    if game.micro {
        format!("end_game_{}_{}", game.pairing_id, game.game_no)
    } else {
        format!("end_game_{}", game.pairing_id)
    }
}

/// The confirmations a results form carries: (board, game number) of every
/// `end_game_<board>[_<game>]` field.
pub fn confirmed_in<'a>(
    fields: impl IntoIterator<Item = (&'a String, &'a String)>,
) -> Vec<(i64, i32)> {
    fields
        .into_iter()
        .filter_map(|(name, _)| {
            let rest = name.strip_prefix("end_game_")?;
            match rest.split_once('_') {
                Some((board, game)) => Some((board.parse().ok()?, game.parse().ok()?)),
                None => Some((rest.parse().ok()?, 1)),
            }
        })
        .collect()
}

/// "Board 3 (Ivanov – Petrov): the game is being played, 23 moves; end it with 1-0?"
fn question(ctx: &Ctx, game: &GameToEnd) -> String {
    let moves = ctx.plural("confirm_end.moves", &i64::from(game.moves));
    let result = game.result.shown(ScoringDisplay::OneHalfZero, false);
    if game.micro {
        ctx.lang.tf(
            "confirm_end.question_game",
            &[
                &game.board,
                &game.game_no,
                &game.white,
                &game.black,
                &moves,
                &result,
            ],
        )
    } else {
        ctx.lang.tf(
            "confirm_end.question",
            &[&game.board, &game.white, &game.black, &moves, &result],
        )
    }
}

/// How the form that asked confirms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// One board's form: `end_game`.
    EndGame,
    /// A round's form: `end_game_<board>[_<game>]` for each game.
    PerGame,
}

/// The question page: the form's `fields` (as sent) go back with a confirmation for each
/// game of `games`.
pub fn page(
    ctx: Ctx,
    action: String,
    cancel: String,
    mut fields: Vec<(String, String)>,
    games: &[GameToEnd],
    confirm: Confirm,
) -> AppResult<HttpResponse> {
    fields.retain(|(name, _)| name != "csrf_token");
    for game in games {
        let name = match confirm {
            Confirm::EndGame => "end_game".to_string(),
            Confirm::PerGame => end_game_field(game),
        };
        fields.push((name, "1".to_string()));
    }
    let questions = games.iter().map(|g| question(&ctx, g)).collect();
    render::page(
        StatusCode::OK,
        &ConfirmEndGame {
            ctx,
            questions,
            action,
            fields,
            cancel,
        },
    )
}
