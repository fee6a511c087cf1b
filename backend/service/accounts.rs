//! Account use cases: registration (open or by invitation), sign-in with throttling,
//! sessions, password change, API tokens, first administrator, site settings, roles.
use chrono::{Duration, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::auth::{self, token_hash};
use super::password_limits::{self, Attempt};
use super::{Actor, AppError, AppResult, Refusal, validate};
use crate::store::models::NewUser;
use crate::store::models::User;
/// An API token as its owner sees it (never the token itself) and an invitation to sign up.
pub use crate::store::models::{ApiToken, Invitation};
use crate::store::{self, DbConn, accounts, settings};

pub const SESSION_DAYS: i64 = 30;

/// How precisely an API token's last use is recorded.
pub const LAST_USED_RESOLUTION_SECS: i64 = 60;

pub const SETTING_REGISTRATION: &str = "registration";
pub const SETTING_SITE_SECRET: &str = "site_secret";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RegistrationMode {
    /// Anybody may create an account.
    Open,
    /// An account needs an invitation code from an administrator.
    Invitation,
}

impl RegistrationMode {
    pub fn as_str(self) -> &'static str {
        match self {
            RegistrationMode::Open => "open",
            RegistrationMode::Invitation => "invitation",
        }
    }

    pub fn parse(value: &str) -> Option<RegistrationMode> {
        match value {
            "open" => Some(RegistrationMode::Open),
            "invitation" => Some(RegistrationMode::Invitation),
            _ => None,
        }
    }
}

pub fn registration_mode(conn: &mut DbConn) -> AppResult<RegistrationMode> {
    Ok(settings::get(conn, SETTING_REGISTRATION)?
        .and_then(|v| RegistrationMode::parse(&v))
        .unwrap_or(RegistrationMode::Open))
}

pub fn set_registration_mode(
    conn: &mut DbConn,
    actor: &Actor,
    mode: RegistrationMode,
) -> AppResult<()> {
    actor.require_admin()?;
    conn.write_transaction(|conn| settings::set(conn, SETTING_REGISTRATION, mode.as_str()))?;
    Ok(())
}

/// The secret that signs CSRF tokens; made once and shared by every instance.
pub fn site_secret(conn: &mut DbConn) -> AppResult<String> {
    Ok(settings::get_or_init(
        conn,
        SETTING_SITE_SECRET,
        &auth::random_token(32),
    )?)
}

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct Registration {
    pub email: String,
    pub display_name: String,
    pub password: String,
    /// Required when registration is by invitation.
    #[serde(default)]
    pub invitation: Option<String>,
}

/// Creates an account. The first account on a site with no administrator is not made
/// an administrator here: that is what `damka admin create` and the first-run page do.
pub fn register(conn: &mut DbConn, form: &Registration, locale: Option<&str>) -> AppResult<User> {
    let email = validate::email(&form.email)?;
    let display_name = validate::required("display_name", &form.display_name, 80)?;
    auth::check_new_password(&form.password)?;
    let mode = registration_mode(conn)?;
    let code = form.invitation.as_deref().map(str::trim).unwrap_or("");
    if mode == RegistrationMode::Invitation && code.is_empty() {
        return Err(AppError::invalid("invitation", Refusal::InvitationRequired));
    }
    let password_hash = auth::hash_password(&form.password)?;
    conn.write_transaction(|conn| {
        let invitation = if mode == RegistrationMode::Invitation {
            let found = accounts::unused_invitation(conn, &token_hash(code))?
                .ok_or_else(|| AppError::invalid("invitation", Refusal::InvitationUnknown))?;
            if !found.email.is_empty() && found.email != email {
                return Err(AppError::invalid(
                    "invitation",
                    Refusal::InvitationForOtherEmail,
                ));
            }
            Some(found)
        } else {
            None
        };
        if accounts::user_by_email(conn, &email)?.is_some() {
            return Err(AppError::invalid("email", Refusal::EmailTaken));
        }
        let user = accounts::insert_user(
            conn,
            &NewUser {
                email: &email,
                display_name: &display_name,
                password_hash: &password_hash,
                is_admin: false,
                is_organiser: false,
                locale,
                player_id: None,
                created_at: store::now(),
            },
        )?;
        if let Some(invitation) = invitation
            && !accounts::use_invitation(conn, invitation.id, user.id, store::now())?
        {
            return Err(AppError::conflict(Refusal::InvitationJustUsed));
        }
        Ok(user)
    })
}

