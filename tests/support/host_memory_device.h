#pragma once
// A stand-in GPU runtime for the tests of the device seams: CUDA's allocator and copy registered
// over host memory, so that tensors on cuda:0 can be made, copied and read without a GPU (and
// kernels registered for CUDA can run the CPU's on them). Registered for the object's lifetime.
#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

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

  // A copy of a host tensor on the device.
  static tensor::Tensor to_device(const tensor::Tensor& host) {
    tensor::Tensor t = tensor::Tensor::empty(host.sizes(), host.dtype(), kDevice);
    tensor::copy_elements(t, host);
    return t;
  }

 private:
  class HostMemory final : public tensor::Allocator {
   public:
    void* allocate(size_t nbytes, const tensor::Device&) override { return nbytes ? std::malloc(nbytes) : nullptr; }
    void deallocate(void* data, const tensor::Device&) override { std::free(data); }
  };

  // Both sides are host memory: contiguous tensors of one dtype copy as bytes.
  static void copy(const tensor::Tensor& dst, const tensor::Tensor& src) {
    ASSERT_TRUE(dst.is_contiguous() && src.is_contiguous() && dst.dtype() == src.dtype() && dst.numel() == src.numel());
    std::memcpy(dst.data_ptr(), src.data_ptr(), static_cast<size_t>(dst.numel()) * dst.itemsize());
  }

  HostMemory memory_;
};

}  // namespace kiln::test
