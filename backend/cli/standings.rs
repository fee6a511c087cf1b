//! `damka standings --trf FILE [--tiebreaks BH/C1,BH,SB,...]`: prints the standings of a
//! tournament read from a FIDE TRF file, one player per line after a header line: rank
//! (shared places as `3-4`), start number, name, points and each tie-break.
//!
//! Round-robin or Swiss is decided from the file: a round-robin when every pair of players
//! has been paired, or when `XXR` is one or two full cycles (n-1 or 2(n-1) rounds for even
//! n, n or 2n for odd n) and no pair met more often than that allows; otherwise Swiss. The
//! default tie-breaks are then `BH/C1,BH,SB,WIN` (Swiss) or `SB,DE,WIN` (round-robin).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use damka_domain::standings::{StandingsOptions, compute_standings, render_table};
use damka_domain::tiebreak::parse_tiebreak_list;

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    /// The tournament, as a FIDE TRF file (UTF-8, or Latin-1).
    #[arg(long)]
    pub trf: PathBuf,
    /// Tie-break order, comma-separated FIDE C.07 codes (case-insensitive): BH, BH/C1,
    /// BH/M1, SB, DE, WIN, WON, BPG, ARO, TPR. Default: BH/C1,BH,SB,WIN for a Swiss,
    /// SB,DE,WIN for a round-robin.
    #[arg(long)]
    pub tiebreaks: Option<String>,
}

/// TRF files are often Latin-1: take UTF-8 when valid, else read each byte as Latin-1.
fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

pub fn run_standings(args: &StandingsArgs) -> anyhow::Result<ExitCode> {
    let tiebreaks = args
        .tiebreaks
        .as_deref()
        .map(parse_tiebreak_list)
        .transpose()
        .context("--tiebreaks")?;
    let bytes =
        std::fs::read(&args.trf).with_context(|| format!("cannot read {}", args.trf.display()))?;
    let tournament = damka_domain::trf::parse(&decode(bytes))
        .with_context(|| format!("{} is not a valid TRF file", args.trf.display()))?;
    let standings = compute_standings(
        &tournament,
        &StandingsOptions {
            tiebreaks,
            ..StandingsOptions::default()
        },
    )
    .with_context(|| format!("{}: inconsistent tournament history", args.trf.display()))?;
    print!("{}", render_table(&standings));
    Ok(ExitCode::SUCCESS)
}
