#include "libcompiler/cuda/runtime.h"

#include <pthread.h>

#include <mutex>
#include <vector>

#include "libcompiler/cuda/caching_allocator.h"
#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/device_copy.h"
#include "libcompiler/cuda/driver_api.h"
#include "libcompiler/cuda/eager_kernels.h"
#include "libcompiler/cuda/host_fallback.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

struct DeviceContext {
  CUdevice device = 0;
  CUcontext context = nullptr;  // retained on first use
};

// The driver, initialised once for the process; devices' contexts on first use.
struct DriverState {
  DriverState() {
    const DriverApi* api = driver_api();
    if (!api) return;
    if (api->cuInit(0) != CUDA_SUCCESS) return;
    int count = 0;
    if (api->cuDeviceGetCount(&count) != CUDA_SUCCESS) return;
    devices.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) check(api->cuDeviceGet(&devices[i].device, i), "cuDeviceGet");
    initialized = true;
    // The driver's state does not survive fork: a child of this process must not use it.
    pthread_atfork(nullptr, nullptr, [] { forked_after_init = true; });
    initialized_here = true;
  }
  static inline bool forked_after_init = false;
  static inline bool initialized_here = false;  // cuInit ran in this process (state() was asked)
  bool initialized = false;
  std::vector<DeviceContext> devices;
  std::mutex mutex;
};

DriverState& state() {
  static DriverState instance;
  return instance;
}

thread_local int current = 0;           // torch.cuda.current_device() is per thread
thread_local int current_context = -1;  // the device whose context this thread made current

CUdevice cu_device(int device) {
  make_current(device);
  return state().devices[static_cast<size_t>(device)].device;
}

int attribute(int device, CUdevice_attribute which) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, which, cu_device(device)), "cuDeviceGetAttribute");
  return value;
}

// PyTorch's error for a forked child of a process that had initialised CUDA.
void refuse_after_fork() {
  if (DriverState::forked_after_init)
    tensor::throw_runtime_error("Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
                                "'spawn' start method");
}

}  // namespace

void install_cuda() {
  static const bool installed = [] {
    tensor::register_allocator(tensor::DeviceType::CUDA, &cuda_caching_allocator());
    tensor::register_device_copy(tensor::DeviceType::CUDA, &copy_with_cuda);
    tensor::register_device_fill(tensor::DeviceType::CUDA, &fill_on_cuda);
    register_eager_kernels();
    ops::register_fallback(tensor::DeviceType::CUDA, &run_on_host);
    return true;
  }();
  (void)installed;
}

bool compiled_with_cuda() { return true; }

bool initialized_in_this_process() { return DriverState::initialized_here; }

bool is_available() { return device_count() > 0; }

int device_count() { return state().initialized ? static_cast<int>(state().devices.size()) : 0; }

void lazy_init() {
  refuse_after_fork();
  driver();  // PyTorch's message when there is no driver
  if (device_count() == 0) tensor::throw_runtime_error("No CUDA GPUs are available");
  make_current(current);
}

int device_index(const tensor::Device& device) {
  const int index = device.index < 0 ? current : device.index;
  lazy_init();
  if (index >= device_count())
    tensor::throw_runtime_error("CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some "
                                "other API call, so the stacktrace below might be incorrect.");
  return index;
}

void make_current(int device) {
  refuse_after_fork();
  if (current_context == device) return;
  if (device_count() == 0) lazy_init();
  DriverState& s = state();
  DeviceContext& entry = s.devices.at(static_cast<size_t>(device));
  {
    std::lock_guard lock(s.mutex);
    if (!entry.context) check(driver().cuDevicePrimaryCtxRetain(&entry.context, entry.device), "cuDevicePrimaryCtxRetain");
  }
  check(driver().cuCtxSetCurrent(entry.context), "cuCtxSetCurrent");
  current_context = device;
}

int current_device() {
  lazy_init();
  return current;
}

void set_device(int device) {
  current = device_index(tensor::Device{tensor::DeviceType::CUDA, device});
  make_current(current);
}

std::string device_name(int device) {
  char name[256] = {};
  check(driver().cuDeviceGetName(name, sizeof(name), cu_device(device)), "cuDeviceGetName");
  return name;
}

std::pair<int, int> device_capability(int device) {
  return {attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
}

int64_t total_memory(int device) {
  size_t bytes = 0;
  check(driver().cuDeviceTotalMem(&bytes, cu_device(device)), "cuDeviceTotalMem");
  return static_cast<int64_t>(bytes);
}

int multi_processor_count(int device) { return attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT); }

int max_threads_per_multiprocessor(int device) { return attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR); }

void synchronize(int device) {
  make_current(device_index(tensor::Device{tensor::DeviceType::CUDA, device}));
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

MemoryStats memory_stats(int device) { return cuda_caching_allocator().stats(device); }

void reset_peak_memory_stats(int device) { cuda_caching_allocator().reset_peaks(device); }

void empty_cache() { cuda_caching_allocator().release_cached(); }

Event::Event() {
  lazy_init();
  CUevent event = nullptr;
  check(driver().cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
  handle_ = event;
}

Event::~Event() {
  if (handle_) driver().cuEventDestroy(static_cast<CUevent>(handle_));
}

void Event::record() { check(driver().cuEventRecord(static_cast<CUevent>(handle_), nullptr), "cuEventRecord"); }

void Event::synchronize() { check(driver().cuEventSynchronize(static_cast<CUevent>(handle_)), "cuEventSynchronize"); }

double Event::elapsed_time(const Event& end) const {
  float milliseconds = 0;
  check(driver().cuEventElapsedTime(&milliseconds, static_cast<CUevent>(handle_), static_cast<CUevent>(end.handle_)),
        "cuEventElapsedTime");
  return milliseconds;
}

}  // namespace kiln::cuda
