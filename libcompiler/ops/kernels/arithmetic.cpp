// Binary arithmetic, comparison and logical kernels, where, clamp, the pointwise *_backward ops
// and the optimizer's in-place updates. Inputs are cast to the promoted dtype first, as
// TensorIterator does, and every loop goes through elementwise.h's fast paths.
#include <cmath>
#include <limits>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/pointwise_math.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/op_table.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

using tensor::DType;
using tensor::throw_runtime_error;

// out (of the op's result dtype) = op(a, b), computed in `compute`. make_op(TypeTag<T>) returns
// the elementwise function on opmath_t<T>.
template <typename MakeOp>
void binary_into(const Tensor& out, const IValue& a, const IValue& b, DType compute, const MakeOp& make_op) {
  const Tensor ta = operand_as(a, compute), tb = operand_as(b, compute);
  const Tensor target = out.dtype() == compute ? out : Tensor::empty(out.sizes(), compute, out.device());
  tensor::visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_loop<T, T>(target, ta, tb, make_op(tag));
  });
  if (!target.is_same(out)) tensor::copy_elements(out, target);
}

// Self for the in-place overloads (after their checks), else a fresh result.
Tensor output_of(const Arguments& args, MetaFunction out_of_place_meta) {
  if (!args.schema().is_inplace()) return allocate_outputs(out_of_place_meta(args))[0];
  meta_inplace_binary(args);
  return args.tensor(0);
}

// A binary op whose result has the promoted dtype (or `self`'s for the in-place overloads).
template <typename MakeOp>
std::vector<Tensor> arithmetic(const Arguments& args, const MakeOp& make_op) {
  const Tensor out = output_of(args, meta_binary_arithmetic);
  binary_into(out, args[0], args[1], result_type(args[0], args[1]), make_op);
  return {out};
}

template <typename MakeOp>
std::vector<Tensor> comparison(const Arguments& args, const MakeOp& make_op) {
  const Tensor out = allocate_outputs(meta_comparison(args))[0];
  const DType compute = result_type(args[0], args[1]);
  const Tensor a = operand_as(args[0], compute), b = operand_as(args[1], compute);
  tensor::visit_dtype(compute, [&](auto tag) {
    using T = typename decltype(tag)::type;
    binary_loop<bool, T>(out, a, b, make_op(tag));
  });
  return {out};
}

template <typename C>
C floor_divide_value(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (b == 0) return a / b;
    const C mod = std::fmod(a, b);
    C div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
    if (div == 0) return std::copysign(C(0), a / b);
    C floored = std::floor(div);
    if (div - floored > C(0.5)) floored += 1;
    return floored;
  } else {
    C q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
    return q;
  }
}

// Whether any element of an integer operand (tensor or number) satisfies `test`; a serial scan,
// run before integer kernels that must raise instead of trapping or wrapping.
template <typename Test>
bool any_integer(const IValue& operand, const Test& test) {
  const Tensor values = tensor::contiguous(operand_as(operand, DType::Int64));
  const int64_t* p = values.data_ptr<int64_t>();
  for (int64_t i = 0; i < values.numel(); ++i)
    if (test(p[i])) return true;
  return false;
}

// Integer division by zero raises instead of trapping.
void check_integer_divisor(const IValue& divisor, DType compute) {
  if (tensor::is_floating_point(compute)) return;
  if (any_integer(divisor, [](int64_t v) { return v == 0; })) throw_runtime_error("ZeroDivisionError");
}

template <typename T>
T integer_power(T base, T exponent) {
  T result = 1;
  while (exponent > 0) {
    if (exponent & 1) result = static_cast<T>(result * base);
    exponent >>= 1;
    base = static_cast<T>(base * base);
  }
  return result;
}

}  // namespace

