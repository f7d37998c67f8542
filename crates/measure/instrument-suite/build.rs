// SPDX-License-Identifier: MIT
// Compiles the kernel suite (suite/suite.cu) into the crate as the lessons
// compile theirs (crates/course/cuda-build), and once more into a stand-alone sm_90
// cubin with the same device flags, which instrument-suite carries and hands
// to nvbench's Python driver, so both time the same machine code.
use std::path::PathBuf;
use std::process::Command;

/// The cubin's architecture: the H200 the comparison runs on.
const CUBIN_ARCH: &str = "sm_90";

fn main() {
    cuda_build::Lesson::new("suite/suite.cu", "suite/suite.h", "suite_").build();
    let toolkit = cuda_build::Toolkit::from_build_env().unwrap_or_else(|e| cuda_build::fail(&e.to_string()));
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_else(|| cuda_build::fail("OUT_DIR is not set")));
    let cubin = out.join("suite.cubin");
    // The device flags cuda-build gives nvcc for the linked object.
    let status = Command::new(&toolkit.nvcc)
        .args([
            "-cubin",
            &format!("-arch={CUBIN_ARCH}"),
            "-std=c++17",
            "-O3",
            "-lineinfo",
        ])
        .arg(format!("-D{}", cuda_build::NO_MAIN_DEFINE))
        .arg("-o")
        .arg(&cubin)
        .arg("suite/suite.cu")
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => cuda_build::fail(&format!("nvcc -cubin on suite/suite.cu failed: {s}")),
        Err(e) => cuda_build::fail(&format!("cannot run {}: {e}", toolkit.nvcc.display())),
    }
}
