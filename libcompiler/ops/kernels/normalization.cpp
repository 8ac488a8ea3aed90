// Layer normalisation: native_layer_norm (output, mean, rstd per row), its backward kernel, and
// the layer_norm composite. Rows take the statistics and the output in PyTorch's order of
// operations (so that outputs agree to the bit, which ill-conditioned programs show: a sum of
// normalized values near 0, then `% 3`); half and bfloat16 rows are widened to float and follow
// ATen's order for them, which differs from float32's.
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/opmath_arrays.h"
#include "libcompiler/ops/kernels/vector_clones.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

// Rows x columns: the leading dims by the normalized dims.
std::pair<int64_t, int64_t> rows_and_columns(const Tensor& input, const std::vector<int64_t>& normalized) {
  const int64_t columns = tensor::numel_of(normalized);
  return {columns == 0 ? 0 : input.numel() / columns, columns};
}

void check_floating(const Tensor& input) {
  if (!tensor::is_floating_point(input.dtype()))
    tensor::throw_runtime_error("\"LayerNormKernelImpl\" not implemented for '" +
                                std::string(tensor::scalar_type_name(input.dtype())) + "'");
}

// PyTorch's CPU kernels are built with FMA, and the compiler contracts some of their a * b + c
// into one fused multiply-add and not others; which ones was measured against PyTorch 2.11 (on
// 474 rows of 1 to 4097 elements, float32 and float64, 470 bit-identical: the 4 others, rows of
// over 100 elements, differ in the last bit of rstd). The unfused ones are written a * b + c
// below: kiln builds for baseline x86-64, where the compiler has no fused instruction to use.
template <typename T>
KILN_INLINE_INTO_CLONES T fused_multiply_add(T a, T b, T c) {
  return std::fma(a, b, c);
}

// ATen's vector width for T: its layer_norm kernel runs 32-byte vectors (AVX2's) even where the
// CPU has AVX-512, as measured against PyTorch 2.11 on an AVX-512 machine.
template <typename T>
constexpr int64_t vector_lanes() {
  return 32 / static_cast<int64_t>(sizeof(T));
}

// 32 bytes of T as one vector register (AVX2's, ATen's width here), in GCC's vector extension.
template <typename T>
struct Vector32Of {
  typedef T type __attribute__((vector_size(32)));
};
template <typename T>
using Vector32 = typename Vector32Of<T>::type;

// accumulator += a * b lane by lane, each lane one fused multiply-add (one instruction with FMA).
// (Through a new vector: GCC fuses the lanes into one vector instruction then, not in place.)
template <typename T>
KILN_INLINE_INTO_CLONES void accumulate_fused(Vector32<T>& accumulator, const Vector32<T>& a, const Vector32<T>& b) {
  Vector32<T> sum;
  for (int64_t l = 0; l < vector_lanes<T>(); ++l) sum[l] = fused_multiply_add(a[l], b[l], accumulator[l]);
  accumulator = sum;
}

// One set of moments (count, mean, sum of squared deviations) merged into another (Chan et al.),
// as ATen's scalar AddMoments compiles: its build fuses both multiply-adds.
template <typename T>
void add_moments(int64_t count_add, T mean_add, T m2_add, int64_t& count, T& mean, T& m2) {
  const int64_t n = count + count_add;
  const T c = n == 0 ? T(0) : static_cast<T>(count_add) / static_cast<T>(n);
  const T delta = mean_add - mean;
  mean = fused_multiply_add(c, delta, mean);
  m2 = m2 + fused_multiply_add(delta * delta * c, static_cast<T>(count), m2_add);
  count = n;
}

// Moments per vector lane, all over the same count (one vector register each in ATen).
template <typename T, int64_t kLanes>
struct LaneMoments {
  int64_t count = 0;
  std::array<T, kLanes> mean{}, m2{};
};

