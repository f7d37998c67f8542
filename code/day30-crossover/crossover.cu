// SPDX-License-Identifier: MIT
//
// Day 30: predict where the GPU starts to beat the CPU, for a kernel you have
// not written yet.
//
// A kernel's time, and a CPU loop's, follow from a few constants of the
// machine and two counts of the kernel: the bytes it moves and the operations
// it does per element. So does the size n from which the GPU wins, with and
// without the copies across PCIe. Three parts:
//
//   1  The constants, measured here, in this process: the launch floor and
//      the GPU's DRAM bandwidth (Day 11), the GPU's operation rate, the cost of
//      a copy each way from pinned and from pageable memory as a fixed cost
//      per call plus bytes over a bandwidth (Day 53), and the CPU's streaming
//      bandwidth and operation rate (Day 9's CPU: one thread, no SIMD).
//   2  The model, and for five kernels that span arithmetic intensity (SAXPY,
//      a dot product, a polynomial of degree 4 and of degree 64 per element,
//      a 3-point stencil) the predicted crossover against the measured one,
//      kernel alone and with copies, and the predicted against the measured
//      time at a few sizes. None of the five was used to fit a constant.
//   3  Your kernel: its bytes and operations per element on the command line
//      (--bytes-per-element B --ops-per-element F), and its predicted
//      crossover with and without copies.
//
// The course bans host clocks (CUDA-CODE-STYLE.md, "No host clocks"). This
// file reads one on purpose, and is on the lesson's allow-list for it: the
// CPU side has to be timed, and on the CPU nothing is asynchronous. Every
// GPU time is read by CUDA events.
//
// The CPU is the course's CPU: one thread, scalar code. Every CPU loop reads
// its inputs through a volatile pointer, so the compiler cannot turn the loop
// into SIMD instructions (it may not merge volatile loads), and each loop is
// __noinline__ so its code does not depend on the caller's.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o crossover crossover.cu
// Run:   ./crossover [--bytes-per-element B --ops-per-element F]

#include <algorithm>
#include <cmath>
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

#include "crossover.h"

constexpr size_t kKiB = 1024;
constexpr size_t kMiB = 1024 * 1024;

// The sweep: n doubles from kSweepMin to kSweepMax. The rows printed with
// the model's error are kReportSizes, each a size of the sweep.
constexpr size_t kSweepMin = 16;
constexpr size_t kSweepMax = 16 * kMiB;
constexpr size_t kReportSizes[] = {1024, 64 * kKiB, 1 * kMiB, 16 * kMiB};
constexpr int kNumReportSizes = 4;

constexpr int kThreadsPerBlock = 256;
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
// Each GPU call of the sweep is timed alone, between its own two events and
// waited for, as a program that calls the GPU once waits for it; the median
// of kTimedCalls such calls is the figure.
constexpr int kTimedCalls = 15;

// Part 1's measurements. The copy kernel's arrays are 256 MiB each, well
// over the 60 MiB L2, so it streams from DRAM. The copy costs are fitted from
// a small copy (its fixed cost shows) and a large one (its bandwidth shows).
constexpr size_t kBwElems = 64 * kMiB;
constexpr size_t kRateThreads = 1 * kMiB;
constexpr int kRateIters = 512;
constexpr int kRateChains = 8;
constexpr size_t kCopySmallBytes = 4 * kKiB;
constexpr size_t kCopyLargeBytes = 64 * kMiB;
// The CPU's bandwidth loop copies 64 MiB, far over any CPU cache; its rate
// loop runs chains of kCpuChain multiply-adds on values from a small ring
// that stays in L1.
constexpr size_t kCpuBwElems = 16 * kMiB;
constexpr size_t kCpuRateElems = 1 * kMiB;
constexpr int kCpuChain = 16;
constexpr int kCpuRing = 1024;
// A CPU time is the time of reps calls over reps, with reps doubled until
// the calls together take kCpuMinMs: never a difference of two readings.
constexpr double kCpuMinMs = 1.0;

constexpr float kSaxpyA = 2.0f;
constexpr float kStencilW0 = 0.25f;
constexpr float kStencilW1 = 0.5f;
constexpr float kStencilW2 = 0.25f;
constexpr float kPolyC = 0.5f;
constexpr float kRateA = 0.999f;
constexpr float kRateB = 0.001f;
// Part 3's kernel when no flag is given: 8 bytes and 32 operations per element.
constexpr double kExampleBytes = 8.0;
constexpr double kExampleOps = 32.0;
constexpr float kRelTolerance = 1e-4f;

