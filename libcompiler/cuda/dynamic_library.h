#pragma once
// A shared library opened at run time (dlopen): the CUDA driver, NVRTC and cuBLAS come with the
// GPU machine's driver and toolkit, not with Kiln's build, so one binary runs with or without them.
#include <initializer_list>
#include <string>

namespace kiln::cuda {

class DynamicLibrary {
 public:
  // The first of `sonames` that loads; check loaded() (why() says what the loader answered).
  explicit DynamicLibrary(std::initializer_list<const char*> sonames);
  // The library stays loaded for the process (as PyTorch's lazily loaded NVRTC does): unloading
  // it at exit would free nothing and leave its own allocations unreachable.
  ~DynamicLibrary() = default;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& why() const { return error_; }
  const std::string& soname() const { return soname_; }
  // The address of `symbol`; nullptr (and why() says so) when the library lacks it.
  void* symbol(const char* name);

 private:
  void* handle_ = nullptr;
  std::string soname_;
  std::string error_;
};

}  // namespace kiln::cuda
