#pragma once
// sum_to (ATen's at::sum_to): reduces a gradient of a broadcast result back to the shape of the
// operand that was broadcast, summing over the dimensions broadcasting added or expanded.
#include "libcompiler/tensor/tensor.h"

namespace kiln::ops {

// The gradient of an expand from `sizes` to grad's shape; grad itself when the shapes agree.
tensor::Tensor sum_to(const tensor::Tensor& grad, const tensor::Shape& sizes);
// Whether a tensor of `sizes` broadcasts to `target` (so sum_to(target-shaped grad, sizes) works).
bool is_expandable_to(const tensor::Shape& sizes, const tensor::Shape& target);

}  // namespace kiln::ops
