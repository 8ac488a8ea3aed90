#include "libcompiler/python/interp/object_operators.h"

#include <cmath>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/memory_limit.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/interp/union_type.h"
#include "libcompiler/python/interp/string_percent_format.h"

namespace kiln::python {
namespace {

struct Dunders {
  const char* method;
  const char* reflected;
  const char* inplace;
};

Dunders dunders_of(BinaryOperator op) {
  switch (op) {
#define KILN_PY_BINARY_DUNDER(Op, method, reflected, inplace) \
  case BinaryOperator::Op: return {method, reflected, inplace};
#include "libcompiler/python/interp/binary_dunders.def"
  }
  std::abort();
}

bool is_number(const Ref& v) {
  return v->kind == ObjectKind::Int || v->kind == ObjectKind::Bool || v->kind == ObjectKind::Float;
}
bool is_integer(const Ref& v) { return v->kind == ObjectKind::Int || v->kind == ObjectKind::Bool; }
int64_t int_of(const Ref& v) {
  return v->kind == ObjectKind::Int ? as<IntObject>(v).value : static_cast<int64_t>(as<BoolObject>(v).value);
}
double float_of(const Ref& v) {
  return v->kind == ObjectKind::Float ? as<FloatObject>(v).value : static_cast<double>(int_of(v));
}

[[noreturn]] void overflow(BinaryOperator op, int64_t a, int64_t b) {
  raise_int_too_big(std::to_string(a) + " " + std::string(spelling(op)) + " " + std::to_string(b));
}

int64_t int_pow(int64_t base, int64_t exponent) {
  int64_t result = 1;
  int64_t b = base;
  int64_t e = exponent;
  while (e > 0) {
    if (e & 1)
      if (__builtin_mul_overflow(result, b, &result)) overflow(BinaryOperator::Pow, base, exponent);
    e >>= 1;
    if (e > 0 && __builtin_mul_overflow(b, b, &b)) overflow(BinaryOperator::Pow, base, exponent);
  }
  return result;
}

Ref float_pow(double a, double b) {
  if (a == 0.0 && b < 0) raise_error(ExcType::ZeroDivisionError, "0.0 cannot be raised to a negative power");
  if (a < 0 && b != std::floor(b) && std::isfinite(b))
    raise_error(ExcType::NotImplementedError, "kiln does not support complex numbers (negative number to a fractional power)");
  double result = std::pow(a, b);
  // CPython reports the C library's ERANGE: a finite base and exponent with an infinite result.
  if (std::isinf(result) && std::isfinite(a) && std::isfinite(b))
    raise_error(ExcType::OverflowError, "(34, 'Numerical result out of range')");
  return py_float(result);
}

// CPython's float_divmod.
std::pair<double, double> float_divmod(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  double floordiv;
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
  return {floordiv, mod};
}

Ref numeric_op(BinaryOperator op, const Ref& left, const Ref& right) {
  if (is_integer(left) && is_integer(right)) {
    int64_t a = int_of(left), b = int_of(right), r = 0;
    bool both_bool = left->kind == ObjectKind::Bool && right->kind == ObjectKind::Bool;
    switch (op) {
      case BinaryOperator::Add:
        if (__builtin_add_overflow(a, b, &r)) overflow(op, a, b);
        return py_int(r);
      case BinaryOperator::Sub:
        if (__builtin_sub_overflow(a, b, &r)) overflow(op, a, b);
        return py_int(r);
      case BinaryOperator::Mult:
        if (__builtin_mul_overflow(a, b, &r)) overflow(op, a, b);
        return py_int(r);
      case BinaryOperator::Div:
        if (b == 0) raise_error(ExcType::ZeroDivisionError, "division by zero");
        return py_float(static_cast<double>(a) / static_cast<double>(b));
      case BinaryOperator::FloorDiv: {
        if (b == 0) raise_error(ExcType::ZeroDivisionError, "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) overflow(op, a, b);
        int64_t q = a / b;
        if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
        return py_int(q);
      }
      case BinaryOperator::Mod: {
        if (b == 0) raise_error(ExcType::ZeroDivisionError, "integer modulo by zero");
        if (b == -1) return py_int(0);
        int64_t m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) m += b;
        return py_int(m);
      }
      case BinaryOperator::Pow:
        if (b < 0) return float_pow(static_cast<double>(a), static_cast<double>(b));
        return py_int(int_pow(a, b));
      case BinaryOperator::LShift:
        if (b < 0) raise_error(ExcType::ValueError, "negative shift count");
        if (b >= 63 || (a != 0 && (a > (INT64_MAX >> b) || a < (INT64_MIN >> b)))) overflow(op, a, b);
        return py_int(a << b);
      case BinaryOperator::RShift:
        if (b < 0) raise_error(ExcType::ValueError, "negative shift count");
        return py_int(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
      case BinaryOperator::BitAnd: return both_bool ? py_bool(a & b) : py_int(a & b);
      case BinaryOperator::BitOr: return both_bool ? py_bool(a | b) : py_int(a | b);
      case BinaryOperator::BitXor: return both_bool ? py_bool(a ^ b) : py_int(a ^ b);
      case BinaryOperator::MatMult: return nullptr;
    }
  }
  double a = float_of(left), b = float_of(right);
  switch (op) {
    case BinaryOperator::Add: return py_float(a + b);
    case BinaryOperator::Sub: return py_float(a - b);
    case BinaryOperator::Mult: return py_float(a * b);
    case BinaryOperator::Div:
      if (b == 0) raise_error(ExcType::ZeroDivisionError, "float division by zero");
      return py_float(a / b);
    case BinaryOperator::FloorDiv:
      if (b == 0) raise_error(ExcType::ZeroDivisionError, "float floor division by zero");
      return py_float(float_divmod(a, b).first);
    case BinaryOperator::Mod:
      if (b == 0) raise_error(ExcType::ZeroDivisionError, "float modulo");
      return py_float(float_divmod(a, b).second);
    case BinaryOperator::Pow: return float_pow(a, b);
    default: return nullptr;
  }
}

Ref repeat(Interpreter& interp, const Ref& sequence, const Ref& count) {
  int64_t n = std::max<int64_t>(0, to_index(interp, count));
  if (sequence->kind == ObjectKind::Str) {
    std::string out;
    const auto& s = as<StrObject>(sequence).value;
    check_allocation(static_cast<size_t>(n), s.size());
    out.reserve(s.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out += s;
    return py_str(std::move(out));
  }
  const auto& items = sequence_items(sequence);
  std::vector<Ref> out;
  check_allocation(static_cast<size_t>(n), items.size() * sizeof(Ref));
  out.reserve(items.size() * static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
  return py_list_or_tuple_like(sequence, std::move(out));
}

bool is_sequence(const Ref& v) {
  return v->kind == ObjectKind::Str || is_list_or_tuple(v);
}

Ref builtin_binary(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right) {
  if (is_number(left) && is_number(right)) return numeric_op(op, left, right);
  if (op == BinaryOperator::Add && left->kind == right->kind) {
    switch (left->kind) {
      case ObjectKind::Str: return py_str(as<StrObject>(left).value + as<StrObject>(right).value);
      case ObjectKind::List: {
        auto items = as<ListObject>(left).items;
        const auto& more = as<ListObject>(right).items;
        items.insert(items.end(), more.begin(), more.end());
        return py_list(std::move(items));
      }
      case ObjectKind::Tuple: {
        auto items = as<TupleObject>(left).items;
        const auto& more = as<TupleObject>(right).items;
        items.insert(items.end(), more.begin(), more.end());
        return py_tuple(std::move(items));
      }
      default: break;
    }
  }
  if (op == BinaryOperator::Mult) {
    if (is_sequence(left) && is_integer(right)) return repeat(interp, left, right);
    if (is_integer(left) && is_sequence(right)) return repeat(interp, right, left);
  }
  if (op == BinaryOperator::Mod && left->kind == ObjectKind::Str) return percent_format(interp, as<StrObject>(left).value, right);
  if (op == BinaryOperator::BitOr)
    if (Ref u = type_union(left, right)) return u;
  if (left->kind == ObjectKind::Dict && right->kind == ObjectKind::Dict && op == BinaryOperator::BitOr) {
    auto dict = py_dict();
    for (const auto* e : as<DictObject>(left).entries()) dict->set(interp, e->key, e->value);
    for (const auto* e : as<DictObject>(right).entries()) dict->set(interp, e->key, e->value);
    return dict;
  }
  if (left->kind == ObjectKind::Set && right->kind == ObjectKind::Set) {
    const auto& a = as<SetObject>(left).items;
    const auto& b = as<SetObject>(right).items;
    auto out = std::make_shared<SetObject>();
    auto add_if = [&](const DictObject& from, auto keep) {
      for (const auto* e : from.entries())
        if (keep(e->key)) out->items.set(interp, e->key, none());
    };
    auto in_b = [&](const Ref& k) { return b.get(interp, k) != nullptr; };
    auto in_a = [&](const Ref& k) { return a.get(interp, k) != nullptr; };
    switch (op) {
      case BinaryOperator::BitOr:
        add_if(a, [](const Ref&) { return true; });
        add_if(b, [](const Ref&) { return true; });
        return out;
      case BinaryOperator::BitAnd: add_if(a, in_b); return out;
      case BinaryOperator::Sub: add_if(a, [&](const Ref& k) { return !in_b(k); }); return out;
      case BinaryOperator::BitXor:
        add_if(a, [&](const Ref& k) { return !in_b(k); });
        add_if(b, [&](const Ref& k) { return !in_a(k); });
        return out;
      default: break;
    }
  }
  return nullptr;
}

bool has_dunders(const Ref& v) { return v->kind == ObjectKind::Instance || v->kind == ObjectKind::Native; }

// Builtin operands are computed here; objects with dunders ask them first, except that
// str.__mod__ formats any right operand ("%s" % obj) before obj's __rmod__ is asked.
bool builtin_first(BinaryOperator op, const Ref& left, const Ref& right) {
  return (!has_dunders(left) && !has_dunders(right)) || (op == BinaryOperator::Mod && left->kind == ObjectKind::Str);
}

[[noreturn]] void unsupported(BinaryOperator op, const Ref& left, const Ref& right, bool inplace) {
  if (op == BinaryOperator::Add && (left->kind == ObjectKind::Str || left->kind == ObjectKind::List ||
                                    left->kind == ObjectKind::Tuple) && left->kind != right->kind)
    raise_error(ExcType::TypeError, "can only concatenate " + type_name(left) + " (not \"" + type_name(right) +
                                        "\") to " + type_name(left));
  std::string symbol(spelling(op));
  if (inplace) symbol += "=";
  if (op == BinaryOperator::Pow && !inplace) symbol = "** or pow()";
  raise_error(ExcType::TypeError, "unsupported operand type(s) for " + symbol + ": '" + type_name(left) + "' and '" +
                                      type_name(right) + "'");
}

Ref dunder_binary(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right) {
  Dunders d = dunders_of(op);
  if (has_dunders(left))
    if (Ref r = call_dunder(interp, left, d.method, {right}); r && r.get() != not_implemented().get()) return r;
  if (has_dunders(right))
    if (Ref r = call_dunder(interp, right, d.reflected, {left}); r && r.get() != not_implemented().get()) return r;
  return nullptr;
}

CompareOperator reflected(CompareOperator op) {
  switch (op) {
    case CompareOperator::Lt: return CompareOperator::Gt;
    case CompareOperator::LtE: return CompareOperator::GtE;
    case CompareOperator::Gt: return CompareOperator::Lt;
    case CompareOperator::GtE: return CompareOperator::LtE;
    default: return op;
  }
}

const char* compare_dunder(CompareOperator op) {
  switch (op) {
    case CompareOperator::Eq: return "__eq__";
    case CompareOperator::NotEq: return "__ne__";
    case CompareOperator::Lt: return "__lt__";
    case CompareOperator::LtE: return "__le__";
    case CompareOperator::Gt: return "__gt__";
    case CompareOperator::GtE: return "__ge__";
    default: return nullptr;
  }
}

template <typename T>
bool ordered(CompareOperator op, const T& a, const T& b) {
  switch (op) {
    case CompareOperator::Eq: return a == b;
    case CompareOperator::NotEq: return a != b;
    case CompareOperator::Lt: return a < b;
    case CompareOperator::LtE: return a <= b;
    case CompareOperator::Gt: return a > b;
    case CompareOperator::GtE: return a >= b;
    default: return false;
  }
}

// Lexicographic comparison of sequences, as CPython's list/tuple richcompare.
Ref compare_sequences(Interpreter& interp, CompareOperator op, const std::vector<Ref>& a, const std::vector<Ref>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && equals(interp, a[i], b[i])) ++i;
  if (i >= a.size() || i >= b.size()) return py_bool(ordered(op, a.size(), b.size()));
  if (op == CompareOperator::Eq) return py_false();
  if (op == CompareOperator::NotEq) return py_true();
  return compare_op(interp, op, a[i], b[i]);
}

// Sets are ordered by inclusion: a <= b is "a is a subset of b", a < b a proper subset.
Ref set_order(Interpreter& interp, CompareOperator op, const DictObject& a, const DictObject& b) {
  auto subset = [&](const DictObject& small, const DictObject& big) {
    for (const auto* e : small.entries())
      if (!big.get(interp, e->key)) return false;
    return true;
  };
  switch (op) {
    case CompareOperator::LtE: return py_bool(subset(a, b));
    case CompareOperator::Lt: return py_bool(a.size() < b.size() && subset(a, b));
    case CompareOperator::GtE: return py_bool(subset(b, a));
    case CompareOperator::Gt: return py_bool(b.size() < a.size() && subset(b, a));
    default: return nullptr;
  }
}

Ref builtin_compare(Interpreter& interp, CompareOperator op, const Ref& left, const Ref& right) {
  if (is_number(left) && is_number(right)) {
    if (is_integer(left) && is_integer(right)) return py_bool(ordered(op, int_of(left), int_of(right)));
    return py_bool(ordered(op, float_of(left), float_of(right)));
  }
  if (left->kind != right->kind) return nullptr;
  switch (left->kind) {
    case ObjectKind::Str: return py_bool(ordered(op, as<StrObject>(left).value, as<StrObject>(right).value));
    case ObjectKind::List: return compare_sequences(interp, op, as<ListObject>(left).items, as<ListObject>(right).items);
    case ObjectKind::Tuple:
      return compare_sequences(interp, op, as<TupleObject>(left).items, as<TupleObject>(right).items);
    case ObjectKind::None:
      if (op == CompareOperator::Eq || op == CompareOperator::NotEq) return py_bool(op == CompareOperator::Eq);
      return nullptr;
    case ObjectKind::Set:
      if (op != CompareOperator::Eq && op != CompareOperator::NotEq) return set_order(interp, op, as<SetObject>(left).items, as<SetObject>(right).items);
      [[fallthrough]];
    case ObjectKind::Dict: {
      if (op != CompareOperator::Eq && op != CompareOperator::NotEq) return nullptr;
      const DictObject& a = left->kind == ObjectKind::Dict ? as<DictObject>(left) : as<SetObject>(left).items;
      const DictObject& b = right->kind == ObjectKind::Dict ? as<DictObject>(right) : as<SetObject>(right).items;
      bool same = a.size() == b.size();
      if (same)
        for (const auto* e : a.entries()) {
          Ref other = b.get(interp, e->key);
          if (!other || (left->kind == ObjectKind::Dict && !equals(interp, e->value, other))) {
            same = false;
            break;
          }
        }
      return py_bool(op == CompareOperator::Eq ? same : !same);
    }
    case ObjectKind::Range: {
      if (op != CompareOperator::Eq && op != CompareOperator::NotEq) return nullptr;
      const auto& a = as<RangeObject>(left);
      const auto& b = as<RangeObject>(right);
      bool same = a.length() == b.length() && (a.length() == 0 || (a.start == b.start && (a.length() == 1 || a.step == b.step)));
      return py_bool(op == CompareOperator::Eq ? same : !same);
    }
    default: return nullptr;
  }
}

}  // namespace

Ref binary_op(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right) {
  if (builtin_first(op, left, right))
    if (Ref r = builtin_binary(interp, op, left, right)) return r;
  if (Ref r = dunder_binary(interp, op, left, right)) return r;
  unsupported(op, left, right, false);
}

Ref inplace_op(Interpreter& interp, BinaryOperator op, const Ref& left, const Ref& right) {
  if (left->kind == ObjectKind::List && op == BinaryOperator::Add) {
    auto more = to_vector(interp, right);
    auto& items = as<ListObject>(left).items;
    items.insert(items.end(), more.begin(), more.end());
    return left;
  }
  if (has_dunders(left))
    if (Ref r = call_dunder(interp, left, dunders_of(op).inplace, {right}); r && r.get() != not_implemented().get())
      return r;
  if (builtin_first(op, left, right))
    if (Ref r = builtin_binary(interp, op, left, right)) return r;
  if (Ref r = dunder_binary(interp, op, left, right)) return r;
  unsupported(op, left, right, true);
}

Ref unary_op(Interpreter& interp, UnaryOperator op, const Ref& operand) {
  if (op == UnaryOperator::Not) return py_bool(!truthy(interp, operand));
  if (is_integer(operand)) {
    int64_t v = int_of(operand);
    switch (op) {
      case UnaryOperator::USub:
        if (v == INT64_MIN) raise_int_too_big("-(" + std::to_string(v) + ")");
        return py_int(-v);
      case UnaryOperator::UAdd: return py_int(v);
      case UnaryOperator::Invert: return py_int(~v);
      default: break;
    }
  }
  if (operand->kind == ObjectKind::Float) {
    if (op == UnaryOperator::USub) return py_float(-as<FloatObject>(operand).value);
    if (op == UnaryOperator::UAdd) return operand;
  }
  const char* name = op == UnaryOperator::USub ? "__neg__" : op == UnaryOperator::UAdd ? "__pos__" : "__invert__";
  if (has_dunders(operand))
    if (Ref r = call_dunder(interp, operand, name, {})) return r;
  raise_error(ExcType::TypeError, "bad operand type for unary " + std::string(spelling(op)) + ": '" +
                                      type_name(operand) + "'");
}

Ref compare_op(Interpreter& interp, CompareOperator op, const Ref& left, const Ref& right) {
  switch (op) {
    case CompareOperator::Is: return py_bool(is_same(left, right));
    case CompareOperator::IsNot: return py_bool(!is_same(left, right));
    case CompareOperator::In: return py_bool(contains(interp, right, left));
    case CompareOperator::NotIn: return py_bool(!contains(interp, right, left));
    default: break;
  }
  if (!has_dunders(left) && !has_dunders(right))
    if (Ref r = builtin_compare(interp, op, left, right)) return r;
  const char* method = compare_dunder(op);
  if (has_dunders(left))
    if (Ref r = call_dunder(interp, left, method, {right}); r && r.get() != not_implemented().get()) return r;
  if (has_dunders(right))
    if (Ref r = call_dunder(interp, right, compare_dunder(reflected(op)), {left}); r && r.get() != not_implemented().get())
      return r;
  if (op == CompareOperator::Eq) return py_bool(is_same(left, right));
  if (op == CompareOperator::NotEq) {
    if (has_dunders(left))
      if (Ref r = call_dunder(interp, left, "__eq__", {right}); r && r.get() != not_implemented().get())
        return py_bool(!truthy(interp, r));
    return py_bool(!is_same(left, right));
  }
  raise_error(ExcType::TypeError, "'" + std::string(spelling(op)) + "' not supported between instances of '" +
                                      type_name(left) + "' and '" + type_name(right) + "'");
}

bool less_than(Interpreter& interp, const Ref& left, const Ref& right) {
  return truthy(interp, compare_op(interp, CompareOperator::Lt, left, right));
}

}  // namespace kiln::python
