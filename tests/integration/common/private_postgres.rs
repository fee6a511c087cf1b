//! A PostgreSQL server of a test's own (`initdb` and `pg_ctl` on a free port, in a temporary
//! folder), for tests that crash, stop or restart the server: the machine's shared server
//! is never touched.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A PostgreSQL server of the test's own (`initdb` and `pg_ctl` on a free port), so that it
/// can be crashed and restarted without touching the machine's shared one.
pub struct PrivatePostgres {
    _dir: tempfile::TempDir,
    data: PathBuf,
    log: PathBuf,
    port: u16,
    bin: PathBuf,
    /// `runuser -u postgres --` when running as root (PostgreSQL refuses to run as root).
    as_user: Vec<String>,
}

impl PrivatePostgres {
    fn programs() -> Option<PathBuf> {
        let mut candidates: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        if let Ok(versions) = std::fs::read_dir("/usr/lib/postgresql") {
            let mut found: Vec<PathBuf> =
                versions.flatten().map(|v| v.path().join("bin")).collect();
            found.sort();
            candidates.extend(found.into_iter().rev());
        }
        candidates
            .into_iter()
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    }

    pub fn start() -> Option<PrivatePostgres> {
        let Some(bin) = PrivatePostgres::programs() else {
            if std::env::var("CI").is_ok() {
                panic!("initdb and pg_ctl are needed for the tests on a private PostgreSQL server");
            }
            eprintln!("SKIPPED: initdb/pg_ctl not found");
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let is_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        let as_user = if is_root {
            let status = Command::new("chown")
                .args(["-R", "postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success(), "chown of the private PostgreSQL folder");
            vec![
                "runuser".into(),
                "-u".into(),
                "postgres".into(),
                "--".into(),
            ]
        } else {
            Vec::new()
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let server = PrivatePostgres {
            data: dir.path().join("data"),
            log: dir.path().join("postgres.log"),
            _dir: dir,
            port,
            bin,
            as_user,
        };
        server.run(
            "initdb",
            &[
                "-D",
                &server.data.display().to_string(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        server.pg_ctl_start();
        Some(server)
    }

    fn run(&self, program: &str, args: &[&str]) {
        let program = self.bin.join(program).display().to_string();
        let mut line: Vec<String> = self.as_user.clone();
        line.push(program);
        line.extend(args.iter().map(|a| a.to_string()));
        let out = Command::new(&line[0])
            .args(&line[1..])
            .current_dir(self.data.parent().unwrap_or(Path::new("/")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line:?}: {}{}\n--- server log ---\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&self.log).unwrap_or_default()
        );
    }

    pub fn pg_ctl_start(&self) {
        let options = format!(
            "-p {} -c listen_addresses=127.0.0.1 -k {}",
            self.port,
            self.data.parent().unwrap().display()
        );
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data.display().to_string(),
                "-l",
                &self.log.display().to_string(),
                "-o",
                &options,
                "-w",
                "start",
            ],
        );
    }

    /// Stops the server cleanly (`pg_ctl stop -m fast`): open connections are told the
    /// server shuts down, as in a planned restart.
    pub fn stop(&self) {
        self.run(
            "pg_ctl",
            &["-D", &self.data.display().to_string(), "-m", "fast", "stop"],
        );
    }

    /// Stops the server the way a crash does: no checkpoint, no goodbye to the clients.
    pub fn crash(&self) {
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data.display().to_string(),
                "-m",
                "immediate",
                "stop",
            ],
        );
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let program = self.bin.join("pg_ctl").display().to_string();
        let mut line: Vec<String> = self.as_user.clone();
        line.push(program);
        let _ = Command::new(&line[0])
            .args(&line[1..])
            .args([
                "-D",
                &self.data.display().to_string(),
                "-m",
                "immediate",
                "stop",
            ])
            .output();
    }
}
