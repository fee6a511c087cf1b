//! Display names of tie-breaks, kept as data so that the web layer can copy them into its
//! message catalogue: [`label_key`] picks the catalogue key for a tie-break, [`LABELS`] holds
//! the default English and Russian texts, `{n}` stands for the modifier's number.
//!
//! FIDE names by default; events of the Russian variant use the draughts names: Buchholz is
//! the Solkoff coefficient, Cut-1 the truncated Solkoff, Median-1 the Solkoff median, and
//! Sonneborn-Berger in a round-robin the Berger coefficient.

use super::{EventKind, Modifier, TieBreak, TieBreakKind};

/// Which tradition of names an event uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Naming {
    /// FIDE C.07 names.
    Fide,
    /// Names of the Russian draughts tradition (Russian-variant events).
    RussianDraughts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    English,
    Russian,
}

/// One catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelEntry {
    pub key: &'static str,
    pub en: &'static str,
    pub ru: &'static str,
}

/// Every label key with its default texts.
pub const LABELS: &[LabelEntry] = &[
    LabelEntry {
        key: "tiebreak.bh",
        en: "Buchholz",
        ru: "Бухгольц",
    },
    LabelEntry {
        key: "tiebreak.bh.cut1",
        en: "Buchholz Cut-1",
        ru: "Бухгольц без одного худшего",
    },
    LabelEntry {
        key: "tiebreak.bh.cut",
        en: "Buchholz Cut-{n}",
        ru: "Бухгольц без {n} худших",
    },
    LabelEntry {
        key: "tiebreak.bh.median1",
        en: "Median Buchholz",
        ru: "Медианный Бухгольц",
    },
    LabelEntry {
        key: "tiebreak.bh.median",
        en: "Buchholz Median-{n}",
        ru: "Медианный Бухгольц-{n}",
    },
    LabelEntry {
        key: "tiebreak.sb",
        en: "Sonneborn-Berger",
        ru: "коэффициент Бергера",
    },
    LabelEntry {
        key: "tiebreak.sb.cut1",
        en: "Sonneborn-Berger Cut-1",
        ru: "коэффициент Бергера без худшего результата",
    },
    LabelEntry {
        key: "tiebreak.sb.cut",
        en: "Sonneborn-Berger Cut-{n}",
        ru: "коэффициент Бергера без {n} худших",
    },
    LabelEntry {
        key: "tiebreak.sb.median",
        en: "Sonneborn-Berger Median-{n}",
        ru: "медианный коэффициент Бергера-{n}",
    },
    LabelEntry {
        key: "tiebreak.de",
        en: "Direct encounter",
        ru: "Личная встреча",
    },
    LabelEntry {
        key: "tiebreak.win",
        en: "Wins",
        ru: "Количество побед",
    },
    LabelEntry {
        key: "tiebreak.won",
        en: "Games won",
        ru: "Выигранные партии",
    },
    LabelEntry {
        key: "tiebreak.bpg",
        en: "Games with Black",
        ru: "Партии чёрными",
    },
    LabelEntry {
        key: "tiebreak.aro",
        en: "Average rating of opponents",
        ru: "Средний рейтинг соперников",
    },
    LabelEntry {
        key: "tiebreak.tpr",
        en: "Performance rating",
        ru: "Турнирный рейтинг (перфоманс)",
    },
    LabelEntry {
        key: "tiebreak.solkoff",
        en: "Solkoff",
        ru: "Коэффициент Солкофа",
    },
    LabelEntry {
        key: "tiebreak.solkoff.cut1",
        en: "truncated Solkoff",
        ru: "усечённый коэффициент Солкофа",
    },
    LabelEntry {
        key: "tiebreak.solkoff.cut",
        en: "truncated Solkoff (Cut-{n})",
        ru: "усечённый коэффициент Солкофа (без {n} худших)",
    },
    LabelEntry {
        key: "tiebreak.solkoff.median1",
        en: "Solkoff median",
        ru: "медианный коэффициент Солкофа",
    },
    LabelEntry {
        key: "tiebreak.solkoff.median",
        en: "Solkoff median-{n}",
        ru: "медианный коэффициент Солкофа-{n}",
    },
    LabelEntry {
        key: "tiebreak.berger",
        en: "Berger coefficient",
        ru: "коэффициент Бергера",
    },
    LabelEntry {
        key: "tiebreak.berger.cut1",
        en: "Berger coefficient Cut-1",
        ru: "коэффициент Бергера без худшего результата",
    },
    LabelEntry {
        key: "tiebreak.berger.cut",
        en: "Berger coefficient Cut-{n}",
        ru: "коэффициент Бергера без {n} худших",
    },
    LabelEntry {
        key: "tiebreak.berger.median",
        en: "Berger coefficient Median-{n}",
        ru: "медианный коэффициент Бергера-{n}",
    },
];

