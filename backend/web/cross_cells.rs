//! Crosstable cells in the reader's language. The service writes a cell as the API sends
//! it (`12w1`: the opponent's place, the colour, the result; the TRF letters `U F H Z` for
//! byes); a Russian page writes the colour б/ч and Russian letters for the byes, explained
//! by the legend under the table.
use super::i18n::Lang;

pub fn cell(lang: Lang, text: &str) -> String {
    match lang {
        Lang::En => text.to_string(),
        Lang::Ru => text
            .chars()
            .map(|c| match c {
                'w' => 'б',
                'b' => 'ч',
                // Свободный тур (the pairing-allocated bye), очко без игры (a full-point bye),
                // пропуск тура за пол-очка, отсутствие.
                'U' => 'С',
                'F' => 'В',
                'H' => 'П',
                'Z' => 'О',
                c => c,
            })
            .collect(),
    }
}

/// The legend under a crosstable: what a cell of a Swiss or a round-robin table says.
pub fn legend_key(round_robin: bool) -> &'static str {
    if round_robin {
        "event.crosstable_legend.round_robin"
    } else {
        "event.crosstable_legend.swiss"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_cells_use_russian_letters() {
        assert_eq!(cell(Lang::Ru, "12w1"), "12б1");
        assert_eq!(cell(Lang::Ru, "3b½"), "3ч½");
        assert_eq!(cell(Lang::Ru, "U"), "С");
        assert_eq!(cell(Lang::En, "12w1"), "12w1");
    }
}
