//! The request context of an HTML page: language, signed-in user, CSRF token, flash
//! message. Extracted once per request and handed to the templates, which call its
//! helpers (`ctx.t("key")`, `ctx.plural(..)`, `ctx.date(..)`).
use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpMessage, HttpRequest, dev::Payload, web};
use chrono::NaiveDateTime;

use super::cookies;
use super::i18n::{Lang, SUPPORTED};
use super::middleware::{self, CsrfCookie};
use super::site_path;
use super::state::AppState;
use crate::service::User;
use crate::service::{Actor, AppError, accounts, auth, time_zone};
use chrono_tz::Tz;

/// A one-time message shown on the next page after a redirect.
#[derive(Debug, Clone, PartialEq)]
pub struct Flash {
    /// `ok` or `error`: the style of the message box.
    pub kind: String,
    /// Catalogue key of the message.
    pub key: String,
}

impl Flash {
    pub fn encode(kind: &str, key: &str) -> String {
        format!("{kind}:{key}")
    }

    fn decode(value: &str) -> Option<Flash> {
        let (kind, key) = value.split_once(':')?;
        let valid = matches!(kind, "ok" | "error")
            && !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
        valid.then(|| Flash {
            kind: kind.to_string(),
            key: key.to_string(),
        })
    }
}

#[derive(Debug, Clone)]
pub struct Ctx {
    pub lang: Lang,
    pub user: Option<User>,
    pub csrf: String,
    pub flash: Option<Flash>,
    /// The current path and query, for the language switch to come back to.
    pub here: String,
    /// For a page that answers a form (a POST) sent from a page of this site: that page's
    /// path and query, where the answer is shown (`static/address.js`), so a reload asks
    /// for the form again instead of sending it again.
    pub form_page: Option<String>,
    /// The site's time zone, which pages show times in (`service::time_zone`).
    pub zone: Tz,
    pub session_token: Option<String>,
}

impl Ctx {
    /// A stored country code by its country's name in the reader's language, or the code
    /// itself when the list does not know it (`web::countries`).
    pub fn country(&self, code: &str) -> String {
        super::countries::name(code, self.lang).map_or_else(|| code.to_string(), str::to_string)
    }

    pub fn actor(&self) -> Actor {
        Actor {
            user: self.user.clone(),
        }
    }

    pub fn signed_in(&self) -> bool {
        self.user.is_some()
    }

    pub fn is_admin(&self) -> bool {
        self.user.as_ref().is_some_and(|u| u.is_admin)
    }

    pub fn is_organiser(&self) -> bool {
        self.user
            .as_ref()
            .is_some_and(|u| u.is_organiser || u.is_admin)
    }

    pub fn user_name(&self) -> &str {
        self.user
            .as_ref()
            .map(|u| u.display_name.as_str())
            .unwrap_or("")
    }

