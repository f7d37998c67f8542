// SPDX-License-Identifier: MIT
//
// Day 11: where row 4 went.
//
// Day 9's row 4 is vectorAdd, warmed up, at full n: 12 bytes per element,
// two floats read and one written. This program asks how close that is to
// what the memory can do, and what the number really measures:
//
//   row 4 again          the kernel's time and its effective rate
//   the peak             memory clock x 2 (double data rate) x bus width
//   the copy reference   cudaMemcpy device to device, and a float4 copy kernel
//   float4 vectorAdd     the same add with 16-byte loads and stores
//   row 4 against n      from 64 Ki elements, where the three arrays sit in
//                        the L2 cache, to full n, where they do not
//   a cold L2            full n again with the L2 flushed before each launch
//
// Every rate counts the bytes read plus the bytes written, in GB/s (10^9
// bytes per second). A rate above the memory's theoretical peak, measured
// on buffers larger than the L2, is a measurement error, and the program
// exits 1 on one.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o row4 row4.cu
// Run:   ./row4
//        tools/gpu-phases/ncu.sh records it under Nsight Compute (see README.md)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// Day 9's n and block size, so row 4 here is row 4 there.
constexpr size_t kElems = 16ull * 1024ull * 1024ull + 611ull;
constexpr int kThreadsPerBlock = 256;
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
constexpr float kRelTolerance = 1e-5f;

// Row 4 against n: 64 Ki elements doubling to 16 Mi, then full n. Each is a
// prefix of the kElems buffers, so no row allocates.
constexpr size_t kSweep[] = {
    64ull * 1024ull,         128ull * 1024ull,        256ull * 1024ull,
    512ull * 1024ull,        1024ull * 1024ull,       2ull * 1024ull * 1024ull,
    4ull * 1024ull * 1024ull, 8ull * 1024ull * 1024ull, 16ull * 1024ull * 1024ull,
    kElems};
constexpr int kNumSweep = 10;

static_assert(sizeof(kSweep) / sizeof(kSweep[0]) == kNumSweep,
              "kNumSweep counts the sweep sizes");
static_assert(kSweep[kNumSweep - 1] == kElems, "the sweep ends at full n");
static_assert(kElems % 4 != 0,
              "n must leave a tail the float4 kernels handle one by one");

// Bytes one element moves: vectorAdd reads two floats and writes one; a copy
// reads one and writes one.
constexpr double kAddBytesPerElem = 12.0;
constexpr double kCopyBytesPerElem = 8.0;

constexpr int blocksFor(size_t n) {
    return static_cast<int>((n + kThreadsPerBlock - 1) / kThreadsPerBlock);
}

// The number of float4s in n floats, and the floats left over.
constexpr size_t vec4Count(size_t n) { return n / 4; }
constexpr size_t vec4Tail(size_t n) { return n % 4; }
constexpr int blocksForVec4(size_t n) {
    return blocksFor(vec4Count(n) > vec4Tail(n) ? vec4Count(n) : vec4Tail(n));
}

// out[i] = a[i] + b[i], one thread per element: Day 9's kernel unchanged.
//
// Needs gridDim.x * blockDim.x >= n.
__global__ void vectorAdd(const float* a, const float* b, float* out,
                          size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i];
    }
}

