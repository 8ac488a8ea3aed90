#pragma once
// Allocations no machine of this size can give ([0] * 10**12): MemoryError before trying, so
// that the failure is the same everywhere (a sanitizer's operator new aborts instead of throwing
// std::bad_alloc).
#include <cstddef>

namespace kiln::python {

// Raises MemoryError when `count` items of `item_bytes` each exceed the machine's memory and swap.
void check_allocation(size_t count, size_t item_bytes);

}  // namespace kiln::python
