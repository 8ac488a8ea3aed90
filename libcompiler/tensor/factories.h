#pragma once
// Tensor creation (torch.empty/zeros/ones/full/arange/tensor) and .item(). Factories return
// fresh tensors at version 0.
#include <optional>
#include <vector>

#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

Tensor zeros(const Shape& sizes, DType dtype = DType::Float32);
Tensor ones(const Shape& sizes, DType dtype = DType::Float32);
// torch.full: without a dtype, the fill value decides (bool, int64, or the default float dtype).
Tensor full(const Shape& sizes, const Scalar& value, std::optional<DType> dtype = std::nullopt);
// torch.arange(end, dtype=...): 0, 1, ..., end - 1.
Tensor arange(int64_t end, DType dtype = DType::Int64);
// torch.tensor(number): a 0-dim tensor; without a dtype, as torch.tensor infers it.
Tensor scalar_tensor(const Scalar& value, std::optional<DType> dtype = std::nullopt);
// A Python number as an operand of a tensor operation (bool, int64 or float64, 0-dim, flagged
// as a wrapped number for type promotion).
Tensor wrapped_number(const Scalar& value);
// torch.tensor(values).reshape(sizes) with the given dtype; values are given row-major.
Tensor tensor_from_values(const std::vector<double>& values, const Shape& sizes, DType dtype = DType::Float32);
Tensor tensor_from_values(const std::vector<int64_t>& values, const Shape& sizes, DType dtype = DType::Int64);

// Tensor.item(): the single element as a Python number; RuntimeError unless numel() == 1.
Scalar item(const Tensor& self);

}  // namespace kiln::tensor
