// Pointwise functions of one tensor. Floating functions of integer tensors compute on a float32
// copy (ATen's int-to-float promotion for unary floating ops); predicates return bool.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/gelu_erf_intervals.h"
#include "libcompiler/ops/kernels/inverse_error_function.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/opmath_arrays.h"
#include "libcompiler/ops/kernels/pointwise_math.h"
#include "libcompiler/ops/kernels/sleef_vectors.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/ops/kernels/vector_math.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/op_table.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/memory_order.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

// out = op(self) in out's dtype; self for in-place overloads.
template <typename MakeOp>
std::vector<Tensor> unary(const Arguments& args, MetaFunction meta, const MakeOp& make_op) {
  const Tensor out = args.schema().is_inplace() ? args.tensor(0) : allocate_outputs(meta(args))[0];
  if (args.schema().is_inplace()) {
    const tensor::DType result = meta(args)[0].dtype;
    if (result != out.dtype())
      tensor::throw_runtime_error("result type " + std::string(tensor::scalar_type_name(result)) +
                                  " can't be cast to the desired output type " +
                                  std::string(tensor::scalar_type_name(out.dtype())));
  }
  const Tensor in = operand_as(args[0], out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    unary_loop<T, T>(out, in, make_op(tag));
  });
  return {out};
}

// arrays(in, out, n) with its own loops (the negations and divisions around a vector exp, say) on
// AVX-512 where the CPU has it, else AVX2 with FMA (std::fma one instruction): the lambda inlines
// into a function of that target.
template <typename T, typename Arrays>
KILN_AVX512_TARGET void arrays_avx512(const Arrays& arrays, const T* in, T* out, int64_t n) {
  arrays(in, out, n);
}

template <typename T, typename Arrays>
KILN_AVX2_FMA_TARGET void arrays_avx2(const Arrays& arrays, const T* in, T* out, int64_t n) {
  arrays(in, out, n);
}

template <typename T, typename Arrays>
void arrays_on_widest_vectors(const Arrays& arrays, const T* in, T* out, int64_t n) {
  if (cpu_has_avx512()) return arrays_avx512(arrays, in, out, n);
  if (cpu_has_avx2_fma()) return arrays_avx2(arrays, in, out, n);
  arrays(in, out, n);
}

// How many of a dense run's n elements of T ATen's vector loop takes: steps of two vectors
// (2 x 64 bytes on AVX-512, 2 x 32 on AVX2); its scalar loop takes the rest.
template <typename T>
int64_t aten_vector_loop_length(int64_t n) {
  const int64_t step = 2 * (cpu_has_avx512() ? 64 : 32) / static_cast<int64_t>(sizeof(T));
  return n - n % step;
}

// unary() whose floating results come from whole arrays when input and output lie dense in
// memory the same way: arrays(in, out, n) on chunks spread over the thread pool, on float arrays
// widened from half and bfloat16 a chunk at a time (the scalar expression serves every other case).
// aten_tail: arrays that split their input as ATen's vector loop does (aten_vector_loop_length)
// get only the elements ATen's loop over half or bfloat16 vectors takes; the rest, which ATen's
// scalar loop computes, go through the scalar expression.
template <typename MakeOp, typename Arrays>
std::vector<Tensor> unary_on_arrays(const Arguments& args, MetaFunction meta, const MakeOp& make_op, const Arrays& arrays, bool aten_tail = false) {
  const Tensor& self = args.tensor(0);
  const tensor::DType dtype = self.dtype();
  // Any dense layout (a transposed matrix too) is one array in memory, as is a result laid out
  // like it: elementwise, the order of the elements does not matter.
  if (tensor::is_floating_point(dtype) && tensor::dense_memory_order(self) && !args.schema().is_inplace()) {
    std::vector<TensorMeta> result = meta(args);
    if (result[0].dtype == dtype && result[0].strides == self.strides() && result[0].sizes == self.sizes()) {
      const Tensor out = allocate_outputs(std::move(result))[0];
      visit_floating_dtype(dtype, "unary_on_arrays", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* in = self.data_ptr<T>();
        T* o = out.data_ptr<T>();
        tensor::parallel_for(0, self.numel(), tensor::kGrainSize, [&](int64_t begin, int64_t end) {
          if constexpr (tensor::kIsReducedFloat<T>) {
            // Chunks of a multiple of two vectors: the float arrays split none of them.
            static_assert(kOpmathChunk % 64 == 0);
            const int64_t vector_end = aten_tail ? begin + aten_vector_loop_length<T>(end - begin) : end;
            float xs[kOpmathChunk], ys[kOpmathChunk];
            for (int64_t i = begin; i < vector_end; i += kOpmathChunk) {
              const int64_t m = std::min(kOpmathChunk, vector_end - i);
              prefetch_elements(in + i + m, std::min(kOpmathChunk, vector_end - i - m));
              widen_to_float(in + i, xs, m);
              arrays_on_widest_vectors(arrays, static_cast<const float*>(xs), ys, m);
              round_from_float(ys, o + i, m);
            }
            const auto op = make_op(tag);
            for (int64_t i = vector_end; i < end; ++i) o[i] = T(op(static_cast<float>(in[i])));
          } else {
            arrays_on_widest_vectors(arrays, in + begin, o + begin, end - begin);
          }
        });
      });
      return {out};
    }
  }
  return unary(args, meta, make_op);
}

