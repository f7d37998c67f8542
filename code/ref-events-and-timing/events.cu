// SPDX-License-Identifier: MIT
//
// The reference page "Events and Timing", measured: one part per claim.
//
//   1  A launch returns once it is queued: a host clock around launches of
//      10 us, 1 ms and 10 ms kernels, without and with a sync.
//   2  Events avoid the host's scheduling noise: one kernel timed many times
//      with events and with a host clock plus sync, and the spread of each.
//   3  Spinning against blocking sync: the process's CPU time while it waits
//      on a 50 ms kernel, and how late it wakes, for both kinds of event.
//   4  DisableTiming events are cheaper: the host cost of a record plus a
//      stream wait, and a chain of kernels with records, timed per link (a
//      launched link is the host's launch call: tools/gpu-phases/why-chain.cu).
//   5  Cross-stream dependencies without the host: a producer on one stream,
//      a consumer on another behind cudaStreamWaitEvent.
//   6  What an event interval holds: work queued before its start, a host
//      delay inside it, another stream's work competing inside it.
//   7  Clocks after idle: the first launches after a pause, each timed alone,
//      beside the kernel's own duration on the device's timer, the launch
//      call's host time and NVML's SM clock.
//   8  The page's timing pattern against the course's timeKernel.
//
// The course bans host clocks (CUDA-CODE-STYLE.md, "No host clocks"). This
// file reads them on purpose in Parts 1 to 4, 6 and 7, because the page's
// claims there are about the host: what a host clock around a launch sees,
// how much CPU a wait burns and how late it wakes, what an API call costs the
// calling thread, and a host delay placed inside an event interval. Every
// kernel duration the page talks about is still measured with events (and in
// Part 7 also by the kernel itself, on the device's timer).
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -lineinfo -o events events.cu
// Run:   ./events

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <cuda_runtime.h>
#include <dlfcn.h>

// verbatim: cuda-check
// The course's one error macro. Each lesson file carries its own copy so that
// it builds alone; CI keeps every copy identical. `err_` has a trailing
// underscore so it cannot shadow a name at the call site, and do/while(0)
// makes the macro a single statement, safe under an `if` without braces.
#define CUDA_CHECK(call)                                                 \
    do {                                                                 \
        cudaError_t err_ = (call);                                       \
        if (err_ != cudaSuccess) {                                       \
            std::fprintf(stderr, "CUDA error %s:%d: %s: %s\n", __FILE__, \
                         __LINE__, #call, cudaGetErrorString(err_));     \
            std::exit(EXIT_FAILURE);                                     \
        }                                                                \
    } while (0)
// end verbatim

// The launch shape of every timed spin: one block of one warp. The kernels
// do nothing but wait, so their durations are what the program sets.
constexpr int kSpinBlocks = 1;
constexpr int kSpinThreads = 32;
constexpr int kThreadsPerBlock = 256;  // produce, consume and the hog

// Part 1: kernels of about 10 us, 1 ms and 10 ms, 20 launches each way.
constexpr double kPart1KernelMs[] = {0.010, 1.0, 10.0};
constexpr int kNumPart1 = 3;
constexpr int kPart1Reps = 20;
// Part 2: one 0.1 ms kernel, 50 timings each way.
constexpr double kPart2KernelMs = 0.1;
constexpr int kPart2Reps = 50;
// Part 3: a 50 ms kernel, waited on 5 times with each kind of event.
constexpr double kPart3KernelMs = 50.0;
constexpr int kPart3Reps = 5;
// Part 4: 1000 record-and-wait pairs per round; chains of 100 kernels.
constexpr int kPart4Ops = 1000;
constexpr int kPart4Chain = 100;
constexpr int kPart4Rounds = 5;
// Part 5: a 5 ms producer writing 1 Mi ints, 5 times.
constexpr double kPart5ProducerMs = 5.0;
constexpr int kPart5Elems = 1 << 20;
constexpr int kPart5Reps = 5;
// Part 6: a 1 ms kernel between two events; 5 ms queued ahead of the start
// event, a 3 ms host delay after it, or 5 ms of another stream's work.
constexpr double kPart6KernelMs = 1.0;
constexpr double kPart6QueuedMs = 5.0;
constexpr double kPart6DelayMs = 3.0;
constexpr double kPart6HogMs = 5.0;
constexpr int kPart6Reps = 3;
// Part 7: 1.5 s of idle, then 20 launches of 200000 SM cycles (about 0.1 ms
// at 2 GHz), each timed alone.
constexpr double kPart7IdleMs = 1500.0;
constexpr long long kPart7Cycles = 200000;
constexpr int kPart7Launches = 20;
constexpr int kPart7First = 3;   // "the first few"
constexpr int kPart7Steady = 10; // the last ten are steady state
// Part 8: the page's loop length.
constexpr int kPart8Iters = 100;
// timeKernel's counts, the course's three and ten.
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 10;

static_assert(sizeof(kPart1KernelMs) / sizeof(kPart1KernelMs[0]) == kNumPart1,
              "kNumPart1 counts Part 1's kernels");
static_assert(kPart7First + kPart7Steady <= kPart7Launches,
              "the first and the steady launches do not overlap");
static_assert(kThreadsPerBlock % 32 == 0, "a block is a whole number of warps");
// consume writes 2 * (3i + 1) + 1 = 6i + 3 for the largest i, n - 1.
static_assert(6LL * (kPart5Elems - 1) + 3 <= INT_MAX,
              "Part 5's values fit an int");

// The device's global timer, in nanoseconds. It runs at a fixed rate
// whatever the SM clock does, so a spin on it lasts the time asked for.
__device__ unsigned long long globalNs() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Waits `ns` nanoseconds on the global timer; every thread spins alone.
__global__ void spinFor(unsigned long long ns) {
    const unsigned long long start = globalNs();
    while (globalNs() - start < ns) {
    }
}

// Waits `cycles` SM clock cycles: a fixed amount of work, so its duration
// is longer when the SM clock is lower. Part 7's and Part 8's kernel. Unless
// `ns` is null, thread 0 writes there how long it ran on the global timer:
// the kernel's own duration, with no launch and no event in it.
__global__ void spinCycles(long long cycles, unsigned long long* ns) {
    const unsigned long long begin = globalNs();
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (ns != nullptr && threadIdx.x == 0) {
        *ns = globalNs() - begin;
    }
}

// Part 5's producer: each block's first thread waits `ns` (the producer's
// "work"), then the grid writes buf[i] = 3 * i + 1. With consume's 6i + 3,
// that needs n <= 357913941 (6 (n - 1) + 3 <= INT_MAX), asserted above.
__global__ void produce(int* buf, int n, unsigned long long ns) {
    if (threadIdx.x == 0) {
        const unsigned long long start = globalNs();
        while (globalNs() - start < ns) {
        }
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        buf[i] = 3 * i + 1;
    }
}

// Part 5's consumer: reads what the producer wrote. One thread per element.
__global__ void consume(const int* buf, int* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 2 * buf[i] + 1;
    }
}

