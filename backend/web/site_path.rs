//! Paths on this site that a redirect may lead to, or a page may be shown at.

/// The one gate for redirect targets that come from the request (`?next=`, the language
/// switch's return path): a path on this site, written only with the printable ASCII
/// characters a URL path, query and fragment may carry; anything else goes to the home
/// page. Browsers treat `//host` and `/\host` as another site, and strip tabs and line
/// breaks (`/\t/host` becomes `//host`); a line break in a header would also fail the
/// response.
pub fn safe_location(location: &str) -> &str {
    let mut chars = location.chars();
    let on_this_site = chars.next() == Some('/') && !matches!(chars.next(), Some('/' | '\\'));
    if on_this_site && location.bytes().all(is_url_byte) {
        location
    } else {
        "/"
    }
}

/// RFC 3986 unreserved and reserved characters, and `%` for escapes.
fn is_url_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#[]%".contains(&byte)
}