// Lanes [first, first + kLanes) of `from` merged into `into` lane by lane, in the order of
// ATen's AddMomentsVec (the squared deviations' sum first, then one fused multiply-add).
template <typename T, int64_t kLanes, int64_t kFromLanes>
void add_lane_moments(const LaneMoments<T, kFromLanes>& from, int64_t first, LaneMoments<T, kLanes>& into) {
  const int64_t n = into.count + from.count;
  const T c = n == 0 ? T(0) : static_cast<T>(from.count) / static_cast<T>(n);
  for (int64_t l = 0; l < kLanes; ++l) {
    const T delta = from.mean[first + l] - into.mean[l];
    const T m2_sum = into.m2[l] + from.m2[first + l];
    const T c_delta = c * delta;
    into.mean[l] = into.mean[l] + c_delta;
    into.m2[l] = fused_multiply_add(delta * static_cast<T>(into.count), c_delta, m2_sum);
  }
  into.count = n;
}

// ATen's vector Welford over one chunk of a row, on vector registers: a chain per accumulator
// vector of the block (the second only for half and bfloat16), independent of each other. Named
// registers, not an array: GCC keeps an array of vectors in memory between the steps.
template <typename T>
struct ChunkChains {
  Vector32<T> mean0{}, m2_0{}, mean1{}, m2_1{};
};

// One step of the chains: the block's kBlock elements, weighted by inverse (1 / the step's count).
template <typename T, int64_t kBlock>
KILN_INLINE_INTO_CLONES void welford_step(ChunkChains<T>& chains, const T* block, const Vector32<T>& inverse) {
  constexpr int64_t lanes = vector_lanes<T>();
  Vector32<T> v0;
  std::memcpy(&v0, block, sizeof v0);
  const Vector32<T> delta0 = v0 - chains.mean0;
  accumulate_fused<T>(chains.mean0, delta0, inverse);
  accumulate_fused<T>(chains.m2_0, delta0, v0 - chains.mean0);
  if constexpr (kBlock == 2 * lanes) {
    Vector32<T> v1;
    std::memcpy(&v1, block + lanes, sizeof v1);
    const Vector32<T> delta1 = v1 - chains.mean1;
    accumulate_fused<T>(chains.mean1, delta1, inverse);
    accumulate_fused<T>(chains.m2_1, delta1, v1 - chains.mean1);
  }
}

