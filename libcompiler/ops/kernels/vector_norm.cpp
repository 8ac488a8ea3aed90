// linalg_vector_norm: a composite of table ops (abs, then amax / amin / count / sum / squares /
// powers), so that autograd and a tracer record those; the 2-norm of contiguous float rows (the
// whole tensor, or its last dims; bfloat16 and float16 ones in float32) as one kernel when nothing
// needs the composition, as ATen's norm kernel reduces the last dim: lanes of squares added down
// the row (a 32-byte vector's, ATen's AVX2 one), the lanes added in order, the elements past the
// last whole vector after (bfloat16 in float without a copy; float16 on a float32 copy).
#include <algorithm>
#include <cmath>

#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/cascade_sum.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/ops/tensor_meta.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/memory_order.h"
#include "libcompiler/tensor/parallel.h"

namespace kiln::ops {

namespace {

// A row longer than this is summed in blocks of it, over the threads, and the blocks' sums added
// in order (a fixed block, so that the result does not depend on the thread count).
constexpr int64_t kBlock = 1 << 16;

template <typename T>
KILN_INLINE_INTO_CLONES T sum_of_squares(const T* x, int64_t n) {
  constexpr int64_t kLanes = 32 / sizeof(T);
  T lanes[kLanes] = {};
  int64_t d = 0;
  for (; d + kLanes <= n; d += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) lanes[l] = lanes[l] + x[d + l] * x[d + l];
  T sum = lanes[0];
  for (int64_t l = 1; l < kLanes; ++l) sum = sum + lanes[l];
  for (; d < n; ++d) sum = sum + x[d] * x[d];
  return sum;
}

KILN_VECTOR_CLONES float squares_of(const float* x, int64_t n) { return sum_of_squares(x, n); }
KILN_VECTOR_CLONES double squares_of(const double* x, int64_t n) { return sum_of_squares(x, n); }

// bfloat16 in float as ATen's kernel for it: 32 bytes (two float vectors) at a time, the first
// half's squares added to the lanes, then the second's. Widened by shifts into the even and the
// odd elements (cascade_sum.h), which leaves ATen's lanes permuted (cascade::row_lane), each
// lane's additions unchanged.
KILN_VECTOR_CLONES float squares_of(const tensor::BFloat16* x, int64_t n) {
  using Vector = cascade::Lanes<float>::Vector;
  constexpr int64_t kStep = cascade::kRowLoad<tensor::BFloat16>;
  Vector lanes{};
  int64_t d = 0;
  for (; d + kStep <= n; d += kStep) {
    const cascade::EvenOdd w = cascade::widen_even_odd(x + d);
    const Vector first = __builtin_shufflevector(w.even, w.odd, 0, 1, 2, 3, 8, 9, 10, 11);
    const Vector second = __builtin_shufflevector(w.even, w.odd, 4, 5, 6, 7, 12, 13, 14, 15);
    lanes = lanes + first * first;
    lanes = lanes + second * second;
  }
  float sum = lanes[cascade::row_lane<tensor::BFloat16>(0)];
  for (int64_t l = 1; l < cascade::Lanes<float>::kCount; ++l) sum = sum + lanes[cascade::row_lane<tensor::BFloat16>(l)];
  for (; d < n; ++d) {
    const float v = static_cast<float>(x[d]);
    sum = sum + v * v;
  }
  return sum;
}

template <typename T>
void two_norm_rows(const T* in, int64_t rows, int64_t inner, T* out) {
  using A = opmath_t<T>;
  if (rows == 1 && inner > kBlock) {
    const int64_t blocks = (inner + kBlock - 1) / kBlock;
    std::vector<A> sums(static_cast<size_t>(blocks));
    tensor::parallel_for(0, blocks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) sums[b] = squares_of(in + b * kBlock, std::min(kBlock, inner - b * kBlock));
    });
    A sum = 0;
    for (A s : sums) sum = sum + s;
    out[0] = static_cast<T>(std::sqrt(sum));
    return;
  }
  tensor::parallel_for(0, rows, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(inner, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) out[r] = static_cast<T>(std::sqrt(squares_of(in + r * inner, inner)));
  });
}

