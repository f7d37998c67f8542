//! Bad input, each refused in one line with exit code 1 or 2, on a machine
//! without a GPU: what is checked before the driver is opened. (A .cu is
//! compiled with `--arch`, which needs nvcc but no GPU; tests that need nvcc
//! are skipped, with a line saying so, where the search finds none.)

use std::path::PathBuf;
use std::process::{Command, Output};

const SET: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels/set.cu");

fn kernel_timer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kernel-timer"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The one line on stderr, and the exit code.
fn refusal(args: &[&str]) -> (String, i32) {
    let out = kernel_timer(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (err.trim_end().to_string(), out.status.code().unwrap_or(-1))
}

/// A file of `bytes` named `name` in a folder of its own, removed with the
/// returned guard.
fn scratch(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

/// Whether the toolkit search finds an nvcc (the workspace's .toolchain or
/// the usual places).
fn have_nvcc() -> bool {
    let project = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../.toolchain/cuda/bin/nvcc");
    let found = project.is_file() || std::env::var_os("LESSON_NVCC").is_some() || which("nvcc");
    if !found {
        eprintln!("skipped: no nvcc to compile a .cu with");
    }
    found
}

fn which(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
}

#[test]
fn a_file_that_is_not_a_module_is_one_line() {
    let (_dir, text) = scratch("notes.txt", b"not a kernel\n");
    let (err, code) = refusal(&[text.to_str().unwrap(), "k"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!(
            "error: {} is not a module: neither a cubin (ELF) nor PTX text (.version, .target), nor a .cu source",
            text.display()
        )
    );
    let (err, code) = refusal(&["no-such-file.cu", "k"]);
    assert_eq!((err.as_str(), code), ("error: no-such-file.cu is not a file", 1));
}

#[test]
fn a_kernel_name_the_module_lacks_names_the_ones_it_has() {
    let (_dir, ptx) = scratch(
        "k.ptx",
        b".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry _Z4stepPfi(\n.param .u64 p\n)\n{ ret; }\n",
    );
    let (err, code) = refusal(&[ptx.to_str().unwrap(), "stpe"]);
    assert_eq!(
        (err.as_str(), code),
        ("error: no kernel `stpe` in the module; it has: step", 1)
    );
    if have_nvcc() {
        let (err, code) = refusal(&[SET, "transpose", "--arch", "sm_90"]);
        assert_eq!(code, 1);
        assert_eq!(
            err,
            "error: no kernel `transpose` in the module; it has: block_sum, empty, fma_loop, row_softmax, transpose_naive, transpose_shared"
        );
    }
}

#[test]
fn a_cu_that_nvcc_refuses_is_one_line_with_nvccs_first_error() {
    if !have_nvcc() {
        return;
    }
    let (_dir, bad) = scratch("bad.cu", b"__global__ void k() { undeclared(); }\n");
    let (err, code) = refusal(&[bad.to_str().unwrap(), "k", "--arch", "sm_90"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("error: nvcc could not compile {}: ", bad.display())),
        "{err}"
    );
    assert!(err.contains("undeclared"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn bad_arguments_shapes_and_modes_are_usage_errors() {
    for (args, says) in [
        (&["k.cu", "k", "--arg", "f32[ten]"][..], "is not a count"),
        (&["k.cu", "k", "--arg", "u8=256"], "does not fit in u8"),
        (&["k.cu", "k", "--block", "32x0"], "is not a size"),
        (&["k.cu", "k", "--mode", "fastest"], "is no mode"),
    ] {
        let (err, code) = refusal(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn without_a_driver_the_run_stops_at_one_line_after_the_file_checks() {
    if cudarc_present() {
        eprintln!("skipped: this machine has a CUDA driver");
        return;
    }
    let (_dir, cubin) = scratch("k.cubin", b"\x7fELF\x02\x01\x01\0.text.k\0");
    let (err, code) = refusal(&[cubin.to_str().unwrap(), "k"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: no CUDA driver found"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

fn cudarc_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists())
}

#[test]
fn help_shows_examples_and_the_argument_syntax() {
    let out = kernel_timer(&["--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    for part in [
        "Examples:",
        "kernel-timer transpose.cu",
        "--b-nvcc-arg",
        "random:SEED",
        "--launch-only",
    ] {
        assert!(help.contains(part), "no {part:?} in --help");
    }
}

/// The `cargo run -p kernel-timer` commands of every lesson's README, each
/// as its argument words (`\` continuations joined, '...' unquoted).
fn readme_commands() -> Vec<(String, Vec<String>)> {
    const PREFIX: &str = "cargo run --release -p kernel-timer -- ";
    let code = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../code");
    let mut lessons: Vec<_> = std::fs::read_dir(&code)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    lessons.sort();
    let mut commands = Vec::new();
    for lesson in lessons.iter().filter(|l| l.join("README.md").is_file()) {
        let name = lesson.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(lesson.join("README.md")).unwrap();
        let mut lines = text.lines();
        let mut found = false;
        while let Some(line) = lines.next() {
            let Some(rest) = line.trim().strip_prefix(PREFIX) else {
                continue;
            };
            let mut joined = rest.to_string();
            while let Some(head) = joined.strip_suffix('\\') {
                joined = format!("{head} {}", lines.next().unwrap_or("").trim());
            }
            let words = joined
                .split_whitespace()
                .map(|w| w.trim_matches('\'').to_string())
                .collect();
            commands.push((name.clone(), words));
            found = true;
        }
        assert!(
            found,
            "{name}'s README says nowhere how to time a kernel with `{PREFIX}...`"
        );
    }
    commands
}

#[test]
fn every_lesson_readme_times_a_kernel_of_its_own_cu_with_arguments_that_parse() {
    let commands = readme_commands();
    assert!(commands.len() >= 6, "{commands:?}");
    if cudarc_present() {
        eprintln!("skipped: this machine has a CUDA driver, so the commands would run; on_gpu.rs times one");
        return;
    }
    if !have_nvcc() {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    for (lesson, words) in commands {
        assert!(
            words[0].starts_with(&format!("code/{lesson}/")),
            "{lesson}: {words:?} times another lesson's file"
        );
        // Everything the run checks before it opens the driver: the flags,
        // the .cu compiled, the kernel (and B's) found in the module.
        let out = Command::new(env!("CARGO_BIN_EXE_kernel-timer"))
            .current_dir(&root)
            .args(&words)
            .args(["--arch", "sm_90"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{lesson}: {words:?}: {err}");
        assert!(
            err.starts_with("error: no CUDA driver found"),
            "{lesson}: {words:?}: {err}"
        );
    }
}