// The mean and (biased) variance of each of kRows rows (row_stride apart) in the order ATen's
// RowwiseMoments takes for one row: Welford per vector lane over chunks of 16 input vectors, the
// chunks merged by a cascade (pairwise), then a scalar Welford over the elements past the last
// whole vector, into which each lane's moments merge. An input vector holds kBlock elements: one
// accumulator's lanes for float and double, two for half and bfloat16 (16 elements widened to
// two float vectors, each merged in turn). Each step of a row's chains waits for the one before
// (a subtraction, then a multiply-add); the rows' chains are independent, so stepping two rows
// together keeps twice as many in flight, and each row's bits are the same.
template <typename T, int64_t kBlock, int64_t kRows>
KILN_INLINE_INTO_CLONES std::array<std::pair<T, T>, kRows> rowwise_moments(const T* x, int64_t row_stride, int64_t columns) {
  static_assert(kRows == 1 || kRows == 2);
  constexpr int64_t kChunk = 16;
  constexpr int64_t lanes = vector_lanes<T>();
  static_assert(kBlock == lanes || kBlock == 2 * lanes);
  using Accumulator = LaneMoments<T, lanes>;
  const int64_t vectors = columns / kBlock;
  const int64_t chunks = (vectors + kChunk - 1) / kChunk;
  const int64_t depth = chunks <= 2 ? 1 : static_cast<int64_t>(std::bit_width(static_cast<uint64_t>(chunks - 1)));
  std::array<std::vector<Accumulator>, kRows> cascades;
  for (auto& cascade : cascades) cascade.resize(static_cast<size_t>(depth));
  for (int64_t i = 0; i < chunks; ++i) {
    const int64_t count = std::min(kChunk, vectors - i * kChunk);
    // Named, as ChunkChains' members: GCC keeps an array of them in memory.
    ChunkChains<T> first_row, second_row;
    for (int64_t j = 0; j < count; ++j) {
      const Vector32<T> inverse = Vector32<T>{} + T(1) / static_cast<T>(j + 1);
      welford_step<T, kBlock>(first_row, x + (i * kChunk + j) * kBlock, inverse);
      if constexpr (kRows == 2) welford_step<T, kBlock>(second_row, x + row_stride + (i * kChunk + j) * kBlock, inverse);
    }
    const std::array<ChunkChains<T>, 2> chains = {first_row, second_row};
    for (int64_t r = 0; r < kRows; ++r) {
      LaneMoments<T, kBlock> moments;
      moments.count = count;
      std::memcpy(moments.mean.data(), &chains[r].mean0, sizeof chains[r].mean0);
      std::memcpy(moments.m2.data(), &chains[r].m2_0, sizeof chains[r].m2_0);
      if constexpr (kBlock == 2 * lanes) {
        std::memcpy(moments.mean.data() + lanes, &chains[r].mean1, sizeof chains[r].mean1);
        std::memcpy(moments.m2.data() + lanes, &chains[r].m2_1, sizeof chains[r].m2_1);
      }
      std::vector<Accumulator>& cascade = cascades[r];
      for (int64_t first = 0; first < kBlock; first += lanes) add_lane_moments(moments, first, cascade[0]);
      for (int64_t j = 1, mask = i + 1; j < depth && (mask & 1) == 0; ++j, mask >>= 1) {
        add_lane_moments(cascade[j - 1], 0, cascade[j]);
        cascade[j - 1] = Accumulator{};
      }
    }
  }
  std::array<std::pair<T, T>, kRows> moments;
  for (int64_t r = 0; r < kRows; ++r) {
    std::vector<Accumulator>& cascade = cascades[r];
    const T* row = x + r * row_stride;
    for (int64_t j = 1; j < depth; ++j) add_lane_moments(cascade[j], 0, cascade[0]);
    int64_t count = 0;
    T mean = 0, m2 = 0;
    for (int64_t i = vectors * kBlock; i < columns; ++i) {
      const T delta = row[i] - mean;
      ++count;
      mean += delta / static_cast<T>(count);
      // ATen's build fuses this multiply-add in its half and bfloat16 kernels, not in float's and
      // double's (measured against PyTorch 2.11: rows of 17 to 255 elements).
      if constexpr (kBlock == lanes) m2 = m2 + delta * (row[i] - mean);
      else m2 = fused_multiply_add(delta, row[i] - mean, m2);
    }
    for (int64_t l = 0; l < lanes; ++l) add_moments(vectors * (kBlock / lanes), cascade[0].mean[l], cascade[0].m2[l], count, mean, m2);
    moments[r] = {mean, m2 / static_cast<T>(columns)};
  }
  return moments;
}

// kRows rows (`columns` apart, in x and out) of float or double layer_norm in PyTorch's order of
// operations, so that the last bits agree; compiled with FMA instructions too (the fused steps are
// ATen's own; this file is built without contraction, so no other step fuses).
template <typename T, int64_t kRows>
KILN_INLINE_INTO_CLONES void layer_norm_rows_in_order(const T* x, const T* w, const T* b, T eps, int64_t columns, T* out, T* mean_out,
                                                      T* rstd_out) {
  const auto moments = rowwise_moments<T, vector_lanes<T>(), kRows>(x, columns, columns);
  for (int64_t r = 0; r < kRows; ++r) {
    const auto [mean, variance] = moments[r];
    const T rstd = T(1) / std::sqrt(variance + eps);
    const T* row = x + r * columns;
    T* out_row = out + r * columns;
    for (int64_t c = 0; c < columns; ++c) out_row[c] = fused_multiply_add((row[c] - mean) * rstd, w ? w[c] : T(1), b ? b[c] : T(0));
    mean_out[r] = mean;
    rstd_out[r] = rstd;
  }
}