// The producer's grid: few enough blocks to be resident at once, so the
// whole producer lasts one wait.
constexpr int kProduceBlocks = 64;

// Nanoseconds in `ms` milliseconds, rounded to the nearest: 0.01 ms is not
// exact in binary, and truncation could make it 9999 ns.
static unsigned long long nsFromMs(double ms) {
    return static_cast<unsigned long long>(ms * 1.0e6 + 0.5);
}

// Launches every kernel of this file once, doing nothing. Lazy loading (the
// Linux default since CUDA 12.2) loads the module at the first launch of any
// of its kernels, and each kernel's own code at that kernel's first launch;
// so each one is launched here, before anything is timed (rule 3 of
// CUDA-CODE-STYLE.md). main and the Rust twin both call it.
static cudaError_t loadEveryKernel(cudaStream_t stream) {
    spinFor<<<kSpinBlocks, kSpinThreads, 0, stream>>>(0);
    spinCycles<<<kSpinBlocks, kSpinThreads, 0, stream>>>(0, nullptr);
    produce<<<1, kThreadsPerBlock, 0, stream>>>(nullptr, 0, 0);
    consume<<<1, kThreadsPerBlock, 0, stream>>>(nullptr, nullptr, 0);
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        return err;
    }
    return cudaStreamSynchronize(stream);
}

// Blocks of kThreadsPerBlock that fill every SM at once for spinFor.
static int hogBlocks() {
    int device = 0;
    int sms = 0;
    int perSm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &perSm, spinFor, kThreadsPerBlock, 0));
    return sms * perSm;
}

#ifdef LESSON_NO_MAIN
// Built into the Rust twin (code/ref-events-and-timing/src/main.rs): the
// same kernels in the same shapes, launched through events.h.
#include "events.h"

