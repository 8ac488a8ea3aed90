// Matrix products. float32 and float64 go to OpenBLAS (sgemm/dgemm, sdot/ddot), float32 ones of
// some size to oneDNN (its matmul, or its sgemm), reading strided operands in place when one of
// their strides is 1; bfloat16 products of some size to oneDNN's bfloat16 matmul, as PyTorch's;
// smaller bfloat16 and all float16 matrices through sgemm on float32 copies; other dtypes use a
// plain loop with opmath accumulation. matmul and linear are composites that pick
// mm/addmm/bmm/dot as ATen does, so their grad_fn names match PyTorch's.
#include <algorithm>
#include <cblas.h>

#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/onednn.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
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

// Row-major, or row-major with its last two dims swapped.
bool row_or_column_major(const Tensor& m) {
  const Tensor swapped = tensor::transpose(m, -2, -1);
  return m.is_contiguous() || tensor::is_contiguous_layout(swapped.sizes(), swapped.strides());
}

// The matrix (or batch) m's sizes and dtype, laid out row-major.
dnnl::memory::desc row_major_desc(const Tensor& m) {
  const Shape strides = tensor::contiguous_strides(m.sizes());
  return dnnl::memory::desc(dnnl::memory::dims(m.sizes().begin(), m.sizes().end()), onednn::data_type(m.dtype()),
                            dnnl::memory::dims(strides.begin(), strides.end()));
}

// A matrix (or a batch of them) as oneDNN's matmul reads it: row-major or with its last two dims
// swapped, in place; with `strided`, also any layout whose rows or columns are runs of elements
// (a leading dimension past the matrix's edge: a slice of a transposed matrix, as PyTorch hands
// it over); any other layout as a contiguous copy.
struct OnednnMatrix {
  Tensor data;
  dnnl::memory::desc desc;
};

OnednnMatrix onednn_matrix(const Tensor& m, bool strided = false) {
  const auto type = onednn::data_type(m.dtype());
  const Shape& sizes = m.sizes();
  const Shape& given = m.strides();
  const int64_t rows = sizes.end()[-2], columns = sizes.back();
  const int64_t row_stride = given.end()[-2], column_stride = given.back();
  if (strided && !m.is_contiguous() && rows > 1 && columns > 1 &&
      ((column_stride == 1 && row_stride >= columns) || (row_stride == 1 && column_stride >= rows)) &&
      std::all_of(given.begin(), given.end(), [](int64_t stride) { return stride > 0; }))
    return {m, dnnl::memory::desc(dnnl::memory::dims(sizes.begin(), sizes.end()), type,
                                  dnnl::memory::dims(given.begin(), given.end()))};
  if (!m.is_contiguous() && row_or_column_major(m)) {
    Shape swapped = sizes;
    std::swap(swapped.end()[-1], swapped.end()[-2]);
    Shape strides = tensor::contiguous_strides(swapped);
    std::swap(strides.end()[-1], strides.end()[-2]);
    return {m, dnnl::memory::desc(dnnl::memory::dims(sizes.begin(), sizes.end()), type,
                                  dnnl::memory::dims(strides.begin(), strides.end()))};
  }
  return {m.is_contiguous() ? m : tensor::clone_contiguous(m), row_major_desc(m)};
}

// PyTorch (mkldnn_bf16_gemm, mkldnn_matmul) hands a bfloat16 product to oneDNN on a CPU with
// AVX-512 when it has more than 16 * 16 * 16 multiply-adds per call (and bmm at least 400 per
// matrix); smaller ones run its own float32-accumulating loops. float32 products of matrices in
// plain layouts go to oneDNN's float32 matmul too (its brgemm kernels): a batch from a million
// multiply-adds (one call took 15-25% less than a loop of sgemm calls on 16 x 128x128x64), a
// single matrix from 16 million (its setup, about 6 us a call, is then under 3%; 512x512 with
// both operands transposed 1.67-1.75 -> 1.53-1.58 ms against OpenBLAS), with the first operand in
// any layout (see onednn_gemm). Others go to gemm.
bool onednn_computes(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  const int64_t batch = a.dim() == 3 ? a.sizes()[0] : 1;
  const int64_t m = a.sizes().end()[-2], k = a.sizes().back(), n = b.sizes().back();
  if (alpha.to<double>() == 0.0) return false;
  if (a.dtype() == DType::Float32)
    return batch * m * k * n >= (int64_t{1} << (a.dim() == 3 ? 20 : 24)) && m > 1 && n > 1 && row_or_column_major(b);
  return a.dtype() == DType::BFloat16 && batch * m * k * n > 16 * 16 * 16 && (a.dim() == 2 || m * k * n >= 400);
}

