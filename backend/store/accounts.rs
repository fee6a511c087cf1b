//! Accounts: users, login sessions, API tokens, password attempts and invitations.
//! Secrets are never stored: sessions, tokens and invitation codes are kept as SHA-256
//! hashes, passwords as argon2id hashes made by the service.
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::models::{ApiToken, Invitation, NewUser, User};
use super::schema::{api_tokens, invitations, sessions, sign_in_attempts, users};
use super::{DbConn, QueryResult};

pub fn insert_user(conn: &mut DbConn, new: &NewUser<'_>) -> QueryResult<User> {
    let id: i64 = diesel::insert_into(users::table)
        .values(new)
        .returning(users::id)
        .get_result(conn)?;
    users::table.find(id).select(User::as_select()).first(conn)
}

/// The stored argon2id hash of an account's password, for the password check only.
pub fn password_hash_of(conn: &mut DbConn, user_id: i64) -> QueryResult<Option<String>> {
    users::table
        .find(user_id)
        .select(users::password_hash)
        .first(conn)
        .optional()
}

pub fn user_by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<User>> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn user_by_email(conn: &mut DbConn, email: &str) -> QueryResult<Option<User>> {
    users::table
        .filter(users::email.eq(email))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn user_by_player(conn: &mut DbConn, player_id: i64) -> QueryResult<Option<User>> {
    users::table
        .filter(users::player_id.eq(player_id))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn list_users(conn: &mut DbConn) -> QueryResult<Vec<User>> {
    users::table
        .order(users::id)
        .select(User::as_select())
        .load(conn)
}

pub fn count_admins(conn: &mut DbConn) -> QueryResult<i64> {
    users::table
        .filter(users::is_admin.eq(true))
        .count()
        .get_result(conn)
}

pub fn set_password_hash(conn: &mut DbConn, user_id: i64, hash: &str) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::password_hash.eq(hash))
        .execute(conn)
        .map(|_| ())
}

pub fn set_locale(conn: &mut DbConn, user_id: i64, locale: Option<&str>) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::locale.eq(locale))
        .execute(conn)
        .map(|_| ())
}

pub fn set_roles(conn: &mut DbConn, user_id: i64, admin: bool, organiser: bool) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set((users::is_admin.eq(admin), users::is_organiser.eq(organiser)))
        .execute(conn)
        .map(|_| ())
}

pub fn link_player(conn: &mut DbConn, user_id: i64, player_id: Option<i64>) -> QueryResult<()> {
    diesel::update(users::table.find(user_id))
        .set(users::player_id.eq(player_id))
        .execute(conn)
        .map(|_| ())
}

// --- login sessions ---------------------------------------------------------------------

pub fn insert_session(
    conn: &mut DbConn,
    token_hash: &str,
    user_id: i64,
    created_at: NaiveDateTime,
    expires_at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(created_at),
            sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The user of a live session.
pub fn user_by_session(
    conn: &mut DbConn,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<User>> {
    sessions::table
        .inner_join(users::table)
        .filter(sessions::token_hash.eq(token_hash))
        .filter(sessions::expires_at.gt(now))
        .select(User::as_select())
        .first(conn)
        .optional()
}

pub fn delete_session(conn: &mut DbConn, token_hash: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.filter(sessions::token_hash.eq(token_hash)))
        .execute(conn)
        .map(|_| ())
}

/// Ends every session of a user except the one given (after a password change).
pub fn delete_other_sessions(conn: &mut DbConn, user_id: i64, keep_hash: &str) -> QueryResult<()> {
    diesel::delete(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::token_hash.ne(keep_hash)),
    )
    .execute(conn)
    .map(|_| ())
}

pub fn delete_expired_sessions(conn: &mut DbConn, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)
}

// --- API tokens ---------------------------------------------------------------------------

pub fn insert_api_token(
    conn: &mut DbConn,
    user_id: i64,
    name: &str,
    token_hash: &str,
    prefix: &str,
    created_at: NaiveDateTime,
) -> QueryResult<ApiToken> {
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(user_id),
            api_tokens::name.eq(name),
            api_tokens::token_hash.eq(token_hash),
            api_tokens::prefix.eq(prefix),
            api_tokens::created_at.eq(created_at),
        ))
        .returning(api_tokens::all_columns)
        .get_result(conn)
}

pub fn api_tokens_of(conn: &mut DbConn, user_id: i64) -> QueryResult<Vec<ApiToken>> {
    api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order(api_tokens::id)
        .select(ApiToken::as_select())
        .load(conn)
}

/// The token's id, when it was last used, and its user.
pub fn user_by_api_token(
    conn: &mut DbConn,
    token_hash: &str,
) -> QueryResult<Option<(i64, Option<NaiveDateTime>, User)>> {
    api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::token_hash.eq(token_hash))
        .select((api_tokens::id, api_tokens::last_used_at, User::as_select()))
        // `get_result`, not `first`: the token hash is unique, and `first`'s `LIMIT ?`
        // makes SQLite compile the statement again on every request.
        .get_result(conn)
        .optional()
}

