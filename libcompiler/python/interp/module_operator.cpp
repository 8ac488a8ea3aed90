// The operator module: the language's operators as functions.
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

void init_operator_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  auto binary = [&](const char* name, BinaryOperator op, bool inplace) {
    g.set(name, native_function(name, [name, op, inplace](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"a"}, {"b"}});
      return inplace ? inplace_op(ip, op, a[0], a[1]) : binary_op(ip, op, a[0], a[1]);
    }));
  };
  binary("add", BinaryOperator::Add, false);
  binary("sub", BinaryOperator::Sub, false);
  binary("mul", BinaryOperator::Mult, false);
  binary("matmul", BinaryOperator::MatMult, false);
  binary("truediv", BinaryOperator::Div, false);
  binary("floordiv", BinaryOperator::FloorDiv, false);
  binary("mod", BinaryOperator::Mod, false);
  binary("pow", BinaryOperator::Pow, false);
  binary("and_", BinaryOperator::BitAnd, false);
  binary("or_", BinaryOperator::BitOr, false);
  binary("xor", BinaryOperator::BitXor, false);
  binary("lshift", BinaryOperator::LShift, false);
  binary("rshift", BinaryOperator::RShift, false);
  binary("iadd", BinaryOperator::Add, true);
  binary("isub", BinaryOperator::Sub, true);
  binary("imul", BinaryOperator::Mult, true);
  binary("itruediv", BinaryOperator::Div, true);
  auto compare = [&](const char* name, CompareOperator op) {
    g.set(name, native_function(name, [name, op](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"a"}, {"b"}});
      return compare_op(ip, op, a[0], a[1]);
    }));
  };
  compare("eq", CompareOperator::Eq);
  compare("ne", CompareOperator::NotEq);
  compare("lt", CompareOperator::Lt);
  compare("le", CompareOperator::LtE);
  compare("gt", CompareOperator::Gt);
  compare("ge", CompareOperator::GtE);
  compare("is_", CompareOperator::Is);
  compare("is_not", CompareOperator::IsNot);
  auto unary = [&](const char* name, UnaryOperator op) {
    g.set(name, native_function(name, [name, op](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"a"}});
      return unary_op(ip, op, a[0]);
    }));
  };
  unary("neg", UnaryOperator::USub);
  unary("pos", UnaryOperator::UAdd);
  unary("invert", UnaryOperator::Invert);
  unary("not_", UnaryOperator::Not);
  g.set("truth", native_function("truth", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("truth", c, {{"a"}});
    return py_bool(truthy(ip, a[0]));
  }));
  g.set("contains", native_function("contains", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("contains", c, {{"a"}, {"b"}});
    return py_bool(contains(ip, a[0], a[1]));
  }));
  g.set("getitem", native_function("getitem", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("getitem", c, {{"a"}, {"b"}});
    return getitem(ip, a[0], a[1]);
  }));
  g.set("setitem", native_function("setitem", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("setitem", c, {{"a"}, {"b"}, {"c"}});
    setitem(ip, a[0], a[1], a[2]);
    return none();
  }));
  g.set("itemgetter", native_function("itemgetter", [](Interpreter&, CallArgs& c) {
    std::vector<Ref> keys = c.args;
    return native_function("itemgetter", [keys](Interpreter& ip, CallArgs& inner) -> Ref {
      auto a = bind_native("itemgetter", inner, {{"obj"}});
      if (keys.size() == 1) return getitem(ip, a[0], keys[0]);
      std::vector<Ref> out;
      for (const auto& k : keys) out.push_back(getitem(ip, a[0], k));
      return py_tuple(std::move(out));
    });
  }));
  g.set("attrgetter", native_function("attrgetter", [](Interpreter&, CallArgs& c) {
    std::vector<std::string> names;
    for (const auto& n : c.args) names.push_back(to_str(n, "attribute name"));
    return native_function("attrgetter", [names](Interpreter& ip, CallArgs& inner) -> Ref {
      auto a = bind_native("attrgetter", inner, {{"obj"}});
      auto get = [&](const std::string& dotted) {
        Ref v = a[0];
        size_t start = 0;
        for (;;) {
          size_t dot = dotted.find('.', start);
          v = getattr(ip, v, dotted.substr(start, dot - start));
          if (dot == std::string::npos) return v;
          start = dot + 1;
        }
      };
      if (names.size() == 1) return get(names[0]);
      std::vector<Ref> out;
      for (const auto& n : names) out.push_back(get(n));
      return py_tuple(std::move(out));
    });
  }));
}

}  // namespace kiln::python