/// The catalogue key of a tie-break in an event.
pub fn label_key(tb: &TieBreak, naming: Naming, kind: EventKind) -> &'static str {
    let draughts = naming == Naming::RussianDraughts;
    match (tb.kind, tb.modifier) {
        (TieBreakKind::Buchholz, m) => match (draughts, m) {
            (false, Modifier::None) => "tiebreak.bh",
            (false, Modifier::Cut(1)) => "tiebreak.bh.cut1",
            (false, Modifier::Cut(_)) => "tiebreak.bh.cut",
            (false, Modifier::Median(1)) => "tiebreak.bh.median1",
            (false, Modifier::Median(_)) => "tiebreak.bh.median",
            (true, Modifier::None) => "tiebreak.solkoff",
            (true, Modifier::Cut(1)) => "tiebreak.solkoff.cut1",
            (true, Modifier::Cut(_)) => "tiebreak.solkoff.cut",
            (true, Modifier::Median(1)) => "tiebreak.solkoff.median1",
            (true, Modifier::Median(_)) => "tiebreak.solkoff.median",
        },
        (TieBreakKind::SonnebornBerger, m) => {
            let berger = draughts && kind == EventKind::RoundRobin;
            match (berger, m) {
                (false, Modifier::None) => "tiebreak.sb",
                (false, Modifier::Cut(1)) => "tiebreak.sb.cut1",
                (false, Modifier::Cut(_)) => "tiebreak.sb.cut",
                (false, Modifier::Median(_)) => "tiebreak.sb.median",
                (true, Modifier::None) => "tiebreak.berger",
                (true, Modifier::Cut(1)) => "tiebreak.berger.cut1",
                (true, Modifier::Cut(_)) => "tiebreak.berger.cut",
                (true, Modifier::Median(_)) => "tiebreak.berger.median",
            }
        }
        (TieBreakKind::DirectEncounter, _) => "tiebreak.de",
        (TieBreakKind::Wins, _) => "tiebreak.win",
        (TieBreakKind::GamesWon, _) => "tiebreak.won",
        (TieBreakKind::BlackGames, _) => "tiebreak.bpg",
        (TieBreakKind::AverageRatingOfOpponents, _) => "tiebreak.aro",
        (TieBreakKind::PerformanceRating, _) => "tiebreak.tpr",
    }
}

/// The default text of a key in a language (`None` for an unknown key).
pub fn label_text(key: &str, language: Language) -> Option<&'static str> {
    LABELS
        .iter()
        .find(|e| e.key == key)
        .map(|e| match language {
            Language::English => e.en,
            Language::Russian => e.ru,
        })
}

/// The full display label, `{n}` filled in.
pub fn tiebreak_label(
    tb: &TieBreak,
    naming: Naming,
    kind: EventKind,
    language: Language,
) -> String {
    let key = label_key(tb, naming, kind);
    let text = label_text(key, language).unwrap_or(key);
    let n = match tb.modifier {
        Modifier::None => 0,
        Modifier::Cut(n) | Modifier::Median(n) => n,
    };
    text.replace("{n}", &n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tb(code: &str) -> TieBreak {
        code.parse().expect("valid code")
    }

    /// One worst result is "без худшего результата", not "без 1 худших".
    #[test]
    fn one_cut_result_reads_in_the_singular() {
        let sw = EventKind::Swiss;
        let rr = EventKind::RoundRobin;
        let ru = Language::Russian;
        assert_eq!(
            tiebreak_label(&tb("SB/C1"), Naming::Fide, sw, ru),
            "коэффициент Бергера без худшего результата"
        );
        assert_eq!(
            tiebreak_label(&tb("SB/C2"), Naming::Fide, sw, ru),
            "коэффициент Бергера без 2 худших"
        );
        assert_eq!(
            tiebreak_label(&tb("SB/C1"), Naming::RussianDraughts, rr, ru),
            "коэффициент Бергера без худшего результата"
        );
        assert_eq!(
            tiebreak_label(&tb("SB/C1"), Naming::Fide, sw, Language::English),
            "Sonneborn-Berger Cut-1"
        );
    }

    #[test]
    fn draughts_names_for_russian_events() {
        let rr = EventKind::RoundRobin;
        let sw = EventKind::Swiss;
        let d = Naming::RussianDraughts;
        assert_eq!(
            tiebreak_label(&tb("BH"), d, sw, Language::English),
            "Solkoff"
        );
        assert_eq!(
            tiebreak_label(&tb("BH"), d, sw, Language::Russian),
            "Коэффициент Солкофа"
        );
        assert_eq!(
            tiebreak_label(&tb("BH/C1"), d, sw, Language::English),
            "truncated Solkoff"
        );
        assert_eq!(
            tiebreak_label(&tb("BH/C1"), d, sw, Language::Russian),
            "усечённый коэффициент Солкофа"
        );
        assert_eq!(
            tiebreak_label(&tb("BH/M1"), d, sw, Language::English),
            "Solkoff median"
        );
        assert_eq!(
            tiebreak_label(&tb("SB"), d, rr, Language::English),
            "Berger coefficient"
        );
        assert_eq!(
            tiebreak_label(&tb("SB"), d, rr, Language::Russian),
            "коэффициент Бергера"
        );
        // SB keeps its FIDE name in a Swiss.
        assert_eq!(
            tiebreak_label(&tb("SB"), d, sw, Language::English),
            "Sonneborn-Berger"
        );
    }

    #[test]
    fn fide_names_by_default_and_every_key_has_texts() {
        let f = Naming::Fide;
        let sw = EventKind::Swiss;
        assert_eq!(
            tiebreak_label(&tb("BH/C2"), f, sw, Language::English),
            "Buchholz Cut-2"
        );
        assert_eq!(
            tiebreak_label(&tb("SB"), f, EventKind::RoundRobin, Language::English),
            "Sonneborn-Berger"
        );
        for code in [
            "BH", "BH/C1", "BH/C3", "BH/M1", "BH/M2", "SB", "SB/C1", "SB/M1", "DE", "WIN", "WON",
            "BPG", "ARO", "TPR",
        ] {
            for naming in [Naming::Fide, Naming::RussianDraughts] {
                for kind in [EventKind::Swiss, EventKind::RoundRobin] {
                    let key = label_key(&tb(code), naming, kind);
                    assert!(label_text(key, Language::English).is_some(), "{key}");
                    assert!(label_text(key, Language::Russian).is_some(), "{key}");
                }
            }
        }
    }
}
