//! At most `max_connections_per_address` open connections from one TCP peer. Each
//! connection is counted as it opens (`HttpServer::on_connect`) and counted down when it
//! closes; a request on a connection opened beyond the cap is answered 429
//! `too_many_connections` and its connection closed. A trusted proxy's address is not
//! capped: all its clients share it.
use std::any::Any;
use std::net::IpAddr;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Extensions, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

use super::client_limits::{PerAddress, RETRY_AFTER_SECS, Slot};
use super::trusted_proxies::TrustedProxies;
use crate::service::{AppError, Refusal};

/// Counts the open connections of each peer address, for `HttpServer::on_connect`.
#[derive(Debug, Clone)]
pub struct ConnectionCounter {
    counts: PerAddress<IpAddr>,
    cap: usize,
    trusted_proxies: TrustedProxies,
}

/// The count of one connection, kept in the connection's data until it closes.
#[derive(Debug)]
struct ConnectionSlot {
    slot: Slot<IpAddr>,
    cap: usize,
}

impl ConnectionCounter {
    pub fn new(cap: usize, trusted_proxies: TrustedProxies) -> ConnectionCounter {
        ConnectionCounter {
            counts: PerAddress::default(),
            cap,
            trusted_proxies,
        }
    }

    /// For `HttpServer::on_connect`: counts the new connection.
    pub fn on_connect(&self, connection: &dyn Any, data: &mut Extensions) {
        let peer = connection
            .downcast_ref::<actix_web::rt::net::TcpStream>()
            .and_then(|stream| stream.peer_addr().ok());
        let Some(peer) = peer.map(|addr| addr.ip().to_canonical()) else {
            return;
        };
        if self.trusted_proxies.contains(peer) {
            return;
        }
        data.insert(ConnectionSlot {
            slot: self.counts.enter(peer, self.cap),
            cap: self.cap,
        });
    }
}

/// Middleware: refuses every request of a connection opened beyond its address's cap.
pub async fn refuse_beyond_cap(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let beyond = req
        .conn_data::<ConnectionSlot>()
        .filter(|connection| !connection.slot.within_cap())
        .map(|connection| connection.cap);
    if let Some(limit) = beyond {
        let refused = AppError::TooManyRequests {
            reason: Refusal::TooManyConnections { limit },
            retry_after_secs: RETRY_AFTER_SECS,
        };
        return Ok(req.error_response(refused));
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}
