// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 9's kernels
// from timing.cu. bindgen reads this file; timing.cu includes it when built
// with -DLESSON_NO_MAIN, so the compiler checks the two agree.
//
// Each launcher queues one launch on `stream` with timing.cu's own block
// size and grid, and returns that launch's status (cudaGetLastError). Device
// pointers only; the kernel's own faults appear at the next synchronisation.
#ifndef DAY09_TIMING_H
#define DAY09_TIMING_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// vectorAdd: out[i] = a[i] + b[i] for i < n.
cudaError_t day09_vector_add(const float* a, const float* b, float* out,
                             size_t n, cudaStream_t stream);

// vectorScale: out[i] = 2 * a[i] for i < n.
cudaError_t day09_vector_scale(const float* a, float* out, size_t n,
                               cudaStream_t stream);

// The CPU reference loop, out[i] = a[i] + b[i] on the host, one thread.
void day09_vector_add_cpu(const float* a, const float* b, float* out,
                          size_t n);

// The grid size the launchers use for n elements, for the report's header.
int day09_blocks_for(size_t n);

// timing.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct day09_constants {
    size_t elems;
    int threads_per_block;
    int warmup_runs;
    int timed_runs;
    float rel_tolerance;
    const size_t* sweep;  // num_sweep sizes, static storage
    int num_sweep;
} day09_constants;

day09_constants day09_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // DAY09_TIMING_H
