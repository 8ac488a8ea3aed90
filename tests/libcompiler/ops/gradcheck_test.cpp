// Finite-difference gradient checks in float64 for every op of ops.def with a backward formula.
// The test walks the table: an op with a formula and no sample here fails, so a new formula
// cannot go unchecked, and a sample of an op without a formula fails too.
#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <tuple>

#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/tensor/cpu_generator.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

namespace {

struct GradSample {
  std::vector<Tensor> inputs;  // float64 leaves; the gradient is checked with respect to each
  std::function<std::vector<Tensor>(const std::vector<Tensor>&)> fn;
};

std::mt19937& rng() {
  static std::mt19937 engine(1234);
  return engine;
}

// A float64 tensor of uniform values in [low, high).
Tensor random(const Shape& sizes, double low = -1.0, double high = 1.0) {
  std::uniform_real_distribution<double> uniform(low, high);
  std::vector<double> data(static_cast<size_t>(tensor::numel_of(sizes)));
  for (double& v : data) v = uniform(rng());
  return values(data, sizes, DType::Float64);
}

Tensor indices(const std::vector<int64_t>& data, const Shape& sizes) { return tensor::tensor_from_values(data, sizes); }

using Fn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
GradSample sample(std::vector<Tensor> inputs, Fn fn) { return GradSample{std::move(inputs), std::move(fn)}; }

// In-place ops write into a non-leaf copy of their first input.
Tensor writable(const Tensor& t) { return ops::clone(t); }

std::map<std::string, std::function<GradSample()>> samples() {
  std::map<std::string, std::function<GradSample()>> s;
  const auto one = [](OpId id) { return [id](const std::vector<Tensor>& x) { return call(id, {x[0]}); }; };
  s["add.Tensor"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::add_Tensor, {x[0], x[1], 2.5}); }); };
  s["add.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::add_Scalar, {x[0], 1.5, 2}); }); };
  s["add_.Tensor"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::add__Tensor, {writable(x[0]), x[1], -2}); }); };
  s["add_.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::add__Scalar, {writable(x[0]), 3.0}); }); };
  s["sub.Tensor"] = [] { return sample({random({2, 3}), random({2, 1})}, [](auto& x) { return call(OpId::sub_Tensor, {x[0], x[1], 0.5}); }); };
  s["sub.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::sub_Scalar, {x[0], 2}); }); };
  s["rsub.Tensor"] = [] { return sample({random({3}), random({3})}, [](auto& x) { return call(OpId::rsub_Tensor, {x[0], x[1], 3}); }); };
  s["rsub.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::rsub_Scalar, {x[0], 1.0, 2}); }); };
  s["mul.Tensor"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::mul_Tensor, {x[0], x[1]}); }); };
  s["mul.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::mul_Scalar, {x[0], -1.5}); }); };
  s["mul_.Tensor"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::mul__Tensor, {writable(x[0]), x[1]}); }); };
  s["mul_.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::mul__Scalar, {writable(x[0]), 4}); }); };
  s["xlogy.Tensor"] = [] { return sample({random({2, 3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::xlogy_Tensor, {x[0], x[1]}); }); };
  s["div.Tensor"] = [] { return sample({random({2, 3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::div_Tensor, {x[0], x[1]}); }); };
  s["div.Tensor_mode"] = [] { return sample({random({3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::div_Tensor_mode, {x[0], x[1], "floor"}); }); };
  s["div.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::div_Scalar, {x[0], 4.0}); }); };
  s["div.Scalar_mode"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::div_Scalar_mode, {x[0], 0.3, "trunc"}); }); };
  s["div_.Tensor"] = [] { return sample({random({3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::div__Tensor, {writable(x[0]), x[1]}); }); };
  s["div_.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::div__Scalar, {writable(x[0]), -2.0}); }); };
  s["remainder.Tensor"] = [] { return sample({random({4}, 0.1, 0.9), random({4}, 1.1, 1.5)}, [](auto& x) { return call(OpId::remainder_Tensor, {mul(x[0], 3.0), x[1]}); }); };
  s["remainder.Scalar"] = [] { return sample({random({4}, 0.1, 0.9)}, [](auto& x) { return call(OpId::remainder_Scalar, {x[0], 0.95}); }); };
  s["pow.Tensor_Tensor"] = [] { return sample({random({3}, 0.5, 2), random({3})}, [](auto& x) { return call(OpId::pow_Tensor_Tensor, {x[0], x[1]}); }); };
  s["pow.Tensor_Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::pow_Tensor_Scalar, {x[0], 3}); }); };
  s["pow.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::pow_Scalar, {2.5, x[0]}); }); };
  s["maximum"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::maximum, {x[0], x[1]}); }); };
  s["minimum"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::minimum, {x[0], x[1]}); }); };
  s["where.self"] = [] { return sample({random({2, 2}), random({2})}, [](auto& x) { return call(OpId::where_self, {values({1, 0, 0, 1}, {2, 2}, DType::Bool), x[0], x[1]}); }); };
  s["clamp"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp, {x[0], -0.5, 0.5}); }); };
  s["clamp_min"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp_min, {x[0], -0.25}); }); };
  s["clamp_max"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp_max, {x[0], 0.25}); }); };
  s["clamp_"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp_, {writable(x[0]), -0.5, 0.5}); }); };
  s["clamp_min_"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp_min_, {writable(x[0]), -0.25}); }); };
  s["clamp_max_"] = [] { return sample({random({6})}, [](auto& x) { return call(OpId::clamp_max_, {writable(x[0]), 0.25}); }); };
  for (const auto& [name, id] : std::vector<std::pair<std::string, OpId>>{
           {"neg", OpId::neg}, {"abs", OpId::abs}, {"sign", OpId::sign}, {"exp", OpId::exp}, {"sin", OpId::sin},
           {"cos", OpId::cos}, {"tan", OpId::tan}, {"tanh", OpId::tanh}, {"sigmoid", OpId::sigmoid},
           {"erf", OpId::erf}, {"relu", OpId::relu}, {"expm1", OpId::expm1}, {"atan", OpId::atan},
           {"sinh", OpId::sinh}, {"cosh", OpId::cosh}, {"erfc", OpId::erfc}})
    s[name] = [id, one] { return sample({random({2, 3})}, one(id)); };
  for (const auto& [name, id] : std::vector<std::pair<std::string, OpId>>{
           {"log", OpId::log}, {"log1p", OpId::log1p}, {"sqrt", OpId::sqrt}, {"rsqrt", OpId::rsqrt},
           {"log2", OpId::log2}, {"log10", OpId::log10}})
    s[name] = [id, one] { return sample({random({2, 3}, 0.5, 2)}, one(id)); };
  s["asin"] = [one] { return sample({random({2, 3}, -0.9, 0.9)}, one(OpId::asin)); };
  s["acos"] = [one] { return sample({random({2, 3}, -0.9, 0.9)}, one(OpId::acos)); };
  s["erfinv"] = [one] { return sample({random({2, 3}, -0.9, 0.9)}, one(OpId::erfinv)); };
  s["fmod.Tensor"] = [] { return sample({random({4}, 0.1, 0.9), random({4}, 1.1, 1.5)}, [](auto& x) { return call(OpId::fmod_Tensor, {mul(x[0], -3.0), x[1]}); }); };
  s["fmod.Scalar"] = [] { return sample({random({4}, 0.1, 0.9)}, [](auto& x) { return call(OpId::fmod_Scalar, {x[0], 0.35}); }); };
  s["atan2"] = [] { return sample({random({2, 3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::atan2, {x[0], x[1]}); }); };
  s["reciprocal"] = [one] { return sample({random({2, 3}, 0.5, 2)}, one(OpId::reciprocal)); };
  s["round"] = [one] { return sample({random({2, 3})}, one(OpId::round)); };
  s["round.decimals"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::round_decimals, {x[0], 2}); }); };
  s["sub_.Tensor"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::sub__Tensor, {writable(x[0]), x[1], 0.5}); }); };
  s["sub_.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::sub__Scalar, {writable(x[0]), 2.0, 3}); }); };
  s["sqrt_"] = [] { return sample({random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::sqrt_, {writable(x[0])}); }); };
  // The in-place unary ops on a copy of their input (the leaf stays untouched), over the ranges
  // of their out-of-place forms.
  for (const auto& [name, id, low, high] : std::vector<std::tuple<std::string, OpId, double, double>>{
           {"neg_", OpId::neg_, -1, 1}, {"abs_", OpId::abs_, -1, 1}, {"sign_", OpId::sign_, -1, 1}, {"exp_", OpId::exp_, -1, 1},
           {"sin_", OpId::sin_, -1, 1}, {"cos_", OpId::cos_, -1, 1}, {"tanh_", OpId::tanh_, -1, 1}, {"sigmoid_", OpId::sigmoid_, -1, 1},
           {"erf_", OpId::erf_, -1, 1}, {"expm1_", OpId::expm1_, -1, 1}, {"round_", OpId::round_, -1, 1},
           {"log_", OpId::log_, 0.5, 2}, {"log1p_", OpId::log1p_, 0.5, 2}, {"rsqrt_", OpId::rsqrt_, 0.5, 2},
           {"log2_", OpId::log2_, 0.5, 2}, {"reciprocal_", OpId::reciprocal_, 0.5, 2}, {"erfinv_", OpId::erfinv_, -0.9, 0.9}})
    s[name] = [id, low, high] { return sample({random({2, 3}, low, high)}, [id](auto& x) { return call(id, {writable(x[0])}); }); };
  s["gelu"] = [] { return sample({random({4}, -2, 2), random({4}, -2, 2)}, [](auto& x) {
    return std::vector<Tensor>{call_single(OpId::gelu, {x[0]}), call_single(OpId::gelu, {x[1], "tanh"})}; }); };
  s["leaky_relu"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::leaky_relu, {x[0], 0.2}); }); };
  s["silu"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::silu, {x[0]}); }); };
  s["softplus"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::softplus, {x[0], 2.0, 1.0}); }); };
  s["leaky_relu_"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::leaky_relu_, {writable(x[0]), 0.3}); }); };
  s["leaky_relu_backward"] = [] { return sample({random({4}), random({4})}, [](auto& x) { return call(OpId::leaky_relu_backward, {x[0], x[1], 0.1, false}); }); };
  s["threshold_backward"] = [] { return sample({random({4}), random({4})}, [](auto& x) { return call(OpId::threshold_backward, {x[0], x[1], 0.1}); }); };
  s["tanh_backward"] = [] { return sample({random({4}), random({4})}, [](auto& x) { return call(OpId::tanh_backward, {x[0], x[1]}); }); };
  s["sigmoid_backward"] = [] { return sample({random({4}), random({4})}, [](auto& x) { return call(OpId::sigmoid_backward, {x[0], x[1]}); }); };
  s["addcmul"] = [] { return sample({random({3}), random({2, 1}), random({2, 3})}, [](auto& x) { return call(OpId::addcmul, {x[0], x[1], x[2], 0.5}); }); };
  s["addcdiv"] = [] { return sample({random({2, 3}), random({3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::addcdiv, {x[0], x[1], x[2], -2}); }); };
  s["addcmul_"] = [] { return sample({random({2, 3}), random({3}), random({2, 3})}, [](auto& x) { return call(OpId::addcmul_, {writable(x[0]), x[1], x[2], 0.5}); }); };
  s["addcdiv_"] = [] { return sample({random({3}), random({3}), random({3}, 0.5, 2)}, [](auto& x) { return call(OpId::addcdiv_, {writable(x[0]), x[1], x[2], -2}); }); };
  s["lerp_.Scalar"] = [] { return sample({random({3}), random({3})}, [](auto& x) { return call(OpId::lerp__Scalar, {writable(x[0]), x[1], 0.3}); }); };
  s["sum"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::sum, {x[0]}); }); };
  s["sum.dim_IntList"] = [] { return sample({random({2, 3, 4})}, [](auto& x) { return call(OpId::sum_dim_IntList, {x[0], std::vector<int64_t>{0, 2}}); }); };
  s["mean"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::mean, {x[0]}); }); };
  s["mean.dim"] = [] { return sample({random({2, 3, 4})}, [](auto& x) { return call(OpId::mean_dim, {x[0], std::vector<int64_t>{1}, true}); }); };
  s["prod"] = [] { return sample({random({2, 3}, 0.5, 1.5)}, [](auto& x) { return call(OpId::prod, {x[0]}); }); };
  s["prod.dim_int"] = [] { return sample({random({2, 3}, 0.5, 1.5)}, [](auto& x) { return call(OpId::prod_dim_int, {x[0], 1}); }); };
  s["amax"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::amax, {x[0], std::vector<int64_t>{1}}); }); };
  s["amin"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::amin, {x[0], std::vector<int64_t>{0}, true}); }); };
  s["max"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::max, {x[0]}); }); };
  s["min"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::min, {x[0]}); }); };
  s["max.dim"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::max_dim, {x[0], 1}); }); };
  s["min.dim"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::min_dim, {x[0], 0, true}); }); };
  s["var.correction"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::var_correction, {x[0], std::vector<int64_t>{1}, 0}); }); };
  s["var_mean.correction"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::var_mean_correction, {x[0], std::vector<int64_t>{1}, 0, true}); }); };
  s["std.correction"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::std_correction, {x[0], IValue(), IValue(), true}); }); };
  s["_softmax"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::_softmax, {x[0], 0, false}); }); };
  s["_log_softmax"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::_log_softmax, {x[0], -1, false}); }); };
  s["mm"] = [] { return sample({random({2, 3}), random({3, 4})}, [](auto& x) { return call(OpId::mm, {x[0], x[1]}); }); };
  s["addmm"] = [] { return sample({random({4}), random({2, 3}), random({3, 4})}, [](auto& x) { return call(OpId::addmm, {x[0], x[1], x[2], 0.5, 2}); }); };
  s["bmm"] = [] { return sample({random({2, 2, 3}), random({2, 3, 2})}, [](auto& x) { return call(OpId::bmm, {x[0], x[1]}); }); };
  s["mv"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::mv, {x[0], x[1]}); }); };
  s["dot"] = [] { return sample({random({4}), random({4})}, [](auto& x) { return call(OpId::dot, {x[0], x[1]}); }); };
  s["native_layer_norm"] = [] { return sample({random({2, 3, 4}), random({4}), random({4})}, [](auto& x) {
    return call(OpId::native_layer_norm, {x[0], std::vector<int64_t>{4}, x[1], x[2], 1e-5}); }); };
  s["convolution"] = [] { return sample({random({2, 4, 5, 4}), random({6, 2, 3, 2}), random({6})}, [](auto& x) {
    return call(OpId::convolution, {x[0], x[1], x[2], std::vector<int64_t>{2, 1}, std::vector<int64_t>{1, 0},
                                    std::vector<int64_t>{1, 2}, false, std::vector<int64_t>{0, 0}, 2}); }); };
  s["max_pool2d_with_indices"] = [] { return sample({random({2, 5, 6})}, [](auto& x) {
    return call(OpId::max_pool2d_with_indices, {x[0], std::vector<int64_t>{3, 2}, std::vector<int64_t>{2, 2},
                                                std::vector<int64_t>{1, 0}, std::vector<int64_t>{1, 1}, true}); }); };
  s["avg_pool2d"] = [] { return sample({random({1, 2, 5, 5})}, [](auto& x) {
    return call(OpId::avg_pool2d, {x[0], std::vector<int64_t>{3, 3}, std::vector<int64_t>{2, 2},
                                   std::vector<int64_t>{1, 1}, true, false, IValue()}); }); };
  s["_adaptive_avg_pool2d"] = [] { return sample({random({1, 2, 5, 7})}, [](auto& x) {
    return call(OpId::_adaptive_avg_pool2d, {x[0], std::vector<int64_t>{3, 4}}); }); };
  s["nll_loss_forward"] = [] { return sample({random({3, 4})}, [](auto& x) {
    return call(OpId::nll_loss_forward, {x[0], indices({1, 0, 3}, {3}), values({1, 2, 0.5, 1}, {4}, DType::Float64), 1, -100}); }); };
  s["mse_loss"] = [] { return sample({random({2, 3}), random({2, 3})}, [](auto& x) { return call(OpId::mse_loss, {x[0], x[1]}); }); };
  s["cat"] = [] { return sample({random({2, 3}), random({1, 3})}, [](auto& x) { return call(OpId::cat, {std::vector<Tensor>{x[0], x[1]}}); }); };
  s["stack"] = [] { return sample({random({2, 3}), random({2, 3})}, [](auto& x) { return call(OpId::stack, {std::vector<Tensor>{x[0], x[1]}, 1}); }); };
  s["split.Tensor"] = [] { return sample({random({5, 2})}, [](auto& x) { return call(OpId::split_Tensor, {x[0], 2}); }); };
  s["clone"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::clone, {x[0]}); }); };
  s["alias"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::alias, {x[0]}); }); };
  s["relu_"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::relu_, {writable(x[0])}); }); };
  s["copy_"] = [] { return sample({random({2, 3}), random({3})}, [](auto& x) { return call(OpId::copy_, {writable(x[0]), x[1]}); }); };
  s["masked_fill.Scalar"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::masked_fill_Scalar, {x[0], values({1, 0, 1}, {3}, DType::Bool), -2.0}); }); };
  s["masked_fill.Tensor"] = [] { return sample({random({3}), random({})}, [](auto& x) { return call(OpId::masked_fill_Tensor, {x[0], values({1, 0, 1, 0, 0, 1}, {2, 3}, DType::Bool), x[1]}); }); };
  s["masked_fill_.Scalar"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::masked_fill__Scalar, {writable(x[0]), values({0, 1, 1}, {3}, DType::Bool), 0.5}); }); };
  s["masked_fill_.Tensor"] = [] { return sample({random({2, 3}), random({})}, [](auto& x) { return call(OpId::masked_fill__Tensor, {writable(x[0]), values({0, 1, 1}, {3}, DType::Bool), x[1]}); }); };
  s["topk"] = [] { return sample({random({3, 5})}, [](auto& x) { return call(OpId::topk, {x[0], 2, 1, false}); }); };
  s["repeat"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::repeat, {x[0], std::vector<int64_t>{2, 1, 3}}); }); };
  s["tril"] = [] { return sample({random({2, 3, 4})}, [](auto& x) { return call(OpId::tril, {x[0], 1}); }); };
  s["triu"] = [] { return sample({random({4, 3})}, [](auto& x) { return call(OpId::triu, {x[0], -1}); }); };
  // The random fills reseed before each evaluation, so the finite differences see one draw.
  s["normal_"] = [] { return sample({random({3})}, [](auto& x) { tensor::manual_seed(0); return call(OpId::normal_, {writable(x[0]), 1.0, 2.0}); }); };
  s["uniform_"] = [] { return sample({random({3})}, [](auto& x) { tensor::manual_seed(0); return call(OpId::uniform_, {writable(x[0]), -1.0, 1.0}); }); };
  s["exponential_"] = [] { return sample({random({3})}, [](auto& x) { tensor::manual_seed(0); return call(OpId::exponential_, {writable(x[0]), 1.5}); }); };
  s["native_dropout"] = [] { return sample({random({2, 5})}, [](auto& x) { tensor::manual_seed(0); return std::vector<Tensor>{call(OpId::native_dropout, {x[0], 0.4, true})[0]}; }); };
  s["cumsum"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::cumsum, {x[0], 1}); }); };
  s["cumprod"] = [] { return sample({random({4, 3}, 0.5, 1.5)}, [](auto& x) { return call(OpId::cumprod, {x[0], 0}); }); };
  s["flip"] = [] { return sample({random({2, 3, 2})}, [](auto& x) { return call(OpId::flip, {x[0], std::vector<int64_t>{0, 2}}); }); };
  s["fill_.Scalar"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::fill__Scalar, {writable(x[0]), 2.0}); }); };
  s["zero_"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::zero_, {writable(x[0])}); }); };
  s["index_select"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::index_select, {x[0], 1, indices({3, 0, 3}, {3})}); }); };
  s["index_add"] = [] { return sample({random({3, 4}), random({3, 2})}, [](auto& x) { return call(OpId::index_add, {x[0], 1, indices({2, 2}, {2}), x[1], 1.5}); }); };
  s["gather"] = [] { return sample({random({3, 4})}, [](auto& x) { return call(OpId::gather, {x[0], 1, indices({0, 3, 1, 1, 2, 0}, {3, 2})}); }); };
  s["scatter_add"] = [] { return sample({random({3, 4}), random({3, 2})}, [](auto& x) { return call(OpId::scatter_add, {x[0], 1, indices({0, 3, 1, 1, 2, 0}, {3, 2}), x[1]}); }); };
  s["embedding"] = [] { return sample({random({5, 3})}, [](auto& x) { return call(OpId::embedding, {x[0], indices({4, 0, 4, 2}, {2, 2})}); }); };
  s["_to_copy"] = [] { return sample({random({3})}, [](auto& x) { return call(OpId::_to_copy, {x[0], DType::Float64}); }); };
  s["view"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::view, {x[0], std::vector<int64_t>{3, 2}}); }); };
  s["_unsafe_view"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::_unsafe_view, {x[0], std::vector<int64_t>{6}}); }); };
  s["permute"] = [] { return sample({random({2, 3, 4})}, [](auto& x) { return call(OpId::permute, {x[0], std::vector<int64_t>{2, 0, 1}}); }); };
  s["transpose.int"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::transpose_int, {x[0], 0, 1}); }); };
  s["t"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::t, {x[0]}); }); };
  s["unsqueeze"] = [] { return sample({random({2, 3})}, [](auto& x) { return call(OpId::unsqueeze, {x[0], 1}); }); };
  s["squeeze_.dim"] = [] { return sample({random({2, 1, 3})}, [](auto& x) { return call(OpId::squeeze__dim, {writable(x[0]), 1}); }); };
  s["squeeze.dim"] = [] { return sample({random({2, 1, 3})}, [](auto& x) { return call(OpId::squeeze_dim, {x[0], 1}); }); };
  s["expand"] = [] { return sample({random({3, 1})}, [](auto& x) { return call(OpId::expand, {x[0], std::vector<int64_t>{2, 3, 4}}); }); };
  s["slice.Tensor"] = [] { return sample({random({5, 2})}, [](auto& x) { return call(OpId::slice_Tensor, {x[0], 0, 1, 5, 2}); }); };
  s["select.int"] = [] { return sample({random({3, 2})}, [](auto& x) { return call(OpId::select_int, {x[0], 0, -1}); }); };
  s["slice_backward"] = [] { return sample({random({2, 2})}, [](auto& x) { return call(OpId::slice_backward, {x[0], std::vector<int64_t>{5, 2}, 0, 1, 5, 2}); }); };
  s["as_strided"] = [] {
    return sample({random({4, 3})}, [](auto& x) {
      return call(OpId::as_strided, {x[0], std::vector<int64_t>{2, 2}, std::vector<int64_t>{1, 6}, 2});
    });
  };
  s["select_backward"] = [] { return sample({random({2})}, [](auto& x) { return call(OpId::select_backward, {x[0], std::vector<int64_t>{3, 2}, 0, 1}); }); };
  return s;
}

