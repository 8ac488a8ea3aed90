// The builtins module: builtin functions and the constructors of builtin types.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/bytes_object.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/format_spec.h"
#include "libcompiler/python/interp/frame.h"
#include "libcompiler/python/interp/number_parsing.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/python/utf8.h"

namespace kiln::python {
namespace {

[[noreturn]] void arg_count_error(const char* name, const char* expected, size_t given) {
  raise_error(ExcType::TypeError, std::string(name) + " expected " + expected + ", got " + std::to_string(given));
}

Ref kwarg(CallArgs& c, const char* name) {
  for (auto it = c.kwargs.begin(); it != c.kwargs.end(); ++it)
    if (it->first == name) {
      Ref v = it->second;
      c.kwargs.erase(it);
      return v;
    }
  return nullptr;
}

void no_kwargs(const char* function, const CallArgs& c) {
  if (!c.kwargs.empty())
    raise_error(ExcType::TypeError, std::string(function) + "() takes no keyword arguments");
}

int64_t float_to_int(double v) {
  if (std::isnan(v)) raise_error(ExcType::ValueError, "cannot convert float NaN to integer");
  if (std::isinf(v)) raise_error(ExcType::OverflowError, "cannot convert float infinity to integer");
  double t = std::trunc(v);
  if (t >= 9.2233720368547758e18 || t < -9.2233720368547758e18)
    raise_int_too_big("int(" + repr_float(v) + ")");
  return static_cast<int64_t>(t);
}

Ref make_int(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("int", c, {{"x", false}, {"base", false}});
  if (!a[0]) return py_int(0);
  const Ref& x = a[0];
  if (a[1]) {
    if (x->kind != ObjectKind::Str) raise_error(ExcType::TypeError, "int() can't convert non-string with explicit base");
    return py_int(parse_int_literal(as<StrObject>(x).value, to_index(interp, a[1])));
  }
  switch (x->kind) {
    case ObjectKind::Int: return x;
    case ObjectKind::Bool: return py_int(as<BoolObject>(x).value);
    case ObjectKind::Float: return py_int(float_to_int(as<FloatObject>(x).value));
    case ObjectKind::Str: return py_int(parse_int_literal(as<StrObject>(x).value, 10));
    default: break;
  }
  if (Ref r = call_dunder(interp, x, "__int__", {})) return r;
  if (Ref r = call_dunder(interp, x, "__index__", {})) return r;
  raise_error(ExcType::TypeError, "int() argument must be a string, a bytes-like object or a real number, not '" +
                                      type_name(x) + "'");
}

Ref make_float(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("float", c, {{"x", false}});
  if (!a[0]) return py_float(0.0);
  const Ref& x = a[0];
  if (x->kind == ObjectKind::Float) return x;
  if (x->kind == ObjectKind::Str) return py_float(parse_float_literal(as<StrObject>(x).value));
  if (x->kind == ObjectKind::Int || x->kind == ObjectKind::Bool) return py_float(to_double(interp, x));
  if (Ref r = call_dunder(interp, x, "__float__", {})) return r;
  raise_error(ExcType::TypeError, "float() argument must be a string or a real number, not '" + type_name(x) + "'");
}

Ref make_dict(Interpreter& interp, CallArgs& c) {
  auto dict = py_dict();
  if (c.args.size() > 1) arg_count_error("dict", "at most 1 argument", c.args.size());
  if (!c.args.empty()) {
    const Ref& source = c.args[0];
    if (auto items = mapping_items(interp, source)) {
      for (auto& [key, value] : *items) dict->set(interp, key, value);
    } else {
      size_t index = 0;
      for (const auto& pair : to_vector(interp, source)) {
        auto items = to_vector(interp, pair);
        if (items.size() != 2)
          raise_error(ExcType::ValueError, "dictionary update sequence element #" + std::to_string(index) +
                                               " has length " + std::to_string(items.size()) + "; 2 is required");
        dict->set(interp, items[0], items[1]);
        ++index;
      }
    }
  }
  for (auto& [k, v] : c.kwargs) dict->set(k, v);
  return dict;
}

Ref make_range(Interpreter& interp, CallArgs& c) {
  no_kwargs("range", c);
  auto& a = c.args;
  auto idx = [&](const Ref& v) { return to_index(interp, v); };
  switch (a.size()) {
    case 1: return std::make_shared<RangeObject>(0, idx(a[0]), 1);
    case 2: return std::make_shared<RangeObject>(idx(a[0]), idx(a[1]), 1);
    case 3: {
      int64_t step = idx(a[2]);
      if (step == 0) raise_error(ExcType::ValueError, "range() arg 3 must not be zero");
      return std::make_shared<RangeObject>(idx(a[0]), idx(a[1]), step);
    }
    default:
      if (a.empty()) raise_error(ExcType::TypeError, "range expected at least 1 argument, got 0");
      raise_error(ExcType::TypeError, "range expected at most 3 arguments, got " + std::to_string(a.size()));
  }
}

// min() and max(): an iterable or several arguments, key= and default=.
Ref extreme(Interpreter& interp, CallArgs& c, const char* name, bool want_max) {
  Ref key = kwarg(c, "key");
  Ref fallback = kwarg(c, "default");
  if (!c.kwargs.empty())
    raise_error(ExcType::TypeError, std::string(name) + "() got an unexpected keyword argument '" + c.kwargs[0].first + "'");
  if (c.args.empty()) raise_error(ExcType::TypeError, std::string(name) + " expected at least 1 argument, got 0");
  std::vector<Ref> items = c.args.size() == 1 ? to_vector(interp, c.args[0]) : c.args;
  if (items.empty()) {
    if (fallback) return fallback;
    raise_error(ExcType::ValueError, std::string(name) + "() arg is an empty sequence");
  }
  auto key_of = [&](const Ref& v) { return key && !is_none(key) ? call(interp, key, std::vector<Ref>{v}) : v; };
  Ref best = items[0];
  Ref best_key = key_of(best);
  for (size_t i = 1; i < items.size(); ++i) {
    Ref k = key_of(items[i]);
    if (want_max ? less_than(interp, best_key, k) : less_than(interp, k, best_key)) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

Ref round_value(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("round", c, {{"number"}, {"ndigits", false}});
  const Ref& x = a[0];
  bool has_digits = a[1] && !is_none(a[1]);
  if (x->kind == ObjectKind::Int || x->kind == ObjectKind::Bool) {
    int64_t v = to_index(interp, x);
    if (!has_digits || to_index(interp, a[1]) >= 0) return py_int(v);
    int64_t scale = 1;
    for (int64_t i = 0; i < -to_index(interp, a[1]) && scale < INT64_MAX / 10; ++i) scale *= 10;
    double q = std::nearbyint(static_cast<double>(v) / static_cast<double>(scale));
    return py_int(static_cast<int64_t>(q) * scale);
  }
  if (x->kind != ObjectKind::Float) {
    if (Ref r = has_digits ? call_dunder(interp, x, "__round__", {a[1]}) : call_dunder(interp, x, "__round__", {})) return r;
    raise_error(ExcType::TypeError, "type " + type_name(x) + " doesn't define __round__ method");
  }
  double v = as<FloatObject>(x).value;
  if (!has_digits) return py_int(float_to_int(std::nearbyint(v)));
  int64_t digits = to_index(interp, a[1]);
  if (!std::isfinite(v)) return x;
  if (digits >= 0) {
    // printf rounds the exact binary value half-to-even, as CPython's dtoa-based round does.
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.*f", static_cast<int>(std::min<int64_t>(digits, 330)), v);
    return py_float(std::strtod(buffer, nullptr));
  }
  // CPython's bounds: past 10**-308 every finite float rounds to a zero of its sign.
  if (digits < -308) return py_float(0.0 * v);
  double scale = std::pow(10.0, static_cast<double>(-digits));
  double rounded = std::nearbyint(v / scale) * scale;
  if (std::isinf(rounded)) raise_error(ExcType::OverflowError, "rounded value too large to represent");
  return py_float(rounded);
}

Ref print(Interpreter& interp, CallArgs& c) {
  Ref sep = kwarg(c, "sep");
  Ref end = kwarg(c, "end");
  Ref file = kwarg(c, "file");
  Ref flush = kwarg(c, "flush");
  if (!c.kwargs.empty())
    raise_error(ExcType::TypeError, "'" + c.kwargs[0].first + "' is an invalid keyword argument for print()");
  std::string separator = sep && !is_none(sep) ? to_str(sep, "sep") : " ";
  std::string ending = end && !is_none(end) ? to_str(end, "end") : "\n";
  std::string text;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i) text += separator;
    text += str(interp, c.args[i]);
  }
  text += ending;
  if (!file || is_none(file)) file = redirected_stdout(interp);
  if (file && !is_none(file)) {
    call(interp, getattr(interp, file, "write"), std::vector<Ref>{py_str(std::move(text))});
    if (flush && truthy(interp, flush)) call(interp, getattr(interp, file, "flush"), std::vector<Ref>{});
    return none();
  }
  interp.out->write(text.data(), static_cast<std::streamsize>(text.size()));
  if (flush && truthy(interp, flush)) interp.out->flush();
  return none();
}

Ref sorted_list(Interpreter& interp, std::vector<Ref> items, const Ref& key, bool reverse) {
  std::vector<std::pair<Ref, Ref>> keyed;
  keyed.reserve(items.size());
  for (auto& item : items) {
    Ref k = key && !is_none(key) ? call(interp, key, std::vector<Ref>{item}) : item;
    keyed.emplace_back(std::move(k), std::move(item));
  }
  if (reverse) std::reverse(keyed.begin(), keyed.end());
  std::stable_sort(keyed.begin(), keyed.end(),
                   [&](const auto& a, const auto& b) { return less_than(interp, a.first, b.first); });
  if (reverse) std::reverse(keyed.begin(), keyed.end());
  std::vector<Ref> out;
  out.reserve(keyed.size());
  for (auto& [k, v] : keyed) out.push_back(std::move(v));
  return py_list(std::move(out));
}

bool isinstance_of(Interpreter& interp, const Ref& value, const Ref& classes, const char* function) {
  if (classes->kind == ObjectKind::Tuple) {
    for (const auto& c : as<TupleObject>(classes).items)
      if (isinstance_of(interp, value, c, function)) return true;
    return false;
  }
  if (classes->kind != ObjectKind::Type)
    raise_error(ExcType::TypeError, std::string(function) + "() arg 2 must be a type, a tuple of types, or a union");
  if (Ref hook = try_getattr(interp, classes, "__instancecheck__"); hook && hook->kind == ObjectKind::BoundMethod)
    return truthy(interp, call(interp, hook, std::vector<Ref>{value}));
  return value->type->is_subtype_of(&as<TypeObject>(classes));
}

Ref super_of(Interpreter& interp, CallArgs& c) {
  if (c.args.size() == 2) {
    if (c.args[0]->kind != ObjectKind::Type) raise_error(ExcType::TypeError, "super() argument 1 must be a type");
    return std::make_shared<SuperObject>(&as<TypeObject>(c.args[0]), c.args[1]);
  }
  if (!c.args.empty()) raise_error(ExcType::TypeError, "super() takes 0 or 2 arguments");
  Frame* frame = interp.current_frame();
  // The native call runs inside the caller's frame: the method that called super().
  auto cls = frame && frame->function ? frame->function->owner_class.lock() : nullptr;
  if (!cls) raise_error(ExcType::RuntimeError, "super(): __class__ cell not found");
  if (!frame->scope || frame->scope->slots.empty() || !frame->scope->slots[0])
    raise_error(ExcType::RuntimeError, "super(): no arguments");
  return std::make_shared<SuperObject>(cls.get(), frame->scope->slots[0]);
}

Ref zip_of(Interpreter& interp, CallArgs& c) {
  kwarg(c, "strict");
  std::vector<Ref> iterators;
  for (const auto& a : c.args) iterators.push_back(iter(interp, a));
  Interpreter* ip = &interp;
  return std::make_shared<IteratorObject>([ip, iterators]() -> Ref {
    if (iterators.empty()) return nullptr;
    std::vector<Ref> items;
    for (const auto& it : iterators) {
      Ref item = next(*ip, it);
      if (!item) return nullptr;
      items.push_back(std::move(item));
    }
    return py_tuple(std::move(items));
  });
}

Ref reversed_of(Interpreter& interp, const Ref& value) {
  if (value->kind == ObjectKind::Range) {
    const auto& r = as<RangeObject>(value);
    int64_t n = r.length();
    return iter(interp, std::make_shared<RangeObject>(r.start + (n - 1) * r.step, r.start - r.step, -r.step));
  }
  if (value->kind == ObjectKind::List || value->kind == ObjectKind::Tuple || value->kind == ObjectKind::Str ||
      value->kind == ObjectKind::Dict) {
    auto items = to_vector(interp, value);
    std::reverse(items.begin(), items.end());
    return iter(interp, py_list(std::move(items)));
  }
  if (Ref r = call_dunder(interp, value, "__reversed__", {})) return r;
  int64_t n = len(interp, value);
  std::vector<Ref> items;
  for (int64_t i = n - 1; i >= 0; --i) items.push_back(getitem(interp, value, py_int(i)));
  return iter(interp, py_list(std::move(items)));
}

void def(DictObject& builtins, const std::string& name, NativeFn fn) {
  builtins.set(name, native_function(name, std::move(fn)));
}

}  // namespace

void install_builtin_functions(Interpreter& interp, DictObject& b) {
  install_bytes_type(b);
  const BuiltinTypes& t = builtin_types();
  static const bool constructors = [&] {
    t.int_->constructor = make_int;
    t.float_->constructor = make_float;
    t.bool_->constructor = [](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("bool", c, {{"x", false}});
      return py_bool(a[0] && truthy(ip, a[0]));
    };
    t.str->constructor = [](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("str", c, {{"object", false}});
      return a[0] ? py_str(str(ip, a[0])) : py_str("");
    };
    t.list->constructor = [](Interpreter& ip, CallArgs& c) {
      no_kwargs("list", c);
      if (c.args.size() > 1) arg_count_error("list", "at most 1 argument", c.args.size());
      return c.args.empty() ? py_list() : py_list(to_vector(ip, c.args[0]));
    };
    t.tuple->constructor = [](Interpreter& ip, CallArgs& c) {
      no_kwargs("tuple", c);
      if (c.args.size() > 1) arg_count_error("tuple", "at most 1 argument", c.args.size());
      if (!c.args.empty() && c.args[0]->kind == ObjectKind::Tuple) return c.args[0];
      return c.args.empty() ? py_tuple() : py_tuple(to_vector(ip, c.args[0]));
    };
    t.dict->constructor = make_dict;
    t.set->constructor = [](Interpreter& ip, CallArgs& c) {
      no_kwargs("set", c);
      auto set = std::make_shared<SetObject>();
      if (!c.args.empty())
        for (const auto& item : to_vector(ip, c.args[0])) set->items.set(ip, item, none());
      return Ref(set);
    };
    t.range->constructor = make_range;
    t.slice->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      no_kwargs("slice", c);
      auto& a = c.args;
      if (a.size() == 1) return std::make_shared<SliceObject>(none(), a[0], none());
      if (a.size() == 2) return std::make_shared<SliceObject>(a[0], a[1], none());
      if (a.size() == 3) return std::make_shared<SliceObject>(a[0], a[1], a[2]);
      raise_error(ExcType::TypeError, "slice expected at least 1 argument, got " + std::to_string(a.size()));
    };
    t.type->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      if (c.args.size() == 1) return type_of(c.args[0]);
      raise_error(ExcType::NotImplementedError, "kiln does not support creating classes with type(name, bases, dict)");
    };
    t.object->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      if (!c.args.empty()) raise_error(ExcType::TypeError, "object() takes no arguments");
      return std::make_shared<InstanceObject>(builtin_type_ref(builtin_types().object));
    };
    t.property->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      auto a = bind_native("property", c, {{"fget", false}, {"fset", false}, {"fdel", false}, {"doc", false}});
      return std::make_shared<PropertyObject>(a[0] && !is_none(a[0]) ? a[0] : nullptr,
                                              a[1] && !is_none(a[1]) ? a[1] : nullptr);
    };
    t.staticmethod->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      auto a = bind_native("staticmethod", c, {{"function"}});
      return std::make_shared<WrapperObject>(ObjectKind::StaticMethod, a[0]);
    };
    t.classmethod->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      auto a = bind_native("classmethod", c, {{"function"}});
      return std::make_shared<WrapperObject>(ObjectKind::ClassMethod, a[0]);
    };
    t.super->constructor = super_of;
    // types.MethodType(function, instance): the function bound to the instance.
    t.method->constructor = [](Interpreter&, CallArgs& c) -> Ref {
      if (!c.kwargs.empty()) raise_error(ExcType::TypeError, "method() takes no keyword arguments");
      if (c.args.size() != 2)
        raise_error(ExcType::TypeError, "method expected 2 arguments, got " + std::to_string(c.args.size()));
      if (!is_callable(c.args[0])) raise_error(ExcType::TypeError, "first argument must be callable");
      if (is_none(c.args[1])) raise_error(ExcType::TypeError, "instance must not be None");
      return std::make_shared<BoundMethodObject>(c.args[1], c.args[0]);
    };
    return true;
  }();
  (void)constructors;
  (void)interp;

