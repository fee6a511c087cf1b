//! What every handler shares: the connection pool, the CSRF signing secret, the
//! proxies whose forwarded headers are believed and the limits on each client.
use actix_web::web;

use super::client_limits::ClientLimits;
use super::trusted_proxies::TrustedProxies;

use crate::service::{AppError, AppResult};
use crate::store::{DbConn, DbPool};

#[derive(Clone)]
pub struct AppState {
    pub pool: DbPool,
    pub site_secret: Vec<u8>,
    pub trusted_proxies: TrustedProxies,
    pub limits: ClientLimits,
    /// The site's time zone, read at most once a minute.
    pub site_zone: super::site_zone::SiteZone,
}

impl AppState {
    /// Runs blocking diesel work on the thread pool (diesel is synchronous) with a pooled
    /// connection.
    pub async fn db<T, F>(&self, work: F) -> AppResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> AppResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        web::block(move || {
            let mut conn = pool.get()?;
            work(&mut conn)
        })
        .await
        .map_err(AppError::internal)?
    }
}
