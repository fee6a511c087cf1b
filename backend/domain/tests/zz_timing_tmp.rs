#[test]
fn timing() {
    let n = std::env::var("N").unwrap_or("0500".into());
    let t = damka_domain::trf::parse(
        &std::fs::read_to_string(format!(
            "{}/../../tests/data/dutch/bench/bench_{n}.trf",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let s = std::time::Instant::now();
    let _ = damka_domain::dutch::pair_next_round(&t).unwrap();
    eprintln!("total {:?}", s.elapsed());
}
