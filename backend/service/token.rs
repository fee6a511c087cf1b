//! Random tokens: session cookies, API tokens, invitation codes, error ids. A leaf module
//! (it needs nothing of the service), so that the error type can name an internal error
//! without importing the secrets module that itself returns that error type.
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;

/// `bytes` random bytes from the OS generator, URL-safe base64 without padding.
pub fn random_token(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}
