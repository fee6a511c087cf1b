//! `#[serde(serialize_with = "...")]` for stored times (UTC without a zone) in API views:
//! written as the OpenAPI document says every time is, RFC 3339 with its offset (`...Z`),
//! like the views that hold a `DateTime<Utc>`; the pages keep formatting the plain value.
use chrono::NaiveDateTime;
use serde::{Serialize, Serializer};

pub fn at<S: Serializer>(at: &NaiveDateTime, serializer: S) -> Result<S::Ok, S::Error> {
    at.and_utc().serialize(serializer)
}

pub fn optional<S: Serializer>(
    at: &Option<NaiveDateTime>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    at.map(|at| at.and_utc()).serialize(serializer)
}