// kRows rows of half or bfloat16 layer_norm, widened to float in `rows` (`columns` apart),
// normalized in ATen's order for reduced floats (the moments over 16-element vectors, each output
// x * rstd + (-rstd * mean), then times the weight plus the bias, each step fused), in place in
// `rows`, and rounded into `out` by round_from_float (16 lanes at a time on AVX-512: rounding
// each output in this 8-lane loop took 10% longer).
template <typename T, int64_t kRows>
KILN_INLINE_INTO_CLONES void reduced_float_layer_norm_rows_in_order(float* rows, const float* w, const float* b, float eps, int64_t columns,
                                                                    T* out, float* mean_out, float* rstd_out) {
  constexpr int64_t kReducedFloatVector = 16;
  const auto moments = rowwise_moments<float, kReducedFloatVector, kRows>(rows, columns, columns);
  for (int64_t r = 0; r < kRows; ++r) {
    const auto [mean, variance] = moments[r];
    const float rstd = 1.0f / std::sqrt(variance + eps);
    const float shift = -rstd * mean;
    float* row = rows + r * columns;
    for (int64_t c = 0; c < columns; ++c)
      row[c] = fused_multiply_add(fused_multiply_add(row[c], rstd, shift), w ? w[c] : 1.0f, b ? b[c] : 0.0f);
    mean_out[r] = mean;
    rstd_out[r] = rstd;
  }
  round_from_float(rows, out, kRows * columns);
}

template <typename T, int64_t kRows>
KILN_AVX2_FMA_TARGET void layer_norm_rows_fma(const T* x, const T* w, const T* b, T eps, int64_t columns, T* out, T* mean, T* rstd) {
  layer_norm_rows_in_order<T, kRows>(x, w, b, eps, columns, out, mean, rstd);
}

// Rows of float or double layer_norm, two at a time (see rowwise_moments).
template <typename T>
void layer_norm_rows(const T* x, const T* w, const T* b, T eps, int64_t rows, int64_t columns, T* out, T* mean, T* rstd) {
  int64_t r = 0;
  for (; r + 2 <= rows; r += 2) {
    if (cpu_has_avx2_fma()) layer_norm_rows_fma<T, 2>(x + r * columns, w, b, eps, columns, out + r * columns, mean + r, rstd + r);
    else layer_norm_rows_in_order<T, 2>(x + r * columns, w, b, eps, columns, out + r * columns, mean + r, rstd + r);
  }
  if (r < rows) {
    if (cpu_has_avx2_fma()) layer_norm_rows_fma<T, 1>(x + r * columns, w, b, eps, columns, out + r * columns, mean + r, rstd + r);
    else layer_norm_rows_in_order<T, 1>(x + r * columns, w, b, eps, columns, out + r * columns, mean + r, rstd + r);
  }
}

template <typename T, int64_t kRows>
KILN_AVX2_FMA_TARGET void reduced_float_layer_norm_rows_fma(float* rows, const float* w, const float* b, float eps, int64_t columns, T* out,
                                                            float* mean, float* rstd) {
  reduced_float_layer_norm_rows_in_order<T, kRows>(rows, w, b, eps, columns, out, mean, rstd);
}

template <typename T, int64_t kRows>
void reduced_float_layer_norm_rows(float* rows, const float* w, const float* b, float eps, int64_t columns, T* out, float* mean,
                                   float* rstd) {
  if (cpu_has_avx2_fma()) return reduced_float_layer_norm_rows_fma<T, kRows>(rows, w, b, eps, columns, out, mean, rstd);
  reduced_float_layer_norm_rows_in_order<T, kRows>(rows, w, b, eps, columns, out, mean, rstd);
}

