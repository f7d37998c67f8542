// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 53's kernel
// from pinned.cu. bindgen reads this file; pinned.cu includes it when built
// with -DLESSON_NO_MAIN, so the compiler checks the two agree.
#ifndef DAY53_PINNED_H
#define DAY53_PINNED_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Queues scaleCopy (out[i] = 2 * in[i] for i < n) on `stream` with pinned.cu's
// block size and returns the launch's status. `in` may be device memory or
// the device address of mapped host memory (zero-copy).
cudaError_t day53_scale_copy(const float* in, float* out, size_t n,
                             cudaStream_t stream);

// pinned.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct day53_constants {
    const size_t* sweep_mib;  // num_sweep sizes in MiB, static storage
    int num_sweep;
    size_t max_sweep_bytes;
    size_t probe_bytes;
    size_t kernel_elems;
    int warmup_runs;
    int timed_runs;
    float scale;
    float rel_tolerance;
} day53_constants;

day53_constants day53_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // DAY53_PINNED_H
