// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 53's kernel
// from pinned.cu. bindgen reads this file; pinned.cu includes it when built
// with -DLESSON_NO_MAIN, so the compiler checks the two agree.
#ifndef DAY53_PINNED_H
#define DAY53_PINNED_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Queues scaleCopy (out[i] = 2 * in[i] for i < n) on `stream` with pinned.cu's
// block size and returns the launch's status. `in` may be device memory or
// the device address of mapped host memory (zero-copy).
cudaError_t day53_scale_copy(const float* in, float* out, size_t n,
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif  // DAY53_PINNED_H
