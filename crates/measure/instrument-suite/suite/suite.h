// SPDX-License-Identifier: MIT
// The instrument's kernel suite: C launchers the Rust side binds, one per
// kernel, each queueing one launch on the stream it is given.
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Threads per block of every suite kernel but the empty one.
extern const unsigned int suite_threads_per_block;
// Blocks of the FMA loop (8 per SM of a 132-SM H200).
extern const unsigned int suite_fma_blocks;

// One block of 32 threads that does nothing: the launch floor.
cudaError_t suite_empty(cudaStream_t stream);
// out[i] = a[i] + b[i] for i < n, one element per thread (Day 9's vectorAdd).
cudaError_t suite_vector_add(const float* a, const float* b, float* out, size_t n, cudaStream_t stream);
// dst[i] = src[i] for i < n 16-byte vectors, one vector per thread.
cudaError_t suite_copy_vec4(const float4* src, float4* dst, size_t n, cudaStream_t stream);
// Four independent FMA chains of `iterations` steps per thread, over
// suite_fma_blocks blocks; each thread stores one float into out.
cudaError_t suite_fma(float* out, unsigned int iterations, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