extern "C" cudaError_t events_spin(unsigned long long ns,
                                   cudaStream_t stream) {
    spinFor<<<kSpinBlocks, kSpinThreads, 0, stream>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t events_spin_cycles(long long cycles,
                                          unsigned long long* ns,
                                          cudaStream_t stream) {
    spinCycles<<<kSpinBlocks, kSpinThreads, 0, stream>>>(cycles, ns);
    return cudaGetLastError();
}

extern "C" cudaError_t events_load_every_kernel(cudaStream_t stream) {
    return loadEveryKernel(stream);
}

extern "C" cudaError_t events_hog(unsigned long long ns, cudaStream_t stream) {
    spinFor<<<hogBlocks(), kThreadsPerBlock, 0, stream>>>(ns);
    return cudaGetLastError();
}

extern "C" cudaError_t events_produce(int* buf, int n, unsigned long long ns,
                                      cudaStream_t stream) {
    produce<<<kProduceBlocks, kThreadsPerBlock, 0, stream>>>(buf, n, ns);
    return cudaGetLastError();
}

extern "C" cudaError_t events_consume(const int* buf, int* out, int n,
                                      cudaStream_t stream) {
    consume<<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock,
              0, stream>>>(buf, out, n);
    return cudaGetLastError();
}

// The constants above, so the Rust twin's tests can hold its copies to
// what this file compiles with.
extern "C" events_constants events_lesson_constants(void) {
    events_constants c;
    c.part1_kernel_ms = kPart1KernelMs;
    c.num_part1 = kNumPart1;
    c.part1_reps = kPart1Reps;
    c.part2_kernel_ms = kPart2KernelMs;
    c.part2_reps = kPart2Reps;
    c.part3_kernel_ms = kPart3KernelMs;
    c.part3_reps = kPart3Reps;
    c.part4_ops = kPart4Ops;
    c.part4_chain = kPart4Chain;
    c.part4_rounds = kPart4Rounds;
    c.part5_producer_ms = kPart5ProducerMs;
    c.part5_elems = kPart5Elems;
    c.part5_reps = kPart5Reps;
    c.part6_kernel_ms = kPart6KernelMs;
    c.part6_queued_ms = kPart6QueuedMs;
    c.part6_delay_ms = kPart6DelayMs;
    c.part6_hog_ms = kPart6HogMs;
    c.part6_reps = kPart6Reps;
    c.part7_idle_ms = kPart7IdleMs;
    c.part7_cycles = kPart7Cycles;
    c.part7_launches = kPart7Launches;
    c.part8_iters = kPart8Iters;
    c.warmup_runs = kWarmupRuns;
    c.timed_runs = kTimedRuns;
    return c;
}
#else

// The host's monotonic clock in milliseconds: a stopwatch must not jump when
// the system time is set.
static double hostMs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// The CPU time of the whole process (every thread, the driver's included) in
// milliseconds: what a spinning wait burns and a blocking one does not.
static double processCpuMs() {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1.0e3 +
           static_cast<double>(ts.tv_nsec) * 1.0e-6;
}

// One line on stderr and exit 1: a measurement this program cannot trust.
static void impossible(const char* what) {
    std::fprintf(stderr, "%s\n", what);
    std::exit(EXIT_FAILURE);
}

// Sleeps without reading a clock: Part 7's idle period. A signal ends
// nanosleep early with EINTR and the time left in `ts`, so it sleeps on;
// any other failure (EINVAL, EFAULT) would fail every time, so it ends the
// program instead of looping.
static void sleepMs(double ms) {
    struct timespec ts;
    ts.tv_sec = static_cast<time_t>(ms / 1.0e3);
    ts.tv_nsec = static_cast<long>((ms - ts.tv_sec * 1.0e3) * 1.0e6);
    while (nanosleep(&ts, &ts) != 0) {
        if (errno != EINTR) {
            impossible("part 7: nanosleep failed; the idle period cannot be "
                       "timed");
        }
    }
}

// The p-quantile of `v` with linear interpolation between order statistics
// (p = 0.5 is the median). The Rust twin's src/stats.rs computes it the
// same way, so both programs summarise the same samples identically.
static double quantile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const double pos = p * static_cast<double>(v.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

static double median(const std::vector<double>& v) {
    return quantile(v, 0.5);
}

static float elapsedMs(cudaEvent_t start, cudaEvent_t stop) {
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
}

static const char* verdict(bool holds) {
    return holds ? "holds" : "does not hold";
}

// verbatim: time-kernel
// snippet: time-kernel
// Times `launch` with CUDA events and returns the mean milliseconds per run:
// kWarmupRuns untimed runs, then kTimedRuns between two events. `launch` may
// hold kernel launches or blocking copies; both are default-stream work the
// two events bracket. Copy this helper as it is: with one helper, no timed
// kernel can lose its warm-up in a copy-paste slip.
template <typename LaunchFn>
static float timeKernel(LaunchFn launch) {
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    // Warm up the kernel being timed, not merely some kernel: with lazy
    // loading (the Linux default since CUDA 12.2) a kernel is loaded at its
    // own first launch, and its module with it if no kernel of that module
    // has run yet.
    for (int i = 0; i < kWarmupRuns; ++i) {
        launch();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaEventRecord(start));
    for (int i = 0; i < kTimedRuns; ++i) {
        launch();
    }
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms / kTimedRuns;
}
// end snippet
// end verbatim

static void spin(double ms, cudaStream_t stream = 0) {
    spinFor<<<kSpinBlocks, kSpinThreads, 0, stream>>>(nsFromMs(ms));
    CUDA_CHECK(cudaGetLastError());
}

// Part 1: a host clock around the launch alone, then around launch + sync.
static void part1() {
    std::printf("\nPart 1: a launch returns once it is queued\n");
    std::printf("host clock, median of %d launches per kernel\n", kPart1Reps);
    std::printf("%9s  %10s  %15s\n", "kernel ms", "launch us",
                "launch+sync us");
    double worstLaunchUs = 0.0;
    bool syncCoversKernel = true;
    for (int k = 0; k < kNumPart1; ++k) {
        std::vector<double> launchUs;
        std::vector<double> syncUs;
        for (int r = 0; r < kPart1Reps; ++r) {
            const double t0 = hostMs();
            spin(kPart1KernelMs[k]);
            const double t1 = hostMs();  // the launch call has returned
            CUDA_CHECK(cudaDeviceSynchronize());
            launchUs.push_back((t1 - t0) * 1.0e3);
        }
        for (int r = 0; r < kPart1Reps; ++r) {
            const double t0 = hostMs();
            spin(kPart1KernelMs[k]);
            CUDA_CHECK(cudaDeviceSynchronize());
            const double t1 = hostMs();  // the kernel has finished
            syncUs.push_back((t1 - t0) * 1.0e3);
        }
        const double l = median(launchUs);
        const double s = median(syncUs);
        if (s < kPart1KernelMs[k] * 1.0e3) {
            impossible("part 1: launch + sync took less than the kernel's "
                       "spin; the device timer spin is broken");
        }
        worstLaunchUs = std::max(worstLaunchUs, l);
        syncCoversKernel = syncCoversKernel && s >= kPart1KernelMs[k] * 1.0e3;
        std::printf("%9.3f  %10.1f  %15.1f\n", kPart1KernelMs[k], l, s);
    }
    std::printf("verdict: %s (launch alone under 20 us for all three, with "
                "a sync at least the kernel)\n",
                verdict(worstLaunchUs < 20.0 && syncCoversKernel));
}

// Part 2: one kernel timed three ways. Events queued back to back, so each
// start event waits behind the previous kernel and no interval holds a host
// gap; events with a sync after each pair, so each start event finds the
// stream idle and its interval also holds the host's launch (Part 6's host
// delay, in small); and a host clock around launch + sync.
static void part2(cudaEvent_t start, cudaEvent_t stop) {
    std::vector<cudaEvent_t> starts(kPart2Reps), stops(kPart2Reps);
    for (int r = 0; r < kPart2Reps; ++r) {
        CUDA_CHECK(cudaEventCreate(&starts[r]));
        CUDA_CHECK(cudaEventCreate(&stops[r]));
    }
    for (int r = 0; r < kPart2Reps; ++r) {
        CUDA_CHECK(cudaEventRecord(starts[r]));
        spin(kPart2KernelMs);
        CUDA_CHECK(cudaEventRecord(stops[r]));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> queued, synced, host;
    for (int r = 0; r < kPart2Reps; ++r) {
        queued.push_back(elapsedMs(starts[r], stops[r]));
        CUDA_CHECK(cudaEventDestroy(starts[r]));
        CUDA_CHECK(cudaEventDestroy(stops[r]));
    }
    for (int r = 0; r < kPart2Reps; ++r) {
        CUDA_CHECK(cudaEventRecord(start));
        spin(kPart2KernelMs);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        synced.push_back(elapsedMs(start, stop));
    }
    for (int r = 0; r < kPart2Reps; ++r) {
        const double t0 = hostMs();
        spin(kPart2KernelMs);
        CUDA_CHECK(cudaDeviceSynchronize());
        host.push_back(hostMs() - t0);
    }
    std::printf("\nPart 2: events against a host clock plus sync, one "
                "%.3f ms kernel\n",
                kPart2KernelMs);
    std::printf("%d timings each: median, interquartile range, IQR / median\n",
                kPart2Reps);
    std::printf("events: all pairs queued back to back; events+sync: a sync "
                "after each pair\n");
    const char* names[3] = {"events", "events+sync", "host+sync"};
    const std::vector<double>* samples[3] = {&queued, &synced, &host};
    double spread[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < 3; ++i) {
        const double med = median(*samples[i]);
        const double iqr =
            quantile(*samples[i], 0.75) - quantile(*samples[i], 0.25);
        spread[i] = 100.0 * iqr / med;
        std::printf("%11s  %9.4f ms  IQR %7.4f ms  spread %6.2f%%\n",
                    names[i], med, iqr, spread[i]);
    }
    std::printf("verdict: %s (the events' spread is below host+sync's)\n",
                verdict(spread[0] < spread[2]));
}

// Part 3: the wait on a 50 ms kernel, through an event of each kind. CPU
// time and the host clock are read before the launch and after the wait;
// the wake-up latency is the host's wait less the kernel's event time. That
// wait also holds the calls before the start event is stamped (the CPU-time
// read, the record), so the host clock is read once more when every call
// has returned: "after calls" is the wait from there, less the kernel's
// event time. The start event finds the stream idle and is stamped before
// the launch is submitted, so the interval holds part of the submission, and
// "after calls" comes out lower than the wake-up by that part; the true
// wake-up lies between the two columns.
static void part3(cudaEvent_t start) {
    cudaEvent_t spinning, blocking;
    CUDA_CHECK(cudaEventCreate(&spinning));
    CUDA_CHECK(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));
    const char* names[2] = {"spin", "blocking"};
    cudaEvent_t stops[2] = {spinning, blocking};
    double share[2] = {0.0, 0.0};
    double latencyUs[2] = {0.0, 0.0};
    std::printf("\nPart 3: waiting on a %.3f ms kernel, spinning against "
                "blocking sync\n",
                kPart3KernelMs);
    std::printf("%d waits each, medians\n", kPart3Reps);
    std::printf("%9s  %9s  %9s  %9s  %10s  %14s\n", "mode", "wait ms",
                "CPU ms", "CPU share", "wake-up us", "after calls us");
    for (int m = 0; m < 2; ++m) {
        std::vector<double> wait, cpu, latency, afterCalls;
        for (int r = 0; r < kPart3Reps; ++r) {
            const double t0 = hostMs();
            const double c0 = processCpuMs();
            CUDA_CHECK(cudaEventRecord(start));
            spin(kPart3KernelMs);
            CUDA_CHECK(cudaEventRecord(stops[m]));
            const double tCalls = hostMs();  // every call has returned
            CUDA_CHECK(cudaEventSynchronize(stops[m]));
            const double c1 = processCpuMs();
            const double t1 = hostMs();
            const double kernelMs = elapsedMs(start, stops[m]);
            if (kernelMs < 0.95 * kPart3KernelMs) {
                impossible("part 3: the kernel's event time is shorter than "
                           "its spin; the device timer spin is broken");
            }
            wait.push_back(t1 - t0);
            cpu.push_back(c1 - c0);
            latency.push_back((t1 - t0 - kernelMs) * 1.0e3);
            afterCalls.push_back((t1 - tCalls - kernelMs) * 1.0e3);
        }
        const double w = median(wait);
        const double c = median(cpu);
        share[m] = 100.0 * c / w;
        latencyUs[m] = median(latency);
        std::printf("%9s  %9.3f  %9.3f  %8.1f%%  %10.1f  %14.1f\n", names[m], w,
                    c, share[m], latencyUs[m], median(afterCalls));
    }
    std::printf("blocking wakes %.1f us later than spinning\n",
                latencyUs[1] - latencyUs[0]);
    std::printf("verdict, CPU: %s (spinning burns at least 50%% of the wait, "
                "blocking at most 10%%)\n",
                verdict(share[0] >= 50.0 && share[1] <= 10.0));
    const double later = latencyUs[1] - latencyUs[0];
    std::printf("verdict, wake-up: %s (blocking wakes later, by less than "
                "1000 us)\n",
                verdict(later > 0.0 && later < 1000.0));
    CUDA_CHECK(cudaEventDestroy(spinning));
    CUDA_CHECK(cudaEventDestroy(blocking));
}

// Part 4's host cost: kPart4Ops record + wait pairs on `e`, per pair in us.
static double recordWaitUs(cudaEvent_t e, cudaStream_t a, cudaStream_t b) {
    const double t0 = hostMs();
    for (int i = 0; i < kPart4Ops; ++i) {
        CUDA_CHECK(cudaEventRecord(e, a));
        CUDA_CHECK(cudaStreamWaitEvent(b, e, 0));
    }
    const double t1 = hostMs();
    CUDA_CHECK(cudaDeviceSynchronize());
    return (t1 - t0) * 1.0e3 / kPart4Ops;
}

// Part 4's chain: empty kernels on `a`, each followed by a record of `e`
// (none when e is null), timed by an outer event pair; per link in us. The
// report calls it the device cost, but the GPU finishes each empty kernel
// before the host launches the next, so a link is the launch call's time.
static double chainUs(cudaEvent_t e, cudaStream_t a, cudaEvent_t start,
                      cudaEvent_t stop) {
    CUDA_CHECK(cudaEventRecord(start, a));
    for (int i = 0; i < kPart4Chain; ++i) {
        spinFor<<<kSpinBlocks, kSpinThreads, 0, a>>>(0);
        CUDA_CHECK(cudaGetLastError());
        if (e != nullptr) {
            CUDA_CHECK(cudaEventRecord(e, a));
        }
    }
    CUDA_CHECK(cudaEventRecord(stop, a));
    CUDA_CHECK(cudaEventSynchronize(stop));
    return elapsedMs(start, stop) * 1.0e3 / kPart4Chain;
}

static void part4(cudaEvent_t start, cudaEvent_t stop, cudaStream_t a,
                  cudaStream_t b) {
    cudaEvent_t timing, bare;
    CUDA_CHECK(cudaEventCreate(&timing));
    CUDA_CHECK(cudaEventCreateWithFlags(&bare, cudaEventDisableTiming));
    // One untimed round of everything first, so no first-use cost lands in
    // a measured round.
    recordWaitUs(timing, a, b);
    recordWaitUs(bare, a, b);
    chainUs(nullptr, a, start, stop);
    chainUs(timing, a, start, stop);
    chainUs(bare, a, start, stop);
    std::vector<double> host[2], chain[3];
    for (int r = 0; r < kPart4Rounds; ++r) {
        host[0].push_back(recordWaitUs(timing, a, b));
        host[1].push_back(recordWaitUs(bare, a, b));
        chain[0].push_back(chainUs(nullptr, a, start, stop));
        chain[1].push_back(chainUs(timing, a, start, stop));
        chain[2].push_back(chainUs(bare, a, start, stop));
    }
    const double hostTiming = median(host[0]);
    const double hostBare = median(host[1]);
    const double chainNone = median(chain[0]);
    const double chainTiming = median(chain[1]);
    const double chainBare = median(chain[2]);
    std::printf("\nPart 4: cudaEventDisableTiming\n");
    std::printf("host cost of cudaEventRecord + cudaStreamWaitEvent, median "
                "of %d rounds of %d\n",
                kPart4Rounds, kPart4Ops);
    std::printf("%16s  %8.3f us per pair\n", "timing event", hostTiming);
    std::printf("%16s  %8.3f us per pair\n", "DisableTiming", hostBare);
    std::printf("device cost of a chain of %d empty kernels, median of %d "
                "rounds\n",
                kPart4Chain, kPart4Rounds);
    std::printf("%16s  %8.3f us per link\n", "no events", chainNone);
    std::printf("%16s  %8.3f us per link\n", "timing events", chainTiming);
    std::printf("%16s  %8.3f us per link\n", "DisableTiming", chainBare);
    std::printf("verdict: %s (DisableTiming costs the host less, and the "
                "chain no more than 5%% over timing events)\n",
                verdict(hostBare < hostTiming &&
                        chainBare <= 1.05 * chainTiming));
    CUDA_CHECK(cudaEventDestroy(timing));
    CUDA_CHECK(cudaEventDestroy(bare));
}

// Part 5: producer on a, consumer on b behind cudaStreamWaitEvent. Returns
// false, having printed why, if the consumer read anything but what the
// producer wrote.
static bool part5(cudaStream_t a, cudaStream_t b) {
    cudaEvent_t ready, consumerStart;
    CUDA_CHECK(cudaEventCreate(&ready));
    CUDA_CHECK(cudaEventCreate(&consumerStart));
    int* d_buf = nullptr;
    int* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_buf, kPart5Elems * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, kPart5Elems * sizeof(int)));
    std::vector<int> h_out(kPart5Elems);
    const int consumeBlocks =
        (kPart5Elems + kThreadsPerBlock - 1) / kThreadsPerBlock;
    std::vector<double> issueMs, gapMs;
    bool correct = true;
    for (int r = 0; r < kPart5Reps && correct; ++r) {
        // Zeros first: a consumer that ran early would read them.
        CUDA_CHECK(cudaMemset(d_buf, 0, kPart5Elems * sizeof(int)));
        CUDA_CHECK(cudaMemset(d_out, 0, kPart5Elems * sizeof(int)));
        CUDA_CHECK(cudaDeviceSynchronize());
        // The snippet's seven calls: five stream operations and the two
        // launches' error checks.
        // snippet: cross-stream
        const double t0 = hostMs();
        produce<<<kProduceBlocks, kThreadsPerBlock, 0, a>>>(
            d_buf, kPart5Elems, nsFromMs(kPart5ProducerMs));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(ready, a));
        CUDA_CHECK(cudaStreamWaitEvent(b, ready, 0));
        CUDA_CHECK(cudaEventRecord(consumerStart, b));
        consume<<<consumeBlocks, kThreadsPerBlock, 0, b>>>(d_buf, d_out,
                                                           kPart5Elems);
        CUDA_CHECK(cudaGetLastError());
        const double t1 = hostMs();  // every call has returned
        // end snippet
        CUDA_CHECK(cudaDeviceSynchronize());
        issueMs.push_back(t1 - t0);
        gapMs.push_back(elapsedMs(ready, consumerStart));
        CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, kPart5Elems * sizeof(int),
                              cudaMemcpyDeviceToHost));
        for (int i = 0; i < kPart5Elems; ++i) {
            if (h_out[i] != 6 * i + 3) {
                std::fprintf(stderr,
                             "part 5: consumer wrong at %d: got %d, want %d\n",
                             i, h_out[i], 6 * i + 3);
                correct = false;
                break;
            }
        }
    }
    CUDA_CHECK(cudaFree(d_buf));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaEventDestroy(ready));
    CUDA_CHECK(cudaEventDestroy(consumerStart));
    if (!correct) {
        return false;
    }
    const double issue = median(issueMs);
    const double gap = *std::min_element(gapMs.begin(), gapMs.end());
    std::printf("\nPart 5: a %.3f ms producer on stream A, its consumer on "
                "stream B behind cudaStreamWaitEvent\n",
                kPart5ProducerMs);
    std::printf("%d runs; the consumer's result was right in all\n",
                kPart5Reps);
    std::printf("host issued all seven calls in %8.4f ms (median)\n", issue);
    std::printf("consumer started %8.4f ms after the producer ended "
                "(smallest)\n",
                gap);
    std::printf("verdict: %s (the host's calls take under 10%% of the "
                "producer, and the consumer starts after it)\n",
                verdict(issue < 0.1 * kPart5ProducerMs && gap >= 0.0));
    return true;
}

