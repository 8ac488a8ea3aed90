// tril and triu: a contiguous copy of the input with the elements above (tril) or below (triu)
// the diagonal'th diagonal of each trailing matrix zeroed.
#include <algorithm>
#include <cstring>

#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::ops {

namespace {

// Keeps the elements whose column minus row is at most `diagonal` (tril) or at least it (triu).
std::vector<Tensor> triangle(const Arguments& args, bool lower) {
  meta_tril_triu(args);
  const Tensor out = tensor::clone_contiguous(args.tensor(0));
  const int64_t diagonal = args.int_value(1);
  const int64_t rows = out.size(-2), cols = out.size(-1);
  const int64_t matrices = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
  const size_t item = out.itemsize();
  char* data = static_cast<char*>(out.data_ptr());
  for (int64_t m = 0; m < matrices; ++m)
    for (int64_t r = 0; r < rows; ++r) {
      char* row = data + static_cast<size_t>((m * rows + r) * cols) * item;
      // Zero the columns [begin, end) of this row.
      const int64_t begin = lower ? std::clamp<int64_t>(r + diagonal + 1, 0, cols) : 0;
      const int64_t end = lower ? cols : std::clamp<int64_t>(r + diagonal, 0, cols);
      if (begin < end) std::memset(row + begin * item, 0, static_cast<size_t>(end - begin) * item);
    }
  return {out};
}

}  // namespace

std::vector<Tensor> kernel_tril(const Arguments& args) { return triangle(args, /*lower=*/true); }

std::vector<Tensor> kernel_triu(const Arguments& args) { return triangle(args, /*lower=*/false); }

}  // namespace kiln::ops
