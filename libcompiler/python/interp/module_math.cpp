// The math module: the C library's functions, with CPython's domain errors and int results.
#include <cmath>
#include <numeric>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

[[noreturn]] void domain_error() { raise_error(ExcType::ValueError, "math domain error"); }

double checked(double x, double result) {
  if (std::isnan(result) && !std::isnan(x)) domain_error();
  if (std::isinf(result) && std::isfinite(x)) raise_error(ExcType::OverflowError, "math range error");
  return result;
}

void unary(ModuleObject& m, const std::string& name, double (*fn)(double)) {
  m.globals->set(name, native_function(name, [name, fn](Interpreter& ip, CallArgs& c) {
    auto a = bind_native(name.c_str(), c, {{"x"}});
    double x = to_double(ip, a[0]);
    return py_float(checked(x, fn(x)));
  }));
}

Ref integral(Interpreter& ip, const Ref& x, const char* dunder, double (*round)(double)) {
  if (x->kind == ObjectKind::Int || x->kind == ObjectKind::Bool) return py_int(to_index(ip, x));
  if (x->kind != ObjectKind::Float)
    if (Ref r = call_dunder(ip, x, dunder, {})) return r;
  double v = round(to_double(ip, x));
  if (std::isnan(v)) raise_error(ExcType::ValueError, "cannot convert float NaN to integer");
  if (std::isinf(v)) raise_error(ExcType::OverflowError, "cannot convert float infinity to integer");
  return py_int(static_cast<int64_t>(v));
}

// Shewchuk's exact summation, as math.fsum.
double exact_sum(const std::vector<double>& values) {
  std::vector<double> partials;
  for (double x : values) {
    size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      double hi = x + y;
      double lo = y - (hi - x);
      if (lo != 0.0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    partials.push_back(x);
  }
  double total = 0.0;
  for (auto it = partials.rbegin(); it != partials.rend(); ++it) total += *it;
  return total;
}

}  // namespace

