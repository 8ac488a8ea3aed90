#include "libcompiler/python/interp/class_builder.h"

#include <algorithm>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

// A class's `type` is a raw pointer; user metaclasses are kept alive here for the process
// (classes are rarely freed, and metaclasses are few).
void retain_metaclass(const TypeRef& metaclass) {
  static std::vector<TypeRef> retained;
  if (std::find(retained.begin(), retained.end(), metaclass) == retained.end()) retained.push_back(metaclass);
}

}  // namespace

TypeRef metaclass_of(const std::vector<TypeRef>& bases) {
  TypeObject* winner = builtin_types().type;
  for (const auto& base : bases) {
    TypeObject* candidate = base->type;
    if (winner->is_subtype_of(candidate)) continue;
    if (candidate->is_subtype_of(winner)) {
      winner = candidate;
      continue;
    }
    raise_error(ExcType::TypeError,
                "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the "
                "metaclasses of all its bases");
  }
  // Non-owning, which is safe: a user metaclass that a base has is retained (retain_metaclass).
  return builtin_type_ref(winner);
}

TypeRef build_class(Interpreter& interp, const TypeRef& metaclass, const std::string& name, std::vector<TypeRef> bases,
                    const DictObject& namespace_dict, const std::vector<std::pair<std::string, Ref>>& keywords) {
  Ref module_name = namespace_dict.get("__module__");
  TypeRef cls = make_class(name, std::move(bases),
                           module_name && module_name->kind == ObjectKind::Str ? as<StrObject>(module_name).value
                                                                              : "__main__");
  interp.track_class(cls);
  if (metaclass.get() != builtin_types().type) {
    retain_metaclass(metaclass);
    cls->type = metaclass.get();
  }
  for (const auto* entry : namespace_dict.entries()) {
    if (entry->key->kind != ObjectKind::Str) raise_error(ExcType::TypeError, "class namespace keys must be strings");
    Ref value = entry->value;
    Ref function = value;
    if (value->kind == ObjectKind::StaticMethod || value->kind == ObjectKind::ClassMethod)
      function = as<WrapperObject>(value).function;
    if (value->kind == ObjectKind::Property && as<PropertyObject>(value).getter &&
        as<PropertyObject>(value).getter->kind == ObjectKind::Function)
      function = as<PropertyObject>(value).getter;
    if (function->kind == ObjectKind::Function) as<FunctionObject>(function).owner_class = cls;
    cls->attrs[as<StrObject>(entry->key).value] = value;
  }
  for (const auto* entry : namespace_dict.entries())
    if (entry->value->kind == ObjectKind::Instance) call_dunder(interp, entry->value, "__set_name__", {cls, entry->key});
  for (size_t i = 1; i < cls->mro.size(); ++i) {
    auto hook = cls->mro[i]->attrs.find("__init_subclass__");
    if (hook == cls->mro[i]->attrs.end()) continue;
    const Ref& value = hook->second;
    CallArgs args;
    args.args.push_back(cls);
    args.kwargs = keywords;
    call(interp, value->kind == ObjectKind::ClassMethod ? as<WrapperObject>(value).function : value, std::move(args));
    break;
  }
  return cls;
}

Ref new_bare_instance(Interpreter& interp, const TypeRef& type, const std::vector<Ref>& args) {
  // object.__new__ refuses a class whose own __abstractmethods__ (set by abc) is not empty.
  if (auto abstract = type->attrs.find("__abstractmethods__");
      abstract != type->attrs.end() && truthy(interp, abstract->second)) {
    std::vector<std::string> names;
    for (const auto& name : to_vector(interp, abstract->second)) names.push_back(str(interp, name));
    std::sort(names.begin(), names.end());
    std::string listed;
    for (const auto& name : names) listed += (listed.empty() ? "" : ", ") + name;
    raise_error(ExcType::TypeError, "Can't instantiate abstract class " + type->name + " with abstract method" +
                                        (names.size() > 1 ? "s " : " ") + listed);
  }
  auto instance = interp.new_instance(type);
  if (type->is_subtype_of(exception_type(ExcType::BaseException))) instance->dict["args"] = py_tuple(args);
  return instance;
}

void install_class_builder_methods() {
  const BuiltinTypes& t = builtin_types();
  t.type->attrs["__new__"] = std::make_shared<WrapperObject>(
      ObjectKind::StaticMethod, native_function("__new__", [](Interpreter& ip, CallArgs& c) -> Ref {
        if (c.args.size() != 4) raise_error(ExcType::TypeError, "type.__new__() takes exactly 3 arguments");
        if (c.args[0]->kind != ObjectKind::Type || !as<TypeObject>(c.args[0]).is_subtype_of(builtin_types().type))
          raise_error(ExcType::TypeError, "type.__new__(X): X is not a type object (" + type_name(c.args[0]) + ")");
        const std::string& name = to_str(c.args[1], "type.__new__() argument 1");
        if (c.args[2]->kind != ObjectKind::Tuple || c.args[3]->kind != ObjectKind::Dict)
          raise_error(ExcType::TypeError, "type.__new__() argument 2 must be tuple and argument 3 must be dict");
        std::vector<TypeRef> bases;
        for (const auto& base : as<TupleObject>(c.args[2]).items) {
          if (base->kind != ObjectKind::Type) raise_error(ExcType::TypeError, "bases must be types");
          bases.push_back(std::static_pointer_cast<TypeObject>(base));
        }
        return build_class(ip, std::static_pointer_cast<TypeObject>(c.args[0]), name, std::move(bases),
                           as<DictObject>(c.args[3]), c.kwargs);
      }));
  t.object->attrs["__new__"] = std::make_shared<WrapperObject>(
      ObjectKind::StaticMethod, native_function("__new__", [](Interpreter& ip, CallArgs& c) -> Ref {
        if (c.args.empty() || c.args[0]->kind != ObjectKind::Type)
          raise_error(ExcType::TypeError, "object.__new__(X): X is not a type object");
        auto type = std::static_pointer_cast<TypeObject>(c.args[0]);
        if (type->is_builtin) raise_error(ExcType::TypeError, "object.__new__(" + type->name + ") is not safe, use " + type->name + ".__new__()");
        return new_bare_instance(ip, type, std::vector<Ref>(c.args.begin() + 1, c.args.end()));
      }));
}

}  // namespace kiln::python
