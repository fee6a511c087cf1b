//! `ApiActor`: the user behind the request's API token, or anonymous when none is sent.
//! `ApiCredentials`: the token only, for a handler that looks it up inside its own database
//! call (the move submission: one trip to the blocking pool per move instead of two).
use std::future::{Future, Ready, ready};
use std::pin::Pin;

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};

use crate::service::{Actor, AppError, AppResult, DbConn, Refusal, accounts};
use crate::web::state::AppState;

pub struct ApiActor(pub Actor);

/// The bearer token of a request, not yet looked up; `None` when none is sent.
pub struct ApiCredentials {
    token: Option<String>,
    request: HttpRequest,
}

impl ApiCredentials {
    /// The token sent, to look up with `actor_for` inside the handler's database call.
    pub fn token(&self) -> Option<String> {
        self.token.clone()
    }

    /// Records the actor found in the request's log span.
    pub fn record(&self, actor: &Actor) {
        if let Some(user) = &actor.user {
            crate::web::middleware::record_user(&self.request, user.id);
        }
    }
}

/// The actor behind `token`, looked up on `conn`: anonymous without a token, 401 for a
/// token that is unknown or revoked.
pub fn actor_for(conn: &mut DbConn, token: Option<&str>) -> AppResult<Actor> {
    let Some(token) = token else {
        return Ok(Actor::anonymous());
    };
    match accounts::user_for_api_token(conn, token)? {
        Some(user) => Ok(Actor::signed_in(user)),
        None => Err(AppError::Unauthenticated),
    }
}

/// The token of the `Authorization` header, or a refusal naming what is wrong with it.
fn bearer_token(req: &HttpRequest) -> AppResult<Option<String>> {
    let Some(header) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let header = header
        .to_str()
        .map_err(|_| AppError::bad_request(Refusal::AuthorizationNotText))?;
    header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|token| Some(token.to_string()))
        .ok_or_else(|| AppError::bad_request(Refusal::AuthorizationNotBearer))
}

impl FromRequest for ApiCredentials {
    type Error = AppError;
    type Future = Ready<Result<ApiCredentials, AppError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(bearer_token(req).map(|token| ApiCredentials {
            token,
            request: req.clone(),
        }))
    }
}

impl FromRequest for ApiActor {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiActor, AppError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let credentials = bearer_token(req).map(|token| ApiCredentials {
            token,
            request: req.clone(),
        });
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let credentials = credentials?;
            let Some(token) = credentials.token() else {
                return Ok(ApiActor(Actor::anonymous()));
            };
            let state = state.ok_or_else(|| AppError::internal("application state missing"))?;
            let actor = state.db(move |conn| actor_for(conn, Some(&token))).await?;
            credentials.record(&actor);
            Ok(ApiActor(actor))
        })
    }
}
