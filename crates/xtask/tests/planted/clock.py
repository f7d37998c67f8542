# Rule 1's planted Python file: every line ending in the marker is a hit, and
# no other line is. This comment names time.time() and perf_counter freely.
import time
from time import perf_counter  # HIT
from time import time as wall  # HIT
a = time.time()  # HIT
b = time.perf_counter_ns()  # HIT
c = time.monotonic()  # HIT
d = time.clock_gettime(time.CLOCK_MONOTONIC)  # HIT
e = open("/proc/uptime").read()  # HIT
import timeit  # HIT
time.sleep(0.1)
print("# exit code:", 3)
