//! Field checks shared by the use cases. Each error names the field and the problem.
use super::AppError;

/// Trims and checks a required text field.
pub fn required(field: &'static str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AppError::invalid(field, "is required"));
    }
    optional(field, value, max_chars)
}

/// Trims and checks an optional text field (empty is allowed).
pub fn optional(field: &'static str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.trim();
    if value.chars().count() > max_chars {
        return Err(AppError::invalid(
            field,
            format!("must be at most {max_chars} characters"),
        ));
    }
    if value.chars().any(|c| c.is_control()) {
        return Err(AppError::invalid(
            field,
            "must not contain control characters",
        ));
    }
    Ok(value.to_string())
}

/// Lower-cases and checks an e-mail address (one `@`, something on both sides, a dot in
/// the domain).
pub fn email(value: &str) -> Result<String, AppError> {
    let value = value.trim().to_lowercase();
    let valid = match value.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
                && !value.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        None => false,
    };
    if !valid || value.len() > 254 {
        return Err(AppError::invalid("email", "is not a valid e-mail address"));
    }
    Ok(value)
}

/// An ISO-3166 alpha-3 style federation/country code: empty, or 2-3 letters, upper-cased.
pub fn country(value: &str) -> Result<String, AppError> {
    let value = value.trim().to_uppercase();
    if value.is_empty()
        || (value.len() <= 3 && value.len() >= 2 && value.chars().all(|c| c.is_ascii_uppercase()))
    {
        Ok(value)
    } else {
        Err(AppError::invalid(
            "country",
            "must be a 2- or 3-letter code such as RUS or NL",
        ))
    }
}

pub fn birth_year(value: Option<i32>) -> Result<Option<i32>, AppError> {
    match value {
        Some(year) if !(1900..=2100).contains(&year) => Err(AppError::invalid(
            "birth_year",
            "must be a year between 1900 and 2100",
        )),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn email_rules() {
        assert_eq!(email(" Ann@Club.ORG ").unwrap(), "ann@club.org");
        for bad in [
            "",
            "ann",
            "ann@",
            "@club.org",
            "ann@club",
            "a b@club.org",
            "a@b@c.org",
            "a\0@club.org",
        ] {
            assert!(email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_rules() {
        assert_eq!(required("name", "  Ann ", 10).unwrap(), "Ann");
        assert!(required("name", "   ", 10).is_err());
        assert!(required("name", "abcdefghijk", 10).is_err());
        assert!(optional("name", "a\u{0}b", 10).is_err());
        assert_eq!(country("rus").unwrap(), "RUS");
        assert!(country("R1").is_err());
        assert!(birth_year(Some(1800)).is_err());
    }
}