// The same add, four elements per thread through 16-byte loads and stores:
// a quarter of the memory instructions for the same bytes. cudaMalloc's
// pointers are 256-byte aligned, so the float4 casts are aligned. The n % 4
// floats past the last float4 are added one each by the first threads.
//
// Needs gridDim.x * blockDim.x >= max(n / 4, n % 4).
__global__ void vectorAdd4(const float* a, const float* b, float* out,
                           size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const size_t quads = n / 4;
    if (i < quads) {
        const float4 x = reinterpret_cast<const float4*>(a)[i];
        const float4 y = reinterpret_cast<const float4*>(b)[i];
        reinterpret_cast<float4*>(out)[i] =
            make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    if (i < n % 4) {
        const size_t t = quads * 4 + i;
        out[t] = a[t] + b[t];
    }
}

// dst[i] = src[i] through float4s: the least a kernel can do with the same
// bytes, 8 per element. Its rate is the reference vectorAdd is held against.
//
// Needs gridDim.x * blockDim.x >= max(n / 4, n % 4).
__global__ void copy4(const float* src, float* dst, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    const size_t quads = n / 4;
    if (i < quads) {
        reinterpret_cast<float4*>(dst)[i] =
            reinterpret_cast<const float4*>(src)[i];
    }
    if (i < n % 4) {
        dst[quads * 4 + i] = src[quads * 4 + i];
    }
}

// Reads every float4 of `buf` and writes nothing unless a value equals
// `never` (the buffer is zeroed, and never is not zero). Reading twice the
// L2's size leaves only this buffer's clean lines in the L2: no line of
// vectorAdd's arrays survives, and none is dirty, so the next launch starts
// cold without first paying for write-backs a write-based flush would leave.
//
// Needs gridDim.x * blockDim.x >= quads.
__global__ void readToFlush(const float4* buf, size_t quads, float never,
                            float* sink) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < quads) {
        const float4 v = buf[i];
        if (v.x + v.y + v.z + v.w == never) {
            *sink = never;
        }
    }
}

// The CPU reference: one thread, a plain loop.
static void vectorAddCpu(const float* a, const float* b, float* out,
                         size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = a[i] + b[i];
    }
}

// The memory facts this page leans on, from cudaDeviceGetAttribute. CUDA 13
// dropped memoryClockRate from cudaDeviceProp (memoryBusWidth is still
// there); both attributes remain, so both are read that way. A device that
// reports 0 for either has no peak this program can compute, and the
// report says "not available".
struct MemoryFacts {
    int memoryClockKhz;
    int busWidthBits;
    int l2Bytes;
};

static cudaError_t memoryFacts(int device, MemoryFacts* f) {
    cudaError_t err = cudaDeviceGetAttribute(
        &f->memoryClockKhz, cudaDevAttrMemoryClockRate, device);
    if (err == cudaSuccess) {
        err = cudaDeviceGetAttribute(&f->busWidthBits,
                                     cudaDevAttrGlobalMemoryBusWidth, device);
    }
    if (err == cudaSuccess) {
        err = cudaDeviceGetAttribute(&f->l2Bytes, cudaDevAttrL2CacheSize,
                                     device);
    }
    return err;
}

// GB/s from the clock and the bus: two transfers per clock (double data
// rate) of busWidthBits / 8 bytes each. 0 when the device gives no figure.
static double peakGbS(const MemoryFacts& f) {
    return 2.0 * static_cast<double>(f.memoryClockKhz) * 1.0e3 *
           (static_cast<double>(f.busWidthBits) / 8.0) / 1.0e9;
}

// The flush buffer's size: twice the L2, and at least 1 MiB.
static size_t flushBytes(const MemoryFacts& f) {
    const size_t twice = 2 * static_cast<size_t>(f.l2Bytes);
    return twice > (1u << 20) ? twice : (1u << 20);
}

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (src/main.rs) instead of as a program: the same
// kernels, facts and CPU loop through row4.h. Each launcher returns the
// launch's own status.
#include "row4.h"

