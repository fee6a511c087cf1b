//! Tie-break names in the page's language: the domain picks the catalogue key (FIDE names,
//! or the Russian draughts names for Russian-variant events), the catalogue has the text.
use damka_domain::tiebreak::labels::{Naming, label_key};
use damka_domain::tiebreak::{Modifier, parse_tiebreak_list};
use damka_engine::Variant;

use super::i18n::Lang;
use damka_domain::vocabulary::System;

/// The display name of tie-break `code` (e.g. `BH/C1`) in an event of this variant/system.
pub fn label(lang: Lang, variant: Variant, system: System, code: &str) -> String {
    text(lang, variant, system, code, "tiebreak.")
}

/// The short name of tie-break `code` for a column header: the FIDE code in English
/// (`BH/C1`), the usual abbreviation in Russian («Усеч. Солк.», «К. Берг.»).
pub fn abbreviation(lang: Lang, variant: Variant, system: System, code: &str) -> String {
    text(lang, variant, system, code, "tiebreak_abbr.")
}

/// The catalogue text of `code` under `prefix` (`tiebreak.` names, `tiebreak_abbr.`
/// abbreviations); the code itself when it is not a tie-break.
fn text(lang: Lang, variant: Variant, system: System, code: &str, prefix: &str) -> String {
    let Ok(list) = parse_tiebreak_list(code) else {
        return code.to_string();
    };
    let Some(tb) = list.first() else {
        return code.to_string();
    };
    let naming = if variant == Variant::Russian {
        Naming::RussianDraughts
    } else {
        Naming::Fide
    };
    let kind = system.event_kind();
    let n = match tb.modifier {
        Modifier::Cut(n) | Modifier::Median(n) => n.to_string(),
        Modifier::None => String::new(),
    };
    let key = label_key(tb, naming, kind).replacen("tiebreak.", prefix, 1);
    lang.t(&key).replace("{n}", &n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_domain::tiebreak::labels::LABELS;

    #[test]
    fn the_catalogue_has_every_tiebreak_name() {
        for entry in LABELS {
            for lang in [Lang::En, Lang::Ru] {
                assert_ne!(
                    lang.t(entry.key),
                    entry.key,
                    "{} missing in {:?}",
                    entry.key,
                    lang
                );
            }
        }
    }

    #[test]
    fn the_catalogue_has_every_abbreviation_and_russian_ones_are_cyrillic() {
        for entry in LABELS {
            let key = entry.key.replacen("tiebreak.", "tiebreak_abbr.", 1);
            for lang in [Lang::En, Lang::Ru] {
                assert!(lang.own_text(&key).is_some(), "{key} missing in {lang:?}");
            }
            let ru = Lang::Ru.t(&key);
            assert!(
                ru.chars()
                    .any(|c| ('а'..='я').contains(&c.to_ascii_lowercase())
                        || ('А'..='Я').contains(&c)),
                "{key}: {ru}"
            );
        }
        assert_eq!(
            abbreviation(Lang::Ru, Variant::Russian, System::Swiss, "BH/C1"),
            "Усеч. Солк."
        );
        assert_eq!(
            abbreviation(Lang::En, Variant::International, System::Swiss, "BH/C1"),
            "BH/C1"
        );
    }

    #[test]
    fn russian_events_use_draughts_names() {
        assert_eq!(
            label(Lang::En, Variant::International, System::Swiss, "BH/C1"),
            "Buchholz Cut-1"
        );
        assert!(label(Lang::Ru, Variant::Russian, System::Swiss, "BH").contains("Солкофа"));
        assert!(label(Lang::Ru, Variant::Russian, System::RoundRobin, "SB").contains("Бергер"));
    }
}
