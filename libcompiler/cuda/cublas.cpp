#include "libcompiler/cuda/cublas.h"

#include <map>
#include <mutex>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/driver_api.h"
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

// cublasGemmStridedBatchedEx: operands of a stated data type (half and bfloat16 here), products
// accumulated in a stated compute type.
using StridedBatchedExFunction = CublasStatus (*)(CublasHandle, int, int, int, int, int, const void*, const void*, int, int, long long,
                                                  const void*, int, int, long long, const void*, void*, int, int, long long, int, int,
                                                  int);
constexpr int kDataHalf = 2, kDataBFloat16 = 14;  // CUDA_R_16F, CUDA_R_16BF
constexpr int kGemmDefault = -1;                  // CUBLAS_GEMM_DEFAULT

struct LoadedCublas {
  LoadedCublas() : library({"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    if (!library.loaded()) return;
    create = reinterpret_cast<CreateFunction>(library.symbol("cublasCreate_v2"));
    sgemm = reinterpret_cast<StridedBatchedFunction<float>>(library.symbol("cublasSgemmStridedBatched"));
    dgemm = reinterpret_cast<StridedBatchedFunction<double>>(library.symbol("cublasDgemmStridedBatched"));
    gemm_ex = reinterpret_cast<StridedBatchedExFunction>(library.symbol("cublasGemmStridedBatchedEx"));
  }
  DynamicLibrary library;
  CreateFunction create = nullptr;
  StridedBatchedFunction<float> sgemm = nullptr;
  StridedBatchedFunction<double> dgemm = nullptr;
  StridedBatchedExFunction gemm_ex = nullptr;
};

// cuBLASLt's C API, as cuBLAS's above: the matmul descriptors, layouts, preferences and
// heuristic results as its documentation lays them out.
using LtHandle = struct CublasLtContext*;
using LtMatmulDesc = struct CublasLtMatmulDescOpaque*;
using LtLayout = struct CublasLtMatrixLayoutOpaque*;
using LtPreference = struct CublasLtMatmulPreferenceOpaque*;
struct LtAlgo {
  uint64_t data[8];
};
struct LtHeuristicResult {
  LtAlgo algo;
  size_t workspace_size;
  CublasStatus state;
  float waves_count;
  int reserved[4];
};
constexpr int kComputeFloat32 = 68;  // CUBLAS_COMPUTE_32F
constexpr int kDataFloat32 = 0;      // CUDA_R_32F
constexpr int kDescTransA = 3, kDescTransB = 4, kDescEpilogue = 7, kDescBiasPointer = 8;
constexpr uint32_t kEpilogueBias = 4;
constexpr int kPreferenceMaxWorkspaceBytes = 1;
// PyTorch's cuBLAS(Lt) workspace on Hopper.
constexpr size_t kLtWorkspaceBytes = size_t{32} << 20;

struct LoadedCublasLt {
  LoadedCublasLt() : library({"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"}) {
    if (!library.loaded()) return;
    bind(create, "cublasLtCreate");
    bind(desc_create, "cublasLtMatmulDescCreate");
    bind(desc_destroy, "cublasLtMatmulDescDestroy");
    bind(desc_set, "cublasLtMatmulDescSetAttribute");
    bind(layout_create, "cublasLtMatrixLayoutCreate");
    bind(layout_destroy, "cublasLtMatrixLayoutDestroy");
    bind(preference_create, "cublasLtMatmulPreferenceCreate");
    bind(preference_destroy, "cublasLtMatmulPreferenceDestroy");
    bind(preference_set, "cublasLtMatmulPreferenceSetAttribute");
    bind(heuristic, "cublasLtMatmulAlgoGetHeuristic");
    bind(matmul, "cublasLtMatmul");
  }
  template <typename F>
  void bind(F& function, const char* name) {
    function = reinterpret_cast<F>(library.symbol(name));
    complete = complete && function;
  }
  DynamicLibrary library;
  bool complete = true;
  CublasStatus (*create)(LtHandle*) = nullptr;
  CublasStatus (*desc_create)(LtMatmulDesc*, int, int) = nullptr;
  CublasStatus (*desc_destroy)(LtMatmulDesc) = nullptr;
  CublasStatus (*desc_set)(LtMatmulDesc, int, const void*, size_t) = nullptr;
  CublasStatus (*layout_create)(LtLayout*, int, uint64_t, uint64_t, int64_t) = nullptr;
  CublasStatus (*layout_destroy)(LtLayout) = nullptr;
  CublasStatus (*preference_create)(LtPreference*) = nullptr;
  CublasStatus (*preference_destroy)(LtPreference) = nullptr;
  CublasStatus (*preference_set)(LtPreference, int, const void*, size_t) = nullptr;
  CublasStatus (*heuristic)(LtHandle, LtMatmulDesc, LtLayout, LtLayout, LtLayout, LtLayout, LtPreference, int, LtHeuristicResult*,
                            int*) = nullptr;
  CublasStatus (*matmul)(LtHandle, LtMatmulDesc, const void*, const void*, LtLayout, const void*, LtLayout, const void*, const void*,
                         LtLayout, void*, LtLayout, const LtAlgo*, void*, size_t, void*) = nullptr;
};

// Null where libcublasLt does not load: callers take the cuBLAS path then.
LoadedCublasLt* cublas_lt() {
  static LoadedCublasLt instance;
  return instance.library.loaded() && instance.complete ? &instance : nullptr;
}

// A device's cuBLASLt handle and workspace, made on first use and kept for the process. The
// workspace comes from the driver, outside the caching allocator and its counters, as the
// workspace cuBLAS makes for itself in gemm() does.
struct LtDeviceState {
  LtHandle handle = nullptr;
  void* workspace = nullptr;
};

LtDeviceState lt_state_for(LoadedCublasLt& lt, int device) {
  static std::mutex mutex;
  static std::map<int, LtDeviceState> states;
  std::lock_guard lock(mutex);
  LtDeviceState& state = states[device];
  if (!state.handle) {
    if (lt.create(&state.handle) != 0) tensor::throw_runtime_error("cublasLtCreate failed");
    CUdeviceptr pointer = 0;
    check(driver().cuMemAlloc(&pointer, kLtWorkspaceBytes), "cuMemAlloc");
    state.workspace = reinterpret_cast<void*>(pointer);
  }
  return state;
}

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

// Destroys what cuBLASLt made for one call, however the call ends.
struct LtCall {
  LoadedCublasLt& lt;
  LtMatmulDesc desc = nullptr;
  LtLayout a = nullptr, b = nullptr, d = nullptr;
  LtPreference preference = nullptr;
  ~LtCall() {
    if (preference) lt.preference_destroy(preference);
    for (LtLayout layout : {a, b, d})
      if (layout) lt.layout_destroy(layout);
    if (desc) lt.desc_destroy(desc);
  }
};

}  // namespace

