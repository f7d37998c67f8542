// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses from warmup.cu: the first
// CUDA call of the process, made by the very code warmup.cu's main makes it
// with, and launchers for the post's two kernels. bindgen reads this file;
// warmup.cu includes it when built with -DLESSON_NO_MAIN, so the compiler
// checks the two agree.
#ifndef REF_WARM_UP_H
#define REF_WARM_UP_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Which CUDA call comes first in the process (warmup.cu's --first).
typedef enum warmup_first_call_kind {
    WARMUP_FIRST_SET_DEVICE = 0,  // cudaSetDevice(device)
    WARMUP_FIRST_MALLOC = 1,      // cudaMalloc of the post's N floats
    WARMUP_FIRST_LAUNCH = 2       // a launch of an empty kernel
} warmup_first_call_kind;

// Makes the first call named by `kind`, then cudaDeviceSynchronize, and
// returns the first status that is not cudaSuccess. For WARMUP_FIRST_MALLOC
// `*buffer` receives the allocation (the caller frees it with
// warmup_free); otherwise it is set to NULL.
cudaError_t warmup_first_call(warmup_first_call_kind kind, int device,
                              void** buffer);

// cudaMalloc, then cudaDeviceSynchronize: Part 2's timed step, the code
// warmup.cu's main times, so the Rust twin times the very same calls.
cudaError_t warmup_malloc(void** buffer, size_t bytes);

// cudaFree, for the first call's buffer and Part 2's.
cudaError_t warmup_free(void* buffer);

// The post's kernels on the first n floats of `a`, `threads` per block, on
// `stream`; each returns the launch's status (cudaGetLastError).
// simpleKernel: a[i] += a[i] * a[i], once.
cudaError_t warmup_simple_kernel(float* a, int n, int threads,
                                 cudaStream_t stream);
// complexKernel: the same, warmup.cu's kComplexSteps times.
cudaError_t warmup_complex_kernel(float* a, int n, int threads,
                                  cudaStream_t stream);

// warmup.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct warmup_constants {
    int elems;
    const int* block_sizes;  // num_block_sizes sizes, static storage
    int num_block_sizes;
    int calls;
    int complex_steps;
    const size_t* malloc_bytes;  // num_malloc_sizes sizes, static storage
    int num_malloc_sizes;
    int malloc_count;
    int malloc_run;
    int warmup_runs;
    int timed_runs;
    float rel_tolerance;
    // The post's figures of the closing table (the .cu's kThen*).
    const double* then_first_call_ms;  // by warmup_first_call_kind
    double then_malloc_ratio;
    double then_simple_over_percent;
    double then_complex_over_percent;
    double then_no_sync_max_ms;
    double then_sync_first_ms;
} warmup_constants;

warmup_constants warmup_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // REF_WARM_UP_H
