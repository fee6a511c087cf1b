//! The message catalogue: every visible string of the interface, in English and Russian.
//! Catalogues are `key = text` files compiled into the binary; `{0}`, `{1}` are
//! positional arguments. Plural keys have `.one`, `.few` and `.many` forms (English uses
//! `.one` and `.many`).
pub mod latin;
use std::collections::HashMap;
use std::sync::OnceLock;

use chrono::{Datelike, NaiveDateTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

pub const SUPPORTED: [Lang; 2] = [Lang::En, Lang::Ru];

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The language's own name, for the switch.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }

    /// The best supported language of an `Accept-Language` header (by q-value, then order).
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim();
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            if let Some(lang) = Lang::from_code(tag)
                && q > 0.0
                && best.is_none_or(|(bq, _)| q > bq)
            {
                best = Some((q, lang));
            }
        }
        best.map(|(_, lang)| lang)
    }

    fn catalogue(self) -> &'static HashMap<&'static str, &'static str> {
        static EN: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
        static RU: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
        match self {
            Lang::En => EN.get_or_init(|| parse_catalogue(include_str!("en.txt"))),
            Lang::Ru => RU.get_or_init(|| parse_catalogue(include_str!("ru.txt"))),
        }
    }

    /// The text for `key`; a missing key shows itself (and a test keeps that from shipping).
    pub fn t(self, key: &str) -> String {
        self.lookup(key).unwrap_or(key).to_string()
    }

    /// The text for `key` in this language's own catalogue, without the English fallback.
    pub fn own_text(self, key: &str) -> Option<&'static str> {
        self.catalogue().get(key).copied()
    }

    fn lookup(self, key: &str) -> Option<&'static str> {
        self.catalogue()
            .get(key)
            .copied()
            .or_else(|| Lang::En.catalogue().get(key).copied())
    }

    /// `key` with `{0}`, `{1}`, ... replaced by `args`, in one pass: an argument that
    /// itself contains `{1}` (a name, a value someone typed) is shown as it is.
    pub fn tf(self, key: &str, args: &[&dyn std::fmt::Display]) -> String {
        let template = self.t(key);
        let mut text = String::with_capacity(template.len());
        let mut rest = template.as_str();
        while let Some(start) = rest.find('{') {
            text.push_str(&rest[..start]);
            let after = &rest[start + 1..];
            let arg = after.find('}').and_then(|end| {
                let index = after[..end].parse::<usize>().ok()?;
                Some((args.get(index)?, end))
            });
            match arg {
                Some((arg, end)) => {
                    text.push_str(&arg.to_string());
                    rest = &after[end + 1..];
                }
                None => {
                    text.push('{');
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        text
    }

    /// A counted phrase with the language's plural form: `key.one`, `key.few`, `key.many`,
    /// with `{0}` the number.
    pub fn plural(self, key: &str, n: i64) -> String {
        let form = match self {
            Lang::En => {
                if n == 1 {
                    "one"
                } else {
                    "many"
                }
            }
            Lang::Ru => russian_plural_form(n),
        };
        self.tf(&format!("{key}.{form}"), &[&self.number(n)])
    }

    /// Whole numbers with the language's digit grouping (1,234 / 1 234).
    pub fn number(self, n: i64) -> String {
        let digits = n.unsigned_abs().to_string();
        let separator = match self {
            Lang::En => ",",
            Lang::Ru => "\u{202f}",
        };
        let mut out = String::new();
        for (i, ch) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str(separator);
            }
            out.push(ch);
        }
        if n < 0 { format!("-{out}") } else { out }
    }

    /// A score in half-points: `3½` style is ambiguous in tables, so `3.5` / `3,5`.
    pub fn points(self, half_points: i64) -> String {
        let whole = self.number(half_points / 2);
        if half_points.rem_euclid(2) == 0 {
            whole
        } else {
            let mark = if self == Lang::Ru { "," } else { "." };
            format!("{whole}{mark}5")
        }
    }

    /// A date as the language writes it: `30 Nov 2026` / `30 нояб. 2026`.
    pub fn date(self, at: &NaiveDateTime) -> String {
        self.day(&at.date())
    }

    /// A calendar day as the language writes it.
    pub fn day(self, day: &chrono::NaiveDate) -> String {
        let month = self.t(&format!("month.{}", day.month()));
        format!("{} {} {}", day.day(), month, day.year())
    }

    pub fn date_time(self, at: &NaiveDateTime) -> String {
        format!("{}, {}", self.date(at), at.format("%H:%M"))
    }
}

/// Russian plural categories (CLDR): 1, 21, 31 -> one; 2-4, 22-24 -> few; else many.
fn russian_plural_form(n: i64) -> &'static str {
    let n = n.unsigned_abs();
    let (last, last_two) = (n % 10, n % 100);
    if last == 1 && last_two != 11 {
        "one"
    } else if (2..=4).contains(&last) && !(12..=14).contains(&last_two) {
        "few"
    } else {
        "many"
    }
}