template <typename MakeOp>
std::vector<Tensor> predicate(const Arguments& args, const MakeOp& make_op) {
  const Tensor out = allocate_outputs(meta_unary_predicate(args))[0];
  const Tensor& in = args.tensor(0);
  tensor::visit_dtype(in.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    unary_loop<bool, T>(out, in, make_op(tag));
  });
  return {out};
}

}  // namespace

// Floating functions: `expression` of x, on float and double (half/bfloat16 compute in float).
#define KILN_FLOAT_UNARY_KERNEL(name, expression)                                  \
  std::vector<Tensor> kernel_##name(const Arguments& args) {                       \
    return unary(args, meta_unary_float, [](auto tag) {                            \
      using C = opmath_t<typename decltype(tag)::type>;                            \
      return [](C x) -> C {                                                        \
        if constexpr (std::is_floating_point_v<C>) return expression;              \
        else return x;                                                             \
      };                                                                           \
    });                                                                            \
  }
KILN_FLOAT_UNARY_KERNEL(reciprocal, C(1) / x)
KILN_FLOAT_UNARY_KERNEL(erfinv, inverse_error_function(x))
#undef KILN_FLOAT_UNARY_KERNEL

namespace {

KILN_AVX512_INTRINSICS_BEGIN
// Square roots of doubles, correctly rounded as vsqrtpd's, in the time it takes to stream them
// (2M doubles: 1.19 ms against vsqrtpd's 1.6-1.7, whose throughput bounds it; PyTorch's MKL
// vdSqrt 1.25, not correctly rounded in 0.8% of them): 1 / sqrt(x) from vrsqrt14pd refined by
// two Newton steps, s = x * r, then one fused correction s + (x - s * s) * r / 2. Checked equal
// to vsqrtpd on 1.9e9 doubles (random bits, squares off by a few ulps, squares of midpoints
// between doubles). Below 2^-1000 x - s * s loses bits to underflow (it did differ there), so
// such lanes, and 0, infinities, NaNs and negatives, take vsqrtpd.
KILN_AVX512_TARGET __m512d square_root_lanes(__m512d x) {
  const __m512d half = _mm512_set1_pd(0.5), three = _mm512_set1_pd(3.0);
  __m512d r = _mm512_rsqrt14_pd(x);
  r = _mm512_mul_pd(_mm512_mul_pd(half, r), _mm512_fnmadd_pd(_mm512_mul_pd(x, r), r, three));
  r = _mm512_mul_pd(_mm512_mul_pd(half, r), _mm512_fnmadd_pd(_mm512_mul_pd(x, r), r, three));
  const __m512d s = _mm512_mul_pd(x, r);
  const __m512d refined = _mm512_fmadd_pd(_mm512_fnmadd_pd(s, s, x), _mm512_mul_pd(half, r), s);
  const __mmask8 ordinary = _mm512_cmp_pd_mask(x, _mm512_set1_pd(0x1p-1000), _CMP_GE_OQ) &
                            _mm512_cmp_pd_mask(x, _mm512_set1_pd(HUGE_VAL), _CMP_LT_OQ);
  return ordinary == 0xff ? refined : _mm512_mask_blend_pd(ordinary, _mm512_sqrt_pd(x), refined);
}

KILN_AVX512_TARGET void square_roots_avx512(const double* in, double* out, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(out + i, square_root_lanes(_mm512_loadu_pd(in + i)));
  for (; i < n; ++i) out[i] = std::sqrt(in[i]);
}
KILN_AVX512_INTRINSICS_END

}  // namespace

