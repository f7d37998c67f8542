// SPDX-License-Identifier: MIT
//
// Graph replay at the launch floor, four ways, for kernel-timer's short
// kernels (issue 44: within 0.1 us of CUPTI's kernel records). A graph of
// kNodes launches of one kernel, replayed; a sample is one replay's event
// time over kNodes.
//   plain    ordinary edges: each launch waits for the one before to end,
//            then is launched (today's graph mode, +0.14 to +0.22 us);
//   pdl      programmatic edges: the next launch starts as the last block
//            exits, before the end CUPTI records (graph-pdl, -0.21 to +0.07);
//   fenced   programmatic edges, and between two launches a one-warp kernel
//            that waits in griddepcontrol.wait for the launch before it to
//            complete (its memory flushed), then exits: the next launch is
//            already staged behind it;
//   fence    the fence kernels alone, chained the same way: their own cost.
// The first argument sets the launches a graph (200 by default); a second,
// `blocking`, replays on a stream made by cudaStreamCreate (one that waits
// for the legacy default stream, as kernel-timer's does) instead of a
// non-blocking one.
// The claim: fenced lies within 0.1 us of CUPTI's record of the same kernel
// (kernel-timer --mode cupti, the same call) on every kernel here. Its rival:
// a fenced launch still pays a launch gap, reading as plain does.
//
//   nvcc -O3 -arch=sm_90 -o floor-fence floor-fence.cu

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

#include "../kernels/set.cu"

#include "probe.h"

// The body of Day 9's vectorAdd (code/day09-timing/timing.cu), the suite's
// vector-add-l2 at 64 Ki floats.
__global__ void vector_add(const float* a, const float* b, float* out, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

// Returns once the launch before it has completed and its writes are
// visible: griddepcontrol.wait.
__global__ void fence() { cudaGridDependencySynchronize(); }

static int kNodes = 200;
constexpr int kReplays = 21;
static float *g_a, *g_b, *g_c;

enum Way { kPlain, kPdl, kFenced, kFence };
const char* kWayNames[] = {"plain", "pdl", "fenced", "fence"};

// One launch through cudaLaunchKernelEx, programmatic or not.
template <typename... Args>
static void launch(cudaStream_t s, bool programmatic, dim3 grid, dim3 block, size_t shared,
                   void (*kernel)(Args...), Args... args) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared;
    config.stream = s;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attr;
    config.numAttrs = programmatic ? 1 : 0;
    CHECK(cudaLaunchKernelEx(&config, kernel, args...));
}

static void kernel_launch(const char* name, cudaStream_t s, bool programmatic) {
    const size_t n = 64 * 1024;
    if (!std::strcmp(name, "empty")) launch(s, programmatic, dim3(1), dim3(32), 0, empty);
    if (!std::strcmp(name, "vector-add-l2"))
        launch(s, programmatic, dim3(n / 256), dim3(256), 0, vector_add, (const float*)g_a,
               (const float*)g_b, g_c, n);
    if (!std::strcmp(name, "transpose-shared-1k"))
        launch(s, programmatic, dim3(32, 32), dim3(32, 8), 0, transpose_shared, g_c, (const float*)g_a,
               1024);
    if (!std::strcmp(name, "transpose-naive-1k"))
        launch(s, programmatic, dim3(32, 32), dim3(32, 32), 0, transpose_naive, g_c, (const float*)g_a,
               1024);
    if (!std::strcmp(name, "fma-loop-short"))
        launch(s, programmatic, dim3(264), dim3(256), 0, fma_loop, g_c, 1000);
}

static cudaGraphExec_t build(const char* name, Way way, cudaStream_t s) {
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kNodes; ++i) {
        if (way != kFence) kernel_launch(name, s, way != kPlain && i > 0);
        if (way == kFenced || way == kFence) launch(s, i > 0 || way == kFenced, dim3(1), dim3(32), 0, fence);
    }
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphDestroy(graph));
    return exec;
}

int main(int argc, char** argv) {
    const char* usage = "usage: floor-fence [LAUNCHES_A_GRAPH [blocking]]\n";
    if (argc > 1 && !std::strcmp(argv[1], "--help")) {
        std::printf("%s", usage);
        return 0;
    }
    if (argc > 1) kNodes = std::atoi(argv[1]);
    if (argc > 3 || kNodes <= 0 || (argc > 2 && std::strcmp(argv[2], "blocking"))) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    CHECK(cudaMalloc(&g_a, 4u << 20));
    CHECK(cudaMalloc(&g_b, 4u << 20));
    CHECK(cudaMalloc(&g_c, 4u << 20));
    CHECK(cudaMemset(g_a, 0, 4u << 20));
    CHECK(cudaMemset(g_b, 0, 4u << 20));
    cudaStream_t s;
    const bool blocking = argc > 2 && !std::strcmp(argv[2], "blocking");
    if (blocking)
        CHECK(cudaStreamCreate(&s));
    else
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("GPU: %s; a graph of %d launches, %d replays on a %s stream; median per launch, us\n",
                prop.name, kNodes, kReplays, blocking ? "blocking" : "non-blocking");
    std::printf("%-22s %9s %9s %9s %9s\n", "kernel", "plain", "pdl", "fenced", "fence");
    const char* kernels[] = {"empty", "vector-add-l2", "transpose-shared-1k", "transpose-naive-1k",
                             "fma-loop-short"};
    for (const char* name : kernels) {
        std::printf("%-22s", name);
        for (Way way : {kPlain, kPdl, kFenced, kFence}) {
            cudaGraphExec_t exec = build(name, way, s);
            std::printf(" %9.4f", replay_us_per_launch(exec, s, a, b, kNodes, kReplays, [] {}));
            CHECK(cudaGraphExecDestroy(exec));
        }
        std::printf("\n");
    }
    return 0;
}
