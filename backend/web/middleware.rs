//! Small request/response steps shared by every route.
use actix_web::HttpMessage;
use actix_web::body::{self, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;

use super::cookies;
use crate::service::auth;

/// The browser's CSRF cookie value, put in the request by the `csrf_cookie` middleware
/// (a new one when the browser had none).
#[derive(Debug, Clone)]
pub struct CsrfCookie(pub String);

/// Gives every browser a random CSRF cookie (the form tokens are HMACs of it) and clears
/// a flash message once a page has shown it.
pub async fn csrf_and_flash(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let existing = req
        .cookie(cookies::CSRF)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() >= 16);
    let fresh = existing.is_none();
    let value = existing.unwrap_or_else(|| auth::random_token(24));
    req.extensions_mut().insert(CsrfCookie(value.clone()));
    let had_flash = req.cookie(cookies::FLASH).is_some();
    let mut res = next.call(req).await?;
    let is_api = res.request().path().starts_with("/api/");
    if fresh && !is_api {
        let cookie = cookies::csrf(res.request(), value);
        res.response_mut().add_cookie(&cookie)?;
    }
    let redirect = res.status().is_redirection();
    let sets_flash = res.response().cookies().any(|c| c.name() == cookies::FLASH);
    if had_flash && !redirect && !sets_flash {
        let removal = cookies::removal(res.request(), cookies::FLASH);
        res.response_mut().add_cookie(&removal)?;
    }
    Ok(res)
}

/// HEAD is answered by the GET route of the same path, without the body (RFC 9110
/// 9.3.2), so every page, API read and asset answers it; and a 405 that allows GET says it
/// allows HEAD too. The method is changed before routing, so no route needs to list HEAD.
pub async fn answer_head(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let is_head = req.method() == Method::HEAD;
    if is_head {
        req.head_mut().method = Method::GET;
    }
    let mut res = next.call(req).await?;
    add_head_to_allow(res.headers_mut());
    if !is_head {
        return Ok(res.map_into_boxed_body());
    }
    // No body and so no Content-Length: its value would only be known by producing the
    // body (RFC 9110 allows leaving it out).
    Ok(res.map_body(|_, _| BoxBody::new(body::None::new())))
}

fn add_head_to_allow(headers: &mut header::HeaderMap) {
    let Some(allow) = headers.get(header::ALLOW).and_then(|v| v.to_str().ok()) else {
        return;
    };
    let methods: Vec<&str> = allow.split(',').map(str::trim).collect();
    if methods.contains(&"GET") && !methods.contains(&"HEAD") {
        let with_head = format!("{}, HEAD", methods.join(", "));
        if let Ok(value) = HeaderValue::from_str(&with_head) {
            headers.insert(header::ALLOW, value);
        }
    }
}

/// The root span of every request carries the signed-in user's id once it is known.
pub struct RequestSpan;

impl tracing_actix_web::RootSpanBuilder for RequestSpan {
    fn on_request_start(request: &ServiceRequest) -> tracing::Span {
        tracing_actix_web::root_span!(request, user_id = tracing::field::Empty)
    }

    /// One line per request (the access log), inside the request's span so that it carries
    /// the request id the response's `x-request-id` names, the method, path and user.
    fn on_request_end<B: MessageBody>(
        span: tracing::Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        let status = match outcome {
            Ok(res) => res.status().as_u16(),
            Err(err) => err.as_response_error().status_code().as_u16(),
        };
        span.in_scope(|| tracing::info!(status, "request finished"));
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// Records who is acting in the request's log span.
pub fn record_user(req: &actix_web::HttpRequest, user_id: i64) {
    if let Some(span) = req.extensions().get::<tracing_actix_web::RootSpan>() {
        span.record("user_id", user_id);
    }
}

/// Security headers for every response, and the request id for log correlation.
pub async fn headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let request_id = req
        .extensions()
        .get::<tracing_actix_web::RequestId>()
        .map(|id| id.to_string());
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    if let Some(id) = request_id
        && let Ok(value) = HeaderValue::from_str(&id)
    {
        headers.insert(HeaderName::from_static("x-request-id"), value);
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; form-action 'self'; frame-ancestors 'none'",
        ),
    );
    Ok(res)
}
