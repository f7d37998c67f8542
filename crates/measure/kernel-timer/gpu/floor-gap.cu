// SPDX-License-Identifier: MIT
//
// What adds about 0.18 us to each launch of kernel-timer's graph replay?
// floor-fence.cu's plain graph of 1000 launches reads vector-add-l2 at 1.02
// to 1.04 us, CUPTI's record of kernel-timer's launch 1.02, and kernel-timer's
// own graph mode 1.20, in the same calls. This replays the same graph with
// one thing of kernel-timer's at a time:
//   runtime  the kernel compiled in here, launched through the runtime;
//   nvml     the same, and NVML's SM clock read after every replay, as
//            kernel-timer reads the clocks around each sample;
//   cubin    the kernel loaded from a cubin (argv[1], nvcc -cubin of set.cu
//            or timing.cu) and launched with cuLaunchKernel, as kernel-timer
//            does, on the same stream;
//   upload   cubin, with the executable graph uploaded before its first
//            replay (cuGraphUpload), as kernel-timer does.
// The five ways are replayed in three rounds: as the process starts; after
// what kernel-timer's calibration does first (a PTX module JIT-compiled,
// 210 timed empty launches, 210 replays of a one-launch graph, 210 sync
// wake-ups, 23 copies of 512 MiB on the legacy stream); and after 50 ms of
// back-to-back launches of the kernel, kernel-timer's warm-up. Within the
// calibration the plain graph is measured again after each step.
// The claim: one of them reads at least 0.1 us above runtime. Its rival: all
// read within 0.05 us of runtime, and the gap is elsewhere.
//
// A second argument, letters of the calibration's steps (see calibrate),
// runs only those, measuring after each. What the step lists measured on the
// H200 (kernel-timer's README): the claim, that the graph slows by 0.1 us a
// launch or more once the process has submitted two kinds of work outside
// graphs (lv, lc, Vc, Vl, qv, sv, wv), whatever their order; its rival, that
// one kind alone slows it too (v, c, l, lgw, ev, gv would read as slow).
//
//   nvcc -O3 -arch=sm_90 -o floor-gap floor-gap.cu -ldl
//   nvcc -cubin -arch=sm_90 -o vector-add.cubin ../../../../code/day09-timing/timing.cu

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>
#include <chrono>
#include <thread>

#include <cuda.h>

#include "probe.h"
#define CHECK_CU(call)                                                                 \
    do {                                                                               \
        CUresult err_ = (call);                                                        \
        if (err_ != CUDA_SUCCESS) {                                                    \
            std::fprintf(stderr, "%s:%d: driver error %d\n", __FILE__, __LINE__, err_);  \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

// The body of Day 9's vectorAdd.
__global__ void vector_add(const float* a, const float* b, float* out, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

constexpr int kNodes = 1000, kReplays = 21;
constexpr size_t kN = 64 * 1024;

// Driver calls, through the runtime's entry points (no libcuda to link here).
template <typename F>
static F driver(const char* name) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CHECK(cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found));
    if (!fn) {
        std::fprintf(stderr, "no driver entry point %s\n", name);
        std::exit(1);
    }
    return reinterpret_cast<F>(fn);
}

typedef CUresult (*Load)(CUmodule*, const void*);
typedef CUresult (*Get)(CUfunction*, CUmodule, const char*);
typedef CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           CUstream, void**, void**);

// What kernel-timer's calibration does before it measures (instrument's
// calibrate.rs), step for step.
__global__ void empty_here() {}

