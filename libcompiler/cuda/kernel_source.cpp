#include "libcompiler/cuda/kernel_source.h"

#include <cstring>

#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

std::string_view storage_type(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::UInt8: return "unsigned char";
    case tensor::DType::Int8: return "signed char";
    case tensor::DType::Int16: return "short";
    case tensor::DType::Int32: return "int";
    case tensor::DType::Int64: return "long long";
    case tensor::DType::Float16: return "kiln_half";
    case tensor::DType::Float32: return "float";
    case tensor::DType::Float64: return "double";
    case tensor::DType::Bool: return "bool";
    case tensor::DType::BFloat16: return "kiln_bfloat16";
  }
  tensor::throw_runtime_error("no CUDA type for " + std::string(tensor::scalar_type_name(dtype)));
}

std::string_view compute_type(tensor::DType dtype) {
  return dtype == tensor::DType::Float16 || dtype == tensor::DType::BFloat16 ? "float" : storage_type(dtype);
}

const std::string& kernel_preamble() {
  static const std::string preamble = R"(// kiln's eager CUDA kernels: shared definitions
#define KILN_MAX_DIMS 8
struct kiln_half { unsigned short bits; };
struct kiln_bfloat16 { unsigned short bits; };

template <typename T> __device__ __forceinline__ T kiln_load(const T* p) { return *p; }
__device__ __forceinline__ float kiln_load(const kiln_half* p) {
  float value;
  asm("cvt.f32.f16 %0, %1;" : "=f"(value) : "h"(p->bits));
  return value;
}
__device__ __forceinline__ float kiln_load(const kiln_bfloat16* p) {
  return __uint_as_float(static_cast<unsigned int>(p->bits) << 16);
}

template <typename T, typename V> __device__ __forceinline__ void kiln_store(T* p, V value) { *p = static_cast<T>(value); }
template <typename V> __device__ __forceinline__ void kiln_store(kiln_half* p, V value) {
  unsigned short bits;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(static_cast<float>(value)));
  p->bits = bits;
}
template <typename V> __device__ __forceinline__ void kiln_store(kiln_bfloat16* p, V value) {
  const float f = static_cast<float>(value);
  unsigned int u = __float_as_uint(f);
  // Round to nearest even; a NaN stays a (quiet) NaN.
  p->bits = f != f ? 0x7fc0 : static_cast<unsigned short>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

template <typename T> struct kiln_limits;
template <> struct kiln_limits<float> { static __device__ float lowest() { return -__int_as_float(0x7f800000); } static __device__ float highest() { return __int_as_float(0x7f800000); } };
template <> struct kiln_limits<double> { static __device__ double lowest() { return -__longlong_as_double(0x7ff0000000000000LL); } static __device__ double highest() { return __longlong_as_double(0x7ff0000000000000LL); } };
template <> struct kiln_limits<long long> { static __device__ long long lowest() { return (long long)(1ULL << 63); } static __device__ long long highest() { return (long long)((1ULL << 63) - 1); } };
template <> struct kiln_limits<int> { static __device__ int lowest() { return (int)(1U << 31); } static __device__ int highest() { return (int)((1U << 31) - 1); } };
template <> struct kiln_limits<short> { static __device__ short lowest() { return -32768; } static __device__ short highest() { return 32767; } };
template <> struct kiln_limits<signed char> { static __device__ signed char lowest() { return -128; } static __device__ signed char highest() { return 127; } };
template <> struct kiln_limits<unsigned char> { static __device__ unsigned char lowest() { return 0; } static __device__ unsigned char highest() { return 255; } };
template <> struct kiln_limits<bool> { static __device__ bool lowest() { return false; } static __device__ bool highest() { return true; } };

template <typename T> __device__ __forceinline__ bool kiln_isnan(T x) { return x != x; }
template <typename T> __device__ __forceinline__ bool kiln_isfinite(T) { return true; }
__device__ __forceinline__ bool kiln_isfinite(float x) { return isfinite(x); }
__device__ __forceinline__ bool kiln_isfinite(double x) { return isfinite(x); }
template <typename T> __device__ __forceinline__ T kiln_bitwise_not(T x) { return ~x; }
__device__ __forceinline__ bool kiln_bitwise_not(bool x) { return !x; }
template <typename T> __device__ __forceinline__ T kiln_relu(T x) { return x < T(0) ? T(0) : x; }
template <typename T> __device__ __forceinline__ T kiln_abs(T x) { return x < T(0) ? -x : x; }
__device__ __forceinline__ float kiln_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double kiln_abs(double x) { return fabs(x); }
template <typename T> __device__ __forceinline__ T kiln_sigmoid(T x) { return T(1) / (T(1) + exp(-x)); }
template <typename T> __device__ __forceinline__ T kiln_maximum(T a, T b) { return kiln_isnan(a) ? a : kiln_isnan(b) ? b : (a > b ? a : b); }
template <typename T> __device__ __forceinline__ T kiln_minimum(T a, T b) { return kiln_isnan(a) ? a : kiln_isnan(b) ? b : (a < b ? a : b); }
template <typename T> __device__ __forceinline__ T kiln_reciprocal(T x) { return T(1) / x; }
template <typename T> __device__ __forceinline__ T kiln_rsqrt(T x) { return T(1) / sqrt(x); }
)";
  return preamble;
}

std::array<char, 8> scalar_argument(const tensor::Scalar& value, tensor::DType compute) {
  std::array<char, 8> bytes{};
  tensor::visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (tensor::kIsReducedFloat<T>) {
      const float converted = value.to<float>();
      std::memcpy(bytes.data(), &converted, sizeof(converted));
    } else {
      const T converted = value.to<T>();
      std::memcpy(bytes.data(), &converted, sizeof(converted));
    }
  });
  return bytes;
}

std::string offsets_from_position(size_t operands) {
  const std::string n = std::to_string(operands);
  return "    I offset[" + n + "] = {0};\n"
         "    I rest = i;\n"
         "    for (int d = (int)g.ndim - 1; d >= 0; --d) {\n"
         "      const I size = (I)g.sizes[d];\n"
         "      const I at = rest % size;\n"
         "      rest /= size;\n"
         "      for (int k = 0; k < " + n + "; ++k) offset[k] += at * (I)g.strides[k][d];\n"
         "    }\n";
}

}  // namespace kiln::cuda