// out (contiguous [batch x] m x n) = alpha * a @ b + beta * out, by oneDNN's matmul: for bfloat16,
// float32 sums of the bfloat16 products (the CPU's bfloat16 dot products) rounded once.
void onednn_gemm(const Tensor& a, const Tensor& b, const Tensor& out, const Scalar& alpha, const Scalar& beta) {
  dnnl::primitive_attr attr = onednn::attributes();
  if (alpha.to<float>() != 1.0f) attr.set_output_scales(0, {alpha.to<float>()});
  if (beta.to<double>() != 0.0) {
    dnnl::post_ops sum;
    sum.append_sum(beta.to<float>());
    attr.set_post_ops(sum);
  }
  // Strided operands as they are where oneDNN has a kernel for their layout (copying a slice of a
  // transposed matrix with tensor::clone_contiguous took twice as long as the product);
  // contiguous copies where it has none. The first operand, when neither row- nor column-major
  // (a slice of a transposed matrix, as linear gets it), is asked for row-major, so that
  // onednn::execute reorders it by oneDNN's JIT reorder and the matmul runs its brgemm kernels:
  // oneDNN 2.6 reads that layout in place only by its jit gemm. On 256x1024 @ 1024x1024, float32
  // 3.9-4.1 -> 3.6-3.8 ms (against OpenBLAS's; a column-major copy took 3.9-4.0), bfloat16
  // 1.16-1.22 -> 0.72-0.75 ms.
  OnednnMatrix A = onednn_matrix(a, true), B = onednn_matrix(b, true);
  const OnednnMatrix C = onednn_matrix(out);
  const dnnl::memory::desc a_wanted = row_or_column_major(A.data) ? A.desc : row_major_desc(A.data);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_wanted, B.desc, C.desc), attr, onednn::cpu_engine());
  } catch (const dnnl::error&) {
    A = onednn_matrix(a);
    B = onednn_matrix(b);
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(A.desc, B.desc, C.desc), attr, onednn::cpu_engine());
  }
  onednn::execute(dnnl::matmul(pd), pd,
                  {{DNNL_ARG_SRC, onednn::memory_of(A.desc, A.data)}, {DNNL_ARG_WEIGHTS, onednn::memory_of(B.desc, B.data)}},
                  {{DNNL_ARG_DST, onednn::memory_of(C.desc, C.data)}});
}

// Where oneDNN's float32 GEMM beats OpenBLAS's on this machine's AVX-512 (measured one thread,
// both libraries as Debian ships them): from about a million multiply-adds on (10-25% faster on
// 512x512 and 16 x 128x128x64, 2-3x on matrix-vector shapes; below that its setup costs more),
// unless both operands are transposed (then its packing measured up to 30% slower on 256x1024x1024).
bool onednn_sgemm_is_faster(int64_t m, int64_t n, int64_t k, CBLAS_TRANSPOSE a, CBLAS_TRANSPOSE b) {
  return m * n * k >= (int64_t{1} << 20) && !(a == CblasTrans && b == CblasTrans);
}