namespace {

// x + alpha * y as ATen's add kernel computes it: floating ones as one fused multiply-add
// (its vectorised add is fmadd(y, alpha, x)), x + y itself where alpha is 1 (the same bits).
// sub and rsub are adds with -alpha. alpha is first rounded to the tensors' dtype (a bfloat16
// add's alpha is a bfloat16), as ATen reads it.
template <typename T>
opmath_t<T> alpha_of(const Scalar& alpha) {
  return static_cast<opmath_t<T>>(alpha.to<T>());
}

template <typename C>
auto add_scaled(C alpha) {
  if constexpr (std::is_same_v<C, bool>) {
    return [alpha](C x, C y) -> C { return x || (alpha && y); };
  } else if constexpr (std::is_floating_point_v<C>) {
    return [alpha, unscaled = alpha == C(1)](C x, C y) -> C { return unscaled ? x + y : std::fma(alpha, y, x); };
  } else {
    return [alpha](C x, C y) -> C { return static_cast<C>(x + alpha * y); };
  }
}

}  // namespace

std::vector<Tensor> kernel_add(const Arguments& args) {
  const Scalar alpha = args.scalar(2);
  return arithmetic(args, [&](auto tag) { return add_scaled(alpha_of<typename decltype(tag)::type>(alpha)); });
}

std::vector<Tensor> kernel_sub(const Arguments& args) {
  const Scalar alpha = args.scalar(2);
  return arithmetic(args, [&](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    const C a = alpha_of<typename decltype(tag)::type>(alpha);
    if constexpr (std::is_floating_point_v<C>) return add_scaled(static_cast<C>(-a));
    else return [a](C x, C y) -> C { return static_cast<C>(x - a * y); };
  });
}

std::vector<Tensor> kernel_rsub(const Arguments& args) {
  const Scalar alpha = args.scalar(2);
  return arithmetic(args, [&](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    const C a = alpha_of<typename decltype(tag)::type>(alpha);
    if constexpr (std::is_floating_point_v<C>) {
      const auto subtract = add_scaled(static_cast<C>(-a));
      return [subtract](C x, C y) -> C { return subtract(y, x); };
    } else {
      return [a](C x, C y) -> C { return static_cast<C>(y - a * x); };
    }
  });
}

std::vector<Tensor> kernel_mul(const Arguments& args) {
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    if constexpr (std::is_same_v<C, bool>) return [](C x, C y) -> C { return x && y; };
    else return [](C x, C y) -> C { return static_cast<C>(x * y); };
  });
}

std::vector<Tensor> kernel_div(const Arguments& args) {
  const bool has_mode = args.schema().argument_index("rounding_mode").has_value();
  const auto mode = has_mode ? args.optional_string(2) : std::nullopt;
  const Tensor out = output_of(args, has_mode ? meta_div_mode : meta_binary_float);
  const DType common = result_type(args[0], args[1]);
  if (!mode) {
    const DType compute = tensor::is_floating_point(common) ? common : tensor::default_float_dtype();
    binary_into(out, args[0], args[1], compute, [](auto tag) {
      using C = opmath_t<typename decltype(tag)::type>;
      return [](C x, C y) -> C { return static_cast<C>(x / y); };
    });
    return {out};
  }
  check_integer_divisor(args[1], common);
  const bool floor = *mode == "floor";
  binary_into(out, args[0], args[1], common, [floor](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [floor](C x, C y) -> C {
      if constexpr (std::is_same_v<C, bool>) {
        (void)floor;  // bool division ignores the rounding mode
        return x && y;
      } else if constexpr (std::is_floating_point_v<C>) {
        return floor ? floor_divide_value(x, y) : std::trunc(x / y);
      } else {
        return floor ? floor_divide_value(x, y) : static_cast<C>(x / y);
      }
    };
  });
  return {out};
}

std::vector<Tensor> kernel_floor_divide(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (common == DType::Bool) throw_not_implemented_for("div_floor_cpu", common);
  check_integer_divisor(args[1], common);
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_same_v<C, bool>) return x;
      else return floor_divide_value(x, y);
    };
  });
}