    pub fn languages(&self) -> &'static [Lang] {
        &SUPPORTED
    }

    pub fn t(&self, key: &str) -> String {
        self.lang.t(key)
    }

    pub fn tf1(&self, key: &str, arg: &dyn std::fmt::Display) -> String {
        self.lang.tf(key, &[arg])
    }

    pub fn plural(&self, key: &str, n: &i64) -> String {
        self.lang.plural(key, *n)
    }

    /// The name of a rules preset (`russian` -> "Russian draughts").
    pub fn variant_name(&self, variant: &damka_engine::Variant) -> String {
        self.lang.t(&format!("variant.{variant}"))
    }

    /// The name of a club role (`organiser`, `member`).
    pub fn club_role(&self, role: &damka_domain::vocabulary::ClubRole) -> String {
        self.lang.t(&format!("club.role.{role}"))
    }

    /// Points stored as half-points, written as the language writes them (3.5 / 3,5).
    pub fn half_points(&self, half_points: &u32) -> String {
        self.lang.points(i64::from(*half_points))
    }

    /// An event's points as the event shows them: stored in half-points, written on the
    /// 1-½-0 scale, or doubled on the 2-1-0 scale.
    pub fn event_points(&self, event: &crate::service::events::Event, half_points: u32) -> String {
        let shown = event.scoring_display.shown_half_points(half_points);
        self.lang.points(i64::from(shown))
    }

    /// A decimal figure computed elsewhere (`12.5`, a tie-break value) with the
    /// language's decimal mark (`12,5` in Russian).
    pub fn decimal(&self, figure: &str) -> String {
        match self.lang {
            Lang::Ru => figure.replace('.', ","),
            Lang::En => figure.to_string(),
        }
    }

    /// A time control in words: "90 min + 30 s per move", "30 s per move", "no clock".
    pub fn time_control(&self, control: &damka_domain::clock::TimeControl) -> String {
        use damka_domain::clock::TimeControl;
        let base = |seconds: u32| {
            if seconds.is_multiple_of(60) {
                self.tf1("clock.minutes", &(seconds / 60))
            } else {
                self.tf1("clock.seconds", &seconds)
            }
        };
        match *control {
            TimeControl::Untimed => self.t("clock.none"),
            TimeControl::Fischer {
                base_s,
                increment_s,
            } => self
                .lang
                .tf("clock.fischer", &[&base(base_s), &increment_s]),
            TimeControl::PerMove { seconds } => self.tf1("clock.per_move", &seconds),
        }
    }

    /// Remaining time as a clock shows it: `4:59`, `1:05:03`.
    pub fn clock_time(&self, ms: &i64) -> String {
        let seconds = ((*ms).max(0) + 999) / 1000;
        let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
        if hours > 0 {
            format!("{hours}:{minutes:02}:{seconds:02}")
        } else {
            format!("{minutes}:{seconds:02}")
        }
    }

    pub fn number(&self, n: &i64) -> String {
        self.lang.number(*n)
    }

    /// The day of a stored (UTC) time on the site's clock.
    pub fn date(&self, at: &NaiveDateTime) -> String {
        self.lang.date(&time_zone::local(self.zone, at).0)
    }

    pub fn day(&self, day: &chrono::NaiveDate) -> String {
        self.lang.day(day)
    }

    /// A stored (UTC) time on the site's clock, with the zone's offset: `7 Dec 2026, 17:05
    /// (UTC+3)`.
    /// "Archived on ..." for the notice on an archived event's, profile's or club's page.
    pub fn archived_on(&self, at: &NaiveDateTime) -> String {
        self.tf1("removal.archived_on", &self.date_time(at))
    }

    /// "Ratings are being updated (as of ...)" while a catch-up runs.
    pub fn ratings_updating(&self, since: &chrono::DateTime<chrono::Utc>) -> String {
        self.tf1("ratings.updating", &self.date_time(&since.naive_utc()))
    }

    pub fn date_time(&self, at: &NaiveDateTime) -> String {
        let (wall, offset) = time_zone::local(self.zone, at);
        format!("{} ({offset})", self.lang.date_time(&wall))
    }

    /// The language of this request, without touching the database: cookie, then
    /// `Accept-Language`, then English. The account setting, when there is one, is
    /// applied by `resolve`.
    pub fn lang_of_request(req: &HttpRequest) -> Lang {
        req.cookie(cookies::LANG)
            .and_then(|c| Lang::from_code(c.value()))
            .or_else(|| {
                req.headers()
                    .get(actix_web::http::header::ACCEPT_LANGUAGE)
                    .and_then(|h| h.to_str().ok())
                    .and_then(Lang::from_accept_language)
            })
            .unwrap_or_default()
    }

    /// Builds the context; reads the session's user from the database when the browser
    /// sends a session cookie.
    pub async fn resolve(req: &HttpRequest) -> Result<Ctx, AppError> {
        let state = req
            .app_data::<web::Data<AppState>>()
            .ok_or_else(|| AppError::internal("application state missing"))?
            .clone();
        let session_token = cookies::session_value(req);
        let user = match session_token.clone() {
            Some(token) => {
                state
                    .db(move |conn| accounts::user_for_session(conn, &token))
                    .await?
            }
            None => None,
        };
        if let Some(user) = &user {
            middleware::record_user(req, user.id);
        }
        let lang = user
            .as_ref()
            .and_then(|u| u.locale.as_deref())
            .and_then(Lang::from_code)
            .unwrap_or_else(|| Ctx::lang_of_request(req));
        let csrf_cookie = req
            .extensions()
            .get::<CsrfCookie>()
            .map(|c| c.0.clone())
            .unwrap_or_default();
        let flash = req
            .cookie(cookies::FLASH)
            .and_then(|c| Flash::decode(c.value()));
        let here = return_path(req);
        let zone = state.site_zone.get(&state.pool).await?;
        let form_page = (req.method() != actix_web::http::Method::GET)
            .then(|| referer_path(req))
            .flatten();
        Ok(Ctx {
            lang,
            user,
            csrf: auth::csrf_token(&state.site_secret, &csrf_cookie, session_token.as_deref()),
            flash,
            here,
            form_page,
            zone,
            session_token,
        })
    }

    /// A context for error pages when the full one cannot be built (database down).
    pub fn fallback(req: &HttpRequest) -> Ctx {
        Ctx {
            lang: Ctx::lang_of_request(req),
            user: None,
            csrf: String::new(),
            flash: None,
            here: req.path().to_string(),
            form_page: None,
            zone: Tz::UTC,
            session_token: None,
        }
    }
}

/// Where the language switch brings the user back to: this page for a GET; for a page
/// that answers a form (a POST, which cannot be fetched again), the page the form was on,
/// taken from the same-origin `Referer`; else the home page.
fn return_path(req: &HttpRequest) -> String {
    if req.method() == actix_web::http::Method::GET {
        return match req.query_string() {
            "" => req.path().to_string(),
            query => format!("{}?{}", req.path(), query),
        };
    }
    referer_path(req).unwrap_or_else(|| "/".to_string())
}

/// The path and query of the same-origin `Referer`: the page a form was sent from.
fn referer_path(req: &HttpRequest) -> Option<String> {
    let referer = req
        .headers()
        .get(actix_web::http::header::REFERER)
        .and_then(|h| h.to_str().ok())?;
    let host = req.connection_info().host().to_string();
    referer
        .split_once("://")
        .and_then(|(_, rest)| rest.strip_prefix(host.as_str()))
        .filter(|path| path.starts_with('/') && site_path::safe_location(path) == *path)
        .map(str::to_string)
}

impl FromRequest for Ctx {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Ctx, AppError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            if let Some(ctx) = req.extensions().get::<Ctx>() {
                return Ok(ctx.clone());
            }
            let ctx = Ctx::resolve(&req).await?;
            req.extensions_mut().insert(ctx.clone());
            Ok(ctx)
        })
    }
}
