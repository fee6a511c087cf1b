//! `damka ratings recompute [--check]`: rebuilds every rating from the stored results, or
//! checks that what is stored is exactly what a rebuild gives.
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, Subcommand};
use damka_engine::Variant;

use crate::service::ratings::recompute::{self, Progress};
use crate::service::ratings::refold::{self, CatchUp};
use crate::store::{self, DatabaseUrl, RetryPolicy};
use damka_domain::vocabulary::Spelling;

#[derive(Debug, Args)]
pub struct RatingsArgs {
    #[command(subcommand)]
    pub command: RatingsCommand,
    /// The database (same as `serve`).
    #[arg(
        long,
        env = "DAMKA_DATABASE_URL",
        default_value = "sqlite://damka.db",
        global = true
    )]
    pub database_url: String,
}

#[derive(Debug, Subcommand)]
pub enum RatingsCommand {
    /// Rebuild every variant's Elo and Glicko-2 ratings from the results (progress on
    /// standard error). With --check, change nothing: list every difference between the
    /// stored ratings and a rebuild, and exit 1 if there is any; a catch-up under way (a
    /// change that reached far back) is finished first, with progress.
    Recompute {
        #[arg(long)]
        check: bool,
        /// Only this variant (russian, english, international, brazilian).
        #[arg(long)]
        variant: Option<String>,
    },
}

fn variants(only: Option<&str>) -> anyhow::Result<Vec<Variant>> {
    match only {
        None => Ok(Variant::ALL.to_vec()),
        Some(text) => Variant::from_spelling(text.trim())
            .map(|v| vec![v])
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "--variant: {text:?} is none of russian, english, international, brazilian"
                )
            }),
    }
}

/// Waits for the variant's catch-up by doing it (a change that reached far back is being
/// taken in; a server's worker may be doing the same windows, which the claim on the
/// variant's row keeps apart), reporting every window, so that the check compares
/// current ratings.
fn catch_up(conn: &mut store::DbConn, variant: Variant) -> crate::service::AppResult<()> {
    let name = variant.spelling();
    let started = Instant::now();
    loop {
        match refold::step(conn, variant, true)? {
            CatchUp::Current => return Ok(()),
            CatchUp::Busy => {}
            CatchUp::Behind(at) => eprintln!(
                "{name}: ratings being brought up to date, refolded up to {at} ({:.1?})",
                started.elapsed()
            ),
        }
    }
}

pub fn run(args: RatingsArgs) -> anyhow::Result<ExitCode> {
    super::serve::init_logging(super::serve::LogFormat::Text);
    let url = DatabaseUrl::parse(&args.database_url)
        .map_err(|e| anyhow::anyhow!("--database-url: {e}"))?;
    let RatingsCommand::Recompute { check, variant } = args.command;
    let variants = variants(variant.as_deref())?;
    let pool = store::open(&url, 2, RetryPolicy::from_env())?;
    let mut conn = pool.get()?;
    let english =
        |e: crate::service::AppError| anyhow::anyhow!("{}", crate::web::refusals::english(&e));
    if check {
        let mut differences = 0;
        for variant in variants {
            let name = variant.spelling();
            catch_up(&mut conn, variant).map_err(english)?;
            let counted = recompute::counted_results_differ(&mut conn, variant).map_err(english)?;
            if counted > 0 {
                println!(
                    "{name}: {counted} counted results stored differ from what the boards and games say"
                );
                differences += counted;
            }
            let found = recompute::check(&mut conn, variant).map_err(english)?;
            if found.is_empty() {
                eprintln!("{name}: the stored ratings are exactly a recompute");
            }
            for difference in &found {
                println!("{name}: {difference}");
            }
            differences += found.len();
        }
        if differences > 0 {
            eprintln!("{differences} differences: run `damka ratings recompute` to rebuild");
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    for variant in variants {
        let name = variant.spelling();
        let started = Instant::now();
        let mut report = |progress: Progress| match progress {
            Progress::Read { results } => {
                eprintln!(
                    "{name}: {results} counted results read ({:.1?})",
                    started.elapsed()
                );
            }
            Progress::Computed { ratings, steps } => eprintln!(
                "{name}: computed {ratings} ratings and {steps} history steps ({:.1?})",
                started.elapsed()
            ),
            Progress::Writing { done, of } => {
                eprintln!(
                    "{name}: writing {done} of {of} changed players ({:.1?})",
                    started.elapsed()
                );
            }
        };
        let changed =
            recompute::recompute_reporting(&mut conn, variant, &mut report).map_err(english)?;
        println!(
            "{name}: {changed} ratings or histories rewritten in {:.1?}",
            started.elapsed()
        );
    }
    Ok(ExitCode::SUCCESS)
}