__global__ void copy_kernel(const float4* src, float4* dst, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// What kernel-timer's calibration does before it measures (instrument's
// calibrate.rs), step for step, each step kept where `steps` holds its
// letter: m a PTX module JIT-compiled for the empty kernel (else the one
// compiled in here), b a blocking stream for the steps (else a non-blocking
// one), l 210 timed empty launches, g 210 replays of a one-launch graph,
// w 210 sync wake-ups, c 23 copies of 512 MiB on the legacy stream, k the
// same 23 copies by a kernel (the instrument's copy ceiling at 0af6810),
// f the two 512 MiB buffers allocated and freed with no copy between (q, s
// and e, parts of l, and z and y are described where they run); then (V
// runs v first)
// v 50 ms of back-to-back launches of the kernel measured (kernel-timer's
// and the suite's warm-up, `warm`), and i two seconds with the GPU idle.
template <typename Measure, typename Warm>
static void calibrate(Load load, Get get, Launch launch, Measure measure, Warm warm, const char* steps) {
    auto has = [&](char step) { return std::strchr(steps, step) != nullptr; };
    static const char ptx[] =
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry calibrate_empty()\n{\n    ret;\n}\n";
    CUfunction empty;
    if (has('m')) {
        CUmodule module;
        CHECK_CU(load(&module, ptx));
        CHECK_CU(get(&empty, module, "calibrate_empty"));
    } else {
        cudaFunction_t f;
        CHECK(cudaGetFuncBySymbol(&f, (const void*)empty_here));
        empty = (CUfunction)f;
    }
    cudaStream_t s;
    if (has('b'))
        CHECK(cudaStreamCreate(&s));
    else
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    measure("after the module and the stream");
    if (has('V')) {
        warm();
        measure("after 50 ms of back-to-back launches, before the rest");
    }
    if (has('l')) {
        for (int i = 0; i < 210; ++i) {
            CHECK(cudaEventRecord(e0, s));
            CHECK_CU(launch(empty, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
            CHECK(cudaEventRecord(e1, s));
            CHECK(cudaEventSynchronize(e1));
        }
        measure("after 210 timed empty launches");
    }
    // Parts of l, each alone: q the same launches between event records,
    // every pair its own and one wait at the end; s the launches each waited
    // for by cudaStreamSynchronize, no event; e the event pairs recorded and
    // waited for, no launch.
    if (has('q')) {
        std::vector<cudaEvent_t> pairs(2 * 210);
        for (auto& e : pairs) CHECK(cudaEventCreate(&e));
        for (int i = 0; i < 210; ++i) {
            CHECK(cudaEventRecord(pairs[2 * i], s));
            CHECK_CU(launch(empty, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
            CHECK(cudaEventRecord(pairs[2 * i + 1], s));
        }
        CHECK(cudaStreamSynchronize(s));
        for (auto e : pairs) CHECK(cudaEventDestroy(e));
        measure("after 210 launches between event pairs, one wait");
    }
    if (has('s')) {
        for (int i = 0; i < 210; ++i) {
            CHECK_CU(launch(empty, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
            CHECK(cudaStreamSynchronize(s));
        }
        measure("after 210 launches, each waited for, no event");
    }
    if (has('e')) {
        for (int i = 0; i < 210; ++i) {
            CHECK(cudaEventRecord(e0, s));
            CHECK(cudaEventRecord(e1, s));
            CHECK(cudaEventSynchronize(e1));
        }
        measure("after 210 event pairs waited for, no launch");
    }
    if (has('g')) {
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        CHECK_CU(launch(empty, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
        cudaGraph_t graph;
        CHECK(cudaStreamEndCapture(s, &graph));
        cudaGraphExec_t exec;
        CHECK(cudaGraphInstantiate(&exec, graph, 0));
        for (int i = 0; i < 210; ++i) {
            CHECK(cudaEventRecord(e0, s));
            CHECK(cudaGraphLaunch(exec, s));
            CHECK(cudaEventRecord(e1, s));
            CHECK(cudaEventSynchronize(e1));
        }
        measure("after 210 replays of a one-launch graph");
    }
    if (has('w')) {
        for (int i = 0; i < 210; ++i) {
            cudaEvent_t w0, w1;
            CHECK(cudaEventCreate(&w0));
            CHECK(cudaEventCreate(&w1));
            CHECK_CU(launch(empty, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
            CHECK(cudaEventRecord(w0, s));
            CHECK(cudaEventSynchronize(w0));
            CHECK(cudaEventRecord(w1, s));
            CHECK(cudaEventSynchronize(w1));
            CHECK(cudaEventDestroy(w0));
            CHECK(cudaEventDestroy(w1));
        }
        measure("after 210 sync wake-ups");
    }
    // z: twelve buffers of 256 KiB allocated and each zeroed by the driver's
    // synchronous cuMemsetD8, as the suite's Workload sets up vector-add-l2's
    // four sets of three; y: the same buffers zeroed by one replay of a graph
    // of their memsets instead. The buffers are kept, as the suite keeps them.
    if (has('z') || has('y')) {
        auto memset_d8 = driver<CUresult (*)(CUdeviceptr, unsigned char, size_t)>("cuMemsetD8");
        std::vector<void*> buffers(12);
        for (auto& b : buffers) CHECK(cudaMalloc(&b, 256u << 10));
        if (has('z')) {
            for (auto b : buffers) CHECK_CU(memset_d8((CUdeviceptr)b, 0, 256u << 10));
            measure("after 12 buffers zeroed by cuMemsetD8");
        } else {
            CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            for (auto b : buffers) CHECK(cudaMemsetAsync(b, 0, 256u << 10, s));
            cudaGraph_t graph;
            CHECK(cudaStreamEndCapture(s, &graph));
            cudaGraphExec_t exec;
            CHECK(cudaGraphInstantiate(&exec, graph, 0));
            CHECK(cudaGraphLaunch(exec, s));
            CHECK(cudaStreamSynchronize(s));
            measure("after 12 buffers zeroed by a graph of memsets");
        }
    }
    if (has('f')) {
        void *src, *dst;
        CHECK(cudaMalloc(&src, 512u << 20));
        CHECK(cudaMalloc(&dst, 512u << 20));
        measure("after allocating 2 x 512 MiB");
        CHECK(cudaFree(src));
        CHECK(cudaFree(dst));
        measure("after freeing them, nothing copied");
    }
    // 23 copies of 512 MiB on the legacy stream by `copy_one`, the buffers
    // allocated before and freed after, measured after each.
    auto copies = [&](const char* done, auto copy_one) {
        void *src, *dst;
        CHECK(cudaMalloc(&src, 512u << 20));
        CHECK(cudaMalloc(&dst, 512u << 20));
        measure("after allocating 2 x 512 MiB");
        for (int i = 0; i < 23; ++i) {
            CHECK(cudaEventRecord(e0, 0));
            copy_one(src, dst);
            CHECK(cudaEventRecord(e1, 0));
            CHECK(cudaEventSynchronize(e1));
        }
        measure(done);
        CHECK(cudaFree(src));
        CHECK(cudaFree(dst));
        measure("after freeing them");
    };
    if (has('k'))
        copies("after 23 kernel copies of 512 MiB on the legacy stream", [](void* src, void* dst) {
            copy_kernel<<<132 * 8, 256>>>((const float4*)src, (float4*)dst, (512u << 20) / 16);
            CHECK(cudaGetLastError());
        });
    if (has('c'))
        copies("after 23 copies of 512 MiB on the legacy stream", [](void* src, void* dst) {
            CHECK(cudaMemcpyAsync(dst, src, 512u << 20, cudaMemcpyDeviceToDevice, 0));
        });
    if (has('v')) {
        warm();
        measure("after 50 ms of back-to-back launches");
    }
    if (has('i')) {
        std::this_thread::sleep_for(std::chrono::seconds(2));
        measure("after 2 s idle");
    }
}

typedef int (*NvmlInit)();
typedef int (*NvmlHandle)(unsigned, void**);
typedef int (*NvmlClock)(void*, int, unsigned*);

// Captures kNodes calls of `launch_one` on `s` into an executable graph.
template <typename F>
static cudaGraphExec_t capture(cudaStream_t s, F launch_one) {
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kNodes; ++i) launch_one();
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphDestroy(graph));
    return exec;
}

// The median per launch, in us, of kReplays replays of `exec`; `after_each`
// runs after every replay.
template <typename F>
static float per_launch_us(cudaGraphExec_t exec, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1,
                           F after_each) {
    return replay_us_per_launch(exec, s, e0, e1, kNodes, kReplays, after_each);
}

int main(int argc, char** argv) {
    const char* usage = "usage: floor-gap VECTOR_ADD_CUBIN [STEPS]\n";
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    if (!std::strcmp(argv[1], "--help")) {
        std::printf("%s", usage);
        return 0;
    }
    std::ifstream file(argv[1], std::ios::binary);
    std::vector<char> cubin((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (cubin.empty()) {
        std::fprintf(stderr, "floor-gap: cannot read a cubin from %s\n", argv[1]);
        return 2;
    }
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, kN * 4));
    CHECK(cudaMalloc(&b, kN * 4));
    CHECK(cudaMalloc(&c, kN * 4));
    CHECK(cudaMemset(a, 0, kN * 4));
    CHECK(cudaMemset(b, 0, kN * 4));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));

    auto load = driver<Load>("cuModuleLoadData");
    auto get = driver<Get>("cuModuleGetFunction");
    auto launch = driver<Launch>("cuLaunchKernel");
    auto upload = driver<CUresult (*)(CUgraphExec, CUstream)>("cuGraphUpload");
    CUmodule module;
    CHECK_CU(load(&module, cubin.data()));
    CUfunction loaded;
    CHECK_CU(get(&loaded, module, "_Z9vectorAddPKfS0_Pfm"));

    void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!nvml) {
        std::fprintf(stderr, "no libnvidia-ml.so.1\n");
        return 1;
    }
    auto nvml_init = reinterpret_cast<NvmlInit>(dlsym(nvml, "nvmlInit_v2"));
    auto nvml_handle = reinterpret_cast<NvmlHandle>(dlsym(nvml, "nvmlDeviceGetHandleByIndex_v2"));
    auto nvml_clock = reinterpret_cast<NvmlClock>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
    void* device = nullptr;

    std::printf("vector-add-l2, a graph of %d launches, %d replays; median per launch, us\n", kNodes, kReplays);
    // The plain graph through the runtime, measured once and printed.
    auto warm = [&] {
        for (int i = 0; i < 50 * 1000; ++i) vector_add<<<kN / 256, 256, 0, s>>>(a, b, c, kN);
        CHECK(cudaStreamSynchronize(s));
    };
    // With P among the steps, one graph is also made before them all and
    // replayed at each measurement beside the new one: does a graph made
    // before the cause keep its speed?
    const bool early_graph = argc > 2 && std::strchr(argv[2], 'P');
    cudaGraphExec_t early = nullptr;
    if (early_graph) early = capture(s, [&] { vector_add<<<kN / 256, 256, 0, s>>>(a, b, c, kN); });
    auto measure = [&](const char* when) {
        cudaGraphExec_t exec = capture(s, [&] { vector_add<<<kN / 256, 256, 0, s>>>(a, b, c, kN); });
        std::printf("runtime  %8.4f  %s\n", per_launch_us(exec, s, e0, e1, [] {}), when);
        CHECK(cudaGraphExecDestroy(exec));
        if (early) std::printf("early    %8.4f  the graph made before the steps\n", per_launch_us(early, s, e0, e1, [] {}));
    };
    // With a second argument, only the calibration's steps it names, each
    // followed by a measurement.
    if (argc > 2) {
        std::printf("steps: %s\n", argv[2]);
        measure("at the start");
        calibrate(load, get, launch, measure, warm, argv[2]);
        return 0;
    }
    const char* ways[] = {"runtime", "nvml", "cubin", "upload", "runtime"};
    for (int round = 0; round < 3; ++round) {
        if (round == 1) calibrate(load, get, launch, measure, warm, "mblgwc");
        if (round == 2) warm();
        for (int w = 0; w < 5; ++w) {
            const char* way = ways[w];
            const bool from_cubin = !std::strcmp(way, "cubin") || !std::strcmp(way, "upload");
            const bool read_clock = !std::strcmp(way, "nvml");
            if (read_clock && !device) {
                if (nvml_init() != 0 || nvml_handle(0, &device) != 0) {
                    std::fprintf(stderr, "NVML would not start\n");
                    return 1;
                }
            }
            size_t n = kN;
            void* params[] = {&a, &b, &c, &n};
            cudaGraphExec_t exec = capture(s, [&] {
                if (from_cubin)
                    CHECK_CU(launch(loaded, kN / 256, 1, 1, 256, 1, 1, 0, (CUstream)s, params, nullptr));
                else
                    vector_add<<<kN / 256, 256, 0, s>>>(a, b, c, kN);
            });
            if (!std::strcmp(way, "upload")) CHECK_CU(upload((CUgraphExec)exec, (CUstream)s));
            unsigned mhz = 0;
            const float us = per_launch_us(exec, s, e0, e1, [&] {
                if (read_clock) nvml_clock(device, 1 /* NVML_CLOCK_SM */, &mhz);
            });
            std::printf("round %d  %-8s %8.4f", round + 1, way, us);
            if (read_clock) std::printf("   (SM %u MHz)", mhz);
            std::printf("\n");
            CHECK(cudaGraphExecDestroy(exec));
        }
    }
    return 0;
}
