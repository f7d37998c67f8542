// SPDX-License-Identifier: MIT
//
// Reference: the warm-up post, re-run on today's GPU.
//
// An old blog post, "How to make GOOD measurements in NVIDIA CUDA?", still
// reaches learners. On a GPU of its day it measured the first CUDA call of a
// program (about 3.5 s, whichever call it was), the first cudaMalloc against
// the second (0.163 against 0.026 ms), the first launch of a simple and of a
// 1000-step kernel against the following ones (68% and 1.8% more), and a
// host clock around a launch with no synchronise (0.002 to 0.021 ms). This
// program repeats its experiment, in its configuration, and prints the
// post's figure ("then") beside today's ("now"):
//
//   1  the first CUDA call of the process, the one --first names
//   2  cudaMalloc of the post's size and of 64 MiB with the context made:
//      the first, second and tenth call
//   3  the post's two kernels on N = 10000 floats, 4 and then 256 threads per
//      block, four calls each, timed by a host clock around launch and
//      synchronise (the post's method) and by CUDA events (the course's)
//   4  the post's loop without and with the synchronise, beside the events
//   5  a run of the post's small cudaMalloc, each call timed, with the
//      address each returned: where the allocator takes new memory
//
// The course bans host clocks (CUDA-CODE-STYLE.md, "No host clocks"). This
// file reads one on purpose: the post's method is what is being examined,
// and the first call and cudaMalloc are host-side costs no event can see.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o warmup warmup.cu
// Run:   ./warmup                      (the first call is cudaSetDevice)
//        ./warmup --first malloc       (or set-device, or launch)
//        CUDA_MODULE_LOADING=EAGER ./warmup
//        CUDA_VISIBLE_DEVICES=0 ./warmup    (on a machine with several GPUs)

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#include "warmup.h"

// The post's configuration: N floats, blocks of 4 threads, four timed calls,
// and its complex kernel's 1000 steps. 256 threads is the course's block.
constexpr int kElems = 10000;
constexpr int kBlockSizes[] = {4, 256};
constexpr int kNumBlockSizes = 2;
constexpr int kCalls = 4;
constexpr int kComplexSteps = 1000;

// Part 2's sizes: the post's array, then Day 9's 64 MiB buffer.
constexpr size_t kMallocBytes[] = {kElems * sizeof(float), 64ull << 20};
constexpr int kNumMallocSizes = 2;
constexpr int kMallocCount = 10;  // the tenth is the last one printed
// Part 5: a run of allocations of the post's size, long enough to cross
// several of the allocator's larger blocks if it carves small ones from them.
constexpr int kMallocRun = 128;

constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
// a += a * a may be one fused multiply-add on the GPU and is one in the CPU
// reference; the tolerance covers a compiler that does not fuse, whose
// rounding differs by an ulp a step.
constexpr float kRelTolerance = 1e-4f;

static_assert(sizeof(kBlockSizes) / sizeof(kBlockSizes[0]) == kNumBlockSizes,
              "kNumBlockSizes counts the block sizes");
static_assert(sizeof(kMallocBytes) / sizeof(kMallocBytes[0]) ==
                  kNumMallocSizes,
              "kNumMallocSizes counts the cudaMalloc sizes");
static_assert(kCalls >= 2, "call #0 is compared with call #1");
static_assert(kMallocCount >= 10, "the tenth cudaMalloc is printed");

// The post's figures, from its printed outputs: its first listing (the
// cudaSetDevice line, 3816.443 ms), the listing with cudaSetDevice commented
// out (the malloc line, 3824.311 ms), its two-malloc listing (0.163 and
// 0.026 ms), its simple and complex kernel listings (0.089, 0.053 and
// 1.624, 1.595 ms), its loop without a synchronise (largest of four,
// 0.021 ms) and its corrected loop (call #0, 0.272 ms). The post measured no
// launch as the first call; for it the figure is its conclusion's "about
// 3,5 s" for any first call.
constexpr double kThenFirstCallMs[] = {3816.443, 3824.311, 3500.0};
static_assert(sizeof(kThenFirstCallMs) / sizeof(kThenFirstCallMs[0]) == WARMUP_FIRST_LAUNCH + 1,
              "a figure for each kind of first call");