// Dense double arrays on AVX-512 by square_roots_avx512; every other case as the expression
// (float's vectorised vsqrtps already keeps up with memory).
std::vector<Tensor> kernel_sqrt(const Arguments& args) {
  const auto make_op = [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      if constexpr (std::is_floating_point_v<C>) return std::sqrt(x);
      else return x;
    };
  };
  if (args.tensor(0).dtype() != tensor::DType::Float64 || !cpu_has_avx512()) return unary(args, meta_unary_float, make_op);
  return unary_on_arrays(args, meta_unary_float, make_op, [](const auto* in, auto* out, int64_t n) {
    if constexpr (std::is_same_v<std::remove_cv_t<std::remove_pointer_t<decltype(in)>>, double>) square_roots_avx512(in, out, n);
    else for (int64_t i = 0; i < n; ++i) out[i] = std::sqrt(in[i]);
  });
}

namespace {

// 1 / sqrt(x) as ATen computes it: a rounded square root and a division (not the approximate
// rsqrt instruction), on 8 floats or 4 doubles at a time where the CPU has AVX2.
template <typename T>
KILN_INLINE_INTO_CLONES void reciprocal_square_roots(const T* in, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = T(1) / std::sqrt(in[i]);
}
KILN_VECTOR_CLONES void rsqrt_array(const float* in, float* out, int64_t n) { reciprocal_square_roots(in, out, n); }
KILN_VECTOR_CLONES void rsqrt_array(const double* in, double* out, int64_t n) { reciprocal_square_roots(in, out, n); }

}  // namespace

std::vector<Tensor> kernel_rsqrt(const Arguments& args) {
  const auto make_op = [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      if constexpr (std::is_floating_point_v<C>) return C(1) / std::sqrt(x);
      else return x;
    };
  };
  // The expression vectorises: bfloat16 runs it with the conversions in registers (unary_loop).
  if (args.tensor(0).dtype() == tensor::DType::BFloat16) return unary(args, meta_unary_float, make_op);
  return unary_on_arrays(args, meta_unary_float, make_op, [](const auto* in, auto* out, int64_t n) { rsqrt_array(in, out, n); });
}

// libm's functions: glibc's vector versions on contiguous float and double arrays.
#define KILN_VECTOR_MATH(name)                                                                              \
  std::vector<Tensor> kernel_##name(const Arguments& args) {                                                \
    return unary_on_arrays(                                                                                 \
        args, meta_unary_float,                                                                             \
        [](auto tag) {                                                                                      \
          using C = opmath_t<typename decltype(tag)::type>;                                                 \
          return [](C x) -> C {                                                                             \
            if constexpr (std::is_floating_point_v<C>) return std::name(x);                                 \
            else return x;                                                                                  \
          };                                                                                                \
        },                                                                                                  \
        [](const auto* in, auto* out, int64_t n) { vector_math::apply(vector_math::Function::name, in, out, n); }); \
  }
#include "libcompiler/ops/kernels/vector_math.def"

