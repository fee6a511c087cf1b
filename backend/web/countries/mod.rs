//! Countries by name in the reader's language, for the player form's list and the pages
//! that show a player's country. Profiles store a code (`service::validate::country`): the
//! form stores ISO 3166-1 alpha-3; the API, imports and TRF files may also bring a
//! federation's own code (FIDE and FMJD use the Olympic ones: `NED`, `GER`), which keeps
//! working and is shown by the name of its country.
mod table;

use super::i18n::Lang;

/// Sporting nations with no ISO 3166-1 code of their own that English checkers' federations
/// play as; the codes are the ones their federations and FIDE use.
const HOME_NATIONS: &[(&str, &str, &str)] = &[
    ("ENG", "England", "Англия"),
    ("NIR", "Northern Ireland", "Северная Ирландия"),
    ("SCO", "Scotland", "Шотландия"),
    ("WAL", "Wales", "Уэльс"),
];

/// Olympic (FIDE, FMJD) codes that differ from the ISO alpha-3 code of the same country.
const FEDERATION_CODES: &[(&str, &str)] = &[
    ("ALG", "DZA"),
    ("ANG", "AGO"),
    ("ANT", "ATG"),
    ("ARU", "ABW"),
    ("BAH", "BHS"),
    ("BAN", "BGD"),
    ("BAR", "BRB"),
    ("BER", "BMU"),
    ("BHU", "BTN"),
    ("BIZ", "BLZ"),
    ("BOT", "BWA"),
    ("BRU", "BRN"),
    ("BUL", "BGR"),
    ("BUR", "BFA"),
    ("CAM", "KHM"),
    ("CAY", "CYM"),
    ("CGO", "COG"),
    ("CHA", "TCD"),
    ("CHI", "CHL"),
    ("CRC", "CRI"),
    ("CRO", "HRV"),
    ("DEN", "DNK"),
    ("ESA", "SLV"),
    ("FIJ", "FJI"),
    ("GAM", "GMB"),
    ("GER", "DEU"),
    ("GRE", "GRC"),
    ("GRN", "GRD"),
    ("GUA", "GTM"),
    ("GUI", "GIN"),
    ("HAI", "HTI"),
    ("HON", "HND"),
    ("INA", "IDN"),
    ("IRI", "IRN"),
    ("ISV", "VIR"),
    ("IVB", "VGB"),
    ("KSA", "SAU"),
    ("KUW", "KWT"),
    ("LAT", "LVA"),
    ("LIB", "LBN"),
    ("MAD", "MDG"),
    ("MAS", "MYS"),
    ("MGL", "MNG"),
    ("MRI", "MUS"),
    ("MTN", "MRT"),
    ("NCA", "NIC"),
    ("NED", "NLD"),
    ("NEP", "NPL"),
    ("NGR", "NGA"),
    ("NIG", "NER"),
    ("OMA", "OMN"),
    ("PAR", "PRY"),
    ("PHI", "PHL"),
    ("PLE", "PSE"),
    ("POR", "PRT"),
    ("PUR", "PRI"),
    ("RSA", "ZAF"),
    ("SAM", "WSM"),
    ("SEY", "SYC"),
    ("SKN", "KNA"),
    ("SLO", "SVN"),
    ("SOL", "SLB"),
    ("SRI", "LKA"),
    ("SUD", "SDN"),
    ("SUI", "CHE"),
    ("TAN", "TZA"),
    ("TGA", "TON"),
    ("TOG", "TGO"),
    ("TPE", "TWN"),
    ("UAE", "ARE"),
    ("URU", "URY"),
    ("VAN", "VUT"),
    ("VIE", "VNM"),
    ("VIN", "VCT"),
    ("ZAM", "ZMB"),
    ("ZIM", "ZWE"),
];