// batch_norm's output planes [begin, end) (plane i is channel i % channels of a contiguous
// [N, C, spatial] input) as ATen's batch_norm_cpu_contiguous_impl: input * alpha + beta per
// channel, which its build fuses into one multiply-add (checked bit for bit against PyTorch 2.11).
template <typename T>
KILN_INLINE_INTO_CLONES void scale_shift_planes(const T* in, T* out, int64_t begin, int64_t end, int64_t channels, int64_t plane,
                                                const T* alpha, const T* beta) {
  for (int64_t i = begin; i < end; ++i) {
    const T a = alpha[i % channels], b = beta[i % channels];
    const T* x = in + i * plane;
    T* y = out + i * plane;
    for (int64_t d = 0; d < plane; ++d) y[d] = fused_multiply_add(x[d], a, b);
  }
}

template <typename T>
KILN_AVX2_FMA_TARGET void scale_shift_planes_fma(const T* in, T* out, int64_t begin, int64_t end, int64_t channels, int64_t plane,
                                                 const T* alpha, const T* beta) {
  scale_shift_planes(in, out, begin, end, channels, plane, alpha, beta);
}

template <typename T>
void scale_shift_plane_range(const T* in, T* out, int64_t begin, int64_t end, int64_t channels, int64_t plane, const T* alpha,
                             const T* beta) {
  if (cpu_has_avx2_fma()) return scale_shift_planes_fma(in, out, begin, end, channels, plane, alpha, beta);
  scale_shift_planes(in, out, begin, end, channels, plane, alpha, beta);
}

// batch_norm with running statistics as one kernel where nothing needs the composition (no
// autograd, no tracer, real contiguous floating tensors of one dtype); empty otherwise. Half and
// bfloat16 compute in float: each plane widened, scaled and shifted, rounded once.
Tensor batch_norm_inference(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                            const Tensor& running_var, double eps) {
  if (is_recording_calls() || input.device().type != tensor::DeviceType::CPU || !input.is_contiguous()) return Tensor();
  if (!tensor::is_floating_point(input.dtype())) return Tensor();
  for (const Tensor* t : {&input, &weight, &bias, &running_mean, &running_var}) {
    if (!t->defined()) continue;
    if (t->device().type != tensor::DeviceType::CPU || t->dtype() != input.dtype()) return Tensor();
    if (GradMode::is_enabled() && t->requires_grad()) return Tensor();
  }
  const int64_t channels = input.sizes()[1];
  const int64_t plane = channels == 0 ? 0 : input.numel() / (input.sizes()[0] * channels);
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  if (input.numel() == 0) return out;
  visit_floating_dtype(input.dtype(), "batch_norm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const Tensor mean = tensor::contiguous(running_mean), var = tensor::contiguous(running_var);
    const Tensor w = weight.defined() ? tensor::contiguous(weight) : Tensor();
    const Tensor b = bias.defined() ? tensor::contiguous(bias) : Tensor();
    const auto parameter = [](const Tensor& t, int64_t c, C absent) { return t.defined() ? static_cast<C>(t.data_ptr<T>()[c]) : absent; };
    std::vector<C> alpha(static_cast<size_t>(channels)), beta(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
      const C invstd = C(1) / std::sqrt(parameter(var, c, C(0)) + static_cast<C>(eps));
      alpha[c] = invstd * parameter(w, c, C(1));
      // bias - mean * alpha, fused as ATen's build fuses it.
      beta[c] = std::fma(-parameter(mean, c, C(0)), alpha[c], parameter(b, c, C(0)));
    }
    const T* in = input.data_ptr<T>();
    T* o = out.data_ptr<T>();
    const int64_t grain = std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(plane, 1));
    tensor::parallel_for(0, input.sizes()[0] * channels, grain, [&](int64_t begin, int64_t end) {
      if constexpr (std::is_same_v<T, tensor::BFloat16>) {
        if (cpu_has_avx512()) {
          // One pass per plane, the conversions in registers (widening, multiply-adding and
          // rounding through float arrays took three).
          for (int64_t i = begin; i < end; ++i) {
            const float a = alpha[i % channels], b = beta[i % channels];
            bfloat16_unary_avx512(reinterpret_cast<uint16_t*>(o + i * plane), reinterpret_cast<const uint16_t*>(in + i * plane), plane,
                                  [a, b](float x) { return std::fma(x, a, b); });
          }
          return;
        }
      }
      if constexpr (tensor::kIsReducedFloat<T>) {
        std::vector<float> wide(static_cast<size_t>(plane));
        for (int64_t i = begin; i < end; ++i) {
          const int64_t c = i % channels;
          widen_to_float(in + i * plane, wide.data(), plane);
          scale_shift_plane_range(wide.data(), wide.data(), 0, 1, 1, plane, &alpha[c], &beta[c]);
          round_from_float(wide.data(), o + i * plane, plane);
        }
      } else {
        scale_shift_plane_range(in, o, begin, end, channels, plane, alpha.data(), beta.data());
      }
    });
  });
  return out;
}

}  // namespace