// x * log(y), 0 where x is 0 (even for y 0 or inf), NaN where y is NaN.
std::vector<Tensor> kernel_xlogy(const Arguments& args) {
  const Tensor out = output_of(args, meta_binary_float);
  const DType common = result_type(args[0], args[1]);
  const DType compute = tensor::is_floating_point(common) ? common : tensor::default_float_dtype();
  binary_into(out, args[0], args[1], compute, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(y)) return y;
        return x == C(0) ? C(0) : static_cast<C>(x * std::log(y));
      } else {
        return static_cast<C>(x == C(0) ? 0 : x * std::log(static_cast<double>(y)));
      }
    };
  });
  return {out};
}

std::vector<Tensor> kernel_remainder(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (common == DType::Bool) throw_not_implemented_for("remainder_cpu", common);
  check_integer_divisor(args[1], common);
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_same_v<C, bool>) {
        return x;
      } else if constexpr (std::is_floating_point_v<C>) {
        C mod = std::fmod(x, y);
        if (mod != 0 && ((y < 0) != (mod < 0))) mod += y;
        return mod;
      } else {
        C mod = static_cast<C>(x % y);
        if (mod != 0 && ((y < 0) != (mod < 0))) mod = static_cast<C>(mod + y);
        return mod;
      }
    };
  });
}

// C's fmod: the remainder has the sign of the dividend (remainder's has the divisor's).
std::vector<Tensor> kernel_fmod(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (common == DType::Bool) throw_not_implemented_for("fmod_cpu", common);
  check_integer_divisor(args[1], common);
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_same_v<C, bool>) return x;
      else if constexpr (std::is_floating_point_v<C>) return std::fmod(x, y);
      else return static_cast<C>(x % y);
    };
  });
}

std::vector<Tensor> kernel_atan2(const Arguments& args) {
  const Tensor out = output_of(args, meta_binary_float);
  const DType common = result_type(args[0], args[1]);
  const DType compute = tensor::is_floating_point(common) ? common : tensor::default_float_dtype();
  binary_into(out, args[0], args[1], compute, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C y, C x) -> C {
      if constexpr (std::is_floating_point_v<C>) return std::atan2(y, x);
      else return static_cast<C>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
    };
  });
  return {out};
}

namespace {

// pow by `rule` of the base alone (the exponent operand is a number the rule has built in).
template <typename Rule>
std::vector<Tensor> power_by(const Arguments& args, const Rule& rule) {
  return arithmetic(args, [&rule](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [&rule](C x, C) -> C {
      if constexpr (std::is_floating_point_v<C>) return rule(x);
      else return x;  // not reached: the rules serve floating results only
    };
  });
}

}  // namespace

std::vector<Tensor> kernel_pow(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (!tensor::is_floating_point(common) && common != DType::Bool &&
      any_integer(args[1], [](int64_t e) { return e < 0; }))
    throw_runtime_error("Integers to negative integer powers are not allowed.");
  // A Python number exponent that ATen computes without pow (pow_tensor_scalar_optimized_kernel):
  // multiplications and square roots, the same bits as PyTorch's and many times faster. (Half and
  // bfloat16 round between ATen's steps; they keep std::pow, but for squares: x * x of one in
  // float32 is exact, as pow's is.)
  if (tensor::is_reduced_floating_point(common) && args[0].is_tensor() && args[1].is_number() &&
      args[1].to_double() == 2)
    return power_by(args, [](auto x) { return x * x; });
  if ((common == DType::Float32 || common == DType::Float64) && args[0].is_tensor() && args[1].is_number()) {
    const double e = args[1].to_double();
    if (e == 2) return power_by(args, [](auto x) { return x * x; });
    if (e == 3) return power_by(args, [](auto x) { return x * x * x; });
    if (e == 0.5) return power_by(args, [](auto x) { return std::sqrt(x); });
    if (e == -0.5) return power_by(args, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
    if (e == -1) return power_by(args, [](auto x) { return decltype(x)(1) / x; });
    if (e == -2) return power_by(args, [](auto x) { return decltype(x)(1) / (x * x); });
  }
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_same_v<C, bool>) return x || !y;
      else if constexpr (std::is_floating_point_v<C>) return std::pow(x, y);
      else return integer_power(x, y);
    };
  });
}

