//! The site's time zone: the clock the club lives by. Times are stored in UTC; pages show
//! them in this zone, with the zone's offset beside them, so an audit entry or a game's
//! start reads as the club's wall clock said it. An administrator sets it; UTC until then.
use chrono::{NaiveDateTime, Offset, TimeZone};
use chrono_tz::Tz;

use super::{Actor, AppError, AppResult, DbConn, Refusal};
use crate::store::settings;

const SETTING_TIME_ZONE: &str = "time_zone";

/// The site's zone; UTC when none is set (or the stored name is one this build does not
/// know, which a newer time zone database could have written).
pub fn time_zone(conn: &mut DbConn) -> AppResult<Tz> {
    Ok(settings::get(conn, SETTING_TIME_ZONE)?
        .and_then(|name| name.parse::<Tz>().ok())
        .unwrap_or(Tz::UTC))
}

/// Sets the site's zone by its IANA name (`Europe/Moscow`); administrators only.
pub fn set_time_zone(conn: &mut DbConn, actor: &Actor, name: &str) -> AppResult<Tz> {
    actor.require_admin()?;
    let zone = parse(name)?;
    conn.write_transaction(|conn| settings::set(conn, SETTING_TIME_ZONE, zone.name()))?;
    Ok(zone)
}

/// A zone by its IANA name, exactly as the database spells it.
pub fn parse(name: &str) -> AppResult<Tz> {
    name.trim()
        .parse::<Tz>()
        .map_err(|_| AppError::invalid("time_zone", Refusal::UnknownTimeZone))
}

/// Every zone a site may choose, by name: the canonical ones of the time zone database
/// (not its old aliases such as `W-SU`).
pub fn choices() -> Vec<Tz> {
    let mut zones: Vec<Tz> = chrono_tz::TZ_VARIANTS
        .iter()
        .copied()
        .filter(|zone| is_canonical(zone.name()))
        .collect();
    zones.sort_by_key(|zone| zone.name());
    zones
}

/// Region/City names, and UTC itself; leaves out the database's backward-compatible
/// aliases outside the regions (`US/Eastern`, `W-SU`, `Etc/GMT+3`).
fn is_canonical(name: &str) -> bool {
    const REGIONS: [&str; 10] = [
        "Africa/",
        "America/",
        "Antarctica/",
        "Arctic/",
        "Asia/",
        "Atlantic/",
        "Australia/",
        "Europe/",
        "Indian/",
        "Pacific/",
    ];
    name == "UTC" || REGIONS.iter().any(|region| name.starts_with(region))
}

/// A stored UTC time on the zone's wall clock, and the zone's offset from UTC then.
pub fn local(zone: Tz, utc: &NaiveDateTime) -> (NaiveDateTime, UtcOffset) {
    let at = zone.from_utc_datetime(utc);
    let seconds = at.offset().fix().local_minus_utc();
    (at.naive_local(), UtcOffset { seconds })
}

/// An offset from UTC, written as `UTC`, `UTC+3`, `UTC-3:30`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcOffset {
    pub seconds: i32,
}

impl std::fmt::Display for UtcOffset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.seconds < 0 { '-' } else { '+' };
        let minutes = self.seconds.unsigned_abs() / 60;
        match (minutes / 60, minutes % 60) {
            (0, 0) => write!(f, "UTC"),
            (hours, 0) => write!(f, "UTC{sign}{hours}"),
            (hours, rest) => write!(f, "UTC{sign}{hours}:{rest:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn a_utc_time_on_the_zones_wall_clock() {
        let moscow: Tz = "Europe/Moscow".parse().unwrap();
        let (wall, offset) = local(moscow, &at("2026-12-07 14:05"));
        assert_eq!(
            (wall, offset.to_string()),
            (at("2026-12-07 17:05"), "UTC+3".into())
        );
        // Summer time in Amsterdam, winter time, and a half-hour zone.
        let amsterdam: Tz = "Europe/Amsterdam".parse().unwrap();
        assert_eq!(
            local(amsterdam, &at("2026-07-01 12:00")).1.to_string(),
            "UTC+2"
        );
        assert_eq!(
            local(amsterdam, &at("2026-12-01 12:00")).1.to_string(),
            "UTC+1"
        );
        let newfoundland: Tz = "America/St_Johns".parse().unwrap();
        assert_eq!(
            local(newfoundland, &at("2026-12-01 12:00")).1.to_string(),
            "UTC-3:30"
        );
        assert_eq!(local(Tz::UTC, &at("2026-12-01 12:00")).1.to_string(), "UTC");
    }

    #[test]
    fn choices_are_canonical_names_that_parse() {
        let zones = choices();
        assert!(zones.len() > 300, "{}", zones.len());
        assert!(zones.iter().any(|z| z.name() == "Europe/Moscow"));
        assert!(
            zones
                .iter()
                .all(|z| !z.name().starts_with("US/") && z.name() != "W-SU")
        );
        assert!(parse("Mars/Olympus").is_err());
    }
}
