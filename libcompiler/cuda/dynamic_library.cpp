#include "libcompiler/cuda/dynamic_library.h"

#include <dlfcn.h>

namespace kiln::cuda {

DynamicLibrary::DynamicLibrary(std::initializer_list<const char*> sonames) {
  for (const char* soname : sonames) {
    if ((handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL))) {
      soname_ = soname;
      return;
    }
    if (!error_.empty()) error_ += "; ";
    error_ += dlerror();
  }
}

void* DynamicLibrary::symbol(const char* name) {
  void* address = handle_ ? dlsym(handle_, name) : nullptr;
  if (!address) error_ = soname_ + " has no " + name;
  return address;
}

}  // namespace kiln::cuda
