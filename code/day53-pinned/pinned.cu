// SPDX-License-Identifier: MIT
//
// Day 53: pinned memory and asynchronous copies.
//
// One program, three measurements:
//
//   1  Host-to-device bandwidth of cudaMemcpy at five sizes, from pageable
//      memory and from pinned (page-locked) memory.
//   2  How long cudaMemcpyAsync holds the calling thread before it returns,
//      against how long the copy takes to finish, from both kinds of memory.
//      Whether "Async" means anything depends on where the bytes live.
//   3  One kernel reading its input from device memory, and the same kernel
//      reading it straight out of mapped host memory (zero-copy), so the cost
//      of crossing PCIe on every access shows up as a kernel time.
//
// The course bans host clocks (CUDA-CODE-STYLE.md, "No host clocks"). This
// file reads one on purpose, and is on that rule's allow-list for it: Part 2
// asks how long an API call blocks the host thread, and no CUDA event can
// observe the host thread. The clock is only read once the call has returned
// or the stream has been synchronised, and each reading says which. Kernels
// and copies are timed with events.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o pinned pinned.cu
// Run:   ./pinned

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

// verbatim: cuda-check
// The course's one error macro. Each lesson file carries its own copy so that
// it builds alone; CI keeps every copy identical. `err_` has a trailing
// underscore so it cannot shadow a name at the call site, and do/while(0)
// makes the macro a single statement, safe under an `if` without braces.
#define CUDA_CHECK(call)                                                 \
    do {                                                                 \
        cudaError_t err_ = (call);                                       \
        if (err_ != cudaSuccess) {                                       \
            std::fprintf(stderr, "CUDA error %s:%d: %s: %s\n", __FILE__, \
                         __LINE__, #call, cudaGetErrorString(err_));     \
            std::exit(EXIT_FAILURE);                                     \
        }                                                                \
    } while (0)
// end verbatim

constexpr size_t kMiB = 1024ull * 1024ull;

// Part 1's sizes. The largest decides the pinned allocation, and pinned pages
// are taken away from the operating system for the life of the process, so
// the sweep stops at 256 MiB. Part 2 uses 64 MiB, day 9's buffer size, so the
// two lessons' numbers sit on one scale.
constexpr size_t kSweepMiB[] = {1, 4, 16, 64, 256};
constexpr int kNumSweep = 5;
constexpr size_t kMaxSweepBytes = 256 * kMiB;
constexpr size_t kProbeBytes = 64 * kMiB;

// Part 3's kernel size: 16 Mi floats (64 MiB) and 611 more, 611 being 13 x 47,
// so no block size divides it and the bounds check runs on every launch.
constexpr size_t kKernelElems = 16ull * 1024ull * 1024ull + 611ull;
constexpr int kThreadsPerBlock = 256;  // 8 warps
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
constexpr float kScale = 2.0f;
constexpr float kRelTolerance = 1e-5f;

static_assert(sizeof(kSweepMiB) / sizeof(kSweepMiB[0]) == kNumSweep,
              "kNumSweep counts the sweep sizes");
static_assert(kThreadsPerBlock % 32 == 0,
              "a block is a whole number of warps");
static_assert(kProbeBytes <= kMaxSweepBytes,
              "Part 2 copies into the sweep's device buffer");
static_assert(kKernelElems * sizeof(float) <= kMaxSweepBytes,
              "Part 3 stages its input in the sweep's device buffer");
static_assert(kKernelElems % kThreadsPerBlock != 0,
              "n must leave a partial block, or the bounds check never runs");

// Blocks needed for n elements, rounded up.
constexpr int blocksFor(size_t n) {
    return static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// out[i] = kScale * in[i], one thread per element.
//
// A warp reads 32 consecutive floats, 128 contiguous bytes. In Part 3 that
// matters more than usual: mapped host memory is not cached on the device, so
// every sector a warp touches through the mapped pointer is its own trip over
// PCIe, on every launch.
//
// Needs gridDim.x * blockDim.x >= n.
// snippet: kernel
__global__ void scaleCopy(const float* __restrict__ in, float* __restrict__ out,
                          size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = kScale * in[i];
    }
}
// end snippet

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (code/day53-pinned/src/main.rs): the same kernel,
// launched through the C interface in pinned.h.
#include "pinned.h"

extern "C" cudaError_t day53_scale_copy(const float* in, float* out, size_t n,
                                        cudaStream_t stream) {
    scaleCopy<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(in, out, n);
    return cudaGetLastError();
}

// The constants above, so the Rust twin's tests can hold its copies to
// what this file compiles with.
extern "C" day53_constants day53_lesson_constants(void) {
    day53_constants c;
    c.sweep_mib = kSweepMiB;
    c.num_sweep = kNumSweep;
    c.max_sweep_bytes = kMaxSweepBytes;
    c.probe_bytes = kProbeBytes;
    c.kernel_elems = kKernelElems;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.scale = kScale;
    c.rel_tolerance = kRelTolerance;
    return c;
}
#else

// The host clock, in milliseconds, for Part 2 only. CLOCK_MONOTONIC, because
// a stopwatch must not jump when the system time is set.
static double hostMs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// The CPU reference: a plain loop, written to be obviously right.
static void scaleCopyCpu(const float* in, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = kScale * in[i];
    }
}