// The lesson's kernels and their counts. bytes: DRAM bytes read + written per
// element, each input element read once (the stencil's neighbours are read by
// the next threads too, and come from the L1 and L2, not from DRAM). ops: an
// FMA counts 2. The copies: what a program that starts and ends on the host
// sends over, and in how many cudaMemcpy calls.
enum Kernel { kSaxpy, kDot, kPoly4, kPoly64, kStencil, kNumKernels };
constexpr day30_kernel_info kKernels[kNumKernels] = {
    {"saxpy", 12.0, 2.0, 8.0, 2, 4.0, 1, 0.0, 0},
    {"dot", 8.0, 2.0, 8.0, 2, 0.0, 1, 4.0, 0},
    {"poly4", 8.0, 8.0, 4.0, 1, 4.0, 1, 0.0, 4},
    {"poly64", 8.0, 128.0, 4.0, 1, 4.0, 1, 0.0, 64},
    {"stencil", 8.0, 5.0, 4.0, 1, 4.0, 1, 0.0, 0},
};

static_assert(sizeof(kReportSizes) / sizeof(kReportSizes[0]) == kNumReportSizes,
              "kNumReportSizes counts the report sizes");
static_assert((kCpuRing & (kCpuRing - 1)) == 0, "the ring is a power of two");
static_assert(kTimedCalls % 2 == 1, "an odd count has one median");
static_assert(kCopyLargeBytes <= kSweepMax * sizeof(float),
              "the large copy fits in the sweep's buffers");
static_assert(kThreadsPerBlock % 32 == 0, "a block is a whole number of warps");

static int blocksFor(size_t n) {
    return static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// ---- The GPU's kernels ----------------------------------------------------

// Nothing: its time is the launch floor.
__global__ void emptyKernel() {}

// out[i] = in[i]: the GPU's DRAM bandwidth, bytes read + written.
__global__ void copyKernel(const float* __restrict__ in,
                           float* __restrict__ out, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = in[i];
    }
}

// kRateChains independent multiply-add chains per thread, kRateIters long:
// independent, so the FMA units never wait on a result. The sum is written so
// that nothing is dead code.
__global__ void fmaRateKernel(float* out, size_t threads) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < threads) {
        float v[kRateChains];
#pragma unroll
        for (int c = 0; c < kRateChains; ++c) {
            v[c] = static_cast<float>(i & 1023) * 1e-3f + static_cast<float>(c);
        }
        for (int k = 0; k < kRateIters; ++k) {
#pragma unroll
            for (int c = 0; c < kRateChains; ++c) {
                v[c] = v[c] * kRateA + kRateB;
            }
        }
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < kRateChains; ++c) {
            s += v[c];
        }
        out[i] = s;
    }
}

// snippet: kernels
// out = a x + y: 12 bytes, 2 operations per element.
__global__ void saxpyKernel(const float* __restrict__ x,
                            const float* __restrict__ y,
                            float* __restrict__ out, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = kSaxpyA * x[i] + y[i];
    }
}

// out[0] += sum of x[i] y[i]: 8 bytes, 2 operations per element. Each block
// sums its products in shared memory, then adds its sum into out[0].
__global__ void dotKernel(const float* __restrict__ x,
                          const float* __restrict__ y, float* out, size_t n) {
    __shared__ float part[kThreadsPerBlock];
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    part[threadIdx.x] = 0.0f;
    if (i < n) {
        part[threadIdx.x] = x[i] * y[i];
    }
    __syncthreads();
    for (int half = kThreadsPerBlock / 2; half > 0; half /= 2) {
        if (static_cast<int>(threadIdx.x) < half) {
            part[threadIdx.x] += part[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, part[0]);
    }
}

// out[i] = p(x[i]), p of degree `degree` with every coefficient kPolyC, by
// Horner's rule: 8 bytes and 2 * degree operations per element.
__global__ void polyKernel(const float* __restrict__ x,
                           float* __restrict__ out, size_t n, int degree) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        float p = kPolyC;
        for (int k = 0; k < degree; ++k) {
            p = p * v + kPolyC;
        }
        out[i] = p;
    }
}

// out[i] = w0 x[i-1] + w1 x[i] + w2 x[i+1], zero outside the array: 8 bytes
// from DRAM and 5 operations per element, while a neighbour's load hits the
// cache line the next thread's own load brought in.
__global__ void stencilKernel(const float* __restrict__ x,
                              float* __restrict__ out, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        const float left = (i > 0) ? x[i - 1] : 0.0f;
        const float right = (i + 1 < n) ? x[i + 1] : 0.0f;
        out[i] = kStencilW0 * left + kStencilW1 * x[i] + kStencilW2 * right;
    }
}
// end snippet

