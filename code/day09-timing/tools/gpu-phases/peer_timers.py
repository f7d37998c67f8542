# SPDX-License-Identifier: MIT
"""Day 9's vectorAdd at full n, timed by the peer tools, for the instrument's proof.

The kernel is compiled from the very source in code/day09-timing/timing.cu
(read from the file, compiled by NVRTC through CuPy), launched with the same
grid, and timed by:

  cupyx.profiler.benchmark   CUDA events around each launch, hot, every sample kept
  triton.testing.do_bench    CUDA events, L2 cleared before each run, median asked for

Run: python3 code/day09-timing/tools/gpu-phases/peer_timers.py      (on a machine with CuPy, Triton, PyTorch and a GPU)
"""

import pathlib
import re
import sys

import cupy as cp
import cupyx.profiler
import numpy as np
import torch
import triton.testing

N = 16 * 1024 * 1024 + 611
THREADS = 256


def kernel_source() -> str:
    text = (pathlib.Path(__file__).parent.parent.parent / "timing.cu").read_text()
    match = re.search(r"__global__ void vectorAdd\(.*?\n}\n", text, re.S)
    if match is None:
        raise SystemExit("error: vectorAdd not found in timing.cu")
    return 'extern "C" ' + match.group(0)


def main() -> int:
    kernel = cp.RawKernel(kernel_source(), "vectorAdd", options=("-std=c++17",))
    i = np.arange(N, dtype=np.int64)
    a = cp.asarray((i % 97).astype(np.float32) * np.float32(0.5))
    b = cp.asarray((i % 13).astype(np.float32))
    out = cp.empty_like(a)
    blocks = (N + THREADS - 1) // THREADS

    def launch():
        kernel((blocks,), (THREADS,), (a, b, out, cp.uint64(N)))

    launch()
    cp.cuda.runtime.deviceSynchronize()
    if not cp.array_equal(out, a + b):
        print("error: vectorAdd through CuPy computed a wrong result", file=sys.stderr)
        return 1

    bench = cupyx.profiler.benchmark(launch, n_repeat=2000, n_warmup=50)
    gpu_ms = np.asarray(bench.gpu_times[0]) * 1e3
    print(f"CuPy {cp.__version__}, Triton {triton.__version__}, PyTorch {torch.__version__}")
    print(f"vectorAdd n = {N}, {blocks} blocks of {THREADS}, source from code/day09-timing/timing.cu")
    print(
        f"cupyx.profiler.benchmark (hot, {len(gpu_ms)} samples after 50 warm-ups): "
        f"median {np.median(gpu_ms):.5f} ms, mean {gpu_ms.mean():.5f} ms, "
        f"min {gpu_ms.min():.5f} ms, max {gpu_ms.max():.5f} ms"
    )
    for rep in (100, 500):
        median = triton.testing.do_bench(launch, warmup=25, rep=rep, return_mode="median")
        print(f"triton.testing.do_bench (L2 cleared per run, rep={rep} ms): median {median:.5f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
