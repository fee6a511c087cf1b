//! Tournament tools for people who use other programs.
//!
//! `damka pair --trf FILE`: pairs the next round of the tournament in a FIDE TRF file with
//! the FIDE Dutch system and prints it in bbpPairings' format: the number of pairs, then one
//! `white black` line per board, and `N 0` for the pairing-allocated bye. Exit code 1 (with
//! a message on stderr) when no pairing satisfies the absolute criteria, 2 when the file
//! cannot be read or is not a valid TRF.

use std::path::PathBuf;
use std::process::ExitCode;

use damka_domain::dutch::{PairingError, pair_next_round};

#[derive(clap::Args, Debug)]
pub struct PairArgs {
    /// The tournament so far, as a FIDE TRF file (TRF-16; `XXR` is required; requested byes
    /// and absences for the next round as `0000 - H` / `0000 - Z` cells in its column).
    #[arg(long)]
    pub trf: PathBuf,
}

/// TRF files are often Latin-1: take UTF-8 when valid, else read each byte as Latin-1.
fn decode_trf(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

pub fn run_pair(args: &PairArgs) -> anyhow::Result<ExitCode> {
    let path = args.trf.display();
    let bytes = match std::fs::read(&args.trf) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("damka pair: cannot read {path}: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let tournament = match damka_domain::trf::parse(&decode_trf(bytes)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("damka pair: {path} is not a valid TRF file: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    match pair_next_round(&tournament) {
        Ok(pairing) => {
            print!("{}", pairing.to_bbp_format());
            Ok(ExitCode::SUCCESS)
        }
        Err(PairingError::NoValidPairing) => {
            eprintln!("damka pair: {path}: {}", PairingError::NoValidPairing);
            Ok(ExitCode::from(1))
        }
        Err(e) => {
            eprintln!("damka pair: {path}: {e}");
            Ok(ExitCode::from(2))
        }
    }
}
