#pragma once
// Loops for elementwise kernels, built on ElementwiseLoop: each run of the walk goes to a plain
// pointer loop when every operand is contiguous in it (or a broadcast scalar), which the
// compiler vectorises, and to a strided loop otherwise. Walks of kGrainSize elements or more are
// split over the thread pool (tensor::for_each_run). Half and bfloat16 compute in float (ATen's
// opmath type): their contiguous runs go through float arrays a chunk at a time (opmath_arrays.h),
// bfloat16's on AVX-512 converted in registers.
//
//   unary_loop<float, float>(out, in, [](float x) { return x * 2; });
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "libcompiler/ops/ivalue.h"
#include "libcompiler/ops/kernels/opmath_arrays.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/elementwise_loop.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/scalar_cast.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

// The type arithmetic on T happens in.
template <typename T>
using opmath_t = std::conditional_t<tensor::kIsReducedFloat<T>, float, T>;

// PyTorch's error for a kernel that has no loop for a dtype: "max_pool2d" not implemented for 'Long'.
[[noreturn]] inline void throw_not_implemented_for(const char* kernel, tensor::DType dtype) {
  tensor::throw_runtime_error(std::string("\"") + kernel + "\" not implemented for '" +
                              std::string(tensor::scalar_type_name(dtype)) + "'");
}

// visit_dtype over the floating dtypes (half and bfloat16 included); the others raise that error.
template <typename F>
void visit_floating_dtype(tensor::DType dtype, const char* kernel, F&& f) {
  if (!tensor::is_floating_point(dtype)) throw_not_implemented_for(kernel, dtype);
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (tensor::kIsReducedFloat<T> || std::is_floating_point_v<T>) f(tag);
  });
}

template <typename T>
inline T load(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
inline void store(char* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

// Contiguous runs as plain array loops the compiler vectorises; an operand that does not step is
// one element, broadcast. Floating types get a second copy for AVX2 with FMA (8 floats an
// instruction), picked when the CPU has it: loops on the build's baseline 4 lanes run at half
// ATen's speed. Not AVX-512, even where the CPU has it: ATen registers its plain elementwise
// kernels for AVX2 only (REGISTER_DISPATCH leaves the AVX512 slot empty), and its choice is the
// faster one for loops that stream memory: 64-byte loops moved 16 MB operands 15-20% slower than
// 32-byte ones on the AVX-512 machine of tests/bench/RESULTS.md.
template <typename Out, typename In, typename Op>
KILN_INLINE_INTO_CLONES void unary_array(Out* o, const In* x, int64_t n, const Op& op) {
  using C = opmath_t<In>;
  for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(static_cast<C>(x[i])));
}

template <typename Out, typename In, typename Op>
KILN_AVX2_FMA_TARGET void unary_array_avx2(Out* o, const In* x, int64_t n, const Op& op) {
  unary_array(o, x, n, op);
}

template <typename Out, typename In, typename Op>
void vectorised_unary_array(Out* o, const In* x, int64_t n, const Op& op) {
  if constexpr (std::is_floating_point_v<In>)
    if (cpu_has_avx2_fma()) return unary_array_avx2(o, x, n, op);
  unary_array(o, x, n, op);
}

template <typename Out, typename In, typename Op>
KILN_INLINE_INTO_CLONES void binary_array(Out* o, const In* x, bool x_steps, const In* y, bool y_steps, int64_t n, const Op& op) {
  using C = opmath_t<In>;
  if (x_steps && y_steps) {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(static_cast<C>(x[i]), static_cast<C>(y[i])));
  } else if (x_steps) {
    const C yv = static_cast<C>(*y);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(static_cast<C>(x[i]), yv));
  } else if (y_steps) {
    const C xv = static_cast<C>(*x);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(xv, static_cast<C>(y[i])));
  } else {
    std::fill_n(o, n, static_cast<Out>(op(static_cast<C>(*x), static_cast<C>(*y))));
  }
}

template <typename Out, typename In, typename Op>
KILN_AVX2_FMA_TARGET void binary_array_avx2(Out* o, const In* x, bool x_steps, const In* y, bool y_steps, int64_t n, const Op& op) {
  binary_array(o, x, x_steps, y, y_steps, n, op);
}

template <typename Out, typename In, typename Op>
void vectorised_binary_array(Out* o, const In* x, bool x_steps, const In* y, bool y_steps, int64_t n, const Op& op) {
  if constexpr (std::is_floating_point_v<In>)
    if (cpu_has_avx2_fma()) return binary_array_avx2(o, x, x_steps, y, y_steps, n, op);
  binary_array(o, x, x_steps, y, y_steps, n, op);
}

