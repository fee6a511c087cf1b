//! Secrets: password hashing (argon2id), random tokens, token hashing and CSRF tokens.
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use super::error::AppError;
use super::refusal::Refusal;
pub use super::token::random_token;

pub const MIN_PASSWORD_LEN: usize = 8;
pub const MAX_PASSWORD_LEN: usize = 256;

/// An argon2id hash in PHC string form (salt and parameters included).
pub fn hash_password(password: &str) -> Result<String, AppError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(AppError::internal)
}

/// True when `password` matches the stored PHC hash. A malformed stored hash never
/// matches (and is logged), so a corrupted row cannot be logged into.
pub fn verify_password(password: &str, stored_hash: &str) -> bool {
    match PasswordHash::new(stored_hash) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(err) => {
            tracing::error!("stored password hash is malformed: {err}");
            false
        }
    }
}

/// A hash used to compare passwords of unknown accounts, so that a login with an unknown
/// e-mail costs the same time as one with a wrong password.
pub fn dummy_verify(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let hash = DUMMY.get_or_init(|| hash_password("not a real password").unwrap_or_default());
    let _ = verify_password(password, hash);
}

pub fn check_new_password(password: &str) -> Result<(), AppError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_LEN {
        return Err(AppError::invalid(
            "password",
            Refusal::TooShort {
                min: MIN_PASSWORD_LEN,
            },
        ));
    }
    if chars > MAX_PASSWORD_LEN {
        return Err(AppError::invalid(
            "password",
            Refusal::TooLong {
                max: MAX_PASSWORD_LEN,
            },
        ));
    }
    Ok(())
}

/// How session cookies, API tokens and invitation codes are stored: SHA-256, hex. These
/// are long random values, so a fast hash is enough (no dictionary to attack).
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let mut out = String::with_capacity(64);
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

type HmacSha256 = Hmac<Sha256>;

/// The CSRF token for a browser: an HMAC under the site secret of its random CSRF cookie
/// and, once it is signed in, of its session cookie too (the "signed double-submit
/// cookie" pattern; works on every instance, stores nothing). Binding the session means
/// a pair of CSRF cookie and token that an attacker planted in a victim's browser stops
/// working as soon as the victim signs in: the attacker cannot know the session.
pub fn csrf_token(site_secret: &[u8], csrf_cookie: &str, session: Option<&str>) -> String {
    match csrf_mac(site_secret, csrf_cookie, session) {
        Some(mac) => URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()),
        None => String::new(),
    }
}

/// Constant-time check of a submitted CSRF token against the request's cookies.
pub fn csrf_matches(
    site_secret: &[u8],
    csrf_cookie: &str,
    session: Option<&str>,
    submitted: &str,
) -> bool {
    let Some(mac) = csrf_mac(site_secret, csrf_cookie, session) else {
        return false;
    };
    match URL_SAFE_NO_PAD.decode(submitted.trim()) {
        Ok(bytes) => mac.verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

fn csrf_mac(site_secret: &[u8], csrf_cookie: &str, session: Option<&str>) -> Option<HmacSha256> {
    // HMAC accepts keys of any length, so this does not fail in practice.
    let mut mac = HmacSha256::new_from_slice(site_secret).ok()?;
    // A tag and length-prefixed parts, so that no cookie pair reads as another one and an
    // anonymous token is never a signed-in one.
    let mut part = |bytes: &[u8]| {
        mac.update(&(bytes.len() as u64).to_be_bytes());
        mac.update(bytes);
    };
    match session {
        None => {
            part(b"csrf:anonymous");
            part(csrf_cookie.as_bytes());
        }
        Some(session) => {
            part(b"csrf:session");
            part(csrf_cookie.as_bytes());
            part(session.as_bytes());
        }
    }
    Some(mac)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_hash_is_argon2id_and_verifies() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "garbage"));
    }

    #[test]
    fn csrf_token_is_bound_to_cookie_and_secret() {
        let token = csrf_token(b"secret", "cookie-a", None);
        assert!(csrf_matches(b"secret", "cookie-a", None, &token));
        assert!(!csrf_matches(b"secret", "cookie-b", None, &token));
        assert!(!csrf_matches(b"other", "cookie-a", None, &token));
        assert!(!csrf_matches(b"secret", "cookie-a", None, ""));
        assert!(!csrf_matches(b"secret", "cookie-a", None, "%%%"));
    }

    #[test]
    fn csrf_token_of_a_signed_in_browser_is_bound_to_its_session() {
        let token = csrf_token(b"secret", "cookie-a", Some("session-1"));
        assert!(csrf_matches(
            b"secret",
            "cookie-a",
            Some("session-1"),
            &token
        ));
        assert!(!csrf_matches(
            b"secret",
            "cookie-a",
            Some("session-2"),
            &token
        ));
        assert!(!csrf_matches(b"secret", "cookie-a", None, &token));
        let anonymous = csrf_token(b"secret", "cookie-a", None);
        assert!(!csrf_matches(
            b"secret",
            "cookie-a",
            Some("session-1"),
            &anonymous
        ));
        // The parts are length-prefixed: moving bytes from one cookie to the other
        // gives another token.
        assert_ne!(
            csrf_token(b"secret", "ab", Some("c")),
            csrf_token(b"secret", "a", Some("bc"))
        );
    }

    #[test]
    fn token_hash_is_hex_sha256() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(random_token(32), random_token(32));
    }
}