// Part 6: the interval around a 1 ms kernel in three situations.
static void part6(cudaEvent_t start, cudaEvent_t stop, cudaStream_t other) {
    std::vector<double> queued, delayed, competing;
    for (int r = 0; r < kPart6Reps; ++r) {
        // Work ahead of the start event, on the same stream.
        spin(kPart6QueuedMs);
        CUDA_CHECK(cudaEventRecord(start));
        spin(kPart6KernelMs);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        queued.push_back(elapsedMs(start, stop));

        // The host waits between the start event and the launch.
        CUDA_CHECK(cudaEventRecord(start));
        const double t0 = hostMs();
        while (hostMs() - t0 < kPart6DelayMs) {
        }
        spin(kPart6KernelMs);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        delayed.push_back(elapsedMs(start, stop));

        // Another stream fills every SM just before the start event.
        spinFor<<<hogBlocks(), kThreadsPerBlock, 0, other>>>(
            nsFromMs(kPart6HogMs));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(start));
        spin(kPart6KernelMs);
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        competing.push_back(elapsedMs(start, stop));
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    const double q = median(queued);
    const double d = median(delayed);
    const double c = median(competing);
    if (std::min(q, std::min(d, c)) < 0.95 * kPart6KernelMs) {
        impossible("part 6: an interval is shorter than the kernel inside "
                   "it; the device timer spin is broken");
    }
    std::printf("\nPart 6: what an event interval around a %.3f ms kernel "
                "holds, median of %d\n",
                kPart6KernelMs, kPart6Reps);
    std::printf("%26s  %7.3f ms  interval %8.3f ms\n",
                "queued ahead of start", kPart6QueuedMs, q);
    std::printf("%26s  %7.3f ms  interval %8.3f ms\n",
                "host delay after start", kPart6DelayMs, d);
    std::printf("%26s  %7.3f ms  interval %8.3f ms\n",
                "other stream competing", kPart6HogMs, c);
    std::printf("verdict, queued ahead: %s (the page: work already in the "
                "stream ahead of the timed launches is inside the interval)\n",
                verdict(q >= kPart6KernelMs + 0.5 * kPart6QueuedMs));
    std::printf("verdict, idle and competing: %s (a host delay and another "
                "stream's work are inside the interval)\n",
                verdict(d >= kPart6KernelMs + 0.9 * kPart6DelayMs &&
                        c >= kPart6KernelMs + 0.5 * kPart6HogMs));
}

