#pragma once
// Reduction operators of collectives (torch.distributed.ReduceOp) and the element-wise functions
// Gloo's reducing algorithms call for them, per dtype, as ProcessGroupGloo picks them.
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>

#include "libcompiler/tensor/dtype.h"

namespace kiln::distributed {

enum class ReduceOp {
#define KILN_REDUCE_OP(Name, Value) Name = Value,
#include "libcompiler/distributed/reduce_op.def"
};

std::string_view reduce_op_name(ReduceOp op);
std::optional<ReduceOp> reduce_op_from_value(int value);

// out[i] = a[i] (op) b[i] for n elements; out may alias a or b.
using ReduceFunction = std::function<void(void* out, const void* a, const void* b, size_t n)>;

// The function for `op` on `dtype`. AVG reduces as SUM (the caller divides by the world size
// afterwards, as Gloo has no average); bitwise ops need an integral dtype and PREMUL_SUM is not
// Gloo's: both raise PyTorch's errors.
ReduceFunction reduce_function(ReduceOp op, tensor::DType dtype);

}  // namespace kiln::distributed
