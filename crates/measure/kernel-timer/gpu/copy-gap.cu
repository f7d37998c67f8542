// SPDX-License-Identifier: MIT
//
// floor-gap.cu found that after kernel-timer's calibration copies 512 MiB
// device to device 23 times on the legacy stream, every launch of a plain
// graph replay takes about 0.17 us longer, for the rest of the process
// (vector-add-l2: 1.03 us before, 1.20 after). Which copies do that? One
// process per trigger (the argument), each measuring a graph of 1000
// vector-add-l2 launches, captured afresh each time, before the trigger,
// right after it, and 1 s later:
//   h2d-small    cudaMemcpy of 256 KiB from pageable host memory (what
//                kernel-timer does to fill an argument)
//   h2d-large    the same, 512 MiB
//   d2d-small    cudaMemcpyAsync of 256 KiB device to device, legacy stream
//   d2d-large    the same, 512 MiB (the calibration's copy, once)
//   d2d-stream   512 MiB device to device on the non-blocking stream
//   memset       cudaMemsetAsync of 512 MiB on the legacy stream
//   kernel-copy  a kernel that copies 512 MiB (no copy engine)
//   events       an event pair recorded on the legacy stream
// and each of them 23 times (NAME-x23), with an event pair recorded on the
// legacy stream around each (NAME-x23-timed): the calibration's copy is
// d2d-large-x23-timed.
// The claim: the copies that use a copy engine add 0.1 us or more; the
// kernel copy and the memset add less than 0.05. Its rival: any large
// memory traffic does it, a kernel copy as well.
//
//   nvcc -O3 -arch=sm_90 -o copy-gap copy-gap.cu

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "probe.h"

// The body of Day 9's vectorAdd.
__global__ void vector_add(const float* a, const float* b, float* out, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

__global__ void copy_kernel(const float4* src, float4* dst, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

constexpr int kNodes = 1000, kReplays = 21;
constexpr size_t kN = 64 * 1024, kLarge = 512u << 20, kSmall = 256u << 10;

int main(int argc, char** argv) {
    const char* usage =
        "usage: copy-gap TRIGGER, TRIGGER one of h2d-small h2d-large d2d-small d2d-large d2d-stream memset "
        "kernel-copy events, each with -x23 or -x23-timed after it or not\n";
    const char* trigger = argc == 2 ? argv[1] : "";
    if (!std::strcmp(trigger, "--help")) {
        std::printf("%s", usage);
        return 0;
    }
    // NAME-x23 does it 23 times, as the calibration does; NAME-x23-timed
    // records an event pair on the legacy stream around each time, as the
    // calibration does too; events-x23 records the pairs alone.
    const char* cut = std::strstr(trigger, "-x");
    const std::string base(trigger, cut ? (size_t)(cut - trigger) : std::strlen(trigger));
    const std::string suffix = cut ? cut : "";
    const char* bases[] = {"h2d-small", "h2d-large", "d2d-small", "d2d-large",
                           "d2d-stream", "memset", "kernel-copy", "events"};
    const bool known = std::find(std::begin(bases), std::end(bases), base) != std::end(bases);
    if (!known || !(suffix.empty() || suffix == "-x23" || suffix == "-x23-timed")) {
        std::fprintf(stderr, "%s", usage);
        return 2;
    }
    const int times = suffix.empty() ? 1 : 23;
    const bool timed = suffix == "-x23-timed" || base == "events";
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, kN * 4));
    CHECK(cudaMalloc(&b, kN * 4));
    CHECK(cudaMalloc(&c, kN * 4));
    CHECK(cudaMemset(a, 0, kN * 4));
    CHECK(cudaMemset(b, 0, kN * 4));
    void *src, *dst;
    CHECK(cudaMalloc(&src, kLarge));
    CHECK(cudaMalloc(&dst, kLarge));
    std::vector<char> host(kLarge);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));

    // A graph captured and instantiated afresh for each measurement: one
    // made before the trigger keeps its speed after it.
    auto measure = [&](const char* when) {
        CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < kNodes; ++i) vector_add<<<kN / 256, 256, 0, s>>>(a, b, c, kN);
        cudaGraph_t graph;
        CHECK(cudaStreamEndCapture(s, &graph));
        cudaGraphExec_t exec;
        CHECK(cudaGraphInstantiate(&exec, graph, 0));
        std::printf("%-12s %-8s %8.4f us a launch\n", trigger, when,
                    replay_us_per_launch(exec, s, e0, e1, kNodes, kReplays, [] {}));
        CHECK(cudaGraphExecDestroy(exec));
        CHECK(cudaGraphDestroy(graph));
    };

    measure("before");
    for (int i = 0; i < times; ++i) {
        if (timed) CHECK(cudaEventRecord(e0, 0));
        if (base == "h2d-small") CHECK(cudaMemcpy(dst, host.data(), kSmall, cudaMemcpyHostToDevice));
        if (base == "h2d-large") CHECK(cudaMemcpy(dst, host.data(), kLarge, cudaMemcpyHostToDevice));
        if (base == "d2d-small") CHECK(cudaMemcpyAsync(dst, src, kSmall, cudaMemcpyDeviceToDevice, 0));
        if (base == "d2d-large") CHECK(cudaMemcpyAsync(dst, src, kLarge, cudaMemcpyDeviceToDevice, 0));
        if (base == "d2d-stream") CHECK(cudaMemcpyAsync(dst, src, kLarge, cudaMemcpyDeviceToDevice, s));
        if (base == "memset") CHECK(cudaMemsetAsync(dst, 1, kLarge, 0));
        if (base == "kernel-copy") {
            copy_kernel<<<132 * 8, 256>>>((const float4*)src, (float4*)dst, kLarge / 16);
            CHECK(cudaGetLastError());
        }
        if (timed) {
            CHECK(cudaEventRecord(e1, 0));
            CHECK(cudaEventSynchronize(e1));
        }
    }
    CHECK(cudaDeviceSynchronize());
    measure("after");
    sleep(1);
    measure("1 s later");
    return 0;
}