namespace {

// sigmoid, 1 / (1 + exp(-x)), or silu, x / (1 + exp(-x)), on the first `whole` elements (pairs of
// vectors of V) as ATen's vectorised kernels compute them, with SLEEF's exp.
template <bool kSilu, typename V, typename T>
KILN_INLINE_INTO_CLONES void exp_of_negation_vectors(const T* in, T* out, int64_t whole) {
  // Two vectors a step, as ATen's loop: both exps first, then both divisions.
  constexpr int64_t kLanes = sizeof(V) / sizeof(T);
  for (int64_t i = 0; i < whole; i += 2 * kLanes) {
    const V x0 = sleef::load<V>(in + i), x1 = sleef::load<V>(in + i + kLanes);
    const V e0 = sleef::exp(-x0), e1 = sleef::exp(-x1);
    const V d0 = T(1) + e0, d1 = T(1) + e1;
    sleef::store(out + i, kSilu ? x0 / d0 : T(1) / d0);
    sleef::store(out + i + kLanes, kSilu ? x1 / d1 : T(1) / d1);
  }
}

template <bool kSilu, typename T>
KILN_AVX512_TARGET void exp_of_negation_avx512(const T* in, T* out, int64_t whole) {
  exp_of_negation_vectors<kSilu, sleef::Vector<T, 64>>(in, out, whole);
}

template <bool kSilu, typename T>
KILN_AVX2_FMA_TARGET void exp_of_negation_avx2(const T* in, T* out, int64_t whole) {
  exp_of_negation_vectors<kSilu, sleef::Vector<T, 32>>(in, out, whole);
}

// ATen's sigmoid and silu kernels run AVX-512 where the CPU has it, else AVX2; ATen's DEFAULT
// build (no AVX2) computes them with libm's exp throughout, as the scalar expression does.
template <bool kSilu, typename T>
int64_t exp_of_negation_whole_vectors(const T* in, T* out, int64_t n) {
  const int64_t whole = aten_vector_loop_length<T>(n);
  if (cpu_has_avx512()) exp_of_negation_avx512<kSilu>(in, out, whole);
  else if (cpu_has_avx2_fma()) exp_of_negation_avx2<kSilu>(in, out, whole);
  else return 0;
  return whole;
}

}  // namespace

// finish(x, exp(-x)) elementwise: sigmoid and silu. Dense float and double arrays (half and
// bfloat16 widened) as ATen's vector loop with its vectorised exp, the elements left over with
// libm's, as its scalar loop; other layouts go element by element with libm's exp, as ATen's
// strided loop.
template <bool kSilu, typename Finish>
std::vector<Tensor> of_exp_of_negation(const Arguments& args, MetaFunction meta, Finish finish) {
  return unary_on_arrays(
      args, meta,
      [finish](auto tag) {
        using C = opmath_t<typename decltype(tag)::type>;
        return [finish](C x) -> C {
          if constexpr (std::is_floating_point_v<C>) return finish(x, std::exp(-x));
          else return x;
        };
      },
      [finish](const auto* in, auto* out, int64_t n) {
        for (int64_t i = exp_of_negation_whole_vectors<kSilu>(in, out, n); i < n; ++i) out[i] = finish(in[i], std::exp(-in[i]));
      },
      /*aten_tail=*/true);
}

std::vector<Tensor> kernel_sigmoid(const Arguments& args) {
  return of_exp_of_negation<false>(args, meta_unary_float, [](auto, auto e) { return decltype(e)(1) / (decltype(e)(1) + e); });
}
#undef KILN_FLOAT_UNARY_KERNEL

// CompositeImplicitAutograd in ATen: its grad_fn is pow's.
std::vector<Tensor> kernel_square(const Arguments& args) { return {ops::pow(args.tensor(0), Scalar(2))}; }

namespace {

// neg and abs of half and bfloat16 change only the sign bit, as ATen's vectorised kernels for
// them do: no trip through float (contiguous runs on AVX-512 where the CPU has it).
template <typename BitOp>
KILN_INLINE_INTO_CLONES void sign_bit_run(uint16_t* o, const uint16_t* x, int64_t n, const BitOp& bit_op) {
  for (int64_t i = 0; i < n; ++i) o[i] = bit_op(x[i]);
}

template <typename BitOp>
KILN_AVX512_TARGET void sign_bit_run_avx512(uint16_t* o, const uint16_t* x, int64_t n, const BitOp& bit_op) {
  sign_bit_run(o, x, n, bit_op);
}

template <typename BitOp>
std::vector<Tensor> on_sign_bit(const Arguments& args, const BitOp& bit_op) {
  const Tensor out = args.schema().is_inplace() ? args.tensor(0) : allocate_outputs(meta_unary(args))[0];
  tensor::ElementwiseLoop loop({out}, {args.tensor(0)});
  tensor::for_each_run(loop, [&](char* const* data, const int64_t* strides, int64_t n) {
    if (strides[0] == sizeof(uint16_t) && strides[1] == sizeof(uint16_t)) {
      uint16_t* o = reinterpret_cast<uint16_t*>(data[0]);
      const uint16_t* x = reinterpret_cast<const uint16_t*>(data[1]);
      if (cpu_has_avx512()) return sign_bit_run_avx512(o, x, n, bit_op);
      return sign_bit_run(o, x, n, bit_op);
    }
    for (int64_t i = 0; i < n; ++i) store<uint16_t>(data[0] + i * strides[0], bit_op(load<uint16_t>(data[1] + i * strides[1])));
  });
  return {out};
}

}  // namespace

