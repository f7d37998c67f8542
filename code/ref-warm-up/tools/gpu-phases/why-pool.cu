// SPDX-License-Identifier: MIT
//
// The warm-up lesson's pool, measured: whose pool do small allocations come
// from? Part 5 of warmup.cu shows 40,000-byte cudaMallocs 40,448 bytes apart
// with a slow call where the address jumps to a new 2 MiB block. If the CUDA
// runtime kept that pool, the driver's own cuMemAlloc, called directly,
// would not show it; if the driver's allocator does, both show the same
// steps and jumps. One process allocates through one API only, after the
// context is made, so neither sees memory the other took:
//
//   runtime   kMallocRun cudaMallocs of kMallocBytes[0] bytes, each call and
//             synchronise timed (warmup.cu's Part 5, as it does it)
//   driver    the same through cuMemAlloc, found with
//             cudaGetDriverEntryPointByVersion so that nothing links libcuda,
//             then cudaDeviceSynchronize as the runtime run does (the first
//             recording of this mode called the entry point of
//             cuCtxSynchronize with no argument and failed: at version 13000
//             it is most likely cuCtxSynchronize_v2, which takes a context)
//
// It includes warmup.cu itself (its main renamed), so the size, the count and
// the host clock are the lesson's. Each figure is a line `LABEL: NUMBER`.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-pool why-pool.cu
// Run:   ./why-pool runtime | driver

#define main warmup_lesson_main
#include "../../warmup.cu"
#undef main

#include <cuda.h>

#include <algorithm>
#include <string>

typedef CUresult (*CuMemAllocFn)(CUdeviceptr*, size_t);

// The driver's entry point `name`, or exit with one line.
static void* driverEntry(const char* name) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 13000,
                                                cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || fn == nullptr) {
        std::fprintf(stderr, "error: the driver has no %s\n", name);
        std::exit(EXIT_FAILURE);
    }
    return fn;
}

static double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

int main(int argc, char** argv) {
    const std::string api = argc > 1 ? argv[1] : "";
    if (api != "runtime" && api != "driver") {
        std::fprintf(stderr, "usage: why-pool runtime | driver\n");
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    // The context, made before anything is timed.
    CUDA_CHECK(cudaFree(nullptr));
    CuMemAllocFn memAlloc = nullptr;
    if (api == "driver") {
        memAlloc = reinterpret_cast<CuMemAllocFn>(driverEntry("cuMemAlloc"));
    }
    const char* name = api == "driver" ? "cuMemAlloc" : "cudaMalloc";
    std::vector<double> ms(kMallocRun);
    std::vector<unsigned long long> address(kMallocRun);
    for (int m = 0; m < kMallocRun; ++m) {
        const double t0 = hostMs();
        if (api == "driver") {
            CUdeviceptr p = 0;
            const CUresult r = memAlloc(&p, kMallocBytes[0]);
            if (r != CUDA_SUCCESS) {
                std::fprintf(stderr,
                             "error: cuMemAlloc of %zu bytes failed: CUresult %d\n",
                             kMallocBytes[0], static_cast<int>(r));
                return EXIT_FAILURE;
            }
            CUDA_CHECK(cudaDeviceSynchronize());
            address[m] = p;
        } else {
            void* p = nullptr;
            CUDA_CHECK(mallocThenSync(&p, kMallocBytes[0]));
            address[m] = reinterpret_cast<uintptr_t>(p);
        }
        ms[m] = hostMs() - t0;
        if (!(ms[m] > 0.0)) {
            std::fprintf(stderr, "impossible measurement: %s %.6f ms\n", name,
                         ms[m]);
            return EXIT_FAILURE;
        }
    }
    // The common step is the most frequent distance between neighbours; a
    // jump is any other. Nothing is freed: each call's memory stays taken.
    std::vector<long long> steps;
    for (int m = 1; m < kMallocRun; ++m) {
        steps.push_back(static_cast<long long>(address[m] - address[m - 1]));
    }
    long long common = steps[0];
    size_t best = 0;
    for (long long s : steps) {
        const size_t count =
            static_cast<size_t>(std::count(steps.begin(), steps.end(), s));
        if (count > best) {
            best = count;
            common = s;
        }
    }
    std::vector<double> atJump, elsewhere;
    for (int m = 1; m < kMallocRun; ++m) {
        (steps[m - 1] == common ? elsewhere : atJump).push_back(ms[m]);
    }
    const unsigned long long block = 2ull << 20;
    std::printf("%s first call, ms: %.4f\n", name, ms[0]);
    std::printf("%s second call, ms: %.4f\n", name, ms[1]);
    std::printf("%s common step, bytes: %lld\n", name, common);
    std::printf("%s calls at the common step: %zu\n", name, best);
    std::printf("%s jumps: %zu\n", name, atJump.size());
    std::printf("%s first address within its 2 MiB block, bytes: %llu\n", name,
                address[0] % block);
    if (!atJump.empty()) {
        std::printf("%s median call at a jump, ms: %.4f\n", name,
                    medianOf(atJump));
    }
    std::printf("%s median call elsewhere, ms: %.4f\n", name,
                medianOf(elsewhere));
    return EXIT_SUCCESS;
}
