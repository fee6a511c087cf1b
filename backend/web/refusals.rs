//! Refusals as sentences in the reader's language: the catalogue's `error.<code>` text with
//! the refusal's arguments in place of `{0}`, `{1}`, ...
use super::i18n::Lang;
use crate::service::AppError;
use crate::service::refusal::{Arg, Refusal};

/// The catalogue key of a refusal's text.
pub fn key(code: &str) -> String {
    format!("error.{code}")
}

/// The refusal as a sentence.
pub fn text(lang: Lang, refusal: &Refusal) -> String {
    let args: Vec<String> = refusal
        .args()
        .iter()
        .map(|arg| arg_text(lang, arg))
        .collect();
    let args: Vec<&dyn std::fmt::Display> =
        args.iter().map(|a| a as &dyn std::fmt::Display).collect();
    lang.tf(&key(refusal.code()), &args)
}

fn arg_text(lang: Lang, arg: &Arg) -> String {
    match arg {
        Arg::Number(n) => n.to_string(),
        Arg::Text(text) => text.clone(),
        Arg::Term(key) => lang.t(key),
        Arg::Refusals(list) => list
            .iter()
            .map(|refusal| text(lang, refusal))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// The English description of an error for API clients and the command line: problem+json's
/// `detail`. A refusal is prefixed as the error kinds always were (`forbidden: ...`,
/// `<field>: ...`); other errors describe themselves.
pub fn english(err: &AppError) -> String {
    let en = |refusal: &Refusal| text(Lang::En, refusal);
    match err {
        AppError::BadRequest { reason } => format!("bad request: {}", en(reason)),
        AppError::Forbidden { reason } => format!("forbidden: {}", en(reason)),
        AppError::Conflict { reason } | AppError::NotFoundBecause { reason } => en(reason),
        AppError::Invalid { field, reason } => format!("{field}: {}", en(reason)),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::refusal::examples;

    /// `{0}`, `{1}`, ... that a text uses.
    fn placeholders(text: &str) -> std::collections::BTreeSet<usize> {
        let mut found = std::collections::BTreeSet::new();
        let mut rest = text;
        while let Some(start) = rest.find('{') {
            rest = &rest[start + 1..];
            if let Some(end) = rest.find('}')
                && let Ok(n) = rest[..end].parse::<usize>()
            {
                found.insert(n);
            }
        }
        found
    }

    /// Every code has a text in both catalogues, and each text uses exactly the refusal's
    /// arguments: none left out, none that does not exist.
    #[test]
    fn every_code_is_in_both_catalogues_with_its_arguments() {
        let mut problems = Vec::new();
        for refusal in examples::all() {
            let code = refusal.code();
            let expected: std::collections::BTreeSet<usize> = (0..refusal.args().len()).collect();
            for lang in [Lang::En, Lang::Ru] {
                let key = key(code);
                let Some(template) = lang.own_text(&key) else {
                    problems.push(format!("{lang:?}: no `{key}`"));
                    continue;
                };
                let used = placeholders(template);
                if used != expected {
                    problems.push(format!(
                        "{lang:?} `{key}` uses {used:?}, the refusal has {expected:?}"
                    ));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Two or more English words in a row, with nothing but a space between them: what a
    /// Russian page must not show. A list of codes (`BH, SB, DE`) is not a phrase.
    pub fn english_phrase(text: &str) -> Option<String> {
        let mut run: Vec<&str> = Vec::new();
        for word in text.split_whitespace() {
            let letters = word.trim_matches(|c: char| !c.is_alphanumeric());
            if letters.is_empty() || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
                run.clear();
                continue;
            }
            run.push(word);
            if run.len() >= 2 {
                return Some(run.join(" "));
            }
            if !word.ends_with(|c: char| c.is_alphanumeric()) {
                run.clear();
            }
        }
        None
    }

    #[test]
    fn the_english_phrase_check_finds_english() {
        assert_eq!(english_phrase("is required"), Some("is required".into()));
        assert_eq!(english_phrase("обязательное поле"), None);
        assert_eq!(english_phrase("допустимо: 1-0, 0-1"), None);
        assert_eq!(english_phrase("код RUS или NL"), None);
        assert_eq!(english_phrase("(известны: BH, SB, DE)"), None);
        assert_eq!(
            english_phrase("турнир: the event is finished"),
            Some("the event".into())
        );
    }

    /// Every refusal, in Russian, is a Russian sentence: no English left in it, no key, no
    /// placeholder.
    #[test]
    fn every_refusal_reads_in_russian() {
        for refusal in examples::all() {
            let text = text(Lang::Ru, &refusal);
            assert!(
                english_phrase(&text).is_none(),
                "{}: {text}",
                refusal.code()
            );
            assert!(!text.contains("error."), "{}: {text}", refusal.code());
            assert!(!text.contains('{'), "{}: {text}", refusal.code());
        }
    }

    #[test]
    fn arguments_are_put_in_place() {
        let refusal = Refusal::RoundIncomplete {
            round: 3,
            missing: 12,
        };
        assert_eq!(
            text(Lang::En, &refusal),
            "round 3 still has 12 game(s) without a result"
        );
        assert_eq!(
            text(Lang::Ru, &refusal),
            "в туре 3 партий без результата: 12"
        );
        let pairing = Refusal::ImpossiblePairing {
            problems: vec![
                Refusal::PlayerPlacedTwice { player: 4 },
                Refusal::PlayerLeftOut { player: 7 },
            ],
        };
        assert_eq!(
            text(Lang::Ru, &pairing),
            "игрок 4 указан более одного раза; игрок 7 не в паре и не имеет свободного тура"
        );
        assert_eq!(
            text(Lang::En, &pairing),
            "player 4 is placed more than once; player 7 is not paired and has no bye"
        );
    }

    /// A value the user typed is put in as it is, even when it looks like a placeholder.
    #[test]
    fn arguments_are_not_read_as_placeholders() {
        let refusal = Refusal::NotAStartNumber {
            value: "{0}{1}".into(),
        };
        assert_eq!(text(Lang::En, &refusal), "`{0}{1}` is not a start number");
    }

    #[test]
    fn english_details_keep_their_prefixes() {
        assert_eq!(
            english(&AppError::invalid("name", Refusal::Required)),
            "name: is required"
        );
        assert_eq!(
            english(&AppError::forbidden(Refusal::AdminExists)),
            "forbidden: an administrator already exists"
        );
        assert_eq!(
            english(&AppError::conflict(Refusal::RoundHasResults { round: 2 })),
            "round 2 already has results; its pairing can no longer be changed"
        );
        assert_eq!(
            english(&AppError::NotFound { what: "club" }),
            "club not found"
        );
    }
}
