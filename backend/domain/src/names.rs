//! Player names folded for searching: a Latin spelling finds a Cyrillic name and the other
//! way round (`Chizhov` finds «Чижов», «Чижов» finds `Chizhov`).
//!
//! Both the name and the query go through one fold: lower case, Cyrillic transliterated as
//! Russian passports do (ICAO 9303: ж zh, х kh, ц ts, ч ch, ш sh, щ shch, ю iu, я ia, й i,
//! ъ left out, as most Latin spellings do), then the letters that Latin spellings of the same Russian name disagree on made
//! equal (y, j -> i; w -> v; x -> ks; ё/e, e with accents -> e), so `Yuriy`, `Iurii` and
//! `Юрий` meet.

/// The folded form of `text` (see the module's description).
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for c in text.chars().flat_map(char::to_lowercase) {
        match cyrillic(c) {
            Some(latin) => out.push_str(latin),
            None => out.push(c),
        }
    }
    let mut folded = String::with_capacity(out.len());
    for c in out.chars() {
        match c {
            'y' | 'j' | 'ı' => folded.push('i'),
            'w' => folded.push('v'),
            'x' => folded.push_str("ks"),
            'é' | 'è' | 'ê' | 'ë' => folded.push('e'),
            c => folded.push(c),
        }
    }
    folded
}

/// Whether `name` contains `query`, both folded.
pub fn matches(name: &str, folded_query: &str) -> bool {
    fold(name).contains(folded_query)
}

/// A lower-case Cyrillic letter of Russian (and its Ukrainian/Belarusian neighbours) in
/// Latin letters.
fn cyrillic(c: char) -> Option<&'static str> {
    Some(match c {
        'а' => "a",
        'б' => "b",
        'в' => "v",
        'г' => "g",
        'д' => "d",
        'е' | 'ё' | 'э' | 'є' => "e",
        'ж' => "zh",
        'з' => "z",
        'и' | 'й' | 'і' | 'ї' => "i",
        'к' => "k",
        'л' => "l",
        'м' => "m",
        'н' => "n",
        'о' => "o",
        'п' => "p",
        'р' => "r",
        'с' => "s",
        'т' => "t",
        'у' | 'ў' => "u",
        'ф' => "f",
        'х' => "kh",
        'ц' => "ts",
        'ч' => "ch",
        'ш' => "sh",
        'щ' => "shch",
        'ъ' => "",
        'ы' => "y",
        'ь' => "",
        'ю' => "iu",
        'я' => "ia",
        'ґ' => "g",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_spellings_find_cyrillic_names_and_back() {
        assert!(matches("Чижов Алексей", &fold("Chizhov")));
        assert!(matches("Chizhov", &fold("Чижов")));
        assert!(matches("Юрий Щукин", &fold("Yuriy Shchukin")));
        assert!(matches("Юрий Щукин", &fold("iurii")));
        assert!(matches("Ольга Ковальчук", &fold("kovalchuk")));
        assert!(matches("Фёдор Хабаров", &fold("Fedor Khabarov")));
        assert!(matches("Яковлев", &fold("Iakovlev")));
        assert!(matches("Яковлев", &fold("yakovlev")));
        assert!(matches("Zoë Smith", &fold("zoe")));
        assert!(!matches("Чижов", &fold("Petrov")));
        assert!(!matches("Петров", &fold("Chizhov")));
    }

    #[test]
    fn the_fold_is_lower_case_latin_for_russian_text() {
        assert_eq!(fold("ЧИЖОВ"), "chizhov");
        assert_eq!(fold("Объедков"), "obedkov");
        assert_eq!(fold("Mixed Чиж 12"), "miksed chizh 12");
    }
}
