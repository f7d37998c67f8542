// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 10's
// kernels from blocks.cu and ask the occupancy API about them. bindgen reads
// this file; blocks.cu includes it when built with -DLESSON_NO_MAIN, so the
// compiler checks the two agree.
//
// Each launcher queues one launch on `stream` with `threads` per block and
// a grid that covers n, and returns that launch's status
// (cudaGetLastError). Device pointers only.
#ifndef DAY10_BLOCKS_H
#define DAY10_BLOCKS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// The two kernels the occupancy queries can name.
typedef enum day10_kernel {
    DAY10_VECTOR_ADD = 0,
    DAY10_FMA_CHAINS = 1
} day10_kernel;

// vectorAdd: out[i] = a[i] + b[i] for i < n.
cudaError_t day10_vector_add(const float* a, const float* b, float* out,
                             size_t n, int threads, cudaStream_t stream);

// fmaChains: out[i] = the sum of blocks.cu's FMA chains for element i.
cudaError_t day10_fma_chains(float* out, size_t n, int threads,
                             cudaStream_t stream);

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for `kernel` at `threads`.
cudaError_t day10_blocks_per_sm(day10_kernel kernel, int threads,
                                int* blocks);

// cudaOccupancyMaxPotentialBlockSize's block size for `kernel`.
cudaError_t day10_suggested_block_size(day10_kernel kernel, int* threads);

// The device's SM count and the most threads and blocks one SM holds.
cudaError_t day10_sm_limits(int device, int* sms, int* max_threads,
                            int* max_blocks);

// cudaMemset over n floats: every byte of them set to `value` (0xFF makes
// each a NaN, so a result that was never written fails the check).
cudaError_t day10_fill_bytes(float* out, int value, size_t n);

// The CPU reference for fmaChains: fma_period results, element i's being
// table[i % fma_period].
void day10_fma_reference(float* table);

// The CPU reference for vectorAdd, one thread, over the first n elements.
void day10_vector_add_cpu(const float* a, const float* b, float* out,
                          size_t n);

// blocks.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct day10_constants {
    size_t elems;
    int warmup_runs;
    int timed_runs;
    int repeats;
    float rel_tolerance;
    const int* block_sizes;  // num_block_sizes sizes, static storage
    int num_block_sizes;
    int fma_chains;
    int fma_steps;
    int fma_period;
    int fma_flops_per_element;
} day10_constants;

day10_constants day10_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // DAY10_BLOCKS_H
