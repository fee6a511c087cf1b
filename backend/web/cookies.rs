//! The cookies damka sets, in one place, with their attributes.
use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite, time};

use super::client_address::is_tls;

pub const SESSION: &str = "damka_session";
pub const CSRF: &str = "damka_csrf";
pub const LANG: &str = "damka_lang";
pub const FLASH: &str = "damka_flash";
/// A new API token on its way from the POST that made it to the account page that shows
/// it once (post/redirect/get: a reload never makes a second token).
pub const NEW_TOKEN: &str = "damka_new_token";
const NEW_TOKEN_PATH: &str = "/account";

fn base<'a>(req: &HttpRequest, name: &'a str, value: String) -> Cookie<'a> {
    Cookie::build(name, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        // Secure when the client reached us over TLS (directly, or via a trusted proxy that
        // says so).
        .secure(is_tls(req))
        .finish()
}

/// The browser's session cookie, when it sends a non-empty one (valid or not: the CSRF
/// token is bound to what the browser sends, so the page and its form agree).
pub fn session_value(req: &HttpRequest) -> Option<String> {
    req.cookie(SESSION)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
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

/// Lives for the redirect only: sent to `/account` alone, never to other sites, and
/// removed by the page that shows it.
pub fn new_token(req: &HttpRequest, value: String) -> Cookie<'static> {
    let mut cookie = base(req, NEW_TOKEN, value);
    cookie.set_path(NEW_TOKEN_PATH);
    cookie.set_same_site(SameSite::Strict);
    cookie.set_max_age(time::Duration::minutes(5));
    cookie
}

pub fn new_token_removal(req: &HttpRequest) -> Cookie<'static> {
    let mut cookie = base(req, NEW_TOKEN, String::new());
    cookie.set_path(NEW_TOKEN_PATH);
    cookie.make_removal();
    cookie
}

/// A cookie that tells the browser to forget `name`.
pub fn removal(req: &HttpRequest, name: &'static str) -> Cookie<'static> {
    let mut cookie = base(req, name, String::new());
    cookie.make_removal();
    cookie
}
