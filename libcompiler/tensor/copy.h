#pragma once
// Copies and casts between tensors of any strides and dtypes (Tensor.copy_, .to, .clone), and
// fill_. Element conversion follows scalar_cast.h. In-place writers bump the version counter.
#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// dst.copy_(src): src broadcasts to dst's shape; dtypes may differ. Returns dst.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
// A new contiguous tensor with self's values (self.clone(memory_format=torch.contiguous_format)).
Tensor clone_contiguous(const Tensor& self);
// self.to(dtype): self itself when the dtype already matches, else a converted contiguous copy.
Tensor to_dtype(const Tensor& self, DType dtype);
// self.fill_(value). Returns self.
const Tensor& fill_(const Tensor& self, const Scalar& value);

// The kernels behind copy_ and fill_, without the version bump: for filling a tensor nobody has
// seen yet (factories, clones), whose _version PyTorch leaves at 0.
void copy_elements(const Tensor& dst, const Tensor& src);
void fill_elements(const Tensor& self, const Scalar& value);

}  // namespace kiln::tensor