// out (contiguous m x n) = alpha * a @ b + beta * out.
void gemm(const Tensor& a, const Tensor& b, const Tensor& out, const Scalar& alpha, const Scalar& beta) {
  const int64_t m = a.sizes()[0], k = a.sizes()[1], n = b.sizes()[1];
  if (out.numel() == 0) return;
  const DType dtype = out.dtype();
  if ((dtype == DType::Float32 || dtype == DType::Float64) && k > 0) {
    const BlasMatrix A = blas_view(a), B = blas_view(b);
    const int ldc = static_cast<int>(std::max<int64_t>(1, n));
    if (dtype == DType::Float32 && onednn_sgemm_is_faster(m, n, k, A.transpose, B.transpose))
      onednn::sgemm(A.transpose == CblasTrans, B.transpose == CblasTrans, m, n, k, alpha.to<float>(),
                    A.data.data_ptr<float>(), A.leading, B.data.data_ptr<float>(), B.leading, beta.to<float>(),
                    out.data_ptr<float>(), ldc);
    else if (dtype == DType::Float32)
      cblas_sgemm(CblasRowMajor, A.transpose, B.transpose, m, n, k, alpha.to<float>(), A.data.data_ptr<float>(),
                  A.leading, B.data.data_ptr<float>(), B.leading, beta.to<float>(), out.data_ptr<float>(), ldc);
    else
      cblas_dgemm(CblasRowMajor, A.transpose, B.transpose, m, n, k, alpha.to<double>(), A.data.data_ptr<double>(),
                  A.leading, B.data.data_ptr<double>(), B.leading, beta.to<double>(), out.data_ptr<double>(), ldc);
    return;
  }
  if (tensor::is_reduced_floating_point(dtype) && k > 0) {
    // As PyTorch's CPU gemm for these: the products summed in float32 and rounded once at the
    // end; so sgemm on float32 copies (exact: every bfloat16 and float16 is a float32). _to_copy
    // keeps a transposed operand's layout (converted in memory order, and sgemm reads it
    // transposed); the table op runs inside this kernel, whose op records its own autograd.
    NoGradGuard no_grad;
    const bool use_beta = beta.to<double>() != 0.0;
    const Tensor wide = use_beta ? tensor::to_dtype(out, DType::Float32) : Tensor::empty(out.sizes(), DType::Float32);
    gemm(ops::to_copy(a, DType::Float32), ops::to_copy(b, DType::Float32), wide, alpha, use_beta ? beta : Scalar(0));
    tensor::copy_elements(out, wide);
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
  if (onednn_computes(args.tensor(0), args.tensor(1), 1)) onednn_gemm(args.tensor(0), args.tensor(1), out, 1, 0);
  else gemm(args.tensor(0), args.tensor(1), out, 1, 0);
  return {out};
}

std::vector<Tensor> kernel_mv(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_mv(args))[0];
  const Tensor& vec = args.tensor(1);
  if (args.tensor(0).numel() == 0 || vec.numel() == 0) {
    tensor::fill_elements(out, 0);  // nothing to multiply; the dtypes may differ
    return {out};
  }
  // The vector as an n x 1 matrix and the result as an m x 1 one: same memory, one gemm.
  const Tensor vec_column = Tensor::make_view(vec, {vec.sizes()[0], 1}, {vec.strides()[0], 1}, vec.storage_offset());
  const Tensor out_column = Tensor::make_view(out, {out.sizes()[0], 1}, {1, 1}, 0);
  gemm(args.tensor(0), vec_column, out_column, 1, 0);
  return {out};
}

std::vector<Tensor> kernel_addmm(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_addmm(args))[0];
  const Scalar beta = args.scalar(3), alpha = args.scalar(4);
  const bool beta_is_zero = beta.to<double>() == 0.0;
  // With beta == 0 self is ignored entirely, NaNs included, as BLAS does.
  if (beta_is_zero) tensor::fill_elements(out, 0);
  else tensor::copy_elements(out, args.tensor(0));
  if (onednn_computes(args.tensor(1), args.tensor(2), alpha) && out.numel() > 0)
    onednn_gemm(args.tensor(1), args.tensor(2), out, alpha, beta_is_zero ? Scalar(0) : beta);
  else gemm(args.tensor(1), args.tensor(2), out, alpha, beta_is_zero ? Scalar(0) : beta);
  return {out};
}

std::vector<Tensor> kernel_bmm(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_bmm(args))[0];
  const Tensor& self = args.tensor(0);
  const Tensor& mat2 = args.tensor(1);
  if (self.numel() == 0 || mat2.numel() == 0) {
    tensor::fill_elements(out, 0);  // nothing to multiply; the dtypes may differ
    return {out};
  }
  if (onednn_computes(self, mat2, 1)) {
    onednn_gemm(self, mat2, out, 1, 0);
    return {out};
  }
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

namespace {

// ATen's should_fold: whether the larger operand's batch dims can be folded into its rows, so that
// one mm/mv does the work (always when the smaller operand requires grad, to keep its gradient small).
bool should_fold(const Tensor& tensor1, const Tensor& tensor2) {
  const bool tensor1_larger = tensor1.dim() >= tensor2.dim();
  const Tensor& larger = tensor1_larger ? tensor1 : tensor2;
  const Tensor& smaller = tensor1_larger ? tensor2 : tensor1;
  if (!(larger.dim() >= 3 && smaller.dim() <= 2)) return false;
  if (smaller.requires_grad()) return true;
  if (tensor1.dim() == 2) return false;
  if (larger.numel() == 0) return true;
  // Folding must not copy: the larger operand is row-major (size-1 dims aside).
  const Tensor t1 = tensor1_larger ? tensor1 : tensor::transpose(tensor2, -2, -1);
  int64_t expected = 1;
  for (int64_t d = t1.dim() - 1; d >= 0; --d) {
    if (t1.sizes()[d] != 1 && t1.strides()[d] != expected) return false;
    expected *= t1.sizes()[d];
  }
  return true;
}

}  // namespace

