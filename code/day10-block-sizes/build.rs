// SPDX-License-Identifier: MIT
// Compiles blocks.cu (without its main) and binds blocks.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("blocks.cu", "blocks.h", "day10_").build();
}
