//! The web layer: routes, extractors, error rendering, HTML pages and the JSON API.
//! Handlers parse the request, call one use case in `service`, and render the answer.
pub mod api;
pub mod assets;
pub mod body_deadline;
pub mod client_address;
pub mod client_limits;
pub mod connection_cap;
pub mod cookies;
pub mod countries;
pub mod cross_cells;
pub mod ctx;
pub mod error;
pub mod form;
pub mod game_board;
pub mod i18n;
pub mod live_keys;
pub mod middleware;
pub mod opening_diagram;
/// The OpenAPI document lives with the API it describes.
pub use api::openapi;
pub mod pager;
pub mod pages;
pub mod pairing_warnings;
pub mod rating_chart;
pub mod refusals;
pub mod render;
pub mod routes;
pub mod signed_in;
pub mod site_path;
pub mod site_zone;
pub mod state;
pub mod svg;
pub mod tables;
pub mod tiebreaks;
pub mod trusted_proxies;

use actix_web::error::JsonPayloadError;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpRequest, HttpResponse, web};

pub use state::AppState;

use crate::service::{AppError, Refusal};

/// The largest JSON body the API reads (a TRF import is the biggest).
pub const MAX_JSON_BYTES: usize = 256 * 1024;

/// Declares every route; shared by `damka serve` and the HTTP tests.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(MAX_JSON_BYTES)
            .error_handler(|err, _| json_error(err).into()),
    )
    // A malformed path segment (`/players/abc`) means the thing asked for does not exist.
    .app_data(
        web::PathConfig::default().error_handler(|_, _| AppError::NotFound { what: "page" }.into()),
    )
    .app_data(web::QueryConfig::default().error_handler(|err, _| {
        AppError::bad_request(Refusal::BadQueryString {
            message: err.to_string(),
        })
        .into()
    }))
    .service(web::scope("/api/v1").configure(api::configure))
    .configure(pages::configure)
    .configure(assets::configure)
    .service(web::resource("/healthz").route(web::get().to(health)));
}

/// A JSON body that is too large is a 413, whether its `Content-Length` said so or the
/// stream ran over; anything else unreadable is a 400.
pub(crate) fn json_error(err: JsonPayloadError) -> AppError {
    match err {
        JsonPayloadError::OverflowKnownLength { limit, .. }
        | JsonPayloadError::Overflow { limit } => AppError::PayloadTooLarge { limit_bytes: limit },
        JsonPayloadError::Payload(actix_web::error::PayloadError::Overflow) => {
            AppError::PayloadTooLarge {
                limit_bytes: MAX_JSON_BYTES,
            }
        }
        other => AppError::bad_request(Refusal::UnreadableJson {
            message: other.to_string(),
        }),
    }
}

/// Builds the application with its middleware, in the order requests pass through it.
pub fn app(
    state: AppState,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state))
        // Inside `render_errors`, so their refusals are rendered like every other error.
        .wrap(from_fn(body_deadline::enforce))
        .wrap(from_fn(connection_cap::refuse_beyond_cap))
        .wrap(from_fn(error::render_errors))
        .wrap(from_fn(middleware::answer_head))
        .wrap(from_fn(middleware::csrf_and_flash))
        .wrap(from_fn(middleware::headers))
        .wrap(tracing_actix_web::TracingLogger::<middleware::RequestSpan>::new())
        .configure(configure)
        .default_service(web::to(not_found))
}

async fn not_found(_req: HttpRequest) -> Result<HttpResponse, AppError> {
    Err(AppError::NotFound { what: "page" })
}

/// For load balancers: 200 when this instance can reach its database.
async fn health(state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    state
        .db(|conn| {
            use diesel::connection::SimpleConnection;
            conn.batch_execute("SELECT 1").map_err(AppError::from)
        })
        .await?;
    Ok(HttpResponse::Ok().content_type("text/plain").body("ok"))
}
