// SPDX-License-Identifier: MIT
//
// What the probes in this folder share: CHECK, which ends the probe with
// one line naming the failed call, and the timing of a replayed graph. A
// probe still builds with its one nvcc line: this header sits beside it.

#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                    \
                         cudaGetErrorString(err_));                                    \
            std::exit(1);                                                              \
        }                                                                              \
    } while (0)

// The median of `replays` timed replays of `exec` (after 3 untimed ones),
// each between events `e0` and `e1` on `s`, per launch of the graph's
// `nodes` launches, in us; `after_each` runs after every replay.
template <typename F>
static float replay_us_per_launch(cudaGraphExec_t exec, cudaStream_t s, cudaEvent_t e0,
                                  cudaEvent_t e1, int nodes, int replays, F after_each) {
    std::vector<float> t;
    for (int r = 0; r < 3 + replays; ++r) {
        CHECK(cudaEventRecord(e0, s));
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaEventRecord(e1, s));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 3) t.push_back(ms * 1000.0f / nodes);
        after_each();
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
