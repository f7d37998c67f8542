//! On a GPU: kernel-timer times a kernel of set.cu and writes every sample;
//! refuses arguments that do not fit the kernel's parameters (the driver's
//! sizes) and names the kernel whose launch faults; labels a planted 10%
//! slowdown SLOWER in one process. Run with `cargo test -- --ignored` where
//! there is an NVIDIA GPU and nvcc; ci/gpu-session.sh runs it on the GPU
//! machine, with the binary carried in LESSON_BIN_DIR.

use std::path::PathBuf;
use std::process::Output;

/// A kernel that stores `n` at `p[n]`: with `n` near 2^32, 16 GB past a small buffer: an illegal address.
const POKE_PTX: &str = "
.version 7.0
.target sm_70
.address_size 64
.visible .entry poke(.param .u64 p, .param .u32 n)
{
    .reg .b64 %rd<4>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [n];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r1;
    ret;
}
";

fn run(args: &[&str]) -> Output {
    let bin = lesson_spec::testkit::cli::lesson_bin(env!("CARGO_BIN_EXE_kernel-timer"));
    std::process::Command::new(bin).args(args).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kernel-timer-gpu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// set.cu where this test was built, or in the copy of the tree the GPU
/// machine runs it from.
fn set_cu() -> String {
    let built = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/set.cu");
    if std::path::Path::new(built).is_file() {
        built.into()
    } else {
        "crates/measure/kernel-timer/kernels/set.cu".into()
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU and nvcc"]
fn the_empty_kernel_is_timed_by_graph_replay_with_every_sample_in_the_json() {
    let json = scratch("empty.json");
    let out = run(&[
        &set_cu(),
        "empty",
        "--json",
        json.to_str().unwrap(),
        "--budget-ms",
        "200",
    ]);
    assert!(out.status.success(), "{out:?}");
    let block = String::from_utf8_lossy(&out.stdout);
    assert!(block.contains("#### Kernel time: `empty (_Z5emptyv)`"), "{block}");
    assert!(block.contains("| Mode | graph: near the launch floor"), "{block}");
    assert!(block.contains("| Median | **"), "{block}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let samples = v["measurement"]["samples"].as_array().expect("samples");
    assert!(samples.len() >= 20, "{}", samples.len());
    assert!(v["run"]["calibration"]["event_resolution_ms"].as_f64().unwrap() > 0.0);
}

#[test]
#[ignore = "needs an NVIDIA GPU"]
fn arguments_that_do_not_fit_and_a_faulting_launch_are_one_line_each() {
    let ptx = scratch("poke.ptx");
    std::fs::write(&ptx, POKE_PTX).unwrap();
    let ptx = ptx.to_str().unwrap();
    let out = run(&[ptx, "poke", "--arg", "u32[1]"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        err.trim_end(),
        "error: kernel `poke` takes 2 parameters (8, 4 bytes each), and 1 --arg were given"
    );
    let out = run(&[ptx, "poke", "--arg", "u32[1]", "--arg", "u64=1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("argument 2 of kernel `poke` is 4 bytes"));
    let out = run(&[ptx, "poke", "--arg", "u32[1]", "--arg", "u32=4000000000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        err.starts_with("error: kernel `poke` failed on its first launch"),
        "{err}"
    );
    assert!(err.to_lowercase().contains("illegal"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
#[ignore = "needs an NVIDIA GPU and nvcc"]
fn a_planted_ten_percent_slowdown_is_slower_in_one_process() {
    let out = run(&[
        &set_cu(),
        "fma_loop",
        "--grid",
        "264",
        "--block",
        "256",
        "--arg",
        "f32[67584]",
        "--arg",
        "i32=2000",
        "--nvcc-arg=-DEXTRA_PERCENT=0",
        "--b-nvcc-arg=-DEXTRA_PERCENT=10",
        "--budget-ms",
        "200",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| B against A | **SLOWER**"), "{text}");
    assert!(
        text.contains("labels: SLOWER (SAME 0, FASTER 0, SLOWER 1"),
        "{text}"
    );
}