// The first index where got differs from want by more than relTolerance
// (relative, or absolute where want is 0), or n if none does. "Not within"
// rather than "beyond", so a NaN is a mismatch.
static size_t firstMismatch(const float* got, const float* want, size_t n,
                            float relTolerance) {
    for (size_t i = 0; i < n; ++i) {
        const float scale = (want[i] == 0.0f) ? 1.0f : std::fabs(want[i]);
        if (!(std::fabs(got[i] - want[i]) <= relTolerance * scale)) {
            return i;
        }
    }
    return n;
}

// verbatim: time-kernel
// snippet: time-kernel
// Times `launch` with CUDA events and returns the mean milliseconds per run:
// kWarmupRuns untimed runs, then kTimedRuns between two events. `launch` may
// hold kernel launches or blocking copies; both are default-stream work the
// two events bracket. Copy this helper as it is: with one helper, no timed
// kernel can lose its warm-up in a copy-paste slip.
template <typename LaunchFn>
static float timeKernel(LaunchFn launch) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    // Warm up the kernel being timed, not merely some kernel: with lazy
    // loading (the Linux default since CUDA 12.2) a kernel is loaded at its
    // own first launch, and its module with it if no kernel of that module
    // has run yet.
    for (int i = 0; i < kWarmupRuns; ++i) {
        launch();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaEventRecord(start));
    for (int i = 0; i < kTimedRuns; ++i) {
        launch();
    }
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms / kTimedRuns;
}
// end snippet
// end verbatim

// Bytes per millisecond as GB/s, with GB = 10^9 bytes as bandwidth is quoted.
static double gbPerS(size_t bytes, double ms) {
    return static_cast<double>(bytes) / (ms * 1.0e-3) / 1.0e9;
}

