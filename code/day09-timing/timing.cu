// SPDX-License-Identifier: MIT
//
// Day 9: one vector add, timed five ways.
//
// Every row this program prints is a true measurement of something. Only one
// of them, row 4, is the kernel. The others are what people post when they
// conclude that their GPU is slower than their CPU:
//
//   1  a host clock around the whole process
//   2  a host clock around the launch statement, which only queues the kernel
//   3  CUDA events around the first launch, which still pays the lazy load
//   4  CUDA events after a warm-up: the kernel itself
//   5  CUDA events around both copies in, the kernel and the copy out: what a
//      caller of this code waits for
//
// The course bans host clocks (CUDA-CODE-STYLE.md, "No host clocks"), and this
// lesson is why: it reads one on purpose, to produce the misleading numbers
// the lesson page then takes apart. It uses clock_gettime rather than the C++
// chrono clocks because the ban names those and a CI check enforces it; this
// file is on that check's allow-list for CLOCK_MONOTONIC alone.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o timing timing.cu
// Run:   ./timing
//        time ./timing      (the number forum posts quote)
//        CUDA_MODULE_LOADING=EAGER ./timing      (the exercise)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>

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

// 16 Mi elements and 611 more. 611 = 13 x 47 shares no factor with any power
// of two, so no block size divides n and the kernel's bounds check is taken
// on every launch. Three 64 MiB buffers fit any GPU this course runs on.
constexpr size_t kElems = 16ull * 1024ull * 1024ull + 611ull;
constexpr int kThreadsPerBlock = 256;  // 8 warps
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
constexpr float kRelTolerance = 1e-5f;

// The crossover sweep's sizes. Each is a prefix of the kElems buffers, so no
// row allocates and none pays a cost the others do not.
constexpr size_t kSweep[] = {1024ull, 64ull * 1024ull, 1024ull * 1024ull,
                             4ull * 1024ull * 1024ull};
constexpr int kNumSweep = 4;

// Blocks needed for n elements, rounded up. constexpr so the static_asserts
// below can use it: what the compiler can prove it should prove, and an
// assert() would vanish from the Release build (NDEBUG) anyway.
constexpr int blocksFor(size_t n) {
    return static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

static_assert(kThreadsPerBlock % 32 == 0,
              "a block is a whole number of warps");
static_assert(kElems % kThreadsPerBlock != 0,
              "n must leave a partial block, or the bounds check never runs");
static_assert(sizeof(kSweep) / sizeof(kSweep[0]) == kNumSweep,
              "kNumSweep counts the sweep sizes");
static_assert(kSweep[kNumSweep - 1] <= kElems,
              "every sweep size fits in the kElems buffers");
static_assert(static_cast<size_t>(blocksFor(kElems)) * kThreadsPerBlock >=
                  kElems,
              "the grid covers every element");

// out[i] = a[i] + b[i], one thread per element.
//
// A warp's 32 threads touch 32 consecutive floats, 128 contiguous bytes per
// array. Each element moves 12 bytes for one add, so the kernel waits on
// memory, not on arithmetic. How long it waits still depends on the launch
// configuration: with one element per thread, the loads in flight are those
// of the warps resident at once, so the block size (Day 10) and the
// elements per thread (Day 11) change the time.
//
// Needs gridDim.x * blockDim.x >= n. The guard wraps the body in an `if`
// instead of returning early, so every thread of the block lives to the end
// of the kernel: a shared-memory tile or a __syncthreads() added later can go
// after the `if`, where every thread takes part, never inside it (see
// CUDA-CODE-STYLE.md rule 7).
__global__ void vectorAdd(const float* a, const float* b, float* out,
                          size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i];
    }
}

// out[i] = 2 * a[i]. The arithmetic is beside the point: this kernel exists to
// be launched for the first time long after vectorAdd is warm. It lives in
// the same module as vectorAdd, which is loaded by then. Its cold row above
// its warm one does not show on its own that each kernel is loaded at its
// first launch: a first launch has other one-time costs. What shows it is
// CUDA_MODULE_LOADING=EAGER, which loads every kernel up front and takes
// part of this cold row away, not all of it (README.md, "Solution").
//
// Same access pattern and launch assumption as vectorAdd.
__global__ void vectorScale(const float* a, float* out, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * 2.0f;
    }
}

