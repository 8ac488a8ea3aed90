#pragma once
// parallel_for over an index range with a small process-wide thread pool, as at::parallel_for:
// ranges below the grain size, and calls from inside a parallel region, run serially on the
// calling thread, so kernels can call it unconditionally.
#include <cstdint>
#include <functional>

namespace kiln::tensor {

// PyTorch's at::internal::GRAIN_SIZE: below this many elements threading costs more than it gains.
inline constexpr int64_t kGrainSize = 32768;

// Calls body(chunk_begin, chunk_end) on disjoint chunks covering [begin, end), each at least
// `grain` long (but the last), and returns when all are done. Exceptions from a chunk are
// rethrown on the calling thread.
void parallel_for(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

// Threads parallel_for splits work among (the calling thread included): the core count,
// KILN_NUM_THREADS when set, or what set_num_threads last said (torch.set_num_threads). As
// PyTorch's, reductions' results depend on it (ATen's chunks are summed apart).
int num_threads();
void set_num_threads(int threads);

}  // namespace kiln::tensor
