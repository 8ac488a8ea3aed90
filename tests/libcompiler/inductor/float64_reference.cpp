#include "tests/libcompiler/inductor/float64_reference.h"

#include <algorithm>
#include <cmath>

#include "libcompiler/tensor/copy.h"

namespace kiln::test {

ir::InterpreterOptions float64_reference() {
  ir::InterpreterOptions options;
  options.float64 = true;
  return options;
}

double relative_error(const tensor::Tensor& compiled, const tensor::Tensor& reference) {
  double worst = 0, scale = 1e-12;
  const tensor::Tensor c = tensor::clone_contiguous(compiled), r = tensor::clone_contiguous(reference);
  for (int64_t i = 0; i < r.numel(); ++i) {
    worst = std::max(worst, std::abs(static_cast<double>(c.data_ptr<float>()[i]) - r.data_ptr<double>()[i]));
    scale = std::max(scale, std::abs(r.data_ptr<double>()[i]));
  }
  return worst / scale;
}

}  // namespace kiln::test
