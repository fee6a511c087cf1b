//! A time control (`damka_domain::clock::TimeControl`) in a text column and in JSON.
//!
//! The column holds its stored form (`none`, `fischer:5400+30`, `per_move:30`) and a value
//! the domain cannot read fails the read loudly. JSON (the API's event and game inputs and
//! views) spells it as an object, `{"kind": "fischer", "base_s": 5400, "increment_s": 30}`,
//! with a per-move control's seconds in `base_s`.
use damka_domain::clock::TimeControl;
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Text;
use diesel::sqlite::Sqlite;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::MultiBackend;

/// A time control on its way into its column.
#[derive(Debug, Clone, AsExpression)]
#[diesel(sql_type = Text)]
pub struct TimeControlText(String);

impl From<TimeControl> for TimeControlText {
    fn from(control: TimeControl) -> TimeControlText {
        TimeControlText(control.to_string())
    }
}

impl ToSql<Text, MultiBackend> for TimeControlText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
        out.set_value((Text, self.0.as_str()));
        Ok(IsNull::No)
    }
}

impl ToSql<Text, Sqlite> for TimeControlText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        <str as ToSql<Text, Sqlite>>::to_sql(self.0.as_str(), out)
    }
}

impl ToSql<Text, Pg> for TimeControlText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <str as ToSql<Text, Pg>>::to_sql(self.0.as_str(), out)
    }
}

impl FromSql<Text, MultiBackend> for TimeControl {
    fn from_sql(bytes: <MultiBackend as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        let text = <String as FromSql<Text, MultiBackend>>::from_sql(bytes)?;
        TimeControl::parse(&text).map_err(|e| format!("stored time control: {e}").into())
    }
}

impl Queryable<Text, MultiBackend> for TimeControl {
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

/// A time control as the API writes and reads it.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = TimeControl)]
pub struct TimeControlJson {
    /// `none`, `fischer` (base time plus an increment per move) or `per_move` (a fixed
    /// time for every move, in `base_s`).
    pub kind: String,
    /// Fischer: the base time in seconds; per move: the seconds for each move.
    #[serde(default)]
    pub base_s: u32,
    /// Fischer: seconds added after each timed move.
    #[serde(default)]
    pub increment_s: u32,
}

impl From<TimeControl> for TimeControlJson {
    fn from(control: TimeControl) -> TimeControlJson {
        TimeControlJson {
            kind: control.kind().to_string(),
            base_s: control.base_s(),
            increment_s: control.increment_s(),
        }
    }
}

/// `#[serde(with = "time_control_json")]` on a `TimeControl` field.
pub mod json {
    use super::*;

    pub fn serialize<S: Serializer>(control: &TimeControl, s: S) -> Result<S::Ok, S::Error> {
        TimeControlJson::from(*control).serialize(s)
    }

    /// An unknown kind or a value out of range fails the body with the field named.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let json = TimeControlJson::deserialize(d)?;
        TimeControl::from_parts(&json.kind, json.base_s, json.increment_s)
            .map_err(serde::de::Error::custom)
    }
}
