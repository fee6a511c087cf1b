//! How the pages write a Keizer event: its score (points in sixths as a number with up to
//! two decimals, in the reader's decimal mark), the share of a value a round earned
//! (`1`, `½`, `⅔`), what happened in a round, the kinds of absence, the options by name,
//! and the refusals of the options with the option named in the reader's language.
use crate::service::{AppError, Refusal};
use crate::web::i18n::Lang;
use crate::web::render::FormErrors;
use damka_domain::keizer::{KeizerMethod, KeizerOptions};
use damka_domain::tournament::ByeKind;

/// A score in sixths as points rounded to two decimals, half up (the service's
/// `keizer_points`, exact): `99`, `71,5`, `83,33` in Russian.
pub fn points(lang: Lang, sixths: u64) -> String {
    let hundredths = (sixths.saturating_mul(100).saturating_add(3)) / 6;
    let whole = lang.number(i64::try_from(hundredths / 100).unwrap_or(i64::MAX));
    let fraction = hundredths % 100;
    let mark = match lang {
        Lang::Ru => ",",
        Lang::En => ".",
    };
    if fraction == 0 {
        whole
    } else if fraction.is_multiple_of(10) {
        format!("{whole}{mark}{}", fraction / 10)
    } else {
        format!("{whole}{mark}{fraction:02}")
    }
}

/// A share of a value in sixths as a fraction a reader knows: `1`, `½`, `⅔`, `⅓`, `⅙`,
/// `⅚`, `0`.
pub fn share(sixths: u32) -> String {
    match sixths {
        0 => "0".into(),
        1 => "⅙".into(),
        2 => "⅓".into(),
        3 => "½".into(),
        4 => "⅔".into(),
        5 => "⅚".into(),
        6 => "1".into(),
        n => format!("{n}/6"),
    }
}

/// What happened in a round, as the card says it (`win`, `excused`, ...; the service's
/// outcome words).
pub fn outcome(lang: Lang, outcome: &str) -> String {
    match OUTCOMES.iter().find(|o| **o == outcome) {
        Some(known) => lang.t(&format!("keizer.outcome.{known}")),
        None => outcome.to_string(),
    }
}

/// The outcomes the service's card names.
const OUTCOMES: [&str; 11] = [
    "win",
    "draw",
    "loss",
    "forfeit_win",
    "forfeit_loss",
    "double_forfeit",
    "bye",
    "excused",
    "club_duty",
    "absent",
    "not_paired",
];

/// A bye or an absence in a Keizer event: the three kinds a player announces by their
/// Keizer names (`Z` is an absence without notice there), the others as elsewhere.
pub fn absence(lang: Lang, kind: ByeKind) -> String {
    match kind {
        ByeKind::Excused | ByeKind::ClubDuty | ByeKind::ZeroPoint => {
            lang.t(&format!("keizer.kind.{}", kind.code()))
        }
        other => lang.t(&format!("event.bye.{}", other.code())),
    }
}

/// An announced absence on the entries tab: "absent with notice in round 4".
pub fn request(lang: Lang, kind: ByeKind, round: i32) -> String {
    match kind {
        ByeKind::Excused | ByeKind::ClubDuty | ByeKind::ZeroPoint => {
            lang.tf(&format!("keizer.request.{}", kind.code()), &[&round])
        }
        other => lang.tf(&format!("event.request.{}", other.code()), &[&round]),
    }
}

/// The option codes (the API's names), in the order the form lists them.
pub const OPTION_CODES: [&str; 13] = [
    "top_value",
    "value_step",
    "own_value",
    "win_sixths",
    "draw_sixths",
    "loss_sixths",
    "bye_sixths",
    "excused_sixths",
    "club_duty_sixths",
    "absent_sixths",
    "max_scored_absences",
    "method",
    "repeat_gap",
];

/// An option's short name (`bye_sixths`: "bye"), for refusals and the summary.
pub fn option_name(lang: Lang, code: &str) -> String {
    if OPTION_CODES.contains(&code) {
        lang.t(&format!("keizer.name.{code}"))
    } else {
        code.to_string()
    }
}

/// A method's name.
pub fn method(lang: Lang, method: KeizerMethod) -> String {
    lang.t(&format!("keizer.method.{}", method.code()))
}