std::vector<Tensor> kernel_neg(const Arguments& args) {
  if (tensor::is_reduced_floating_point(args.tensor(0).dtype())) return on_sign_bit(args, [](uint16_t bits) { return uint16_t(bits ^ 0x8000u); });
  return unary(args, meta_unary, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) -> C { return static_cast<C>(-x); };
  });
}

std::vector<Tensor> kernel_abs(const Arguments& args) {
  if (tensor::is_reduced_floating_point(args.tensor(0).dtype())) return on_sign_bit(args, [](uint16_t bits) { return uint16_t(bits & 0x7fffu); });
  return unary(args, meta_unary, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      if constexpr (std::is_same_v<C, bool> || std::is_unsigned_v<C>) return x;
      else return x < C(0) ? static_cast<C>(-x) : x;
    };
  });
}

std::vector<Tensor> kernel_sign(const Arguments& args) {
  return unary(args, meta_unary, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) -> C {
      if constexpr (std::is_same_v<C, bool>) return x;
      else return static_cast<C>((C(0) < x) - (x < C(0)));
    };
  });
}

std::vector<Tensor> kernel_relu(const Arguments& args) {
  if (args.tensor(0).dtype() == tensor::DType::Bool) throw_not_implemented_for("clamp_min_cpu", tensor::DType::Bool);
  return unary(args, meta_unary, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    // NaN stays NaN, as clamp_min(0) keeps it.
    return [](C x) -> C { return x < C(0) ? C(0) : x; };
  });
}

std::vector<Tensor> kernel_leaky_relu(const Arguments& args) {
  const tensor::DType dtype = args.tensor(0).dtype();
  if (!tensor::is_floating_point(dtype)) throw_not_implemented_for("leaky_relu_cpu", dtype);
  const double slope = args.scalar(1).to<double>();
  return unary(args, meta_unary, [slope](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [negative_slope = static_cast<C>(slope)](C x) -> C { return x > C(0) ? x : static_cast<C>(x * negative_slope); };
  });
}

// x / (1 + exp(-x)), as ATen's silu kernel divides (not x * sigmoid(x), which rounds once more).
std::vector<Tensor> kernel_silu(const Arguments& args) {
  const tensor::DType dtype = args.tensor(0).dtype();
  if (!tensor::is_floating_point(dtype)) throw_not_implemented_for("silu_cpu", dtype);
  return of_exp_of_negation<true>(args, meta_unary, [](auto x, auto e) { return x / (decltype(e)(1) + e); });
}

// log(1 + exp(beta * x)) / beta, or x itself where beta * x passes the threshold.
std::vector<Tensor> kernel_softplus(const Arguments& args) {
  const tensor::DType dtype = args.tensor(0).dtype();
  if (!tensor::is_floating_point(dtype)) throw_not_implemented_for("softplus_cpu", dtype);
  const double beta_value = args.scalar(1).to<double>(), threshold_value = args.scalar(2).to<double>();
  return unary(args, meta_unary, [beta_value, threshold_value](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [beta = static_cast<C>(beta_value), threshold = static_cast<C>(threshold_value)](C x) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        return x * beta > threshold ? x : static_cast<C>(std::log1p(std::exp(x * beta)) / beta);
      } else {
        return x;
      }
    };
  });
}

