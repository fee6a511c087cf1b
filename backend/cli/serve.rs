//! `damka serve`: opens the database (running its migrations) and serves pages and API.
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::service::accounts;
use crate::store::{self, DatabaseUrl, RetryPolicy};
use crate::web::client_address::TrustedProxies;
use crate::web::connection_cap::ConnectionCounter;
use crate::web::{self, AppState};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "DAMKA_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// `sqlite://FILE` (embedded; default `sqlite://damka.db`, for the demo
    /// `sqlite://damka-demo.db`) or `postgres://USER@HOST/DB` (several instances may share
    /// one PostgreSQL database; not for the demo, which starts a SQLite file of its own).
    #[arg(long, env = "DAMKA_DATABASE_URL")]
    pub database_url: Option<String>,
    /// `text` for people, `json` for log collectors.
    #[arg(long, env = "DAMKA_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Start on a fresh demo database (`damka-demo.db` unless `--database-url` names
    /// another file) filled with a believable club; the demo accounts' passwords are
    /// printed. A file that is not a demo database is never overwritten.
    #[arg(long)]
    pub demo: bool,
    /// HTTP worker threads (default: one per core).
    #[arg(long, env = "DAMKA_WORKERS")]
    pub workers: Option<usize>,
    /// Database connections per instance.
    #[arg(long, env = "DAMKA_POOL_SIZE", default_value_t = 16)]
    pub pool_size: u32,
    /// A proxy (IP address or CIDR range) whose `X-Forwarded-For` and `X-Forwarded-Proto`
    /// are believed; repeat the flag or separate with commas. Default: none, the TCP peer
    /// is the client.
    #[arg(
        long = "trusted-proxy",
        env = "DAMKA_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<String>,
    #[command(flatten)]
    pub config: super::config::ConfigArgs,
}

impl Default for ServeArgs {
    fn default() -> Self {
        ServeArgs {
            bind: "127.0.0.1:8080".into(),
            database_url: None,
            log_format: LogFormat::Text,
            demo: false,
            workers: None,
            pool_size: 16,
            trusted_proxies: Vec::new(),
            config: Default::default(),
        }
    }
}

pub const DATABASE_URL: &str = "sqlite://damka.db";