// bfloat16 runs on AVX-512 with the conversions in registers, as ATen's vectorised kernels: each
// element widened, op'd in float, rounded and stored in one pass (not through float chunks).
template <typename Op>
KILN_AVX512_TARGET void bfloat16_unary_avx512(uint16_t* o, const uint16_t* x, int64_t n, const Op& op) {
  for (int64_t i = 0; i < n; ++i) o[i] = float_to_bfloat16_bits(op(bfloat16_bits_to_float(x[i])));
}

template <typename Op>
KILN_AVX512_TARGET void bfloat16_binary_avx512(uint16_t* o, const uint16_t* x, bool x_steps, const uint16_t* y, bool y_steps, int64_t n,
                                               const Op& op) {
  if (x_steps && y_steps) {
    for (int64_t i = 0; i < n; ++i) o[i] = float_to_bfloat16_bits(op(bfloat16_bits_to_float(x[i]), bfloat16_bits_to_float(y[i])));
  } else if (x_steps) {
    const float yv = bfloat16_bits_to_float(*y);
    for (int64_t i = 0; i < n; ++i) o[i] = float_to_bfloat16_bits(op(bfloat16_bits_to_float(x[i]), yv));
  } else if (y_steps) {
    const float xv = bfloat16_bits_to_float(*x);
    for (int64_t i = 0; i < n; ++i) o[i] = float_to_bfloat16_bits(op(xv, bfloat16_bits_to_float(y[i])));
  } else {
    std::fill_n(o, n, float_to_bfloat16_bits(op(bfloat16_bits_to_float(*x), bfloat16_bits_to_float(*y))));
  }
}

template <typename T>
const uint16_t* bits_of(const T* p) {
  return reinterpret_cast<const uint16_t*>(p);
}

// out[i] = op(in[i]); op takes and returns opmath values.
template <typename Out, typename In, typename Op>
void unary_loop(const Tensor& out, const Tensor& in, const Op& op) {
  using C = opmath_t<In>;
  tensor::ElementwiseLoop loop({out}, {in});
  tensor::for_each_run(loop, [&](char* const* data, const int64_t* strides, int64_t n) {
    if (strides[0] == sizeof(Out) && strides[1] == sizeof(In)) {
      Out* o = reinterpret_cast<Out*>(data[0]);
      const In* x = reinterpret_cast<const In*>(data[1]);
      if constexpr (std::is_same_v<In, tensor::BFloat16> && std::is_same_v<Out, In>) {
        if (cpu_has_avx512()) return bfloat16_unary_avx512(reinterpret_cast<uint16_t*>(o), bits_of(x), n, op);
      }
      if constexpr (tensor::kIsReducedFloat<In> && std::is_same_v<Out, In>) {
        float chunk[kOpmathChunk];
        for (int64_t begin = 0; begin < n; begin += kOpmathChunk) {
          const int64_t m = std::min(kOpmathChunk, n - begin);
          widen_to_float(x + begin, chunk, m);
          vectorised_unary_array(chunk, static_cast<const float*>(chunk), m, op);
          round_from_float(chunk, o + begin, m);
        }
      } else {
        vectorised_unary_array(o, x, n, op);
      }
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      store<Out>(data[0] + i * strides[0], static_cast<Out>(op(static_cast<C>(load<In>(data[1] + i * strides[1])))));
  });
}

// o[i] = op(x[i], y[i]) over a run of half or bfloat16 in float chunks (bfloat16 on AVX-512 in
// registers); an operand that does not step is one element, broadcast.
template <typename T, typename Op>
void reduced_float_binary_run(T* o, const T* x, bool x_steps, const T* y, bool y_steps, int64_t n, const Op& op) {
  if constexpr (std::is_same_v<T, tensor::BFloat16>)
    if (cpu_has_avx512()) return bfloat16_binary_avx512(reinterpret_cast<uint16_t*>(o), bits_of(x), x_steps, bits_of(y), y_steps, n, op);
  float xs[kOpmathChunk], ys[kOpmathChunk];
  const float x0 = static_cast<float>(*x), y0 = static_cast<float>(*y);
  for (int64_t begin = 0; begin < n; begin += kOpmathChunk) {
    const int64_t m = std::min(kOpmathChunk, n - begin);
    if (x_steps) widen_to_float(x + begin, xs, m);
    if (y_steps) widen_to_float(y + begin, ys, m);
    vectorised_binary_array(xs, x_steps ? static_cast<const float*>(xs) : &x0, x_steps,
                                   y_steps ? static_cast<const float*>(ys) : &y0, y_steps, m, op);
    round_from_float(xs, o + begin, m);
  }
}

// out[i] = op(a[i], b[i]) with a and b broadcast to out.
template <typename Out, typename In, typename Op>
void binary_loop(const Tensor& out, const Tensor& a, const Tensor& b, const Op& op) {
  using C = opmath_t<In>;
  tensor::ElementwiseLoop loop({out}, {a, b});
  tensor::for_each_run(loop, [&](char* const* data, const int64_t* strides, int64_t n) {
    Out* o = reinterpret_cast<Out*>(data[0]);
    const In* x = reinterpret_cast<const In*>(data[1]);
    const In* y = reinterpret_cast<const In*>(data[2]);
    if (strides[0] == sizeof(Out) && (strides[1] == sizeof(In) || strides[1] == 0) && (strides[2] == sizeof(In) || strides[2] == 0)) {
      if constexpr (tensor::kIsReducedFloat<In> && std::is_same_v<Out, In>)
        reduced_float_binary_run(o, x, strides[1] != 0, y, strides[2] != 0, n, op);
      else
        vectorised_binary_array(o, x, strides[1] != 0, y, strides[2] != 0, n, op);
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      store<Out>(data[0] + i * strides[0],
                 static_cast<Out>(op(static_cast<C>(load<In>(data[1] + i * strides[1])),
                                     static_cast<C>(load<In>(data[2] + i * strides[2])))));
  });
}

// Contiguous runs of ternary_loop; b or c may not step (one element, broadcast: a masked_fill's
// value). On plain arithmetic types a copy for AVX-512: a select there is a blend, where the
// scalar loop branches and mispredicts on a random mask.
template <typename Out, typename A, typename In, typename Op>
KILN_INLINE_INTO_CLONES void ternary_array(Out* o, const A* x, const In* y, bool y_steps, const In* z, bool z_steps, int64_t n,
                                           const Op& op) {
  using C = opmath_t<In>;
  // A bool read as its byte: GCC vectorises no loop that loads a bool.
  const auto first = [x](int64_t i) {
    if constexpr (std::is_same_v<A, bool>) return reinterpret_cast<const uint8_t*>(x)[i] != 0;
    else return static_cast<opmath_t<A>>(x[i]);
  };
  if (y_steps && z_steps) {
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(first(i), static_cast<C>(y[i]), static_cast<C>(z[i])));
  } else if (y_steps) {
    const C zv = static_cast<C>(*z);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(first(i), static_cast<C>(y[i]), zv));
  } else if (z_steps) {
    const C yv = static_cast<C>(*y);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(first(i), yv, static_cast<C>(z[i])));
  } else {
    const C yv = static_cast<C>(*y), zv = static_cast<C>(*z);
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(op(first(i), yv, zv));
  }
}

