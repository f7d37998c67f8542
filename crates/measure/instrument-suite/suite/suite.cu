// SPDX-License-Identifier: MIT
//
// The instrument's kernel suite: six workloads from the launch floor to a
// 10 ms kernel, built from four kernels. The kernels are extern "C" so the
// same names are found in the cubin that nvbench's Python driver loads and
// in the filters given to Nsight Compute. No main: the launchers are called
// from the Rust binary instrument-suite.
#include "suite.h"

extern "C" const unsigned int suite_threads_per_block = 256;
extern "C" const unsigned int suite_fma_blocks = 132 * 8;

extern "C" __global__ void suite_empty_kernel() {}

// The body of the Day 9 lesson's vectorAdd (its timing.cu).
extern "C" __global__ void suite_vector_add_kernel(const float* a, const float* b, float* out, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

extern "C" __global__ void suite_copy_vec4_kernel(const float4* src, float4* dst, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

// Four chains so each warp has independent FMAs in flight; the constants keep
// the values bounded so no chain overflows, and the store keeps them live.
extern "C" __global__ void suite_fma_kernel(float* out, unsigned int iterations) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = 1e-3f * threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    const float m = 0.999f, k = 1e-3f;
#pragma unroll 8
    for (unsigned int it = 0; it < iterations; ++it) {
        x0 = fmaf(x0, m, k);
        x1 = fmaf(x1, m, k);
        x2 = fmaf(x2, m, k);
        x3 = fmaf(x3, m, k);
    }
    out[i] = x0 + x1 + x2 + x3;
}

static unsigned int blocks_for(size_t n) {
    return static_cast<unsigned int>((n + suite_threads_per_block - 1) / suite_threads_per_block);
}

extern "C" cudaError_t suite_empty(cudaStream_t stream) {
    suite_empty_kernel<<<1, 32, 0, stream>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t suite_vector_add(const float* a, const float* b, float* out, size_t n,
                                        cudaStream_t stream) {
    suite_vector_add_kernel<<<blocks_for(n), suite_threads_per_block, 0, stream>>>(a, b, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t suite_copy_vec4(const float4* src, float4* dst, size_t n, cudaStream_t stream) {
    suite_copy_vec4_kernel<<<blocks_for(n), suite_threads_per_block, 0, stream>>>(src, dst, n);
    return cudaGetLastError();
}

extern "C" cudaError_t suite_fma(float* out, unsigned int iterations, cudaStream_t stream) {
    suite_fma_kernel<<<suite_fma_blocks, suite_threads_per_block, 0, stream>>>(out, iterations);
    return cudaGetLastError();
}
