//! A small file system of a test's own (`mount -t tmpfs -o size=...`), to fill up without
//! touching the machine's disks; unmounted when the guard goes, also when the test fails.
//! Mounting needs root (CAP_SYS_ADMIN): without it a CI run fails loudly and a local run
//! skips with the reason.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (`8m`) on a fresh folder; `None` (after saying why) where
    /// that is not possible outside CI.
    pub fn mount_or_skip(test: &str, size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0755"),
                "tmpfs",
            ])
            .arg(dir.path())
            .output();
        let why = match mounted {
            Ok(out) if out.status.success() => return Some(Tmpfs { dir }),
            Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
            Err(err) => format!("cannot run mount: {err}"),
        };
        if std::env::var("CI").is_ok_and(|ci| ci == "true") {
            panic!("{test}: cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): {why}");
        }
        eprintln!("SKIPPED {test}: cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): {why}");
        None
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the file system up with a file `filler` (big writes, then ever smaller ones,
    /// down to single bytes, until none fits); returns its path.
    pub fn fill(&self) -> PathBuf {
        let path = self.dir.path().join("filler");
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .unwrap();
        let mut chunk = 1 << 20;
        while chunk > 0 {
            match file.write_all(&vec![0xA5; chunk]) {
                Ok(()) => {}
                Err(err) if err.raw_os_error() == Some(28) => chunk /= 2,
                Err(err) => panic!("filling the tmpfs: {err}"),
            }
        }
        path
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let unmounted = Command::new("umount")
            .arg(self.dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !unmounted {
            // A file still open in it (a connection that outlived its pool): detach the
            // mount now, the kernel frees it when the file closes.
            let _ = Command::new("umount")
                .arg("-l")
                .arg(self.dir.path())
                .status();
        }
    }
}
