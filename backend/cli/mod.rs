//! Command-line subcommands other than `serve`.
