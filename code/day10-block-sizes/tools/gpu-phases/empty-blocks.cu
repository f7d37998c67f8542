// SPDX-License-Identifier: MIT
//
// Day 10's vectorAdd at small block sizes, against a kernel that does
// nothing: is the time of a 32-thread grid the memory's, or the cost of
// starting half a million blocks? For each of blocks.cu's block sizes, the
// same grid (blocksFor(kElems, threads) blocks) runs blocks.cu's vectorAdd
// and an empty kernel, each timed by blocks.cu's own timeKernel (mean of ten
// after three warm-ups). Where the empty grid takes as long as vectorAdd,
// the blocks, not the bytes, set the pace.
//
// It includes blocks.cu itself (its main renamed), so the kernel, the sizes
// and the timing are the lesson's. Each figure is a line `LABEL: NUMBER`,
// once per pass.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o empty-blocks empty-blocks.cu
// Run:   ./empty-blocks [passes]      (code/day10-block-sizes/tools/gpu-phases/dispatch.sh)

#define main day10_lesson_main
#include "../../blocks.cu"
#undef main

#include <cstdlib>

// Nothing to do: each block is started and retired, and that is all.
__global__ void emptyBlock() {}

int main(int argc, char** argv) {
    const int passes = argc > 1 ? std::atoi(argv[1]) : 3;
    if (passes < 1) {
        std::fprintf(stderr, "usage: %s [passes >= 1]\n", argv[0]);
        return 2;
    }
    const size_t bytes = kElems * sizeof(float);
    float *a = nullptr, *b = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMalloc(&out, bytes));
    CUDA_CHECK(cudaMemset(a, 0, bytes));
    CUDA_CHECK(cudaMemset(b, 0, bytes));

    for (int p = 0; p < passes; ++p) {
        for (int s = 0; s < kNumBlockSizes; ++s) {
            const int threads = kBlockSizes[s];
            const int blocks = blocksFor(kElems, threads);
            const float addMs = timeKernel(
                [&] { vectorAdd<<<blocks, threads>>>(a, b, out, kElems); });
            const float emptyMs = timeKernel([&] { emptyBlock<<<blocks, threads>>>(); });
            std::printf("blocks at %d threads: %d\n", threads, blocks);
            std::printf("vectorAdd at %d threads, ms: %.5f\n", threads, addMs);
            std::printf("empty kernel at %d threads, ms: %.5f\n", threads, emptyMs);
            std::printf("empty kernel at %d threads, blocks per us: %.1f\n", threads,
                        blocks / (emptyMs * 1000.0f));
        }
    }
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(out));
    return 0;
}
