use std::process::ExitCode;

use clap::{Parser, Subcommand};
use damka::cli;

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
}

fn main() -> ExitCode {
    let args = Cli::parse();
    let result = match args.command {
        None => cli::serve::run(args.serve),
        Some(Command::Serve(serve)) => cli::serve::run(serve),
        Some(Command::Demo(serve)) => cli::serve::run(cli::serve::ServeArgs { demo: true, ..serve }),
        Some(Command::Admin(admin)) => cli::admin::run(admin),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
