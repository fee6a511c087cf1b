//! The configuration file of `damka serve` (`--config FILE`, TOML) and the settings that
//! may come from it. A setting given as a flag or environment variable wins over the file,
//! the file over the default. Only the `[server]` section exists so far; any other section
//! or key is a start-up error, so a typing mistake never goes unnoticed.
use std::num::{NonZeroU64, NonZeroUsize};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use serde::Deserialize;

use crate::web::client_limits::{self, ClientLimits};

/// The flags that may also be set in the configuration file.
#[derive(Debug, Clone, Default, Args)]
pub struct ConfigArgs {
    /// A TOML file whose `[server]` section may set `body_timeout`,
    /// `max_connections_per_address` and `max_streams_per_address`; the flags below win
    /// over it.
    #[arg(long, env = "DAMKA_CONFIG")]
    pub config: Option<PathBuf>,
    /// Seconds the whole body of a request may take to arrive, counted from its head;
    /// then 408 and the connection closes. Default 10 (`[server] body_timeout`).
    #[arg(long, env = "DAMKA_BODY_TIMEOUT")]
    pub body_timeout: Option<NonZeroU64>,
    /// Open connections one client address may hold; a request on one more is answered
    /// 429 and its connection closed. A trusted proxy is not capped. Default 256.
    #[arg(long, env = "DAMKA_MAX_CONNECTIONS_PER_ADDRESS")]
    pub max_connections_per_address: Option<NonZeroUsize>,
    /// Live streams (SSE subscriptions) one client address may hold open; one more is
    /// answered 429. Default 64.
    #[arg(long, env = "DAMKA_MAX_STREAMS_PER_ADDRESS")]
    pub max_streams_per_address: Option<NonZeroUsize>,
}

/// The configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub server: ServerSection,
}

/// `[server]`: how the HTTP server treats its clients.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    pub body_timeout: Option<NonZeroU64>,
    pub max_connections_per_address: Option<NonZeroUsize>,
    pub max_streams_per_address: Option<NonZeroUsize>,
}

impl ConfigFile {
    /// Reads the file; an unreadable file, an unknown key or a bad value is an error that
    /// names the file and the key.
    pub fn read(path: &Path) -> anyhow::Result<ConfigFile> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("--config {}: {e}", path.display()))?;
        ConfigFile::parse(&text).map_err(|e| anyhow::anyhow!("--config {}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<ConfigFile, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
    }
}

impl ConfigArgs {
    /// The limits on each client: flag or environment variable, else the file, else the
    /// default.
    pub fn client_limits(&self) -> anyhow::Result<ClientLimits> {
        let file = match &self.config {
            Some(path) => ConfigFile::read(path)?,
            None => ConfigFile::default(),
        };
        Ok(self.merged_with(&file.server))
    }

    fn merged_with(&self, file: &ServerSection) -> ClientLimits {
        let body_timeout = self
            .body_timeout
            .or(file.body_timeout)
            .map_or(client_limits::DEFAULT_BODY_TIMEOUT, |secs| {
                Duration::from_secs(secs.get())
            });
        let max_connections_per_address = self
            .max_connections_per_address
            .or(file.max_connections_per_address)
            .map_or(client_limits::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, |n| {
                n.get()
            });
        let max_streams_per_address = self
            .max_streams_per_address
            .or(file.max_streams_per_address)
            .map_or(client_limits::DEFAULT_MAX_STREAMS_PER_ADDRESS, |n| n.get());
        ClientLimits {
            body_timeout,
            max_connections_per_address,
            max_streams_per_address,
            ..ClientLimits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(text: &str) -> ServerSection {
        ConfigFile::parse(text).unwrap().server
    }

    #[test]
    fn without_flags_or_file_the_defaults_hold() {
        let limits = ConfigArgs::default().merged_with(&ServerSection::default());
        assert_eq!(limits.body_timeout, Duration::from_secs(10));
        assert_eq!(limits.max_connections_per_address, 256);
        assert_eq!(limits.max_streams_per_address, 64);
        assert_eq!(ConfigFile::parse("").unwrap().server.body_timeout, None);
    }

    #[test]
    fn the_file_beats_the_default_and_flags_beat_the_file() {
        let file = server(
            "[server]\nbody_timeout = 3\nmax_connections_per_address = 9\nmax_streams_per_address = 4\n",
        );
        let from_file = ConfigArgs::default().merged_with(&file);
        assert_eq!(from_file.body_timeout, Duration::from_secs(3));
        assert_eq!(from_file.max_connections_per_address, 9);
        assert_eq!(from_file.max_streams_per_address, 4);
        let flags = ConfigArgs {
            body_timeout: NonZeroU64::new(7),
            max_streams_per_address: NonZeroUsize::new(2),
            ..ConfigArgs::default()
        };
        let merged = flags.merged_with(&file);
        assert_eq!(merged.body_timeout, Duration::from_secs(7));
        assert_eq!(merged.max_connections_per_address, 9, "not given as a flag");
        assert_eq!(merged.max_streams_per_address, 2);
    }

    #[test]
    fn unknown_keys_sections_and_bad_values_are_refused_by_name() {
        let unknown = ConfigFile::parse("[server]\nbody_timout = 3\n").unwrap_err();
        assert!(unknown.contains("body_timout"), "{unknown}");
        let section = ConfigFile::parse("[database]\nurl = \"x\"\n").unwrap_err();
        assert!(section.contains("database"), "{section}");
        for (text, key) in [
            ("[server]\nbody_timeout = \"ten\"\n", "body_timeout"),
            ("[server]\nbody_timeout = 0\n", "body_timeout"),
            (
                "[server]\nmax_streams_per_address = -1\n",
                "max_streams_per_address",
            ),
        ] {
            let bad = ConfigFile::parse(text).unwrap_err();
            assert!(bad.contains(key), "{text}: {bad}");
        }
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let args = ConfigArgs {
            config: Some(PathBuf::from("/nonexistent/damka.toml")),
            ..ConfigArgs::default()
        };
        let message = args.client_limits().unwrap_err().to_string();
        assert!(message.contains("/nonexistent/damka.toml"), "{message}");
    }
}
