// SPDX-License-Identifier: MIT
//
// Day 53's Part 1 again, with the source's cache state as the variable: is
// the pageable copies' drop at 64 MiB and above the host's caches, not the
// copy path? Part 1 copies the same pageable buffer thirteen times per cell
// (timeKernel's three warm-ups and ten timed runs), so from the second copy
// on a small source is read out of the CPU's caches by the driver's staging
// copy. Here every size is copied four ways, each mean of ten after three
// warm-ups, as Part 1 times them:
//
//   pageable one buffer   the first `size` bytes of the pool every time, as
//                         Part 1 does
//   pageable rotated      each copy the next `size` bytes of a 2 GiB pool,
//                         round robin, so every copy reads the bytes read
//                         least recently: far more than any CPU cache holds
//   pinned one buffer     Part 1's pinned column
//   pinned rotated        the same rotation over a pinned pool: the copy
//                         engine reads host memory itself, with no staging
//                         copy, so this should match pinned one buffer
//
// It includes pinned.cu itself (its main renamed), so the copies are timed by
// the lesson's own timeKernel, with its constants, sizes and checks; only the
// host buffers differ. Each figure is a line `LABEL: NUMBER`, once per pass.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o pageable-rotated pageable-rotated.cu
// Run:   ./pageable-rotated [passes]      (code/day53-pinned/tools/gpu-phases/staging.sh)

#define main day53_lesson_main
#include "../../pinned.cu"
#undef main

// The pools. 2 GiB, eight times Part 1's largest copy, so that a rotated
// 256 MiB copy too is read 2 GiB after its bytes were last touched.
constexpr size_t kPoolBytes = 2048 * kMiB;
static_assert(kPoolBytes % kMaxSweepBytes == 0,
              "every sweep size divides the pool, so the rotation wraps cleanly");

namespace {

// One source of copies: a pool, and where its next rotated copy starts.
struct Pool {
    const char* base;
    size_t next;
};

// The next `bytes` of the pool, wrapping to its start.
const char* nextSlice(Pool& pool, size_t bytes) {
    if (pool.next + bytes > kPoolBytes) {
        pool.next = 0;
    }
    const char* slice = pool.base + pool.next;
    pool.next += bytes;
    return slice;
}

// Fills the pool with a pattern whose every 256 MiB slice differs, so a copy
// of the wrong slice cannot pass the gate.
void fill(float* pool) {
    const size_t elems = kPoolBytes / sizeof(float);
    for (size_t i = 0; i < elems; ++i) {
        pool[i] = static_cast<float>(i % 977) * 0.25f +
                  static_cast<float>(i / (kMaxSweepBytes / sizeof(float)));
    }
}

// Gate: the pool's last 256 MiB slice, copied up and back, arrives intact.
bool copiesReally(const char* name, const float* pool, float* d_buf,
                  std::vector<float>& back) {
    const size_t elems = kMaxSweepBytes / sizeof(float);
    const float* src = pool + (kPoolBytes - kMaxSweepBytes) / sizeof(float);
    CUDA_CHECK(cudaMemcpy(d_buf, src, kMaxSweepBytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(back.data(), d_buf, kMaxSweepBytes,
                          cudaMemcpyDeviceToHost));
    const size_t bad = firstMismatch(back.data(), src, elems, 0.0f);
    if (bad != elems) {
        std::fprintf(stderr, "%s H2D copy wrong at %zu: got %.9g, want %.9g\n",
                     name, bad, back[bad], src[bad]);
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const int passes = argc > 1 ? std::atoi(argv[1]) : 2;
    if (passes < 1) {
        std::fprintf(stderr, "usage: pageable-rotated [passes >= 1]\n");
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);
    std::printf(
        "host-to-device cudaMemcpy, mean of %d runs after %d warm-ups per "
        "figure (pinned.cu's timeKernel); pools of %zu MiB, pageable "
        "(std::vector) and pinned (cudaMallocHost)\n",
        kTimedRuns, kWarmupRuns, kPoolBytes / kMiB);

    std::vector<float> pageable(kPoolBytes / sizeof(float));
    float* pinned = nullptr;
    CUDA_CHECK(cudaMallocHost(&pinned, kPoolBytes));
    fill(pageable.data());
    fill(pinned);
    std::vector<float> back(kMaxSweepBytes / sizeof(float));
    void* d_buf = nullptr;
    CUDA_CHECK(cudaMalloc(&d_buf, kMaxSweepBytes));

    const bool ok = copiesReally("pageable", pageable.data(),
                                 static_cast<float*>(d_buf), back) &&
                    copiesReally("pinned", pinned, static_cast<float*>(d_buf),
                                 back);
    if (ok) {
        Pool pools[2] = {{reinterpret_cast<const char*>(pageable.data()), 0},
                         {reinterpret_cast<const char*>(pinned), 0}};
        const char* kinds[2] = {"pageable", "pinned"};
        for (int pass = 1; pass <= passes; ++pass) {
            std::printf("\npass %d\n", pass);
            for (int sz = 0; sz < kNumSweep; ++sz) {
                const size_t bytes = kSweepMiB[sz] * kMiB;
                for (int k = 0; k < 2; ++k) {
                    Pool& pool = pools[k];
                    // The lesson's way: one source, read again and again.
                    const double oneMs = timeKernel([&] {
                        CUDA_CHECK(cudaMemcpy(d_buf, pool.base, bytes,
                                              cudaMemcpyHostToDevice));
                    });
                    // Each copy, warm-ups included, from the next slice.
                    const double rotatedMs = timeKernel([&] {
                        CUDA_CHECK(cudaMemcpy(d_buf, nextSlice(pool, bytes),
                                              bytes, cudaMemcpyHostToDevice));
                    });
                    std::printf("%zu MiB %s one buffer, GB/s: %.2f\n",
                                kSweepMiB[sz], kinds[k], gbPerS(bytes, oneMs));
                    std::printf("%zu MiB %s rotated, GB/s: %.2f\n",
                                kSweepMiB[sz], kinds[k],
                                gbPerS(bytes, rotatedMs));
                }
            }
        }
    }

    CUDA_CHECK(cudaFree(d_buf));
    CUDA_CHECK(cudaFreeHost(pinned));
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