pub fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    init_logging(args.log_format);
    let trusted_proxies = TrustedProxies::parse(&args.trusted_proxies)
        .map_err(|e| anyhow::anyhow!("--trusted-proxy: {e}"))?;
    let limits = args.config.client_limits()?;
    let url_text = match &args.database_url {
        Some(url) => url.as_str(),
        None if args.demo => super::demo::DEMO_DATABASE_URL,
        None => DATABASE_URL,
    };
    let url = DatabaseUrl::parse(url_text).map_err(|e| anyhow::anyhow!("--database-url: {e}"))?;
    if args.demo {
        super::demo::reset_database_file(&url)?;
    }
    tracing::info!(database = %url.redacted(), "opening database");
    let pool = store::open(&url, args.pool_size, RetryPolicy::from_env())?;
    let site_secret = {
        let mut conn = pool.get()?;
        accounts::site_secret(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?
    };
    {
        // A database from before ratings were computed: its results and typed-in ratings
        // become the ratings, once.
        let mut conn = pool.get()?;
        let computed = crate::service::ratings::recompute::compute_never_computed(&mut conn)
            .map_err(|e| anyhow::anyhow!("computing ratings: {e}"))?;
        if !computed.is_empty() {
            tracing::info!(?computed, "ratings computed for the first time");
        }
        // Rating work a stopped process left: the worker (started below) takes it.
        let behind = crate::store::rating_catchup::behind(&mut conn)
            .map_err(|e| anyhow::anyhow!("reading the ratings' catch-up: {e}"))?;
        if !behind.is_empty() {
            tracing::info!(?behind, "ratings to bring up to date in the background");
        }
    }
    if args.demo {
        let mut conn = pool.get()?;
        let credentials =
            super::demo::seed(&mut conn).map_err(|e| anyhow::anyhow!("demo data: {e}"))?;
        super::demo::print_credentials(&credentials, &args.bind);
    }
    spawn_clock_sweep(pool.clone());
    crate::service::ratings::worker::spawn(pool.clone());
    // Made now (on PostgreSQL its listener starts now, before anyone watches), and closed
    // when the server stops.
    let live = crate::service::live::hub(&mut *pool.get()?);
    let state = AppState {
        pool,
        site_secret: site_secret.into_bytes(),
        trusted_proxies: trusted_proxies.clone(),
        limits,
        site_zone: Default::default(),
    };
    let workers = args.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let system = actix_web::rt::System::new();
    system.block_on(async move {
        // Database work runs on each worker's blocking threads; more of them than there are
        // pooled connections would only queue inside the pool, so keep them in step.
        let blocking_threads = (args.pool_size as usize / workers).max(4);
        let connections =
            ConnectionCounter::new(state.limits.max_connections_per_address, trusted_proxies);
        let server = actix_web::HttpServer::new(move || web::app(state.clone()))
            .on_connect(move |connection, data| connections.on_connect(connection, data))
            .workers(workers)
            .worker_max_blocking_threads(blocking_threads)
            // A client that closes its side has left: above all a live watcher, whose stream
            // would otherwise be kept (and its memory held) until a keep-alive write failed.
            .h1_allow_half_closed(false)
            .shutdown_signal(stop_signal(live))
            .bind(&args.bind)
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.bind))?;
        tracing::info!("damka listening on http://{}", args.bind);
        server.run().await?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// How often the server looks for games whose time ran out with no move arriving.
const CLOCK_SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Ends games lost on time that nobody asked about (a player who left the board), once a
/// second, on a thread of its own. Every instance runs one: each game is decided under its
/// lock, so two instances never end one game twice.
fn spawn_clock_sweep(pool: store::DbPool) {
    let spawned = std::thread::Builder::new()
        .name("clock-sweep".into())
        .spawn(move || {
            loop {
                std::thread::sleep(CLOCK_SWEEP_EVERY);
                let ended = pool.get().map_err(|e| e.to_string()).and_then(|mut conn| {
                    crate::service::games::time_forfeit::sweep(&mut conn).map_err(|e| e.to_string())
                });
                match ended {
                    Ok(games) if !games.is_empty() => {
                        tracing::info!(?games, "games lost on time")
                    }
                    Ok(_) => {}
                    Err(error) => tracing::warn!(%error, "clock sweep failed"),
                }
            }
        });
    if let Err(error) = spawned {
        tracing::error!(%error, "cannot start the clock sweep");
    }
}

/// Resolves on SIGINT or SIGTERM, after ending the live streams: the server then stops
/// gracefully (requests in flight are answered) without waiting for watchers, who would
/// hold their streams open until the shutdown timeout (30 s).
async fn stop_signal(live: Option<std::sync::Arc<crate::service::live::LiveHub>>) {
    use actix_web::rt::signal;
    let terminate = async {
        match signal::unix::signal(signal::unix::SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        _ = signal::ctrl_c() => {}
        _ = terminate => {}
    }
    tracing::info!("stopping: live streams closed, answering the requests in flight");
    if let Some(live) = live {
        live.close();
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    #[test]
    fn trusted_proxies_repeat_or_are_separated_by_commas() {
        let cli = Cli::try_parse_from([
            "damka",
            "--trusted-proxy",
            "10.0.0.0/8",
            "--trusted-proxy",
            "192.168.1.7,fd00::/8",
        ])
        .unwrap();
        assert_eq!(
            cli.serve.trusted_proxies,
            ["10.0.0.0/8", "192.168.1.7", "fd00::/8"]
        );
        let none = Cli::try_parse_from(["damka"]).unwrap();
        assert!(none.serve.trusted_proxies.is_empty());
    }

    #[test]
    fn a_trusted_proxy_that_is_no_address_stops_the_start() {
        let err = run(ServeArgs {
            trusted_proxies: vec!["proxy.local".into()],
            ..ServeArgs::default()
        })
        .unwrap_err();
        let message = err.to_string();
        assert!(message.contains("--trusted-proxy"), "{message}");
        assert!(message.contains("proxy.local"), "{message}");
    }
}