extern "C" cudaError_t day11_vector_add(const float* a, const float* b,
                                        float* out, size_t n,
                                        cudaStream_t stream) {
    vectorAdd<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(a, b, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t day11_vector_add4(const float* a, const float* b,
                                         float* out, size_t n,
                                         cudaStream_t stream) {
    vectorAdd4<<<blocksForVec4(n), kThreadsPerBlock, 0, stream>>>(a, b, out,
                                                                    n);
    return cudaGetLastError();
}

extern "C" cudaError_t day11_copy4(const float* src, float* dst, size_t n,
                                   cudaStream_t stream) {
    copy4<<<blocksForVec4(n), kThreadsPerBlock, 0, stream>>>(src, dst, n);
    return cudaGetLastError();
}

extern "C" cudaError_t day11_read_to_flush(const float* buf, size_t bytes,
                                           float* sink, cudaStream_t stream) {
    const size_t quads = bytes / sizeof(float4);
    readToFlush<<<blocksFor(quads), kThreadsPerBlock, 0, stream>>>(
        reinterpret_cast<const float4*>(buf), quads, 1.0f, sink);
    return cudaGetLastError();
}

extern "C" cudaError_t day11_fill_bytes(float* out, int value, size_t n) {
    return cudaMemset(out, value, n * sizeof(float));
}

extern "C" cudaError_t day11_copy_device(float* dst, const float* src,
                                         size_t n) {
    return cudaMemcpy(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice);
}

extern "C" cudaError_t day11_memory_facts_of(int device,
                                             day11_memory_facts* out) {
    MemoryFacts f = {0, 0, 0};
    const cudaError_t err = memoryFacts(device, &f);
    out->memory_clock_khz = f.memoryClockKhz;
    out->bus_width_bits = f.busWidthBits;
    out->l2_bytes = f.l2Bytes;
    out->peak_gb_s = peakGbS(f);
    out->flush_bytes = flushBytes(f);
    return err;
}

extern "C" void day11_vector_add_cpu(const float* a, const float* b,
                                     float* out, size_t n) {
    vectorAddCpu(a, b, out, n);
}

extern "C" int day11_blocks_for(size_t n) { return blocksFor(n); }

extern "C" day11_constants day11_lesson_constants(void) {
    day11_constants c;
    c.elems = kElems;
    c.threads_per_block = kThreadsPerBlock;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.rel_tolerance = kRelTolerance;
    c.sweep = kSweep;
    c.num_sweep = kNumSweep;
    return c;
}
#else

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

// Copies `d_got` back and compares it with `want`; prints the first wrong
// element and exits 1 on a mismatch.
static void checkResult(const char* what, const float* d_got,
                        const float* want, std::vector<float>& h_got) {
    CUDA_CHECK(cudaMemcpy(h_got.data(), d_got, kElems * sizeof(float),
                          cudaMemcpyDeviceToHost));
    const size_t bad =
        firstMismatch(h_got.data(), want, kElems, kRelTolerance);
    if (bad != kElems) {
        std::fprintf(stderr, "%s wrong at %zu: got %.9g, want %.9g\n", what,
                     bad, h_got[bad], want[bad]);
        std::exit(EXIT_FAILURE);
    }
}

// The cold-L2 row and the same loop without the flush: vectorAdd at full
// n, one event pair around each launch, mean of kTimedRuns after
// kWarmupRuns. With `flush`, readToFlush runs before each launch, queued
// ahead of the start event, so the start event completes only once the
// flush has finished: the flush is outside every timed span. timeKernel
// cannot do this, because its ten launches share one pair of events and
// nothing can go between them without being timed. The row without the
// flush is not a control: with nothing queued ahead, its start event is
// stamped on an idle stream, so its span also holds the host's launch
// submission, which the flush queued ahead hides (README.md).
static float timeEachLaunch(bool flush, const float* d_a, const float* d_b,
                            float* d_out, const float4* d_flush,
                            size_t flushQuads, float* d_sink) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    const int blocks = blocksFor(kElems);
    float total = 0.0f;
    for (int i = 0; i < kWarmupRuns + kTimedRuns; ++i) {
        if (flush) {
            readToFlush<<<blocksFor(flushQuads), kThreadsPerBlock>>>(
                d_flush, flushQuads, 1.0f, d_sink);
        }
        CUDA_CHECK(cudaEventRecord(start));
        vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (i >= kWarmupRuns) {
            total += ms;
        }
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return total / kTimedRuns;
}

// GB/s for `bytesPerElem` bytes per element over n elements in ms.
static double gbS(double bytesPerElem, size_t n, double ms) {
    return bytesPerElem * static_cast<double>(n) / (ms * 1.0e6);
}

// `  label   ms   GB/s   of peak` for the measurements at full n.
static void printRow(const char* label, double ms, double rate, double peak) {
    if (peak > 0.0) {
        std::printf("  %-44s %9.5f %9.1f %7.1f%%\n", label, ms, rate,
                    100.0 * rate / peak);
    } else {
        std::printf("  %-44s %9.5f %9.1f %8s\n", label, ms, rate, "-");
    }
}

int main() {
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    MemoryFacts facts = {0, 0, 0};
    CUDA_CHECK(memoryFacts(0, &facts));
    const double peak = peakGbS(facts);

    const size_t bytes = kElems * sizeof(float);
    const int blocks = blocksFor(kElems);
    const int blocks4 = blocksForVec4(kElems);

    std::vector<float> h_a(kElems);
    std::vector<float> h_b(kElems);
    std::vector<float> h_got(kElems);
    std::vector<float> h_want(kElems);
    for (size_t i = 0; i < kElems; ++i) {
        h_a[i] = static_cast<float>(i % 97) * 0.5f;
        h_b[i] = static_cast<float>(i % 13);
    }
    vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), kElems);

    float* d_a = nullptr;
    float* d_b = nullptr;
    float* d_out = nullptr;
    float* d_copy = nullptr;
    float* d_flush = nullptr;
    float* d_sink = nullptr;
    const size_t fBytes = flushBytes(facts);
    const size_t flushQuads = fBytes / sizeof(float4);
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMalloc(&d_copy, bytes));
    CUDA_CHECK(cudaMalloc(&d_flush, fBytes));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_flush, 0, fBytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    // The check comes first, and with it vectorAdd's first launch, at full
    // n: tools/gpu-phases/ncu.sh profiles the first 14 vectorAdd launches, this
    // one and row 4's 3 warm-ups and 10 timed runs, all at full n.
    vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    CUDA_CHECK(cudaGetLastError());
    checkResult("vectorAdd", d_out, h_want.data(), h_got);

    // Row 4, as Day 9 times it.
    const float rowMs = timeKernel([&] {
        vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });

    // The copy reference: the runtime's device-to-device copy, then a kernel
    // that does nothing but move float4s. Each destination starts as NaN so
    // a copy that did not happen cannot pass the check.
    CUDA_CHECK(cudaMemset(d_copy, 0xFF, bytes));
    const float memcpyMs = timeKernel([&] {
        CUDA_CHECK(cudaMemcpy(d_copy, d_a, bytes, cudaMemcpyDeviceToDevice));
    });
    checkResult("cudaMemcpy", d_copy, h_a.data(), h_got);
    CUDA_CHECK(cudaMemset(d_copy, 0xFF, bytes));
    const float copyMs = timeKernel(
        [&] { copy4<<<blocks4, kThreadsPerBlock>>>(d_a, d_copy, kElems); });
    checkResult("copy4", d_copy, h_a.data(), h_got);

    // vectorAdd with float4 loads and stores.
    CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));
    const float add4Ms = timeKernel([&] {
        vectorAdd4<<<blocks4, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });
    checkResult("vectorAdd4", d_out, h_want.data(), h_got);

    // Row 4 against n, on prefixes of the same buffers.
    float sweepMs[kNumSweep];
    for (int s = 0; s < kNumSweep; ++s) {
        const size_t n = kSweep[s];
        sweepMs[s] = timeKernel([&] {
            vectorAdd<<<blocksFor(n), kThreadsPerBlock>>>(d_a, d_b, d_out, n);
        });
    }

    // Full n once more, one event pair per launch: first without a flush
    // (not a control: see timeEachLaunch), then with the L2 flushed before
    // each launch.
    const float eachMs =
        timeEachLaunch(false, d_a, d_b, d_out,
                       reinterpret_cast<const float4*>(d_flush), flushQuads,
                       d_sink);
    const float coldMs =
        timeEachLaunch(true, d_a, d_b, d_out,
                       reinterpret_cast<const float4*>(d_flush), flushQuads,
                       d_sink);
    checkResult("vectorAdd", d_out, h_want.data(), h_got);

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_copy));
    CUDA_CHECK(cudaFree(d_flush));
    CUDA_CHECK(cudaFree(d_sink));

    const double l2Mib = static_cast<double>(facts.l2Bytes) / (1024.0 * 1024.0);
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf(
        "n = %zu floats, %.1f MiB per buffer, %d threads/block; L2 cache "
        "%.1f MiB\n",
        kElems, static_cast<double>(bytes) / (1024.0 * 1024.0),
        kThreadsPerBlock, l2Mib);
    std::printf(
        "Rates count bytes read plus bytes written, in GB/s (10^9 bytes/s).\n"
        "Times are means of %d runs after %d warm-ups.\n\n",
        kTimedRuns, kWarmupRuns);

    std::printf("The memory's theoretical peak\n");
    if (peak > 0.0) {
        std::printf(
            "  %d MHz memory clock x 2 (double data rate) x %d-bit bus = "
            "%.1f GB/s\n\n",
            facts.memoryClockKhz / 1000, facts.busWidthBits, peak);
    } else {
        std::printf(
            "  not available: the device reports no memory clock or bus "
            "width\n\n");
    }

    std::printf("%-46s %9s %9s %8s\n", "At full n", "ms", "GB/s", "of peak");
    printRow("row 4: vectorAdd, 12 bytes per element", rowMs,
             gbS(kAddBytesPerElem, kElems, rowMs), peak);
    printRow("cudaMemcpy device to device, 8 bytes", memcpyMs,
             gbS(kCopyBytesPerElem, kElems, memcpyMs), peak);
    printRow("copy kernel, float4, 8 bytes", copyMs,
             gbS(kCopyBytesPerElem, kElems, copyMs), peak);
    printRow("vectorAdd, float4 loads and stores", add4Ms,
             gbS(kAddBytesPerElem, kElems, add4Ms), peak);
    std::printf("\n");

    std::printf("Row 4 against n: while the three arrays fit in the L2\n");
    std::printf("%12s %16s %6s %11s %9s\n", "n", "3 arrays (MiB)", "in L2",
                "ms", "GB/s");
    for (int s = 0; s < kNumSweep; ++s) {
        const size_t arrays = 3 * kSweep[s] * sizeof(float);
        std::printf("%12zu %16.1f %6s %11.5f %9.1f\n", kSweep[s],
                    static_cast<double>(arrays) / (1024.0 * 1024.0),
                    arrays <= static_cast<size_t>(facts.l2Bytes) ? "yes" : "no",
                    static_cast<double>(sweepMs[s]),
                    gbS(kAddBytesPerElem, kSweep[s], sweepMs[s]));
    }
    std::printf("\n");

    std::printf(
        "Row 4 with a cold L2: one event pair per launch, the flush (reading\n"
        "%.1f MiB) before each start event\n",
        static_cast<double>(fBytes) / (1024.0 * 1024.0));
    printRow("per-launch events, no flush", eachMs,
             gbS(kAddBytesPerElem, kElems, eachMs), peak);
    printRow("per-launch events, L2 flushed before each", coldMs,
             gbS(kAddBytesPerElem, kElems, coldMs), peak);

    // The peak check. Only measurements whose bytes cannot all sit in the L2
    // are held to it; a sweep row inside the L2 is meant to exceed it.
    if (peak > 0.0) {
        struct Dram {
            const char* what;
            double rate;
        };
        std::vector<Dram> dram = {
            {"row 4", gbS(kAddBytesPerElem, kElems, rowMs)},
            {"cudaMemcpy", gbS(kCopyBytesPerElem, kElems, memcpyMs)},
            {"copy kernel", gbS(kCopyBytesPerElem, kElems, copyMs)},
            {"float4 vectorAdd", gbS(kAddBytesPerElem, kElems, add4Ms)},
            {"per-launch row 4", gbS(kAddBytesPerElem, kElems, eachMs)},
            {"cold-L2 row 4", gbS(kAddBytesPerElem, kElems, coldMs)},
        };
        for (int s = 0; s < kNumSweep; ++s) {
            if (3 * kSweep[s] * sizeof(float) >
                static_cast<size_t>(facts.l2Bytes)) {
                dram.push_back(
                    {"a sweep row past the L2",
                     gbS(kAddBytesPerElem, kSweep[s], sweepMs[s])});
            }
        }
        for (const Dram& d : dram) {
            if (d.rate > peak) {
                std::fprintf(stderr,
                             "measurement error: %s at %.1f GB/s exceeds the "
                             "theoretical peak of %.1f GB/s\n",
                             d.what, d.rate, peak);
                return EXIT_FAILURE;
            }
        }
    }
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
