// SPDX-License-Identifier: MIT
//
// Day 11's page, measured where its text said more than its evidence
// (issue 43, W3, W5, W6 and the teaching gaps). Each part decides one
// statement:
//
//   the mix         is the 1 GiB copy "the" ceiling? Kernels that only read,
//                   only write, read three arrays for one written, read two
//                   for one (float4 vectorAdd) and copy (one for one), each
//                   over 1 GiB per array, timed by row4.cu's timeKernel. If
//                   the ceiling is the DRAM's alone, every mix runs at the
//                   copy's rate; if it depends on the mix, they differ.
//   warm and cold   does each launch find the arrays where the last one left
//                   them while they fit in the L2? A persistent float4
//                   vectorAdd and a read-only kernel over footprints of 12
//                   to 96 MiB, each launch timed by its own event pair, once
//                   right behind a launch of itself (warm) and once behind
//                   the read-only flush (cold), interleaved; the median of
//                   each. warm / cold stays low while the footprint fits in
//                   the L2 as a whole and climbs to 1 where it does not.
//   the latency     one thread chasing a random cycle of pointers, 128 bytes
//                   apart, over 8 MiB (in the L2) and 256 MiB (DRAM): the
//                   time of one dependent load, which Little's law turns into
//                   the bytes that must be in flight to reach the peak.
//   the launch      an empty kernel's cost to the GPU, with 1,000 launches
//                   queued behind a spin kernel so that the host is out of
//                   the way, beside the same launches back to back; and
//                   copy4 from 16 MiB to 1 GiB per array, whose times a
//                   line through the two largest splits into a start-and-
//                   tail cost and a rate
//   granularity     a strided read of 8 Mi floats at strides 1 to 32 with
//                   the L2's fetch granularity as the device sets it and at
//                   32 bytes (cudaLimitMaxL2FetchGranularity), and a strided
//                   write at the same strides: does a stride of 16 or more
//                   fetch more than the 32-byte sector it uses?
//
// and, for Nsight Compute (gpu-phases/causes.sh), launches in a known order:
//   profile-l2      the flush, then vectorAdd at 64 Ki elements three times;
//                   the flush, then vectorAdd at 2 Mi three times: what the
//                   second and third launches read from DRAM, with a metric
//                   set of one pass and of several
//   profile-l2 big-out  the same with the output array in an allocation of
//                   256 MiB (the launches still write the first 2 Mi floats):
//                   what ncu saves and restores between replay passes is then
//                   larger than the L2
//   profile-stride  strideRead at strides 8, 16 and 32, then the same at a
//                   32-byte fetch granularity, then strideWrite at strides 1,
//                   8 and 32: DRAM bytes per useful byte
//
// It includes row4.cu itself (its main renamed), so vectorAdd, vectorAdd4,
// copy4, the flush and the timing are the lesson's. Each figure is a line
// `LABEL: NUMBER`.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-mix why-mix.cu
// Run:   ./why-mix time | profile-l2 [big-out] | profile-stride

#define main day11_lesson_main
#include "../../row4.cu"
#undef main

#include <algorithm>
#include <random>
#include <string>

// out[i] = v for every float4 of out: a kernel that only writes.
__global__ void fill4(float4* out, size_t quads, float v) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < quads) {
        out[i] = make_float4(v, v, v, v);
    }
}

// out = a + b + c through float4s: three arrays read for one written.
__global__ void add3(const float4* a, const float4* b, const float4* c, float4* out,
                     size_t quads) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i < quads) {
        const float4 x = a[i], y = b[i], z = c[i];
        out[i] = make_float4(x.x + y.x + z.x, x.y + y.y + z.y, x.z + y.z + z.z,
                             x.w + y.w + z.w);
    }
}

// vectorAdd4 over `quads` float4s with a grid only as large as the GPU holds
// at once, each thread stepping by the whole grid: the grid is the same at
// every footprint, so only where the data sits changes.
__global__ void vectorAdd4Persistent(const float4* a, const float4* b, float4* out,
                                     size_t quads) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
         i < quads; i += stride) {
        const float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

// One thread follows `next` for `hops` dependent loads from node 0; the
// last index goes to *sink so the chain cannot be optimised away.
__global__ void chase(const unsigned* next, int hops, unsigned* sink) {
    unsigned j = 0;
    for (int h = 0; h < hops; ++h) {
        j = next[j];
    }
    *sink = j;
}

// Reads in[t * stride] for t < n, writing nothing unless a value equals
// `never` (the input is zeroed, and never is not zero).
__global__ void strideRead(const float* in, size_t n, int stride, float never,
                           float* sink) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t < n && in[t * stride] == never) {
        *sink = never;
    }
}