std::vector<Tensor> kernel_native_layer_norm(const Arguments& args) {
  std::vector<Tensor> outputs = allocate_outputs(meta_native_layer_norm(args));
  const Tensor input = tensor::contiguous(args.tensor(0));
  check_floating(input);
  const auto [rows, columns] = rows_and_columns(input, args.int_list(1));
  // Half and bfloat16 rows are normalized in float (ATen's opmath type), with float weights.
  const tensor::DType compute = tensor::is_reduced_floating_point(input.dtype()) ? tensor::DType::Float32 : input.dtype();
  const Tensor weight = args.optional_tensor(2), bias = args.optional_tensor(3);
  const Tensor w = weight.defined() ? tensor::contiguous(tensor::to_dtype(weight, compute)) : Tensor();
  const Tensor b = bias.defined() ? tensor::contiguous(tensor::to_dtype(bias, compute)) : Tensor();
  const double eps = args.float_value(4);
  visit_floating_dtype(input.dtype(), "LayerNormKernelImpl", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* x = input.data_ptr<T>();
    const C* wp = w.defined() ? w.data_ptr<C>() : nullptr;
    const C* bp = b.defined() ? b.data_ptr<C>() : nullptr;
    T* out = outputs[0].data_ptr<T>();
    T* mean_out = outputs[1].data_ptr<T>();
    T* rstd_out = outputs[2].data_ptr<T>();
    tensor::parallel_for(0, rows, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(columns, 1)), [&](int64_t begin, int64_t end) {
      if constexpr (tensor::kIsReducedFloat<T>) {
        // Two rows at a time (see rowwise_moments), widened into `widened`.
        std::vector<float> widened(static_cast<size_t>(2 * columns));
        for (int64_t r = begin; r < end; r += 2) {
          const int64_t count = std::min<int64_t>(2, end - r);
          std::array<float, 2> mean, rstd;
          widen_to_float(x + r * columns, widened.data(), count * columns);
          T* out_rows = out + r * columns;
          if (count == 2)
            reduced_float_layer_norm_rows<T, 2>(widened.data(), wp, bp, static_cast<float>(eps), columns, out_rows, mean.data(), rstd.data());
          else
            reduced_float_layer_norm_rows<T, 1>(widened.data(), wp, bp, static_cast<float>(eps), columns, out_rows, mean.data(), rstd.data());
          for (int64_t i = 0; i < count; ++i) {
            mean_out[r + i] = static_cast<T>(mean[i]);
            rstd_out[r + i] = static_cast<T>(rstd[i]);
          }
        }
      } else {
        layer_norm_rows(x + begin * columns, wp, bp, static_cast<T>(eps), end - begin, columns, out + begin * columns, mean_out + begin,
                        rstd_out + begin);
      }
    });
  });
  return outputs;
}

