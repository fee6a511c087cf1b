//! TRF files: a tournament read writes back to a file that reads again; an error names a
//! line of the file.
#![no_main]

use damka_domain::trf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match trf::parse(&text) {
        Ok(tournament) => {
            let written = trf::write(&tournament);
            if let Err(error) = trf::parse(&written) {
                panic!("what was read does not read back: {error}\n{written}");
            }
        }
        Err(error) => {
            let lines = text
                .replace("\r\n", "\n")
                .replace('\r', "\n")
                .split('\n')
                .count();
            assert!(error.line <= lines);
            assert!(error.to_string().starts_with("TRF line "));
        }
    }
});
