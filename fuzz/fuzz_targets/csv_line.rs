//! Lines of a rating-list CSV: the fields read, quoted again and joined, read back as the
//! same fields.
#![no_main]

use damka_domain::csv::split_line;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        if let Some(fields) = split_line(line) {
            assert!(!fields.is_empty());
            let quoted: Vec<String> = fields
                .iter()
                .map(|field| format!("\"{}\"", field.replace('"', "\"\"")))
                .collect();
            assert_eq!(split_line(&quoted.join(",")), Some(fields));
        }
    }
});
