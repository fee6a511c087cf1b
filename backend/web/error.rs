//! Rendering `AppError`: `application/problem+json` (RFC 9457) for the API and for
//! clients that ask for JSON, an HTML page in the user's language for browsers.
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use askama::Template;
use serde::Serialize;

use super::ctx::Ctx;
use crate::service::{AppError, Refusal};
use damka_domain::vocabulary::Spelling;

/// The JSON body of an error (RFC 9457 problem details).
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub struct Problem {
    /// `urn:damka:problem:<code>`, stable for scripts.
    // (`<code>` here is the kind of error, `AppError::kind`: `invalid`, `conflict`, ...; the
    // exact refusal is `code`. The text above is the published description.)
    #[serde(rename = "type")]
    pub kind: String,
    /// The exact refusal, stable for scripts (`round_has_results`, `too_long`, ...); the
    /// kind in snake case (`not_found`) for errors that are not refusals.
    pub code: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// The offending field, for validation errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Seconds to wait, for `too-many-attempts`, `unavailable` and `storage-unavailable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<u64>,
    /// `illegal_move`: the engine's reason as a code (`move_no_piece`,
    /// `move_capture_compulsory`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<String>,
    /// `illegal_move`: the legal moves in canonical notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<Vec<String>>,
    /// `ply_taken`: the move stored at the ply asked for; `ply_ahead`: the plies played;
    /// `pdn_moves_differ`: the first half-move where the file and the stored game differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<i32>,
    /// `ply_taken`: the move already stored at `ply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_move: Option<String>,
    /// `draw_offer_too_early`: moves still to make before a draw may be offered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_needed: Option<u32>,
    /// `game_in_progress`: the moves played in the game a result would end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<i32>,
    /// `pdn_*` of an imported file: the game of the file (1-based) the refusal is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<usize>,
    /// `pdn_board_twice`, `pdn_moves_differ`: the board of the round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<i32>,
    /// `pdn_illegal_move`: the move number as the file numbers it, and the side
    /// (`white`/`black`) that makes the move; `reason_code` says why it is illegal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_number: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// `pdn_unreadable`: where in the file the reader stopped (1-based).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// `ratings_csv_invalid`: every problem of the file, by line (nothing was stored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineProblem>>,
    /// `player_merged`: the id of the profile this one was merged into.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<i64>,
}

/// One problem of an imported file: where it is, its code and its English text.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct LineProblem {
    /// The line of the file (1-based); absent for a problem of the whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column (its header name), for a problem of one cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// The exact problem (`not_a_whole_number`, `no_such_player`, ...).
    pub code: String,
    pub detail: String,
}

impl LineProblem {
    fn of(refusal: &Refusal) -> LineProblem {
        let english = |r: &Refusal| super::refusals::text(super::i18n::Lang::En, r);
        match refusal {
            Refusal::RatingsCsvAt { line, problem } => LineProblem {
                line: Some(*line),
                column: None,
                code: problem.code().to_string(),
                detail: english(problem),
            },
            Refusal::RatingsCsvCell {
                line,
                column,
                problem,
            } => LineProblem {
                line: Some(*line),
                column: Some(column.clone()),
                code: problem.code().to_string(),
                detail: english(problem),
            },
            other => LineProblem {
                line: None,
                column: None,
                code: other.code().to_string(),
                detail: english(other),
            },
        }
    }
}

impl Problem {
    pub fn of(err: &AppError) -> Problem {
        Problem {
            kind: format!("urn:damka:problem:{}", err.kind()),
            code: err.code().to_string(),
            title: super::i18n::Lang::En.t(&format!("error.{}.title", err.kind())),
            status: err.status(),
            detail: super::refusals::english(err),
            field: match err {
                AppError::Invalid { field, .. } => Some((*field).to_string()),
                _ => None,
            },
            retry_after: err.retry_after_secs(),
            ..Problem::default()
        }
        .with_members_of(err.refusal())
    }

    /// The members a script needs besides the code (RFC 9457 extension members).
    fn with_members_of(mut self, refusal: Option<&Refusal>) -> Problem {
        match refusal {
            Some(Refusal::IllegalMove {
                reason,
                legal_moves,
            }) => {
                self.reason_code = Some(reason.code().to_string());
                self.legal_moves = Some(legal_moves.clone());
            }
            Some(Refusal::PlyTaken { ply, stored }) => {
                self.ply = Some(*ply);
                self.stored_move = Some(stored.clone());
            }
            Some(Refusal::PlyAhead { ply, .. }) => self.ply = Some(*ply),
            Some(Refusal::DrawOfferTooEarly { moves_needed, .. }) => {
                self.moves_needed = Some(*moves_needed);
            }
            Some(Refusal::GameInProgress { moves, .. }) => self.moves = Some(*moves),
            Some(Refusal::PdnUnreadable { line, column, .. }) => {
                self.line = Some(*line);
                self.column = Some(*column);
            }
            Some(
                Refusal::PdnNoMatchingGame { game, .. } | Refusal::PdnStartPositionDiffers { game },
            ) => self.game = Some(*game),
            Some(Refusal::PdnBoardTwice { board, second, .. }) => {
                self.game = Some(*second);
                self.board = Some(*board);
            }
            Some(Refusal::PdnMovesDiffer { game, board, ply }) => {
                self.game = Some(*game);
                self.board = Some(*board);
                self.ply = Some(*ply);
            }
            Some(Refusal::PdnIllegalMove {
                game,
                move_number,
                side,
                reason,
                ..
            }) => {
                self.game = Some(*game);
                self.move_number = Some(*move_number);
                self.side = Some(side.spelling().to_string());
                self.reason_code = Some(reason.code().to_string());
            }
            Some(Refusal::PlayerMerged { into }) => self.merged_into = Some(*into),
            Some(Refusal::RatingsCsvInvalid { problems }) => {
                self.lines = Some(problems.iter().map(LineProblem::of).collect());
            }
            _ => {}
        }
        self
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.content_type("application/problem+json");
        if let Some(secs) = self.retry_after_secs() {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if matches!(self, AppError::Unauthenticated) {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"damka\""));
        }
        if self.closes_connection() {
            response.force_close();
        }
        response.body(serde_json::to_string(&Problem::of(self)).unwrap_or_default())
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    ctx: Ctx,
    status: u16,
    title_key: String,
    detail: String,
}