int main() {
    // The course's program asks for mapped pinned memory (Part 3) here, as
    // the first CUDA call. The flag changes nothing today: the runtime sets
    // cudaDeviceMapHost on every context it creates, and the driver's
    // CU_CTX_MAP_HOST has had no effect since CUDA 11.0 (cuda.h). The call is
    // kept for the course's behaviour; since CUDA 12.0 it also initialises
    // device 0 and its primary context, so the context's cost lands here.
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));

    const int device = 0;
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);

    if (prop.canMapHostMemory == 0) {
        std::fprintf(stderr,
                     "this device cannot map host memory; part 3 is "
                     "impossible here\n");
        return EXIT_FAILURE;
    }

    const size_t maxElems = kMaxSweepBytes / sizeof(float);
    const size_t kernelBytes = kKernelElems * sizeof(float);

    // Pageable memory: an ordinary allocation the OS may move or swap, which
    // is why the copy engine cannot read it directly and the driver stages it.
    std::vector<float> h_pageable(maxElems);
    std::vector<float> h_back(maxElems);
    std::vector<float> h_out(kKernelElems);
    std::vector<float> h_want(kKernelElems);
    for (size_t i = 0; i < maxElems; ++i) {
        h_pageable[i] = static_cast<float>(i % 977) * 0.25f;
    }

    // Pinned memory for Parts 1 and 2, the same size and contents as the
    // pageable buffer, so both sides of every comparison move the same bytes.
    float* h_pinned = nullptr;
    CUDA_CHECK(cudaMallocHost(&h_pinned, kMaxSweepBytes));
    for (size_t i = 0; i < maxElems; ++i) {
        h_pinned[i] = h_pageable[i];
    }

    // Mapped pinned memory for Part 3, and the device address that reaches it.
    // snippet: zero-copy-setup
    float* h_mapped = nullptr;
    float* d_mapped = nullptr;
    CUDA_CHECK(cudaHostAlloc(&h_mapped, kernelBytes, cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(&d_mapped, h_mapped, 0));
    // end snippet
    for (size_t i = 0; i < kKernelElems; ++i) {
        h_mapped[i] = static_cast<float>(i % 353) - 176.0f;
    }

    float* d_buf = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_buf, kMaxSweepBytes));
    CUDA_CHECK(cudaMalloc(&d_out, kernelBytes));

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    // From here on, every way out of main frees everything allocated above.
    auto freeAll = [&] {
        CUDA_CHECK(cudaStreamDestroy(stream));
        CUDA_CHECK(cudaFree(d_out));
        CUDA_CHECK(cudaFree(d_buf));
        CUDA_CHECK(cudaFreeHost(h_mapped));
        CUDA_CHECK(cudaFreeHost(h_pinned));
    };

    // Gate: both copy paths really copy, at the full 256 MiB, before any
    // timing. A fast copy that moved nothing would top every table below.
    const char* names[2] = {"pageable", "pinned"};
    const float* srcs[2] = {h_pageable.data(), h_pinned};
    for (int s = 0; s < 2; ++s) {
        CUDA_CHECK(
            cudaMemcpy(d_buf, srcs[s], kMaxSweepBytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(h_back.data(), d_buf, kMaxSweepBytes,
                              cudaMemcpyDeviceToHost));
        const size_t bad =
            firstMismatch(h_back.data(), srcs[s], maxElems, 0.0f);
        if (bad != maxElems) {
            std::fprintf(stderr,
                         "%s H2D copy wrong at %zu: got %.9g, "
                         "want %.9g\n",
                         names[s], bad, h_back[bad], srcs[s][bad]);
            freeAll();
            return EXIT_FAILURE;
        }
    }

    // Part 1: blocking cudaMemcpy from each source at each size. The events
    // bracket ten copies on the default stream and timeKernel divides by ten.
    std::printf("\nPart 1: host-to-device bandwidth, cudaMemcpy\n");
    std::printf("mean of %d runs after %d warm-ups per cell\n", kTimedRuns,
                kWarmupRuns);
    std::printf("%9s  %21s  %21s  %7s\n", "size", "pageable", "pinned",
                "ratio");
    for (int sz = 0; sz < kNumSweep; ++sz) {
        const size_t bytes = kSweepMiB[sz] * kMiB;
        double ms[2] = {0.0, 0.0};
        for (int s = 0; s < 2; ++s) {
            char label[64];
            std::snprintf(label, sizeof(label), "h2d-%s-%zuMiB", names[s],
                          kSweepMiB[sz]);
            nvtxRangePushA(label);
            ms[s] = timeKernel([&] {
                CUDA_CHECK(
                    cudaMemcpy(d_buf, srcs[s], bytes, cudaMemcpyHostToDevice));
            });
            nvtxRangePop();
        }
        std::printf(
            "%6zu MiB  %9.3f ms %5.1f GB/s  %9.3f ms %5.1f GB/s"
            "  %6.2fx\n",
            kSweepMiB[sz], ms[0], gbPerS(bytes, ms[0]), ms[1],
            gbPerS(bytes, ms[1]), ms[0] / ms[1]);
    }

    // Part 2: the 64 MiB copy again, now with cudaMemcpyAsync on a stream of
    // its own. Per source, two durations: how long the call kept the thread,
    // and how long until the copy was done. From pageable memory the runtime
    // must first stage the bytes into its own pinned buffer, and the call
    // waits for that; from pinned memory it queues the DMA and comes back.
    std::printf("\nPart 2: cudaMemcpyAsync, 64.0 MiB, call vs completion\n");
    std::printf("mean of %d runs after 1 warm-up per source\n", kTimedRuns);
    // snippet: async-probe
    for (int s = 0; s < 2; ++s) {
        CUDA_CHECK(cudaMemcpyAsync(d_buf, srcs[s], kProbeBytes,
                                   cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));  // the warm-up, untimed

        char label[64];
        std::snprintf(label, sizeof(label), "async-%s", names[s]);
        nvtxRangePushA(label);
        double callSum = 0.0;
        double totalSum = 0.0;
        for (int r = 0; r < kTimedRuns; ++r) {
            const double t0 = hostMs();
            CUDA_CHECK(cudaMemcpyAsync(d_buf, srcs[s], kProbeBytes,
                                       cudaMemcpyHostToDevice, stream));
            // Read after the call returned: how long it held this thread.
            const double t1 = hostMs();
            CUDA_CHECK(cudaStreamSynchronize(stream));
            // Read after the stream drained: the copy is certainly done.
            const double t2 = hostMs();
            callSum += t1 - t0;
            totalSum += t2 - t0;
        }
        nvtxRangePop();
        const double callMs = callSum / kTimedRuns;
        const double totalMs = totalSum / kTimedRuns;
        std::printf(
            "%9s  call %8.3f ms  completion %8.3f ms  "
            "call is %5.1f%%\n",
            names[s], callMs, totalMs, 100.0 * callMs / totalMs);
    }
    // end snippet

    // Part 3: one kernel, two input pointers. The resident input is device
    // memory filled by one staging copy; the zero-copy input is the mapped
    // host pages themselves, so every launch, warm-ups included, reads them
    // over PCIe again.
    CUDA_CHECK(
        cudaMemcpy(d_buf, h_mapped, kernelBytes, cudaMemcpyHostToDevice));
    const int blocks = blocksFor(kKernelElems);
    scaleCopyCpu(h_mapped, h_want.data(), kKernelElems);

    const float* ins[2] = {d_buf, d_mapped};
    const char* variants[2] = {"device-resident", "zero-copy"};
    float kernelMs[2] = {0.0f, 0.0f};
    for (int v = 0; v < 2; ++v) {
        // Correct before timed: one launch, checked against the CPU.
        scaleCopy<<<blocks, kThreadsPerBlock>>>(ins[v], d_out, kKernelElems);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, kernelBytes,
                              cudaMemcpyDeviceToHost));
        const size_t bad = firstMismatch(h_out.data(), h_want.data(),
                                         kKernelElems, kRelTolerance);
        if (bad != kKernelElems) {
            std::fprintf(stderr, "%s wrong at %zu: got %.9g, want %.9g\n",
                         variants[v], bad, h_out[bad], h_want[bad]);
            freeAll();
            return EXIT_FAILURE;
        }

        nvtxRangePushA(variants[v]);
        kernelMs[v] = timeKernel([&] {
            scaleCopy<<<blocks, kThreadsPerBlock>>>(ins[v], d_out,
                                                    kKernelElems);
        });
        nvtxRangePop();
    }

    std::printf("\nPart 3: scaleCopy over %zu floats (%.1f MiB read)\n",
                kKernelElems,
                static_cast<double>(kernelBytes) / (1024.0 * 1024.0));
    std::printf("mean of %d launches after %d warm-ups per variant\n",
                kTimedRuns, kWarmupRuns);
    for (int v = 0; v < 2; ++v) {
        std::printf("%16s  %8.3f ms  %6.1f GB/s effective\n", variants[v],
                    kernelMs[v],
                    gbPerS(2 * kKernelElems * sizeof(float), kernelMs[v]));
    }
    std::printf(
        "zero-copy costs %.2fx the resident kernel; its read "
        "crossed PCIe on every one of the %d launches (correctness "
        "gate, warm-ups and timed runs), the resident read crossed "
        "once, in the staging copy\n",
        kernelMs[1] / kernelMs[0], kTimedRuns + kWarmupRuns + 1);

    freeAll();
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
