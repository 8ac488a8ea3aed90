#pragma once
// A stand-in GPU runtime for the tests of the device seams: CUDA's allocator and copy registered
// over host memory, so that tensors on cuda:0 can be made, copied and read without a GPU (and
// kernels registered for CUDA can run the CPU's on them). Registered for the object's lifetime.
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

#include "libcompiler/ops/op_table.h"
#include "libcompiler/tensor/allocator.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::test {

class HostMemoryDevice {
 public:
  static constexpr tensor::Device kDevice{tensor::DeviceType::CUDA, 0};

  HostMemoryDevice() {
    tensor::register_allocator(tensor::DeviceType::CUDA, &memory_);
    tensor::register_device_copy(tensor::DeviceType::CUDA, copy);
  }
  ~HostMemoryDevice() {
    tensor::register_device_copy(tensor::DeviceType::CUDA, nullptr);
    tensor::register_allocator(tensor::DeviceType::CUDA, nullptr);
  }
  HostMemoryDevice(const HostMemoryDevice&) = delete;
  HostMemoryDevice& operator=(const HostMemoryDevice&) = delete;

  // Storages allocated on the device in this process so far.
  size_t allocations() const { return memory_.allocations; }

  // A fallback that runs every op's CPU kernel on the device's tensors in place (their memory is
  // the host's): register it to compute on the stand-in GPU.
  static std::vector<tensor::Tensor> cpu_kernel_in_place(const ops::OpInfo& op, const ops::Arguments& args) { return op.cpu_kernel(args); }

  // A copy of a host tensor on the device.
  static tensor::Tensor to_device(const tensor::Tensor& host) {
    tensor::Tensor t = tensor::Tensor::empty(host.sizes(), host.dtype(), kDevice);
    tensor::copy_elements(t, host);
    return t;
  }

 private:
  class HostMemory final : public tensor::Allocator {
   public:
    void* allocate(size_t nbytes, const tensor::Device&) override {
      ++allocations;
      return nbytes ? std::malloc(nbytes) : nullptr;
    }
    void deallocate(void* data, const tensor::Device&) override { std::free(data); }
    size_t allocations = 0;
  };

  // Both sides are host memory: tensors of one dtype and shape copy element by element, each
  // side through its own strides (a write into a view lands where the view points).
  static void copy(const tensor::Tensor& dst, const tensor::Tensor& src) {
    ASSERT_TRUE(dst.dtype() == src.dtype() && dst.sizes() == src.sizes());
    const size_t itemsize = dst.itemsize();
    for (int64_t i = 0; i < dst.numel(); ++i) {
      int64_t rest = i, dst_offset = 0, src_offset = 0;
      for (int64_t d = dst.dim() - 1; d >= 0; --d) {
        const int64_t index = rest % dst.size(d);
        rest /= dst.size(d);
        dst_offset += index * dst.stride(d);
        src_offset += index * src.stride(d);
      }
      std::memcpy(static_cast<char*>(dst.data_ptr()) + dst_offset * itemsize, static_cast<const char*>(src.data_ptr()) + src_offset * itemsize,
                  itemsize);
    }
  }

  HostMemory memory_;
};

}  // namespace kiln::test