pub fn touch_api_token(conn: &mut DbConn, token_id: i64, at: NaiveDateTime) -> QueryResult<()> {
    diesel::update(api_tokens::table.find(token_id))
        .set(api_tokens::last_used_at.eq(Some(at)))
        .execute(conn)
        .map(|_| ())
}

/// Deletes a token of this user; false when it is not theirs or does not exist.
pub fn delete_api_token(conn: &mut DbConn, user_id: i64, token_id: i64) -> QueryResult<bool> {
    diesel::delete(
        api_tokens::table
            .filter(api_tokens::id.eq(token_id))
            .filter(api_tokens::user_id.eq(user_id)),
    )
    .execute(conn)
    .map(|n| n > 0)
}

/// Revokes every token of a user (after a password change).
pub fn delete_api_tokens_of(conn: &mut DbConn, user_id: i64) -> QueryResult<()> {
    diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user_id)))
        .execute(conn)
        .map(|_| ())
}

// --- password attempts (limits shared by every instance) ---------------------------------

/// Records a password attempt before the password is compared; it counts as a failure
/// until `mark_attempt_succeeded`. Returns the attempt's id.
pub fn record_attempt(
    conn: &mut DbConn,
    account: &str,
    address: &str,
    at: NaiveDateTime,
) -> QueryResult<i64> {
    diesel::insert_into(sign_in_attempts::table)
        .values((
            sign_in_attempts::account.eq(account),
            sign_in_attempts::address.eq(address),
            sign_in_attempts::attempted_at.eq(at),
        ))
        .returning(sign_in_attempts::id)
        .get_result(conn)
}

/// Whose attempts to count: one account's, or one client address's.
#[derive(Debug, Clone, Copy)]
pub enum AttemptsOf<'a> {
    Account(&'a str),
    Address(&'a str),
}

/// The attempts after `since` that did not succeed (failed, or still being checked), and
/// when the oldest of them was made.
pub fn count_unsucceeded_attempts(
    conn: &mut DbConn,
    of: AttemptsOf<'_>,
    since: NaiveDateTime,
) -> QueryResult<(i64, Option<NaiveDateTime>)> {
    let recent = sign_in_attempts::table
        .filter(sign_in_attempts::attempted_at.gt(since))
        .filter(sign_in_attempts::succeeded.eq(false))
        .into_boxed();
    let rows = match of {
        AttemptsOf::Account(account) => recent.filter(sign_in_attempts::account.eq(account)),
        AttemptsOf::Address(address) => recent.filter(sign_in_attempts::address.eq(address)),
    };
    rows.select((
        diesel::dsl::count_star(),
        diesel::dsl::min(sign_in_attempts::attempted_at),
    ))
    .first(conn)
}

pub fn mark_attempt_succeeded(conn: &mut DbConn, id: i64) -> QueryResult<()> {
    diesel::update(sign_in_attempts::table.find(id))
        .set(sign_in_attempts::succeeded.eq(true))
        .execute(conn)
        .map(|_| ())
}

pub fn prune_attempts(conn: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(sign_in_attempts::table.filter(sign_in_attempts::attempted_at.le(before)))
        .execute(conn)
}

// --- invitations --------------------------------------------------------------------------

pub fn insert_invitation(
    conn: &mut DbConn,
    code_hash: &str,
    email: &str,
    created_by: i64,
    at: NaiveDateTime,
) -> QueryResult<Invitation> {
    diesel::insert_into(invitations::table)
        .values((
            invitations::code_hash.eq(code_hash),
            invitations::email.eq(email),
            invitations::created_by.eq(created_by),
            invitations::created_at.eq(at),
        ))
        .returning(invitations::all_columns)
        .get_result(conn)
}

pub fn unused_invitation(conn: &mut DbConn, code_hash: &str) -> QueryResult<Option<Invitation>> {
    invitations::table
        .filter(invitations::code_hash.eq(code_hash))
        .filter(invitations::used_at.is_null())
        .select(Invitation::as_select())
        .first(conn)
        .optional()
}

/// Marks an invitation used; false if someone used it in the meantime.
pub fn use_invitation(
    conn: &mut DbConn,
    id: i64,
    user_id: i64,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    diesel::update(
        invitations::table
            .filter(invitations::id.eq(id))
            .filter(invitations::used_at.is_null()),
    )
    .set((
        invitations::used_by.eq(Some(user_id)),
        invitations::used_at.eq(Some(at)),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

pub fn list_invitations(conn: &mut DbConn) -> QueryResult<Vec<Invitation>> {
    invitations::table
        .order(invitations::id.desc())
        .select(Invitation::as_select())
        .load(conn)
}