// ATen's _matmul_impl step for step (torch/_decomp's matmul mirrors it), so that grad_fn chains
// name the same ops as PyTorch: dot, mv, squeeze_(mm), mm, folded mm/mv, or broadcast bmm.
std::vector<Tensor> kernel_matmul(const Arguments& args) {
  const Tensor& tensor1 = args.tensor(0);
  const Tensor& tensor2 = args.tensor(1);
  const int64_t dim1 = tensor1.dim(), dim2 = tensor2.dim();
  if (dim1 == 0 || dim2 == 0)
    tensor::throw_runtime_error("both arguments to matmul need to be at least 1D, but they are " + std::to_string(dim1) +
                                "D and " + std::to_string(dim2) + "D");
  if (dim1 == 1 && dim2 == 1) return {ops::dot(tensor1, tensor2)};
  if (dim1 == 2 && dim2 == 1) return {ops::mv(tensor1, tensor2)};
  if (dim1 == 1 && dim2 == 2) {
    const Tensor out = ops::mm(ops::unsqueeze(tensor1, 0), tensor2);
    return {ops::squeeze_(out, 0)};
  }
  if (dim1 == 2 && dim2 == 2) return {ops::mm(tensor1, tensor2)};
  if (should_fold(tensor1, tensor2)) {
    const bool transpose = dim2 > dim1;
    const Tensor t1 = transpose ? ops::transpose(tensor2, -2, -1) : tensor1;
    const Tensor t2 = !transpose ? tensor2 : dim1 == 2 ? ops::t(tensor1) : tensor1;
    Shape output_shape(t1.sizes().begin(), t1.sizes().end() - 1);
    const int64_t folded_rows = tensor::numel_of(output_shape);
    const Tensor t1_folded = ops::reshape(t1, {folded_rows, t1.sizes().back()});
    if (t2.dim() == 1) return {ops::_unsafe_view(ops::mv(t1_folded, t2), output_shape)};
    output_shape.push_back(t2.sizes()[1]);
    const Tensor output = ops::_unsafe_view(ops::mm(t1_folded, t2), output_shape);
    return {transpose ? ops::contiguous(ops::transpose(output, -2, -1)) : output};
  }
  const int64_t n = dim1 > 1 ? tensor1.sizes()[dim1 - 2] : 1;
  const int64_t m1 = tensor1.sizes().back();
  const Shape batch1(tensor1.sizes().begin(), tensor1.sizes().end() - std::min<int64_t>(dim1, 2));
  const int64_t m2 = dim2 > 1 ? tensor2.sizes()[dim2 - 2] : tensor2.sizes().back();
  const int64_t p = dim2 > 1 ? tensor2.sizes().back() : 1;
  const Shape batch2(tensor2.sizes().begin(), tensor2.sizes().end() - std::min<int64_t>(dim2, 2));
  // A size-1 batch of an operand that requires grad is squeezed rather than broadcast, so that
  // its gradient does not go through a large expanded sum.
  if (dim1 == 3 && dim2 == 3 && batch1[0] != batch2[0]) {
    if (batch1[0] == 1 && tensor1.requires_grad()) return {ops::matmul(ops::squeeze(tensor1, 0), tensor2)};
    if (batch2[0] == 1 && tensor2.requires_grad()) return {ops::matmul(tensor1, ops::squeeze(tensor2, 0))};
  }
  const Shape batch = broadcast_sizes(batch1, batch2);
  const int64_t batch_numel = tensor::numel_of(batch);
  Shape expand1 = batch;
  expand1.insert(expand1.end(), {n, m1});
  const Tensor tensor1_expanded = ops::reshape(ops::expand(tensor1, expand1), {batch_numel, n, m1});
  Shape expand2 = batch;
  Tensor tensor2_expanded;
  if (dim2 == 1) {
    expand2.push_back(m2);
    tensor2_expanded = ops::unsqueeze(ops::reshape(ops::expand(tensor2, expand2), {batch_numel, m2}), 2);
  } else {
    expand2.insert(expand2.end(), {m2, p});
    tensor2_expanded = ops::reshape(ops::expand(tensor2, expand2), {batch_numel, m2, p});
  }
  Shape output_shape = batch;
  if (dim1 > 1) output_shape.push_back(n);
  if (dim2 > 1) output_shape.push_back(p);
  const Tensor product = ops::bmm(tensor1_expanded, tensor2_expanded);
  return {ops::_unsafe_view(dim2 == 1 ? ops::squeeze(product, -1) : product, output_shape)};
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
