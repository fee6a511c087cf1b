//! `CsrfForm<T>`: an urlencoded HTML form whose `csrf_token` field must match the
//! browser's CSRF cookie (and session, once signed in) before the form is even parsed.
use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpMessage, HttpRequest, dev::Payload, web};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use super::cookies;
use super::middleware::CsrfCookie;
use super::state::AppState;
use crate::service::{AppError, Refusal, auth};

/// Forms are small; anything larger is refused before it is read whole.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// `MAX_BYTES` is the largest body read; a form that carries a whole file (the TRF
/// import) names its own.
pub struct CsrfForm<T, const MAX_BYTES: usize = MAX_FORM_BYTES>(pub T);

impl<T: DeserializeOwned + 'static, const MAX_BYTES: usize> FromRequest for CsrfForm<T, MAX_BYTES> {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<CsrfForm<T, MAX_BYTES>, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let mut payload = payload.take();
        Box::pin(async move {
            let content_type = req.content_type().to_string();
            if content_type != "application/x-www-form-urlencoded" {
                return Err(AppError::bad_request(Refusal::NotAForm { content_type }));
            }
            let too_large = AppError::PayloadTooLarge {
                limit_bytes: MAX_BYTES,
            };
            if declared_length(&req).is_some_and(|length| length > MAX_BYTES) {
                return Err(too_large);
            }
            let mut body = web::BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| {
                    AppError::bad_request(Refusal::UnreadableForm {
                        message: e.to_string(),
                    })
                })?;
                if body.len() + chunk.len() > MAX_BYTES {
                    return Err(too_large);
                }
                body.extend_from_slice(&chunk);
            }
            let secret = req
                .app_data::<web::Data<AppState>>()
                .map(|s| s.site_secret.clone())
                .ok_or_else(|| AppError::internal("application state missing"))?;
            let cookie = req.extensions().get::<CsrfCookie>().map(|c| c.0.clone());
            let session = cookies::session_value(&req);
            let submitted = form_field(&body, "csrf_token");
            match (cookie, submitted) {
                (Some(cookie), Some(token))
                    if auth::csrf_matches(&secret, &cookie, session.as_deref(), &token) => {}
                _ => return Err(AppError::CsrfRejected),
            }
            serde_urlencoded::from_bytes::<T>(&body)
                .map(CsrfForm)
                .map_err(|e| {
                    AppError::bad_request(Refusal::UnreadableForm {
                        message: e.to_string(),
                    })
                })
        })
    }
}

/// The body length the client announced, so an oversized form is refused unread.
fn declared_length(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get(actix_web::http::header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

fn form_field(body: &[u8], name: &str) -> Option<String> {
    serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
        .ok()?
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// Parses an optional whole number typed into a form field, naming the field when it is
/// not one.
pub fn optional_number<N: std::str::FromStr>(
    field: &'static str,
    value: &str,
) -> Result<Option<N>, AppError> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    value
        .parse::<N>()
        .map(Some)
        .map_err(|_| AppError::invalid(field, Refusal::NotAWholeNumber))
}