/// Creates the first administrator. Refused once any administrator exists.
pub fn create_first_admin(
    conn: &mut DbConn,
    email: &str,
    display_name: &str,
    password: &str,
) -> AppResult<User> {
    let email = validate::email(email)?;
    let display_name = validate::required("display_name", display_name, 80)?;
    auth::check_new_password(password)?;
    let password_hash = auth::hash_password(password)?;
    conn.write_transaction(|conn| {
        if accounts::count_admins(conn)? > 0 {
            return Err(AppError::forbidden(Refusal::AdminExists));
        }
        create_admin_in_tx(conn, &email, &display_name, &password_hash)
    })
}

/// Creates an administrator (command line: any time; the operator owns the machine).
/// An existing account with that e-mail is promoted and gets the new password.
pub fn create_admin(
    conn: &mut DbConn,
    email: &str,
    display_name: &str,
    password: &str,
) -> AppResult<User> {
    let email = validate::email(email)?;
    let display_name = validate::required("display_name", display_name, 80)?;
    auth::check_new_password(password)?;
    let password_hash = auth::hash_password(password)?;
    conn.write_transaction(|conn| create_admin_in_tx(conn, &email, &display_name, &password_hash))
}

fn create_admin_in_tx(
    conn: &mut DbConn,
    email: &str,
    display_name: &str,
    password_hash: &str,
) -> AppResult<User> {
    if let Some(existing) = accounts::user_by_email(conn, email)? {
        accounts::set_roles(conn, existing.id, true, existing.is_organiser)?;
        accounts::set_password_hash(conn, existing.id, password_hash)?;
        return accounts::user_by_id(conn, existing.id)?.ok_or(AppError::NotFound { what: "user" });
    }
    Ok(accounts::insert_user(
        conn,
        &NewUser {
            email,
            display_name,
            password_hash,
            is_admin: true,
            is_organiser: true,
            locale: None,
            player_id: None,
            created_at: store::now(),
        },
    )?)
}

pub fn admin_exists(conn: &mut DbConn) -> AppResult<bool> {
    Ok(accounts::count_admins(conn)? > 0)
}

/// A new login session: the raw token goes into the cookie, its hash into the table.
#[derive(Debug, Clone)]
pub struct NewSession {
    pub token: String,
    pub user: User,
    pub expires_at: NaiveDateTime,
}

/// Checks the password, within the limits of `password_limits` (per account and per client
/// address, seen by every instance).
pub fn sign_in(
    conn: &mut DbConn,
    email: &str,
    password: &str,
    client: &str,
) -> AppResult<NewSession> {
    let email = email.trim().to_lowercase();
    let attempt = Attempt::new(&email, client);
    let user = password_limits::limited(conn, &attempt, |conn| {
        // No stored address contains control characters (registration refuses them), and
        // PostgreSQL cannot even compare text holding NUL: such a sign-in is simply wrong.
        let user = if email.chars().any(char::is_control) {
            None
        } else {
            accounts::user_by_email(conn, &email)?
        };
        let hash = match &user {
            Some(user) => accounts::password_hash_of(conn, user.id)?,
            None => None,
        };
        Ok(match (user, hash) {
            (Some(user), Some(hash)) => auth::verify_password(password, &hash).then_some(user),
            _ => {
                auth::dummy_verify(password);
                None
            }
        })
    })?
    .ok_or(AppError::BadCredentials)?;
    let now = store::now();
    let token = auth::random_token(32);
    let expires_at = now + Duration::days(SESSION_DAYS);
    conn.write_transaction(|conn| {
        accounts::insert_session(conn, &token_hash(&token), user.id, now, expires_at)?;
        accounts::delete_expired_sessions(conn, now)?;
        Ok::<_, AppError>(())
    })?;
    Ok(NewSession {
        token,
        user,
        expires_at,
    })
}

