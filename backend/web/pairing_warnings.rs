//! The rules a hand-changed pairing breaks, as sentences in the reader's language.
use damka_domain::tournament::ByeKind;

use super::i18n::Lang;
use crate::service::events::manual::{PairingWarning, PlayerRef};

fn player(p: Option<&PlayerRef>) -> String {
    match p {
        Some(p) if p.start_no > 0 => format!("{} ({})", p.name, p.start_no),
        _ => String::new(),
    }
}

/// One warning as a sentence, with its board first when it has one.
pub fn text(lang: Lang, w: &PairingWarning) -> String {
    let p = |i: usize| player(w.players.get(i));
    let colour = w.colour.as_deref().unwrap_or("white");
    let key = |name: &str| format!("pairing.warning.{name}");
    let sentence = match w.code.as_str() {
        "already_played" => lang.tf(
            &key("already_played"),
            &[&p(0), &p(1), &w.round.unwrap_or_default()],
        ),
        "forbidden_pair" => lang.tf(&key("forbidden_pair"), &[&p(0), &p(1)]),
        "colour_difference" => lang.tf(
            &key(&format!("colour_difference.{colour}")),
            &[&p(0), &w.difference.unwrap_or_default()],
        ),
        "same_colour_three_times" => {
            lang.tf(&key(&format!("same_colour_three_times.{colour}")), &[&p(0)])
        }
        "colours_against_allocation" => lang.tf(&key("colours_against_allocation"), &[&p(2)]),
        "bye_not_allowed" => lang.tf(
            &key("bye_not_allowed"),
            &[&p(0), &w.round.unwrap_or_default()],
        ),
        "requested_bye_ignored" => {
            let kind = w.requested.unwrap_or(ByeKind::ZeroPoint);
            lang.tf(&key(&format!("requested_bye_ignored.{kind}")), &[&p(0)])
        }
        "not_in_system_pairing" => lang.tf(&key("not_in_system_pairing"), &[&p(0), &p(1)]),
        "colours_differ_from_table" => lang.tf(&key("colours_differ_from_table"), &[&p(1)]),
        "bye_differs_from_system" => {
            if w.players.get(1).is_some_and(|s| s.start_no > 0) {
                lang.tf(&key("bye_differs_from_system"), &[&p(1)])
            } else {
                lang.t(&key("bye_differs_from_system.nobody"))
            }
        }
        other => other.to_string(),
    };
    match w.board {
        Some(board) => lang.tf("pairing.warning.on_board", &[&board, &sentence]),
        None => sentence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(code: &str, colour: Option<&str>, requested: Option<ByeKind>) -> PairingWarning {
        let player = |start_no: i32, name: &str| PlayerRef {
            start_no,
            name: name.to_string(),
        };
        PairingWarning {
            code: code.to_string(),
            board: Some(2),
            players: vec![player(3, "Anna"), player(7, "Boris"), player(7, "Boris")],
            round: Some(1),
            colour: colour.map(str::to_string),
            difference: Some(3),
            requested,
        }
    }

    /// Every code the service produces has a sentence in both languages, with the
    /// players' names in it and no placeholder left over.
    #[test]
    fn every_warning_code_reads_as_a_sentence_in_both_languages() {
        let cases = [
            warning("already_played", None, None),
            warning("forbidden_pair", None, None),
            warning("colour_difference", Some("white"), None),
            warning("colour_difference", Some("black"), None),
            warning("same_colour_three_times", Some("white"), None),
            warning("same_colour_three_times", Some("black"), None),
            warning("colours_against_allocation", None, None),
            warning("bye_not_allowed", None, None),
            warning("requested_bye_ignored", None, Some(ByeKind::HalfPoint)),
            warning("requested_bye_ignored", None, Some(ByeKind::ZeroPoint)),
            warning("not_in_system_pairing", None, None),
            warning("colours_differ_from_table", None, None),
            warning("bye_differs_from_system", None, None),
        ];
        for lang in [Lang::En, Lang::Ru] {
            for w in &cases {
                let text = text(lang, w);
                assert!(
                    !text.contains("pairing.warning"),
                    "{lang:?} {}: {text}",
                    w.code
                );
                assert!(!text.contains('{'), "{lang:?} {}: {text}", w.code);
                assert!(text.contains("2"), "board missing: {text}");
                assert!(
                    text.contains("Anna (3)") || text.contains("Boris (7)"),
                    "{lang:?} {}: {text}",
                    w.code
                );
            }
        }
        let mut nobody = warning("bye_differs_from_system", None, None);
        nobody.players = vec![];
        nobody.board = None;
        assert_eq!(
            text(Lang::En, &nobody),
            "the pairing system gives no bye this round"
        );
    }
}
