//! FEN text in every variant and square style: a position read writes back to a FEN that
//! reads as the same position; an error names a column inside the text.
#![no_main]

use damka_engine::fen::{SquareStyle, format_fen, parse_fen};
use damka_engine::{Position, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&setup, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[usize::from(setup) % Variant::ALL.len()];
    let style = if setup & 0x80 == 0 {
        SquareStyle::Native
    } else {
        SquareStyle::Numeric
    };
    let text = String::from_utf8_lossy(rest);
    match parse_fen(variant.into(), &text, style) {
        Ok(position) => {
            let written = format_fen(&position, style);
            let again = parse_fen(variant.into(), &written, style);
            assert_eq!(again.as_ref(), Ok(&position), "{written}");
            assert_eq!(
                Position::from_fen(variant, &position.to_fen()),
                Ok(position)
            );
        }
        Err(error) => {
            assert!(error.column >= 1 && error.column <= text.len() + 1);
            assert!(!error.to_string().is_empty());
        }
    }
});
