// SPDX-License-Identifier: MIT
//
// Day 9's row 5 again, with the host buffers as the variable: is row 5 the
// bus, or the pageable staging path in front of it? Row 5 copies two 64 MiB
// inputs up, runs vectorAdd and copies the result back, from std::vector
// (pageable) memory; the driver first copies pageable bytes through a pinned
// buffer of its own on the CPU. Here the same round trip runs from pageable
// buffers, as timing.cu makes them, and from cudaMallocHost (pinned)
// buffers, which the copy engine reads and writes directly, at row 5's size
// and at every size of the crossover sweep. Each round trip is timed by
// timing.cu's own timeRoundTrip (mean of ten after three warm-ups) and
// checked against the CPU before its figure is printed.
//
// It includes timing.cu itself (its main renamed), so the kernel, the sizes,
// the timing and the check are the lesson's; only the host buffers differ.
// Each pass runs the two kinds in the other order. Each figure is a line
// `LABEL: NUMBER`, once per pass.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o round-trip-pinned round-trip-pinned.cu
// Run:   ./round-trip-pinned [passes]      (code/day09-timing/tools/gpu-phases/staging.sh)

#define main day09_lesson_main
#include "../../timing.cu"
#undef main

namespace {

// Three host buffers of kElems floats, inputs filled as timing.cu fills them.
struct HostBuffers {
    float* a;
    float* b;
    float* out;
};

void fillInputs(HostBuffers h) {
    for (size_t i = 0; i < kElems; ++i) {
        h.a[i] = static_cast<float>(i % 97) * 0.5f;
        h.b[i] = static_cast<float>(i % 13);
    }
}

// One round trip of n elements from `h`, its mean in ms, or a negative
// number when the result differs from the CPU's (the message is printed).
float roundTrip(const char* kind, HostBuffers h, float* d_a, float* d_b,
                float* d_out, size_t n, std::vector<float>& want) {
    const float ms = timeRoundTrip(h.a, h.b, h.out, d_a, d_b, d_out, n);
    vectorAddCpu(h.a, h.b, want.data(), n);
    const size_t bad = firstMismatch(h.out, want.data(), n, kRelTolerance);
    if (bad != n) {
        std::fprintf(stderr, "%s round trip wrong at %zu of %zu: got %.9g, want %.9g\n",
                     kind, bad, n, h.out[bad], want[bad]);
        return -1.0f;
    }
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    const int passes = argc > 1 ? std::atoi(argv[1]) : 3;
    if (passes < 1) {
        std::fprintf(stderr, "usage: round-trip-pinned [passes >= 1]\n");
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf(
        "row 5's round trip (two copies in, vectorAdd, one copy out), "
        "timing.cu's timeRoundTrip: mean of %d after %d warm-ups; host "
        "buffers pageable (std::vector, as timing.cu) and pinned "
        "(cudaMallocHost)\n",
        kTimedRuns, kWarmupRuns);

    const size_t bytes = kElems * sizeof(float);
    std::vector<float> pa(kElems), pb(kElems), pout(kElems), want(kElems);
    float* pinnedA = nullptr;
    float* pinnedB = nullptr;
    float* pinnedOut = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinnedA, bytes));
    CUDA_CHECK(cudaMallocHost(&pinnedB, bytes));
    CUDA_CHECK(cudaMallocHost(&pinnedOut, bytes));
    const HostBuffers hosts[2] = {{pa.data(), pb.data(), pout.data()},
                                  {pinnedA, pinnedB, pinnedOut}};
    const char* kinds[2] = {"pageable", "pinned"};
    for (const HostBuffers& h : hosts) {
        fillInputs(h);
        // Every page of the output written once, so no copy back faults.
        for (size_t i = 0; i < kElems; ++i) {
            h.out[i] = 0.0f;
        }
    }

    float* d_a = nullptr;
    float* d_b = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));

    bool ok = true;
    for (int pass = 1; pass <= passes && ok; ++pass) {
        std::printf("\npass %d\n", pass);
        for (int j = 0; j < 2 && ok; ++j) {
            const int k = (pass % 2 == 1) ? j : 1 - j;
            const float rowMs = roundTrip(kinds[k], hosts[k], d_a, d_b, d_out,
                                          kElems, want);
            ok = rowMs >= 0.0f;
            if (ok) {
                std::printf("row 5 %s, ms: %.3f\n", kinds[k], rowMs);
            }
            for (int s = 0; s < kNumSweep && ok; ++s) {
                const float ms = roundTrip(kinds[k], hosts[k], d_a, d_b, d_out,
                                           kSweep[s], want);
                ok = ms >= 0.0f;
                if (ok) {
                    std::printf("sweep n=%zu %s round trip, ms: %.3f\n",
                                kSweep[s], kinds[k], ms);
                }
            }
        }
    }

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFreeHost(pinnedA));
    CUDA_CHECK(cudaFreeHost(pinnedB));
    CUDA_CHECK(cudaFreeHost(pinnedOut));
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
