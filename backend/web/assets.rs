//! Static files compiled into the binary: no CDN, nothing fetched at run time.
use actix_web::http::header;
use actix_web::{HttpResponse, web};

use super::routes::Routes;

const STYLE_CSS: &str = include_str!("../../static/style.css");
const FAVICON_SVG: &str = include_str!("../../static/favicon.svg");
const PRINT_CSS: &str = include_str!("../../static/print.css");
const PRINT_JS: &str = include_str!("../../static/print.js");
const GAME_JS: &str = include_str!("../../static/game.js");
const LIVE_JS: &str = include_str!("../../static/live.js");
const ADDRESS_JS: &str = include_str!("../../static/address.js");

pub fn configure(cfg: &mut web::ServiceConfig) {
    routes().register(cfg);
}

/// The static files' route table (listed by the authorisation table test).
pub fn routes() -> Routes {
    let mut routes = Routes::default();
    routes
        .get("/static/style.css", style)
        .get("/static/print.css", print_style)
        .get("/static/print.js", print_script)
        .get("/static/game.js", game_script)
        .get("/static/live.js", live_script)
        .get("/static/address.js", address_script)
        .get("/favicon.svg", favicon);
    routes
}

async fn style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(STYLE_CSS)
}

/// The print sheets' own stylesheet (`print_base.html`).
async fn print_style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(PRINT_CSS)
}

/// The print button of the print sheets: a file, since the CSP allows no inline script.
async fn print_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(PRINT_JS)
}

/// Click-to-move on the game page (`game_board`); the move form works without it.
async fn game_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(GAME_JS)
}

/// Live pages (game, pairings, home) and ticking clocks; the pages work without it.
async fn live_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(LIVE_JS)
}

/// Puts a page that answers a form at the form's address (`Ctx::form_page`).
async fn address_script() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(ADDRESS_JS)
}

async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(FAVICON_SVG)
}
