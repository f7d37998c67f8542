// SPDX-License-Identifier: MIT
// Compiles crossover.cu (without its main) and binds crossover.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("crossover.cu", "crossover.h", "day30_").build();
}
