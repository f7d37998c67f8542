// SPDX-License-Identifier: MIT
//
// Kernels nobody here wrote for the instrument, the textbook forms of each:
// a naive and a shared-memory transpose, a block reduction, a row softmax,
// a compute-bound loop and an empty kernel. kernel-timer times them from
// this file (gpu/session.sh gives the exact command lines), beside Nsight
// Compute and CUPTI.
//
//   kernel-timer set.cu transpose_naive --grid 256x256 --block 32x32 \
//       --arg 'f32[8192*8192]' --arg 'f32[8192*8192]=random:1' --arg i32=8192
//
// EXTRA_PERCENT makes fma_loop do that many percent more steps: the planted
// slowdown of the A/B check (-DEXTRA_PERCENT=2).

#ifndef EXTRA_PERCENT
#define EXTRA_PERCENT 0
#endif

constexpr int kTile = 32;
constexpr int kRows = 8;  // threads a tile column: each moves kTile / kRows elements

// out = in^T for an n x n matrix, one element a thread: the reads are
// coalesced, the writes stride by n.
__global__ void transpose_naive(float* out, const float* in, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n) out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

// The same through a padded shared tile, so both reads and writes are
// coalesced; blocks of kTile x kRows threads.
__global__ void transpose_shared(float* out, const float* in, int n) {
    __shared__ float tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (x < n && y + j < n) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// One partial sum per block over a grid-stride loop, reduced in dynamic
// shared memory (blockDim.x floats).
__global__ void block_sum(const float* in, float* out, int n) {
    extern __shared__ float partial[];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// softmax of each row of a rows x cols matrix, one block a row: the row's
// maximum, then the sum of exponentials, each reduced in dynamic shared
// memory (blockDim.x floats), then the normalised values.
__global__ void row_softmax(const float* in, float* out, int cols) {
    extern __shared__ float scratch[];
    const float* row = in + (size_t)blockIdx.x * cols;
    float* dst = out + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
    scratch[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + s]);
        __syncthreads();
    }
    m = scratch[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += __expf(row[c] - m);
    scratch[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) scratch[threadIdx.x] += scratch[threadIdx.x + s];
        __syncthreads();
    }
    float inv = 1.0f / scratch[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x) dst[c] = __expf(row[c] - m) * inv;
}

// Four independent FMA chains of `steps` (plus EXTRA_PERCENT) steps a
// thread: compute-bound, its time proportional to the steps.
__global__ void fma_loop(float* out, int steps) {
    steps += steps / 100 * EXTRA_PERCENT;
    float a = threadIdx.x, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
    for (int i = 0; i < steps; ++i) {
        a = fmaf(a, 0.9999f, 0.5f);
        b = fmaf(b, 0.9999f, 0.5f);
        c = fmaf(c, 0.9999f, 0.5f);
        d = fmaf(d, 0.9999f, 0.5f);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

// Nothing: the launch floor.
__global__ void empty() {}
