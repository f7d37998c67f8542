// SPDX-License-Identifier: MIT
//
// The C interface the Rust twin (src/main.rs) uses to launch the kernels of
// events.cu. bindgen reads this file; events.cu includes it when built with
// -DLESSON_NO_MAIN, so the compiler checks the two agree. Events, streams and
// clocks are the Rust twin's own business: only the kernels live here.
#ifndef REF_EVENTS_AND_TIMING_H
#define REF_EVENTS_AND_TIMING_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Queues spinFor on `stream` in the lesson's launch shape (one block of one
// warp): the kernel waits `ns` nanoseconds on the device's global timer.
cudaError_t events_spin(unsigned long long ns, cudaStream_t stream);

// Queues spinCycles in the same shape: `cycles` SM clock cycles, so its
// duration follows the SM clock. Unless `ns` is NULL, the kernel writes to
// that device address how long it ran on the device's global timer.
cudaError_t events_spin_cycles(long long cycles, unsigned long long* ns,
                               cudaStream_t stream);

// Launches every kernel of events.cu once, doing nothing, then synchronises
// `stream`: lazy loading's module and per-kernel loads, paid before
// anything is timed.
cudaError_t events_load_every_kernel(cudaStream_t stream);

// Queues spinFor for `ns` on as many blocks as the device holds at once, so
// no other kernel finds room until it ends.
cudaError_t events_hog(unsigned long long ns, cudaStream_t stream);

// Queues produce: every block waits `ns`, then buf[i] = 3 * i + 1.
cudaError_t events_produce(int* buf, int n, unsigned long long ns,
                           cudaStream_t stream);

// Queues consume: out[i] = 2 * buf[i] + 1.
cudaError_t events_consume(const int* buf, int* out, int n,
                           cudaStream_t stream);

// events.cu's constants, as the .cu compiles them: the Rust twin reads
// them here, so the .cu is their one source.
typedef struct events_constants {
    const double* part1_kernel_ms;  // num_part1 durations, static storage
    int num_part1;
    int part1_reps;
    double part2_kernel_ms;
    int part2_reps;
    double part3_kernel_ms;
    int part3_reps;
    int part4_ops;
    int part4_chain;
    int part4_rounds;
    double part5_producer_ms;
    int part5_elems;
    int part5_reps;
    double part6_kernel_ms;
    double part6_queued_ms;
    double part6_delay_ms;
    double part6_hog_ms;
    int part6_reps;
    double part7_idle_ms;
    long long part7_cycles;
    int part7_launches;
    int part8_iters;
    int warmup_runs;
    int timed_runs;
} events_constants;

events_constants events_lesson_constants(void);

#ifdef __cplusplus
}
#endif

#endif  // REF_EVENTS_AND_TIMING_H