std::vector<Tensor> kernel_maximum(const Arguments& args) {
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (x != x || y != y) return std::numeric_limits<C>::quiet_NaN();
      }
      return x > y ? x : y;
    };
  });
}

std::vector<Tensor> kernel_minimum(const Arguments& args) {
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C x, C y) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        if (x != x || y != y) return std::numeric_limits<C>::quiet_NaN();
      }
      return x < y ? x : y;
    };
  });
}

#define KILN_COMPARISON_KERNEL(name, expression)                  \
  std::vector<Tensor> kernel_##name(const Arguments& args) {      \
    return comparison(args, [](auto tag) {                        \
      using C = opmath_t<typename decltype(tag)::type>;           \
      return [](C x, C y) -> bool { return expression; };         \
    });                                                           \
  }
KILN_COMPARISON_KERNEL(eq, x == y)
KILN_COMPARISON_KERNEL(ne, x != y)
KILN_COMPARISON_KERNEL(lt, x < y)
KILN_COMPARISON_KERNEL(le, x <= y)
KILN_COMPARISON_KERNEL(gt, x > y)
KILN_COMPARISON_KERNEL(ge, x >= y)
KILN_COMPARISON_KERNEL(logical_and, x != C(0) && y != C(0))
KILN_COMPARISON_KERNEL(logical_or, x != C(0) || y != C(0))
KILN_COMPARISON_KERNEL(logical_xor, (x != C(0)) != (y != C(0)))
#undef KILN_COMPARISON_KERNEL

namespace {

// What where and masked_fill select, per element: the bits themselves for half and bfloat16 (no
// trip through float, which would also rewrite a NaN's payload), as ATen copies them.
template <typename T>
using selected_t = std::conditional_t<tensor::kIsReducedFloat<T>, uint16_t, T>;

}  // namespace

std::vector<Tensor> kernel_where(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_where(args))[0];
  const Tensor a = operand_as(args[1], out.dtype()), b = operand_as(args[2], out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using S = selected_t<typename decltype(tag)::type>;
    using C = opmath_t<S>;
    ternary_loop<S, bool, S>(out, args.tensor(0), a, b, [](bool c, C x, C y) { return c ? x : y; });
  });
  return {out};
}

// masked_fill(self, mask, value) and masked_fill_: the value, cast to self's dtype, where the mask
// is set. In place the output is self itself, read and written at the same positions.
std::vector<Tensor> kernel_masked_fill(const Arguments& args) {
  const bool inplace = args.schema().is_inplace();
  if (inplace) meta_inplace_masked_fill(args);
  const Tensor out = inplace ? args.tensor(0) : allocate_outputs(meta_masked_fill(args))[0];
  const Tensor self = args.tensor(0), value = operand_as(args[2], out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using S = selected_t<typename decltype(tag)::type>;
    using C = opmath_t<S>;
    ternary_loop<S, bool, S>(out, args.tensor(1), value, self, [](bool c, C v, C x) { return c ? v : x; });
  });
  return {out};
}

namespace {

// out = self clamped to [lo, hi] (either bound absent), NaN kept.
std::vector<Tensor> clamped(const Tensor& out, const IValue& self_value, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  const Tensor self = operand_as(self_value, out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const bool has_lo = lo.has_value(), has_hi = hi.has_value();
    const C low = has_lo ? lo->to<C>() : C(0), high = has_hi ? hi->to<C>() : C(0);
    // Selects without branches, so that the loop vectorises; NaN compares false and stays NaN.
    unary_loop<T, T>(out, self, [=](C x) -> C {
      const C y = has_lo && x < low ? low : x;
      return has_hi && y > high ? high : y;
    });
  });
  return {out};
}