/// The country's name in `lang` for a stored code (ISO alpha-3 or alpha-2, a home
/// nation's or a federation's code), or `None` for a code this list does not know.
pub fn name(code: &str, lang: Lang) -> Option<&'static str> {
    let code = code.trim().to_ascii_uppercase();
    let iso = FEDERATION_CODES
        .iter()
        .find(|(federation, _)| *federation == code)
        .map_or(code.as_str(), |(_, iso)| iso);
    let in_lang = |english: &'static str, russian: &'static str| match lang {
        Lang::Ru => russian,
        _ => english,
    };
    table::ISO
        .iter()
        .find(|(alpha3, alpha2, _, _)| *alpha3 == iso || *alpha2 == iso)
        .map(|(_, _, english, russian)| in_lang(english, russian))
        .or_else(|| {
            HOME_NATIONS
                .iter()
                .find(|(nation, _, _)| *nation == iso)
                .map(|(_, english, russian)| in_lang(english, russian))
        })
}

/// The code a stored code is listed under in the form: its ISO alpha-3 code, or itself.
fn listed_code(code: &str) -> String {
    let code = code.trim().to_ascii_uppercase();
    if let Some((_, iso)) = FEDERATION_CODES.iter().find(|(f, _)| *f == code) {
        return (*iso).to_string();
    }
    table::ISO
        .iter()
        .find(|(_, alpha2, _, _)| *alpha2 == code)
        .map_or(code, |(alpha3, _, _, _)| (*alpha3).to_string())
}

/// One choice of the country list.
#[derive(Debug, Clone, PartialEq)]
pub struct CountryOption {
    pub code: String,
    pub name: String,
    pub selected: bool,
}

/// Every country by name in `lang`, with `current` (a stored code) selected; a code the
/// list does not know comes first, by itself, so saving the form does not lose it.
pub fn options(lang: Lang, current: &str) -> Vec<CountryOption> {
    let selected = listed_code(current);
    let mut options: Vec<CountryOption> = table::ISO
        .iter()
        .map(|(code, ..)| *code)
        .chain(HOME_NATIONS.iter().map(|(code, ..)| *code))
        .map(|code| CountryOption {
            code: code.to_string(),
            name: name(code, lang).unwrap_or(code).to_string(),
            selected: code == selected,
        })
        .collect();
    options.sort_by_cached_key(|o| sort_key(&o.name));
    if !selected.is_empty() && !options.iter().any(|o| o.selected) {
        options.insert(
            0,
            CountryOption {
                code: selected.clone(),
                name: selected,
                selected: true,
            },
        );
    }
    options
}

/// Alphabetical order of names: case and the letters accents and «ё» add left aside.
fn sort_key(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'ё' => 'е',
            'å' | 'á' | 'à' | 'â' | 'ä' | 'ã' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'î' | 'ï' => 'i',
            'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ú' | 'ü' | 'û' => 'u',
            'ç' => 'c',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_of_every_kind_are_named() {
        assert_eq!(name("RUS", Lang::Ru), Some("Россия"));
        assert_eq!(name("rus", Lang::En), Some("Russia"));
        assert_eq!(name("NED", Lang::Ru), Some("Нидерланды"));
        assert_eq!(name("NLD", Lang::En), Some("Netherlands"));
        assert_eq!(name("BY", Lang::Ru), Some("Беларусь"));
        assert_eq!(name("SCO", Lang::En), Some("Scotland"));
        assert_eq!(name("XQZ", Lang::En), None);
    }

    #[test]
    fn the_list_is_alphabetical_and_keeps_an_unknown_code() {
        let ru = options(Lang::Ru, "NED");
        let chosen: Vec<&str> = ru
            .iter()
            .filter(|o| o.selected)
            .map(|o| o.code.as_str())
            .collect();
        assert_eq!(chosen, ["NLD"], "a federation code selects its country");
        let names: Vec<&str> = ru.iter().map(|o| o.name.as_str()).collect();
        let position = |n: &str| names.iter().position(|x| *x == n).unwrap();
        assert!(position("Австралия") < position("Россия"));
        assert!(position("Россия") < position("Шотландия"));
        let unknown = options(Lang::En, "XQZ");
        assert_eq!(
            (unknown[0].code.as_str(), unknown[0].selected),
            ("XQZ", true)
        );
        assert!(options(Lang::En, "").iter().all(|o| !o.selected));
    }

    #[test]
    fn every_federation_code_names_a_listed_country() {
        for (federation, iso) in FEDERATION_CODES {
            assert!(
                table::ISO.iter().any(|(alpha3, ..)| alpha3 == iso),
                "{federation} -> {iso} is not an ISO code"
            );
        }
    }
}