namespace {

// Exact float gelu, x * 0.5 * (1 + erf(x / sqrt(2))), on the first `whole` elements as ATen's
// vector loop computes it, with Vectorized<float>::erf: Abramowitz and Stegun's 7.1.26,
// 1 - t (a1 + a2 t + ... + a5 t^4) exp(-a^2) with t = 1 / (1 + p |a|), in fused multiply-adds,
// with SLEEF's exp, then a's sign. Its error (about 1e-7) is not glibc's erff's. A block at a
// time: the polynomial as scalar code that GCC vectorises, the exp on whole vectors of V.
template <typename V>
KILN_INLINE_INTO_CLONES void exact_gelu_vectors(const float* in, float* out, int64_t whole) {
  constexpr int64_t kBlock = 64, kLanes = sizeof(V) / sizeof(float);
  float a[kBlock], e[kBlock];
  for (int64_t begin = 0; begin < whole; begin += kBlock) {
    // Whole vectors: `whole` is a multiple of two of them, kBlock of four.
    const int64_t m = std::min(kBlock, whole - begin);
    const float* x = in + begin;
    for (int64_t i = 0; i < m; ++i) {
      a[i] = x[i] * static_cast<float>(M_SQRT1_2);
      e[i] = -(a[i] * a[i]);
    }
    for (int64_t i = 0; i < m; i += kLanes) sleef::store(e + i, sleef::exp(sleef::load<V>(e + i)));
    for (int64_t i = 0; i < m; ++i) {
      const float t = 1.0f / std::fma(0.3275911f, std::fabs(a[i]), 1.0f);
      float r = std::fma(1.061405429f, t, -1.453152027f);
      r = std::fma(r, t, 1.421413741f);
      r = std::fma(r, t, -0.284496736f);
      r = std::fma(r, t, 0.254829592f);
      const float magnitude = std::fma(-e[i] * t, r, 1.0f);
      const float erf_a = std::bit_cast<float>(std::bit_cast<uint32_t>(magnitude) ^ (std::bit_cast<uint32_t>(a[i]) & 0x80000000u));
      out[begin + i] = x[i] * 0.5f * (1.0f + erf_a);
    }
  }
}

// Float gelu on whole vectors of V as ATen's vector loop computes it: exact (exact_gelu_vectors),
// or 0.5 * x * (1 + tanh(beta * (x + kappa * x^3))) with SLEEF's tanh, x^3 as (x * x) * x and
// x + kappa * x^3 fused, as GCC compiles ATen's expression (gelu_value: the same in its scalar
// loop).
template <typename V, typename T>
KILN_INLINE_INTO_CLONES void sleef_gelu_vectors(const T* in, T* out, int64_t whole, bool tanh_approximation) {
  constexpr int64_t kLanes = sizeof(V) / sizeof(T);
  if (!tanh_approximation) return exact_gelu_vectors<V>(in, out, whole);
  const T beta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = static_cast<T>(0.044715);
  // Two vectors a step, as ATen's loop: both tanhs, then the rest.
  for (int64_t i = 0; i < whole; i += 2 * kLanes) {
    const V x0 = sleef::load<V>(in + i), x1 = sleef::load<V>(in + i + kLanes);
    const V t0 = sleef::tanh(beta * sleef::fused_multiply_add(V{} + kappa, x0 * x0 * x0, x0));
    const V t1 = sleef::tanh(beta * sleef::fused_multiply_add(V{} + kappa, x1 * x1 * x1, x1));
    sleef::store(out + i, T(0.5) * x0 * (T(1) + t0));
    sleef::store(out + i + kLanes, T(0.5) * x1 * (T(1) + t1));
  }
}

KILN_AVX512_TARGET void gelu_avx512(const float* in, float* out, int64_t whole, bool tanh_approximation) {
  sleef_gelu_vectors<sleef::Vector<float, 64>>(in, out, whole, tanh_approximation);
}

KILN_AVX2_FMA_TARGET void gelu_avx2(const float* in, float* out, int64_t whole, bool tanh_approximation) {
  sleef_gelu_vectors<sleef::Vector<float, 32>>(in, out, whole, tanh_approximation);
}

// ATen's gelu kernel runs AVX-512 where the CPU has it (perf: Sleef_finz_erfd8_u10avx512f,
// Sleef_finz_tanhf16_u10avx512f), else AVX2; returns how many elements it took (ATen's DEFAULT
// build computes every element with libm, as gelu_value does).
int64_t gelu_whole_vectors(const float* in, float* out, int64_t n, bool tanh_approximation) {
  const int64_t whole = aten_vector_loop_length<float>(n);
  if (cpu_has_avx512()) gelu_avx512(in, out, whole, tanh_approximation);
  else if (cpu_has_avx2_fma()) gelu_avx2(in, out, whole, tanh_approximation);
  else return 0;
  return whole;
}

}  // namespace

