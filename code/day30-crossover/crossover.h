// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 30's
// kernels from crossover.cu. bindgen reads this file; crossover.cu includes it
// when built with -DLESSON_NO_MAIN, so the compiler checks the two agree.
#ifndef DAY30_CROSSOVER_H
#define DAY30_CROSSOVER_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// What one kernel of the lesson's set moves and does per element, and what
// its copies across PCIe carry: the two counts the model is given.
typedef struct day30_kernel_info {
    const char* name;
    double bytes;      // DRAM bytes read + written per element
    double ops;        // floating-point operations per element (an FMA is 2)
    double h2d_bytes;  // bytes per element copied to the device
    int h2d_calls;     // cudaMemcpy calls to the device
    double d2h_bytes;  // bytes per element copied back
    int d2h_calls;     // cudaMemcpy calls back
    double d2h_fixed;  // bytes copied back whatever n (the dot product's sum)
    int degree;        // the polynomial's degree; 0 for the others
} day30_kernel_info;

// Queues kernel `kernel` (an index into the constants' `kernels`) over n
// elements on `stream`: out = f(x, y). The dot product adds into out[0].
cudaError_t day30_launch(int kernel, const float* x, const float* y,
                         float* out, size_t n, cudaStream_t stream);

// Queues the empty kernel, one block: the launch floor.
cudaError_t day30_empty(cudaStream_t stream);

// Queues the copy kernel over n floats: the GPU's DRAM bandwidth.
cudaError_t day30_copy(const float* in, float* out, size_t n,
                       cudaStream_t stream);

// Queues the FMA-rate kernel, one thread per element of out: the GPU's
// operation rate.
cudaError_t day30_fma_rate(float* out, size_t threads, cudaStream_t stream);

// crossover.cu's constants, as the .cu compiles them: the Rust twin reads
// its constants from here, so the .cu is their one source.
typedef struct day30_constants {
    const day30_kernel_info* kernels;  // num_kernels, static storage
    int num_kernels;
    const size_t* report_sizes;  // num_report_sizes, static storage
    int num_report_sizes;
    size_t sweep_min;
    size_t sweep_max;
    int warmup_runs;
    int timed_runs;
    int timed_calls;
    size_t bw_elems;
    size_t rate_threads;
    int rate_iters;
    int rate_chains;
    size_t copy_small_bytes;
    size_t copy_large_bytes;
    size_t cpu_bw_elems;
    size_t cpu_rate_elems;
    int cpu_chain;
    int cpu_ring;
    double cpu_min_ms;
    float saxpy_a;
    float stencil_w0;
    float stencil_w1;
    float stencil_w2;
    float poly_c;
    float rate_a;
    float rate_b;
    double example_bytes;
    double example_ops;
    float rel_tolerance;
} day30_constants;

day30_constants day30_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // DAY30_CROSSOVER_H
