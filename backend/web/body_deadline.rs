//! Every byte of a request has a deadline: actix times out the head (`client_request_timeout`)
//! but not the body, so a client trickling a body a byte at a time could hold its
//! connection for as long as it liked. From the moment the head is read, the whole body
//! must arrive within `body_timeout`; a handler still reading it then is answered 408
//! `body_timeout` and the connection is closed (the rest of the body may still be on its
//! way). A handler that never reads the body is not affected.
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use actix_web::HttpMessage;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use futures_util::Stream;
use tokio::time::{Instant, Sleep};

use super::state::AppState;
use crate::service::{AppError, Refusal};

/// Middleware: puts the deadline on the request's body, and answers 408 when a handler
/// was still waiting for the body when it passed, whatever the handler made of the error.
pub async fn enforce(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let timeout = req
        .app_data::<web::Data<AppState>>()
        .map(|state| state.limits.body_timeout);
    let payload = req.take_payload();
    let Some(timeout) = timeout.filter(|_| !matches!(payload, Payload::None)) else {
        req.set_payload(payload);
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    let expired = Rc::new(Cell::new(false));
    req.set_payload(Payload::Stream {
        payload: Box::pin(Deadline {
            body: payload,
            deadline: Box::pin(tokio::time::sleep_until(Instant::now() + timeout)),
            expired: Rc::clone(&expired),
            ended: false,
        }),
    });
    let outcome = next.call(req).await;
    if !expired.get() {
        return Ok(outcome?.map_into_boxed_body());
    }
    let timed_out = AppError::RequestTimeout {
        reason: Refusal::BodyTimeout {
            seconds: timeout.as_secs(),
        },
    };
    match outcome {
        Ok(res) => {
            let (req, _) = res.into_parts();
            Ok(ServiceResponse::from_err(timed_out, req))
        }
        Err(_) => Err(timed_out.into()),
    }
}

/// The body, ending in an error once its deadline passes with bytes still to come.
struct Deadline {
    body: Payload,
    deadline: Pin<Box<Sleep>>,
    expired: Rc<Cell<bool>>,
    ended: bool,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        // What has arrived is read even after the deadline (a handler that reads the body
        // late is not the client's fault); only waiting for more is cut short.
        match Pin::new(&mut self.body).poll_next(cx) {
            Poll::Ready(None) => {
                self.ended = true;
                Poll::Ready(None)
            }
            Poll::Ready(Some(chunk)) => Poll::Ready(Some(chunk)),
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Pending => Poll::Pending,
                Poll::Ready(()) => {
                    self.ended = true;
                    self.expired.set(true);
                    Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the request body did not arrive in time",
                    )))))
                }
            },
        }
    }
}
