//! An event's or a game's local rules, and a Keizer event's options: their columns hold
//! JSON text, read back strictly.
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Text;
use diesel::sqlite::Sqlite;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::MultiBackend;
use damka_domain::keizer::KeizerOptions;

/// Local rules on top of the variant's preset (RULES.md); `None` keeps the preset's rule.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LocalRules {
    #[serde(default)]
    pub mandatory_capture: Option<bool>,
    /// `free` or `maximum`.
    #[serde(default)]
    pub capture_choice: Option<String>,
    /// Draw after this many plies without a capture or a man move.
    #[serde(default)]
    pub no_progress_limit: Option<u32>,
    /// Draw when the game reaches this many moves of both players together (plies), as
    /// the site of RULES.md's seed 001 counts them.
    #[serde(default)]
    pub move_limit: Option<u32>,
    /// One king each: draw after this many moves without a capture.
    #[serde(default)]
    pub lone_kings_limit: Option<u32>,
}

/// A value on its way into a JSON text column (an event's or a game's local rules, a
/// Keizer event's options).
#[derive(Debug, Clone, AsExpression)]
#[diesel(sql_type = Text)]
pub struct JsonText(String);

impl JsonText {
    fn of(value: &impl Serialize) -> JsonText {
        // Structs of plain fields always serialise; were one ever to fail, the empty text
        // would fail the next read loudly rather than pass for the defaults.
        JsonText(serde_json::to_string(value).unwrap_or_default())
    }
}

impl From<LocalRules> for JsonText {
    fn from(rules: LocalRules) -> JsonText {
        JsonText::of(&rules)
    }
}

impl From<KeizerOptions> for JsonText {
    fn from(options: KeizerOptions) -> JsonText {
        JsonText::of(&options)
    }
}

impl ToSql<Text, MultiBackend> for JsonText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
        out.set_value((Text, self.0.as_str()));
        Ok(IsNull::No)
    }
}

impl ToSql<Text, Sqlite> for JsonText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        <str as ToSql<Text, Sqlite>>::to_sql(self.0.as_str(), out)
    }
}

impl ToSql<Text, Pg> for JsonText {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <str as ToSql<Text, Pg>>::to_sql(self.0.as_str(), out)
    }
}

/// The JSON of a column read back strictly: text that is not `what` fails the read with a
/// message naming it.
fn read_json<T: DeserializeOwned>(
    bytes: <MultiBackend as Backend>::RawValue<'_>,
    what: &str,
) -> deserialize::Result<T> {
    let text = <String as FromSql<Text, MultiBackend>>::from_sql(bytes)?;
    serde_json::from_str(&text).map_err(|e| format!("unreadable {what} {text:?}: {e}").into())
}

impl FromSql<Text, MultiBackend> for LocalRules {
    fn from_sql(bytes: <MultiBackend as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        read_json(bytes, "local rules")
    }
}

impl Queryable<Text, MultiBackend> for LocalRules {
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

impl FromSql<Text, MultiBackend> for KeizerOptions {
    fn from_sql(bytes: <MultiBackend as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        read_json(bytes, "Keizer options")
    }
}

impl Queryable<Text, MultiBackend> for KeizerOptions {
    type Row = Self;

    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}
