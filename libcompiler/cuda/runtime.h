#pragma once
// The CUDA device as torch.cuda shows it: availability, devices, the current device,
// synchronisation and the caching allocator's statistics. This header needs no CUDA headers:
// builds without them compile runtime_absent.cpp behind it, and torch.cuda answers as PyTorch's
// CPU-only builds do.
#include <cstdint>
#include <string>

namespace kiln::cuda {

// Registers the CUDA device's allocator, copy, fill and eager kernels with the tensor and op
// layers (nothing touches the driver until a CUDA tensor is made). Idempotent.
void install_cuda();
// Whether this build has the CUDA runtime (built against CUDA's headers).
bool compiled_with_cuda();
// Whether this process has initialised the driver (a fork of it can no longer use CUDA).
bool initialized_in_this_process();
// torch.cuda.is_available(): a driver loads and sees at least one device. Never throws.
bool is_available();
// torch.cuda.device_count(): 0 without a driver.
int device_count();
// Initialises the driver and the current device's context (once per thread): what
// torch.cuda._lazy_init does natively. Throws RuntimeError: "Torch not compiled with CUDA enabled"
// (the absent runtime; torch.cuda's Python raises PyTorch's AssertionError before it gets here),
// "Found no NVIDIA driver on your system..." or "No CUDA GPUs are available".
void lazy_init();

int current_device();
void set_device(int device);
std::string device_name(int device);
// (major, minor): (9, 0) on an H100 or H200.
std::pair<int, int> device_capability(int device);
int64_t total_memory(int device);
int multi_processor_count(int device);
int max_threads_per_multiprocessor(int device);
// torch.manual_seed's part for CUDA (torch.cuda.manual_seed_all): every device's Philox generator
// (philox_random.h) reseeded at offset 0.
void manual_seed_all(uint64_t seed);
// Waits for the device's work (the default stream) to finish.
void synchronize(int device);

// The caching allocator's counters for a device, in bytes, as torch.cuda.memory_stats names them.
struct MemoryStats {
  int64_t allocated = 0;      // memory_allocated: blocks held by tensors
  int64_t max_allocated = 0;  // max_memory_allocated
  int64_t reserved = 0;       // memory_reserved: allocated + cached for reuse
  int64_t max_reserved = 0;   // max_memory_reserved
};
MemoryStats memory_stats(int device);
void reset_peak_memory_stats(int device);
// torch.cuda.empty_cache(): cached blocks go back to the driver.
void empty_cache();

// torch.cuda.Event(enable_timing=True) on the default stream.
class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record();
  void synchronize();
  // Milliseconds from this event to `end`; both must have been recorded and completed.
  double elapsed_time(const Event& end) const;

 private:
  void* handle_ = nullptr;
};

}  // namespace kiln::cuda
