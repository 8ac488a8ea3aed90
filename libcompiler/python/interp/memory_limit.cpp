#include "libcompiler/python/interp/memory_limit.h"

#include <sys/sysinfo.h>

#include "libcompiler/python/interp/exceptions.h"

namespace kiln::python {

namespace {
size_t machine_memory_bytes() {
  static const size_t bytes = [] {
    struct sysinfo info {};
    if (sysinfo(&info) != 0) return ~size_t{0};
    return (static_cast<size_t>(info.totalram) + static_cast<size_t>(info.totalswap)) * info.mem_unit;
  }();
  return bytes;
}
}  // namespace

void check_allocation(size_t count, size_t item_bytes) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(count, item_bytes, &bytes) || bytes > machine_memory_bytes()) raise_bare(ExcType::MemoryError);
}

}  // namespace kiln::python
