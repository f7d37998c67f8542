// SPDX-License-Identifier: MIT
//
// Part 4's chain, measured: what is a link of it? events.cu times a chain of
// kPart4Chain empty kernels, each followed by no event, a timing event or a
// DisableTiming one, by one outer event pair, and calls the time per link
// the device's cost. If the GPU waits on the host, a link is the host's
// launch call instead. This program times, per round:
//
//   launched   the chain as Part 4 launches it (its own chainUs)
//   call       the host's time in the loop of launches and records alone,
//              per link, with nothing synchronised inside it
//   graph      the same chain captured once into a CUDA graph (the records
//              as event-record nodes) and replayed, timed by the outer pair
//
// and, for Part 4's record-and-wait pair, where a DisableTiming event saves
// the host its time:
//
//   record     the host's time in one cudaEventRecord on an idle stream,
//              per call over kRecordCalls, for each kind of event
//   wait       the host's time in one cudaStreamWaitEvent on an event
//              recorded and completed before, per call over kRecordCalls,
//              for each kind (Part 4's pair is a record and this call)
//
// It includes events.cu itself (its main renamed), so the kernel, the chain's
// length and the host clock are the lesson's. Each figure is a line
// `LABEL: NUMBER`.
//
// Build: nvcc -std=c++17 -O3 -arch=native -o why-chain why-chain.cu
// Run:   ./why-chain

#define main events_lesson_main
#include "../../events.cu"
#undef main

// The chain's launches and records on `a`, untimed inside: the caller times
// it, or captures it. `flags` is cudaEventRecordExternal when captured, so
// each record becomes a node of the graph rather than a capture dependency.
static void chainCalls(cudaEvent_t e, cudaStream_t a, unsigned int flags) {
    for (int i = 0; i < kPart4Chain; ++i) {
        spinFor<<<kSpinBlocks, kSpinThreads, 0, a>>>(0);
        CUDA_CHECK(cudaGetLastError());
        if (e != nullptr) {
            CUDA_CHECK(cudaEventRecordWithFlags(e, a, flags));
        }
    }
}

// The host's time in the chain's calls, per link in us.
static double callUs(cudaEvent_t e, cudaStream_t a) {
    const double t0 = hostMs();
    chainCalls(e, a, cudaEventRecordDefault);
    const double t1 = hostMs();
    CUDA_CHECK(cudaStreamSynchronize(a));
    return (t1 - t0) * 1.0e3 / kPart4Chain;
}

// The chain captured into a graph on `a`, ready to replay.
static cudaGraphExec_t captured(cudaEvent_t e, cudaStream_t a) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(a, cudaStreamCaptureModeThreadLocal));
    chainCalls(e, a, cudaEventRecordExternal);
    CUDA_CHECK(cudaStreamEndCapture(a, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaGraphUpload(exec, a));
    return exec;
}

// Calls of each kind timed together by the host clock, per call.
constexpr int kRecordCalls = 1000;

// The host's time in one cudaEventRecord of `e` on the idle stream `a`, in
// us: the call alone, nothing waited for inside the loop.
static double recordUs(cudaEvent_t e, cudaStream_t a) {
    CUDA_CHECK(cudaStreamSynchronize(a));
    const double t0 = hostMs();
    for (int i = 0; i < kRecordCalls; ++i) {
        CUDA_CHECK(cudaEventRecord(e, a));
    }
    const double t1 = hostMs();
    CUDA_CHECK(cudaStreamSynchronize(a));
    return (t1 - t0) * 1.0e3 / kRecordCalls;
}

// The host's time in one cudaStreamWaitEvent of `a` on `e`, recorded and
// completed before the loop, in us: the call alone.
static double waitUs(cudaEvent_t e, cudaStream_t a) {
    CUDA_CHECK(cudaEventRecord(e, a));
    CUDA_CHECK(cudaStreamSynchronize(a));
    const double t0 = hostMs();
    for (int i = 0; i < kRecordCalls; ++i) {
        CUDA_CHECK(cudaStreamWaitEvent(a, e, 0));
    }
    const double t1 = hostMs();
    CUDA_CHECK(cudaStreamSynchronize(a));
    return (t1 - t0) * 1.0e3 / kRecordCalls;
}

// One replay of `exec` between the outer pair, per link in us.
static double graphUs(cudaGraphExec_t exec, cudaStream_t a, cudaEvent_t start,
                      cudaEvent_t stop) {
    CUDA_CHECK(cudaEventRecord(start, a));
    CUDA_CHECK(cudaGraphLaunch(exec, a));
    CUDA_CHECK(cudaEventRecord(stop, a));
    CUDA_CHECK(cudaEventSynchronize(stop));
    return elapsedMs(start, stop) * 1.0e3 / kPart4Chain;
}

int main() {
    CUDA_CHECK(cudaSetDevice(0));
    cudaStream_t a;
    CUDA_CHECK(cudaStreamCreate(&a));
    cudaEvent_t start, stop, timing, bare;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventCreate(&timing));
    CUDA_CHECK(cudaEventCreateWithFlags(&bare, cudaEventDisableTiming));
    const cudaEvent_t events[3] = {nullptr, timing, bare};
    const char* names[3] = {"no event", "timing event", "DisableTiming event"};
    cudaGraphExec_t graphs[3];
    for (int k = 0; k < 3; ++k) {
        graphs[k] = captured(events[k], a);
        // One untimed round of each, as Part 4 does, so no first use is timed.
        chainUs(events[k], a, start, stop);
        callUs(events[k], a);
        graphUs(graphs[k], a, start, stop);
    }
    for (int r = 0; r < kPart4Rounds; ++r) {
        for (int k = 0; k < 3; ++k) {
            std::printf("chain link launched, %s, us: %.3f\n", names[k],
                        chainUs(events[k], a, start, stop));
            std::printf("launch call per link, %s, us: %.3f\n", names[k],
                        callUs(events[k], a));
            std::printf("chain link in a graph, %s, us: %.3f\n", names[k],
                        graphUs(graphs[k], a, start, stop));
        }
    }
    // Part 4's pair taken apart, after every chain round, so that its
    // thousands of calls cannot change the chain's figures: with them run
    // before each round, the runs at ac4c544 read a launched link faster
    // than any run before them.
    recordUs(timing, a);
    recordUs(bare, a);
    waitUs(timing, a);
    waitUs(bare, a);
    for (int r = 0; r < kPart4Rounds; ++r) {
        for (int k = 1; k < 3; ++k) {
            std::printf("record call, %s, us: %.4f\n", names[k], recordUs(events[k], a));
            std::printf("stream wait call, %s, us: %.4f\n", names[k],
                        waitUs(events[k], a));
        }
    }
    for (cudaGraphExec_t g : graphs) {
        CUDA_CHECK(cudaGraphExecDestroy(g));
    }
    return EXIT_SUCCESS;
}
