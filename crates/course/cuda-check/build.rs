// SPDX-License-Identifier: MIT
// The runtime's own error tables (cudaGetErrorName/String) live in cudart.
fn main() {
    cuda_build::link_cudart_static();
}
