// Rule 1's planted C++/CUDA file: every line ending in the marker is a hit,
// and no other line is. This comment names std::chrono::steady_clock freely.
#include <chrono>
#include <ctime> // HIT
#include <sys/time.h> // HIT
#include "time.h" // HIT
/* gettimeofday(&tv, 0); clock_gettime(CLOCK_MONOTONIC, &ts);
   omp_get_wtime() inside a block comment */
using namespace std::chrono;
namespace sc = std::chrono;
auto a = std::chrono::steady_clock::now(); // HIT
auto b = high_resolution_clock::now(); // HIT
auto c = sc::system_clock::now(); // HIT
long d = std::clock(); // HIT
double e = double(clock()) / CLOCKS_PER_SEC; // HIT
clock_gettime(CLOCK_MONOTONIC, &ts); // HIT
#define NOW(ts) clock_gettime(CLOCK_REALTIME, &(ts)) // HIT
time_t f = ::time(nullptr); // HIT
time_t g = time(NULL); // HIT
time_t h = std::time(0); // HIT
double i = omp_get_wtime(); // HIT
double j = MPI_Wtime(); // HIT
gettimeofday(&tv, nullptr); // HIT
unsigned long long k = __rdtsc(); // HIT
asm volatile("rdtsc" : "=a"(lo), "=d"(hi)); // HIT
FILE* up = fopen("/proc/uptime", "r"); // HIT
__global__ void spin(long long* t) { t[0] = clock64(); t[1] = clock(); }
__device__ long long tick() { return clock64(); }
double member = timer.time() + p->clock();
auto sleep = std::chrono::milliseconds(5);
