//! The extractors of a handler that only a signed-in user may call: the request is refused
//! with `AppError::Unauthenticated` before the handler runs, answered as every other error
//! is (401 `problem+json` with `WWW-Authenticate` in the API, the 401 page for a browser).
//!
//! Each face keeps its own credentials: the API is signed in by its bearer token only
//! (`SignedIn`), the pages by their session cookie only (`SignedInPage`), so a browser's
//! cookie never signs an API request.
use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, dev::Payload};

use super::api::ApiActor;
use super::ctx::Ctx;
use crate::service::{Actor, AppError};

/// An API request with a valid token: the actor, known to be a user.
pub struct SignedIn(pub Actor);

impl FromRequest for SignedIn {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<SignedIn, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let actor = ApiActor::from_request(req, payload);
        Box::pin(async move {
            let ApiActor(actor) = actor.await?;
            actor.require_user()?;
            Ok(SignedIn(actor))
        })
    }
}

/// A page request of a signed-in browser: its context, whose `user` is set.
pub struct SignedInPage(pub Ctx);

impl FromRequest for SignedInPage {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<SignedInPage, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let ctx = Ctx::from_request(req, payload);
        Box::pin(async move {
            let ctx = ctx.await?;
            ctx.actor().require_user()?;
            Ok(SignedInPage(ctx))
        })
    }
}
