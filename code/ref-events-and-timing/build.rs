// SPDX-License-Identifier: MIT
// Compiles events.cu (without its main) and binds events.h; see crates/course/cuda-build.
fn main() {
    cuda_build::Lesson::new("events.cu", "events.h", "events_").build();
}
