// The types module: the types of the interpreter's own objects under their public names
// (FunctionType, ModuleType, ...) for isinstance checks and subclassing, and SimpleNamespace.
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/interp/union_type.h"

namespace kiln::python {
namespace {

// types.SimpleNamespace: an object whose attributes are the keyword arguments it was made with.
// Its instances are plain instances (an attribute dict), so that subclasses work as in CPython.
TypeObject* simple_namespace_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("SimpleNamespace", {}, "types");
    add_method(t, "__init__", [](Interpreter&, CallArgs& c) {
      if (c.args.size() > 1) raise_error(ExcType::TypeError, "no positional arguments expected");
      auto& dict = as<InstanceObject>(c.args.at(0)).dict;
      for (auto& [name, value] : c.kwargs) dict[name] = value;
      return none();
    });
    add_method(t, "__repr__", [](Interpreter& ip, CallArgs& c) {
      const Ref& self = c.args.at(0);
      // CPython names the exact type "namespace", a subclass by its own name.
      const std::string name = self->type == simple_namespace_type() ? "namespace" : self->type->name;
      ReprGuard guard(self.get());
      if (guard.recursive) return py_str(name + "(...)");
      std::string text;
      for (const auto& [key, value] : as<InstanceObject>(self).dict)
        text += (text.empty() ? "" : ", ") + key + "=" + repr(ip, value);
      return py_str(name + "(" + text + ")");
    });
    add_method(t, "__eq__", [](Interpreter& ip, CallArgs& c) {
      const Ref& self = c.args.at(0);
      const Ref& other = c.args.at(1);
      if (!isinstance(self, simple_namespace_type()) || !isinstance(other, simple_namespace_type())) return not_implemented();
      const AttrMap& mine = as<InstanceObject>(self).dict;
      const AttrMap& theirs = as<InstanceObject>(other).dict;
      if (mine.size() != theirs.size()) return py_false();
      for (const auto& [key, value] : mine) {
        auto it = theirs.find(key);
        if (it == theirs.end() || !equals(ip, value, it->second)) return py_false();
      }
      return py_true();
    });
    return t;
  }();
  return type;
}

}  // namespace

void init_types_module(Interpreter&, ModuleObject& m) {
  const BuiltinTypes& t = builtin_types();
  auto& g = *m.globals;
  // Functions made by def and by lambda are of one type, as in CPython.
  g.set("FunctionType", builtin_type_ref(t.function));
  g.set("LambdaType", builtin_type_ref(t.function));
  g.set("MethodType", builtin_type_ref(t.method));
  g.set("BuiltinFunctionType", builtin_type_ref(t.builtin_function));
  g.set("BuiltinMethodType", builtin_type_ref(t.builtin_function));
  g.set("GeneratorType", builtin_type_ref(t.generator));
  g.set("ModuleType", builtin_type_ref(t.module));
  g.set("NoneType", builtin_type_ref(t.none));
  g.set("EllipsisType", builtin_type_ref(t.ellipsis));
  g.set("NotImplementedType", builtin_type_ref(t.not_implemented));
  g.set("UnionType", builtin_type_ref(union_type()));
  g.set("SimpleNamespace", builtin_type_ref(simple_namespace_type()));
}

}  // namespace kiln::python