// out[t * stride] = 1 for t < n: a warp writes 32 floats, `stride` apart.
__global__ void strideWrite(float* out, size_t n, int stride) {
    const size_t t = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (t < n) {
        out[t * stride] = 1.0f;
    }
}

// Nothing: a launch and a block, and no work.
__global__ void nothing() {}

// A chain of `steps` dependent FMAs in each thread, touching no memory
// unless the result equals `never`, which it does not.
__global__ void spin(long long steps, float never, float* sink) {
    float v = static_cast<float>(threadIdx.x);
    for (long long k = 0; k < steps; ++k) {
        v = fmaf(v, 0.999999f, 0.5f);
    }
    if (v == never) {
        *sink = v;
    }
}

namespace {

constexpr int kQueuedLaunches = 1000;
constexpr int kCopyMib[] = {16, 64, 256, 1024};
constexpr size_t kMixBytes = 1ull << 30;
constexpr size_t kMixQuads = kMixBytes / sizeof(float4);
// Footprints (all arrays of a kernel together), MiB.
constexpr int kFootprintMib[] = {12, 24, 36, 48, 60, 72, 96};
constexpr int kColdWarmReps = 21;
constexpr int kChaseLineBytes = 128;
constexpr int kChaseHops = 100000;
constexpr size_t kStrideElems = 8ull << 20;
constexpr int kStrides[] = {1, 8, 16, 32};

void line(const std::string& label, double value) {
    std::printf("%s: %.5f\n", label.c_str(), value);
}

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Exits 1 unless every float of d_buf's first `n` is `want`.
void checkAll(const char* what, const float* d_buf, size_t n, float want) {
    std::vector<float> got(n);
    CUDA_CHECK(cudaMemcpy(got.data(), d_buf, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
        if (got[i] != want) {
            std::fprintf(stderr, "%s wrong at %zu: got %.9g, want %.9g\n", what, i,
                         got[i], want);
            std::exit(EXIT_FAILURE);
        }
    }
}

// The device buffers every part shares: four of 1 GiB, the flush, a sink.
struct Buffers {
    float *a, *b, *c, *out, *flush, *sink;
    size_t flushQuads;
};

void flushL2(const Buffers& d) {
    readToFlush<<<blocksFor(d.flushQuads), kThreadsPerBlock>>>(
        reinterpret_cast<const float4*>(d.flush), d.flushQuads, 1.0f, d.sink);
}

// The mix at 1 GiB per array; GB/s counts bytes read plus written.
void mixPart(const Buffers& d) {
    const int blocks = blocksFor(kMixQuads);
    const auto a4 = reinterpret_cast<const float4*>(d.a);
    const auto b4 = reinterpret_cast<const float4*>(d.b);
    const auto c4 = reinterpret_cast<const float4*>(d.c);
    const auto out4 = reinterpret_cast<float4*>(d.out);
    const size_t floats = kMixBytes / sizeof(float);
    const double gib = static_cast<double>(kMixBytes);
    auto rate = [&](double arrays, float ms) { return arrays * gib / (ms * 1.0e6); };

    fill4<<<blocks, kThreadsPerBlock>>>(reinterpret_cast<float4*>(d.a), kMixQuads, 1.0f);
    fill4<<<blocks, kThreadsPerBlock>>>(reinterpret_cast<float4*>(d.b), kMixQuads, 2.0f);
    fill4<<<blocks, kThreadsPerBlock>>>(reinterpret_cast<float4*>(d.c), kMixQuads, 4.0f);
    CUDA_CHECK(cudaGetLastError());

    const float readMs = timeKernel([&] {
        readToFlush<<<blocks, kThreadsPerBlock>>>(a4, kMixQuads, 0.0f, d.sink);
    });
    line("mix read-only 1 GiB, GB/s", rate(1, readMs));
    const float writeMs =
        timeKernel([&] { fill4<<<blocks, kThreadsPerBlock>>>(out4, kMixQuads, 5.0f); });
    checkAll("fill4", d.out, floats, 5.0f);
    line("mix write-only 1 GiB, GB/s", rate(1, writeMs));
    const float add3Ms = timeKernel(
        [&] { add3<<<blocks, kThreadsPerBlock>>>(a4, b4, c4, out4, kMixQuads); });
    checkAll("add3", d.out, floats, 7.0f);
    line("mix 3 reads to 1 write 1 GiB, GB/s", rate(4, add3Ms));
    const float add2Ms = timeKernel([&] {
        vectorAdd4<<<blocksForVec4(floats), kThreadsPerBlock>>>(d.a, d.b, d.out, floats);
    });
    checkAll("vectorAdd4", d.out, floats, 3.0f);
    line("mix 2 reads to 1 write 1 GiB, GB/s", rate(3, add2Ms));
    const float copyMs = timeKernel([&] {
        copy4<<<blocksForVec4(floats), kThreadsPerBlock>>>(d.a, d.out, floats);
    });
    checkAll("copy4", d.out, floats, 1.0f);
    line("mix copy 1 GiB, GB/s", rate(2, copyMs));
}

// One launch of `kernel` timed by its own event pair, behind whatever the
// caller queued before it.
template <typename LaunchFn>
float eventTimed(cudaEvent_t start, cudaEvent_t stop, LaunchFn kernel) {
    CUDA_CHECK(cudaEventRecord(start));
    kernel();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
}

// Warm (behind a launch of itself) against cold (behind the flush), the
// medians in us and their ratio, as `footprint F MiB KERNEL warm, us` etc.
template <typename LaunchFn>
void warmCold(const Buffers& d, int mib, const char* kernel, LaunchFn launch) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<float> warm, cold;
    for (int r = 0; r < kColdWarmReps + 1; ++r) {
        launch();
        const float w = eventTimed(start, stop, launch);
        flushL2(d);
        const float c = eventTimed(start, stop, launch);
        if (r > 0) {  // the first round warms up the kernels and the events
            warm.push_back(w);
            cold.push_back(c);
        }
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    const std::string at = "footprint " + std::to_string(mib) + " MiB " + kernel;
    const double w = median(warm), c = median(cold);
    line(at + " warm, us", w * 1.0e3);
    line(at + " cold, us", c * 1.0e3);
    line(at + " warm/cold", w / c);
}

void warmColdPart(const Buffers& d, int sms) {
    int perSm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSm, vectorAdd4Persistent, kThreadsPerBlock, 0));
    const int persistent = perSm * sms;
    for (int mib : kFootprintMib) {
        const size_t bytes = static_cast<size_t>(mib) << 20;
        // Three arrays of a third of the footprint each, in whole float4s.
        const size_t addQuads = bytes / 3 / sizeof(float4);
        warmCold(d, mib, "vectorAdd4 persistent", [&] {
            vectorAdd4Persistent<<<persistent, kThreadsPerBlock>>>(
                reinterpret_cast<const float4*>(d.a), reinterpret_cast<const float4*>(d.b),
                reinterpret_cast<float4*>(d.out), addQuads);
        });
        const size_t readQuads = bytes / sizeof(float4);
        warmCold(d, mib, "read-only", [&] {
            readToFlush<<<blocksFor(readQuads), kThreadsPerBlock>>>(
                reinterpret_cast<const float4*>(d.c), readQuads, 0.0f, d.sink);
        });
    }
    checkAll("vectorAdd4Persistent", d.out, (96ull << 20) / 3 / sizeof(float4) * 4, 3.0f);
}

