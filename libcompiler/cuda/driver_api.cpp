#include "libcompiler/cuda/driver_api.h"

#include "libcompiler/cuda/dynamic_library.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

#define KILN_STRINGIFY_EXPANDED(x) KILN_STRINGIFY(x)
#define KILN_STRINGIFY(x) #x

struct LoadedDriver {
  LoadedDriver() : library({"libcuda.so.1", "libcuda.so"}) {
    if (!library.loaded()) {
      reason = library.why();
      return;
    }
    bool complete = true;
#define KILN_CUDA_DRIVER_FUNCTION(name) \
  complete = complete && (api.name = reinterpret_cast<decltype(api.name)>(library.symbol(KILN_STRINGIFY_EXPANDED(name))));
#include "libcompiler/cuda/driver_api.def"
    if (!complete) reason = library.why();
  }
  DynamicLibrary library;
  DriverApi api;
  std::string reason;
};

LoadedDriver& loaded() {
  static LoadedDriver instance;
  return instance;
}

}  // namespace

const DriverApi* driver_api() { return loaded().reason.empty() ? &loaded().api : nullptr; }

const std::string& driver_missing_reason() { return loaded().reason; }

const DriverApi& driver() {
  if (const DriverApi* api = driver_api()) return *api;
  tensor::throw_runtime_error(
      "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from "
      "http://www.nvidia.com/Download/index.aspx");
}

void check(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = "unknown error";
  const char* description = "";
  driver().cuGetErrorName(result, &name);
  driver().cuGetErrorString(result, &description);
  tensor::throw_runtime_error(std::string("CUDA driver error: ") + name + " (" + description + ") in " + call);
}

}  // namespace kiln::cuda