void init_math_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  g.set("pi", py_float(M_PI));
  g.set("e", py_float(M_E));
  g.set("tau", py_float(2 * M_PI));
  g.set("inf", py_float(INFINITY));
  g.set("nan", py_float(NAN));
  unary(m, "exp", [](double x) { return std::exp(x); });
  unary(m, "expm1", [](double x) { return std::expm1(x); });
  unary(m, "log2", [](double x) { return x <= 0 ? NAN : std::log2(x); });
  unary(m, "log10", [](double x) { return x <= 0 ? NAN : std::log10(x); });
  unary(m, "log1p", [](double x) { return x <= -1 ? NAN : std::log1p(x); });
  unary(m, "sqrt", [](double x) { return std::sqrt(x); });
  unary(m, "sin", [](double x) { return std::sin(x); });
  unary(m, "cos", [](double x) { return std::cos(x); });
  unary(m, "tan", [](double x) { return std::tan(x); });
  unary(m, "asin", [](double x) { return std::asin(x); });
  unary(m, "acos", [](double x) { return std::acos(x); });
  unary(m, "atan", [](double x) { return std::atan(x); });
  unary(m, "sinh", [](double x) { return std::sinh(x); });
  unary(m, "cosh", [](double x) { return std::cosh(x); });
  unary(m, "tanh", [](double x) { return std::tanh(x); });
  unary(m, "erf", [](double x) { return std::erf(x); });
  unary(m, "erfc", [](double x) { return std::erfc(x); });
  unary(m, "fabs", [](double x) { return std::fabs(x); });
  unary(m, "lgamma", [](double x) { return std::lgamma(x); });
  unary(m, "gamma", [](double x) { return std::tgamma(x); });
  unary(m, "degrees", [](double x) { return x * (180.0 / M_PI); });
  unary(m, "radians", [](double x) { return x * (M_PI / 180.0); });
  g.set("log", native_function("log", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("log", c, {{"x"}, {"base", false}});
    double x = to_double(ip, a[0]);
    if (x <= 0) domain_error();
    if (!a[1]) return py_float(std::log(x));
    double base = to_double(ip, a[1]);
    if (base <= 0) domain_error();
    if (base == 1) raise_error(ExcType::ZeroDivisionError, "float division by zero");
    return py_float(std::log(x) / std::log(base));
  }));
  g.set("pow", native_function("pow", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("pow", c, {{"x"}, {"y"}});
    double x = to_double(ip, a[0]), y = to_double(ip, a[1]);
    if (x == 0 && y < 0) domain_error();
    double r = std::pow(x, y);
    if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) domain_error();
    return py_float(r);
  }));
  g.set("atan2", native_function("atan2", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("atan2", c, {{"y"}, {"x"}});
    return py_float(std::atan2(to_double(ip, a[0]), to_double(ip, a[1])));
  }));
  g.set("hypot", native_function("hypot", [](Interpreter& ip, CallArgs& c) {
    double total = 0;
    for (const auto& v : c.args) total = std::hypot(total, to_double(ip, v));
    return py_float(total);
  }));
  g.set("copysign", native_function("copysign", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("copysign", c, {{"x"}, {"y"}});
    return py_float(std::copysign(to_double(ip, a[0]), to_double(ip, a[1])));
  }));
  g.set("fmod", native_function("fmod", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("fmod", c, {{"x"}, {"y"}});
    double y = to_double(ip, a[1]);
    if (y == 0) domain_error();
    return py_float(std::fmod(to_double(ip, a[0]), y));
  }));
  g.set("floor", native_function("floor", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("floor", c, {{"x"}});
    return integral(ip, a[0], "__floor__", [](double x) { return std::floor(x); });
  }));
  g.set("ceil", native_function("ceil", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("ceil", c, {{"x"}});
    return integral(ip, a[0], "__ceil__", [](double x) { return std::ceil(x); });
  }));
  g.set("trunc", native_function("trunc", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("trunc", c, {{"x"}});
    return integral(ip, a[0], "__trunc__", [](double x) { return std::trunc(x); });
  }));
  auto predicate = [&](const char* name, bool (*fn)(double)) {
    g.set(name, native_function(name, [name, fn](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"x"}});
      return py_bool(fn(to_double(ip, a[0])));
    }));
  };
  predicate("isnan", [](double x) { return std::isnan(x); });
  predicate("isinf", [](double x) { return std::isinf(x); });
  predicate("isfinite", [](double x) { return std::isfinite(x); });
  g.set("isclose", native_function("isclose", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("isclose", c, {{"a"}, {"b"}, {"rel_tol", false}, {"abs_tol", false}});
    double x = to_double(ip, a[0]), y = to_double(ip, a[1]);
    double rel = a[2] ? to_double(ip, a[2]) : 1e-9, abs_tol = a[3] ? to_double(ip, a[3]) : 0.0;
    if (x == y) return py_true();
    if (std::isinf(x) || std::isinf(y)) return py_false();
    double diff = std::fabs(y - x);
    return py_bool(diff <= std::fabs(rel * y) || diff <= std::fabs(rel * x) || diff <= abs_tol);
  }));
  g.set("fsum", native_function("fsum", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("fsum", c, {{"seq"}});
    std::vector<double> values;
    for (const auto& v : to_vector(ip, a[0])) values.push_back(to_double(ip, v));
    return py_float(exact_sum(values));
  }));
  g.set("prod", native_function("prod", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("prod", c, {{"iterable"}, {"start", false}});
    Ref total = a[1] ? a[1] : py_int(1);
    for (const auto& v : to_vector(ip, a[0])) total = binary_op(ip, BinaryOperator::Mult, total, v);
    return total;
  }));
  g.set("factorial", native_function("factorial", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("factorial", c, {{"n"}});
    int64_t n = to_index(ip, a[0]);
    if (n < 0) raise_error(ExcType::ValueError, "factorial() not defined for negative values");
    Ref total = py_int(1);
    for (int64_t i = 2; i <= n; ++i) total = binary_op(ip, BinaryOperator::Mult, total, py_int(i));
    return total;
  }));
  g.set("gcd", native_function("gcd", [](Interpreter& ip, CallArgs& c) {
    int64_t r = 0;
    for (const auto& v : c.args) r = std::gcd(r, to_index(ip, v));
    return py_int(r);
  }));
  g.set("isqrt", native_function("isqrt", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("isqrt", c, {{"n"}});
    int64_t n = to_index(ip, a[0]);
    if (n < 0) raise_error(ExcType::ValueError, "isqrt() argument must be nonnegative");
    auto r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return py_int(r);
  }));
  // perm(n, k) = n! / (n-k)!, comb(n, k) = perm(n, k) / k!, computed with Python ints so an
  // overflow is reported as kiln's int overflow rather than wrapping.
  auto arrangements = [](bool combinations) {
    return [combinations](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(combinations ? "comb" : "perm", c, {{"n"}, {"k", !combinations}});
      int64_t n = to_index(ip, a[0]);
      int64_t k = a[1] && !is_none(a[1]) ? to_index(ip, a[1]) : n;
      if (n < 0) raise_error(ExcType::ValueError, "n must be a non-negative integer");
      if (k < 0) raise_error(ExcType::ValueError, "k must be a non-negative integer");
      if (k > n) return py_int(0);
      if (combinations) k = std::min(k, n - k);
      Ref total = py_int(1);
      for (int64_t i = 0; i < k; ++i) {
        total = binary_op(ip, BinaryOperator::Mult, total, py_int(n - i));
        if (combinations) total = binary_op(ip, BinaryOperator::FloorDiv, total, py_int(i + 1));
      }
      return total;
    };
  };
  g.set("comb", native_function("comb", arrangements(true)));
  g.set("perm", native_function("perm", arrangements(false)));
  g.set("modf", native_function("modf", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("modf", c, {{"x"}});
    double whole = 0;
    double fraction = std::modf(to_double(ip, a[0]), &whole);
    return py_tuple({py_float(fraction), py_float(whole)});
  }));
  g.set("frexp", native_function("frexp", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("frexp", c, {{"x"}});
    int exponent = 0;
    double mantissa = std::frexp(to_double(ip, a[0]), &exponent);
    return py_tuple({py_float(mantissa), py_int(exponent)});
  }));
  g.set("ldexp", native_function("ldexp", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("ldexp", c, {{"x"}, {"i"}});
    double x = to_double(ip, a[0]);
    return py_float(checked(x, std::ldexp(x, static_cast<int>(to_index(ip, a[1])))));
  }));
  g.set("remainder", native_function("remainder", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("remainder", c, {{"x"}, {"y"}});
    double x = to_double(ip, a[0]), y = to_double(ip, a[1]);
    if (y == 0 || std::isinf(x)) domain_error();
    return py_float(std::remainder(x, y));
  }));
  g.set("dist", native_function("dist", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("dist", c, {{"p"}, {"q"}});
    std::vector<Ref> p = to_vector(ip, a[0]), q = to_vector(ip, a[1]);
    if (p.size() != q.size()) raise_error(ExcType::ValueError, "both points must have the same number of dimensions");
    double squares = 0;
    for (size_t i = 0; i < p.size(); ++i) squares += std::pow(to_double(ip, p[i]) - to_double(ip, q[i]), 2);
    return py_float(std::sqrt(squares));
  }));
}

}  // namespace kiln::python
