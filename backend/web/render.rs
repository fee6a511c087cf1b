//! Turning templates and redirects into responses.
use actix_web::http::StatusCode;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;

use super::cookies;
use super::ctx::Flash;
use crate::service::{AppError, AppResult, Refusal};

/// Renders a template with an explicit status (e.g. 422 for a form with errors).
pub fn page(status: StatusCode, template: &impl Template) -> AppResult<HttpResponse> {
    let body = template.render().map_err(AppError::internal)?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body))
}

/// 303 See Other to `location` (after a successful form), with a flash message.
pub fn redirect_with_flash(
    req: &HttpRequest,
    location: &str,
    kind: &str,
    key: &str,
) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, safe_location(location)))
        .cookie(cookies::flash(req, &Flash::encode(kind, key)))
        .finish()
}

pub fn redirect(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, safe_location(location)))
        .finish()
}

pub use super::site_path::safe_location;

/// The message and field of a form that failed validation, for inline display.
#[derive(Debug, Clone, Default)]
pub struct FormErrors {
    pub field: String,
    pub message: String,
}

impl FormErrors {
    pub fn none() -> FormErrors {
        FormErrors::default()
    }

    /// The localized message of an `AppError::Invalid` (at its field) or `Conflict` (for
    /// the whole form), or `None` for other errors (which the caller propagates as an
    /// error page).
    pub fn from_error(err: &AppError, lang: super::i18n::Lang) -> Option<FormErrors> {
        match err {
            AppError::Invalid { field, reason } => Some(FormErrors {
                field: (*field).to_string(),
                message: super::refusals::text(lang, reason),
            }),
            AppError::Conflict { reason } => Some(FormErrors {
                field: String::new(),
                message: super::refusals::text(lang, reason),
            }),
            // The form's club choice: shown beside the field, with the way to join.
            AppError::Forbidden {
                reason: reason @ Refusal::NotClubOrganiser,
            } => Some(FormErrors {
                field: "club_id".to_string(),
                message: super::refusals::text(lang, reason),
            }),
            _ => None,
        }
    }

    /// The message for `field`, empty when the error is elsewhere.
    pub fn on(&self, field: &str) -> &str {
        if self.field == field {
            &self.message
        } else {
            ""
        }
    }

    /// The message when the error belongs to no single field of the form.
    pub fn general(&self, fields: &[&str]) -> &str {
        if self.message.is_empty() || fields.contains(&self.field.as_str()) {
            ""
        } else {
            &self.message
        }
    }

    pub fn any(&self) -> bool {
        !self.message.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_redirects() {
        assert_eq!(safe_location("/players?x=1"), "/players?x=1");
        assert_eq!(safe_location("//evil.example"), "/");
        assert_eq!(safe_location("https://evil.example"), "/");
        assert_eq!(safe_location("/\\evil"), "/");
        assert_eq!(safe_location("/"), "/");
        assert_eq!(
            safe_location("/events/3?tab=entries#board-2"),
            "/events/3?tab=entries#board-2"
        );
        assert_eq!(safe_location("/search?q=%D0%90"), "/search?q=%D0%90");
        for hostile in [
            "",
            "/\t/evil.example/",
            "/\n/evil.example/",
            "/a\r\nSet-Cookie: x=1",
            "/\u{0}x",
            "/a b",
            "/a\\b",
            "/ёлка",
            "/a\"onmouseover",
            "/<script>",
            "evil.example",
            "javascript:alert(1)",
        ] {
            assert_eq!(safe_location(hostile), "/", "{hostile:?}");
        }
    }
}
