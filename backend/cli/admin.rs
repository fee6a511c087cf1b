//! `damka admin create --email ...`: creates (or promotes) a site administrator.
use std::io::BufRead;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::service::{accounts, auth};
use crate::store::{self, DatabaseUrl, RetryPolicy};

#[derive(Debug, Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    pub command: AdminCommand,
    /// The database to change (same as `serve`).
    #[arg(
        long,
        env = "DAMKA_DATABASE_URL",
        default_value = "sqlite://damka.db",
        global = true
    )]
    pub database_url: String,
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Create an administrator account (or promote an existing one and reset its password).
    Create {
        #[arg(long)]
        email: String,
        /// Display name (default: the part of the e-mail before the @).
        #[arg(long)]
        name: Option<String>,
        /// Read the password from the first line of standard input instead of generating
        /// and printing one.
        #[arg(long)]
        password_stdin: bool,
    },
}

pub fn run(args: AdminArgs) -> anyhow::Result<ExitCode> {
    super::serve::init_logging(super::serve::LogFormat::Text);
    let url = DatabaseUrl::parse(&args.database_url)
        .map_err(|e| anyhow::anyhow!("--database-url: {e}"))?;
    match args.command {
        AdminCommand::Create {
            email,
            name,
            password_stdin,
        } => {
            let (password, generated) = if password_stdin {
                let mut line = String::new();
                std::io::stdin().lock().read_line(&mut line)?;
                (line.trim_end_matches(['\r', '\n']).to_string(), false)
            } else {
                (auth::random_token(12), true)
            };
            let name =
                name.unwrap_or_else(|| email.split('@').next().unwrap_or("admin").to_string());
            let pool = store::open(&url, 2, RetryPolicy::from_env())?;
            let mut conn = pool.get()?;
            let user = accounts::create_admin(&mut conn, &email, &name, &password)
                .map_err(|e| anyhow::anyhow!("{}", crate::web::refusals::english(&e)))?;
            println!(
                "administrator {} <{}> is ready",
                user.display_name, user.email
            );
            if generated {
                println!("password: {password}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
