#include "libcompiler/cuda/device_copy.h"

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/driver_api.h"
#include "libcompiler/cuda/pointwise.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::cuda {

namespace {

bool is_cuda(const tensor::Tensor& t) { return t.device().type == tensor::DeviceType::CUDA; }

CUdeviceptr device_pointer(const tensor::Tensor& t) { return reinterpret_cast<CUdeviceptr>(t.data_ptr()); }

size_t byte_size(const tensor::Tensor& t) { return static_cast<size_t>(t.numel()) * t.itemsize(); }

// dst and src hold the same elements in the same order: one memcpy does.
bool is_plain_copy(const tensor::Tensor& dst, const tensor::Tensor& src) {
  return dst.dtype() == src.dtype() && dst.sizes() == src.sizes() && dst.is_contiguous() && src.is_contiguous();
}

void host_to_device(const tensor::Tensor& dst, const tensor::Tensor& src);

void device_to_device(const tensor::Tensor& dst, const tensor::Tensor& src) {
  // Between two GPUs through the host: simple, and rare in the programs Kiln runs.
  if (dst.device() != src.device()) return host_to_device(dst, tensor::to_host(src));
  make_current(device_index(dst.device()));
  if (is_plain_copy(dst, src)) {
    if (dst.numel()) check(driver().cuMemcpyDtoD(device_pointer(dst), device_pointer(src), byte_size(dst)), "cuMemcpyDtoD");
    return;
  }
  run_pointwise(dst, "src", src.dtype(), {{"src", src}});
}

void host_to_device(const tensor::Tensor& dst, const tensor::Tensor& src) {
  tensor::Tensor staged = src;
  if (!is_plain_copy(dst, src)) {
    staged = tensor::Tensor::empty(dst.sizes(), dst.dtype(), tensor::kCPU);
    tensor::copy_elements(staged, src);
  }
  if (!dst.is_contiguous()) {
    const tensor::Tensor contiguous = tensor::Tensor::empty(dst.sizes(), dst.dtype(), dst.device());
    host_to_device(contiguous, staged);
    device_to_device(dst, contiguous);
    return;
  }
  make_current(device_index(dst.device()));
  if (dst.numel()) check(driver().cuMemcpyHtoD(device_pointer(dst), staged.data_ptr(), byte_size(dst)), "cuMemcpyHtoD");
}

void device_to_host(const tensor::Tensor& dst, const tensor::Tensor& src) {
  if (!src.is_contiguous()) {
    const tensor::Tensor contiguous = tensor::Tensor::empty(src.sizes(), src.dtype(), src.device());
    device_to_device(contiguous, src);
    device_to_host(dst, contiguous);
    return;
  }
  const bool direct = is_plain_copy(dst, src);
  const tensor::Tensor staged = direct ? dst : tensor::Tensor::empty(src.sizes(), src.dtype(), tensor::kCPU);
  make_current(device_index(src.device()));
  if (src.numel()) check(driver().cuMemcpyDtoH(staged.data_ptr(), device_pointer(src), byte_size(src)), "cuMemcpyDtoH");
  if (!direct) tensor::copy_elements(dst, staged);
}

}  // namespace

void copy_with_cuda(const tensor::Tensor& dst, const tensor::Tensor& src) {
  if (is_cuda(dst) && is_cuda(src)) return device_to_device(dst, src);
  if (is_cuda(dst)) return host_to_device(dst, src);
  device_to_host(dst, src);
}

void fill_on_cuda(const tensor::Tensor& self, const tensor::Scalar& value) {
  run_pointwise(self, "value", self.dtype(), {}, {{"value", value}});
}

}  // namespace kiln::cuda
