//! Who the client is and whether it used TLS. Forwarded headers (`X-Forwarded-For`,
//! `X-Forwarded-Proto`, `Forwarded`) are believed only when the TCP peer is a trusted proxy
//! (`--trusted-proxy`): anyone else could write them, and a client that picks its own
//! address escapes the per-address sign-in limit.
use actix_web::HttpRequest;
use actix_web::http::header::HeaderName;
use actix_web::web;

use super::state::AppState;
pub use super::trusted_proxies::TrustedProxies;

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

fn trusted_proxies(req: &HttpRequest) -> Option<&TrustedProxies> {
    req.app_data::<web::Data<AppState>>()
        .map(|state| &state.trusted_proxies)
}

/// The client address used for the per-address sign-in limit.
pub fn client_address(req: &HttpRequest) -> String {
    let Some(peer) = req.peer_addr().map(|addr| addr.ip()) else {
        return "unknown".into();
    };
    let Some(proxies) = trusted_proxies(req) else {
        return peer.to_canonical().to_string();
    };
    // Several headers and comma-separated lists read as one list, in order.
    let hops: Vec<&str> = req
        .headers()
        .get_all(X_FORWARDED_FOR)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect();
    proxies.client_ip(peer, hops.into_iter()).to_string()
}

/// Whether the client reached us over TLS: our own listener, or a trusted proxy that says
/// so in `X-Forwarded-Proto`/`Forwarded`.
pub fn is_tls(req: &HttpRequest) -> bool {
    if req.app_config().secure() {
        return true;
    }
    let peer_is_trusted = req
        .peer_addr()
        .zip(trusted_proxies(req))
        .is_some_and(|(peer, proxies)| proxies.contains(peer.ip()));
    peer_is_trusted && req.connection_info().scheme() == "https"
}