pub fn user_for_session(conn: &mut DbConn, session_token: &str) -> AppResult<Option<User>> {
    Ok(accounts::user_by_session(
        conn,
        &token_hash(session_token),
        store::now(),
    )?)
}

pub fn sign_out(conn: &mut DbConn, session_token: &str) -> AppResult<()> {
    conn.write_transaction(|conn| accounts::delete_session(conn, &token_hash(session_token)))?;
    Ok(())
}

/// The user behind an API token (`Authorization: Bearer ...`), recording its last use.
pub fn user_for_api_token(conn: &mut DbConn, token: &str) -> AppResult<Option<User>> {
    let Some((token_id, last_used, user)) =
        accounts::user_by_api_token(conn, &token_hash(token.trim()))?
    else {
        return Ok(None);
    };
    // The last use is recorded at most once a minute, so that reads through the API do
    // not turn into a write each; and best effort: a busy database must not fail a read.
    let now = store::now();
    if last_used.is_none_or(|at| now - at > Duration::seconds(LAST_USED_RESOLUTION_SECS))
        && let Err(err) =
            conn.write_transaction(|conn| accounts::touch_api_token(conn, token_id, now))
    {
        tracing::debug!("could not record API token use: {err}");
    }
    Ok(Some(user))
}

#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct PasswordChange {
    pub current_password: String,
    pub new_password: String,
}

/// Changes the password, ends the user's other sessions and revokes their API tokens (a
/// password is changed when it may be known to someone else, and a token made with it
/// must not outlive it). The current password is compared within the same limits as a
/// sign-in, so a stolen session cannot be used to guess it.
pub fn change_password(
    conn: &mut DbConn,
    actor: &Actor,
    change: &PasswordChange,
    current_session: Option<&str>,
    client: &str,
) -> AppResult<()> {
    let user = actor.require_user()?;
    auth::check_new_password(&change.new_password).map_err(|err| match err {
        AppError::Invalid { reason, .. } => AppError::invalid("new_password", reason),
        other => other,
    })?;
    let attempt = Attempt::new(&user.email, client);
    let current_is_right = password_limits::limited(conn, &attempt, |conn| {
        let hash = accounts::password_hash_of(conn, user.id)?.unwrap_or_default();
        Ok(auth::verify_password(&change.current_password, &hash).then_some(()))
    })?
    .is_some();
    if !current_is_right {
        return Err(AppError::invalid(
            "current_password",
            Refusal::WrongCurrentPassword,
        ));
    }
    let hash = auth::hash_password(&change.new_password)?;
    let keep = current_session.map(token_hash).unwrap_or_default();
    conn.write_transaction(|conn| {
        accounts::set_password_hash(conn, user.id, &hash)?;
        accounts::delete_other_sessions(conn, user.id, &keep)?;
        accounts::delete_api_tokens_of(conn, user.id)
    })?;
    Ok(())
}

/// The interface languages an account may choose (the web layer has a catalogue for each).
pub const LOCALES: [&str; 2] = ["en", "ru"];

pub fn set_locale(conn: &mut DbConn, actor: &Actor, locale: Option<&str>) -> AppResult<()> {
    let user = actor.require_user()?;
    if let Some(locale) = locale
        && !LOCALES.contains(&locale)
    {
        return Err(AppError::invalid("locale", Refusal::UnsupportedLanguage));
    }
    conn.write_transaction(|conn| accounts::set_locale(conn, user.id, locale))?;
    Ok(())
}

/// A freshly created API token; `token` is shown once and never stored.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CreatedToken {
    pub id: i64,
    pub name: String,
    pub token: String,
}