fn parse_catalogue(text: &'static str) -> HashMap<&'static str, &'static str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_once(" = "))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_languages_served_are_the_ones_accounts_may_choose() {
        let served: Vec<&str> = SUPPORTED.iter().map(|l| l.code()).collect();
        assert_eq!(served, crate::service::accounts::LOCALES);
    }

    #[test]
    fn the_russian_catalogue_has_no_english_words() {
        let mut english = Vec::new();
        for (key, text) in Lang::Ru.catalogue() {
            // Placeholders (`{0}`, `{n}`) are filled in, not shown.
            let mut shown = String::new();
            let mut depth = 0;
            for c in text.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => shown.push(c),
                    _ => {}
                }
            }
            for word in latin::english_words(&shown) {
                english.push(format!("{key}: {word:?} in {text:?}"));
            }
        }
        english.sort();
        assert!(
            english.is_empty(),
            "English in the Russian interface:\n{}",
            english.join("\n")
        );
    }

    #[test]
    fn both_catalogues_have_the_same_keys() {
        let en: std::collections::BTreeSet<_> = Lang::En.catalogue().keys().collect();
        let ru: std::collections::BTreeSet<_> = Lang::Ru.catalogue().keys().collect();
        let only_en: Vec<_> = en.difference(&ru).collect();
        let only_ru: Vec<_> = ru.difference(&en).collect();
        // English has no `.few` forms; Russian needs them.
        let only_en: Vec<_> = only_en
            .into_iter()
            .filter(|k| !k.ends_with(".few"))
            .collect();
        let only_ru: Vec<_> = only_ru
            .into_iter()
            .filter(|k| !k.ends_with(".few"))
            .collect();
        assert!(only_en.is_empty(), "missing in ru.txt: {only_en:?}");
        assert!(only_ru.is_empty(), "missing in en.txt: {only_ru:?}");
    }

    #[test]
    fn every_key_used_by_templates_and_code_exists() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
        let mut missing = Vec::new();
        let mut files = Vec::new();
        for dir in ["templates", "backend/web"] {
            collect_files(&std::path::PathBuf::from(root).join(dir), &mut files);
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for call in [".t(\"", ".tf(\"", ".tf1(\"", ".plural(\""] {
                for (pos, _) in text.match_indices(call) {
                    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
                    if text[line_start..pos].trim_start().starts_with("//") {
                        continue;
                    }
                    let rest = &text[pos + call.len()..];
                    let Some(end) = rest.find('"') else { continue };
                    let key = &rest[..end];
                    if key.is_empty() || key.contains('{') {
                        continue;
                    }
                    let found = if call == ".plural(\"" {
                        Lang::En
                            .catalogue()
                            .contains_key(format!("{key}.one").as_str())
                            && Lang::Ru
                                .catalogue()
                                .contains_key(format!("{key}.few").as_str())
                    } else {
                        Lang::En.catalogue().contains_key(key)
                            && Lang::Ru.catalogue().contains_key(key)
                    };
                    if !found {
                        missing.push(format!("{}: {key}", file.display()));
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "keys missing from a catalogue:\n{}",
            missing.join("\n")
        );
    }

    fn collect_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                collect_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "html" || e == "rs") {
                out.push(path);
            }
        }
    }

    #[test]
    fn plural_forms() {
        assert_eq!(russian_plural_form(1), "one");
        assert_eq!(russian_plural_form(21), "one");
        assert_eq!(russian_plural_form(11), "many");
        assert_eq!(russian_plural_form(3), "few");
        assert_eq!(russian_plural_form(13), "many");
        assert_eq!(russian_plural_form(24), "few");
        assert_eq!(russian_plural_form(25), "many");
        assert_eq!(Lang::Ru.plural("count.players", 2), "2 игрока");
        assert_eq!(Lang::En.plural("count.players", 1), "1 player");
    }

    #[test]
    fn numbers_points_and_dates() {
        assert_eq!(Lang::En.number(1234567), "1,234,567");
        assert_eq!(Lang::Ru.number(1234), "1\u{202f}234");
        assert_eq!(Lang::Ru.points(7), "3,5");
        assert_eq!(Lang::En.points(7), "3.5");
        assert_eq!(Lang::En.points(4), "2");
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
            .unwrap()
            .and_hms_opt(9, 5, 0)
            .unwrap();
        assert_eq!(Lang::En.date(&at), "30 Nov 2026");
        assert_eq!(Lang::Ru.date(&at), "30 нояб. 2026");
    }

    #[test]
    fn accept_language_picks_best_supported() {
        assert_eq!(
            Lang::from_accept_language("ru-RU,ru;q=0.9,en;q=0.8"),
            Some(Lang::Ru)
        );
        assert_eq!(
            Lang::from_accept_language("de,en;q=0.5,ru;q=0.7"),
            Some(Lang::Ru)
        );
        assert_eq!(Lang::from_accept_language("de"), None);
        assert_eq!(Lang::from_accept_language("ru;q=0"), None);
    }
}
