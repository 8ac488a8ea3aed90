// The functools module: partial, reduce and wraps (decorators in scripts use them).
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

void init_functools_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  g.set("partial", native_function("partial", [](Interpreter&, CallArgs& c) {
    if (c.args.empty()) raise_error(ExcType::TypeError, "partial expected at least 1 argument, got 0");
    CallArgs bound = c;
    return native_function("partial", [bound](Interpreter& ip, CallArgs& inner) {
      CallArgs all;
      all.args.assign(bound.args.begin() + 1, bound.args.end());
      all.args.insert(all.args.end(), inner.args.begin(), inner.args.end());
      all.kwargs = bound.kwargs;
      for (auto& kw : inner.kwargs) all.kwargs.push_back(kw);
      return call(ip, bound.args[0], std::move(all));
    });
  }));
  g.set("reduce", native_function("reduce", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("reduce", c, {{"function"}, {"iterable"}, {"initial", false}});
    Ref it = iter(ip, a[1]);
    Ref total = a[2] ? a[2] : next(ip, it);
    if (!total) raise_error(ExcType::TypeError, "reduce() of empty iterable with no initial value");
    while (Ref item = next(ip, it)) total = call(ip, a[0], std::vector<Ref>{total, item});
    return total;
  }));
  g.set("wraps", native_function("wraps", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("wraps", c, {{"wrapped"}});
    Ref wrapped = a[0];
    return native_function("wraps", [wrapped](Interpreter& ip, CallArgs& inner) {
      auto b = bind_native("wraps", inner, {{"wrapper"}});
      for (const char* attr : {"__module__", "__name__", "__qualname__", "__doc__"})
        if (Ref v = try_getattr(ip, wrapped, attr)) {
          if (b[0]->kind == ObjectKind::Function) {
            auto& f = as<FunctionObject>(b[0]);
            if (std::string(attr) == "__name__") f.name = str(ip, v);
            else if (std::string(attr) == "__qualname__") f.qualname = str(ip, v);
            else f.attrs[attr] = v;
          }
        }
      generic_setattr(ip, b[0], "__wrapped__", wrapped);
      return b[0];
    });
  }));
}

}  // namespace kiln::python
