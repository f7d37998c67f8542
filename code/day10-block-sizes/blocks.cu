// SPDX-License-Identifier: MIT
//
// Day 10: block sizes, measured without fooling yourself.
//
// Two kernels, eleven block sizes each, every configuration timed five times
// with Day 9's timeKernel, so each mean comes with the spread of its own five
// timings beside it:
//
//   vectorAdd   Day 9's kernel at its full n: 12 bytes per element, one add.
//               It waits on memory, but at its best block sizes it is held
//               by memory latency (the loads it keeps in flight) more than
//               by bandwidth; below them the rate at which the GPU starts
//               blocks sets the time, above them the SMs wait on whole
//               blocks to retire, and the block size moves the time by
//               several times (the README's "Why"). The table's heading
//               keeps the course's word, "memory-bound".
//   fmaChains   eight independent chains of fused multiply-adds per thread:
//               compute-bound, so idle lanes in a warp cost time directly.
//
// For each configuration it prints the mean, the spread (max/min - 1 of the
// five), the rate (GB/s or GFLOP/s), the theoretical occupancy the CUDA
// occupancy API gives for that block size, and whether the configuration is
// within noise of the best. Then the block size the occupancy API itself
// suggests, timed the same way.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o blocks blocks.cu
// Run:   ./blocks

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

// Day 9's n: 16 Mi elements and 611 more. No block size below divides it, so
// every configuration launches a partial last block and the bounds check runs.
constexpr size_t kElems = 16ull * 1024ull * 1024ull + 611ull;
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;
// timeKernel calls per configuration. One call is a mean of kTimedRuns; five
// of them give a spread, and a difference smaller than the spread is no
// difference.
constexpr int kRepeats = 5;
constexpr float kRelTolerance = 1e-5f;

// The block sizes, in threads. All are whole warps except 100: four warps,
// the last with 4 threads working and 28 lanes idle.
constexpr int kBlockSizes[] = {32, 64, 96, 100, 128, 192, 256, 384, 512, 768, 1024};
constexpr int kNumBlockSizes = 11;

// The FMA kernel's work per element: kFmaChains independent chains of
// kFmaSteps fused multiply-adds, 2 flops each. Independent chains let one
// warp issue a new FMA every cycle instead of waiting out the ~4-cycle
// latency of the previous one, so the kernel is limited by the FMA units.
//
// Sized by arithmetic to take about 1 ms on an H200: 132 SMs x 128 FP32
// lanes x 2 flops x 1.98 GHz = 66.9 TFLOP/s at the boost clock, and
// kElems x 8 x 256 x 2 = 16,777,827 x 4,096 = 6.87e10 flops, so 1.03 ms at
// that peak. The README gives the time it measured.
constexpr int kFmaChains = 8;
constexpr int kFmaSteps = 256;
constexpr int kFmaFlopsPerElement = 2 * kFmaChains * kFmaSteps;
// The chains start from a value that repeats every kFmaPeriod elements, so
// the CPU reference computes kFmaPeriod results and checks all n against them.
constexpr int kFmaPeriod = 1024;
constexpr float kFmaMul = 0.999f;
constexpr float kFmaAdd = 0.001f;

static_assert(sizeof(kBlockSizes) / sizeof(kBlockSizes[0]) == kNumBlockSizes,
              "kNumBlockSizes counts the block sizes");
static_assert((kFmaPeriod & (kFmaPeriod - 1)) == 0,
              "the start value's scale 1/kFmaPeriod is exact");
static_assert(kElems % 32 != 0,
              "n must leave a partial block at every block size");

// Blocks needed to cover n elements with `threads` per block, rounded up.
constexpr int blocksFor(size_t n, int threads) {
    return static_cast<int>((n + threads - 1) / threads);
}

// out[i] = a[i] + b[i], one thread per element: Day 9's kernel unchanged.
// 12 bytes move for one add, so with enough warps resident the memory system
// sets the pace; how many are resident depends on the block size.
//
// Needs gridDim.x * blockDim.x >= n. The body sits inside the guard rather
// than after an early return (CUDA-CODE-STYLE.md rule 7).
__global__ void vectorAdd(const float* a, const float* b, float* out,
                          size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i];
    }
}