/// The options in a few lines, for the event's information tab: (what, how).
pub fn summary(lang: Lang, options: &KeizerOptions) -> Vec<(String, String)> {
    let name = |code: &str| option_name(lang, code);
    let shares = |codes: &[(&str, u32)]| {
        codes
            .iter()
            .map(|(code, sixths)| format!("{} {}", name(code), share(*sixths)))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let values = match options.top_value {
        Some(top) => lang.tf("keizer.summary.values_from", &[&top, &options.value_step]),
        None => lang.tf("keizer.summary.values_entries", &[&options.value_step]),
    };
    let yes_no = |on: bool| lang.t(if on { "common.yes" } else { "common.no" });
    vec![
        (lang.t("keizer.summary.values"), values),
        (
            lang.t("keizer.summary.own_value"),
            yes_no(options.own_value),
        ),
        (
            lang.t("keizer.summary.games"),
            shares(&[
                ("win_sixths", options.win_sixths),
                ("draw_sixths", options.draw_sixths),
                ("loss_sixths", options.loss_sixths),
            ]),
        ),
        (
            lang.t("keizer.summary.absences"),
            shares(&[
                ("bye_sixths", options.bye_sixths),
                ("excused_sixths", options.excused_sixths),
                ("club_duty_sixths", options.club_duty_sixths),
                ("absent_sixths", options.absent_sixths),
            ]),
        ),
        (
            lang.t("keizer.summary.max_scored_absences"),
            options.max_scored_absences.to_string(),
        ),
        (
            lang.t("keizer.summary.method"),
            method(lang, options.method),
        ),
        (
            lang.t("keizer.summary.repeat_gap"),
            options.repeat_gap.to_string(),
        ),
    ]
}

/// A refusal of the options as the form shows it: at the field `keizer`, with the option
/// named in the reader's language rather than by its code, and the option's code (to mark
/// its input). Other errors as `FormErrors::from_error` makes them.
pub fn form_errors(err: &AppError, lang: Lang) -> Option<(FormErrors, String)> {
    if let AppError::Invalid {
        field: "keizer",
        reason,
    } = err
    {
        let named = match reason {
            Refusal::KeizerShareTooLarge { field, max } => Some((
                field.clone(),
                lang.tf(
                    "error.keizer_share_too_large",
                    &[&option_name(lang, field), max],
                ),
            )),
            Refusal::KeizerOptionOutOfRange { field, min, max } => Some((
                field.clone(),
                lang.tf(
                    "error.keizer_option_out_of_range",
                    &[&option_name(lang, field), min, max],
                ),
            )),
            _ => None,
        };
        if let Some((option, message)) = named {
            return Some((
                FormErrors {
                    field: "keizer".into(),
                    message,
                },
                option,
            ));
        }
    }
    FormErrors::from_error(err, lang).map(|errors| (errors, String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_have_up_to_two_decimals_in_the_readers_mark() {
        assert_eq!(points(Lang::En, 99 * 6), "99");
        assert_eq!(points(Lang::En, 429), "71.5");
        assert_eq!(points(Lang::Ru, 429), "71,5");
        assert_eq!(points(Lang::En, 500), "83.33");
        assert_eq!(points(Lang::Ru, 500), "83,33");
        // 83.666... rounds half up to 83.67; 0.05 keeps its one decimal.
        assert_eq!(points(Lang::En, 502), "83.67");
        assert_eq!(points(Lang::En, 0), "0");
        assert_eq!(points(Lang::Ru, 6_000_003), "1\u{202f}000\u{202f}000,5");
    }

    #[test]
    fn shares_read_as_fractions() {
        let all: Vec<String> = (0..=7).map(share).collect();
        assert_eq!(all, ["0", "⅙", "⅓", "½", "⅔", "⅚", "1", "7/6"]);
    }

    /// Every key the helpers build exists in both catalogues (the catalogue test finds
    /// only the keys written out whole).
    #[test]
    fn every_built_key_is_in_both_catalogues() {
        let mut keys: Vec<String> = Vec::new();
        keys.extend(OUTCOMES.iter().map(|o| format!("keizer.outcome.{o}")));
        keys.extend(OPTION_CODES.iter().map(|c| format!("keizer.name.{c}")));
        keys.extend(OPTION_CODES.iter().map(|c| format!("keizer.opt.{c}")));
        for kind in ByeKind::ALL {
            keys.push(format!("event.bye.{}", kind.code()));
            if matches!(
                kind,
                ByeKind::Excused | ByeKind::ClubDuty | ByeKind::ZeroPoint
            ) {
                keys.push(format!("keizer.kind.{}", kind.code()));
                keys.push(format!("keizer.request.{}", kind.code()));
            }
        }
        for method in KeizerMethod::ALL {
            keys.push(format!("keizer.method.{}", method.code()));
        }
        for preset in damka_domain::keizer::PRESETS {
            keys.push(format!("keizer.preset.{}", preset.code));
        }
        keys.push("system.keizer".into());
        let missing: Vec<String> = keys
            .into_iter()
            .filter(|k| Lang::En.own_text(k).is_none() || Lang::Ru.own_text(k).is_none())
            .collect();
        assert!(missing.is_empty(), "missing: {missing:?}");
    }

    #[test]
    fn a_refused_share_names_the_option_in_the_readers_language() {
        let err = AppError::invalid(
            "keizer",
            Refusal::KeizerShareTooLarge {
                field: "bye_sixths".into(),
                max: 6,
            },
        );
        let (errors, option) = form_errors(&err, Lang::Ru).unwrap();
        assert_eq!(errors.field, "keizer");
        assert_eq!(option, "bye_sixths");
        assert!(!errors.message.contains("bye_sixths"), "{}", errors.message);
        assert!(errors.message.contains('6'), "{}", errors.message);
    }
}