/// Whether this request wants JSON errors: the API, or a client that prefers JSON.
pub fn wants_json(req: &HttpRequest) -> bool {
    if req.path().starts_with("/api/") {
        return true;
    }
    let accept = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    accept.contains("json") && !accept.contains("text/html")
}

/// Middleware: replaces the problem+json body of an `AppError` by an HTML page when the
/// client is a browser. Errors that actix raised itself (no route, bad method) are turned
/// into `AppError`s first so they look the same.
pub async fn render_errors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let res = next.call(req).await?.map_into_boxed_body();
    let app_error = match res.response().error() {
        Some(err) => match err.as_error::<AppError>() {
            Some(app) => Some(app.clone()),
            None => Some(foreign_error(res.status(), &err.to_string())),
        },
        // A resource asked with a method it has no route for answers a bare 405 (with
        // its `Allow` header), not an error: give it the same page as every other error.
        None if res.status() == StatusCode::METHOD_NOT_ALLOWED => Some(AppError::MethodNotAllowed),
        None => None,
    };
    let Some(app_error) = app_error else {
        return Ok(res);
    };
    let (req, response) = res.into_parts();
    if wants_json(&req) {
        let mut fresh = app_error.error_response();
        copy_headers(&response, &mut fresh);
        return Ok(ServiceResponse::new(req, fresh));
    }
    let closes_connection = app_error.closes_connection();
    let ctx = match Ctx::resolve(&req).await {
        Ok(ctx) => ctx,
        Err(_) => Ctx::fallback(&req),
    };
    let page = ErrorPage {
        detail: localized_detail(&ctx, &app_error),
        title_key: format!("error.{}.title", app_error.kind()),
        status: app_error.status(),
        ctx,
    };
    let mut html = HttpResponse::build(app_error.status_code());
    html.content_type("text/html; charset=utf-8");
    let mut html = match page.render() {
        Ok(body) => html.body(body),
        Err(err) => {
            tracing::error!("error page failed to render: {err}");
            html.body(app_error.to_string())
        }
    };
    copy_headers(&response, &mut html);
    if closes_connection {
        html.head_mut()
            .set_connection_type(actix_web::http::ConnectionType::Close);
    }
    Ok(ServiceResponse::new(req, html))
}

/// Keeps cookies and Retry-After/WWW-Authenticate/Allow that the original response carried.
fn copy_headers(from: &HttpResponse, to: &mut HttpResponse) {
    for name in [
        header::SET_COOKIE,
        header::RETRY_AFTER,
        header::WWW_AUTHENTICATE,
        header::ALLOW,
    ] {
        // A header the fresh answer already carries (its own Retry-After, say) stays single:
        // two Retry-After headers confuse clients and proxies.
        if name != header::SET_COOKIE && to.headers().contains_key(&name) {
            continue;
        }
        for value in from.headers().get_all(&name) {
            to.headers_mut().append(name.clone(), value.clone());
        }
    }
    to.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

fn localized_detail(ctx: &Ctx, err: &AppError) -> String {
    match err {
        AppError::NotFound { .. } => ctx.t("error.not-found.detail"),
        AppError::Unauthenticated => ctx.t("error.unauthenticated.detail"),
        AppError::CsrfRejected => ctx.t("error.csrf-rejected.detail"),
        AppError::Unavailable => ctx.t("error.unavailable.detail"),
        AppError::StorageUnavailable => ctx.t("error.storage-unavailable.detail"),
        AppError::MethodNotAllowed => ctx.t("error.method-not-allowed.detail"),
        AppError::PayloadTooLarge { limit_bytes } => ctx.tf1(
            "error.payload-too-large.detail",
            &limit_bytes.div_ceil(1024),
        ),
        AppError::TooManyAttempts { retry_after_secs } => ctx.tf1(
            "error.too-many-attempts.detail",
            &retry_after_secs.div_ceil(60),
        ),
        AppError::Internal { id } => ctx.tf1("error.internal.detail", id),
        AppError::BadCredentials => ctx.t("error.bad-credentials.detail"),
        AppError::Invalid { field, reason } => {
            format!("{field}: {}", super::refusals::text(ctx.lang, reason))
        }
        AppError::BadRequest { reason }
        | AppError::Forbidden { reason }
        | AppError::Conflict { reason }
        | AppError::NotFoundBecause { reason }
        | AppError::RequestTimeout { reason }
        | AppError::TooManyRequests { reason, .. } => super::refusals::text(ctx.lang, reason),
    }
}

/// Errors raised by actix itself (routing, method, payload), as `AppError`s.
fn foreign_error(status: StatusCode, message: &str) -> AppError {
    match status.as_u16() {
        404 => AppError::NotFound { what: "page" },
        405 => AppError::MethodNotAllowed,
        400..=499 => AppError::bad_request(Refusal::UnreadableRequest {
            message: message.to_string(),
        }),
        _ => AppError::internal(message),
    }
}
