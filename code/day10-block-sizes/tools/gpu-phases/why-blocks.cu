// SPDX-License-Identifier: MIT
//
// Day 10's causes, measured: why 768 and 1024 threads per block are slower
// than 192 for vectorAdd. Two block sizes can give two blocks per SM and
// the same theoretical occupancy and still run at different speeds, so the
// question is what happens while the grid runs, not what could be resident.
//
//   time      for each of blocks.cu's block sizes, vectorAdd (one element
//             per thread) beside a grid-stride vectorAdd whose grid is only
//             as large as the GPU holds at once (blocks/SM from the
//             occupancy API x the SM count, "persistent" blocks that never
//             retire until the work is done), each timed by blocks.cu's own
//             timeKernel. If one element per thread at 1024 threads is slow
//             because of two blocks per SM, the persistent grid, also two
//             blocks per SM, is slow too; if it is slow because a block's
//             slots free only when its last warp ends (block-granular
//             turnover), the persistent grid, which turns over no blocks,
//             is not.
//   profile   each configuration launched twice, for Nsight Compute
//             (gpu-phases/why.sh reads its achieved occupancy,
//             sm__warps_active, per launch).
//
// It includes blocks.cu itself (its main renamed), so the kernel, the sizes
// and the timing are the lesson's. Each figure is a line `LABEL: NUMBER`,
// once per pass.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-blocks why-blocks.cu
// Run:   ./why-blocks time [passes] | ./why-blocks profile

#define main day10_lesson_main
#include "../../blocks.cu"
#undef main

#include <cstdlib>
#include <cstring>

// out[i] = a[i] + b[i] for every i, each thread stepping by the whole
// grid: any grid covers n, so the grid can be sized to the GPU, not to n.
__global__ void vectorAddGridStride(const float* a, const float* b, float* out,
                                    size_t n) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
         i < n; i += stride) {
        out[i] = a[i] + b[i];
    }
}

// Blocks of `threads` the whole GPU holds at once for the grid-stride kernel.
static int persistentBlocks(int threads, int sms) {
    int perSm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSm, vectorAddGridStride, threads, 0));
    return perSm * sms;
}

// Exits 1 unless out holds a + b (inputs i % 97 and i % 13, as the lesson).
static void check(const char* what, const float* d_out, std::vector<float>& got,
                  const std::vector<float>& want) {
    CUDA_CHECK(cudaMemcpy(got.data(), d_out, kElems * sizeof(float),
                          cudaMemcpyDeviceToHost));
    const size_t bad = firstMismatch(got.data(), want.data(), kElems, kRelTolerance);
    if (bad != kElems) {
        std::fprintf(stderr, "%s wrong at %zu: got %.9g, want %.9g\n", what, bad,
                     got[bad], want[bad]);
        std::exit(EXIT_FAILURE);
    }
}

int main(int argc, char** argv) {
    const bool profile = argc > 1 && std::strcmp(argv[1], "profile") == 0;
    const bool time = argc > 1 && std::strcmp(argv[1], "time") == 0;
    const int passes = argc > 2 ? std::atoi(argv[2]) : 3;
    if ((!profile && !time) || passes < 1) {
        std::fprintf(stderr, "usage: %s time [passes >= 1] | %s profile\n", argv[0],
                     argv[0]);
        return 2;
    }
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t bytes = kElems * sizeof(float);
    std::vector<float> h_a(kElems), h_b(kElems), h_want(kElems), h_got(kElems);
    for (size_t i = 0; i < kElems; ++i) {
        h_a[i] = static_cast<float>(i % 97) * 0.5f;
        h_b[i] = static_cast<float>(i % 13);
    }
    vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), kElems);
    float *a = nullptr, *b = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMalloc(&out, bytes));
    CUDA_CHECK(cudaMemcpy(a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    for (int p = 0; p < (profile ? 1 : passes); ++p) {
        for (int s = 0; s < kNumBlockSizes; ++s) {
            const int threads = kBlockSizes[s];
            const int blocks = blocksFor(kElems, threads);
            const int persistent = persistentBlocks(threads, sms);
            CUDA_CHECK(cudaMemset(out, 0xFF, bytes));
            if (profile) {
                for (int k = 0; k < 2; ++k) {
                    vectorAdd<<<blocks, threads>>>(a, b, out, kElems);
                }
                CUDA_CHECK(cudaGetLastError());
                check("vectorAdd", out, h_got, h_want);
                CUDA_CHECK(cudaMemset(out, 0xFF, bytes));
                for (int k = 0; k < 2; ++k) {
                    vectorAddGridStride<<<persistent, threads>>>(a, b, out, kElems);
                }
                CUDA_CHECK(cudaGetLastError());
                check("vectorAddGridStride", out, h_got, h_want);
                continue;
            }
            const float addMs =
                timeKernel([&] { vectorAdd<<<blocks, threads>>>(a, b, out, kElems); });
            check("vectorAdd", out, h_got, h_want);
            CUDA_CHECK(cudaMemset(out, 0xFF, bytes));
            const float strideMs = timeKernel([&] {
                vectorAddGridStride<<<persistent, threads>>>(a, b, out, kElems);
            });
            check("vectorAddGridStride", out, h_got, h_want);
            std::printf("persistent blocks at %d threads: %d\n", threads, persistent);
            std::printf("vectorAdd at %d threads, ms: %.5f\n", threads, addMs);
            std::printf("grid-stride persistent at %d threads, ms: %.5f\n", threads,
                        strideMs);
        }
    }
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(out));
    return 0;
}
