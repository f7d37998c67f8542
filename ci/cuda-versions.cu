// SPDX-License-Identifier: MIT
//
// Prints the CUDA runtime and driver versions as ci/record.sh writes them in
// a transcript header: the runtime this file was linked with, the newest
// runtime the installed driver supports.
//
// Build: nvcc -o cuda-versions ci/cuda-versions.cu
#include <cstdio>

#include <cuda_runtime.h>

int main() {
    int runtime = 0;
    int driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess ||
        cudaDriverGetVersion(&driver) != cudaSuccess) {
        std::fprintf(stderr, "cannot read CUDA versions\n");
        return 1;
    }
    std::printf("runtime %d.%d, driver supports %d.%d\n", runtime / 1000,
                (runtime % 1000) / 10, driver / 1000, (driver % 1000) / 10);
    return 0;
}
