// SPDX-License-Identifier: MIT
//
// Day 11's causes, measured. row4.cu's page explains five of its numbers;
// each explanation here gets the measurement that decides it:
//
//   the flush's control   one launch timed behind nothing, behind the
//                         read-only flush, and behind a spin kernel that
//                         touches no memory: what the start event stamps
//                         when nothing is queued ahead of it
//   more work per thread  vectorAdd with 1, 2, 4 and 8 scalar elements per
//                         thread (loads issued before any add), beside the
//                         float4 kernel at its own grid and at row 4's
//   the launch floor      the sweep's launches replayed in a CUDA graph, an
//                         empty kernel launched and replayed, and a kernel
//                         that only reads, replayed over 8 to 192 MiB
//   the copy ceiling      copy4 and cudaMemcpy over 1 GiB beside 64 MiB
//   the clocks            the SM and memory clocks (NVML) after every row,
//                         and the SM clock counted inside a one-block kernel
//                         that runs beside 40 launches of row 4
//
// and, for Nsight Compute (gpu-phases/why.sh), launches in a known order:
//   profile-sweep         each sweep size three times, back to back
//   profile-read          the read-only kernel over 24, 32 and 192 MiB
//   profile-full          copy4, vectorAdd4 and vectorAdd at full n, copy4
//                         over 1 GiB, each twice
//   profile-first [flush] the inputs copied in, then (with flush) the
//                         read-only flush, then vectorAdd three times
//
// It includes row4.cu itself (its main renamed), so the kernels, sizes and
// timing are the lesson's. Each figure is a line `LABEL: NUMBER`.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-row4 why-row4.cu
// Run:   ./why-row4 time | profile-sweep | profile-read | profile-full |
//        profile-first [flush]

#define main day11_lesson_main
#include "../../row4.cu"
#undef main

#include <dlfcn.h>

#include <string>

// out[i] = a[i] + b[i] for K elements per thread, blockDim.x apart, so a
// warp's K loads of each array are each coalesced. Every load is issued
// before any add: K independent loads in flight per thread and array.
template <int K>
__global__ void vectorAddPerThread(const float* a, const float* b, float* out,
                                   size_t n) {
    const size_t base =
        blockIdx.x * static_cast<size_t>(blockDim.x) * K + threadIdx.x;
    float x[K], y[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const size_t i = base + static_cast<size_t>(k) * blockDim.x;
        x[k] = i < n ? a[i] : 0.0f;
        y[k] = i < n ? b[i] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const size_t i = base + static_cast<size_t>(k) * blockDim.x;
        if (i < n) {
            out[i] = x[k] + y[k];
        }
    }
}

// A chain of dependent FMAs in one warp: busy for `steps` FMA latencies,
// touching no memory unless the result equals `never`, which it does not.
__global__ void spin(int steps, float never, float* sink) {
    float v = static_cast<float>(threadIdx.x);
    for (int s = 0; s < steps; ++s) {
        v = fmaf(v, 0.999999f, 0.5f);
    }
    if (v == never) {
        *sink = v;
    }
}

// Nothing: a launch and a block, and no work.
__global__ void nothing() {}

// The SM and memory clocks through NVML, opened at run time so the program
// needs no NVML headers or library to build. 0 where NVML is missing.
struct Clocks {
    using InitFn = int (*)();
    using HandleFn = int (*)(unsigned, void**);
    using ClockFn = int (*)(void*, int, unsigned*);
    ClockFn clockInfo = nullptr;
    void* device = nullptr;