// The CPU reference: one thread, a plain loop, no SIMD intrinsics, no OpenMP.
// Deliberately simple so its answer can be trusted, which also makes it a
// weak competitor; the lesson page says so. It writes into caller-owned memory.
//
// __noinline__ keeps the timed loop's machine code independent of its caller.
// Inlined into main, GCC 12 kept a vector register spilled to the stack on
// every iteration, which made the CPU rows 12 to 17% slower than the same
// loop called out of line (as the Rust twin calls it).
static __noinline__ void vectorAddCpu(const float* a, const float* b,
                                      float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = a[i] + b[i];
    }
}

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (code/day09-timing/src/main.rs) instead of as a
// program: the same kernels, launched through the C interface in timing.h.
// Each launcher returns the launch's own status; a fault inside the kernel
// shows up later, at the caller's synchronisation.
#include "timing.h"

extern "C" cudaError_t day09_vector_add(const float* a, const float* b,
                                        float* out, size_t n,
                                        cudaStream_t stream) {
    vectorAdd<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(a, b, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t day09_vector_scale(const float* a, float* out,
                                          size_t n, cudaStream_t stream) {
    vectorScale<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(a, out, n);
    return cudaGetLastError();
}

extern "C" int day09_blocks_for(size_t n) { return blocksFor(n); }

// The constants above, so the Rust twin's tests can hold its copies to
// what this file compiles with.
extern "C" day09_constants day09_lesson_constants(void) {
    day09_constants c;
    c.elems = kElems;
    c.threads_per_block = kThreadsPerBlock;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.rel_tolerance = kRelTolerance;
    c.sweep = kSweep;
    c.num_sweep = kNumSweep;
    return c;
}

// The Rust twin times this very loop, so the CPU rows of both programs time
// the same machine code from the same host compiler, not rustc against g++.
extern "C" void day09_vector_add_cpu(const float* a, const float* b,
                                     float* out, size_t n) {
    vectorAddCpu(a, b, out, n);
}
#else

// The host clock, in milliseconds. CLOCK_MONOTONIC, because a stopwatch must
// not jump when someone sets the system time. It is as wrong for timing a
// kernel as any other host clock; that is the point of rows 1 and 2.
static double hostMs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// The first index where got differs from want by more than relTolerance
// (relative, or absolute where want is 0), or n if none does. An index tells
// you which block went wrong; a bool does not. The test is "not within"
// rather than "beyond" so that a NaN, which compares false, is a mismatch.
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

// One round trip, the way a caller experiences it: both inputs up, one
// launch, the result back, all with pageable cudaMemcpy. kWarmupRuns untimed
// trips, then the mean of kTimedRuns.
//
// Everywhere else the copies stay outside the timed region, because the
// question is the kernel. Here the question is the whole job, and the whole
// job includes the bus.
static float timeRoundTrip(const float* h_a, const float* h_b, float* h_out,
                           float* d_a, float* d_b, float* d_out, size_t n) {
    const size_t bytes = n * sizeof(float);
    const int blocks = blocksFor(n);

    cudaEvent_t start;
    cudaEvent_t stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    for (int i = 0; i < kWarmupRuns + kTimedRuns; ++i) {
        if (i == kWarmupRuns) {
            CUDA_CHECK(cudaEventRecord(start));
        }
        CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
        vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, n);
        CUDA_CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
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

int main() {
    // Row 1 starts here, the earliest a program can read a clock. Process
    // creation and the dynamic linker have already run; nvcc links the CUDA
    // runtime statically, and the driver library it loads is loaded inside
    // the first CUDA call below, so that cost lands in the context line.
    // `time ./timing` sees the start-up and, after main, the exit-time
    // teardown of the context and the allocations, which row 1 does not.
    const double tProcessStart = hostMs();

    // The first CUDA call. Since CUDA 12.0 cudaSetDevice initialises the
    // runtime and the device's primary context, so this is where the context
    // costs land. Timed on its own so that cost has a name.
    const double tCtx0 = hostMs();
    CUDA_CHECK(cudaSetDevice(0));
    const double contextMs = hostMs() - tCtx0;

    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));

    const size_t bytes = kElems * sizeof(float);
    const int blocks = blocksFor(kElems);

    std::vector<float> h_a(kElems);
    std::vector<float> h_b(kElems);
    std::vector<float> h_out(kElems);
    std::vector<float> h_want(kElems);
    for (size_t i = 0; i < kElems; ++i) {
        h_a[i] = static_cast<float>(i % 97) * 0.5f;
        h_b[i] = static_cast<float>(i % 13);
    }

    float* d_a = nullptr;
    float* d_b = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    cudaEvent_t start;
    cudaEvent_t stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    // Row 3 comes first on purpose: this is vectorAdd's first launch in the
    // process, and the first of any kernel of this file, so its module and
    // the kernel itself are loaded now. Any earlier launch would have paid
    // that load and turned row 3 into row 4.
    //
    // The load runs on the host, where events cannot see it. What the events
    // do see is the hole it leaves on the device: the start event completes,
    // the GPU idles while the host loads the module and the kernel, then the
    // kernel runs.
    // snippet: cold-launch
    CUDA_CHECK(cudaEventRecord(start));
    vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float coldMs = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&coldMs, start, stop));
    // end snippet

    // Row 2. vectorAdd is loaded now, so the only thing left to see is what
    // a host clock around a launch covers. The launch returns once the work
    // is queued: the first reading is the queueing. Adding
    // cudaDeviceSynchronize makes the clock wait for the kernel, which is what
    // the person holding the stopwatch wanted.
    // snippet: launch-clock
    const double tLaunch0 = hostMs();
    vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    const double tLaunch1 = hostMs();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    const double launchOnlyMs = tLaunch1 - tLaunch0;
    const double launchPlusSyncMs = hostMs() - tLaunch0;
    // end snippet

    // Row 4: the kernel, warmed up, mean of ten, no copies in the region.
    const float warmMs = timeKernel([&] {
        vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });

    // Row 5: the same kernel with the copies back in the region.
    const float roundTripMs = timeRoundTrip(
        h_a.data(), h_b.data(), h_out.data(), d_a, d_b, d_out, kElems);

    // The CPU on the same data. A host clock is fair here: nothing on the CPU
    // is asynchronous. This pass also fills h_want for the check below.
    const double tCpu0 = hostMs();
    vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), kElems);
    const double cpuMs = hostMs() - tCpu0;

    // Check now, while h_out still holds the last full round trip; the sweep
    // below overwrites the front of the host buffers.
    const size_t bad =
        firstMismatch(h_out.data(), h_want.data(), kElems, kRelTolerance);

    // The second kernel, cold and then warm, long after start-up.
    CUDA_CHECK(cudaEventRecord(start));
    vectorScale<<<blocks, kThreadsPerBlock>>>(d_a, d_out, kElems);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float scaleColdMs = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&scaleColdMs, start, stop));

    const float scaleWarmMs = timeKernel(
        [&] { vectorScale<<<blocks, kThreadsPerBlock>>>(d_a, d_out, kElems); });

    // The crossover sweep: the CPU, the kernel alone and the round trip at
    // each size, all on prefixes of the buffers above.
    double sweepCpuMs[kNumSweep];
    float sweepKernelMs[kNumSweep];
    float sweepTripMs[kNumSweep];
    for (int s = 0; s < kNumSweep; ++s) {
        const size_t n = kSweep[s];
        const int sweepBlocks = blocksFor(n);

        const double t0 = hostMs();
        vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), n);
        sweepCpuMs[s] = hostMs() - t0;

        sweepKernelMs[s] = timeKernel([&] {
            vectorAdd<<<sweepBlocks, kThreadsPerBlock>>>(d_a, d_b, d_out, n);
        });
        sweepTripMs[s] = timeRoundTrip(h_a.data(), h_b.data(), h_out.data(),
                                       d_a, d_b, d_out, n);
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));

    if (bad != kElems) {
        std::fprintf(stderr, "vectorAdd wrong at %zu: got %.9g, want %.9g\n",
                     bad, h_out[bad], h_want[bad]);
        return EXIT_FAILURE;
    }

    // Row 1 ends here: everything above, none of the printing below.
    const double wholeMs = hostMs() - tProcessStart;

    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf(
        "n = %zu floats, %.1f MiB per buffer, %d threads/block, %d "
        "blocks\n\n",
        kElems, static_cast<double>(bytes) / (1024.0 * 1024.0),
        kThreadsPerBlock, blocks);

    std::printf(
        "cudaSetDevice(0), the first CUDA call in this process: "
        "%9.3f ms\n",
        contextMs);
    std::printf("No arithmetic of yours has run yet. That is the context.\n\n");

    std::printf("Five ways to time one vector add\n");
    std::printf("  1  %-40s %10.3f ms\n", "wall clock, whole process", wholeMs);
    std::printf("  2  %-40s %10.3f ms\n", "wall clock, around the launch",
                launchOnlyMs);
    std::printf("     %-40s %10.3f ms\n", "the same clock, plus a sync",
                launchPlusSyncMs);
    std::printf("  3  %-40s %10.3f ms\n", "events, kernel, first launch",
                static_cast<double>(coldMs));
    std::printf("  4  %-40s %10.3f ms\n", "events, kernel, after warm-up",
                static_cast<double>(warmMs));
    std::printf("  5  %-40s %10.3f ms\n", "events, copies + kernel + copy back",
                static_cast<double>(roundTripMs));
    std::printf("     %-40s %10.3f ms\n\n", "CPU, same n, one thread, no SIMD",
                cpuMs);

    std::printf("Rows 4 and 5 are means of %d runs after %d warm-ups.\n",
                kTimedRuns, kWarmupRuns);
    std::printf(
        "Rows 1, 2 and 3 are single measurements, because each one is "
        "about\nsomething that happens once.\n\n");

    std::printf("A second kernel is cold too\n");
    std::printf("     %-40s %10.3f ms\n", "vectorScale, first launch",
                static_cast<double>(scaleColdMs));
    std::printf("     %-40s %10.3f ms\n\n", "vectorScale, after warm-up",
                static_cast<double>(scaleWarmMs));

    std::printf("Where the CPU wins\n");
    std::printf("%12s %12s %12s %14s\n", "n", "CPU (ms)", "kernel (ms)",
                "round trip (ms)");
    for (int s = 0; s < kNumSweep; ++s) {
        std::printf("%12zu %12.3f %12.3f %14.3f\n", kSweep[s], sweepCpuMs[s],
                    static_cast<double>(sweepKernelMs[s]),
                    static_cast<double>(sweepTripMs[s]));
    }
    std::printf(
        "\nRow 4 is the kernel. Row 5 is what a user waits for. Row 1 "
        "is what\n`time ./timing` prints, and it is never the answer "
        "to how fast a\nkernel is.\n");

    // Two consistency checks. They are plain branches that return
    // EXIT_FAILURE, not assert(): Release builds define NDEBUG, and an
    // assert() under NDEBUG compiles to nothing.
    //
    // Neither predicts anything about the hardware. Both follow from what the
    // regions contain: row 5's region holds row 4's work and more, and row 1's
    // holds everything. If either fails, the timing code is broken and no
    // number above can be trusted.
    if (roundTripMs < warmMs) {
        std::fprintf(stderr,
                     "timing broken: copies + kernel (%.3f ms) came out "
                     "faster than the kernel alone (%.3f ms)\n",
                     static_cast<double>(roundTripMs),
                     static_cast<double>(warmMs));
        return EXIT_FAILURE;
    }
    if (wholeMs < static_cast<double>(roundTripMs)) {
        std::fprintf(stderr,
                     "timing broken: the whole process (%.3f ms) came out "
                     "shorter than one round trip (%.3f ms)\n",
                     wholeMs, static_cast<double>(roundTripMs));
        return EXIT_FAILURE;
    }
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
