// SPDX-License-Identifier: MIT
// Compiles row4.cu (without its main) and binds row4.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("row4.cu", "row4.h", "day11_").build();
}
