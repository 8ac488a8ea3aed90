// The functools module, native half: reduce and total_ordering (functools.py adds the rest).
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

enum class OrderingRule { NotRootAndNotEqual, RootOrEqual, NotRoot, NotRootOrEqual, RootAndNotEqual };

// The comparison `derived` of a total_ordering class, computed from its `root` comparison.
Ref derived_comparison(const std::string& root, const std::string& derived, OrderingRule rule) {
  return native_function(derived, [root, rule](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native(root.c_str(), c, {{"self"}, {"other"}});
    Ref r = call(ip, a[0]->type->lookup(root), std::vector<Ref>{a[0], a[1]});
    if (r.get() == not_implemented().get()) return r;
    bool result = truthy(ip, r);
    auto eq = [&] { return equals(ip, a[0], a[1]); };
    switch (rule) {
      case OrderingRule::NotRootAndNotEqual: return py_bool(!result && !eq());
      case OrderingRule::RootOrEqual: return py_bool(result || eq());
      case OrderingRule::NotRoot: return py_bool(!result);
      case OrderingRule::NotRootOrEqual: return py_bool(!result || eq());
      case OrderingRule::RootAndNotEqual: return py_bool(result && !eq());
    }
    return r;
  });
}

}  // namespace

void init_functools_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  g.set("reduce", native_function("reduce", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("reduce", c, {{"function"}, {"iterable"}, {"initial", false}});
    Ref it = iter(ip, a[1]);
    Ref total = a[2] ? a[2] : next(ip, it);
    if (!total) raise_error(ExcType::TypeError, "reduce() of empty iterable with no initial value");
    while (Ref item = next(ip, it)) total = call(ip, a[0], std::vector<Ref>{total, item});
    return total;
  }));
  g.set("total_ordering", native_function("total_ordering", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("total_ordering", c, {{"cls"}});
    auto& cls = as<TypeObject>(a[0]);
    const TypeObject* object = builtin_types().object;
    auto defined = [&](const char* name) {
      Ref own = cls.lookup(name);
      return own && own != object->lookup(name);
    };
    const char* root = nullptr;
    for (const char* name : {"__lt__", "__le__", "__gt__", "__ge__"})
      if (!root && defined(name)) root = name;
    if (!root) raise_error(ExcType::ValueError, "must define at least one ordering operation: < > <= >=");
#define KILN_PY_TOTAL_ORDERING(root_name, derived, rule)                   \
    if (std::string_view(root) == root_name && !defined(derived)) \
      generic_setattr(ip, a[0], derived, derived_comparison(root_name, derived, OrderingRule::rule));
#include "libcompiler/python/interp/total_ordering.def"
    return a[0];
  }));
}

}  // namespace kiln::python
