//! Typed values in text columns, on both backends: a value of `damka_domain::vocabulary` is written as
//! its spelling and read back through its one parse, and a word the database should never
//! hold fails the read with a message naming it. The event's local rules are a JSON object
//! in a text column, read the same strict way.
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, Queryable};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::Text;
use diesel::sqlite::Sqlite;

use super::MultiBackend;
use damka_domain::tournament::{ByeKind, Colour};
use damka_domain::vocabulary::{
    BallotPer, EventStatus, GameEnd, GameStatus, MatchScoring, OpeningBallot, RatingSystem,
    RemovalAction, RemovalSubject, ResultCode, ScoringDisplay, Spelling, System, TimeCategory,
    parse,
};
use damka_engine::Variant;

/// A value on its way into a text column, written as its spelling. (The engine's and the
/// domain's types cannot be given diesel's traits here, so every value goes through this.)
#[derive(Debug, Clone, Copy, AsExpression)]
#[diesel(sql_type = Text)]
pub struct Spelled<T: Spelling>(pub T);

impl<T: Spelling> From<T> for Spelled<T> {
    fn from(value: T) -> Spelled<T> {
        Spelled(value)
    }
}

impl<T: Spelling> ToSql<Text, MultiBackend> for Spelled<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
        out.set_value((Text, self.0.spelling()));
        Ok(IsNull::No)
    }
}

// A whole row inserted through `Insertable` is written by each backend itself.
impl<T: Spelling> ToSql<Text, Sqlite> for Spelled<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        <str as ToSql<Text, Sqlite>>::to_sql(self.0.spelling(), out)
    }
}

impl<T: Spelling> ToSql<Text, Pg> for Spelled<T> {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <str as ToSql<Text, Pg>>::to_sql(self.0.spelling(), out)
    }
}

/// The text of a column, read as a `T`: an unknown word is an error, never a default.
fn read_spelled<T: Spelling>(
    bytes: <MultiBackend as Backend>::RawValue<'_>,
) -> deserialize::Result<T> {
    let text = <String as FromSql<Text, MultiBackend>>::from_sql(bytes)?;
    Ok(parse::<T>(&text)?)
}

/// Lets rows hold `$ty` for a text column.
macro_rules! text_column {
    ($($ty:ty),+ $(,)?) => {$(
        impl FromSql<Text, MultiBackend> for $ty {
            fn from_sql(bytes: <MultiBackend as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
                read_spelled(bytes)
            }
        }

        impl Queryable<Text, MultiBackend> for $ty {
            type Row = Self;

            fn build(row: Self) -> deserialize::Result<Self> {
                Ok(row)
            }
        }
    )+};
}

text_column!(
    Variant,
    System,
    EventStatus,
    ScoringDisplay,
    TimeCategory,
    ResultCode,
    ByeKind,
    Colour,
    GameStatus,
    GameEnd,
    RatingSystem,
    MatchScoring,
    OpeningBallot,
    BallotPer,
    RemovalSubject,
    RemovalAction,
    damka_engine::Color,
);