// The 2-norm as one kernel, or an undefined tensor where the composition must run: autograd or a
// tracer is watching, the input is not a float32/float64/bfloat16 CPU tensor, or the reduced dims
// are not the last ones of a contiguous tensor. A norm of every element reads any dense tensor in
// memory order, as TensorIterator coalesces it (a transposed matrix's norm).
Tensor two_norm_kernel(const Tensor& self, const std::vector<bool>& reduced, bool keepdim) {
  if (is_recording_calls() || self.device().type != tensor::DeviceType::CPU || self.numel() == 0) return Tensor();
  if (GradMode::is_enabled() && self.requires_grad()) return Tensor();
  if (self.dtype() == tensor::DType::Float16) {
    // In float32, ATen's accumulate type, on a float32 copy (_to_copy keeps a dense layout),
    // rounded once at the end. (bfloat16 has ATen's own kernel, below.)
    const Tensor wide = two_norm_kernel(ops::to_copy(self, tensor::DType::Float32), reduced, keepdim);
    return wide.defined() ? tensor::to_dtype(wide, self.dtype()) : Tensor();
  }
  const bool every_dim = std::find(reduced.begin(), reduced.end(), false) == reduced.end();
  if (!self.is_contiguous() && !(every_dim && tensor::dense_memory_order(self))) return Tensor();
  if (self.dtype() != tensor::DType::Float32 && self.dtype() != tensor::DType::Float64 && self.dtype() != tensor::DType::BFloat16)
    return Tensor();
  int64_t inner = 1;
  std::vector<int64_t> sizes;
  bool in_suffix = true;
  for (int64_t d = self.dim() - 1; d >= 0; --d) {
    if (reduced[d] && !in_suffix) return Tensor();
    in_suffix = in_suffix && reduced[d];
    if (reduced[d]) inner *= self.sizes()[d];
  }
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!reduced[d] || keepdim) sizes.push_back(reduced[d] ? 1 : self.sizes()[d]);
  Tensor out = Tensor::empty(sizes, self.dtype());
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, tensor::BFloat16>)
      two_norm_rows(self.data_ptr<T>(), self.numel() / inner, inner, out.data_ptr<T>());
  });
  return out;
}

}  // namespace

// linalg_vector_norm(self, ord, dim, keepdim, dtype).
std::vector<Tensor> kernel_linalg_vector_norm(const Arguments& args) {
  Tensor x = args.tensor(0);
  if (const std::optional<tensor::DType> dtype = args.optional_dtype(4)) x = ops::to_copy(x, *dtype);
  if (!tensor::is_floating_point(x.dtype()))
    tensor::throw_runtime_error(std::string("linalg.vector_norm: Expected a floating point or complex tensor as input. Got ") +
                                std::string(tensor::scalar_type_name(x.dtype())));
  const double ord = args.scalar(1).to<double>();
  const std::vector<int64_t> dims = args.optional_int_list(2).value_or(std::vector<int64_t>{});
  const bool keepdim = args.bool_value(3);
  if (ord == 2)
    if (Tensor out = two_norm_kernel(x, reduction_mask(dims, x.dim()), keepdim); out.defined()) return {out};
  const Tensor magnitude = ops::abs(x);
  if (ord == INFINITY) return {ops::amax(magnitude, dims, keepdim)};
  if (ord == -INFINITY) return {ops::amin(magnitude, dims, keepdim)};
  if (ord == 0) return {ops::sum(ops::to_copy(ops::ne(magnitude, Scalar(0)), x.dtype()), dims, keepdim)};
  if (ord == 1) return {ops::sum(magnitude, dims, keepdim)};
  if (ord == 2) return {ops::sqrt(ops::sum(ops::mul(magnitude, magnitude), dims, keepdim))};
  return {ops::pow(ops::sum(ops::pow(magnitude, Scalar(ord)), dims, keepdim), Scalar(1.0 / ord))};
}

}  // namespace kiln::ops