// NVML, opened at run time. The CUDA toolkit this course builds with (the
// PyPI compiler wheels) ships neither nvml.h nor libnvidia-ml to link, while
// every NVIDIA driver installs libnvidia-ml.so.1; so the four functions Part
// 7 needs are declared here as NVML's API documents them and looked up with
// dlsym, which keeps the one nvcc line.
struct Nvml {
    typedef struct nvmlDevice_st* Device;
    int (*init)(void);
    int (*shutdown)(void);
    int (*byPciBusId)(const char*, Device*);
    int (*clockInfo)(Device, int, unsigned int*);
    Device device;
};
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

// Opens NVML for the current CUDA device; false if it cannot.
static bool openNvml(Nvml* nvml) {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (lib == nullptr) {
        return false;
    }
    nvml->init = reinterpret_cast<int (*)(void)>(dlsym(lib, "nvmlInit_v2"));
    nvml->shutdown =
        reinterpret_cast<int (*)(void)>(dlsym(lib, "nvmlShutdown"));
    nvml->byPciBusId = reinterpret_cast<int (*)(const char*, Nvml::Device*)>(
        dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    nvml->clockInfo =
        reinterpret_cast<int (*)(Nvml::Device, int, unsigned int*)>(
            dlsym(lib, "nvmlDeviceGetClockInfo"));
    if (!nvml->init || !nvml->shutdown || !nvml->byPciBusId ||
        !nvml->clockInfo || nvml->init() != 0) {
        return false;
    }
    int device = 0;
    char busId[32];
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetPCIBusId(busId, sizeof(busId), device));
    return nvml->byPciBusId(busId, &nvml->device) == 0;
}

