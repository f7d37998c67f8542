# SPDX-License-Identifier: MIT
"""Day 53's outside reference: a pinned 256 MiB host-to-device copy by PyTorch.

Measured the way pinned.cu's Part 1 measures its pinned row, so the two
compare: 3 untimed copies, then CUDA events around 10 copies on the current
stream, mean per copy, GB/s as 10^9 bytes per second. The buffer is plain
page-locked memory (pin_memory), as cudaMallocHost gives.

Run: python3 tools/reference/torch_h2d_reference.py      (on a machine with PyTorch and a GPU)
"""

import sys

import torch

WARMUPS = 3
RUNS = 10
BYTES = 256 * 1024 * 1024


def main() -> int:
    if not torch.cuda.is_available():
        print("error: PyTorch sees no CUDA device", file=sys.stderr)
        return 1
    host = torch.arange(BYTES // 4, dtype=torch.float32).remainder_(977).mul_(0.25).pin_memory()
    dev = torch.empty_like(host, device="cuda")
    for _ in range(WARMUPS):
        dev.copy_(host, non_blocking=False)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(RUNS):
        dev.copy_(host, non_blocking=False)
    stop.record()
    stop.synchronize()
    ms = start.elapsed_time(stop) / RUNS
    if not torch.equal(dev.cpu(), host):
        print("error: the copied tensor differs from its source", file=sys.stderr)
        return 1
    print(f"PyTorch {torch.__version__}, {torch.cuda.get_device_name(0)}")
    print(f"pinned 256 MiB host-to-device copy: mean of {RUNS} runs after {WARMUPS} warm-ups")
    print(f"   256 MiB  {ms:9.3f} ms {BYTES / (ms * 1e-3) / 1e9:5.1f} GB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
