// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch Day 11's
// kernels from row4.cu and read the device's memory facts. bindgen reads
// this file; row4.cu includes it when built with -DLESSON_NO_MAIN, so the
// compiler checks the two agree.
//
// Each launcher queues one launch on `stream` with row4.cu's own block size
// and grid, and returns that launch's status (cudaGetLastError). Device
// pointers only.
#ifndef DAY11_ROW4_H
#define DAY11_ROW4_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// vectorAdd: out[i] = a[i] + b[i] for i < n, one thread per element.
cudaError_t day11_vector_add(const float* a, const float* b, float* out,
                             size_t n, cudaStream_t stream);

// vectorAdd4: the same through float4 loads and stores.
cudaError_t day11_vector_add4(const float* a, const float* b, float* out,
                              size_t n, cudaStream_t stream);

// copy4: dst[i] = src[i] for i < n through float4s.
cudaError_t day11_copy4(const float* src, float* dst, size_t n,
                        cudaStream_t stream);

// readToFlush over the first `bytes` of `buf` (zeroed by the caller); `sink`
// is one float it never writes unless the buffer holds something else.
cudaError_t day11_read_to_flush(const float* buf, size_t bytes, float* sink,
                                cudaStream_t stream);

// cudaMemset over n floats, every byte `value` (0xFF makes each a NaN).
cudaError_t day11_fill_bytes(float* out, int value, size_t n);

// cudaMemcpy of n floats, device to device.
cudaError_t day11_copy_device(float* dst, const float* src, size_t n);

// The device's memory facts, and what row4.cu computes from them.
typedef struct day11_memory_facts {
    int memory_clock_khz;  // cudaDevAttrMemoryClockRate; 0 if not reported
    int bus_width_bits;    // cudaDevAttrGlobalMemoryBusWidth; 0 if not reported
    int l2_bytes;          // cudaDevAttrL2CacheSize
    double peak_gb_s;      // 2 x clock x bus width / 8; 0 if not available
    size_t flush_bytes;    // the L2 flush buffer's size
} day11_memory_facts;

cudaError_t day11_memory_facts_of(int device, day11_memory_facts* out);

// The CPU reference loop, out[i] = a[i] + b[i] on the host, one thread.
void day11_vector_add_cpu(const float* a, const float* b, float* out,
                          size_t n);

// The grid vectorAdd uses for n elements.
int day11_blocks_for(size_t n);

// row4.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct day11_constants {
    size_t elems;
    int threads_per_block;
    int warmup_runs;
    int timed_runs;
    float rel_tolerance;
    const size_t* sweep;  // num_sweep sizes, static storage
    int num_sweep;
} day11_constants;

day11_constants day11_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // DAY11_ROW4_H
