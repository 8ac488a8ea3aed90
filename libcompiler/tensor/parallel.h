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

// For a program's main, first thing: libgomp (the OpenMP runtime oneDNN's primitives run on)
// reads OMP_WAIT_POLICY once, as it is loaded, before main. Unless it says PASSIVE, libgomp's idle
// threads spin for a while after each oneDNN call, and on few cores they spin on the cores this
// pool's workers were given (a compiled bfloat16 GPT's CPU step: 600 ms against 250). Where the
// user left it unset, the program executes itself again with it PASSIVE (a few milliseconds),
// and the variable is taken out of the environment again, so that the processes it starts see
// the environment it was given. Returns normally in the process that goes on.
void run_openmp_passively(char** argv);

}  // namespace kiln::tensor
