//! Tie-break names in the page's language: the domain picks the catalogue key (FIDE names,
//! or the Russian draughts names for Russian-variant events), the catalogue has the text.
use damka_domain::tiebreak::labels::{Naming, label_key};
use damka_domain::tiebreak::{Modifier, parse_tiebreak_list};
use damka_engine::Variant;

use super::i18n::Lang;
use crate::store::values::System;

/// The display name of tie-break `code` (e.g. `BH/C1`) in an event of this variant/system.
pub fn label(lang: Lang, variant: Variant, system: System, code: &str) -> String {
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
    lang.t(label_key(tb, naming, kind)).replace("{n}", &n)
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
    fn russian_events_use_draughts_names() {
        assert_eq!(
            label(Lang::En, Variant::International, System::Swiss, "BH/C1"),
            "Buchholz Cut-1"
        );
        assert!(label(Lang::Ru, Variant::Russian, System::Swiss, "BH").contains("Солкофа"));
        assert!(label(Lang::Ru, Variant::Russian, System::RoundRobin, "SB").contains("Бергер"));
    }
}
