//! Static files compiled into the binary: no CDN, nothing fetched at run time.
use actix_web::http::header;
use actix_web::{HttpResponse, web};

const STYLE_CSS: &str = include_str!("../../static/style.css");
const FAVICON_SVG: &str = include_str!("../../static/favicon.svg");

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/static/style.css", web::get().to(style))
        .route("/favicon.svg", web::get().to(favicon));
}

async fn style() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/css; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
        .body(STYLE_CSS)
}

async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml")
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .body(FAVICON_SVG)
}