// Where a clamp writes: a new tensor as `meta` lays it out, or, for the in-place forms, self once
// the out-of-place result type casts to self's dtype (PyTorch's error otherwise).
Tensor clamp_output(const Arguments& args, MetaFunction meta) {
  if (!args.schema().is_inplace()) return allocate_outputs(meta(args))[0];
  size_generic::check_inplace_cast(meta(args)[0].dtype, args.tensor(0).dtype());
  return args.tensor(0);
}

}  // namespace

std::vector<Tensor> kernel_clamp(const Arguments& args) {
  return clamped(clamp_output(args, meta_clamp), args[0], args.optional_scalar(1), args.optional_scalar(2));
}

std::vector<Tensor> kernel_clamp_min(const Arguments& args) {
  return clamped(clamp_output(args, meta_binary_arithmetic), args[0], args.scalar(1), std::nullopt);
}

std::vector<Tensor> kernel_clamp_max(const Arguments& args) {
  return clamped(clamp_output(args, meta_binary_arithmetic), args[0], std::nullopt, args.scalar(1));
}

std::vector<Tensor> kernel_fma(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_fma(args))[0];
  const Tensor a = operand_as(args[0], out.dtype()), b = operand_as(args[1], out.dtype()), c = operand_as(args[2], out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    ternary_loop<T, T, T>(out, a, b, c, [](C x, C y, C z) -> C {
      if constexpr (std::is_floating_point_v<C>) return std::fma(x, y, z);
      else return static_cast<C>(x * y + z);
    });
  });
  return {out};
}

std::vector<Tensor> kernel_threshold_backward(const Arguments& args) {
  const Scalar threshold = args.scalar(2);
  return arithmetic(args, [&](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    const C t = threshold.to<C>();
    return [t](C grad, C x) -> C { return x <= t ? C(0) : grad; };
  });
}

std::vector<Tensor> kernel_tanh_backward(const Arguments& args) {
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C grad, C y) -> C { return static_cast<C>(grad * (C(1) - y * y)); };
  });
}

std::vector<Tensor> kernel_sigmoid_backward(const Arguments& args) {
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C grad, C y) -> C { return static_cast<C>(grad * (C(1) - y) * y); };
  });
}

std::vector<Tensor> kernel_leaky_relu_backward(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (!tensor::is_floating_point(common)) throw_not_implemented_for("leaky_relu_backward_cpu", common);
  const double slope = args.scalar(2).to<double>();
  return arithmetic(args, [slope](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [negative_slope = static_cast<C>(slope)](C grad, C x) -> C {
      return x > C(0) ? grad : static_cast<C>(grad * negative_slope);
    };
  });
}

// The softplus derivative: the gradient where beta * x passes the threshold, else grad * z / (z + 1)
// with z = exp(beta * x).
std::vector<Tensor> kernel_softplus_backward(const Arguments& args) {
  const DType common = result_type(args[0], args[1]);
  if (!tensor::is_floating_point(common)) throw_not_implemented_for("softplus_backward_cpu", common);
  const double beta_value = args.scalar(2).to<double>(), threshold_value = args.scalar(3).to<double>();
  return arithmetic(args, [beta_value, threshold_value](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [beta = static_cast<C>(beta_value), threshold = static_cast<C>(threshold_value)](C grad, C x) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        const C z = std::exp(x * beta);
        return x * beta > threshold ? grad : static_cast<C>(grad * z / (z + C(1)));
      } else {
        return grad;
      }
    };
  });
}

// ATen's silu_backward: grad * s * (1 + x * (1 - s)) with s = 1 / (1 + exp(-x)).
std::vector<Tensor> kernel_silu_backward(const Arguments& args) {
  const DType common = result_type({args[0], args[1]});
  if (!tensor::is_floating_point(common)) throw_not_implemented_for("silu_backward_cpu", common);
  return arithmetic(args, [](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [](C grad, C x) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        const C s = C(1) / (C(1) + std::exp(-x));
        return static_cast<C>(grad * s * (C(1) + x * (C(1) - s)));
      } else {
        return grad;
      }
    };
  });
}