// ns per dependent load over a random cycle of `bytes / kChaseLineBytes`
// nodes, one per 128-byte line (Sattolo's shuffle: one cycle through all).
double chaseNs(const Buffers& d, size_t bytes, unsigned* d_next, unsigned* d_sink) {
    const size_t words = bytes / sizeof(unsigned);
    const size_t step = kChaseLineBytes / sizeof(unsigned);
    const size_t nodes = words / step;
    std::vector<unsigned> order(nodes);
    for (size_t k = 0; k < nodes; ++k) order[k] = static_cast<unsigned>(k);
    std::mt19937_64 rng(43);
    for (size_t k = nodes - 1; k > 0; --k) {
        std::uniform_int_distribution<size_t> pick(0, k - 1);
        std::swap(order[k], order[pick(rng)]);
    }
    std::vector<unsigned> next(words, 0);
    for (size_t k = 0; k < nodes; ++k) {
        next[k * step] = static_cast<unsigned>(order[k] * step);
    }
    CUDA_CHECK(cudaMemcpy(d_next, next.data(), bytes, cudaMemcpyHostToDevice));
    // Warm: the chain's first hops once, then the flush for the DRAM chase
    // (larger than the L2) or a full lap for the L2 one (inside it).
    const bool inL2 = bytes < (32ull << 20);
    chase<<<1, 1>>>(d_next, inL2 ? static_cast<int>(nodes) : 1000, d_sink);
    if (!inL2) flushL2(d);
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    const float ms = eventTimed(start, stop, [&] { chase<<<1, 1>>>(d_next, kChaseHops, d_sink); });
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    // The host walks the same cycle: the kernel's last index must match.
    unsigned want = 0, got = 0;
    for (int h = 0; h < kChaseHops; ++h) want = next[want];
    CUDA_CHECK(cudaMemcpy(&got, d_sink, sizeof(got), cudaMemcpyDeviceToHost));
    if (got != want) {
        std::fprintf(stderr, "chase wrong: ended at %u, want %u\n", got, want);
        std::exit(EXIT_FAILURE);
    }
    return ms * 1.0e6 / kChaseHops;
}

