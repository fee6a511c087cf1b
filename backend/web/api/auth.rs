//! `ApiActor`: the user behind the request's API token, or anonymous when none is sent.
use std::future::Future;
use std::pin::Pin;

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};

use crate::service::{Actor, AppError, Refusal, accounts};
use crate::web::state::AppState;

pub struct ApiActor(pub Actor);

impl FromRequest for ApiActor {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<ApiActor, AppError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let header = req
            .headers()
            .get(header::AUTHORIZATION)
            .map(|h| h.to_str().map(str::to_string));
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let req = req.clone();
        Box::pin(async move {
            let Some(header) = header else {
                return Ok(ApiActor(Actor::anonymous()));
            };
            let header =
                header.map_err(|_| AppError::bad_request(Refusal::AuthorizationNotText))?;
            let token = header
                .strip_prefix("Bearer ")
                .or_else(|| header.strip_prefix("bearer "))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .ok_or_else(|| AppError::bad_request(Refusal::AuthorizationNotBearer))?
                .to_string();
            let state = state.ok_or_else(|| AppError::internal("application state missing"))?;
            match state
                .db(move |conn| accounts::user_for_api_token(conn, &token))
                .await?
            {
                Some(user) => {
                    crate::web::middleware::record_user(&req, user.id);
                    Ok(ApiActor(Actor::signed_in(user)))
                }
                None => Err(AppError::Unauthenticated),
            }
        })
    }
}