// Queues kernel k over n elements on `stream`.
static void launchKernel(int k, const float* x, const float* y, float* out,
                         size_t n, cudaStream_t stream) {
    const int blocks = blocksFor(n);
    switch (k) {
        case kSaxpy:
            saxpyKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(x, y, out, n);
            break;
        case kDot:
            dotKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(x, y, out, n);
            break;
        case kStencil:
            stencilKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(x, out, n);
            break;
        default:
            polyKernel<<<blocks, kThreadsPerBlock, 0, stream>>>(
                x, out, n, kKernels[k].degree);
            break;
    }
}

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (src/main.rs) instead of as a program: the same
// kernels, launched through the C interface in crossover.h.

extern "C" cudaError_t day30_launch(int kernel, const float* x, const float* y,
                                    float* out, size_t n, cudaStream_t stream) {
    if (kernel < 0 || kernel >= kNumKernels) {
        return cudaErrorInvalidValue;
    }
    launchKernel(kernel, x, y, out, n, stream);
    return cudaGetLastError();
}

extern "C" cudaError_t day30_empty(cudaStream_t stream) {
    emptyKernel<<<1, kThreadsPerBlock, 0, stream>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t day30_copy(const float* in, float* out, size_t n,
                                  cudaStream_t stream) {
    copyKernel<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(in, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t day30_fma_rate(float* out, size_t threads,
                                      cudaStream_t stream) {
    fmaRateKernel<<<blocksFor(threads), kThreadsPerBlock, 0, stream>>>(out,
                                                                      threads);
    return cudaGetLastError();
}

// The constants above, for the Rust twin, which reads them from here: this
// file is their one source, so an edit of it is one both programs follow.
extern "C" day30_constants day30_lesson_constants(void) {
    day30_constants c;
    c.kernels = kKernels;
    c.num_kernels = kNumKernels;
    c.report_sizes = kReportSizes;
    c.num_report_sizes = kNumReportSizes;
    c.sweep_min = kSweepMin;
    c.sweep_max = kSweepMax;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.timed_calls = kTimedCalls;
    c.bw_elems = kBwElems;
    c.rate_threads = kRateThreads;
    c.rate_iters = kRateIters;
    c.rate_chains = kRateChains;
    c.copy_small_bytes = kCopySmallBytes;
    c.copy_large_bytes = kCopyLargeBytes;
    c.cpu_bw_elems = kCpuBwElems;
    c.cpu_rate_elems = kCpuRateElems;
    c.cpu_chain = kCpuChain;
    c.cpu_ring = kCpuRing;
    c.cpu_min_ms = kCpuMinMs;
    c.saxpy_a = kSaxpyA;
    c.stencil_w0 = kStencilW0;
    c.stencil_w1 = kStencilW1;
    c.stencil_w2 = kStencilW2;
    c.poly_c = kPolyC;
    c.rate_a = kRateA;
    c.rate_b = kRateB;
    c.example_bytes = kExampleBytes;
    c.example_ops = kExampleOps;
    c.rel_tolerance = kRelTolerance;
    return c;
}
#else

// ---- The CPU's loops: one thread, scalar ----------------------------------

// Where each loop's result goes, so the compiler cannot delete the loop.
static volatile float gSink;

// snippet: cpu-loops
static __noinline__ void saxpyCpu(const float* x, const float* y, float* out,
                                  size_t n) {
    const volatile float* vx = x;
    const volatile float* vy = y;
    for (size_t i = 0; i < n; ++i) {
        out[i] = kSaxpyA * vx[i] + vy[i];
    }
}

static __noinline__ float dotCpu(const float* x, const float* y, size_t n) {
    const volatile float* vx = x;
    const volatile float* vy = y;
    float sum = 0.0f;
    for (size_t i = 0; i < n; ++i) {
        sum += vx[i] * vy[i];
    }
    return sum;
}

static __noinline__ void polyCpu(const float* x, float* out, size_t n,
                                 int degree) {
    const volatile float* vx = x;
    for (size_t i = 0; i < n; ++i) {
        const float v = vx[i];
        float p = kPolyC;
        for (int k = 0; k < degree; ++k) {
            p = p * v + kPolyC;
        }
        out[i] = p;
    }
}

static __noinline__ void stencilCpu(const float* x, float* out, size_t n) {
    const volatile float* vx = x;
    for (size_t i = 0; i < n; ++i) {
        const float left = (i > 0) ? vx[i - 1] : 0.0f;
        const float right = (i + 1 < n) ? vx[i + 1] : 0.0f;
        out[i] = kStencilW0 * left + kStencilW1 * vx[i] + kStencilW2 * right;
    }
}
// end snippet

// Kernel k on the CPU; the dot product leaves its sum in out[0].
static void runCpu(int k, const float* x, const float* y, float* out,
                   size_t n) {
    switch (k) {
        case kSaxpy:
            saxpyCpu(x, y, out, n);
            break;
        case kDot:
            out[0] = dotCpu(x, y, n);
            break;
        case kStencil:
            stencilCpu(x, out, n);
            break;
        default:
            polyCpu(x, out, n, kKernels[k].degree);
            break;
    }
    gSink = out[0];
}

// The CPU's streaming bandwidth: a copy, bytes read + written.
static __noinline__ void copyCpu(const float* in, float* out, size_t n) {
    const volatile float* vin = in;
    for (size_t i = 0; i < n; ++i) {
        out[i] = vin[i];
    }
    gSink = out[n / 2];
}

// The CPU's operation rate: per element, a chain of kCpuChain multiply-adds
// (2 operations each) on a value from a ring that stays in L1. Elements are
// independent, so the core overlaps their chains as far as it can.
static __noinline__ void rateCpu(const float* ring, float* out, size_t n) {
    const volatile float* vring = ring;
    for (size_t i = 0; i < n; ++i) {
        float p = vring[i & (kCpuRing - 1)];
        for (int k = 0; k < kCpuChain; ++k) {
            p = p * kRateA + kRateB;
        }
        out[i & (kCpuRing - 1)] = p;
    }
    gSink = out[0];
}

// The host clock, in milliseconds, for the CPU side only. CLOCK_MONOTONIC,
// because a stopwatch must not jump when the system time is set.
static double hostMs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// snippet: cpu-time
// Microseconds per call of fn, after one untimed call: reps calls in a row,
// reps doubled until they take kCpuMinMs together. One reading over the whole
// batch, divided: never a reading less another, so never below zero.
template <typename Fn>
static double cpuUsPerCall(Fn fn) {
    // One untimed call first: its pages faulted in, its code and data warm.
    fn();
    for (long reps = 1;; reps *= 2) {
        const double t0 = hostMs();
        for (long r = 0; r < reps; ++r) {
            fn();
        }
        const double ms = hostMs() - t0;
        if (ms >= kCpuMinMs) {
            return ms * 1.0e3 / static_cast<double>(reps);
        }
    }
}
// end snippet

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

// snippet: time-call
// One call's microseconds as the GPU's events see it, the median of
// kTimedCalls: kWarmupRuns untimed calls, then each call alone between two
// events, waited for before the next, as a program that calls the GPU once
// and needs the answer waits for it. timeKernel's back-to-back runs would
// hide part of each launch behind the previous kernel.
template <typename CallFn>
static double medianCallUs(CallFn call) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < kWarmupRuns; ++i) {
        call();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> ms(kTimedCalls);
    for (int i = 0; i < kTimedCalls; ++i) {
        CUDA_CHECK(cudaEventRecord(start));
        call();
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventElapsedTime(&ms[i], start, stop));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    return static_cast<double>(ms[kTimedCalls / 2]) * 1.0e3;
}
// end snippet

// ---- The model ------------------------------------------------------------

// One copy direction from one kind of memory: t = fixedUs + bytes / rate.
struct CopyCost {
    double fixedUs;
    double gbPerS;
};

// The fit through two sizes: the rate from their difference, the fixed cost
// from what the small copy takes beyond its bytes.
static CopyCost fitCopy(double smallUs, double largeUs) {
    const double gbPerS = static_cast<double>(kCopyLargeBytes - kCopySmallBytes) /
                          ((largeUs - smallUs) * 1.0e3);
    return {smallUs - static_cast<double>(kCopySmallBytes) / (gbPerS * 1.0e3),
            gbPerS};
}

struct Machine {
    double floorUs;
    double dramGbPerS;
    double gpuGops;
    CopyCost h2d[2];  // [pinned, pageable]
    CopyCost d2h[2];
    double cpuGbPerS;
    double cpuGops;
};

// A time model t(n) = fixedUs + n * usPerElem.
struct Line {
    double fixedUs;
    double usPerElem;
};

// snippet: model
// The CPU: n * max(bytes / bandwidth, ops / rate). The larger of the two,
// not their sum: the core keeps loads in flight while it computes.
static Line cpuLine(const Machine& m, double bytes, double ops) {
    return {0.0, std::max(bytes / (m.cpuGbPerS * 1.0e3), ops / (m.cpuGops * 1.0e3))};
}

// The GPU: floor + n * max(bytes / bandwidth, ops / rate), and with copies
// (mem 0 pinned, 1 pageable) each call's fixed cost plus its bytes over the
// link's rate. copies -1: the kernel alone.
static Line gpuLine(const Machine& m, double bytes, double ops, int copies,
                    double h2dBytes, int h2dCalls, double d2hBytes,
                    int d2hCalls, double d2hFixed) {
    Line l = {m.floorUs, std::max(bytes / (m.dramGbPerS * 1.0e3),
                                  ops / (m.gpuGops * 1.0e3))};
    if (copies >= 0) {
        const CopyCost& in = m.h2d[copies];
        const CopyCost& out = m.d2h[copies];
        l.fixedUs += h2dCalls * in.fixedUs + d2hCalls * out.fixedUs +
                     d2hFixed / (out.gbPerS * 1.0e3);
        l.usPerElem += h2dBytes / (in.gbPerS * 1.0e3) +
                       d2hBytes / (out.gbPerS * 1.0e3);
    }
    return l;
}

// Where gpu(n) = cpu(n): fixed / (cpu per element - gpu per element), or
// never (-1) where the GPU's cost per element is not below the CPU's.
static double crossover(Line gpu, Line cpu) {
    if (!(cpu.usPerElem > gpu.usPerElem)) {
        return -1.0;
    }
    return std::ceil((gpu.fixedUs - cpu.fixedUs) / (cpu.usPerElem - gpu.usPerElem));
}
// end snippet

static Line kernelGpuLine(const Machine& m, int k, int copies) {
    const day30_kernel_info& i = kKernels[k];
    return gpuLine(m, i.bytes, i.ops, copies, i.h2d_bytes, i.h2d_calls,
                   i.d2h_bytes, i.d2h_calls, i.d2h_fixed);
}

static double at(Line l, size_t n) {
    return l.fixedUs + static_cast<double>(n) * l.usPerElem;
}

// A crossover as printed: the n, or "never".
static void crossoverText(char* buf, size_t size, double n) {
    if (n < 0.0) {
        std::snprintf(buf, size, "never");
    } else {
        std::snprintf(buf, size, "%.0f", n);
    }
}

// The smallest n of the sweep from which the GPU is faster at every larger
// size too; -1 if it is not faster at the largest.
static double measuredCrossover(const std::vector<size_t>& sizes,
                                const std::vector<double>& gpuUs,
                                const std::vector<double>& cpuUs) {
    double from = -1.0;
    for (size_t s = sizes.size(); s-- > 0;) {
        if (!(gpuUs[s] < cpuUs[s])) {
            break;
        }
        from = static_cast<double>(sizes[s]);
    }
    return from;
}

// The first index where got differs from want by more than kRelTolerance
// (relative, or absolute where want is 0), or n if none does. "Not within"
// rather than "beyond", so a NaN is a mismatch.
static size_t firstMismatch(const float* got, const float* want, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const float scale = (want[i] == 0.0f) ? 1.0f : std::fabs(want[i]);
        if (!(std::fabs(got[i] - want[i]) <= kRelTolerance * scale)) {
            return i;
        }
    }
    return n;
}

static void usage(const char* program) {
    std::fprintf(stderr,
                 "usage: %s [--bytes-per-element B --ops-per-element F]\n",
                 program);
}

// Reads a flag's value: a finite number, zero or more.
static bool readCount(const char* text, double* out) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(v) || v < 0.0) {
        return false;
    }
    *out = v;
    return true;
}

