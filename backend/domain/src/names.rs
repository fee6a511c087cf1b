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

/// The words of a folded text: runs of letters and digits (hyphens, commas, dots and spaces
/// separate them), so «Иванов-Петров, П.» has the words `ivanov`, `petrov` and `p`.
fn words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// One word of a search with its other spelling: `ё` and `е` written `yo`/`ye` (`Pyotr`,
/// `Semyon`, `Sergeyevich`) fold to `io`/`ie`, where the passport spelling has plain `e`
/// (`Petr`, `Semen`). The name side keeps one fold (the stored key); only the query tries
/// both, so a query that stops inside such a pair (`Antoni` for `Antonio`) still finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Word {
    folded: String,
    /// The `io`/`ie` -> `e` spelling, when it differs.
    plain: Option<String>,
}

impl Word {
    fn new(folded: &str) -> Word {
        let plain = folded.replace("io", "e").replace("ie", "e");
        Word {
            folded: folded.to_string(),
            plain: (plain != folded).then_some(plain),
        }
    }

    fn spellings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.folded.as_str()).chain(self.plain.as_deref())
    }

    /// Whether this word is contained in `name_word`.
    fn within(&self, name_word: &str) -> bool {
        self.spellings().any(|s| name_word.contains(s))
    }
}

/// A name search that ignores word order: every word of the query is contained in some
/// word of the name, both folded, so «Иванов Пётр» is found by `Пётр Иванов`,
/// `Petr Ivanov`, `ivanov`, `Иванов П` and `pyotr ivanov`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameQuery {
    words: Vec<Word>,
}

impl NameQuery {
    /// The query typed; `None` when it has no word (empty, spaces, punctuation).
    pub fn parse(text: &str) -> Option<NameQuery> {
        let folded = fold(text);
        let words: Vec<Word> = words(&folded).map(Word::new).collect();
        (!words.is_empty()).then_some(NameQuery { words })
    }

    /// Whether `name` (as typed, unfolded) matches.
    pub fn matches(&self, name: &str) -> bool {
        self.matches_folded(&fold(name))
    }

    /// Whether a name already folded (`fold`, the stored search key) matches.
    pub fn matches_folded(&self, folded_name: &str) -> bool {
        let name_words: Vec<&str> = words(folded_name).collect();
        self.words
            .iter()
            .all(|w| name_words.iter().any(|n| w.within(n)))
    }

    /// The spellings of the query's longest word (the most selective): a name that matches
    /// contains one of them in its folded key, so a database can narrow the candidates with
    /// `LIKE '%spelling%'` before `matches` decides. They are letters and digits only, so
    /// they need no escaping in a LIKE pattern.
    pub fn key_word(&self) -> Vec<String> {
        self.words
            .iter()
            .max_by_key(|w| w.folded.chars().count())
            .map(|w| w.spellings().map(str::to_string).collect())
            .unwrap_or_default()
    }
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

    /// (name, query, found?)
    const WORD_ORDER_CASES: &[(&str, &str, bool)] = &[
        ("Иванов Пётр", "Иванов Пётр", true),
        ("Иванов Пётр", "Пётр Иванов", true),
        ("Иванов Пётр", "Petr Ivanov", true),
        ("Иванов Пётр", "ivanov", true),
        ("Иванов Пётр", "IVANOV", true),
        ("Иванов Пётр", "Иванов П", true),
        ("Иванов Пётр", "Иванов П.", true),
        ("Иванов Пётр", "pyotr ivanov", true),
        ("Иванов Пётр", "  иванов,   петр ", true),
        ("Иванов Пётр", "ванов", true),
        ("Petr Ivanov", "Иванов Пётр", true),
        ("Иванов-Петров Семён", "semyon petrov", true),
        ("Сергей Сергеевич", "Sergeyevich", true),
        ("Antonio Banderas", "antoni", true),
        ("Antonio Banderas", "antonio", true),
        ("Юрий Щукин", "Yuriy Shchukin", true),
        ("Иванов Пётр", "Сидоров", false),
        ("Иванов Пётр", "Иванов Сергей", false),
        ("Иванов Пётр", "Petr Ivanov Jr", false),
        ("Иванов Пётр", "ivanovp", false),
        ("Петрова Анна", "Иванов", false),
    ];

    #[test]
    fn name_search_ignores_word_order_and_spelling() {
        for (name, query, found) in WORD_ORDER_CASES {
            let parsed = NameQuery::parse(query).unwrap();
            assert_eq!(
                parsed.matches(name),
                *found,
                "{query:?} finds {name:?}: expected {found}"
            );
            assert_eq!(parsed.matches_folded(&fold(name)), *found, "{query:?}");
            if *found {
                // The database's first cut never drops a name that matches.
                let key = fold(name);
                assert!(
                    parsed.key_word().iter().any(|w| key.contains(w.as_str())),
                    "{query:?} key words {:?} not in {key:?}",
                    parsed.key_word()
                );
            }
        }
    }

    #[test]
    fn a_query_without_words_is_no_query() {
        assert_eq!(NameQuery::parse(""), None);
        assert_eq!(NameQuery::parse("  , - "), None);
        assert_eq!(
            NameQuery::parse("Пётр").unwrap().key_word(),
            vec!["petr".to_string()]
        );
        assert_eq!(
            NameQuery::parse("ivanov pyotr").unwrap().key_word(),
            vec!["ivanov".to_string()]
        );
        assert_eq!(
            NameQuery::parse("Pyotrovsky p").unwrap().key_word(),
            vec!["piotrovski".to_string(), "petrovski".to_string()]
        );
    }

    #[test]
    fn the_fold_is_lower_case_latin_for_russian_text() {
        assert_eq!(fold("ЧИЖОВ"), "chizhov");
        assert_eq!(fold("Объедков"), "obedkov");
        assert_eq!(fold("Mixed Чиж 12"), "miksed chizh 12");
    }
}