bool gemm_with_bias(const tensor::Tensor& out, const tensor::Tensor& a, const tensor::Tensor& b, const tensor::Tensor& bias, double alpha) {
  LoadedCublasLt* lt = cublas_lt();
  const int64_t m = out.size(0), n = out.size(1), k = a.size(1);
  if (!lt || out.dtype() != tensor::DType::Float32 || out.dim() != 2 || bias.dtype() != out.dtype() || bias.device() != out.device() ||
      bias.dim() != 1 || bias.size(0) != n || bias.stride(0) != 1 || m <= 1 || n <= 1 || k <= 1)
    return false;
  const int device = device_index(out.device());
  make_current(device);
  const LtDeviceState state = lt_state_for(*lt, device);
  const Operand A = operand(a), B = operand(b);
  // Row-major out = a b is column-major out^T = b^T a^T (n x m): cuBLAS's first operand is b, and
  // the bias runs along out^T's rows, as the epilogue adds it.
  LtCall call{*lt};
  const auto ok = [](CublasStatus status) { return status == 0; };
  const int trans_first = B.op, trans_second = A.op;
  const uint32_t epilogue = kEpilogueBias;
  const void* bias_pointer = bias.data_ptr();
  const uint64_t workspace = kLtWorkspaceBytes;
  const bool described =
      ok(lt->desc_create(&call.desc, kComputeFloat32, kDataFloat32)) &&
      ok(lt->desc_set(call.desc, kDescTransA, &trans_first, sizeof(trans_first))) &&
      ok(lt->desc_set(call.desc, kDescTransB, &trans_second, sizeof(trans_second))) &&
      ok(lt->desc_set(call.desc, kDescEpilogue, &epilogue, sizeof(epilogue))) &&
      ok(lt->desc_set(call.desc, kDescBiasPointer, &bias_pointer, sizeof(bias_pointer))) &&
      ok(lt->layout_create(&call.a, kDataFloat32, B.op == kOpN ? n : k, B.op == kOpN ? k : n, B.ld)) &&
      ok(lt->layout_create(&call.b, kDataFloat32, A.op == kOpN ? k : m, A.op == kOpN ? m : k, A.ld)) &&
      ok(lt->layout_create(&call.d, kDataFloat32, n, m, n)) && ok(lt->preference_create(&call.preference)) &&
      ok(lt->preference_set(call.preference, kPreferenceMaxWorkspaceBytes, &workspace, sizeof(workspace)));
  if (!described) tensor::throw_runtime_error("cuBLASLt could not describe a matrix product");
  LtHeuristicResult chosen{};
  int found = 0;
  if (!ok(lt->heuristic(state.handle, call.desc, call.a, call.b, call.d, call.d, call.preference, 1, &chosen, &found)) || found == 0)
    return false;  // no bias kernel for this shape: cuBLAS's path
  const float scale = static_cast<float>(alpha), zero = 0.0f;
  const CublasStatus status = lt->matmul(state.handle, call.desc, &scale, B.t.data_ptr(), call.a, A.t.data_ptr(), call.b, &zero,
                                         out.data_ptr(), call.d, out.data_ptr(), call.d, &chosen.algo, state.workspace,
                                         kLtWorkspaceBytes, nullptr);
  if (status != 0) tensor::throw_runtime_error("cuBLASLt error " + std::to_string(status) + " in a matrix product");
  return true;
}

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
  } else if ((out.dtype() == tensor::DType::BFloat16 || out.dtype() == tensor::DType::Float16) && cublas().gemm_ex) {
    // As PyTorch's half and bfloat16 products: float32 accumulation and scalars.
    const int type = out.dtype() == tensor::DType::BFloat16 ? kDataBFloat16 : kDataHalf;
    const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
    status = cublas().gemm_ex(handle, B.op, A.op, int(n), int(m), int(k), &fa, B.t.data_ptr(), type, int(B.ld), B.batch_stride,
                              A.t.data_ptr(), type, int(A.ld), A.batch_stride, &fb, out.data_ptr(), type, int(ldc), stride_c,
                              int(batches), kComputeFloat32, kGemmDefault);
  } else {
    tensor::throw_runtime_error("kiln's CUDA matrix products take float32, float64, float16 and bfloat16, not " +
                                std::string(tensor::scalar_type_name(out.dtype())));
  }
  if (status != 0) tensor::throw_runtime_error("cuBLAS error " + std::to_string(status) + " in a matrix product");
}

}  // namespace kiln::cuda
