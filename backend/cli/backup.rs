//! `damka backup --to FILE`: a consistent copy of a SQLite database, taken while the
//! service runs. SQLite's `VACUUM INTO` reads the database in one read transaction (WAL
//! mode lets writers go on meanwhile) and writes a compact, self-contained file: the
//! database as it stood when the copy began, every committed write before that moment and
//! none after. PostgreSQL has its own tool for this (`pg_dump`); see README.
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use diesel::connection::SimpleConnection;
use diesel::{Connection, RunQueryDsl, SqliteConnection};

use crate::store::{Backend, DatabaseUrl};

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// Where to write the copy (a new file: an existing one is never overwritten).
    #[arg(long)]
    pub to: PathBuf,
    /// The database to copy (same as `serve`).
    #[arg(long, env = "DAMKA_DATABASE_URL", default_value = super::serve::DATABASE_URL)]
    pub database_url: String,
}

pub fn run(args: &BackupArgs) -> anyhow::Result<ExitCode> {
    let url = DatabaseUrl::parse(&args.database_url)
        .map_err(|e| anyhow::anyhow!("--database-url: {e}"))?;
    if url.backend == Backend::Postgres {
        eprintln!(
            "damka backup: {} is a PostgreSQL database: back it up with pg_dump (README, \
             \"Backups\"), e.g. pg_dump --format=custom --file=damka.dump DATABASE_URL",
            url.redacted()
        );
        return Ok(ExitCode::from(2));
    }
    if args.to.exists() {
        eprintln!(
            "damka backup: {} already exists; give a new file name",
            args.to.display()
        );
        return Ok(ExitCode::from(2));
    }
    if !std::path::Path::new(&url.target).exists() {
        eprintln!("damka backup: no database at {}", url.target);
        return Ok(ExitCode::from(2));
    }
    let target = args
        .to
        .to_str()
        .ok_or_else(|| anyhow::anyhow!("--to: the path is not valid UTF-8"))?;
    let started = Instant::now();
    eprintln!("damka backup: copying {} to {target} ...", url.target);
    let mut conn = SqliteConnection::establish(&url.target)?;
    // Wait for a writer's lock rather than fail: the service may be busy.
    conn.batch_execute("PRAGMA busy_timeout = 30000;")?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<diesel::sql_types::Text, _>(target)
        .execute(&mut conn)?;
    let bytes = std::fs::metadata(&args.to).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "damka backup: wrote {bytes} bytes to {target} in {} ms",
        started.elapsed().as_millis()
    );
    Ok(ExitCode::SUCCESS)
}
