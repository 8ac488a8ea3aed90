#pragma once
// Data across the host-device boundary and within the device: the copy and fill that
// tensor::copy_elements and fill_elements run for CUDA tensors (registered by install_cuda).
#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::cuda {

// dst.copy_(src) where either side is on a CUDA device: a host side is staged through a
// contiguous host tensor of the device side's dtype and shape; casts, broadcasts and strides
// on the device run a pointwise kernel; same-dtype contiguous copies are one driver memcpy.
void copy_with_cuda(const tensor::Tensor& dst, const tensor::Tensor& src);
void fill_on_cuda(const tensor::Tensor& self, const tensor::Scalar& value);

}  // namespace kiln::cuda
