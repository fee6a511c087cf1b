//! The cookies damka sets, in one place, with their attributes.
use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time};

pub const SESSION: &str = "damka_session";
pub const CSRF: &str = "damka_csrf";
pub const LANG: &str = "damka_lang";
pub const FLASH: &str = "damka_flash";

/// Secure when the client reached us over TLS (directly or via a proxy that says so in
/// `X-Forwarded-Proto`/`Forwarded`).
fn is_tls(req: &HttpRequest) -> bool {
    req.connection_info().scheme() == "https"
}

fn base<'a>(req: &HttpRequest, name: &'a str, value: String) -> Cookie<'a> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(is_tls(req))
        .finish()
}

pub fn session(req: &HttpRequest, token: String, days: i64) -> Cookie<'static> {
    let mut cookie = base(req, SESSION, token);
    cookie.set_max_age(time::Duration::days(days));
    cookie
}

pub fn csrf(req: &HttpRequest, value: String) -> Cookie<'static> {
    base(req, CSRF, value)
}

pub fn lang(req: &HttpRequest, code: &str) -> Cookie<'static> {
    let mut cookie = base(req, LANG, code.to_string());
    cookie.set_max_age(time::Duration::days(365));
    cookie
}

pub fn flash(req: &HttpRequest, value: &str) -> Cookie<'static> {
    base(req, FLASH, value.to_string())
}

/// A cookie that tells the browser to forget `name`.
pub fn removal(req: &HttpRequest, name: &'static str) -> Cookie<'static> {
    let mut cookie = base(req, name, String::new());
    cookie.make_removal();
    cookie
}