pub fn create_api_token(conn: &mut DbConn, actor: &Actor, name: &str) -> AppResult<CreatedToken> {
    let user = actor.require_user()?;
    let name = validate::required("name", name, 60)?;
    let token = format!("dmk_{}", auth::random_token(32));
    let prefix: String = token.chars().take(10).collect();
    let stored = conn.write_transaction(|conn| {
        accounts::insert_api_token(
            conn,
            user.id,
            &name,
            &token_hash(&token),
            &prefix,
            store::now(),
        )
    })?;
    Ok(CreatedToken {
        id: stored.id,
        name: stored.name,
        token,
    })
}

pub fn api_tokens(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<ApiToken>> {
    let user = actor.require_user()?;
    Ok(accounts::api_tokens_of(conn, user.id)?)
}

pub fn revoke_api_token(conn: &mut DbConn, actor: &Actor, token_id: i64) -> AppResult<()> {
    let user = actor.require_user()?;
    if conn.write_transaction(|conn| accounts::delete_api_token(conn, user.id, token_id))? {
        Ok(())
    } else {
        Err(AppError::NotFound { what: "API token" })
    }
}

/// A new invitation; the code is shown once to the administrator who made it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CreatedInvitation {
    pub id: i64,
    pub email: String,
    pub code: String,
}

pub fn create_invitation(
    conn: &mut DbConn,
    actor: &Actor,
    email: &str,
) -> AppResult<CreatedInvitation> {
    let admin = actor.require_admin()?;
    let email = if email.trim().is_empty() {
        String::new()
    } else {
        validate::email(email)?
    };
    let code = auth::random_token(12);
    let stored = conn.write_transaction(|conn| {
        accounts::insert_invitation(conn, &token_hash(&code), &email, admin.id, store::now())
    })?;
    Ok(CreatedInvitation {
        id: stored.id,
        email: stored.email,
        code,
    })
}

pub fn invitations(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<Invitation>> {
    actor.require_admin()?;
    Ok(accounts::list_invitations(conn)?)
}

pub fn users(conn: &mut DbConn, actor: &Actor) -> AppResult<Vec<User>> {
    actor.require_admin()?;
    Ok(accounts::list_users(conn)?)
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct RoleChange {
    pub admin: bool,
    pub organiser: bool,
}

/// Grants or removes site roles. An administrator cannot remove their own admin role,
/// so a site is never left without one by accident.
pub fn set_roles(
    conn: &mut DbConn,
    actor: &Actor,
    user_id: i64,
    roles: &RoleChange,
) -> AppResult<User> {
    let admin = actor.require_admin()?;
    if admin.id == user_id && !roles.admin {
        return Err(AppError::conflict(Refusal::CannotDropOwnAdminRole));
    }
    conn.write_transaction(|conn| {
        accounts::user_by_id(conn, user_id)?.ok_or(AppError::NotFound { what: "user" })?;
        accounts::set_roles(conn, user_id, roles.admin, roles.organiser)?;
        accounts::user_by_id(conn, user_id)?.ok_or(AppError::NotFound { what: "user" })
    })
}

/// Links an account to a player profile (administrators), or unlinks it.
pub fn link_player(
    conn: &mut DbConn,
    actor: &Actor,
    user_id: i64,
    player_id: Option<i64>,
) -> AppResult<()> {
    actor.require_admin()?;
    conn.write_transaction(|conn| {
        accounts::user_by_id(conn, user_id)?.ok_or(AppError::NotFound { what: "user" })?;
        if let Some(player_id) = player_id {
            store::players::by_id(conn, player_id)?.ok_or(AppError::NotFound { what: "player" })?;
            if let Some(other) = accounts::user_by_player(conn, player_id)?
                && other.id != user_id
            {
                return Err(AppError::conflict(Refusal::ProfileLinkedElsewhere));
            }
        }
        accounts::link_player(conn, user_id, player_id)?;
        Ok(())
    })
}