static unsigned int smClockMhz(const Nvml& nvml) {
    unsigned int mhz = 0;
    if (nvml.clockInfo(nvml.device, kNvmlClockSm, &mhz) != 0) {
        impossible("part 7: NVML did not give the SM clock");
    }
    return mhz;
}

// Part 7: after an idle period, each launch timed alone, beside the
// kernel's own duration (the device's global timer, read by the kernel),
// the launch call's host time and the clock. An event interval longer than
// the kernel's own duration is time outside the kernel: the start event is
// stamped on an idle stream before the launch is submitted (Part 2).
static void part7(cudaEvent_t start, cudaEvent_t stop) {
    Nvml nvml;
    if (!openNvml(&nvml)) {
        impossible("part 7: NVML (libnvidia-ml.so.1) cannot read this "
                   "device's clocks");
    }
    unsigned long long* d_ns = nullptr;
    CUDA_CHECK(cudaMalloc(&d_ns, kPart7Launches * sizeof(unsigned long long)));
    CUDA_CHECK(cudaDeviceSynchronize());
    sleepMs(kPart7IdleMs);
    const unsigned int idleMhz = smClockMhz(nvml);
    std::vector<double> ms(kPart7Launches);
    std::vector<double> callUs(kPart7Launches);
    std::vector<unsigned int> mhz(kPart7Launches);
    for (int i = 0; i < kPart7Launches; ++i) {
        CUDA_CHECK(cudaEventRecord(start));
        const double t0 = hostMs();
        spinCycles<<<kSpinBlocks, kSpinThreads>>>(kPart7Cycles, d_ns + i);
        const double t1 = hostMs();  // the launch call has returned
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        ms[i] = elapsedMs(start, stop);
        callUs[i] = (t1 - t0) * 1.0e3;
        mhz[i] = smClockMhz(nvml);
    }
    nvml.shutdown();
    std::vector<unsigned long long> ns(kPart7Launches);
    CUDA_CHECK(cudaMemcpy(ns.data(), d_ns,
                          kPart7Launches * sizeof(unsigned long long),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_ns));
    std::printf("\nPart 7: %d launches of a %lld-cycle kernel after %.0f ms "
                "idle, each timed alone\n",
                kPart7Launches, kPart7Cycles, kPart7IdleMs);
    std::printf("SM clock after the idle period: %u MHz\n", idleMhz);
    std::printf("event = the event interval, kernel = the kernel's own "
                "duration on the device's timer, call = the launch call\n");
    std::printf("%6s  %9s  %9s  %9s  %6s\n", "launch", "event ms", "kernel ms",
                "call us", "SM MHz");
    for (int i = 0; i < kPart7Launches; ++i) {
        std::printf("%6d  %9.4f  %9.4f  %9.1f  %6u\n", i + 1, ms[i],
                    static_cast<double>(ns[i]) * 1.0e-6, callUs[i], mhz[i]);
    }
    double first = 0.0;
    for (int i = 0; i < kPart7First; ++i) {
        first += ms[i] / kPart7First;
    }
    const double steady = median(std::vector<double>(
        ms.end() - kPart7Steady, ms.end()));
    std::vector<double> steadyMhz;
    double firstMhz = 0.0;
    for (int i = 0; i < kPart7Launches; ++i) {
        if (i < kPart7First) {
            firstMhz += static_cast<double>(mhz[i]) / kPart7First;
        }
        if (i >= kPart7Launches - kPart7Steady) {
            steadyMhz.push_back(static_cast<double>(mhz[i]));
        }
    }
    std::printf("first %d mean %.4f ms, last %d median %.4f ms: %.3fx\n",
                kPart7First, first, kPart7Steady, steady, first / steady);
    std::printf("SM clock: first %d mean %.1f MHz, last %d median %.1f MHz\n",
                kPart7First, firstMhz, kPart7Steady, median(steadyMhz));
    std::printf("verdict, slower: %s (the first launches after idle are at "
                "least 5%% slower than steady state)\n",
                verdict(first >= 1.05 * steady));
    std::printf("verdict, clock: %s (the SM clock is lower over the first "
                "launches than in steady state)\n",
                verdict(firstMhz < median(steadyMhz)));
}

