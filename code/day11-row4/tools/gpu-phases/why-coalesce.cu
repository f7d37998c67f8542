// SPDX-License-Identifier: MIT
//
// Coalescing, measured: the experiment of NVIDIA's "How to Access Global
// Memory Efficiently in CUDA C/C++ Kernels" on this lesson's GPU. A copy of
// kCoalesceElems floats, each thread one element, with
//
//   offset K   every thread's index shifted by K elements, so a warp's 128
//              bytes straddle two 128-byte lines unless K is a multiple of 32
//   stride K   thread i copies element i * K, so a warp touches K times as
//              many 32-byte sectors for the same useful bytes
//
// timed by the lesson's timeKernel. The rate counts the useful bytes, read
// plus written (8 per element copied), so a stride that wastes sectors shows
// as a lower rate. Each figure is a line `LABEL: NUMBER`.
//
// It includes row4.cu itself (its main renamed), so the timing and the error
// macro are the lesson's.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-coalesce why-coalesce.cu
// Run:   ./why-coalesce

#define main day11_lesson_main
#include "../../row4.cu"
#undef main

// 16 Mi elements copied at every offset and stride; the input is long enough
// for the largest of each.
constexpr size_t kCoalesceElems = 16ull << 20;
constexpr int kOffsets[] = {0, 1, 2, 4, 8, 16, 32};
constexpr int kStrides[] = {1, 2, 4, 8, 16, 32};
constexpr int kMaxStride = 32;

__global__ void offsetCopy(float* out, const float* in, size_t n, int offset) {
    const size_t i =
        blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x + offset;
    if (i < n + offset) {
        out[i] = in[i];
    }
}

__global__ void strideCopy(float* out, const float* in, size_t n, int stride) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t < n) {
        const size_t i = t * stride;
        out[i] = in[i];
    }
}

int main() {
    CUDA_CHECK(cudaSetDevice(0));
    const size_t span = kCoalesceElems * kMaxStride + kMaxStride;
    float *in = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&in, span * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, span * sizeof(float)));
    CUDA_CHECK(cudaMemset(in, 0, span * sizeof(float)));
    const int blocks = blocksFor(kCoalesceElems);
    const double usefulBytes = 8.0 * static_cast<double>(kCoalesceElems);
    for (int offset : kOffsets) {
        const float ms = timeKernel([&] {
            offsetCopy<<<blocks, kThreadsPerBlock>>>(out, in, kCoalesceElems,
                                                     offset);
        });
        std::printf("offset %d, GB/s: %.1f\n", offset,
                    usefulBytes / (ms * 1.0e6));
    }
    for (int stride : kStrides) {
        const float ms = timeKernel([&] {
            strideCopy<<<blocks, kThreadsPerBlock>>>(out, in, kCoalesceElems,
                                                     stride);
        });
        std::printf("stride %d, GB/s: %.1f\n", stride,
                    usefulBytes / (ms * 1.0e6));
    }
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    return EXIT_SUCCESS;
}
