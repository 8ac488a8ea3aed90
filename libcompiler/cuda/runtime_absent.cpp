// The CUDA runtime of a build without CUDA's headers: no device, and PyTorch's CPU-only answers.
#include "libcompiler/cuda/runtime.h"

#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {
[[noreturn]] void not_compiled() { tensor::throw_runtime_error("Torch not compiled with CUDA enabled"); }
}  // namespace

void install_cuda() {}
bool compiled_with_cuda() { return false; }

bool initialized_in_this_process() { return false; }
bool is_available() { return false; }
int device_count() { return 0; }
void lazy_init() { not_compiled(); }
int current_device() { not_compiled(); }
void set_device(int) { not_compiled(); }
std::string device_name(int) { not_compiled(); }
std::pair<int, int> device_capability(int) { not_compiled(); }
int64_t total_memory(int) { not_compiled(); }
int multi_processor_count(int) { not_compiled(); }
int max_threads_per_multiprocessor(int) { not_compiled(); }
void manual_seed_all(uint64_t) {}  // no CUDA generators to seed
void synchronize(int) { not_compiled(); }
MemoryStats memory_stats(int) { return {}; }
void reset_peak_memory_stats(int) {}
void empty_cache() {}
Event::Event() { not_compiled(); }
Event::~Event() = default;
void Event::record() { not_compiled(); }
void Event::synchronize() { not_compiled(); }
double Event::elapsed_time(const Event&) const { not_compiled(); }

}  // namespace kiln::cuda