constexpr double kThenMallocRatio = 0.163 / 0.026;
constexpr double kThenSimpleOverPercent = (0.089 / 0.053 - 1.0) * 100.0;
constexpr double kThenComplexOverPercent = (1.624 / 1.595 - 1.0) * 100.0;
constexpr double kThenNoSyncMaxMs = 0.021;
constexpr double kThenSyncFirstMs = 0.272;

// Blocks of `threads` needed for n elements, rounded up.
constexpr int blocksFor(int n, int threads) {
    return (n + threads - 1) / threads;
}

// The post's simple kernel: one step of a += a * a per element.
__global__ void simpleKernel(float* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += a[i] * a[i];
    }
}

// The post's complex kernel: the same step kComplexSteps times, so the
// kernel's own time dwarfs its launch.
__global__ void complexKernel(float* a, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int s = 0; s < kComplexSteps; ++s) {
            a[i] += a[i] * a[i];
        }
    }
}

// The kernel of --first launch. Empty, and used nowhere else, so the first
// launches of the post's kernels stay their own first launches.
__global__ void emptyKernel() {}

// --first's calls, shared by main and the Rust twin so both make the very
// same first call. Each is followed by a synchronise, as the post's
// cudaSetDevice was, so whatever the call leaves queued is paid inside it.
// snippet: first-call
static cudaError_t firstCall(warmup_first_call_kind kind, int device,
                             void** buffer) {
    *buffer = nullptr;
    cudaError_t err = cudaSuccess;
    switch (kind) {
        case WARMUP_FIRST_SET_DEVICE:
            err = cudaSetDevice(device);
            break;
        case WARMUP_FIRST_MALLOC:
            err = cudaMalloc(buffer, kMallocBytes[0]);
            break;
        case WARMUP_FIRST_LAUNCH:
            emptyKernel<<<1, 1>>>();
            err = cudaGetLastError();
            break;
    }
    if (err != cudaSuccess) {
        return err;
    }
    return cudaDeviceSynchronize();
}
// end snippet

// Part 2's timed step, shared by main and the Rust twin so both time the
// very same calls: cudaMalloc, then a synchronise.
static cudaError_t mallocThenSync(void** buffer, size_t bytes) {
    const cudaError_t err = cudaMalloc(buffer, bytes);
    if (err != cudaSuccess) {
        return err;
    }
    return cudaDeviceSynchronize();
}

extern "C" cudaError_t warmup_first_call(warmup_first_call_kind kind,
                                         int device, void** buffer) {
    return firstCall(kind, device, buffer);
}

extern "C" cudaError_t warmup_malloc(void** buffer, size_t bytes) {
    return mallocThenSync(buffer, bytes);
}

extern "C" cudaError_t warmup_free(void* buffer) { return cudaFree(buffer); }

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (code/ref-warm-up/src/main.rs): the same kernels,
// launched through the C interface in warmup.h.

extern "C" cudaError_t warmup_simple_kernel(float* a, int n, int threads,
                                            cudaStream_t stream) {
    simpleKernel<<<blocksFor(n, threads), threads, 0, stream>>>(a, n);
    return cudaGetLastError();
}

extern "C" cudaError_t warmup_complex_kernel(float* a, int n, int threads,
                                             cudaStream_t stream) {
    complexKernel<<<blocksFor(n, threads), threads, 0, stream>>>(a, n);
    return cudaGetLastError();
}

// The constants above, so the Rust twin's tests can hold its copies to
// what this file compiles with.
extern "C" warmup_constants warmup_lesson_constants(void) {
    warmup_constants c;
    c.elems = kElems;
    c.block_sizes = kBlockSizes;
    c.num_block_sizes = kNumBlockSizes;
    c.calls = kCalls;
    c.complex_steps = kComplexSteps;
    c.malloc_bytes = kMallocBytes;
    c.num_malloc_sizes = kNumMallocSizes;
    c.malloc_count = kMallocCount;
    c.malloc_run = kMallocRun;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.rel_tolerance = kRelTolerance;
    c.then_first_call_ms = kThenFirstCallMs;
    c.then_malloc_ratio = kThenMallocRatio;
    c.then_simple_over_percent = kThenSimpleOverPercent;
    c.then_complex_over_percent = kThenComplexOverPercent;
    c.then_no_sync_max_ms = kThenNoSyncMaxMs;
    c.then_sync_first_ms = kThenSyncFirstMs;
    return c;
}
#else

