// Matrix products. float32 and float64 go to OpenBLAS (sgemm/dgemm, sdot/ddot), reading strided
// operands in place when one of their strides is 1; other dtypes use a plain loop with opmath
// accumulation. matmul and linear are composites that pick mm/addmm/bmm/dot as ATen does, so
// their grad_fn names match PyTorch's.
#include <cblas.h>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

using tensor::DType;

// How BLAS can read a strided matrix: transposed or not, with a leading dimension; the matrix
// itself, or a contiguous copy when neither stride is 1.
struct BlasMatrix {
  Tensor data;
  CBLAS_TRANSPOSE transpose;
  int64_t leading;
};

BlasMatrix blas_view(const Tensor& m) {
  const int64_t rows = m.sizes()[0], cols = m.sizes()[1];
  if (m.strides()[1] == 1 && m.strides()[0] >= std::max<int64_t>(1, cols)) return {m, CblasNoTrans, m.strides()[0]};
  if (m.strides()[0] == 1 && m.strides()[1] >= std::max<int64_t>(1, rows)) return {m, CblasTrans, m.strides()[1]};
  const Tensor copy = tensor::clone_contiguous(m);
  return {copy, CblasNoTrans, std::max<int64_t>(1, cols)};
}

// out (contiguous m x n) = alpha * a @ b + beta * out.
void gemm(const Tensor& a, const Tensor& b, const Tensor& out, const Scalar& alpha, const Scalar& beta) {
  const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  if (out.numel() == 0) return;
  const DType dtype = out.dtype();
  if ((dtype == DType::Float32 || dtype == DType::Float64) && k > 0) {
    const BlasMatrix A = blas_view(a), B = blas_view(b);
    const int ldc = static_cast<int>(std::max<int64_t>(1, n));
    if (dtype == DType::Float32)
      cblas_sgemm(CblasRowMajor, A.transpose, B.transpose, m, n, k, alpha.to<float>(), A.data.data_ptr<float>(),
                  A.leading, B.data.data_ptr<float>(), B.leading, beta.to<float>(), out.data_ptr<float>(), ldc);
    else
      cblas_dgemm(CblasRowMajor, A.transpose, B.transpose, m, n, k, alpha.to<double>(), A.data.data_ptr<double>(),
                  A.leading, B.data.data_ptr<double>(), B.leading, beta.to<double>(), out.data_ptr<double>(), ldc);
    return;
  }
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const C alpha_c = alpha.to<C>(), beta_c = beta.to<C>();
    const bool use_beta = beta_c != C(0);
    const char* pa = static_cast<const char*>(a.data_ptr());
    const char* pb = static_cast<const char*>(b.data_ptr());
    const int64_t sa0 = a.strides()[0] * sizeof(T), sa1 = a.strides()[1] * sizeof(T);
    const int64_t sb0 = b.strides()[0] * sizeof(T), sb1 = b.strides()[1] * sizeof(T);
    T* o = out.data_ptr<T>();
    std::vector<C> row(n);
    for (int64_t i = 0; i < m; ++i) {
      std::fill(row.begin(), row.end(), C(0));
      for (int64_t p = 0; p < k; ++p) {
        const C av = static_cast<C>(load<T>(pa + i * sa0 + p * sa1));
        for (int64_t j = 0; j < n; ++j) row[j] = static_cast<C>(row[j] + av * static_cast<C>(load<T>(pb + p * sb0 + j * sb1)));
      }
      for (int64_t j = 0; j < n; ++j) {
        const C previous = use_beta ? static_cast<C>(o[i * n + j]) : C(0);
        o[i * n + j] = static_cast<T>(alpha_c * row[j] + beta_c * previous);
      }
    }
  });
}

}  // namespace

std::vector<Tensor> kernel_mm(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_mm(args))[0];
  gemm(args.tensor(0), args.tensor(1), out, 1, 0);
  return {out};
}

std::vector<Tensor> kernel_addmm(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_addmm(args))[0];
  const Scalar beta = args.scalar(3), alpha = args.scalar(4);
  const bool beta_is_zero = beta.to<double>() == 0.0;
  // With beta == 0 self is ignored entirely, NaNs included, as BLAS does.
  if (beta_is_zero) tensor::fill_elements(out, 0);
  else tensor::copy_elements(out, args.tensor(0));
  gemm(args.tensor(1), args.tensor(2), out, alpha, beta_is_zero ? Scalar(0) : beta);
  return {out};
}

std::vector<Tensor> kernel_bmm(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_bmm(args))[0];
  const Tensor& self = args.tensor(0);
  const Tensor& mat2 = args.tensor(1);
  for (int64_t b = 0; b < self.sizes()[0]; ++b)
    gemm(tensor::select(self, 0, b), tensor::select(mat2, 0, b), tensor::select(out, 0, b), 1, 0);
  return {out};
}

