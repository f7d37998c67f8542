// SPDX-License-Identifier: MIT
// Compiles warmup.cu (without its main) and binds warmup.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("warmup.cu", "warmup.h", "warmup_").build();
}