// The host clock, in milliseconds. CLOCK_MONOTONIC, because a stopwatch must
// not jump when someone sets the system time.
static double hostMs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
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

// The names --first takes, in warmup_first_call_kind's order.
static const char* const kFirstNames[] = {"set-device", "malloc", "launch"};

// What the --first call is, for the report: the cudaMalloc's size is
// kMallocBytes[0], so an edited kElems shows here as well.
static void firstCallText(warmup_first_call_kind kind, char* text,
                          size_t size) {
    switch (kind) {
        case WARMUP_FIRST_SET_DEVICE:
            std::snprintf(text, size, "cudaSetDevice(0)");
            break;
        case WARMUP_FIRST_MALLOC:
            std::snprintf(text, size, "cudaMalloc(%zu bytes)",
                          kMallocBytes[0]);
            break;
        case WARMUP_FIRST_LAUNCH:
            std::snprintf(text, size, "emptyKernel<<<1, 1>>>");
            break;
    }
}

// The post's inputs were a[i] = i, which a += a * a sends to infinity within
// ten steps, after which no result says anything. Values in (-1, 0) stay
// there under the step, so every result is a number that can be checked;
// the arithmetic costs the same.
static float initialValue(int i) {
    return -static_cast<float>(i % 1000 + 1) / 1001.0f;
}