#define KILN_PY_BUILTIN_TYPE(field, python_name) b.set(python_name, builtin_type_ref(t.field));
#include "libcompiler/python/interp/builtin_types.def"
  for (TypeObject* e : all_exception_types()) b.set(e->name, builtin_type_ref(e));
  b.set("NotImplemented", not_implemented());
  b.set("Ellipsis", ellipsis());

  def(b, "print", print);
  def(b, "open", open_file);
  def(b, "repr", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("repr", c, {{"obj"}});
    return py_str(repr(ip, a[0]));
  });
  def(b, "len", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 1) raise_error(ExcType::TypeError, "len() takes exactly one argument (" + std::to_string(c.args.size()) + " given)");
    return py_int(len(ip, c.args[0]));
  });
  def(b, "isinstance", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) arg_count_error("isinstance", "2 arguments", c.args.size());
    return py_bool(isinstance_of(ip, c.args[0], c.args[1], "isinstance"));
  });
  def(b, "issubclass", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) arg_count_error("issubclass", "2 arguments", c.args.size());
    if (c.args[0]->kind != ObjectKind::Type) raise_error(ExcType::TypeError, "issubclass() arg 1 must be a class");
    std::function<bool(const Ref&)> check = [&](const Ref& classes) {
      if (classes->kind == ObjectKind::Tuple) {
        for (const auto& cls : as<TupleObject>(classes).items)
          if (check(cls)) return true;
        return false;
      }
      if (classes->kind != ObjectKind::Type)
        raise_error(ExcType::TypeError, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
      // A class's own __subclasscheck__ (a classmethod here, where CPython finds it on the metaclass) decides.
      if (Ref hook = try_getattr(ip, classes, "__subclasscheck__"); hook && hook->kind == ObjectKind::BoundMethod)
        return truthy(ip, call(ip, hook, std::vector<Ref>{c.args[0]}));
      return as<TypeObject>(c.args[0]).is_subtype_of(&as<TypeObject>(classes));
    };
    return py_bool(check(c.args[1]));
  });
  def(b, "abs", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("abs", c, {{"x"}});
    const Ref& x = a[0];
    if (x->kind == ObjectKind::Float) return py_float(std::fabs(as<FloatObject>(x).value));
    if (x->kind == ObjectKind::Int || x->kind == ObjectKind::Bool) {
      int64_t v = to_index(ip, x);
      return v < 0 ? unary_op(ip, UnaryOperator::USub, x) : py_int(v);
    }
    if (Ref r = call_dunder(ip, x, "__abs__", {})) return r;
    raise_error(ExcType::TypeError, "bad operand type for abs(): '" + type_name(x) + "'");
  });
  def(b, "min", [](Interpreter& ip, CallArgs& c) { return extreme(ip, c, "min", false); });
  def(b, "max", [](Interpreter& ip, CallArgs& c) { return extreme(ip, c, "max", true); });
  def(b, "sum", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("sum", c, {{"iterable"}, {"start", false}});
    Ref total = a[1] ? a[1] : py_int(0);
    if (total->kind == ObjectKind::Str)
      raise_error(ExcType::TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
    Ref it = iter(ip, a[0]);
    while (Ref item = next(ip, it)) total = binary_op(ip, BinaryOperator::Add, total, item);
    return total;
  });
  def(b, "round", round_value);
  def(b, "sorted", [](Interpreter& ip, CallArgs& c) {
    Ref key = kwarg(c, "key");
    Ref reverse = kwarg(c, "reverse");
    auto a = bind_native("sorted", c, {{"iterable"}});
    return sorted_list(ip, to_vector(ip, a[0]), key, reverse && truthy(ip, reverse));
  });
  def(b, "reversed", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("reversed", c, {{"sequence"}});
    return reversed_of(ip, a[0]);
  });
  def(b, "enumerate", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("enumerate", c, {{"iterable"}, {"start", false}});
    Ref it = iter(ip, a[0]);
    auto index = std::make_shared<int64_t>(a[1] ? to_index(ip, a[1]) : 0);
    Interpreter* p = &ip;
    return std::make_shared<IteratorObject>([p, it, index]() -> Ref {
      Ref item = next(*p, it);
      if (!item) return nullptr;
      return py_tuple({py_int((*index)++), item});
    });
  });
  def(b, "zip", zip_of);
  def(b, "map", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (c.args.size() < 2) raise_error(ExcType::TypeError, "map() must have at least two arguments.");
    Ref function = c.args[0];
    std::vector<Ref> iterators;
    for (size_t i = 1; i < c.args.size(); ++i) iterators.push_back(iter(ip, c.args[i]));
    Interpreter* p = &ip;
    return std::make_shared<IteratorObject>([p, function, iterators]() -> Ref {
      std::vector<Ref> args;
      for (const auto& it : iterators) {
        Ref item = next(*p, it);
        if (!item) return nullptr;
        args.push_back(std::move(item));
      }
      return call(*p, function, std::move(args));
    });
  });
  def(b, "filter", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("filter", c, {{"function"}, {"iterable"}});
    Ref function = a[0];
    Ref it = iter(ip, a[1]);
    Interpreter* p = &ip;
    return std::make_shared<IteratorObject>([p, function, it]() -> Ref {
      while (Ref item = next(*p, it)) {
        Ref keep = is_none(function) ? item : call(*p, function, std::vector<Ref>{item});
        if (truthy(*p, keep)) return item;
      }
      return nullptr;
    });
  });
  def(b, "any", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("any", c, {{"iterable"}});
    Ref it = iter(ip, a[0]);
    while (Ref item = next(ip, it))
      if (truthy(ip, item)) return py_true();
    return py_false();
  });
  def(b, "all", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("all", c, {{"iterable"}});
    Ref it = iter(ip, a[0]);
    while (Ref item = next(ip, it))
      if (!truthy(ip, item)) return py_false();
    return py_true();
  });
  def(b, "getattr", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (c.args.size() < 2 || c.args.size() > 3) arg_count_error("getattr", "2 or 3 arguments", c.args.size());
    const std::string& name = to_str(c.args[1], "attribute name");
    if (c.args.size() == 2) return getattr(ip, c.args[0], name);
    Ref value = getattr_or_null(ip, c.args[0], name);
    return value ? value : c.args[2];
  });
  def(b, "setattr", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 3) arg_count_error("setattr", "3 arguments", c.args.size());
    setattr(ip, c.args[0], to_str(c.args[1], "attribute name"), c.args[2]);
    return none();
  });
  def(b, "delattr", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) arg_count_error("delattr", "2 arguments", c.args.size());
    delattr(ip, c.args[0], to_str(c.args[1], "attribute name"));
    return none();
  });
  def(b, "hasattr", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) arg_count_error("hasattr", "2 arguments", c.args.size());
    return py_bool(getattr_or_null(ip, c.args[0], to_str(c.args[1], "attribute name")) != nullptr);
  });
  def(b, "callable", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("callable", c, {{"obj"}});
    return py_bool(is_callable(a[0]));
  });
  def(b, "id", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("id", c, {{"obj"}});
    return py_int(static_cast<int64_t>(reinterpret_cast<uintptr_t>(a[0].get())));
  });
  def(b, "hash", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("hash", c, {{"obj"}});
    return py_int(static_cast<int64_t>(hash_value(ip, a[0])));
  });
  def(b, "iter", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("iter", c, {{"object"}});
    return iter(ip, a[0]);
  });
  def(b, "next", [](Interpreter& ip, CallArgs& c) -> Ref {
    if (c.args.empty() || c.args.size() > 2) arg_count_error("next", "1 or 2 arguments", c.args.size());
    if (c.args[0]->kind != ObjectKind::Iterator && c.args[0]->kind != ObjectKind::Generator &&
        !try_getattr(ip, c.args[0], "__next__"))
      raise_error(ExcType::TypeError, "'" + type_name(c.args[0]) + "' object is not an iterator");
    if (Ref item = next(ip, c.args[0])) return item;
    if (c.args.size() == 2) return c.args[1];
    throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::StopIteration)), std::vector<Ref>{}));
  });
  def(b, "divmod", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("divmod", c, {{"x"}, {"y"}});
    return py_tuple({binary_op(ip, BinaryOperator::FloorDiv, a[0], a[1]), binary_op(ip, BinaryOperator::Mod, a[0], a[1])});
  });
  def(b, "pow", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("pow", c, {{"base"}, {"exp"}, {"mod", false}});
    Ref r = binary_op(ip, BinaryOperator::Pow, a[0], a[1]);
    return a[2] && !is_none(a[2]) ? binary_op(ip, BinaryOperator::Mod, r, a[2]) : r;
  });
  def(b, "format", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("format", c, {{"value"}, {"format_spec", false}});
    return py_str(format_value(ip, a[0], a[1] ? to_str(a[1], "format_spec") : ""));
  });
  def(b, "chr", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("chr", c, {{"i"}});
    int64_t v = to_index(ip, a[0]);
    if (v < 0 || v > 0x10FFFF) raise_error(ExcType::ValueError, "chr() arg not in range(0x110000)");
    std::string out;
    append_utf8(out, static_cast<uint32_t>(v));
    return py_str(out);
  });
  def(b, "ord", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("ord", c, {{"c"}});
    const std::string& s = to_str(a[0], "ord() argument");
    auto bytes = reinterpret_cast<const unsigned char*>(s.data());
    size_t n = s.empty() ? 0 : bytes[0] < 0x80 ? 1 : bytes[0] < 0xE0 ? 2 : bytes[0] < 0xF0 ? 3 : 4;
    if (n == 0 || n != s.size())
      raise_error(ExcType::TypeError, "ord() expected a character, but string of length " + std::to_string(s.size()) + " found");
    uint32_t cp = n == 1 ? bytes[0] : bytes[0] & (0xFF >> (n + 1));
    for (size_t i = 1; i < n; ++i) cp = (cp << 6) | (bytes[i] & 0x3F);
    return py_int(cp);
  });
  auto radix = [&](const char* name, const char* spec) {
    def(b, name, [name, spec](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"number"}});
      return py_str(format_value(ip, py_int(to_index(ip, a[0])), spec));
    });
  };
  radix("hex", "#x");
  radix("bin", "#b");
  radix("oct", "#o");
  def(b, "vars", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("vars", c, {{"object"}});
    return getattr(ip, a[0], "__dict__");
  });
  // The caller's module namespace (the native call runs inside the caller's frame).
  def(b, "globals", [](Interpreter& ip, CallArgs& c) -> Ref {
    bind_native("globals", c, {});
    Frame* frame = ip.current_frame();
    if (!frame || !frame->globals) raise_error(ExcType::RuntimeError, "globals(): no current frame");
    return frame->globals;
  });
}

}  // namespace kiln::python