static const char* kCopyNames[2] = {"pinned", "pageable"};

int main(int argc, char** argv) {
    double exampleBytes = kExampleBytes;
    double exampleOps = kExampleOps;
    for (int a = 1; a < argc; ++a) {
        double* target = nullptr;
        if (std::strcmp(argv[a], "--bytes-per-element") == 0) {
            target = &exampleBytes;
        } else if (std::strcmp(argv[a], "--ops-per-element") == 0) {
            target = &exampleOps;
        }
        if (target == nullptr || a + 1 >= argc || !readCount(argv[a + 1], target)) {
            usage(argv[0]);
            return 2;
        }
        ++a;
    }

    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf(
        "CPU: one thread, scalar code: every loop reads through a volatile "
        "pointer, so none is vectorised\n");

    // Host memory: pageable (std::vector) and pinned copies of the inputs,
    // and the device's buffers, all of the sweep's largest size.
    const size_t maxBytes = kSweepMax * sizeof(float);
    std::vector<float> x(kSweepMax), y(kSweepMax), out(kSweepMax),
        want(kSweepMax);
    for (size_t i = 0; i < kSweepMax; ++i) {
        x[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.25f;
        y[i] = static_cast<float>(static_cast<int>(i % 5) - 2) * 0.5f;
    }
    float *px = nullptr, *py = nullptr, *pout = nullptr;
    CUDA_CHECK(cudaMallocHost(&px, maxBytes));
    CUDA_CHECK(cudaMallocHost(&py, maxBytes));
    CUDA_CHECK(cudaMallocHost(&pout, maxBytes));
    std::memcpy(px, x.data(), maxBytes);
    std::memcpy(py, y.data(), maxBytes);
    std::memset(pout, 0, maxBytes);
    float *dx = nullptr, *dy = nullptr, *dout = nullptr;
    CUDA_CHECK(cudaMalloc(&dx, maxBytes));
    CUDA_CHECK(cudaMalloc(&dy, maxBytes));
    CUDA_CHECK(cudaMalloc(&dout, maxBytes));

    // Part 1: the constants, each measured here on kernels and loops that
    // are not the lesson's five.
    Machine m;
    m.floorUs = medianCallUs([&] {
        emptyKernel<<<1, kThreadsPerBlock>>>();
    });
    {
        float *bwIn = nullptr, *bwOut = nullptr;
        CUDA_CHECK(cudaMalloc(&bwIn, kBwElems * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&bwOut, kBwElems * sizeof(float)));
        CUDA_CHECK(cudaMemset(bwIn, 0, kBwElems * sizeof(float)));
        const float ms = timeKernel([&] {
            copyKernel<<<blocksFor(kBwElems), kThreadsPerBlock>>>(bwIn, bwOut,
                                                                  kBwElems);
        });
        m.dramGbPerS = 2.0 * kBwElems * sizeof(float) / (ms * 1.0e6);
        CUDA_CHECK(cudaFree(bwIn));
        const float rateMs = timeKernel([&] {
            fmaRateKernel<<<blocksFor(kRateThreads), kThreadsPerBlock>>>(
                bwOut, kRateThreads);
        });
        m.gpuGops = 2.0 * kRateChains * kRateIters *
                    static_cast<double>(kRateThreads) / (rateMs * 1.0e6);
        CUDA_CHECK(cudaFree(bwOut));
    }
    {
        const float* hostIn[2] = {px, x.data()};
        float* hostOut[2] = {pout, out.data()};
        for (int c = 0; c < 2; ++c) {
            double us[2][2];  // [h2d, d2h][small, large]
            const size_t sizes[2] = {kCopySmallBytes, kCopyLargeBytes};
            for (int s = 0; s < 2; ++s) {
                us[0][s] = medianCallUs([&] {
                    CUDA_CHECK(cudaMemcpy(dx, hostIn[c], sizes[s],
                                          cudaMemcpyHostToDevice));
                });
                us[1][s] = medianCallUs([&] {
                    CUDA_CHECK(cudaMemcpy(hostOut[c], dout, sizes[s],
                                          cudaMemcpyDeviceToHost));
                });
            }
            m.h2d[c] = fitCopy(us[0][0], us[0][1]);
            m.d2h[c] = fitCopy(us[1][0], us[1][1]);
        }
    }
    {
        std::vector<float> in(kCpuBwElems, 1.0f), copy(kCpuBwElems);
        const double us = cpuUsPerCall([&] {
            copyCpu(in.data(), copy.data(), kCpuBwElems);
        });
        m.cpuGbPerS = 2.0 * kCpuBwElems * sizeof(float) / (us * 1.0e3);
        std::vector<float> ring(kCpuRing), ringOut(kCpuRing);
        for (int i = 0; i < kCpuRing; ++i) {
            ring[i] = static_cast<float>(i) / kCpuRing;
        }
        const double rateUs = cpuUsPerCall([&] {
            rateCpu(ring.data(), ringOut.data(), kCpuRateElems);
        });
        m.cpuGops = 2.0 * kCpuChain * static_cast<double>(kCpuRateElems) /
                    (rateUs * 1.0e3);
    }

    std::printf("\nPart 1: the constants, measured in this process\n");
    std::printf(
        "launch floor        %10.2f us     (Day 11: an empty kernel, launch "
        "to sync, median of %d)\n",
        m.floorUs, kTimedCalls);
    std::printf(
        "GPU bandwidth       %10.1f GB/s   (Day 11: a copy kernel, %zu MiB "
        "read + %zu MiB written)\n",
        m.dramGbPerS, kBwElems * sizeof(float) / kMiB,
        kBwElems * sizeof(float) / kMiB);
    std::printf(
        "GPU op rate         %10.1f Gop/s  (%d independent FMA chains a "
        "thread, an FMA 2 ops)\n",
        m.gpuGops, kRateChains);
    for (int c = 0; c < 2; ++c) {
        std::printf(
            "H2D %-8s        %10.2f us + bytes / %6.2f GB/s   (Day 53: fit "
            "from %zu KiB and %zu MiB)\n",
            kCopyNames[c], m.h2d[c].fixedUs, m.h2d[c].gbPerS,
            kCopySmallBytes / kKiB, kCopyLargeBytes / kMiB);
        std::printf(
            "D2H %-8s        %10.2f us + bytes / %6.2f GB/s   (Day 53: fit "
            "from %zu KiB and %zu MiB)\n",
            kCopyNames[c], m.d2h[c].fixedUs, m.d2h[c].gbPerS,
            kCopySmallBytes / kKiB, kCopyLargeBytes / kMiB);
    }
    std::printf(
        "CPU bandwidth       %10.2f GB/s   (Day 9's CPU: a copy loop, %zu MiB "
        "read + %zu MiB written)\n",
        m.cpuGbPerS, kCpuBwElems * sizeof(float) / kMiB,
        kCpuBwElems * sizeof(float) / kMiB);
    std::printf(
        "CPU op rate         %10.3f Gop/s  (Day 9's CPU: chains of %d "
        "multiply-adds, each 2 ops)\n",
        m.cpuGops, kCpuChain);

    // Part 2: the model's predictions for the five kernels, then the sweep
    // that measures them. Every kernel's result is checked against the CPU's
    // at every size before its times count.
    std::printf("\nPart 2: the model against the measurement\n");
    std::printf(
        "t_cpu(n) = n * max(bytes / CPU bandwidth, ops / CPU op rate)\n");
    std::printf(
        "t_gpu(n) = floor + n * max(bytes / GPU bandwidth, ops / GPU op "
        "rate), + per copy call: fixed + bytes / rate\n");
    std::printf(
        "crossover: the n where t_gpu = t_cpu; never where the GPU's cost per "
        "element is not below the CPU's\n");
    std::printf(
        "measured: the smallest n of the sweep (%zu to %zu, doubling) from "
        "which the GPU stays faster\n",
        kSweepMin, kSweepMax);

    std::vector<size_t> sizes;
    for (size_t n = kSweepMin; n <= kSweepMax; n *= 2) {
        sizes.push_back(n);
    }
    const size_t numSizes = sizes.size();
    for (int k = 0; k < kNumKernels; ++k) {
        const day30_kernel_info& info = kKernels[k];
        std::vector<double> cpuUs(numSizes), gpuUs[3];
        for (int v = 0; v < 3; ++v) {
            gpuUs[v].resize(numSizes);
        }
        for (size_t s = 0; s < numSizes; ++s) {
            const size_t n = sizes[s];
            const size_t outElems = (k == kDot) ? 1 : n;
            cpuUs[s] = cpuUsPerCall([&] {
                runCpu(k, x.data(), y.data(), want.data(), n);
            });

            // Correct before timed: one call, checked against the CPU's.
            CUDA_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float),
                                  cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float),
                                  cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemset(dout, 0, sizeof(float)));
            launchKernel(k, dx, dy, dout, n, 0);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaMemcpy(out.data(), dout, outElems * sizeof(float),
                                  cudaMemcpyDeviceToHost));
            const size_t bad = firstMismatch(out.data(), want.data(), outElems);
            if (bad != outElems) {
                std::fprintf(stderr,
                             "%s wrong at n = %zu, element %zu: got %.9g, "
                             "want %.9g\n",
                             info.name, n, bad, static_cast<double>(out[bad]),
                             static_cast<double>(want[bad]));
                return EXIT_FAILURE;
            }

            gpuUs[0][s] = medianCallUs([&] {
                launchKernel(k, dx, dy, dout, n, 0);
            });
            const float* ins[2][2] = {{px, py}, {x.data(), y.data()}};
            float* outs[2] = {pout, out.data()};
            for (int c = 0; c < 2; ++c) {
                gpuUs[1 + c][s] = medianCallUs([&] {
                    for (int j = 0; j < info.h2d_calls; ++j) {
                        CUDA_CHECK(cudaMemcpy(j == 0 ? dx : dy, ins[c][j],
                                              n * sizeof(float),
                                              cudaMemcpyHostToDevice));
                    }
                    launchKernel(k, dx, dy, dout, n, 0);
                    CUDA_CHECK(cudaMemcpy(outs[c], dout,
                                          outElems * sizeof(float),
                                          cudaMemcpyDeviceToHost));
                });
            }
        }

        const Line cpu = cpuLine(m, info.bytes, info.ops);
        const Line gpu[3] = {kernelGpuLine(m, k, -1), kernelGpuLine(m, k, 0),
                             kernelGpuLine(m, k, 1)};
        std::printf(
            "\n%s: %.0f bytes and %.0f ops per element; copies: %.0f bytes "
            "per element in (%d cudaMemcpy), %.0f per element + %.0f out (%d "
            "cudaMemcpy)\n",
            info.name, info.bytes, info.ops, info.h2d_bytes, info.h2d_calls,
            info.d2h_bytes, info.d2h_fixed, info.d2h_calls);
        std::printf("%-17s  %12s  %12s\n", "crossover", "predicted",
                    "measured");
        const char* variants[3] = {"kernel alone", "pinned copies",
                                   "pageable copies"};
        for (int v = 0; v < 3; ++v) {
            char predicted[48], measured[48];
            crossoverText(predicted, sizeof(predicted), crossover(gpu[v], cpu));
            crossoverText(measured, sizeof(measured),
                          measuredCrossover(sizes, gpuUs[v], cpuUs));
            std::printf("%-17s  %12s  %12s\n", variants[v], predicted,
                        measured);
        }
        std::printf("%10s  %27s  %27s  %27s  %27s\n", "n",
                    "CPU us, model, err", "kernel us, model, err",
                    "pinned us, model, err", "pageable us, model, err");
        for (int r = 0; r < kNumReportSizes; ++r) {
            const size_t n = kReportSizes[r];
            const size_t s = static_cast<size_t>(
                std::find(sizes.begin(), sizes.end(), n) - sizes.begin());
            if (s == numSizes) {
                continue;
            }
            const double meas[4] = {cpuUs[s], gpuUs[0][s], gpuUs[1][s],
                                    gpuUs[2][s]};
            const double model[4] = {at(cpu, n), at(gpu[0], n), at(gpu[1], n),
                                     at(gpu[2], n)};
            double err[4];
            for (int c = 0; c < 4; ++c) {
                err[c] = 100.0 * (meas[c] / model[c] - 1.0);
            }
            std::printf(
                "%10zu  %9.2f %9.2f %+6.0f%%  %9.2f %9.2f %+6.0f%%  %9.2f "
                "%9.2f %+6.0f%%  %9.2f %9.2f %+6.0f%%\n",
                n, meas[0], model[0], err[0], meas[1], model[1], err[1],
                meas[2], model[2], err[2], meas[3], model[3], err[3]);
        }
    }

    // Part 3: the learner's kernel, from its two counts alone.
    const double inBytes = std::max(exampleBytes - 4.0, 0.0);
    const double outBytes = std::min(exampleBytes, 4.0);
    std::printf(
        "\nPart 3: your kernel, %.2f bytes and %.2f ops per element "
        "(--bytes-per-element, --ops-per-element)\n",
        exampleBytes, exampleOps);
    std::printf(
        "copies assumed: %.2f bytes in per element (1 call), %.2f bytes out "
        "(1 call)\n",
        inBytes, outBytes);
    {
        const Line cpu = cpuLine(m, exampleBytes, exampleOps);
        const char* variants[3] = {"kernel alone", "pinned copies",
                                   "pageable copies"};
        std::printf("%-17s  %12s  %14s  %14s\n", "crossover", "predicted",
                    "GPU ns/elem", "CPU ns/elem");
        for (int v = 0; v < 3; ++v) {
            const Line gpu = gpuLine(m, exampleBytes, exampleOps, v - 1,
                                     inBytes, 1, outBytes, 1, 0.0);
            char predicted[48];
            crossoverText(predicted, sizeof(predicted), crossover(gpu, cpu));
            std::printf("%-17s  %12s  %14.4f  %14.4f\n", variants[v], predicted,
                        gpu.usPerElem * 1.0e3, cpu.usPerElem * 1.0e3);
        }
    }

    CUDA_CHECK(cudaFree(dx));
    CUDA_CHECK(cudaFree(dy));
    CUDA_CHECK(cudaFree(dout));
    CUDA_CHECK(cudaFreeHost(px));
    CUDA_CHECK(cudaFreeHost(py));
    CUDA_CHECK(cudaFreeHost(pout));
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