// The CPU reference: `steps` steps of a += a * a, as one fused multiply-add
// the way the GPU computes it.
static void stepsCpu(std::vector<float>& a, int steps) {
    for (float& x : a) {
        for (int s = 0; s < steps; ++s) {
            x = std::fma(x, x, x);
        }
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

// A measurement no working GPU can produce ends the program: a time that is
// not a positive number, or events that saw more time than the host clock
// around them. The 0.002 ms of slack is the two clocks' resolution.
static bool impossible(double hostMs, double eventMs) {
    return !(hostMs > 0.0) || !(eventMs > 0.0) || eventMs > hostMs + 0.002;
}

// One launch of kernel k (0 simple, 1 complex) on a with `threads` per block.
static void launchPost(int k, float* a, int threads) {
    const int blocks = blocksFor(kElems, threads);
    if (k == 0) {
        simpleKernel<<<blocks, threads>>>(a, kElems);
    } else {
        complexKernel<<<blocks, threads>>>(a, kElems);
    }
}

// One call timed both ways: the host clock around launch and synchronise
// (the two event records inside it cost a few microseconds), and the events
// around the launch alone.
struct Timed {
    double hostMs;
    float eventMs;
};

static Timed timeOneCall(int k, float* a, int threads, cudaEvent_t start,
                         cudaEvent_t stop) {
    const double t0 = hostMs();
    CUDA_CHECK(cudaEventRecord(start));
    launchPost(k, a, threads);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaDeviceSynchronize());
    const double t1 = hostMs();
    CUDA_CHECK(cudaGetLastError());
    Timed t{t1 - t0, 0.0f};
    CUDA_CHECK(cudaEventElapsedTime(&t.eventMs, start, stop));
    return t;
}

// Fills the device array with the initial values again.
static void resetInput(float* d_a, const std::vector<float>& init) {
    CUDA_CHECK(cudaMemcpy(d_a, init.data(), kElems * sizeof(float),
                          cudaMemcpyHostToDevice));
}

// Exit 1 unless d_a holds init after `steps` steps.
static void checkResult(const float* d_a, const std::vector<float>& init,
                        int steps, const char* what) {
    std::vector<float> got(kElems);
    std::vector<float> want(init);
    CUDA_CHECK(cudaMemcpy(got.data(), d_a, kElems * sizeof(float),
                          cudaMemcpyDeviceToHost));
    stepsCpu(want, steps);
    const size_t bad = firstMismatch(got.data(), want.data(), kElems,
                                     kRelTolerance);
    if (bad != static_cast<size_t>(kElems)) {
        std::fprintf(stderr, "%s wrong at %zu: got %.9g, want %.9g\n", what,
                     bad, got[bad], want[bad]);
        std::exit(EXIT_FAILURE);
    }
}

static void printRow(const char* kernel, int threads, const char* clock,
                     const double ms[kCalls]) {
    std::printf("%-7s %7d %6s", kernel, threads, clock);
    for (int c = 0; c < kCalls; ++c) {
        std::printf(" %10.4f", ms[c]);
    }
    std::printf(" %+10.1f%%\n", (ms[0] / ms[1] - 1.0) * 100.0);
}

static void printThenNow(const char* label, double then, double now) {
    std::printf("%-44s %12.3f %12.3f\n", label, then, now);
}

// "FOO=value" or "FOO unset", for the report's environment line.
static void printEnv(const char* name) {
    const char* value = std::getenv(name);
    if (value != nullptr) {
        std::printf("%s=%s", name, value);
    } else {
        std::printf("%s unset", name);
    }
}

static void usage(const char* program) {
    std::fprintf(stderr, "usage: %s [--first set-device|malloc|launch]\n",
                 program);
    std::exit(2);
}

int main(int argc, char** argv) {
    // --first NAME picks the first call; cudaSetDevice, the post's, if none.
    warmup_first_call_kind kind = WARMUP_FIRST_SET_DEVICE;
    if (argc == 3 && std::strcmp(argv[1], "--first") == 0) {
        int found = -1;
        for (int k = 0; k < 3; ++k) {
            if (std::strcmp(argv[2], kFirstNames[k]) == 0) {
                found = k;
            }
        }
        if (found < 0) {
            usage(argv[0]);
        }
        kind = static_cast<warmup_first_call_kind>(found);
    } else if (argc != 1) {
        usage(argv[0]);
    }

    // Part 1, before anything else touches CUDA: not even a device count,
    // since that would initialise the driver outside the timed call.
    void* firstBuffer = nullptr;
    const double tFirst0 = hostMs();
    CUDA_CHECK(firstCall(kind, 0, &firstBuffer));
    const double firstMs = hostMs() - tFirst0;
    if (!(firstMs > 0.0)) {
        std::fprintf(stderr, "impossible measurement: first call %.6f ms\n",
                     firstMs);
        return EXIT_FAILURE;
    }

    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    std::printf(
        "Warm-up, re-run: the first-call post's experiment on this GPU\n");
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf("GPUs visible: %d, ", visible);
    printEnv("CUDA_VISIBLE_DEVICES");
    std::printf(", ");
    printEnv("CUDA_MODULE_LOADING");
    std::printf("\n");

    std::printf(
        "\nPart 1: the first CUDA call of the process, then a synchronise, "
        "host clock\n");
    char firstCallName[64];
    firstCallText(kind, firstCallName, sizeof firstCallName);
    std::printf("first call: %-10s  %-24s %10.3f ms\n", kFirstNames[kind],
                firstCallName, firstMs);

    // Part 2: the context exists. Each size kMallocCount times, each
    // allocation kept until the end so none reuses another's memory.
    std::printf(
        "\nPart 2: cudaMalloc with the context made, call and synchronise, "
        "host clock\n");
    std::printf("%10s  %10s  %10s  %10s  %12s\n", "bytes", "first ms",
                "second ms", "tenth ms", "first/second");
    std::vector<void*> blocks;
    double firstOverSecond = 0.0;
    for (int s = 0; s < kNumMallocSizes; ++s) {
        double ms[kMallocCount];
        for (int m = 0; m < kMallocCount; ++m) {
            void* p = nullptr;
            const double t0 = hostMs();
            CUDA_CHECK(mallocThenSync(&p, kMallocBytes[s]));
            ms[m] = hostMs() - t0;
            blocks.push_back(p);
            if (!(ms[m] > 0.0)) {
                std::fprintf(stderr,
                             "impossible measurement: cudaMalloc %.6f ms\n",
                             ms[m]);
                return EXIT_FAILURE;
            }
        }
        if (s == 0) {
            firstOverSecond = ms[0] / ms[1];
        }
        std::printf("%10zu  %10.4f  %10.4f  %10.4f  %11.2fx\n",
                    kMallocBytes[s], ms[0], ms[1], ms[kMallocCount - 1],
                    ms[0] / ms[1]);
    }

    // Part 3: the post's kernels in its configuration, then at 256 threads.
    std::vector<float> init(kElems);
    for (int i = 0; i < kElems; ++i) {
        init[i] = initialValue(i);
    }
    float* d_a = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, kElems * sizeof(float)));
    cudaEvent_t start[kCalls], stop[kCalls];
    for (int c = 0; c < kCalls; ++c) {
        CUDA_CHECK(cudaEventCreate(&start[c]));
        CUDA_CHECK(cudaEventCreate(&stop[c]));
    }
    // The events' own first use, so it is not inside a timed call.
    CUDA_CHECK(cudaEventRecord(start[0]));
    CUDA_CHECK(cudaEventSynchronize(start[0]));

    const char* kernelNames[2] = {"simple", "complex"};
    const int kernelSteps[2] = {1, kComplexSteps};
    double overPercent[2] = {0.0, 0.0};
    std::printf("\nPart 3: the post's kernels, N = %d floats, %d calls each\n",
                kElems, kCalls);
    std::printf("host = host clock around launch and synchronise "
                "(the post's method), events = CUDA events around the launch "
                "(the course's), "
                "warm = events, mean of %d after %d warm-ups\n",
                kTimedRuns, kWarmupRuns);
    std::printf("%-7s %7s %6s %10s %10s %10s %10s %11s\n", "kernel",
                "threads", "clock", "#0 ms", "#1 ms", "#2 ms", "#3 ms",
                "#0 over #1");
    for (int b = 0; b < kNumBlockSizes; ++b) {
        const int threads = kBlockSizes[b];
        for (int k = 0; k < 2; ++k) {
            resetInput(d_a, init);
            double host[kCalls];
            double events[kCalls];
            for (int c = 0; c < kCalls; ++c) {
                const Timed t = timeOneCall(k, d_a, threads, start[c], stop[c]);
                if (impossible(t.hostMs, t.eventMs)) {
                    std::fprintf(stderr,
                                 "impossible measurement: %s call #%d, "
                                 "host %.6f ms, events %.6f ms\n",
                                 kernelNames[k], c, t.hostMs, t.eventMs);
                    return EXIT_FAILURE;
                }
                host[c] = t.hostMs;
                events[c] = t.eventMs;
            }
            checkResult(d_a, init, kCalls * kernelSteps[k], kernelNames[k]);
            if (b == 0) {
                overPercent[k] = (host[0] / host[1] - 1.0) * 100.0;
            }
            const float warm = timeKernel([&] { launchPost(k, d_a, threads); });
            printRow(kernelNames[k], threads, "host", host);
            printRow(kernelNames[k], threads, "events", events);
            std::printf("%-7s %7d %6s %10.4f\n", kernelNames[k], threads,
                        "warm", warm);
        }
    }

    // Part 4: the post's last loop, the complex kernel at 4 threads, first
    // without the synchronise, then with it. Without it, the host clock reads
    // the launch call alone, and each event pair, recorded around one launch
    // in a queue that is not waited on, times kernel c as it ran queued
    // behind kernel c - 1 (call #0's start event finds the stream idle, so
    // its interval also holds the launch).
    resetInput(d_a, init);
    double noSyncHost[kCalls];
    double noSyncEvents[kCalls];
    for (int c = 0; c < kCalls; ++c) {
        CUDA_CHECK(cudaEventRecord(start[c]));
        const double t0 = hostMs();
        launchPost(1, d_a, kBlockSizes[0]);
        const double t1 = hostMs();
        CUDA_CHECK(cudaEventRecord(stop[c]));
        noSyncHost[c] = t1 - t0;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    for (int c = 0; c < kCalls; ++c) {
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start[c], stop[c]));
        noSyncEvents[c] = ms;
    }
    double syncHost[kCalls];
    double syncEvents[kCalls];
    for (int c = 0; c < kCalls; ++c) {
        const Timed t = timeOneCall(1, d_a, kBlockSizes[0], start[c], stop[c]);
        if (impossible(t.hostMs, t.eventMs) || !(noSyncHost[c] > 0.0)) {
            std::fprintf(stderr,
                         "impossible measurement: Part 4 call #%d\n", c);
            return EXIT_FAILURE;
        }
        syncHost[c] = t.hostMs;
        syncEvents[c] = t.eventMs;
    }
    checkResult(d_a, init, 2 * kCalls * kComplexSteps, "complex (Part 4)");
    std::printf(
        "\nPart 4: the missing synchronise, complex kernel, %d threads per "
        "block, %d calls each\n",
        kBlockSizes[0], kCalls);
    std::printf("%-22s %10s %10s %10s %10s\n", "loop", "#0 ms", "#1 ms",
                "#2 ms", "#3 ms");
    const char* loopNames[4] = {"without sync, host", "without sync, events",
                                "with sync, host", "with sync, events"};
    const double* loops[4] = {noSyncHost, noSyncEvents, syncHost, syncEvents};
    double noSyncMax = 0.0;
    for (int l = 0; l < 4; ++l) {
        std::printf("%-22s", loopNames[l]);
        for (int c = 0; c < kCalls; ++c) {
            std::printf(" %10.4f", loops[l][c]);
        }
        std::printf("\n");
    }
    for (int c = 0; c < kCalls; ++c) {
        noSyncMax = std::fmax(noSyncMax, noSyncHost[c]);
    }

    // Part 5: more allocations of the post's size, each timed, then each
    // address printed with its distance from the one before: a call much
    // slower than its neighbours, at an address that jumps, is the allocator
    // taking new memory; the calls between carve up memory it already has.
    std::vector<double> runMs(kMallocRun);
    std::vector<unsigned long long> runAddress(kMallocRun);
    for (int m = 0; m < kMallocRun; ++m) {
        void* p = nullptr;
        const double t0 = hostMs();
        CUDA_CHECK(mallocThenSync(&p, kMallocBytes[0]));
        runMs[m] = hostMs() - t0;
        blocks.push_back(p);
        runAddress[m] = reinterpret_cast<uintptr_t>(p);
        if (!(runMs[m] > 0.0)) {
            std::fprintf(stderr,
                         "impossible measurement: Part 5 cudaMalloc %.6f ms\n",
                         runMs[m]);
            return EXIT_FAILURE;
        }
    }
    unsigned long long previous = reinterpret_cast<uintptr_t>(d_a);
    std::printf("\nPart 5: %d more cudaMallocs of %zu bytes, call and "
                "synchronise, host clock, and the address each returned\n",
                kMallocRun, kMallocBytes[0]);
    std::printf("before them: Part 2's first at %#llx, Part 3's array (the "
                "last) at %#llx\n",
                static_cast<unsigned long long>(
                    reinterpret_cast<uintptr_t>(blocks[0])),
                previous);
    std::printf("%5s  %10s  %18s  %14s\n", "call", "ms", "address",
                "from previous");
    for (int m = 0; m < kMallocRun; ++m) {
        std::printf("%5d  %10.4f  %#18llx  %+14lld\n", m + 1, runMs[m],
                    runAddress[m],
                    static_cast<long long>(runAddress[m] - previous));
        previous = runAddress[m];
    }

    // The closing note: the post's figure beside this run's, claim by claim.
    char firstLabel[64];
    std::snprintf(firstLabel, sizeof(firstLabel), "first call (%s), ms",
                  kFirstNames[kind]);
    std::printf("\nThen and now: the post's figures and this run's\n");
    std::printf("%-44s %12s %12s\n", "figure", "then", "now");
    printThenNow(firstLabel, kThenFirstCallMs[kind], firstMs);
    printThenNow("first cudaMalloc over second, x", kThenMallocRatio,
                 firstOverSecond);
    printThenNow("simple kernel #0 over #1, %", kThenSimpleOverPercent,
                 overPercent[0]);
    printThenNow("complex kernel #0 over #1, %", kThenComplexOverPercent,
                 overPercent[1]);
    printThenNow("host clock without sync, largest of 4, ms",
                 kThenNoSyncMaxMs, noSyncMax);
    printThenNow("host clock with sync, complex #0, ms", kThenSyncFirstMs,
                 syncHost[0]);

    for (int c = 0; c < kCalls; ++c) {
        CUDA_CHECK(cudaEventDestroy(start[c]));
        CUDA_CHECK(cudaEventDestroy(stop[c]));
    }
    CUDA_CHECK(cudaFree(d_a));
    for (void* p : blocks) {
        CUDA_CHECK(cudaFree(p));
    }
    CUDA_CHECK(cudaFree(firstBuffer));
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
