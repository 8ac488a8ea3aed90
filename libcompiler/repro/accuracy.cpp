#include "libcompiler/repro/accuracy.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

using ops::IValue;
using ops::Tensor;
using tensor::DType;

namespace {

std::vector<double> values_of(const Tensor& t) {
  Tensor flat = ops::contiguous(ops::to_copy(tensor::to_host(ops::detach(t)), DType::Float64));
  const double* data = flat.data_ptr<double>();
  return std::vector<double>(data, data + flat.numel());
}

std::string format(const char* pattern, auto... args) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, pattern, args...);
  return buffer;
}

// Python's "%.5f" % x: nan and inf without glibc's sign of a NaN ("-nan").
std::string fixed5(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return format("%.5f", x);
}

std::string torch_size(const tensor::Shape& sizes) {
  std::string text = "torch.Size([";
  for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
  return text + "])";
}

// torch.allclose(a, b, atol, rtol, equal_nan): |a - b| <= atol + rtol * |b| elementwise; equal
// infinities are close, NaN only to NaN and only with equal_nan.
bool allclose(const std::vector<double>& a, const std::vector<double>& b, double atol, double rtol, bool equal_nan) {
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = b[i];
    if (std::isnan(x) || std::isnan(y)) {
      if (!(equal_nan && std::isnan(x) && std::isnan(y))) return false;
      continue;
    }
    if (x == y) continue;
    if (std::isinf(x) || std::isinf(y)) return false;
    if (std::fabs(x - y) > atol + rtol * std::fabs(y)) return false;
  }
  return true;
}

bool any_nan(const std::vector<double>& v) {
  for (double x : v)
    if (std::isnan(x)) return true;
  return false;
}

double rmse_of(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum / double(a.size()));
}

// F.cosine_similarity(a, b, dim=0, eps=1e-6) of flattened float32 values.
double cosine_similarity(const std::vector<double>& a, const std::vector<double>& b) {
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = float(a[i]), y = float(b[i]);
    dot += x * y, na += x * x, nb += y * y;
  }
  return dot / std::max(std::sqrt(na) * std::sqrt(nb), 1e-6);
}

bool same_tensor(Tensor ref, Tensor res, Tensor fp64_ref, const SameOptions& options, const SameLog& log) {
  if (options.exact_dtype) {
    if (ref.dtype() != res.dtype()) {
      log.error("dtype mismatch " + tensor::torch_name(ref.dtype()) + ", " + tensor::torch_name(res.dtype()));
      return false;
    }
    if (ref.dtype() == DType::Bool) {
      if (options.ignore_non_fp) return true;
      // Compared as uint8 (Triton stores bools as int8).
      const bool close = ref.sizes() == res.sizes() &&
                         allclose(values_of(ref), values_of(res), options.tol, options.tol, options.equal_nan);
      if (!close) log.error("Accuracy failed: uint8 tensor did not match");
      return close;
    }
  }
  if (ref.sizes() != res.sizes()) {
    log.error("Accuracy failed: shape mismatch " + torch_size(ref.sizes()) + " != " + torch_size(res.sizes()));
    return false;
  }
  std::vector<double> r = values_of(ref), s = values_of(res);
  if (options.cos_similarity) {
    auto as_float = [](std::vector<double> v) {
      for (double& x : v) x = float(x);
      return v;
    };
    r = as_float(std::move(r)), s = as_float(std::move(s));
    if (allclose(r, s, options.tol, options.tol, true)) return true;
    const double score = cosine_similarity(r, s);
    if (score < 0.99) log.warning("Similarity score=" + tensor::python_float_repr(score));
    return score >= 0.99;
  }
  if (!options.exact_dtype && ref.dtype() != res.dtype()) r = values_of(ops::to_copy(ref, res.dtype()));
  if (allclose(r, s, options.tol, options.tol, options.equal_nan)) return true;
  if (fp64_ref.dtype() == DType::Float64 && fp64_ref.sizes() == ref.sizes()) {
    const std::vector<double> f = values_of(fp64_ref);
    // A NaN that only the eager result has, with res close to fp64: res is the better one.
    constexpr double kLooseTol = 1e-2 * 4;
    if (!any_nan(f) && !any_nan(s) && any_nan(r) && allclose(values_of(ops::to_copy(fp64_ref, res.dtype())), s, kLooseTol, kLooseTol, options.equal_nan))
      return true;
    const double ref_error = rmse_of(f, r);
    if (std::isnan(ref_error)) log.warning("Found nan in reference. Consider running in higher precision.");
    const double res_error = rmse_of(f, s);
    const double multiplier = rmse_multiplier(ref, res, f.size(), options);
    bool passes = res_error <= multiplier * ref_error + options.tol / 10.0;
    if (!passes && options.equal_nan && std::isnan(ref_error) && std::isnan(res_error)) passes = true;
    if (!passes)
      log.error(format("RMSE (res-fp64): %s, (ref-fp64): %s and shape=%s. res.dtype: %s, multiplier: %f, tol: %f, "
                       "use_larger_multiplier_for_smaller_tensor: %d",
                       fixed5(res_error).c_str(), fixed5(ref_error).c_str(), torch_size(res.sizes()).c_str(), tensor::torch_name(res.dtype()).c_str(),
                       multiplier, options.tol, int(options.use_larger_multiplier_for_smaller_tensor)));
    return passes;
  }
  if (options.ignore_non_fp) return true;
  log.error("Accuracy failed: allclose not within tol=" + tensor::python_float_repr(options.tol));
  return false;
}