void latencyPart(const Buffers& d) {
    // The chain lives in d.c, zeroed afterwards for the strided reads.
    auto next = reinterpret_cast<unsigned*>(d.c);
    auto sink = reinterpret_cast<unsigned*>(d.sink);
    line("pointer chase 8 MiB, ns per load", chaseNs(d, 8ull << 20, next, sink));
    line("pointer chase 256 MiB, ns per load", chaseNs(d, 256ull << 20, next, sink));
}

// The GPU's own cost per empty launch: a spin kernel of about 20 ms holds
// the stream while the host queues kQueuedLaunches launches behind it, so
// the event pair around them times the GPU alone. The start event is still
// pending when the last launch is queued if, and only if, the spin was
// still running: `queued ahead` says so (1), or that the figure is void (0).
void launchPart(const Buffers& d) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    const long long probe = 1ll << 20;
    const float probeMs = timeKernel([&] { spin<<<1, 32>>>(probe, -1.0f, d.sink); });
    const long long steps = static_cast<long long>(probe * (20.0 / probeMs));
    nothing<<<1, 32>>>();
    spin<<<1, 32>>>(steps, -1.0f, d.sink);
    CUDA_CHECK(cudaEventRecord(start));
    for (int i = 0; i < kQueuedLaunches; ++i) {
        nothing<<<1, 32>>>();
    }
    CUDA_CHECK(cudaEventRecord(stop));
    const cudaError_t pending = cudaEventQuery(start);
    if (pending != cudaErrorNotReady) {
        CUDA_CHECK(pending);
    }
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    line("empty kernels queued ahead", pending == cudaErrorNotReady ? 1.0 : 0.0);
    line("empty kernel queued behind a spin, us per launch", ms * 1.0e3 / kQueuedLaunches);
    line("empty kernel back to back, us per launch",
         timeKernel([] { nothing<<<1, 32>>>(); }) * 1.0e3);
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    for (int mib : kCopyMib) {
        const size_t floats = (static_cast<size_t>(mib) << 20) / sizeof(float);
        const float copyMs = timeKernel([&] {
            copy4<<<blocksForVec4(floats), kThreadsPerBlock>>>(d.a, d.out, floats);
        });
        line("copy4 " + std::to_string(mib) + " MiB per array, us", copyMs * 1.0e3);
    }
}

// Sets the L2's fetch granularity, or says it cannot (a device or driver
// may not support the limit): false then, and no error is left behind.
bool setFetchGranularity(size_t bytes) {
    const cudaError_t err = cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, bytes);
    if (err == cudaErrorUnsupportedLimit || err == cudaErrorInvalidValue) {
        cudaGetLastError();
        return false;
    }
    CUDA_CHECK(err);
    return true;
}

