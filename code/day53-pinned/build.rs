// SPDX-License-Identifier: MIT
// Compiles pinned.cu (without its main) and binds pinned.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("pinned.cu", "pinned.h", "day53_").build();
}