template <typename Out, typename A, typename In, typename Op>
KILN_AVX512_TARGET void ternary_array_avx512(Out* o, const A* x, const In* y, bool y_steps, const In* z, bool z_steps, int64_t n,
                                             const Op& op) {
  ternary_array(o, x, y, y_steps, z, z_steps, n, op);
}

// out[i] = op(a[i], b[i], c[i]); a may have another type than b and c (where's condition).
template <typename Out, typename A, typename In, typename Op>
void ternary_loop(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& c, const Op& op) {
  using C = opmath_t<In>;
  using CA = opmath_t<A>;
  tensor::ElementwiseLoop loop({out}, {a, b, c});
  tensor::for_each_run(loop, [&](char* const* data, const int64_t* strides, int64_t n) {
    if (strides[0] == sizeof(Out) && strides[1] == sizeof(A) && (strides[2] == sizeof(In) || strides[2] == 0) &&
        (strides[3] == sizeof(In) || strides[3] == 0)) {
      Out* o = reinterpret_cast<Out*>(data[0]);
      const A* x = reinterpret_cast<const A*>(data[1]);
      const In* y = reinterpret_cast<const In*>(data[2]);
      const In* z = reinterpret_cast<const In*>(data[3]);
      if constexpr (std::is_arithmetic_v<In> && std::is_arithmetic_v<Out>)
        if (cpu_has_avx512()) return ternary_array_avx512(o, x, y, strides[2] != 0, z, strides[3] != 0, n, op);
      return ternary_array(o, x, y, strides[2] != 0, z, strides[3] != 0, n, op);
    }
    for (int64_t i = 0; i < n; ++i)
      store<Out>(data[0] + i * strides[0],
                 static_cast<Out>(op(static_cast<CA>(load<A>(data[1] + i * strides[1])),
                                     static_cast<C>(load<In>(data[2] + i * strides[2])),
                                     static_cast<C>(load<In>(data[3] + i * strides[3])))));
  });
}

// An operand as a tensor of `dtype`: a Python number becomes a 0-dim tensor, a tensor of another
// dtype a converted copy (TensorIterator's common-dtype cast of inputs).
Tensor operand_as(const IValue& value, tensor::DType dtype);

}  // namespace kiln::ops