// Strided reads at the device's fetch granularity and at 32 bytes, then
// strided writes; GB/s counts the useful bytes, 4 per element.
void stridePart(const Buffers& d) {
    CUDA_CHECK(cudaMemset(d.c, 0, kMixBytes));
    const int blocks = blocksFor(kStrideElems);
    const double useful = 4.0 * static_cast<double>(kStrideElems);
    size_t granularity = 0;
    CUDA_CHECK(cudaDeviceGetLimit(&granularity, cudaLimitMaxL2FetchGranularity));
    line("L2 fetch granularity as set, bytes", static_cast<double>(granularity));
    for (const bool fine : {false, true}) {
        if (fine && !setFetchGranularity(32)) {
            line("L2 fetch granularity settable", 0.0);
            break;
        }
        for (int s : kStrides) {
            const float ms = timeKernel([&] {
                strideRead<<<blocks, kThreadsPerBlock>>>(d.c, kStrideElems, s, 1.0f, d.sink);
            });
            line("stride " + std::to_string(s) + " read" + (fine ? " at 32-byte fetch" : "") +
                     ", GB/s",
                 useful / (ms * 1.0e6));
        }
    }
    setFetchGranularity(granularity);
    for (int s : kStrides) {
        const float ms = timeKernel(
            [&] { strideWrite<<<blocks, kThreadsPerBlock>>>(d.out, kStrideElems, s); });
        line("stride " + std::to_string(s) + " write, GB/s", useful / (ms * 1.0e6));
    }
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    const bool bigOut = argc > 2 && std::string(argv[2]) == "big-out";
    if ((mode != "time" && mode != "profile-l2" && mode != "profile-stride") ||
        (argc > 2 && !(mode == "profile-l2" && bigOut)) || argc > 3) {
        std::fprintf(stderr, "usage: %s time | profile-l2 [big-out] | profile-stride\n", argv[0]);
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    MemoryFacts facts = {0, 0, 0};
    CUDA_CHECK(memoryFacts(0, &facts));
    Buffers d = {};
    const size_t fBytes = flushBytes(facts);
    d.flushQuads = fBytes / sizeof(float4);
    // profile-l2 needs 2 Mi floats per array; a small allocation keeps
    // what ncu saves and restores between replay passes small too.
    const size_t arrayBytes = mode == "profile-l2" ? (kSweep[5] * sizeof(float)) : kMixBytes;
    for (float** p : {&d.a, &d.b, &d.c, &d.out}) {
        // big-out: the output's allocation 256 MiB, over four times the L2.
        const size_t bytes = (bigOut && p == &d.out) ? (256ull << 20) : arrayBytes;
        CUDA_CHECK(cudaMalloc(p, bytes));
        CUDA_CHECK(cudaMemset(*p, 0, bytes));
    }
    CUDA_CHECK(cudaMalloc(&d.flush, fBytes));
    CUDA_CHECK(cudaMemset(d.flush, 0, fBytes));
    CUDA_CHECK(cudaMalloc(&d.sink, 64));

    if (mode == "profile-l2") {
        // Inputs a = 1 and b = 2 everywhere, so every output is 3.
        const size_t quads = arrayBytes / sizeof(float4);
        const int blocks = blocksFor(quads);
        fill4<<<blocks, kThreadsPerBlock>>>(reinterpret_cast<float4*>(d.a), quads, 1.0f);
        fill4<<<blocks, kThreadsPerBlock>>>(reinterpret_cast<float4*>(d.b), quads, 2.0f);
        for (size_t n : {kSweep[0], kSweep[5]}) {
            flushL2(d);
            for (int k = 0; k < 3; ++k) {
                vectorAdd<<<blocksFor(n), kThreadsPerBlock>>>(d.a, d.b, d.out, n);
            }
            CUDA_CHECK(cudaGetLastError());
            checkAll("vectorAdd", d.out, n, 3.0f);
        }
        return EXIT_SUCCESS;
    }
    if (mode == "profile-stride") {
        const int blocks = blocksFor(kStrideElems);
        size_t granularity = 0;
        CUDA_CHECK(cudaDeviceGetLimit(&granularity, cudaLimitMaxL2FetchGranularity));
        for (const bool fine : {false, true}) {
            setFetchGranularity(fine ? 32 : granularity);
            for (int s : {8, 16, 32}) {
                strideRead<<<blocks, kThreadsPerBlock>>>(d.c, kStrideElems, s, 1.0f, d.sink);
            }
        }
        setFetchGranularity(granularity);
        for (int s : {1, 8, 32}) {
            strideWrite<<<blocks, kThreadsPerBlock>>>(d.out, kStrideElems, s);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaGetLastError());
        return EXIT_SUCCESS;
    }

    mixPart(d);
    warmColdPart(d, sms);
    latencyPart(d);
    launchPart(d);
    stridePart(d);
    for (float* p : {d.a, d.b, d.c, d.out, d.flush, d.sink}) {
        CUDA_CHECK(cudaFree(p));
    }
    return EXIT_SUCCESS;
}