std::vector<Tensor> kernel_gelu(const Arguments& args) {
  const tensor::DType dtype = args.tensor(0).dtype();
  if (!tensor::is_floating_point(dtype)) throw_not_implemented_for("GeluKernelImpl", dtype);
  const bool tanh_approximation = args[1].to_string() == "tanh";
  const auto scalar = [tanh_approximation](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [tanh_approximation](C x) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        return gelu_value(x, tanh_approximation);
      } else {
        (void)tanh_approximation;  // only instantiated for dtypes the check above rejects
        return x;
      }
    };
  };
  // Exact gelu of a contiguous float, bfloat16 or (where the CPU has AVX-512 FP16, as oneDNN's
  // half check asks) half tensor of two or more elements: where PyTorch calls oneDNN's eltwise
  // gelu_erf (gelu_out_cpu's use_mkldnn), not ATen's kernel, so its bits are oneDNN's polynomial's
  // and not ATen's to keep: erf on intervals (half and bfloat16 widened).
  const Tensor& self = args.tensor(0);
  static const bool cpu_has_avx512_fp16 = __builtin_cpu_supports("avx512fp16");
  const bool onednn_dtype = dtype == tensor::DType::Float32 || dtype == tensor::DType::BFloat16 ||
                            (dtype == tensor::DType::Float16 && cpu_has_avx512_fp16);
  if (!tanh_approximation && onednn_dtype && self.is_contiguous() && self.numel() > 1 && cpu_has_avx512())
    return unary_on_arrays(args, meta_unary, scalar, [](const auto* in, auto* out, int64_t n) {
      if constexpr (std::is_same_v<std::remove_cv_t<std::remove_pointer_t<decltype(in)>>, float>) exact_gelu_on_intervals(in, out, n);
    });
  // Float (half and bfloat16 widened): as ATen's vector loop, the elements left over with libm's
  // erf or tanh (the scalar expression), as its scalar loop. Double: gelu_value's operations in
  // its order, with glibc's vector erf or tanh on a tile at a time.
  return unary_on_arrays(args, meta_unary, scalar, [tanh_approximation](const auto* in, auto* out, int64_t n) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(in)>>;
    if constexpr (std::is_same_v<T, float>) {
      for (int64_t i = gelu_whole_vectors(in, out, n, tanh_approximation); i < n; ++i) out[i] = gelu_value(in[i], tanh_approximation);
    } else {
      constexpr int64_t kTile = 2048;
      for (int64_t begin = 0; begin < n; begin += kTile) {
        const T* x = in + begin;
        T* y = out + begin;
        const int64_t m = std::min(kTile, n - begin);
        if (tanh_approximation) {
          const T beta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = static_cast<T>(0.044715);
          for (int64_t i = 0; i < m; ++i) y[i] = beta * std::fma(kappa, x[i] * x[i] * x[i], x[i]);
          vector_math::apply(vector_math::Function::tanh, y, y, m);
          for (int64_t i = 0; i < m; ++i) y[i] = T(0.5) * x[i] * (T(1) + y[i]);
        } else {
          for (int64_t i = 0; i < m; ++i) y[i] = x[i] * static_cast<T>(M_SQRT1_2);
          vector_math::apply(vector_math::Function::erf, y, y, m);
          for (int64_t i = 0; i < m; ++i) y[i] = x[i] * T(0.5) * (T(1) + y[i]);
        }
      }
    }
  }, /*aten_tail=*/true);
}

std::vector<Tensor> kernel_logical_not(const Arguments& args) {
  return predicate(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) { return !(x != C(0)); };
  });
}

std::vector<Tensor> kernel_isnan(const Arguments& args) {
  return predicate(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) { return x != x; };
  });
}

std::vector<Tensor> kernel_isfinite(const Arguments& args) {
  return predicate(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x) {
      if constexpr (std::is_floating_point_v<C>) return std::isfinite(x);
      else return true;
    };
  });
}

}  // namespace kiln::ops