    Clocks() {
        void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
        if (lib == nullptr) return;
        auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
        auto handle = reinterpret_cast<HandleFn>(
            dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
        clockInfo = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
        if (init == nullptr || handle == nullptr || clockInfo == nullptr ||
            init() != 0 || handle(0, &device) != 0) {
            clockInfo = nullptr;
        }
    }

    // `SM clock after ROW, MHz` and `memory clock after ROW, MHz`
    // (NVML_CLOCK_SM is 1, NVML_CLOCK_MEM 2).
    void print(const char* row) const {
        unsigned sm = 0, mem = 0;
        if (clockInfo != nullptr) {
            clockInfo(device, 1, &sm);
            clockInfo(device, 2, &mem);
        }
        std::printf("SM clock after %s, MHz: %u\n", row, sm);
        std::printf("memory clock after %s, MHz: %u\n", row, mem);
    }
};

// One thread counts SM cycles against the global timer for spanNs
// nanoseconds: the SM clock while it runs, whatever else the GPU runs
// beside it. out[0] = cycles, out[1] = ns.
__global__ void smClockProbe(unsigned long long spanNs, unsigned long long* out) {
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while (t1 - t0 < spanNs);
    const long long c1 = clock64();
    out[0] = static_cast<unsigned long long>(c1 - c0);
    out[1] = t1 - t0;
}

// The SM clock, MHz, counted by smClockProbe on a stream of its own while
// `launches` launches of row 4 run on another: the clock during the row,
// where NVML can only be read before or after it.
static double smClockDuringRow4(int launches, const float* d_a, const float* d_b,
                                float* d_out) {
    cudaStream_t probe, work;
    CUDA_CHECK(cudaStreamCreateWithFlags(&probe, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking));
    unsigned long long* d_counts = nullptr;
    CUDA_CHECK(cudaMalloc(&d_counts, 2 * sizeof(unsigned long long)));
    // The probe's span covers the launches: about 60 us each on an H200.
    smClockProbe<<<1, 1, 0, probe>>>(launches * 50000ull, d_counts);
    for (int i = 0; i < launches; ++i) {
        vectorAdd<<<blocksFor(kElems), kThreadsPerBlock, 0, work>>>(d_a, d_b, d_out, kElems);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned long long counts[2] = {0, 0};
    CUDA_CHECK(cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaStreamDestroy(probe));
    CUDA_CHECK(cudaStreamDestroy(work));
    return counts[1] > 0 ? 1000.0 * static_cast<double>(counts[0]) / static_cast<double>(counts[1]) : 0.0;
}

// What is queued ahead of each timed launch's start event.
enum class Ahead { Nothing, Flush, Spin };

// row4.cu's timeEachLaunch with a choice of what goes ahead of each start
// event: nothing (row4.cu's control), the read-only flush (its cold-L2
// row), or a spin kernel that touches no memory (a control with the stream
// busy, so the start event is not stamped on an idle stream).
static float timeEachLaunchBehind(Ahead ahead, int spinSteps, const float* d_a,
                                  const float* d_b, float* d_out,
                                  const float4* d_flush, size_t flushQuads,
                                  float* d_sink) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    const int blocks = blocksFor(kElems);
    float total = 0.0f;
    for (int i = 0; i < kWarmupRuns + kTimedRuns; ++i) {
        if (ahead == Ahead::Flush) {
            readToFlush<<<blocksFor(flushQuads), kThreadsPerBlock>>>(
                d_flush, flushQuads, 1.0f, d_sink);
        } else if (ahead == Ahead::Spin) {
            spin<<<1, 32>>>(spinSteps, -1.0f, d_sink);
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

// Milliseconds per launch of `launch` (kernels on `stream`) captured
// kGraphLaunches times into one graph and replayed: kWarmupRuns replays,
// then kTimedRuns between two events.
constexpr int kGraphLaunches = 20;
template <typename LaunchFn>
static float timeGraph(cudaStream_t stream, LaunchFn launch) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < kGraphLaunches; ++i) {
        launch();
    }
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int i = 0; i < kWarmupRuns; ++i) {
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, stream));
    for (int i = 0; i < kTimedRuns; ++i) {
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
    }
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    return ms / (kTimedRuns * kGraphLaunches);
}

static void line(const std::string& label, double value) {
    std::printf("%s: %.5f\n", label.c_str(), value);
}

