# SPDX-License-Identifier: MIT
"""The instrument's kernel suite timed by nvbench, through its Python package.

Loads the suite's cubin (`instrument-suite cubin FILE`, the sm_90 code the
Rust binary was built with) with cuda.bindings.driver and registers one
nvbench benchmark per suite kernel, with the sizes and launch shapes of
crates/measure/instrument-suite/src/kernels.rs. nvbench measures each
cold (L2 flushed before every launch) and batched, as it always does.

Usage: python3 nvbench_suite.py CUBIN [--kernel NAME] [--scale S] [nvbench args, e.g. --json F]
"""
import argparse
import ctypes
import sys

import cuda.bench as bench
from cuda.bindings import driver as cu

THREADS = 256
FMA_BLOCKS = 132 * 8
FMA_ITERATIONS = 32 * 1024
# name: (kernel function, standard size, bytes read per unit, bytes written per unit)
SUITE = {
    "empty": ("suite_empty_kernel", 0, 0, 0),
    "vector-add-l2": ("suite_vector_add_kernel", 64 * 1024, 8, 4),
    "vector-add": ("suite_vector_add_kernel", 16 * 1024 * 1024 + 611, 8, 4),
    "copy-1gib": ("suite_copy_vec4_kernel", (1 << 30) // 16, 16, 16),
    "fma-1ms": ("suite_fma_kernel", FMA_ITERATIONS, 0, 0),
    "fma-10ms": ("suite_fma_kernel", 10 * FMA_ITERATIONS, 0, 0),
}


def ok(result):
    """A cuda.bindings call's values, or an exception naming its error."""
    err, *values = result
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"CUDA driver call failed: {err}")
    return values[0] if len(values) == 1 else values


class Suite:
    """The cubin, loaded into the device's primary context on first use."""

    def __init__(self, cubin, scale):
        self.cubin = cubin
        self.scale = scale
        self.module = None
        self.buffers = {}

    def function(self, device, name):
        if self.module is None:
            ok(cu.cuInit(0))
            ctx = ok(cu.cuDevicePrimaryCtxRetain(ok(cu.cuDeviceGet(device))))
            ok(cu.cuCtxSetCurrent(ctx))
            self.module = ok(cu.cuModuleLoadData(self.cubin))
        return ok(cu.cuModuleGetFunction(self.module, name.encode()))

    def zeroed(self, key, nbytes):
        if key not in self.buffers:
            ptr = ok(cu.cuMemAlloc(max(nbytes, 1)))
            ok(cu.cuMemsetD8(ptr, 0, max(nbytes, 1)))
            self.buffers[key] = ptr
        return self.buffers[key]

    def launch_args(self, kernel):
        """(grid, block, kernel params) for one launch of `kernel`: the
        params as the address of a void* array, packed once here so each
        launch costs nvbench's launcher as little host time as it can."""
        _, standard, _, _ = SUITE[kernel]
        size = max(1, round(standard * self.scale))
        p, sz, u32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint
        blocks = (size + THREADS - 1) // THREADS
        if kernel == "empty":
            return 1, 32, None
        if kernel.startswith("vector-add"):
            bufs = [int(self.zeroed((kernel, i), size * 4)) for i in range(3)]
            values = [p(b) for b in bufs] + [sz(size)]
            grid = blocks
        elif kernel == "copy-1gib":
            bufs = [int(self.zeroed((kernel, i), size * 16)) for i in range(2)]
            values = [p(b) for b in bufs] + [sz(size)]
            grid = blocks
        else:
            values = [p(int(self.zeroed("fma", FMA_BLOCKS * THREADS * 4))), u32(size)]
            grid = FMA_BLOCKS
        array = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
        # The values and the array must outlive every launch.
        self.buffers[("params", kernel)] = (values, array)
        return grid, THREADS, ctypes.addressof(array)

    def register(self, kernel):
        function_name, standard, read, written = SUITE[kernel]
        size = max(1, round(standard * self.scale))

        def benchmark(state):
            function = self.function(state.get_device() or 0, function_name)
            grid, block, params = self.launch_args(kernel)
            if read:
                state.add_global_memory_reads(read * size)
                state.add_global_memory_writes(written * size)

            def launcher(launch):
                # The CUDA stream protocol: (version 0, the stream's handle).
                stream = cu.CUstream(launch.get_stream().__cuda_stream__()[1])
                ok(cu.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, stream, params, 0))

            state.exec(launcher)

        bench.register(benchmark).set_name(kernel)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cubin")
    parser.add_argument("--kernel", choices=list(SUITE), action="append")
    parser.add_argument("--scale", type=float, default=1.0)
    args, rest = parser.parse_known_args()
    with open(args.cubin, "rb") as f:
        suite = Suite(f.read(), args.scale)
    for kernel in args.kernel or list(SUITE):
        suite.register(kernel)
    bench.run_all_benchmarks([sys.argv[0], *rest])


if __name__ == "__main__":
    main()