std::vector<Tensor> kernel_native_layer_norm_backward(const Arguments& args) {
  const Tensor grad = tensor::contiguous(args.tensor(0));
  const Tensor input = tensor::contiguous(args.tensor(1));
  const auto [rows, columns] = rows_and_columns(input, args.int_list(2));
  const Tensor mean = tensor::contiguous(args.tensor(3)), rstd = tensor::contiguous(args.tensor(4));
  const Tensor weight = args.optional_tensor(5);
  const auto& mask = args[7].to_bool_list();
  // The weight may be float32 beside a half or bfloat16 input (CPU autocast leaves layer_norm's
  // parameters alone): read in double, its gradients made in its own dtype.
  const Tensor w = weight.defined() ? tensor::contiguous(tensor::to_dtype(weight, tensor::DType::Float64)) : Tensor();
  const double* wp = w.defined() ? w.data_ptr<double>() : nullptr;
  Tensor grad_input = mask[0] ? Tensor::empty(input.sizes(), input.dtype()) : Tensor();
  std::vector<double> dweight(columns, 0.0), dbias(columns, 0.0);
  tensor::visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* g = grad.data_ptr<T>();
    const T* x = input.data_ptr<T>();
    const T* m = mean.data_ptr<T>();
    const T* s = rstd.data_ptr<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const double mu = static_cast<double>(m[r]), rs = static_cast<double>(s[r]);
      double sum_g = 0, sum_g_xhat = 0;
      for (int64_t c = 0; c < columns; ++c) {
        const double gv = static_cast<double>(g[r * columns + c]);
        const double xhat = (static_cast<double>(x[r * columns + c]) - mu) * rs;
        const double gw = wp ? gv * wp[c] : gv;
        sum_g += gw;
        sum_g_xhat += gw * xhat;
        dweight[c] += gv * xhat;
        dbias[c] += gv;
      }
      if (!grad_input.defined()) continue;
      T* gi = grad_input.data_ptr<T>() + r * columns;
      for (int64_t c = 0; c < columns; ++c) {
        const double gv = static_cast<double>(g[r * columns + c]);
        const double gw = wp ? gv * wp[c] : gv;
        const double xhat = (static_cast<double>(x[r * columns + c]) - mu) * rs;
        gi[c] = static_cast<T>(rs * (gw - sum_g / columns - xhat * sum_g_xhat / columns));
      }
    }
  });
  Tensor grad_weight = mask[1] && weight.defined() ? tensor::tensor_from_values(dweight, weight.sizes(), weight.dtype()) : Tensor();
  const Tensor bias = args.optional_tensor(6);
  Tensor grad_bias = mask[2] && bias.defined() ? tensor::tensor_from_values(dbias, bias.sizes(), bias.dtype()) : Tensor();
  return {grad_input, grad_weight, grad_bias};
}

// batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
// statistics per channel (dim 1) over the batch and the spatial dims, composed of table ops (so
// autograd and AOT record those). In training, the running statistics move toward the batch's:
// the mean, and the unbiased variance, by `momentum`.
std::vector<Tensor> kernel_batch_norm(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const Tensor weight = args.optional_tensor(1), bias = args.optional_tensor(2);
  const Tensor running_mean = args.optional_tensor(3), running_var = args.optional_tensor(4);
  const bool training = args.bool_value(5);
  const double momentum = args.float_value(6), eps = args.float_value(7);
  if (input.dim() < 2)
    tensor::throw_runtime_error("batch_norm: expected a tensor with a channel dim (dim 1), but got input of size " +
                                tensor::sizes_text(input.sizes()));
  const int64_t channels = input.sizes()[1];
  const std::pair<const char*, const Tensor*> per_channel_arguments[] = {
      {"weight", &weight}, {"bias", &bias}, {"running_mean", &running_mean}, {"running_var", &running_var}};
  for (const auto& [name, t] : per_channel_arguments)
    if (t->defined() && t->numel() != channels)
      tensor::throw_runtime_error(std::string(name) + " should contain " + std::to_string(channels) + " elements not " +
                                  std::to_string(t->numel()));
  // Per-channel values shaped to broadcast against the input: [C, 1, 1, ...].
  std::vector<int64_t> channel_shape(input.dim() - 1, 1);
  channel_shape[0] = channels;
  const auto per_channel = [&](const Tensor& t) { return ops::view(t, channel_shape); };
  std::vector<int64_t> reduced{0};
  for (int64_t d = 2; d < input.dim(); ++d) reduced.push_back(d);
  Tensor mean_value, var_value;
  if (training || !running_mean.defined()) {
    mean_value = ops::mean(input, reduced, true);
    var_value = ops::var(input, reduced, Scalar(0), true);
    if (training && running_mean.defined()) {
      const int64_t count = input.numel() / std::max<int64_t>(channels, 1);
      const Tensor batch_mean = ops::view(ops::detach(mean_value), {channels});
      const Tensor batch_var = ops::view(ops::detach(var_value), {channels});
      ops::mul_(running_mean, 1.0 - momentum);
      ops::add_(running_mean, batch_mean, momentum);
      ops::mul_(running_var, 1.0 - momentum);
      ops::add_(running_var, batch_var, momentum * static_cast<double>(count) / static_cast<double>(std::max<int64_t>(count - 1, 1)));
    }
  } else {
    if (Tensor out = batch_norm_inference(input, weight, bias, running_mean, running_var, eps); out.defined()) return {out};
    mean_value = per_channel(running_mean);
    var_value = per_channel(running_var);
  }
  Tensor out = ops::mul(ops::sub(input, mean_value), ops::rsqrt(ops::add(var_value, Scalar(eps))));
  if (weight.defined()) out = ops::mul(out, per_channel(weight));
  if (bias.defined()) out = ops::add(out, per_channel(bias));
  // A half or bfloat16 input with float32 statistics and parameters (a model under autocast, whose
  // BatchNorm keeps float32 ones) gives its own dtype, as ATen's mixed-type kernels do.
  if (out.dtype() != input.dtype() && tensor::is_reduced_floating_point(input.dtype())) out = ops::to_dtype(out, input.dtype());
  return {out};
}

// group_norm(input, num_groups, weight, bias, eps, cudnn_enabled): statistics over each sample's
// group of channels (and their spatial dims), composed of table ops; weight and bias per channel.
std::vector<Tensor> kernel_group_norm(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const int64_t groups = args.int_value(1);
  const Tensor weight = args.optional_tensor(2), bias = args.optional_tensor(3);
  const double eps = args.float_value(4);
  if (input.dim() < 2 || groups <= 0 || input.sizes()[1] % groups != 0)
    tensor::throw_runtime_error("Expected number of channels in input to be divisible by num_groups, but got input of shape " +
                                tensor::sizes_text(input.sizes()) + " and num_groups=" + std::to_string(groups));
  const int64_t batch = input.sizes()[0], channels = input.sizes()[1];
  for (const auto& [name, t] : {std::pair<const char*, const Tensor*>{"weight", &weight}, {"bias", &bias}})
    if (t->defined() && t->numel() != channels)
      tensor::throw_runtime_error(std::string("Expected ") + name + " to be a vector of size equal to the number of channels in input, but got " +
                                  name + " of shape " + tensor::sizes_text(t->sizes()) + " and input of shape " +
                                  tensor::sizes_text(input.sizes()));
  const Tensor grouped = ops::reshape(input, {batch, groups, -1});
  const Tensor mean_value = ops::mean(grouped, {2}, true);
  const Tensor var_value = ops::var(grouped, std::vector<int64_t>{2}, Scalar(0), true);
  Tensor out = ops::reshape(ops::mul(ops::sub(grouped, mean_value), ops::rsqrt(ops::add(var_value, Scalar(eps)))), input.sizes());
  std::vector<int64_t> channel_shape(input.dim() - 1, 1);
  channel_shape[0] = channels;
  if (weight.defined()) out = ops::mul(out, ops::view(weight, channel_shape));
  if (bias.defined()) out = ops::add(out, ops::view(bias, channel_shape));
  return {out};
}

std::vector<Tensor> kernel_layer_norm(const Arguments& args) {
  return {std::get<0>(native_layer_norm(args.tensor(0), args.int_list(1), args.optional_tensor(2),
                                        args.optional_tensor(3), args.float_value(4)))};
}

}  // namespace kiln::ops
