#include "libcompiler/tensor/storage.h"

namespace kiln::tensor {

Storage Storage::allocate(size_t nbytes, const Device& device) {
  Allocator& allocator = allocator_for(device.type);
  const Device placed = allocator.placement(device);
  Storage storage;
  storage.impl_ = std::make_shared<Impl>(allocator.allocate(nbytes, placed), nbytes, placed, &allocator);
  return storage;
}

}  // namespace kiln::tensor
