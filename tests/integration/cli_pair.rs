//! `damka pair --trf FILE` end to end: bbpPairings' output format, exit codes 1 (no valid
//! pairing) and 2 (unreadable or invalid TRF).

use std::io::Write as _;
use std::process::Command;

fn damka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .output()
        .expect("damka runs")
}

fn temp_trf(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-cli-pair-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let mut f = std::fs::File::create(&path).expect("create");
    f.write_all(text.as_bytes()).expect("write");
    path
}

fn player(n: u32, cells: &[&str]) -> String {
    let head = format!("001 {n:>4}      Player {n:<26} {:>4}", 2000 - n);
    let mut line = format!("{head:<80}{:>4}{n:>5}", "0.0");
    for c in cells {
        line.push_str(&format!("  {c}"));
    }
    line
}

#[test]
fn pairs_round_one_in_bbp_format() {
    let mut trf = String::from("012 Club\nXXR 5\nXXC white1\n");
    for n in 1..=5 {
        trf.push_str(&player(n, &[]));
        trf.push('\n');
    }
    let path = temp_trf("r1.trf", &trf);
    let out = damka(&["pair", "--trf", path.to_str().expect("utf-8 path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Top half against bottom half, colours alternating from White, PAB to the last.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3\n1 3\n4 2\n5 0\n");
}

#[test]
fn corpus_rounds_equal_bbp_pairings() {
    // Each round of a corpus tournament, written back as the TRF bbpPairings was given
    // (history before the round, requested byes and absences in the round's column).
    use damka_domain::tournament::{ByeKind, NextRoundAbsence, RoundEntry};
    let dir = format!("{}/tests/data/dutch", env!("CARGO_MANIFEST_DIR"));
    let full = damka_domain::trf::parse(
        &std::fs::read_to_string(format!("{dir}/dutch_023_16.trf")).expect("corpus file"),
    )
    .expect("valid corpus TRF");
    let expected =
        std::fs::read_to_string(format!("{dir}/dutch_023_16.pairings")).expect("pairings");
    for (r, block) in expected.split("round ").skip(1).enumerate() {
        let mut t = full.clone();
        for p in &mut t.players {
            match p.rounds[r] {
                RoundEntry::Bye(ByeKind::PairingAllocated) => {}
                RoundEntry::Bye(kind) => t.next_round_absences.push(NextRoundAbsence {
                    player: p.start_no,
                    kind,
                }),
                RoundEntry::NotPaired => t.next_round_absences.push(NextRoundAbsence {
                    player: p.start_no,
                    kind: ByeKind::ZeroPoint,
                }),
                _ => {}
            }
            p.rounds.truncate(r);
        }
        let path = temp_trf(&format!("r{}.trf", r + 1), &damka_domain::trf::write(&t));
        let out = damka(&["pair", "--trf", path.to_str().expect("utf-8 path")]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: String = block.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            want,
            "round {}",
            r + 1
        );
    }
}

#[test]
fn exit_1_when_no_pairing_exists() {
    // Two players who already met: no second game is allowed.
    let trf = format!(
        "012 Pair\nXXR 3\nXXC white1\n{}\n{}\n",
        player(1, &["   2 w 1"]),
        player(2, &["   1 b 0"])
    );
    let path = temp_trf("none.trf", &trf);
    let out = damka(&["pair", "--trf", path.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no valid pairing"));
}

#[test]
fn exit_2_on_invalid_or_missing_file() {
    let path = temp_trf("bad.trf", &format!("XXR 3\n{}\n", player(1, &["   9 w 1"])));
    let out = damka(&["pair", "--trf", path.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line"));
    let out = damka(&["pair", "--trf", "/nonexistent/x.trf"]);
    assert_eq!(out.status.code(), Some(2));
}
