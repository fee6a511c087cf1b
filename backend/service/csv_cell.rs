//! CSV cells that a spreadsheet reads as text: RFC 4180 quoting, and a leading `'` before
//! anything a spreadsheet would start a formula with. Spreadsheets skip leading blanks and
//! control characters (a tab, a carriage return) before deciding, and read the full-width
//! forms of the signs (`＝ ＋ － ＠`) as the signs themselves, so the guard looks past the
//! former and knows the latter.

/// The characters a spreadsheet may start a formula or a command with (`|` starts a DDE
/// call in some, `%` a macro in others), and their full-width forms.
const FORMULA_STARTS: [char; 12] = [
    '=', '+', '-', '@', '|', '%', '＝', '＋', '－', '＠', '｜', '％',
];

/// Whether a spreadsheet could read `text` as a formula.
pub fn reads_as_formula(text: &str) -> bool {
    text.trim_start_matches(|c: char| c.is_whitespace() || c.is_control())
        .starts_with(FORMULA_STARTS)
}

/// One CSV field: `text` guarded with a leading `'` when it could read as a formula, and
/// quoted when it holds a separator, a quote or a line break.
pub fn field(text: &str) -> String {
    let guarded = if reads_as_formula(text) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_formula_start_is_guarded_even_behind_blanks_and_controls() {
        for sign in FORMULA_STARTS {
            for lead in ["", " ", "\t", "\r", "\u{0}", " \t\r"] {
                let text = format!("{lead}{sign}1+1");
                assert!(
                    field(&text).trim_start_matches('"').starts_with('\''),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn plain_text_is_left_as_it_is_and_quoted_only_when_needed() {
        assert_eq!(field("Иванов Пётр"), "Иванов Пётр");
        assert_eq!(field("a-b"), "a-b");
        assert_eq!(field("Smith, John"), "\"Smith, John\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("\t=1"), "'\t=1");
        assert_eq!(field("\r-1"), "\"'\r-1\"");
        assert_eq!(field(""), "");
    }
}
