// Eager elementwise throughput against this machine's memory bandwidth: contiguous float32
// add, mul and relu on 16M elements through the op table (dispatch, allocation, kernel), and the
// in-place add_/mul_, compared in bytes moved per second with memcpy measured in the same run
// (into fresh memory from malloc, and into mapped memory: the machine's raw bandwidth). Results of
// out-of-place ops come from the CPU caching allocator, which recycles the previous result's
// block. Prints the ratios; the target is >= 0.5 of mapped memcpy (tests/bench/RESULTS.md).
//
//   eager_elementwise [elements] [repetitions]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/random_ops.h"

namespace {

using kiln::ops::Tensor;

double best_seconds(int repetitions, const std::function<void()>& body) {
  double best = 1e30;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// memcpy of `bytes` split over the same thread pool the kernels use, so both sides get the
// same cores.
void parallel_memcpy(char* dst, const char* src, int64_t bytes) {
  kiln::tensor::parallel_for(0, bytes, 1 << 20, [&](int64_t begin, int64_t end) {
    std::memcpy(dst + begin, src + begin, static_cast<size_t>(end - begin));
  });
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : (int64_t{1} << 24);
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 10;
  const Tensor a = kiln::tensor::randn({n});
  const Tensor b = kiln::tensor::randn({n});
  const Tensor c = kiln::tensor::randn({n});
  const int64_t bytes = n * 4;
  const std::vector<char> src(static_cast<size_t>(bytes) * 2, 1);

  // memcpy into fresh, uninitialised memory from malloc: what an op result costs without a cache
  // (first-touch page faults on every call).
  const double copy_two = best_seconds(repetitions, [&] {
    const std::unique_ptr<char[]> out(new char[static_cast<size_t>(bytes) * 2]);
    parallel_memcpy(out.get(), src.data(), bytes * 2);
  });
  const double copy_one = best_seconds(repetitions, [&] {
    const std::unique_ptr<char[]> out(new char[static_cast<size_t>(bytes)]);
    parallel_memcpy(out.get(), src.data(), bytes);
  });
  // A binary op moves 3 x bytes (two reads, one write); a memcpy of 2 x bytes moves 4 x bytes.
  // Bandwidth is compared as bytes moved per second.
  struct Case {
    const char* name;
    std::function<void()> run;
    double bytes_moved;
  };
  const std::vector<Case> cases{
      {"add", [&] { kiln::ops::add(a, b); }, 3.0 * bytes},
      {"mul", [&] { kiln::ops::mul(a, b); }, 3.0 * bytes},
      {"relu", [&] { kiln::ops::relu(a); }, 2.0 * bytes},
      // In place: the same kernels writing into mapped memory, isolating them from allocation.
      {"add_", [&] { kiln::ops::add_(c, b); }, 3.0 * bytes},
      {"mul_", [&] { kiln::ops::mul_(c, b); }, 3.0 * bytes},
  };
  const double memcpy_bandwidth = std::max(4.0 * bytes / copy_two, 2.0 * bytes / copy_one);
  // The stricter peer: memcpy into memory that is already mapped, the machine's raw bandwidth.
  const std::unique_ptr<char[]> warm(new char[static_cast<size_t>(bytes) * 2]);
  std::memset(warm.get(), 0, static_cast<size_t>(bytes) * 2);
  const double copy_warm = best_seconds(repetitions, [&] { parallel_memcpy(warm.get(), src.data(), bytes * 2); });
  const double warm_bandwidth = 4.0 * bytes / copy_warm;
  std::printf("elements %lld, threads %d, best of %d; memcpy to fresh memory %.2f GB/s, to mapped memory %.2f GB/s\n",
              static_cast<long long>(n), kiln::tensor::num_threads(), repetitions, memcpy_bandwidth / 1e9,
              warm_bandwidth / 1e9);
  for (const Case& c : cases) {
    const double seconds = best_seconds(repetitions, c.run);
    const double bandwidth = c.bytes_moved / seconds;
    std::printf("%-5s %8.3f ms  %6.2f GB/s  ratio to fresh memcpy %.2f, to mapped memcpy %.2f\n", c.name,
                seconds * 1e3, bandwidth / 1e9, bandwidth / memcpy_bandwidth, bandwidth / warm_bandwidth);
  }
  return 0;
}