std::vector<Tensor> kernel_dot(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_dot(args))[0];
  const Tensor& a = args.tensor(0);
  const Tensor& b = args.tensor(1);
  const int64_t n = a.numel();
  if (a.dtype() == DType::Float32) {
    *out.data_ptr<float>() = cblas_sdot(n, a.data_ptr<float>(), a.strides()[0], b.data_ptr<float>(), b.strides()[0]);
  } else if (a.dtype() == DType::Float64) {
    *out.data_ptr<double>() = cblas_ddot(n, a.data_ptr<double>(), a.strides()[0], b.data_ptr<double>(), b.strides()[0]);
  } else {
    tensor::visit_dtype(a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using C = opmath_t<T>;
      const T* x = a.data_ptr<T>();
      const T* y = b.data_ptr<T>();
      C total = C(0);
      for (int64_t i = 0; i < n; ++i)
        total = static_cast<C>(total + static_cast<C>(x[i * a.strides()[0]]) * static_cast<C>(y[i * b.strides()[0]]));
      *out.data_ptr<T>() = static_cast<T>(total);
    });
  }
  return {out};
}

std::vector<Tensor> kernel_matmul(const Arguments& args) {
  const Tensor& a = args.tensor(0);
  const Tensor& b = args.tensor(1);
  const int64_t da = a.dim(), db = b.dim();
  if (da == 0 || db == 0)
    tensor::throw_runtime_error("both arguments to matmul need to be at least 1D, but they are " + std::to_string(da) +
                                "D and " + std::to_string(db) + "D");
  if (da == 1 && db == 1) return {ops::dot(a, b)};
  if (da == 2 && db == 1) return {ops::squeeze(ops::mm(a, ops::unsqueeze(b, 1)), 1)};
  if (da == 1 && db == 2) return {ops::squeeze(ops::mm(ops::unsqueeze(a, 0), b), 0)};
  if (da == 2 && db == 2) return {ops::mm(a, b)};
  if (da >= 3 && (db == 1 || db == 2)) {
    // Fold the batch dims of a into its rows: one mm.
    Shape out_shape(a.sizes().begin(), a.sizes().end() - 1);
    if (db == 2) out_shape.push_back(b.sizes()[1]);
    const Tensor folded = ops::reshape(a, {-1, a.sizes().back()});
    const Tensor rhs = db == 1 ? ops::unsqueeze(b, 1) : b;
    return {ops::_unsafe_view(ops::mm(folded, rhs), out_shape)};
  }
  // Batched: broadcast the batch dims, flatten them, one bmm.
  const Tensor lhs = da == 1 ? ops::unsqueeze(a, 0) : a;
  const Tensor rhs = db == 1 ? ops::unsqueeze(b, 1) : b;
  const int64_t n = lhs.sizes()[lhs.dim() - 2], k = lhs.sizes().back();
  const int64_t k2 = rhs.sizes()[rhs.dim() - 2], m = rhs.sizes().back();
  const Shape batch_a(lhs.sizes().begin(), lhs.sizes().end() - 2), batch_b(rhs.sizes().begin(), rhs.sizes().end() - 2);
  const Shape batch = broadcast_sizes(batch_a, batch_b);
  const int64_t batch_numel = tensor::numel_of(batch);
  Shape lhs_expanded = batch, rhs_expanded = batch;
  lhs_expanded.insert(lhs_expanded.end(), {n, k});
  rhs_expanded.insert(rhs_expanded.end(), {k2, m});
  const Tensor lhs3 = ops::reshape(ops::expand(lhs, lhs_expanded), {batch_numel, n, k});
  const Tensor rhs3 = ops::reshape(ops::expand(rhs, rhs_expanded), {batch_numel, k2, m});
  Shape out_shape = batch;
  if (da > 1) out_shape.push_back(n);
  if (db > 1) out_shape.push_back(m);
  return {ops::_unsafe_view(ops::bmm(lhs3, rhs3), out_shape)};
}

std::vector<Tensor> kernel_linear(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const Tensor& weight = args.tensor(1);
  const Tensor bias = args.optional_tensor(2);
  if (input.dim() == 2 && bias.defined()) return {ops::addmm(bias, input, ops::t(weight))};
  if (input.dim() == 3 && bias.defined() && input.is_contiguous()) {
    // ATen's _flatten_nd_linear: one addmm over the flattened batch, viewed back.
    const Shape sizes = input.sizes();
    const Tensor flat = ops::addmm(bias, ops::view(input, {sizes[0] * sizes[1], sizes[2]}), ops::t(weight));
    return {ops::view(flat, {sizes[0], sizes[1], flat.sizes()[1]})};
  }
  const Tensor out = ops::matmul(input, ops::t(weight));
  return {bias.defined() ? ops::add(out, bias) : out};
}

}  // namespace kiln::ops
