//! On a GPU: instrument-suite times a kernel and writes its calibration in
//! the JSON. Run with `cargo test -- --ignored` where there is an NVIDIA GPU;
//! ci/gpu-session.sh runs it on the GPU machine, with the binary carried in
//! LESSON_BIN_DIR.

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn the_suite_times_a_kernel_with_its_calibration_in_the_json() {
    let dir = std::env::temp_dir().join(format!("instrument-suite-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("run.json");
    // The binary built beside this test, or the one carried to the GPU
    // machine in LESSON_BIN_DIR (ci/gpu-session.sh's .evidence-bin).
    let bin = lesson_spec::testkit::cli::lesson_bin(env!("CARGO_BIN_EXE_instrument-suite"));
    let output = std::process::Command::new(bin)
        .args(["--kernel", "vector-add-l2", "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(
        table.contains("calibration: event resolution") && table.contains("vector-add-l2"),
        "{table}"
    );
    let run: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let c = &run["calibration"];
    for field in [
        "event_resolution_ms",
        "empty_launch_ms",
        "graph_launch_ms",
        "sync_wakeup_ms",
        "copy_ceiling_gb_s",
        "memory_peak_gb_s",
    ] {
        assert!(c[field].as_f64().is_some_and(|x| x > 0.0), "{field}: {c}");
    }
    let k = &run["kernels"][0];
    assert_eq!(k["kernel"], "vector-add-l2");
    // A kernel of a few microseconds is near the launch floor: the
    // recommended mode is graph replay, whose batched samples are never
    // below the timer's tick, so it has a median and rejected nothing.
    let m = &k["measurement"];
    assert_eq!(m["mode"], "Graph");
    assert_eq!(m["rejected"], 0);
    let median = k["median"]["ms"].as_f64().expect("a median");
    assert!(median > 0.0 && median < 0.01, "{median}");
    // A memory-bound kernel's samples are spread over four allocations of
    // its buffers (768 KiB each: they fit on any GPU), and the table says so.
    assert_eq!(k["buffer_sets"], 4);
    assert!(
        table.contains("samples spread over allocations of the kernel's buffers: vector-add-l2 over 4"),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