// Part 8: the page's pattern and timeKernel on the same kernel.
static void part8() {
    // snippet: page-pattern
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    // One untimed launch first, the warm-up.
    spinCycles<<<kSpinBlocks, kSpinThreads>>>(kPart7Cycles, nullptr);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(start));
    for (int i = 0; i < kPart8Iters; ++i) {
        spinCycles<<<kSpinBlocks, kSpinThreads>>>(kPart7Cycles, nullptr);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    const double pageMs = elapsedMs(start, stop) / kPart8Iters;
    // end snippet
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    const double courseMs = timeKernel([] {
        spinCycles<<<kSpinBlocks, kSpinThreads>>>(kPart7Cycles, nullptr);
    });
    std::printf("\nPart 8: the page's pattern against timeKernel, the same "
                "%lld-cycle kernel\n",
                kPart7Cycles);
    char page[64], course[64];
    std::snprintf(page, sizeof(page), "page (1 warm-up, loop of %d)",
                  kPart8Iters);
    std::snprintf(course, sizeof(course), "timeKernel (%d warm-ups, mean of %d)",
                  kWarmupRuns, kTimedRuns);
    std::printf("%36s  %9.4f ms per launch\n", page, pageMs);
    std::printf("%36s  %9.4f ms per launch\n", course, courseMs);
    std::printf("timeKernel / page: %.3fx\n", courseMs / pageMs);
    std::printf("verdict: %s (the two agree within 5%%)\n",
                verdict(std::fabs(courseMs / pageMs - 1.0) <= 0.05));
}

int main() {
    const int device = 0;
    CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::printf("GPU: %s (compute capability %d.%d)\n", prop.name, prop.major,
                prop.minor);

    cudaStream_t a, b, other;
    CUDA_CHECK(cudaStreamCreate(&a));
    CUDA_CHECK(cudaStreamCreate(&b));
    // Part 6's competing stream must not synchronise with the legacy default
    // stream, or the timed kernel would wait for it by rule, not by need.
    CUDA_CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    CUDA_CHECK(loadEveryKernel(0));

    part1();
    part2(start, stop);
    part3(start);
    part4(start, stop, a, b);
    const bool ok = part5(a, b);
    if (ok) {
        part6(start, stop, other);
        part7(start, stop);
        part8();
    }

    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaStreamDestroy(a));
    CUDA_CHECK(cudaStreamDestroy(b));
    CUDA_CHECK(cudaStreamDestroy(other));
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
#endif  // LESSON_NO_MAIN
