#include "libcompiler/cuda/cublas.h"

#include <map>
#include <mutex>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/dynamic_library.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

// cuBLAS's C API as its documentation states it (its headers come with the toolkit, not with the
// packages the build uses): opaque handles, int status and operation codes.
using CublasHandle = struct CublasContext*;
using CublasStatus = int;
constexpr int kOpN = 0, kOpT = 1;
using CreateFunction = CublasStatus (*)(CublasHandle*);
template <typename T>
using StridedBatchedFunction = CublasStatus (*)(CublasHandle, int, int, int, int, int, const T*, const T*, int, long long, const T*, int,
                                                long long, const T*, T*, int, long long, int);

struct LoadedCublas {
  LoadedCublas() : library({"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    if (!library.loaded()) return;
    create = reinterpret_cast<CreateFunction>(library.symbol("cublasCreate_v2"));
    sgemm = reinterpret_cast<StridedBatchedFunction<float>>(library.symbol("cublasSgemmStridedBatched"));
    dgemm = reinterpret_cast<StridedBatchedFunction<double>>(library.symbol("cublasDgemmStridedBatched"));
  }
  DynamicLibrary library;
  CreateFunction create = nullptr;
  StridedBatchedFunction<float> sgemm = nullptr;
  StridedBatchedFunction<double> dgemm = nullptr;
};

LoadedCublas& cublas() {
  static LoadedCublas instance;
  if (!instance.create || !instance.sgemm || !instance.dgemm)
    tensor::throw_runtime_error("cuBLAS could not be loaded: " + instance.library.why());
  return instance;
}

CublasHandle handle_for(int device) {
  static std::mutex mutex;
  static std::map<int, CublasHandle> handles;
  std::lock_guard lock(mutex);
  CublasHandle& handle = handles[device];
  if (!handle && cublas().create(&handle) != 0) tensor::throw_runtime_error("cublasCreate failed");
  return handle;
}

// How cuBLAS (column-major) reads a row-major-strided matrix operand [batch,] rows x cols: op N
// with the row stride as leading dimension, or op T for a transposed one; anything else is
// copied contiguous first.
struct Operand {
  tensor::Tensor t;
  int op = kOpN;
  int64_t ld = 0;
  int64_t batch_stride = 0;
};

Operand operand(const tensor::Tensor& t) {
  const int64_t d = t.dim();
  const int64_t rows = t.size(d - 2), cols = t.size(d - 1);
  const int64_t batch_stride = d == 3 ? t.stride(0) : 0;
  if (t.stride(d - 1) == 1 && t.stride(d - 2) >= std::max<int64_t>(cols, 1)) return {t, kOpN, t.stride(d - 2), batch_stride};
  if (t.stride(d - 2) == 1 && t.stride(d - 1) >= std::max<int64_t>(rows, 1)) return {t, kOpT, t.stride(d - 1), batch_stride};
  tensor::Tensor contiguous = tensor::Tensor::empty(t.sizes(), t.dtype(), t.device());
  tensor::copy_elements(contiguous, t);
  return operand(contiguous);
}

}  // namespace

void gemm(const tensor::Tensor& out, const tensor::Tensor& a, const tensor::Tensor& b, double alpha, double beta) {
  const int device = device_index(out.device());
  make_current(device);
  const bool batched = out.dim() == 3;
  const int64_t m = out.size(-2), n = out.size(-1), k = a.size(-1);
  const int64_t batches = batched ? out.size(0) : 1;
  if (out.numel() == 0) return;
  const Operand A = operand(a), B = operand(b);
  // Row-major C = A B is column-major C^T = B^T A^T: B comes first.
  const int64_t ldc = n, stride_c = m * n;
  CublasHandle handle = handle_for(device);
  CublasStatus status = 0;
  if (out.dtype() == tensor::DType::Float32) {
    const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
    status = cublas().sgemm(handle, B.op, A.op, int(n), int(m), int(k), &fa, static_cast<const float*>(B.t.data_ptr()), int(B.ld),
                            B.batch_stride, static_cast<const float*>(A.t.data_ptr()), int(A.ld), A.batch_stride, &fb,
                            static_cast<float*>(out.data_ptr()), int(ldc), stride_c, int(batches));
  } else if (out.dtype() == tensor::DType::Float64) {
    status = cublas().dgemm(handle, B.op, A.op, int(n), int(m), int(k), &alpha, static_cast<const double*>(B.t.data_ptr()), int(B.ld),
                            B.batch_stride, static_cast<const double*>(A.t.data_ptr()), int(A.ld), A.batch_stride, &beta,
                            static_cast<double*>(out.data_ptr()), int(ldc), stride_c, int(batches));
  } else {
    tensor::throw_runtime_error("kiln's CUDA matrix products take float32 and float64, not " +
                                std::string(tensor::scalar_type_name(out.dtype())));
  }
  if (status != 0) tensor::throw_runtime_error("cuBLAS error " + std::to_string(status) + " in a matrix product");
}

}  // namespace kiln::cuda
