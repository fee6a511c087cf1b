//! The site's time zone as the pages read it: kept for a minute after it is read, so a
//! page does not ask the database for it on every request, and another instance's change
//! reaches this one within that minute (this instance's own change at once).
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono_tz::Tz;

use crate::service::{AppResult, time_zone};
use crate::store::DbPool;

const FRESH_FOR: Duration = Duration::from_secs(60);

/// Shared by the workers' copies of the application state.
#[derive(Clone, Default)]
pub struct SiteZone {
    read: Arc<Mutex<Option<(Tz, Instant)>>>,
}

impl SiteZone {
    /// The zone, from the last minute's reading or read now.
    pub async fn get(&self, pool: &DbPool) -> AppResult<Tz> {
        if let Some(zone) = self.fresh() {
            return Ok(zone);
        }
        let pool = pool.clone();
        let zone = actix_web::web::block(move || {
            let mut conn = pool.get()?;
            time_zone::time_zone(&mut conn)
        })
        .await
        .map_err(crate::service::AppError::internal)??;
        self.remember(zone);
        Ok(zone)
    }

    /// This instance's own change, seen at once.
    pub fn remember(&self, zone: Tz) {
        if let Ok(mut read) = self.read.lock() {
            *read = Some((zone, Instant::now()));
        }
    }

    fn fresh(&self) -> Option<Tz> {
        let read = self.read.lock().ok()?;
        read.filter(|(_, at)| at.elapsed() < FRESH_FOR)
            .map(|(zone, _)| zone)
    }
}
