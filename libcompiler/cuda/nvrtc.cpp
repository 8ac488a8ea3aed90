#include "libcompiler/cuda/nvrtc.h"

#include <nvrtc.h>

#include <cstdlib>
#include <vector>

#include "libcompiler/cuda/dynamic_library.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

#define KILN_NVRTC_FUNCTION(name) decltype(&::name) name = nullptr;
struct NvrtcApi {
#include "libcompiler/cuda/nvrtc_api.def"
};

const char* chosen_soname() {
  const char* chosen = std::getenv("KILN_NVRTC");
  return chosen && *chosen ? chosen : "libnvrtc.so.13";
}

struct LoadedNvrtc {
  LoadedNvrtc() : library({chosen_soname(), "libnvrtc.so.12", "libnvrtc.so"}) {
    if (!library.loaded()) {
      reason = library.why();
      return;
    }
    bool complete = true;
#define KILN_NVRTC_FUNCTION(name) complete = complete && (api.name = reinterpret_cast<decltype(api.name)>(library.symbol(#name)));
#include "libcompiler/cuda/nvrtc_api.def"
    if (!complete) reason = library.why();
  }
  DynamicLibrary library;
  NvrtcApi api;
  std::string reason;
};

LoadedNvrtc& loaded() {
  static LoadedNvrtc instance;
  return instance;
}

const NvrtcApi& nvrtc() {
  if (!nvrtc_available()) tensor::throw_runtime_error("NVRTC could not be loaded: " + nvrtc_missing_reason());
  return loaded().api;
}

void check_nvrtc(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS)
    tensor::throw_runtime_error(std::string("NVRTC error: ") + nvrtc().nvrtcGetErrorString(result) + " in " + call);
}

// Owns an nvrtcProgram.
struct Program {
  explicit Program(const std::string& source, const std::string& name) {
    check_nvrtc(nvrtc().nvrtcCreateProgram(&handle, source.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  }
  ~Program() { nvrtc().nvrtcDestroyProgram(&handle); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram handle = nullptr;
};

}  // namespace

bool nvrtc_available() { return loaded().reason.empty(); }

const std::string& nvrtc_missing_reason() { return loaded().reason; }

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check_nvrtc(nvrtc().nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

CompiledModule compile_cuda(const std::string& source, const std::string& name, const std::string& architecture) {
  const NvrtcApi& api = nvrtc();
  Program program(source, name);
  const std::string arch_option = "--gpu-architecture=" + architecture;
  // Kernels are C++17 without the host's headers; -default-device lets helpers go unannotated.
  std::vector<const char*> options = {arch_option.c_str(), "--std=c++17", "-default-device"};
  // --minimal (NVRTC 12.4 on) leaves out what no kernel here uses (textures, surfaces, launches
  // from the device, the runtime API's types): 27 -> 16 ms a module on the H200 machine's CPU.
  static const bool minimal = [] {
    int major = 0, minor = 0;
    return nvrtc().nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && (major > 12 || (major == 12 && minor >= 4));
  }();
  if (minimal) options.push_back("--minimal");
  const nvrtcResult compiled = api.nvrtcCompileProgram(program.handle, static_cast<int>(options.size()), options.data());
  CompiledModule result;
  size_t log_size = 0;
  check_nvrtc(api.nvrtcGetProgramLogSize(program.handle, &log_size), "nvrtcGetProgramLogSize");
  result.log.resize(log_size);
  check_nvrtc(api.nvrtcGetProgramLog(program.handle, result.log.data()), "nvrtcGetProgramLog");
  while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n')) result.log.pop_back();
  if (compiled != NVRTC_SUCCESS) throw CudaCompileError("compiling " + name + " for " + architecture + ":\n" + result.log);
  const bool machine_code = architecture.starts_with("sm_");
  size_t size = 0;
  check_nvrtc(machine_code ? api.nvrtcGetCUBINSize(program.handle, &size) : api.nvrtcGetPTXSize(program.handle, &size), "nvrtcGet*Size");
  result.image.resize(size);
  check_nvrtc(machine_code ? api.nvrtcGetCUBIN(program.handle, result.image.data()) : api.nvrtcGetPTX(program.handle, result.image.data()),
        "nvrtcGet*");
  return result;
}

}  // namespace kiln::cuda
