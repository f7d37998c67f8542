// SPDX-License-Identifier: MIT
//
// Does a launch that starts on an idle GPU run slower than the same launch
// started right behind other work? Nsight Compute starts every launch it
// profiles on an idle GPU (it waits for the work before, then sets up its
// counters); kernel-timer's isolated mode starts it right behind its own
// L2 flush. Under ncu the SM clock through row_softmax reads 1,955 MHz and
// through fma_loop 1,980 (README, "Proof").
//
// Each sample: a 256 MiB memset (the flush, evicting the 60 MiB L2), then
//   busy    the kernel right behind it;
//   idle-X  a host function that sleeps X ms with nothing on the GPU (the
//           stream waits for it), then the kernel.
// Events bracket the kernel alone, and in both cases the kernel is already
// queued when the one before it ends, so no launch latency falls inside.
// The conditions take turns, sample by sample.
//
// The claim: row_softmax reads slower from idle than from busy by at least
// 0.5%, fma_loop (264 blocks of 256 threads: two blocks an SM) and
// transpose_naive by less than 0.2%. The rival (ncu's figure holds time the
// kernel does not take, the same from idle or busy) reads every ratio 1.000.
// On the H200 (README, "Proof") row_softmax read 1.003 to
// 1.006 over random inputs and 0.999 to 1.001 over zeros: the claim fails.
//
//   nvcc -O3 -arch=sm_90 -o load-step load-step.cu

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <unistd.h>
#include <vector>

#include "../kernels/set.cu"

#include "probe.h"

// Runs on the driver's thread and holds the stream, the GPU idle, for the
// milliseconds it is given.
void CUDART_CB idle(void* ms) { usleep(*static_cast<int*>(ms) * 1000); }

// Inputs of uniform values in [-1, 1) from a hash of the index: how hard
// the kernels switch, and so the power they draw, depends on the data (zeros
// draw less), and the kernels ncu and kernel-timer time read random values.
__global__ void fill_random(float* x, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x[i] = (h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

struct Kernel {
    const char* name;
    void (*launch)(cudaStream_t);
};

static float *g_in, *g_out;
constexpr int kN = 8192, kSoftmaxRows = 8192, kCols = 4096, kSumN = 1 << 26;

static void row_softmax_launch(cudaStream_t s) {
    row_softmax<<<kSoftmaxRows, 256, 256 * sizeof(float), s>>>(g_in, g_out, kCols);
}
static void fma_launch(cudaStream_t s) { fma_loop<<<264, 256, 0, s>>>(g_out, 125000); }
static void transpose_naive_launch(cudaStream_t s) {
    transpose_naive<<<dim3(256, 256), dim3(32, 32), 0, s>>>(g_out, g_in, kN);
}
static void transpose_shared_launch(cudaStream_t s) {
    transpose_shared<<<dim3(256, 256), dim3(32, 8), 0, s>>>(g_out, g_in, kN);
}
static void block_sum_launch(cudaStream_t s) {
    block_sum<<<1056, 256, 256 * sizeof(float), s>>>(g_in, g_out, kSumN);
}

int main(int argc, char** argv) {
    const char* usage = "usage: load-step [SAMPLES_A_CONDITION]\n";
    if (argc > 1 && !std::strcmp(argv[1], "--help")) {
        std::printf("%s", usage);
        return 0;
    }
    int samples = argc > 1 ? std::atoi(argv[1]) : 31;
    if (argc > 2 || samples <= 0) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    static int idle_ms[] = {1, 20};
    const size_t elems = (size_t)kN * kN;  // the largest input: 256 MiB
    void* flush;
    CHECK(cudaMalloc(&g_in, elems * sizeof(float)));
    CHECK(cudaMalloc(&g_out, elems * sizeof(float)));
    CHECK(cudaMalloc(&flush, 256u << 20));
    fill_random<<<1024, 256>>>(g_in, elems);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));

    Kernel kernels[] = {{"row_softmax", row_softmax_launch},
                        {"fma_loop", fma_launch},
                        {"transpose_naive", transpose_naive_launch},
                        {"transpose_shared", transpose_shared_launch},
                        {"block_sum", block_sum_launch}};
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("GPU: %s, %d samples a condition, conditions in turn\n", prop.name, samples);
    std::printf("%-17s %12s %12s %12s %14s %14s\n", "kernel", "busy, us", "idle-1, us",
                "idle-20, us", "idle-1 / busy", "idle-20 / busy");
    for (const Kernel& k : kernels) {
        for (int warm = 0; warm < 3; ++warm) k.launch(s);
        CHECK(cudaStreamSynchronize(s));
        std::vector<float> t[3];
        for (int i = 0; i < samples; ++i) {
            for (int c = 0; c < 3; ++c) {
                CHECK(cudaMemsetAsync(flush, i & 0xff, 256u << 20, s));
                if (c > 0) CHECK(cudaLaunchHostFunc(s, idle, (void*)&idle_ms[c - 1]));
                CHECK(cudaEventRecord(a, s));
                k.launch(s);
                CHECK(cudaGetLastError());
                CHECK(cudaEventRecord(b, s));
                CHECK(cudaEventSynchronize(b));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, a, b));
                t[c].push_back(ms * 1000.0f);
            }
        }
        float med[3];
        for (int c = 0; c < 3; ++c) {
            std::sort(t[c].begin(), t[c].end());
            med[c] = t[c][t[c].size() / 2];
        }
        std::printf("%-17s %12.2f %12.2f %12.2f %14.4f %14.4f\n", k.name, med[0], med[1], med[2],
                    med[1] / med[0], med[2] / med[0]);
        for (int c = 0; c < 3; ++c) {
            std::printf("  %s samples, us:", c == 0 ? "busy" : c == 1 ? "idle-1" : "idle-20");
            for (float v : t[c]) std::printf(" %.2f", v);
            std::printf("\n");
        }
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
