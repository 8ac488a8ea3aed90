// Methods of `object`, `property` and functions that scripts call explicitly:
// object.__init__/__setattr__/__repr__ (through super()), property.setter, ...
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

void install_object_methods() {
  const BuiltinTypes& t = builtin_types();
  add_method(t.object, "__init__", [](Interpreter&, CallArgs& c) {
    if (c.args.size() > 1 || !c.kwargs.empty())
      raise_error(ExcType::TypeError, "object.__init__() takes exactly one argument (the instance to initialize)");
    return none();
  });
  // The end of the __init_subclass__ chain (an implicit classmethod): accepts no class keywords.
  t.object->attrs["__init_subclass__"] = std::make_shared<WrapperObject>(
      ObjectKind::ClassMethod, native_function("__init_subclass__", [](Interpreter&, CallArgs& c) {
        if (!c.kwargs.empty() && !c.args.empty() && c.args[0]->kind == ObjectKind::Type)
          raise_error(ExcType::TypeError, as<TypeObject>(c.args[0]).name + ".__init_subclass__() takes no keyword arguments");
        return none();
      }));
  add_method(t.object, "__setattr__", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 3) raise_error(ExcType::TypeError, "expected 2 arguments");
    generic_setattr(ip, c.args[0], to_str(c.args[1], "attribute name"), c.args[2]);
    return none();
  });
  add_method(t.object, "__getattribute__", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) raise_error(ExcType::TypeError, "expected 1 argument");
    return getattr(ip, c.args[0], to_str(c.args[1], "attribute name"));
  });
  add_method(t.object, "__delattr__", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2) raise_error(ExcType::TypeError, "expected 1 argument");
    const std::string& name = to_str(c.args[1], "attribute name");
    const Ref& self = c.args[0];
    // An instance's attributes are its dict's entries; a module's (a ModuleType subclass's
    // __delattr__ calling super()'s) are its globals.
    const bool deleted = self->kind == ObjectKind::Instance ? as<InstanceObject>(self).dict.erase(name) > 0
                         : self->kind == ObjectKind::Module && as<ModuleObject>(self).globals->erase(ip, py_str(name));
    if (!deleted) raise_error(ExcType::AttributeError, "'" + type_name(self) + "' object has no attribute '" + name + "'");
    return none();
  });
  add_method(t.object, "__repr__", [](Interpreter&, CallArgs& c) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%012lx", reinterpret_cast<unsigned long>(c.args.at(0).get()));
    // append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
    std::string text = "<";
    text.append(c.args[0]->type->qualified_name()).append(" object at ").append(address).append(">");
    return py_str(std::move(text));
  });
  add_method(t.object, "__str__", [](Interpreter& ip, CallArgs& c) { return py_str(repr(ip, c.args.at(0))); });
  add_method(t.object, "__eq__", [](Interpreter&, CallArgs& c) {
    return is_same(c.args.at(0), c.args.at(1)) ? py_true() : not_implemented();
  });
  add_method(t.object, "__ne__", [](Interpreter&, CallArgs& c) {
    return is_same(c.args.at(0), c.args.at(1)) ? py_false() : not_implemented();
  });
  add_method(t.object, "__hash__", [](Interpreter&, CallArgs& c) {
    return py_int(static_cast<int64_t>(std::hash<const void*>()(c.args.at(0).get())));
  });
  add_method(t.object, "__format__", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2 || !to_str(c.args[1], "format_spec").empty())
      raise_error(ExcType::TypeError, "unsupported format string passed to " + type_name(c.args.at(0)) + ".__format__");
    return py_str(str(ip, c.args[0]));
  });

  auto property_with = [](bool setter) {
    return [setter](Interpreter&, CallArgs& c) -> Ref {
      if (c.args.size() != 2) raise_error(ExcType::TypeError, "expected 1 argument");
      const auto& old = as<PropertyObject>(c.args[0]);
      return std::make_shared<PropertyObject>(setter ? old.getter : c.args[1], setter ? c.args[1] : old.setter);
    };
  };
  add_method(t.property, "setter", property_with(true));
  add_method(t.property, "getter", property_with(false));
  add_getter(t.property, "fget", [](Interpreter&, const Ref& p) {
    const Ref& g = as<PropertyObject>(p).getter;
    return g ? g : none();
  });
}

}  // namespace kiln::python