std::vector<Tensor> kernel_gelu_backward(const Arguments& args) {
  const bool tanh_approximation = args[2].to_string() == "tanh";
  const DType common = result_type(args[0], args[1]);
  if (!tensor::is_floating_point(common)) throw_not_implemented_for("GeluBackwardKernelImpl", common);
  return arithmetic(args, [tanh_approximation](auto tag) {
    using C = opmath_t<typename decltype(tag)::type>;
    return [tanh_approximation](C grad, C x) -> C {
      if constexpr (std::is_floating_point_v<C>) {
        return grad * gelu_derivative(x, tanh_approximation);
      } else {
        (void)tanh_approximation;  // only instantiated for dtypes the check above rejects
        return grad;
      }
    };
  });
}

// self + value * tensor1 (op) tensor2, into self (addcmul_/addcdiv_) or a new tensor of the three
// operands' broadcast shape and promoted dtype (addcmul/addcdiv); `combine(self, value, t1, t2)`
// rounds as ATen's kernel does.
template <typename Combine>
std::vector<Tensor> pointwise_accumulate(const Arguments& args, const Combine& combine) {
  const bool inplace = args.schema().is_inplace();
  const Tensor out = inplace ? args.tensor(0) : allocate_outputs(meta_fma(args))[0];
  if (inplace) meta_inplace_ternary(args);
  const Scalar value = args.scalar(3);
  const Tensor self = operand_as(args[0], out.dtype());
  const Tensor t1 = operand_as(args[1], out.dtype()), t2 = operand_as(args[2], out.dtype());
  tensor::visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const C v = value.to<C>();
    ternary_loop<T, T, T>(out, self, t1, t2, [v, &combine](C s, C a, C b) -> C { return static_cast<C>(combine(s, v, a, b)); });
  });
  return {out};
}

// ATen's vectorized kernel multiplies value by tensor1 and fuses the rest into one multiply-add.
std::vector<Tensor> kernel_addcmul(const Arguments& args) {
  return pointwise_accumulate(args, [](auto s, auto v, auto a, auto b) {
    if constexpr (std::is_floating_point_v<decltype(s)>) return std::fma(v * a, b, s);
    else return s + v * a * b;
  });
}

std::vector<Tensor> kernel_addcdiv(const Arguments& args) {
  if (!tensor::is_floating_point(args.tensor(1).dtype()) && !tensor::is_floating_point(args.tensor(2).dtype()))
    throw_runtime_error(
        "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a true "
        "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
        "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
        "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
        "* tensor1 / tensor2), for all dtypes.");
  return pointwise_accumulate(args, [](auto s, auto v, auto a, auto b) { return s + v * a / b; });
}

std::vector<Tensor> kernel_lerp_(const Arguments& args) {
  meta_inplace_binary(args);
  const Tensor& self = args.tensor(0);
  if (args.tensor(1).dtype() != self.dtype())
    throw_runtime_error("expected dtype " + std::string(tensor::scalar_type_name(self.dtype())) +
                        " for `end` but got dtype " + std::string(tensor::scalar_type_name(args.tensor(1).dtype())));
  const Scalar weight = args.scalar(2);
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (!std::is_floating_point_v<C>) {
      throw_not_implemented_for("lerp_kernel_scalar", self.dtype());
    } else {
      const C w = weight.to<C>();
      // ATen's lerp: from the end closer to the weight, as one fused multiply-add (its vectorized
      // kernel's fmadd): start + w (end - start), or end + (w - 1) (end - start).
      const bool from_start = std::abs(w) < C(0.5);
      const C coefficient = from_start ? w : w - C(1);
      binary_loop<T, T>(self, self, args.tensor(1), [from_start, coefficient](C start, C end) -> C {
        return std::fma(coefficient, end - start, from_start ? start : end);
      });
    }
  });
  return {self};
}

}  // namespace kiln::ops
