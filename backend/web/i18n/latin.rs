//! Latin words in Russian text that are not codes: what the Russian interface must not
//! show. The catalogue's test and the test of the rendered Russian pages both ask this.

/// Latin words the Russian interface may show: names of formats, fields and tags that other
/// programs read as they are, and the codes users type. Everything else a Russian reader
/// sees is Russian (`GLOSSARY.ru.md` beside the catalogue has the words to use).
const LATIN_IN_RUSSIAN: &[&str] = &[
    // Field and column names of files and APIs, typed as they are.
    "player_id",
    "federation_id",
    "variant",
    "system",
    "rating",
    "rd",
    "volatility",
    "games",
    // The columns of a club's list of new members (`service::club_bulk`).
    "name",
    "country",
    "birth_year",
    "title",
    "russian",
    "english",
    "international",
    "brazilian",
    "elo",
    "glicko2",
    "application",
    "x-www-form-urlencoded",
    "Authorization",
    "Bearer",
    "GameType",
    "White",
    "Black",
    "Board",
    "Cut",
    "Median",
    "UTF-8",
    // The site's name and a key on the keyboard.
    "damka",
    "Ctrl",
    // The English language's own name in the choice of language (each language is offered
    // in its own words).
    "English",
];

/// Whether a Latin token is a code rather than an English word: an abbreviation in
/// capitals or with digits (TRF, C.04.1, M2), a square or a move (c3, f6-g5), a single
/// letter (a colour `w`, an absence kind `H`), or one of the names above.
fn is_code(token: &str) -> bool {
    let token = token.trim_matches(['.', '-', '_']);
    let letters = token.chars().filter(char::is_ascii_alphabetic).count();
    letters <= 1
        || token.chars().any(|c| c.is_ascii_digit())
        || token.chars().all(|c| !c.is_ascii_lowercase())
        || LATIN_IN_RUSSIAN.contains(&token)
}

/// The words of `text` written in Latin letters that are no codes.
pub fn english_words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .filter(|token| token.chars().any(|c| c.is_ascii_alphabetic()) && !is_code(token))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_words_are_found_and_codes_are_not() {
        assert_eq!(
            english_words("Filter: TRF, c3-d4, C.04.1, (bye), tr. Solk., BH/C1, w"),
            ["Filter", "bye", "tr.", "Solk."]
        );
        assert!(english_words("Бухгольц без 2 худших; GameType 25").is_empty());
    }
}