// out[i] = the sum of kFmaChains chains, each acc = acc * mul + add repeated
// kFmaSteps times from a start that depends on i % kFmaPeriod.
//
// Four bytes written per 4,096 flops: nothing here waits on memory. What it
// waits on is the FMA units, so a warp with idle lanes (block size 100) pays
// for lanes that do no work. mul and add are arguments, so the compiler
// cannot fold the chains away.
//
// Needs gridDim.x * blockDim.x >= n.
__global__ void fmaChains(float* out, size_t n, float mul, float add) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < n) {
        const float start =
            static_cast<float>(i % kFmaPeriod) * (1.0f / kFmaPeriod);
        float acc[kFmaChains];
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) {
            acc[c] = start + static_cast<float>(c);
        }
#pragma unroll 16
        for (int s = 0; s < kFmaSteps; ++s) {
#pragma unroll
            for (int c = 0; c < kFmaChains; ++c) {
                acc[c] = fmaf(acc[c], mul, add);
            }
        }
        float sum = 0.0f;
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) {
            sum += acc[c];
        }
        out[i] = sum;
    }
}

// The CPU reference for vectorAdd: one thread, a plain loop.
static void vectorAddCpu(const float* a, const float* b, float* out,
                         size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = a[i] + b[i];
    }
}

// The CPU reference for fmaChains: the kFmaPeriod distinct results, element
// i's being table[i % kFmaPeriod]. std::fmaf rounds once, as the GPU's FMA
// does, and the chains are summed in the kernel's order.
static void fmaChainsCpu(float* table) {
    for (int p = 0; p < kFmaPeriod; ++p) {
        const float start = static_cast<float>(p) * (1.0f / kFmaPeriod);
        float acc[kFmaChains];
        for (int c = 0; c < kFmaChains; ++c) {
            acc[c] = start + static_cast<float>(c);
        }
        for (int s = 0; s < kFmaSteps; ++s) {
            for (int c = 0; c < kFmaChains; ++c) {
                acc[c] = std::fmaf(acc[c], kFmaMul, kFmaAdd);
            }
        }
        float sum = 0.0f;
        for (int c = 0; c < kFmaChains; ++c) {
            sum += acc[c];
        }
        table[p] = sum;
    }
}

// What the occupancy API says about one kernel: how many blocks of
// `threads` fit on one SM at once, given its registers, shared memory and
// the SM's limits. Theoretical occupancy is those blocks' warps over the
// most warps an SM holds; a block of 100 threads occupies 4 whole warps.
static cudaError_t blocksPerSm(const void* kernel, int threads, int* blocks) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel,
                                                         threads, 0);
}

// The block size cudaOccupancyMaxPotentialBlockSize suggests for a kernel:
// the size that gives the highest theoretical occupancy. It tries sizes from
// the largest down and keeps the first of any tie (cuda_runtime.h), so a
// kernel that reaches full occupancy at several sizes gets the largest. The
// minGridSize it also returns, the fewest blocks that fill every SM at that
// size, is dropped here: this lesson sizes every grid to cover n instead.
static cudaError_t suggestedBlockSize(const void* kernel, int* threads) {
    int minGridSize = 0;
    return cudaOccupancyMaxPotentialBlockSize(&minGridSize, threads, kernel, 0,
                                              0);
}

// The SM's limits the occupancy column is read against.
static cudaError_t smLimits(int device, int* sms, int* maxThreads,
                            int* maxBlocks) {
    cudaError_t err =
        cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess) {
        err = cudaDeviceGetAttribute(
            maxThreads, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    }
    if (err == cudaSuccess) {
        err = cudaDeviceGetAttribute(
            maxBlocks, cudaDevAttrMaxBlocksPerMultiprocessor, device);
    }
    return err;
}

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (src/main.rs) instead of as a program: the same
// kernels, occupancy queries and CPU reference through blocks.h. Each
// launcher returns the launch's own status.
#include "blocks.h"

