//! Statements diesel would prepare again on every execution. diesel caches a prepared
//! statement only when the query says it is safe to, and its `UPDATE` statements (and raw
//! SQL) always say no, because a changeset may leave columns out. On PostgreSQL an
//! unprepared statement costs a parse, a plan and an extra round trip each time; the hot
//! writes of a game (its revision lock and its state) were half the statement time of a
//! move. `Prepared` marks a query whose SQL text is the same for every execution with the
//! same shape; the cache is keyed by that text, so a query whose text varies is still
//! correct, it merely fills the cache.
use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::query_dsl::RunQueryDsl;
use diesel::result::QueryResult;

#[derive(Debug, Clone, Copy)]
pub struct Prepared<Q>(pub Q);

impl<Q> QueryId for Prepared<Q> {
    // No static id: the statement cache keys it by its SQL text.
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: Query> Query for Prepared<Q> {
    type SqlType = Q::SqlType;
}

impl<Q, DB> QueryFragment<DB> for Prepared<Q>
where
    DB: Backend,
    Q: QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q, Conn> RunQueryDsl<Conn> for Prepared<Q> {}
