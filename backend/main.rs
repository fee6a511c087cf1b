use std::process::ExitCode;

use clap::{Parser, Subcommand};
use damka::cli;

/// jemalloc with its background threads rather than the system allocator: glibc's keeps
/// what thousands of live watchers used long after they left (per-thread arenas it rarely
/// trims), and mimalloc returns freed pages only when the thread that freed them allocates
/// again, so an idle server kept its peak. jemalloc's background threads return unused pages
/// within seconds, busy or idle (README, Benchmarks: "Live watchers' memory").
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// damka: a self-hosted service for draughts clubs. Without a subcommand it serves.
#[derive(Debug, Parser)]
#[command(name = "damka", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: cli::serve::ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the web pages and the JSON API (the default).
    Serve(cli::serve::ServeArgs),
    /// Serve a fresh demo database filled with a believable club (same as `serve --demo`).
    Demo(cli::serve::ServeArgs),
    /// Site administration from the command line.
    Admin(cli::admin::AdminArgs),
    /// Write a consistent copy of a SQLite database while the service runs.
    Backup(cli::backup::BackupArgs),
    /// Rebuild or check the ratings (`damka ratings recompute [--check]`).
    Ratings(cli::ratings::RatingsArgs),
    /// Count the leaf positions of the move tree (move-generator test and benchmark).
    Perft(cli::engine::PerftArgs),
    /// List every legal move of a position in canonical notation.
    Moves(cli::engine::MovesArgs),
    /// Replay the games of a PDN file and report the first illegal move or the result.
    CheckGame(cli::engine::CheckGameArgs),
    /// Pair the next round of a TRF file with the FIDE Dutch system (bbpPairings' format).
    Pair(cli::tournament::PairArgs),
    /// Print the standings of a TRF file with tie-breaks.
    Standings(cli::standings::StandingsArgs),
}

fn main() -> ExitCode {
    let args = Cli::parse();
    let result = match args.command {
        None => cli::serve::run(args.serve),
        Some(Command::Serve(serve)) => cli::serve::run(serve),
        Some(Command::Demo(serve)) => cli::serve::run(cli::serve::ServeArgs {
            demo: true,
            ..serve
        }),
        Some(Command::Admin(admin)) => cli::admin::run(admin),
        Some(Command::Backup(args)) => cli::backup::run(&args),
        Some(Command::Ratings(ratings)) => cli::ratings::run(ratings),
        Some(Command::Perft(args)) => cli::engine::run_perft(&args),
        Some(Command::Moves(args)) => cli::engine::run_moves(&args),
        Some(Command::CheckGame(args)) => cli::engine::run_check_game(&args),
        Some(Command::Pair(args)) => cli::tournament::run_pair(&args),
        Some(Command::Standings(args)) => cli::standings::run_standings(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
