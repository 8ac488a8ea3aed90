// Methods of the builtin module type (types.ModuleType): a script makes a module by calling it,
// ModuleType(name, doc=None), or a subclass of it (lazy modules, config modules).
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

void install_module_object_methods() {
  TypeObject* module_type = builtin_types().module;
  // An empty module of the class given, as CPython's module.__new__; __init__ names it.
  module_type->attrs["__new__"] = std::make_shared<WrapperObject>(
      ObjectKind::StaticMethod, native_function("__new__", [](Interpreter&, CallArgs& c) -> Ref {
        if (c.args.empty() || c.args[0]->kind != ObjectKind::Type || !as<TypeObject>(c.args[0]).is_subtype_of(builtin_types().module))
          raise_error(ExcType::TypeError, "module.__new__(X): X is not a subtype of module");
        auto cls = std::static_pointer_cast<TypeObject>(c.args[0]);
        auto module = std::make_shared<ModuleObject>("?");
        module->globals->clear();
        if (!cls->is_builtin) {
          module->cls = cls;
          module->type = cls.get();
        }
        return module;
      }));
  add_method(module_type, "__init__", [](Interpreter&, CallArgs& c) {
    if (c.args.empty() || c.args[0]->kind != ObjectKind::Module)
      raise_error(ExcType::TypeError, "descriptor '__init__' requires a 'module' object");
    CallArgs rest{{c.args.begin() + 1, c.args.end()}, c.kwargs};
    auto a = bind_native("module", rest, {{"name"}, {"doc", false}});
    if (a[0]->kind != ObjectKind::Str)
      raise_error(ExcType::TypeError, "module() argument 'name' must be str, not " + type_name(a[0]));
    auto& module = as<ModuleObject>(c.args[0]);
    module.name = as<StrObject>(a[0]).value;
    auto& globals = *module.globals;
    globals.set("__name__", a[0]);
    globals.set("__doc__", a[1] ? a[1] : none());
    for (const char* unset : {"__package__", "__loader__", "__spec__"}) globals.set(unset, none());
    return none();
  });
}

}  // namespace kiln::python