static const void* kernelOf(day10_kernel kernel) {
    return kernel == DAY10_FMA_CHAINS ? reinterpret_cast<const void*>(fmaChains)
                                      : reinterpret_cast<const void*>(vectorAdd);
}

extern "C" cudaError_t day10_vector_add(const float* a, const float* b,
                                        float* out, size_t n, int threads,
                                        cudaStream_t stream) {
    vectorAdd<<<blocksFor(n, threads), threads, 0, stream>>>(a, b, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t day10_fma_chains(float* out, size_t n, int threads,
                                        cudaStream_t stream) {
    fmaChains<<<blocksFor(n, threads), threads, 0, stream>>>(out, n, kFmaMul,
                                                             kFmaAdd);
    return cudaGetLastError();
}

extern "C" cudaError_t day10_blocks_per_sm(day10_kernel kernel, int threads,
                                           int* blocks) {
    return blocksPerSm(kernelOf(kernel), threads, blocks);
}

extern "C" cudaError_t day10_suggested_block_size(day10_kernel kernel,
                                                  int* threads) {
    return suggestedBlockSize(kernelOf(kernel), threads);
}

extern "C" cudaError_t day10_sm_limits(int device, int* sms, int* max_threads,
                                       int* max_blocks) {
    return smLimits(device, sms, max_threads, max_blocks);
}

extern "C" cudaError_t day10_fill_bytes(float* out, int value, size_t n) {
    return cudaMemset(out, value, n * sizeof(float));
}

extern "C" void day10_fma_reference(float* table) { fmaChainsCpu(table); }

extern "C" void day10_vector_add_cpu(const float* a, const float* b,
                                     float* out, size_t n) {
    vectorAddCpu(a, b, out, n);
}

extern "C" day10_constants day10_lesson_constants(void) {
    day10_constants c;
    c.elems = kElems;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    c.repeats = kRepeats;
    c.rel_tolerance = kRelTolerance;
    c.block_sizes = kBlockSizes;
    c.num_block_sizes = kNumBlockSizes;
    c.fma_chains = kFmaChains;
    c.fma_steps = kFmaSteps;
    c.fma_period = kFmaPeriod;
    c.fma_flops_per_element = kFmaFlopsPerElement;
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

// One configuration's numbers, as the tables print them.
struct Row {
    int threads;
    int blocksPerSm;
    double occupancy;  // 0 to 1
    double meanMs;     // mean of the kRepeats timeKernel results
    double spread;     // max/min - 1 of the same results
    double rate;       // GB/s or GFLOP/s
};

// Times `launch` kRepeats times with timeKernel; fills the mean and spread.
template <typename LaunchFn>
static void timeRepeats(Row* row, LaunchFn launch) {
    double sum = 0.0;
    double lo = 0.0;
    double hi = 0.0;
    for (int r = 0; r < kRepeats; ++r) {
        const double ms = static_cast<double>(timeKernel(launch));
        sum += ms;
        lo = (r == 0 || ms < lo) ? ms : lo;
        hi = (r == 0 || ms > hi) ? ms : hi;
    }
    row->meanMs = sum / kRepeats;
    row->spread = hi / lo - 1.0;
}

// Whose launches a table times, and how its results are checked.
enum class Kernel { VectorAdd, FmaChains };

struct Buffers {
    float* a;
    float* b;
    float* out;
};

// One configuration: occupancy, kRepeats timings, then the result checked
// against the CPU's. The output is set to NaN first (every byte 0xFF), so a
// configuration whose grid missed an element cannot pass on the previous
// configuration's results. Exits 1 on a wrong result.
static Row measure(Kernel kernel, int threads, int maxWarpsPerSm,
                   const Buffers& d, std::vector<float>& h_out,
                   const std::vector<float>& h_want,
                   const std::vector<float>& fmaTable) {
    const size_t bytes = kElems * sizeof(float);
    const int blocks = blocksFor(kElems, threads);
    const void* fn = kernel == Kernel::VectorAdd
                         ? reinterpret_cast<const void*>(vectorAdd)
                         : reinterpret_cast<const void*>(fmaChains);
    Row row = {};
    row.threads = threads;
    CUDA_CHECK(blocksPerSm(fn, threads, &row.blocksPerSm));
    const int warpsPerBlock = (threads + 31) / 32;
    row.occupancy = static_cast<double>(row.blocksPerSm * warpsPerBlock) /
                    static_cast<double>(maxWarpsPerSm);

    CUDA_CHECK(cudaMemset(d.out, 0xFF, bytes));
    if (kernel == Kernel::VectorAdd) {
        timeRepeats(&row, [&] {
            vectorAdd<<<blocks, threads>>>(d.a, d.b, d.out, kElems);
        });
        row.rate = 12.0 * static_cast<double>(kElems) / (row.meanMs * 1.0e6);
    } else {
        timeRepeats(&row, [&] {
            fmaChains<<<blocks, threads>>>(d.out, kElems, kFmaMul, kFmaAdd);
        });
        row.rate = static_cast<double>(kFmaFlopsPerElement) *
                   static_cast<double>(kElems) / (row.meanMs * 1.0e6);
    }

    CUDA_CHECK(cudaMemcpy(h_out.data(), d.out, bytes, cudaMemcpyDeviceToHost));
    size_t bad = kElems;
    float want = 0.0f;
    if (kernel == Kernel::VectorAdd) {
        bad = firstMismatch(h_out.data(), h_want.data(), kElems, kRelTolerance);
        want = bad < kElems ? h_want[bad] : 0.0f;
    } else {
        for (size_t i = 0; i < kElems && bad == kElems; i += kFmaPeriod) {
            const size_t len = (kElems - i < static_cast<size_t>(kFmaPeriod))
                                   ? kElems - i
                                   : static_cast<size_t>(kFmaPeriod);
            const size_t at = firstMismatch(h_out.data() + i, fmaTable.data(),
                                            len, kRelTolerance);
            if (at < len) {
                bad = i + at;
                want = fmaTable[at];
            }
        }
    }
    if (bad != kElems) {
        std::fprintf(stderr,
                     "%s wrong at %zu with %d threads per block: got %.9g, "
                     "want %.9g\n",
                     kernel == Kernel::VectorAdd ? "vectorAdd" : "fmaChains",
                     bad, threads, h_out[bad], want);
        std::exit(EXIT_FAILURE);
    }
    return row;
}

// Prints one table: the header, the eleven block sizes, then the occupancy
// API's suggestion. The best is the lowest mean of the eleven; a row is
// within noise of it when their difference is smaller than the larger of
// the two spreads.
static void printTable(const char* title, const char* rateUnit,
                       const Row* rows, const Row& suggested) {
    int best = 0;
    for (int s = 1; s < kNumBlockSizes; ++s) {
        if (rows[s].meanMs < rows[best].meanMs) {
            best = s;
        }
    }
    std::printf("%s\n", title);
    std::printf("%8s %10s %10s %11s %8s %9s %9s  %s\n", "threads",
                "blocks/SM", "occupancy", "mean (ms)", "spread", rateUnit,
                "vs best", "within noise");
    for (int s = 0; s <= kNumBlockSizes; ++s) {
        const Row& r = s < kNumBlockSizes ? rows[s] : suggested;
        if (s == kNumBlockSizes) {
            std::printf(
                "the occupancy API's suggestion "
                "(cudaOccupancyMaxPotentialBlockSize):\n");
        }
        const double diff = r.meanMs / rows[best].meanMs - 1.0;
        const double noise =
            r.spread > rows[best].spread ? r.spread : rows[best].spread;
        const char* verdict = (s == best) ? "best" : (diff < noise ? "yes" : "no");
        std::printf("%8d %10d %9.1f%% %11.5f %7.2f%% %9.1f %+8.1f%%  %s\n",
                    r.threads, r.blocksPerSm, 100.0 * r.occupancy, r.meanMs,
                    100.0 * r.spread, r.rate, 100.0 * diff, verdict);
    }
    std::printf("\n");
}

int main() {
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = 0;
    int maxThreadsPerSm = 0;
    int maxBlocksPerSm = 0;
    CUDA_CHECK(smLimits(0, &sms, &maxThreadsPerSm, &maxBlocksPerSm));

    const size_t bytes = kElems * sizeof(float);
    std::vector<float> h_a(kElems);
    std::vector<float> h_b(kElems);
    std::vector<float> h_out(kElems);
    std::vector<float> h_want(kElems);
    std::vector<float> fmaTable(kFmaPeriod);
    for (size_t i = 0; i < kElems; ++i) {
        h_a[i] = static_cast<float>(i % 97) * 0.5f;
        h_b[i] = static_cast<float>(i % 13);
    }
    vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), kElems);
    fmaChainsCpu(fmaTable.data());

    Buffers d = {nullptr, nullptr, nullptr};
    CUDA_CHECK(cudaMalloc(&d.a, bytes));
    CUDA_CHECK(cudaMalloc(&d.b, bytes));
    CUDA_CHECK(cudaMalloc(&d.out, bytes));
    CUDA_CHECK(cudaMemcpy(d.a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d.b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    const int maxWarpsPerSm = maxThreadsPerSm / 32;
    Row addRows[kNumBlockSizes];
    Row fmaRows[kNumBlockSizes];
    for (int s = 0; s < kNumBlockSizes; ++s) {
        addRows[s] = measure(Kernel::VectorAdd, kBlockSizes[s], maxWarpsPerSm,
                             d, h_out, h_want, fmaTable);
    }
    int addSuggested = 0;
    CUDA_CHECK(suggestedBlockSize(reinterpret_cast<const void*>(vectorAdd),
                                  &addSuggested));
    const Row addApi = measure(Kernel::VectorAdd, addSuggested, maxWarpsPerSm,
                               d, h_out, h_want, fmaTable);
    for (int s = 0; s < kNumBlockSizes; ++s) {
        fmaRows[s] = measure(Kernel::FmaChains, kBlockSizes[s], maxWarpsPerSm,
                             d, h_out, h_want, fmaTable);
    }
    int fmaSuggested = 0;
    CUDA_CHECK(suggestedBlockSize(reinterpret_cast<const void*>(fmaChains),
                                  &fmaSuggested));
    const Row fmaApi = measure(Kernel::FmaChains, fmaSuggested, maxWarpsPerSm,
                               d, h_out, h_want, fmaTable);

    CUDA_CHECK(cudaFree(d.a));
    CUDA_CHECK(cudaFree(d.b));
    CUDA_CHECK(cudaFree(d.out));

    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf("%d SMs, each holding at most %d threads and %d blocks\n", sms,
                maxThreadsPerSm, maxBlocksPerSm);
    std::printf(
        "n = %zu elements; each configuration is timed %d times with "
        "timeKernel,\neach a mean of %d runs after %d warm-ups\n\n",
        kElems, kRepeats, kTimedRuns, kWarmupRuns);

    printTable("vectorAdd, 12 bytes per element (memory-bound)", "GB/s",
               addRows, addApi);
    char fmaTitle[128];
    std::snprintf(fmaTitle, sizeof(fmaTitle),
                  "fmaChains, %d chains x %d FMAs = %d flops per element "
                  "(compute-bound)",
                  kFmaChains, kFmaSteps, kFmaFlopsPerElement);
    printTable(fmaTitle, "GFLOP/s", fmaRows, fmaApi);

    std::printf(
        "spread is max/min - 1 of the %d timings. A configuration is within\n"
        "noise of the best when its difference from the best is smaller than\n"
        "the larger of the two spreads: a difference smaller than the spread\n"
        "is no difference.\n",
        kRepeats);
    return EXIT_SUCCESS;
}
#endif  // LESSON_NO_MAIN