std::string python_repr(const IValue& v) {
  if (v.is_none()) return "None";
  if (v.is_bool()) return v.to_bool() ? "True" : "False";
  if (v.is_int()) return std::to_string(v.to_int());
  if (v.is_string()) return "'" + v.to_string() + "'";
  return v.python_type_name();
}

}  // namespace

SameLog SameLog::to_dynamo_log() {
  auto emit = [](log::Level level) {
    return [level](const std::string& message) {
      log::emit(log::Component::dynamo, level, {"torch/_dynamo/utils.py", 3393}, "", message);
    };
  };
  return {emit(log::Level::Error), emit(log::Level::Warning)};
}

double rmse(const Tensor& a, const Tensor& b) { return rmse_of(values_of(a), values_of(b)); }

double rmse_multiplier(const Tensor& ref, const Tensor& res, size_t fp64_numel, const SameOptions& options) {
  if (options.force_max_multiplier) return 10.0;
  double multiplier = res.dtype() == DType::Float16 || res.dtype() == DType::BFloat16 ? 3.0 : 2.0;
  if (options.use_larger_multiplier_for_smaller_tensor && fp64_numel <= 10) return 10.0;
  if (options.use_larger_multiplier_for_smaller_tensor && fp64_numel <= 500) return 8.0;
  if (fp64_numel < 1000 || (ref.dim() == 4 && ref.size(-1) == 1 && ref.size(-2) == 1) || options.tol >= 2 * 1e-2)
    multiplier = 3.0;
  return multiplier;
}

bool same(const IValue& ref, const IValue& res, const IValue& fp64_ref, const SameOptions& options, const SameLog& log) {
  if (ref.is_tensor_list()) {
    std::vector<IValue> r, s, f;
    for (const Tensor& t : ref.to_tensor_list()) r.emplace_back(t);
    if (res.is_tensor_list())
      for (const Tensor& t : res.to_tensor_list()) s.emplace_back(t);
    if (fp64_ref.is_tensor_list())
      for (const Tensor& t : fp64_ref.to_tensor_list()) f.emplace_back(t);
    return same(r, s, f.size() == r.size() ? f : r, options, log);
  }
  if (ref.is_tensor() || ref.is_double()) {
    // A Python float compares as a 0-d float64 tensor.
    auto to_tensor = [](const IValue& v) {
      if (v.is_tensor()) return v.to_tensor();
      Tensor t = Tensor::empty({}, DType::Float64);
      *t.data_ptr<double>() = v.to_double();
      return t;
    };
    if (!res.is_tensor() && !res.is_double()) {
      log.error("type mismatch " + ref.python_type_name() + " " + res.python_type_name());
      return false;
    }
    return same_tensor(to_tensor(ref), to_tensor(res), fp64_ref.is_tensor() || fp64_ref.is_double() ? to_tensor(fp64_ref) : to_tensor(ref),
                       options, log);
  }
  if (options.ignore_non_fp) return true;
  const std::string a = python_repr(ref), b = python_repr(res);
  if (a != b || ref.python_type_name() != res.python_type_name()) {
    log.error("Accuracy failed (<class '" + ref.python_type_name() + "'>): " + a + " != " + b);
    return false;
  }
  return true;
}

bool same(const std::vector<IValue>& ref, const std::vector<IValue>& res, const std::vector<IValue>& fp64_ref,
          const SameOptions& options, const SameLog& log) {
  if (ref.size() != res.size()) {
    log.error("Length mismatch");
    return false;
  }
  for (size_t i = 0; i < ref.size(); ++i)
    if (!same(ref[i], res[i], i < fp64_ref.size() ? fp64_ref[i] : ref[i], options, log)) return false;
  return true;
}

}  // namespace kiln::repro