// sum_k <outputs_k, weights_k>: a scalar whose gradient exercises every output element.
Tensor projection(const std::vector<Tensor>& outputs, const std::vector<Tensor>& weights) {
  Tensor total;
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (!weights[k].defined()) continue;
    const Tensor term = sum(mul(ops::to_dtype(outputs[k], DType::Float64), weights[k]));
    total = total.defined() ? add(total, term) : term;
  }
  return total;
}

void check_gradients(const std::string& name, const GradSample& s) {
  for (Tensor input : s.inputs) input.set_requires_grad(true);
  // Only outputs that carry a gradient (derivatives.yaml's output_differentiability) are projected.
  std::vector<Tensor> weights;
  for (const Tensor& out : s.fn(s.inputs)) weights.push_back(out.requires_grad() ? random(out.sizes()) : Tensor());
  const Tensor loss = projection(s.fn(s.inputs), weights);
  const std::vector<Tensor> analytic = grad({loss}, s.inputs, {}, false, false, /*allow_unused=*/true);
  const double eps = 1e-6;
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    const std::vector<double> got = analytic[i].defined() ? as_doubles(analytic[i])
                                                          : std::vector<double>(s.inputs[i].numel(), 0.0);
    double* data = s.inputs[i].data_ptr<double>();
    for (int64_t j = 0; j < s.inputs[i].numel(); ++j) {
      NoGradGuard no_grad;
      const double original = data[j];
      data[j] = original + eps;
      const double plus = as_doubles(projection(s.fn(s.inputs), weights))[0];
      data[j] = original - eps;
      const double minus = as_doubles(projection(s.fn(s.inputs), weights))[0];
      data[j] = original;
      const double numeric = (plus - minus) / (2 * eps);
      EXPECT_NEAR(got[j], numeric, 1e-5 + 1e-4 * std::abs(numeric))
          << name << ": input " << i << ", element " << j;
    }
  }
}

}  // namespace