// The read-only kernel's sizes, MiB.
constexpr int kReadMib[] = {8, 16, 24, 32, 48, 64, 96, 192};

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const bool withFlush = argc > 2 && std::string(argv[2]) == "flush";
    if (mode != "time" && mode != "profile-sweep" && mode != "profile-read" &&
        mode != "profile-full" && mode != "profile-first") {
        std::fprintf(stderr,
                     "usage: %s time | profile-sweep | profile-read | "
                     "profile-full | profile-first [flush]\n",
                     argv[0]);
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    MemoryFacts facts = {0, 0, 0};
    CUDA_CHECK(memoryFacts(0, &facts));
    const size_t bytes = kElems * sizeof(float);
    std::vector<float> h_a(kElems), h_b(kElems), h_got(kElems), h_want(kElems);
    for (size_t i = 0; i < kElems; ++i) {
        h_a[i] = static_cast<float>(i % 97) * 0.5f;
        h_b[i] = static_cast<float>(i % 13);
    }
    vectorAddCpu(h_a.data(), h_b.data(), h_want.data(), kElems);
    float *d_a = nullptr, *d_b = nullptr, *d_out = nullptr, *d_flush = nullptr,
          *d_sink = nullptr;
    const size_t fBytes = flushBytes(facts);
    const size_t flushQuads = fBytes / sizeof(float4);
    const size_t readBytesMax = 192ull << 20;
    const size_t bigBytes = 1ull << 30;
    float *d_read = nullptr, *d_big = nullptr, *d_bigOut = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMalloc(&d_flush, fBytes));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_read, readBytesMax));
    CUDA_CHECK(cudaMalloc(&d_big, bigBytes));
    CUDA_CHECK(cudaMalloc(&d_bigOut, bigBytes));
    CUDA_CHECK(cudaMemset(d_flush, 0, fBytes));
    CUDA_CHECK(cudaMemset(d_read, 0, readBytesMax));
    CUDA_CHECK(cudaMemset(d_big, 0, bigBytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));
    const int blocks = blocksFor(kElems);
    const int blocks4 = blocksForVec4(kElems);
    const size_t bigElems = bigBytes / sizeof(float);
    const int bigBlocks4 = blocksForVec4(bigElems);
    auto readOnly = [&](size_t mib, cudaStream_t stream) {
        const size_t quads = (mib << 20) / sizeof(float4);
        readToFlush<<<blocksFor(quads), kThreadsPerBlock, 0, stream>>>(
            reinterpret_cast<const float4*>(d_read), quads, 1.0f, d_sink);
    };

    if (mode == "profile-first") {
        // Nothing between the copies in and the first vectorAdd but,
        // with flush, the read-only flush.
        if (withFlush) {
            readToFlush<<<blocksFor(flushQuads), kThreadsPerBlock>>>(
                reinterpret_cast<const float4*>(d_flush), flushQuads, 1.0f, d_sink);
        }
        for (int k = 0; k < 3; ++k) {
            vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
        }
        CUDA_CHECK(cudaGetLastError());
        checkResult("vectorAdd", d_out, h_want.data(), h_got);
        return EXIT_SUCCESS;
    }
    if (mode == "profile-sweep") {
        for (int s = 0; s < kNumSweep; ++s) {
            for (int k = 0; k < 3; ++k) {
                vectorAdd<<<blocksFor(kSweep[s]), kThreadsPerBlock>>>(d_a, d_b, d_out,
                                                                    kSweep[s]);
            }
        }
        CUDA_CHECK(cudaGetLastError());
        checkResult("vectorAdd", d_out, h_want.data(), h_got);
        return EXIT_SUCCESS;
    }
    if (mode == "profile-read") {
        for (size_t mib : {24, 32, 192}) {
            for (int k = 0; k < 3; ++k) {
                readOnly(mib, 0);
            }
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        return EXIT_SUCCESS;
    }
    if (mode == "profile-full") {
        for (int k = 0; k < 2; ++k) {
            copy4<<<blocks4, kThreadsPerBlock>>>(d_a, d_out, kElems);
        }
        for (int k = 0; k < 2; ++k) {
            vectorAdd4<<<blocks4, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
        }
        for (int k = 0; k < 2; ++k) {
            vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
        }
        for (int k = 0; k < 2; ++k) {
            copy4<<<bigBlocks4, kThreadsPerBlock>>>(d_big, d_bigOut, bigElems);
        }
        CUDA_CHECK(cudaGetLastError());
        checkResult("vectorAdd", d_out, h_want.data(), h_got);
        return EXIT_SUCCESS;
    }

    // mode == "time": row4.cu's rows in its order, each followed by the
    // clocks, then the new measurements.
    const Clocks clocks;
    vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    CUDA_CHECK(cudaGetLastError());
    checkResult("vectorAdd", d_out, h_want.data(), h_got);
    clocks.print("the check launch");
    const float rowMs = timeKernel([&] {
        vectorAdd<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });
    clocks.print("row 4");
    line("row 4, ms", rowMs);
    const float copyMs = timeKernel(
        [&] { copy4<<<blocks4, kThreadsPerBlock>>>(d_a, d_out, kElems); });
    clocks.print("copy4");
    line("copy4 64 MiB, ms", copyMs);
    line("copy4 64 MiB, GB/s", gbS(kCopyBytesPerElem, kElems, copyMs));
    CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));
    const float add4Ms = timeKernel([&] {
        vectorAdd4<<<blocks4, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });
    checkResult("vectorAdd4", d_out, h_want.data(), h_got);
    clocks.print("vectorAdd4");
    line("vectorAdd4, ms", add4Ms);
    const float add4RowGridMs = timeKernel([&] {
        vectorAdd4<<<blocks, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
    });
    line("vectorAdd4 at row 4's grid, ms", add4RowGridMs);
    const int perThread[] = {1, 2, 4, 8};
    for (int k : perThread) {
        const int g = static_cast<int>(
            (kElems + static_cast<size_t>(kThreadsPerBlock) * k - 1) /
            (static_cast<size_t>(kThreadsPerBlock) * k));
        CUDA_CHECK(cudaMemset(d_out, 0xFF, bytes));
        const float ms = timeKernel([&] {
            if (k == 1) vectorAddPerThread<1><<<g, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
            if (k == 2) vectorAddPerThread<2><<<g, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
            if (k == 4) vectorAddPerThread<4><<<g, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
            if (k == 8) vectorAddPerThread<8><<<g, kThreadsPerBlock>>>(d_a, d_b, d_out, kElems);
        });
        checkResult("vectorAddPerThread", d_out, h_want.data(), h_got);
        line("scalar " + std::to_string(k) + " per thread, ms", ms);
        line("scalar " + std::to_string(k) + " per thread, GB/s",
             gbS(kAddBytesPerElem, kElems, ms));
    }
    clocks.print("the per-thread kernels");

    // The sweep, launched as row4.cu does and replayed in a graph.
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int s = 0; s < kNumSweep; ++s) {
        const size_t n = kSweep[s];
        const float ms = timeKernel([&] {
            vectorAdd<<<blocksFor(n), kThreadsPerBlock>>>(d_a, d_b, d_out, n);
        });
        const float graphMs = timeGraph(stream, [&] {
            vectorAdd<<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(d_a, d_b, d_out,
                                                                   n);
        });
        line("sweep n=" + std::to_string(n) + ", ms", ms);
        line("graph n=" + std::to_string(n) + ", ms", graphMs);
        line("graph n=" + std::to_string(n) + ", GB/s",
             gbS(kAddBytesPerElem, n, graphMs));
    }
    clocks.print("the sweep");
    line("empty kernel launched, ms", timeKernel([&] { nothing<<<1, 32>>>(); }));
    line("empty kernel in a graph, ms",
         timeGraph(stream, [&] { nothing<<<1, 32, 0, stream>>>(); }));
    for (int mib : kReadMib) {
        const float ms = timeGraph(stream, [&] { readOnly(mib, stream); });
        const double gb = static_cast<double>(static_cast<size_t>(mib) << 20) / 1.0e9;
        line("graph read-only " + std::to_string(mib) + " MiB, ms", ms);
        line("graph read-only " + std::to_string(mib) + " MiB, GB/s", gb / (ms * 1.0e-3));
    }
    clocks.print("the graph replays");
    CUDA_CHECK(cudaStreamDestroy(stream));

    // The copy ceiling at 1 GiB.
    const float bigCopyMs = timeKernel([&] {
        copy4<<<bigBlocks4, kThreadsPerBlock>>>(d_big, d_bigOut, bigElems);
    });
    line("copy4 1 GiB, ms", bigCopyMs);
    line("copy4 1 GiB, GB/s", gbS(kCopyBytesPerElem, bigElems, bigCopyMs));
    const float bigMemcpyMs = timeKernel([&] {
        CUDA_CHECK(cudaMemcpy(d_bigOut, d_big, bigBytes, cudaMemcpyDeviceToDevice));
    });
    line("cudaMemcpy 1 GiB, GB/s", gbS(kCopyBytesPerElem, bigElems, bigMemcpyMs));
    clocks.print("the 1 GiB copies");

    // One launch behind nothing, the flush, and a spin kernel of about the
    // flush's length.
    const float spinMs = timeKernel([&] { spin<<<1, 32>>>(20000, -1.0f, d_sink); });
    line("spin kernel, ms", spinMs);
    const auto flush4 = reinterpret_cast<const float4*>(d_flush);
    const float flushMs = timeKernel([&] {
        readToFlush<<<blocksFor(flushQuads), kThreadsPerBlock>>>(flush4, flushQuads, 1.0f,
                                                                 d_sink);
    });
    line("flush kernel, ms", flushMs);
    line("per-launch events no flush, ms",
         timeEachLaunchBehind(Ahead::Nothing, 0, d_a, d_b, d_out, flush4, flushQuads,
                              d_sink));
    line("per-launch events L2 flushed, ms",
         timeEachLaunchBehind(Ahead::Flush, 0, d_a, d_b, d_out, flush4, flushQuads,
                              d_sink));
    line("per-launch events behind a spin kernel, ms",
         timeEachLaunchBehind(Ahead::Spin, 20000, d_a, d_b, d_out, flush4, flushQuads,
                              d_sink));
    checkResult("vectorAdd", d_out, h_want.data(), h_got);
    clocks.print("the per-launch rows");
    line("SM clock counted in a kernel during 40 launches of row 4, MHz",
         smClockDuringRow4(40, d_a, d_b, d_out));
    checkResult("vectorAdd", d_out, h_want.data(), h_got);
    return EXIT_SUCCESS;
}
