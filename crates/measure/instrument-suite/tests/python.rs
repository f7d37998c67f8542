//! The GPU session's Python (gpu/summarize_session.py) tested with its own
//! unittest file, so `cargo test -p instrument-suite` covers the parsing of ncu's
//! CSV the session's summary depends on. Needs python3, as the session does.

#[test]
fn the_session_summary_parses_the_trial_ncu_csv() {
    let gpu = concat!(env!("CARGO_MANIFEST_DIR"), "/gpu");
    let output = std::process::Command::new("python3")
        .args(["-B", "-m", "unittest", "discover", "-s", gpu])
        .current_dir(gpu)
        .output()
        .expect("python3 runs (the GPU session needs it too)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
