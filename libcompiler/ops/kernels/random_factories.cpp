// randint and randint.low: the CPU generator's random_(from, to) fill (tensor/random_ops.h), so
// seeded values equal PyTorch's.
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/random_ops.h"

namespace kiln::ops {

std::vector<Tensor> kernel_randint(const Arguments& args) {
  const TensorMeta meta = meta_randint(args).at(0);
  const bool has_low = args.schema().overload == "low";
  const int64_t low = has_low ? args.int_value(0) : 0, high = args.int_value(has_low ? 1 : 0);
  return {tensor::randint(low, high, meta.sizes, meta.dtype)};
}

}  // namespace kiln::ops
