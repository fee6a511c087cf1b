//! Field checks shared by the use cases. Each error names the field and the problem.
use chrono::{Datelike, NaiveDate};

use super::{AppError, Refusal};

/// The years a date typed into a form or sent to the API may fall in: wide enough for
/// any real event, narrow enough that every database stores it (PostgreSQL refuses
/// years before 4713 BC, SQLite stores whatever text it is given).
pub const FIRST_YEAR: i32 = 1900;
pub const LAST_YEAR: i32 = 2200;

/// Trims and checks a required text field.
pub fn required(field: &'static str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AppError::invalid(field, Refusal::Required));
    }
    optional(field, value, max_chars)
}

/// Trims and checks an optional one-line text field (empty is allowed).
pub fn optional(field: &'static str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.trim();
    check_length(field, value, max_chars)?;
    if value.chars().any(|c| c.is_control()) {
        return Err(AppError::invalid(field, Refusal::ControlCharacters));
    }
    check_direction_controls(field, value)?;
    Ok(value.to_string())
}

/// Trims and checks an optional multi-line text field (a description): line breaks and
/// tabs are kept, with the CRLF that browsers send for a textarea stored as LF; other
/// control characters are refused.
pub fn multiline(field: &'static str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.replace("\r\n", "\n").replace('\r', "\n");
    let value = value.trim();
    check_length(field, value, max_chars)?;
    if value
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(AppError::invalid(field, Refusal::ControlCharactersInText));
    }
    check_direction_controls(field, value)?;
    Ok(value.to_string())
}

fn check_length(field: &'static str, value: &str, max_chars: usize) -> Result<(), AppError> {
    if value.chars().count() > max_chars {
        return Err(AppError::invalid(
            field,
            Refusal::TooLong { max: max_chars },
        ));
    }
    Ok(())
}

/// Unicode's explicit embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069)
/// reorder the text around them: a name carrying one can show as another name in lists,
/// pairings and standings. They are not control characters to `char::is_control`.
fn check_direction_controls(field: &'static str, value: &str) -> Result<(), AppError> {
    if value.chars().any(reorders_text) {
        return Err(AppError::invalid(field, Refusal::DirectionControls));
    }
    Ok(())
}

fn reorders_text(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// An optional date, within the years every database and every real event can have.
pub fn date(field: &'static str, value: Option<NaiveDate>) -> Result<Option<NaiveDate>, AppError> {
    match value {
        Some(day) if !(FIRST_YEAR..=LAST_YEAR).contains(&day.year()) => Err(AppError::invalid(
            field,
            Refusal::DateOutOfRange {
                first: FIRST_YEAR,
                last: LAST_YEAR,
            },
        )),
        other => Ok(other),
    }
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
                && !value
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || reorders_text(c))
        }
        None => false,
    };
    if !valid || value.len() > 254 {
        return Err(AppError::invalid("email", Refusal::NotAnEmail));
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
        Err(AppError::invalid("country", Refusal::NotACountryCode))
    }
}

pub fn birth_year(value: Option<i32>) -> Result<Option<i32>, AppError> {
    match value {
        Some(year) if !(1900..=2100).contains(&year) => Err(AppError::invalid(
            "birth_year",
            Refusal::YearOutOfRange {
                first: 1900,
                last: 2100,
            },
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
            "ann\u{202E}@club.org",
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

    #[test]
    fn multiline_text_keeps_line_breaks_and_tabs() {
        assert_eq!(
            multiline("description", " Club\r\nof\tdraughts\rplayers \n", 100).unwrap(),
            "Club\nof\tdraughts\nplayers"
        );
        for bad in ["a\u{0}b", "a\u{7}b", "a\u{1b}[31mb", "a\u{202E}b"] {
            assert!(multiline("description", bad, 100).is_err(), "{bad:?}");
        }
        // One-line fields still refuse line breaks.
        assert!(optional("city", "a\nb", 100).is_err());
    }

    #[test]
    fn names_refuse_text_direction_controls() {
        for bad in [
            "Ann\u{202A}",
            "\u{202B}Ann",
            "An\u{202C}n",
            "A\u{202D}nn",
            "Ann\u{202E}nimda",
            "Ann\u{2066}",
            "Ann\u{2067}",
            "Ann\u{2068}",
            "Ann\u{2069}",
        ] {
            let err = required("name", bad, 100).unwrap_err();
            assert_eq!(
                err,
                AppError::invalid("name", Refusal::DirectionControls),
                "{bad:?}"
            );
        }
        // Right-to-left names themselves, and the invisible marks, are fine.
        assert_eq!(required("name", "דוד", 100).unwrap(), "דוד");
        assert_eq!(required("name", "Ann\u{200F}", 100).unwrap(), "Ann\u{200F}");
    }

    #[test]
    fn dates_within_the_accepted_years() {
        let day = |y, m, d| NaiveDate::from_ymd_opt(y, m, d);
        assert_eq!(date("starts_on", None).unwrap(), None);
        assert_eq!(date("starts_on", day(1900, 1, 1)).unwrap(), day(1900, 1, 1));
        assert_eq!(
            date("starts_on", day(2200, 12, 31)).unwrap(),
            day(2200, 12, 31)
        );
        for bad in [
            day(1899, 12, 31),
            day(2201, 1, 1),
            day(0, 1, 1),
            day(-5000, 1, 1),
        ] {
            assert!(date("starts_on", bad).is_err(), "{bad:?}");
        }
    }
}