TEST(Gradcheck, EveryFormulaOfTheTable) {
  const auto all_samples = samples();
  int checked = 0;
  for (const OpInfo& op : all_ops()) {
    if (op.grad != GradKind::Formula) continue;
    // An op with no CPU kernel (PyTorch's CUDA-only fused attention) is checked where it runs: its
    // kernels against float64 in attention_emulation_test.cpp, its formula on the GPU
    // (tests/device/cuda_attention.py).
    if (!op.cpu_kernel) continue;
    const auto it = all_samples.find(op.qualified_name());
    if (it == all_samples.end()) {
      ADD_FAILURE() << op.qualified_name() << " has a formula but no gradcheck sample";
      continue;
    }
    SCOPED_TRACE(op.qualified_name());
    check_gradients(op.qualified_name(), it->second());
    ++checked;
  }
  EXPECT_GE(checked, 80);
  // And the other way: a sample for an op that lost its formula (or left the table) is stale.
  for (const auto& [name, make] : all_samples) {
    const OpInfo* op = find_op(name);
    EXPECT_TRUE(op && op->grad == GradKind::Formula) << name << " has a sample but no formula";
  }
}

// Composite ops have no formula of their own: their gradients come from the ops they call.
TEST(Gradcheck, Composites) {
  const std::map<std::string, std::function<GradSample()>> composites{
      {"matmul 3d x 2d", [] { return sample({random({2, 2, 3}), random({3, 2})}, [](auto& x) { return std::vector<Tensor>{matmul(x[0], x[1])}; }); }},
      {"matmul broadcast", [] { return sample({random({2, 1, 2, 3}), random({3, 3, 2})}, [](auto& x) { return std::vector<Tensor>{matmul(x[0], x[1])}; }); }},
      {"linear", [] { return sample({random({2, 3, 4}), random({5, 4}), random({5})}, [](auto& x) { return std::vector<Tensor>{linear(x[0], x[1], x[2])}; }); }},
      {"layer_norm", [] { return sample({random({2, 4})}, [](auto& x) { return std::vector<Tensor>{layer_norm(x[0], {4})}; }); }},
      {"cross_entropy", [] { return sample({random({3, 5})}, [](auto& x) { return std::vector<Tensor>{cross_entropy(x[0], indices({4, 0, 2}, {3}), Tensor(), 1, -100, 0.1)}; }); }},
      {"softmax", [] { return sample({random({2, 3})}, [](auto& x) { return std::vector<Tensor>{softmax(x[0], 1)}; }); }},
      {"scaled_dot_product_attention", [] { return sample({random({2, 3, 2}), random({2, 4, 2}), random({2, 4, 3})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::scaled_dot_product_attention, {x[0], x[1], x[2], IValue(), 0.0, true})}; }); }},
      {"conv1d", [] { return sample({random({2, 3, 6}), random({4, 3, 3})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::conv1d, {x[0], x[1], IValue(), std::vector<int64_t>{1}, std::vector<int64_t>{1}})}; }); }},
      {"conv_transpose2d", [] { return sample({random({2, 4, 3, 2}), random({4, 3, 3, 2}), random({6})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::conv_transpose2d_input, {x[0], x[1], x[2], std::vector<int64_t>{2, 1}, std::vector<int64_t>{1, 0}, std::vector<int64_t>{1, 0}, 2, std::vector<int64_t>{1, 2}})}; }); }},
      {"kl_div", [] { return sample({random({2, 3}), random({2, 3}, 0.1, 1)}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::kl_div, {x[0], x[1], 1, false})}; }); }},
      {"einsum bij,bjk->bik", [] { return sample({random({2, 3, 4}), random({2, 4, 2})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::einsum, {std::string("bij,bjk->bik"), std::vector<Tensor>{x[0], x[1]}})}; }); }},
      {"einsum ...i,j,...j", [] { return sample({random({2, 3}), random({4}), random({3, 1, 4})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::einsum, {std::string("...i,j,...j"), std::vector<Tensor>{x[0], x[1], x[2]}})}; }); }},
      {"batch_norm training", [] { return sample({random({3, 2, 4}), random({2}), random({2})}, [](auto& x) { return std::vector<Tensor>{call_single(OpId::batch_norm, {x[0], x[1], x[2], IValue(), IValue(), true, 0.1, 1e-5, false})}; }); }},
      {"chunk", [] { return sample({random({5})}, [](auto& x) { return chunk(x[0], 2); }); }},
      {"reshape of a transpose", [] { return sample({random({2, 3})}, [](auto& x) { return std::vector<Tensor>{reshape(transpose(x[0], 0, 1), {6})}; }); }},
  };
  for (const auto& [name, make] : composites) {
    SCOPED_TRACE(name);
    check_gradients(name, make());
  }
}

}  // namespace kiln::ops::test
