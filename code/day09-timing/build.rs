// SPDX-License-Identifier: MIT
// Compiles timing.cu (without its main) and binds timing.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("timing.cu", "timing.h", "day09_").build();
}
