#include "libcompiler/python/interp/protocols.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "libcompiler/python/interp/class_builder.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/instance_dict.h"
#include "libcompiler/python/interp/function_attributes.h"
#include "libcompiler/python/interp/generator.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/memory_limit.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/utf8_text.h"
#include "libcompiler/python/python_repr.h"

namespace kiln::python {
namespace {

std::string address_of(const Object* object) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%012lx", reinterpret_cast<unsigned long>(object));
  return buffer;
}

// The attribute `name` on the type of `value` below `object` (so a user class, or a native
// type, defines it), with the type that defines it.
std::pair<Ref, TypeObject*> special_method(const Object& value, const char* name) {
  std::string key(name);
  for (TypeObject* t : value.type->mro) {
    if (t == builtin_types().object) break;
    auto it = t->attrs.find(key);
    if (it != t->attrs.end()) return {it->second, t};
  }
  return {nullptr, nullptr};
}

std::string join_repr(Interpreter& interp, const std::vector<Ref>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += repr(interp, items[i]);
  }
  return out;
}

Ref sequence_iterator(std::function<Ref(size_t)> at) {
  auto index = std::make_shared<size_t>(0);
  return std::make_shared<IteratorObject>([at = std::move(at), index]() -> Ref { return at((*index)++); });
}

std::string type_repr(const TypeObject& type) { return "<class '" + type.qualified_name() + "'>"; }

Ref call_bound(Interpreter& interp, const Ref& function, const Ref& self, std::vector<Ref> args) {
  CallArgs call_args;
  call_args.args.reserve(args.size() + 1);
  call_args.args.push_back(self);
  for (auto& a : args) call_args.args.push_back(std::move(a));
  return call(interp, function, std::move(call_args));
}

// The __new__ a class defines or inherits, object's excepted (the plain path makes those
// instances); unwrapped from its staticmethod. Null when none.
Ref user_new(const TypeObject& type) {
  for (const TypeObject* t : type.mro) {
    if (t == builtin_types().object) break;
    auto it = t->attrs.find("__new__");
    if (it == t->attrs.end()) continue;
    const Ref& value = it->second;
    return value->kind == ObjectKind::StaticMethod ? as<WrapperObject>(value).function : value;
  }
  return nullptr;
}

Ref construct(Interpreter& interp, const TypeRef& type, CallArgs& args) {
  for (TypeObject* t : type->mro)
    if (t->constructor) {
      if (t != type.get()) break;  // native types are not subclassed (checked at class creation)
      return t->constructor(interp, args);
    }
  Ref instance;
  if (Ref new_method = user_new(*type)) {
    // A __new__ of the class (or of type, for a metaclass): __init__ runs only on what it
    // returns when that is an instance of the class.
    CallArgs new_args;
    new_args.args.push_back(type);
    new_args.args.insert(new_args.args.end(), args.args.begin(), args.args.end());
    new_args.kwargs = args.kwargs;
    instance = call(interp, new_method, std::move(new_args));
    if (!isinstance(instance, type.get())) return instance;
  } else {
    instance = new_bare_instance(interp, type, args.args);
  }
  auto [init, owner] = special_method(*instance, "__init__");
  if (init) {
    CallArgs init_args;
    init_args.args.reserve(args.args.size() + 1);
    init_args.args.push_back(instance);
    for (auto& a : args.args) init_args.args.push_back(std::move(a));
    init_args.kwargs = std::move(args.kwargs);
    Ref result = call(interp, init, std::move(init_args));
    if (!is_none(result))
      raise_error(ExcType::TypeError, "__init__() should return None, not '" + type_name(result) + "'");
  } else if ((!args.args.empty() || !args.kwargs.empty()) && !user_new(*type)) {
    raise_error(ExcType::TypeError, type->name + "() takes no arguments");
  }
  return instance;
}

// An instance of a class with __set__ or __delete__: it takes precedence over the instance dict.
bool is_data_descriptor(const Ref& attr) {
  return attr->kind == ObjectKind::Instance &&
         (special_method(*attr, "__set__").first || special_method(*attr, "__delete__").first);
}

Ref getattr_of_type(Interpreter& interp, const Ref& obj, const std::string& name) {
  auto& type = as<TypeObject>(obj);
  if (name == "__name__") return py_str(type.name);
  if (name == "__qualname__") {
    if (Ref q = type.attrs.count("__qualname__") ? type.attrs.at("__qualname__") : nullptr) return q;
    return py_str(type.name);
  }
  if (name == "__module__") return py_str(type.module);
  if (name == "__mro__") {
    std::vector<Ref> items;
    for (TypeObject* t : type.mro) items.push_back(t == &type ? obj : builtin_type_ref(t));
    return py_tuple(std::move(items));
  }
  if (name == "__bases__") {
    std::vector<Ref> items(type.bases.begin(), type.bases.end());
    return py_tuple(std::move(items));
  }
  if (name == "__dict__") {
    // A snapshot of the class's own namespace (CPython's read-only mappingproxy).
    auto dict = py_dict();
    for (const auto& [key, value] : type.attrs) dict->set(key, value);
    return dict;
  }
  Ref attr = type.lookup(name);
  if (!attr) return nullptr;
  if (attr->kind == ObjectKind::StaticMethod) return as<WrapperObject>(attr).function;
  if (attr->kind == ObjectKind::ClassMethod)
    return std::make_shared<BoundMethodObject>(obj, as<WrapperObject>(attr).function);
  if (attr->kind == ObjectKind::Instance)
    if (Ref value = call_dunder(interp, attr, "__get__", {none(), obj})) return value;
  return attr;
}

Ref getattr_of_super(Interpreter& interp, const SuperObject& super, const std::string& name) {
  const auto& mro = super.self->kind == ObjectKind::Type ? as<TypeObject>(super.self).mro : super.self->type->mro;
  bool after = false;
  for (TypeObject* t : mro) {
    if (!after) {
      after = t == super.start;
      continue;
    }
    auto it = t->attrs.find(name);
    if (it != t->attrs.end()) return bind_attribute(interp, it->second, super.self, t);
  }
  return nullptr;
}

// A module whose class is a ModuleType subclass: its class's __getattr__, __setattr__ and
// __delattr__ apply.
bool is_module_of_subclass(const Ref& obj) {
  return obj->kind == ObjectKind::Module && obj->type != builtin_types().module;
}

// The attribute `name` along the MRO of `type`, with the class that defines it; null if none.
std::pair<Ref, TypeObject*> class_attribute(const TypeObject& type, const std::string& name) {
  for (TypeObject* t : type.mro)
    if (auto it = t->attrs.find(name); it != t->attrs.end()) return {it->second, t};
  return {nullptr, nullptr};
}

// A module's attribute as CPython's module_getattro finds it: the data descriptors of its
// ModuleType subclass, its globals, the class's other attributes, then the module's own
// __getattr__ (PEP 562); last kiln's native fallback (torch.<op> from the op table). Null when
// missing; the subclass's __getattr__ is try_getattr's to call.
Ref getattr_of_module(Interpreter& interp, const Ref& obj, const std::string& name) {
  auto& module = as<ModuleObject>(obj);
  // A plain module's classes (module, object) hold no data descriptors: its globals come first.
  if (is_module_of_subclass(obj))
    if (auto [attr, owner] = class_attribute(*obj->type, name); attr && (attr->kind == ObjectKind::Property || is_data_descriptor(attr)))
      return bind_attribute(interp, attr, obj, owner);
  if (Ref value = module.globals->get(name)) return value;
  if (name == "__dict__") return module.globals;
  if (name == "__class__") return type_of(obj);
  if (auto [attr, owner] = class_attribute(*obj->type, name); attr) return bind_attribute(interp, attr, obj, owner);
  if (Ref hook = module.globals->get("__getattr__")) return call(interp, hook, std::vector<Ref>{py_str(name)});
  if (module.fallback) return module.fallback(interp, name);
  return nullptr;
}

// obj.__class__ = value, where CPython's object_set_class allows it: between a module and a
// ModuleType subclass, and between user classes whose instances are laid out alike (over the
// same builtin base).
void assign_class(const Ref& obj, const Ref& value) {
  if (value->kind != ObjectKind::Type)
    raise_error(ExcType::TypeError, "__class__ must be set to a class, not '" + type_name(value) + "' object");
  auto cls = std::static_pointer_cast<TypeObject>(value);
  TypeObject* old = obj->type;
  const TypeObject* module = builtin_types().module;
  const bool both_modules = cls->is_subtype_of(module) && old->is_subtype_of(module);
  if ((!both_modules && (cls->is_builtin || old->is_builtin)) ||
      (obj->kind != ObjectKind::Instance && obj->kind != ObjectKind::Module))
    raise_error(ExcType::TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses");
  auto builtin_base = [](const TypeObject* type) {
    for (const TypeObject* t : type->mro)
      if (t->is_builtin) return t;
    return type;
  };
  if (builtin_base(cls.get()) != builtin_base(old))
    raise_error(ExcType::TypeError, "__class__ assignment: '" + cls->name + "' object layout differs from '" + old->name + "'");
  if (obj->kind == ObjectKind::Module) as<ModuleObject>(obj).cls = cls->is_builtin ? nullptr : cls;
  else as<InstanceObject>(obj).cls = cls;
  obj->type = cls.get();
}

}  // namespace

// ---- repr / str / truth ----

std::optional<std::string> constant_repr(const Ref& value) {
  switch (value->kind) {
    case ObjectKind::None: return "None";
    case ObjectKind::Bool: return as<BoolObject>(value).value ? "True" : "False";
    case ObjectKind::Int: return std::to_string(as<IntObject>(value).value);
    case ObjectKind::Float: return repr_float(as<FloatObject>(value).value);
    case ObjectKind::Str: return repr_str(as<StrObject>(value).value);
    default: return std::nullopt;
  }
}

std::string repr(Interpreter& interp, const Ref& value) {
  if (auto constant = constant_repr(value)) return *constant;
  switch (value->kind) {
    case ObjectKind::List: {
      ReprGuard guard(value.get());
      if (guard.recursive) return "[...]";
      return "[" + join_repr(interp, as<ListObject>(value).items) + "]";
    }
    case ObjectKind::Tuple: {
      // A tuple of a named type (torch.return_types.max) prints as its type says.
      if (auto own = value->type->attrs.find("__repr__"); value->type != builtin_types().tuple && own != value->type->attrs.end())
        return to_str(call(interp, own->second, std::vector<Ref>{value}), "__repr__ result");
      const auto& items = as<TupleObject>(value).items;
      if (items.size() == 1) return "(" + repr(interp, items[0]) + ",)";
      return "(" + join_repr(interp, items) + ")";
    }
    case ObjectKind::Dict: {
      ReprGuard guard(value.get());
      if (guard.recursive) return "{...}";
      std::string out = "{";
      bool first = true;
      for (const auto* e : as<DictObject>(value).entries()) {
        if (!first) out += ", ";
        first = false;
        out += repr(interp, e->key) + ": " + repr(interp, e->value);
      }
      return out + "}";
    }
    case ObjectKind::Set: {
      auto entries = as<SetObject>(value).items.entries();
      if (entries.empty()) return "set()";
      std::string out = "{";
      for (size_t i = 0; i < entries.size(); ++i) out += (i ? ", " : "") + repr(interp, entries[i]->key);
      return out + "}";
    }
    case ObjectKind::Range: {
      const auto& r = as<RangeObject>(value);
      return "range(" + std::to_string(r.start) + ", " + std::to_string(r.stop) +
             (r.step != 1 ? ", " + std::to_string(r.step) : "") + ")";
    }
    case ObjectKind::Slice: {
      const auto& s = as<SliceObject>(value);
      return "slice(" + repr(interp, s.lower) + ", " + repr(interp, s.upper) + ", " + repr(interp, s.step) + ")";
    }
    case ObjectKind::Function:
      return "<function " + as<FunctionObject>(value).qualname + " at " + address_of(value.get()) + ">";
    case ObjectKind::NativeFunction: return "<built-in function " + as<NativeFunctionObject>(value).name + ">";
    case ObjectKind::BoundMethod: {
      const auto& m = as<BoundMethodObject>(value);
      std::string name = m.function->kind == ObjectKind::Function ? as<FunctionObject>(m.function).qualname
                         : m.function->kind == ObjectKind::NativeFunction
                             ? as<NativeFunctionObject>(m.function).name
                             : "?";
      return "<bound method " + name + " of " + repr(interp, m.self) + ">";
    }
    case ObjectKind::Type:
      if (value->type == builtin_types().type) return type_repr(as<TypeObject>(value));
      break;  // a class whose metaclass may define __repr__
    case ObjectKind::Module: return "<module '" + as<ModuleObject>(value).name + "'>";
    case ObjectKind::Generator:
      return "<generator object " + static_cast<const GeneratorObject&>(*value).name() + " at " +
             address_of(value.get()) + ">";
    default: break;
  }
  if (value.get() == ellipsis().get()) return "Ellipsis";
  if (value.get() == not_implemented().get()) return "NotImplemented";
  if (auto [method, owner] = special_method(*value, "__repr__"); method) {
    Ref result = call_bound(interp, method, value, {});
    if (result->kind != ObjectKind::Str)
      raise_error(ExcType::TypeError, "__repr__ returned non-string (type " + type_name(result) + ")");
    return as<StrObject>(result).value;
  }
  if (value->kind == ObjectKind::Type) return type_repr(as<TypeObject>(value));
  return "<" + value->type->qualified_name() + " object at " + address_of(value.get()) + ">";
}

std::string str(Interpreter& interp, const Ref& value) {
  if (value->kind == ObjectKind::Str) return as<StrObject>(value).value;
  if (value->kind == ObjectKind::Instance || value->kind == ObjectKind::Native) {
    if (auto [method, owner] = special_method(*value, "__str__"); method) {
      Ref result = call_bound(interp, method, value, {});
      if (result->kind != ObjectKind::Str)
        raise_error(ExcType::TypeError, "__str__ returned non-string (type " + type_name(result) + ")");
      return as<StrObject>(result).value;
    }
  }
  return repr(interp, value);
}

bool truthy(Interpreter& interp, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::None: return false;
    case ObjectKind::Bool: return as<BoolObject>(value).value;
    case ObjectKind::Int: return as<IntObject>(value).value != 0;
    case ObjectKind::Float: return as<FloatObject>(value).value != 0.0;
    case ObjectKind::Str: return !as<StrObject>(value).value.empty();
    case ObjectKind::List: return !as<ListObject>(value).items.empty();
    case ObjectKind::Tuple: return !as<TupleObject>(value).items.empty();
    case ObjectKind::Dict: return as<DictObject>(value).size() > 0;
    case ObjectKind::Set: return as<SetObject>(value).items.size() > 0;
    case ObjectKind::Range: return as<RangeObject>(value).length() > 0;
    case ObjectKind::Instance:
    case ObjectKind::Native: {
      if (auto [method, owner] = special_method(*value, "__bool__"); method) {
        Ref result = call_bound(interp, method, value, {});
        if (result->kind != ObjectKind::Bool)
          raise_error(ExcType::TypeError, "__bool__ should return bool, returned " + type_name(result));
        return as<BoolObject>(result).value;
      }
      if (auto [method, owner] = special_method(*value, "__len__"); method)
        return to_index(interp, call_bound(interp, method, value, {})) != 0;
      return true;
    }
    default: return true;
  }
}

// ---- attributes ----

Ref bind_attribute(Interpreter& interp, const Ref& attr, const Ref& self, TypeObject* owner) {
  switch (attr->kind) {
    case ObjectKind::Function: return std::make_shared<BoundMethodObject>(self, attr);
    case ObjectKind::NativeFunction:
      // Builtin functions stored on a user class stay unbound, as in CPython.
      return owner->is_builtin ? std::make_shared<BoundMethodObject>(self, attr) : attr;
    case ObjectKind::Property: {
      const auto& property = as<PropertyObject>(attr);
      return call(interp, property.getter, std::vector<Ref>{self});
    }
    case ObjectKind::StaticMethod: return as<WrapperObject>(attr).function;
    case ObjectKind::ClassMethod: {
      // Reached from a class too (super() in a classmethod): the class itself is bound.
      Ref cls = self->kind == ObjectKind::Type ? self : type_of(self);
      return std::make_shared<BoundMethodObject>(std::move(cls), as<WrapperObject>(attr).function);
    }
    case ObjectKind::Instance:
      if (Ref value = call_dunder(interp, attr, "__get__", {self, type_of(self)})) return value;
      return attr;
    default: return attr;
  }
}

Ref try_getattr(Interpreter& interp, const Ref& obj, const std::string& name) {
  switch (obj->kind) {
    case ObjectKind::Type: return getattr_of_type(interp, obj, name);
    case ObjectKind::Module: {
      if (!is_module_of_subclass(obj)) return getattr_of_module(interp, obj, name);
      auto [hook, owner] = special_method(*obj, "__getattr__");
      if (!hook) return getattr_of_module(interp, obj, name);
      // As CPython's slot_tp_getattr_hook: the class's __getattr__ when the lookup fails.
      try {
        if (Ref value = getattr_of_module(interp, obj, name)) return value;
      } catch (PyException& error) {
        if (!error.exception->type->is_subtype_of(exception_type(ExcType::AttributeError))) throw;
      }
      return call_bound(interp, hook, obj, {py_str(name)});
    }
    case ObjectKind::Super: return getattr_of_super(interp, as<SuperObject>(obj), name);
    case ObjectKind::Function: {
      auto& function = as<FunctionObject>(obj);
      if (name == "__name__") return py_str(function.name);
      if (name == "__qualname__") return py_str(function.qualname);
      auto it = function.attrs.find(name);
      if (it != function.attrs.end()) return it->second;
      if (Ref attribute = function_attribute(std::static_pointer_cast<FunctionObject>(obj), name)) return attribute;
      break;
    }
    case ObjectKind::NativeFunction:
      if (name == "__name__" || name == "__qualname__") return py_str(as<NativeFunctionObject>(obj).name);
      break;
    case ObjectKind::BoundMethod:
      if (name == "__self__") return as<BoundMethodObject>(obj).self;
      if (name == "__func__") return as<BoundMethodObject>(obj).function;
      return try_getattr(interp, as<BoundMethodObject>(obj).function, name);
    default: break;
  }
  if (name == "__class__") return type_of(obj);
  auto [attr, owner] = class_attribute(*obj->type, name);
  if (attr && (attr->kind == ObjectKind::Property || is_data_descriptor(attr))) return bind_attribute(interp, attr, obj, owner);
  if (obj->kind == ObjectKind::Instance) {
    auto& dict = as<InstanceObject>(obj).dict;
    auto it = dict.find(name);
    if (it != dict.end()) return it->second;
    if (name == "__dict__") return instance_dict_view(obj);
  }
  if (attr) return bind_attribute(interp, attr, obj, owner);
  if (auto [hook, hook_owner] = special_method(*obj, "__getattr__"); hook) return call_bound(interp, hook, obj, {py_str(name)});
  return nullptr;
}

Ref getattr_or_null(Interpreter& interp, const Ref& obj, const std::string& name) {
  try {
    return try_getattr(interp, obj, name);
  } catch (PyException& error) {
    if (!error.exception->type->is_subtype_of(exception_type(ExcType::AttributeError))) throw;
    return nullptr;
  }
}

Ref getattr(Interpreter& interp, const Ref& obj, const std::string& name) {
  if (Ref value = try_getattr(interp, obj, name)) return value;
  switch (obj->kind) {
    case ObjectKind::Module:
      raise_error(ExcType::AttributeError, "module '" + as<ModuleObject>(obj).name + "' has no attribute '" + name + "'");
    case ObjectKind::Type:
      raise_error(ExcType::AttributeError,
                  "type object '" + as<TypeObject>(obj).name + "' has no attribute '" + name + "'");
    case ObjectKind::Super: raise_error(ExcType::AttributeError, "'super' object has no attribute '" + name + "'");
    default: raise_error(ExcType::AttributeError, "'" + type_name(obj) + "' object has no attribute '" + name + "'");
  }
}

void generic_setattr(Interpreter& interp, const Ref& obj, const std::string& name, Ref value) {
  if (interp.call_hook) interp.call_hook->mutating(interp, obj);
  if (Ref attr = obj->type->lookup(name); attr && attr->kind == ObjectKind::Property) {
    const auto& property = as<PropertyObject>(attr);
    if (!property.setter)
      raise_error(ExcType::AttributeError,
                  "property '" + name + "' of '" + type_name(obj) + "' object has no setter");
    call(interp, property.setter, std::vector<Ref>{obj, std::move(value)});
    return;
  }
  if (obj->kind != ObjectKind::Type)
    if (Ref attr = obj->type->lookup(name); attr && attr->kind == ObjectKind::Instance)
      if (call_dunder(interp, attr, "__set__", {obj, value})) return;
  if (name == "__class__" && obj->kind != ObjectKind::Type) {
    assign_class(obj, value);
    return;
  }
  switch (obj->kind) {
    case ObjectKind::Instance: as<InstanceObject>(obj).dict[name] = std::move(value); return;
    case ObjectKind::Function: {
      // The names live in the function itself (reprs and tracebacks read them there).
      auto& function = as<FunctionObject>(obj);
      if (name == "__name__" || name == "__qualname__") {
        if (value->kind != ObjectKind::Str)
          raise_error(ExcType::TypeError, name + " must be set to a string object");
        (name == "__name__" ? function.name : function.qualname) = as<StrObject>(value).value;
        return;
      }
      function.attrs[name] = std::move(value);
      return;
    }
    case ObjectKind::Module: as<ModuleObject>(obj).globals->set(name, std::move(value)); return;
    case ObjectKind::Type: {
      auto& type = as<TypeObject>(obj);
      if (type.is_builtin)
        raise_error(ExcType::TypeError,
                    "cannot set '" + name + "' attribute of immutable type '" + type.name + "'");
      // The name and module live in the type itself (reprs read them there): classes made by
      // factories such as namedtuple are renamed after their `class` statement.
      if (name == "__name__" || name == "__module__") {
        if (value->kind != ObjectKind::Str)
          raise_error(ExcType::TypeError, "can only assign string to " + type.name + "." + name + ", not '" +
                                              type_name(value) + "'");
        (name == "__name__" ? type.name : type.module) = as<StrObject>(value).value;
        return;
      }
      type.attrs[name] = std::move(value);
      return;
    }
    default:
      raise_error(ExcType::AttributeError, "'" + type_name(obj) + "' object has no attribute '" + name + "'");
  }
}

void setattr(Interpreter& interp, const Ref& obj, const std::string& name, Ref value) {
  if (obj->kind == ObjectKind::Instance || is_module_of_subclass(obj)) {
    if (auto [hook, owner] = special_method(*obj, "__setattr__"); hook) {
      call_bound(interp, hook, obj, {py_str(name), std::move(value)});
      return;
    }
  }
  generic_setattr(interp, obj, name, std::move(value));
}

void delattr(Interpreter& interp, const Ref& obj, const std::string& name) {
  if (interp.call_hook) interp.call_hook->mutating(interp, obj);
  if (obj->kind == ObjectKind::Instance || is_module_of_subclass(obj)) {
    if (auto [hook, owner] = special_method(*obj, "__delattr__"); hook) {
      call_bound(interp, hook, obj, {py_str(name)});
      return;
    }
    if (obj->kind == ObjectKind::Instance && as<InstanceObject>(obj).dict.erase(name)) return;
  }
  if (obj->kind == ObjectKind::Module) {
    if (as<ModuleObject>(obj).globals->erase(interp, py_str(name))) return;
  }
  if (obj->kind == ObjectKind::Type && !as<TypeObject>(obj).is_builtin) {
    if (as<TypeObject>(obj).attrs.erase(name)) return;
  }
  raise_error(ExcType::AttributeError, "'" + type_name(obj) + "' object has no attribute '" + name + "'");
}

std::optional<std::vector<std::pair<Ref, Ref>>> mapping_items(Interpreter& interp, const Ref& mapping) {
  std::vector<std::pair<Ref, Ref>> items;
  if (mapping->kind == ObjectKind::Dict) {
    for (const auto* e : as<DictObject>(mapping).entries()) items.emplace_back(e->key, e->value);
    return items;
  }
  Ref keys = mapping->kind == ObjectKind::Instance || mapping->kind == ObjectKind::Native
                 ? try_getattr(interp, mapping, "keys")
                 : nullptr;
  if (!keys) return std::nullopt;
  for (auto& key : to_vector(interp, call(interp, keys, std::vector<Ref>{})))
    items.emplace_back(key, getitem(interp, mapping, key));
  return items;
}

// ---- calls ----

Ref call(Interpreter& interp, const Ref& callee, CallArgs args) {
  if (interp.call_hook)
    if (Ref result = interp.call_hook->intercept(interp, callee, args)) return result;
  switch (callee->kind) {
    case ObjectKind::Function:
      return interp.call_function(std::static_pointer_cast<FunctionObject>(callee), args);
    case ObjectKind::NativeFunction: {
      auto& native = as<NativeFunctionObject>(callee);
      try {
        return native.fn(interp, args);
      } catch (PyException&) {
        throw;
      } catch (CaptureUnwind&) {
        throw;
      } catch (const std::bad_alloc&) {
        raise_bare(ExcType::MemoryError);
      } catch (const std::length_error&) {
        raise_bare(ExcType::MemoryError);
      } catch (const std::exception& error) {
        // A C++ failure inside a builtin is a Python exception, never a crash.
        raise_error(ExcType::RuntimeError, error.what());
      }
    }
    case ObjectKind::BoundMethod: {
      auto& method = as<BoundMethodObject>(callee);
      args.args.insert(args.args.begin(), method.self);
      return call(interp, method.function, std::move(args));
    }
    case ObjectKind::Type:
      // A metaclass's __call__ (Enum's value lookup) replaces construction.
      if (callee->type != builtin_types().type)
        if (auto [method, owner] = special_method(*callee, "__call__"); method) {
          args.args.insert(args.args.begin(), callee);
          return call(interp, method, std::move(args));
        }
      return construct(interp, std::static_pointer_cast<TypeObject>(callee), args);
    default: break;
  }
  if (auto [method, owner] = special_method(*callee, "__call__"); method) {
    args.args.insert(args.args.begin(), callee);
    return call(interp, method, std::move(args));
  }
  raise_error(ExcType::TypeError, "'" + type_name(callee) + "' object is not callable");
}

Ref call(Interpreter& interp, const Ref& callee, std::vector<Ref> args) {
  CallArgs call_args;
  call_args.args = std::move(args);
  return call(interp, callee, std::move(call_args));
}

// The arguments go straight into the call's list (a vector of them first would be one more
// allocation on every operator of an object with dunders, a tensor's `x + y`).
Ref call_dunder(Interpreter& interp, const Ref& value, const char* name, std::initializer_list<Ref> args) {
  auto [method, owner] = special_method(*value, name);
  if (!method) return nullptr;
  CallArgs call_args;
  call_args.args.reserve(args.size() + 1);
  call_args.args.push_back(value);
  call_args.args.insert(call_args.args.end(), args.begin(), args.end());
  return call(interp, method, std::move(call_args));
}

bool is_callable(const Ref& value) {
  switch (value->kind) {
    case ObjectKind::Function:
    case ObjectKind::NativeFunction:
    case ObjectKind::BoundMethod:
    case ObjectKind::Type: return true;
    default: return special_method(*value, "__call__").first != nullptr;
  }
}

// ---- iteration ----

Ref iter(Interpreter& interp, const Ref& iterable) {
  switch (iterable->kind) {
    case ObjectKind::List: {
      auto list = std::static_pointer_cast<ListObject>(iterable);
      return sequence_iterator([list](size_t i) { return i < list->items.size() ? list->items[i] : nullptr; });
    }
    case ObjectKind::Tuple: {
      auto tuple = std::static_pointer_cast<TupleObject>(iterable);
      return sequence_iterator([tuple](size_t i) { return i < tuple->items.size() ? tuple->items[i] : nullptr; });
    }
    case ObjectKind::Str: {
      auto chars = std::make_shared<std::vector<std::string>>(utf8_characters(as<StrObject>(iterable).value));
      return sequence_iterator([chars](size_t i) { return i < chars->size() ? py_str((*chars)[i]) : nullptr; });
    }
    case ObjectKind::Dict:
    case ObjectKind::Set: {
      const DictObject& dict =
          iterable->kind == ObjectKind::Dict ? as<DictObject>(iterable) : as<SetObject>(iterable).items;
      auto keys = std::make_shared<std::vector<Ref>>();
      for (const auto* e : dict.entries()) keys->push_back(e->key);
      return sequence_iterator([keys, iterable](size_t i) { return i < keys->size() ? (*keys)[i] : nullptr; });
    }
    case ObjectKind::Range: {
      auto range = std::static_pointer_cast<RangeObject>(iterable);
      auto current = std::make_shared<int64_t>(range->start);
      return std::make_shared<IteratorObject>([range, current]() -> Ref {
        if (range->step > 0 ? *current >= range->stop : *current <= range->stop) return nullptr;
        Ref value = py_int(*current);
        *current += range->step;
        return value;
      });
    }
    case ObjectKind::Iterator:
    case ObjectKind::Generator: return iterable;
    default: break;
  }
  if (Ref result = call_dunder(interp, iterable, "__iter__", {})) return result;
  if (special_method(*iterable, "__getitem__").first) {
    Interpreter* ip = &interp;
    return sequence_iterator([ip, iterable](size_t i) -> Ref {
      try {
        return getitem(*ip, iterable, py_int(static_cast<int64_t>(i)));
      } catch (PyException& error) {
        if (error.exception->type->is_subtype_of(exception_type(ExcType::IndexError))) return nullptr;
        throw;
      }
    });
  }
  raise_error(ExcType::TypeError, "'" + type_name(iterable) + "' object is not iterable");
}

Ref next(Interpreter& interp, const Ref& iterator) {
  if (iterator->kind == ObjectKind::Iterator) return as<IteratorObject>(iterator).next();
  if (iterator->kind == ObjectKind::Generator) return static_cast<GeneratorObject&>(*iterator).next();
  auto [method, owner] = special_method(*iterator, "__next__");
  if (!method) raise_error(ExcType::TypeError, "'" + type_name(iterator) + "' object is not an iterator");
  try {
    return call_bound(interp, method, iterator, {});
  } catch (PyException& error) {
    if (error.exception->type->is_subtype_of(exception_type(ExcType::StopIteration))) return nullptr;
    throw;
  }
}

std::vector<Ref> to_vector(Interpreter& interp, const Ref& iterable) {
  if (iterable->kind == ObjectKind::List) return as<ListObject>(iterable).items;
  if (iterable->kind == ObjectKind::Tuple) return as<TupleObject>(iterable).items;
  std::vector<Ref> items;
  // CPython preallocates from the length hint: list(range(10**12)) is a MemoryError at once.
  if (iterable->kind == ObjectKind::Range) {
    const auto length = static_cast<size_t>(as<RangeObject>(iterable).length());
    check_allocation(length, sizeof(Ref));
    items.reserve(length);
  }
  Ref it = iter(interp, iterable);
  while (Ref item = next(interp, it)) items.push_back(std::move(item));
  return items;
}

int64_t len(Interpreter& interp, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::Str: return static_cast<int64_t>(utf8_length(as<StrObject>(value).value));
    case ObjectKind::List: return static_cast<int64_t>(as<ListObject>(value).items.size());
    case ObjectKind::Tuple: return static_cast<int64_t>(as<TupleObject>(value).items.size());
    case ObjectKind::Dict: return static_cast<int64_t>(as<DictObject>(value).size());
    case ObjectKind::Set: return static_cast<int64_t>(as<SetObject>(value).items.size());
    case ObjectKind::Range: return as<RangeObject>(value).length();
    default: break;
  }
  if (Ref result = call_dunder(interp, value, "__len__", {})) {
    int64_t n = to_index(interp, result);
    if (n < 0) raise_error(ExcType::ValueError, "__len__() should return >= 0");
    return n;
  }
  raise_error(ExcType::TypeError, "object of type '" + type_name(value) + "' has no len()");
}

// ---- items ----

size_t sequence_index(int64_t index, size_t size, const char* what) {
  int64_t n = static_cast<int64_t>(size);
  if (index < 0) index += n;
  if (index < 0 || index >= n) raise_error(ExcType::IndexError, std::string(what) + " index out of range");
  return static_cast<size_t>(index);
}

SliceBounds slice_bounds(Interpreter& interp, const SliceObject& slice, int64_t size) {
  int64_t step = is_none(slice.step) ? 1 : to_index(interp, slice.step, "slice indices must be integers or None or have an __index__ method");
  if (step == 0) raise_error(ExcType::ValueError, "slice step cannot be zero");
  auto bound = [&](const Ref& value, int64_t missing) {
    if (is_none(value)) return missing;
    int64_t v = to_index(interp, value, "slice indices must be integers or None or have an __index__ method");
    if (v < 0) {
      v += size;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= size) {
      v = step < 0 ? size - 1 : size;
    }
    return v;
  };
  int64_t start = bound(slice.lower, step < 0 ? size - 1 : 0);
  int64_t stop = bound(slice.upper, step < 0 ? -1 : size);
  int64_t length = 0;
  if (step > 0 && start < stop) length = (stop - start - 1) / step + 1;
  if (step < 0 && start > stop) length = (start - stop - 1) / (-step) + 1;
  return {start, stop, step, length};
}

Ref getitem(Interpreter& interp, const Ref& container, const Ref& key) {
  auto slice_of = [&](const std::vector<Ref>& items) {
    SliceBounds b = slice_bounds(interp, as<SliceObject>(key), static_cast<int64_t>(items.size()));
    std::vector<Ref> out;
    out.reserve(static_cast<size_t>(b.length));
    for (int64_t i = 0, j = b.start; i < b.length; ++i, j += b.step) out.push_back(items[static_cast<size_t>(j)]);
    return out;
  };
  const char* indices_message = nullptr;
  switch (container->kind) {
    case ObjectKind::List:
      if (key->kind == ObjectKind::Slice) return py_list(slice_of(as<ListObject>(container).items));
      if (key->kind == ObjectKind::Int || key->kind == ObjectKind::Bool || key->kind == ObjectKind::Native ||
          key->kind == ObjectKind::Instance) {
        const auto& items = as<ListObject>(container).items;
        return items[sequence_index(to_index(interp, key, "list indices must be integers or slices, not "), items.size(), "list")];
      }
      indices_message = "list indices must be integers or slices, not ";
      break;
    case ObjectKind::Tuple:
      if (key->kind == ObjectKind::Slice) return py_tuple(slice_of(as<TupleObject>(container).items));
      if (key->kind == ObjectKind::Int || key->kind == ObjectKind::Bool || key->kind == ObjectKind::Native ||
          key->kind == ObjectKind::Instance) {
        const auto& items = as<TupleObject>(container).items;
        return items[sequence_index(to_index(interp, key, "tuple indices must be integers or slices, not "), items.size(), "tuple")];
      }
      indices_message = "tuple indices must be integers or slices, not ";
      break;
    case ObjectKind::Str: {
      auto chars = utf8_characters(as<StrObject>(container).value);
      if (key->kind == ObjectKind::Slice) {
        SliceBounds b = slice_bounds(interp, as<SliceObject>(key), static_cast<int64_t>(chars.size()));
        std::string out;
        for (int64_t i = 0, j = b.start; i < b.length; ++i, j += b.step) out += chars[static_cast<size_t>(j)];
        return py_str(std::move(out));
      }
      if (key->kind == ObjectKind::Int || key->kind == ObjectKind::Bool)
        return py_str(chars[sequence_index(to_index(interp, key), chars.size(), "string")]);
      indices_message = "string indices must be integers, not ";
      break;
    }
    case ObjectKind::Dict: {
      if (Ref value = as<DictObject>(container).get(interp, key)) return value;
      throw PyException(call(interp, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{key}));
    }
    case ObjectKind::Range: {
      const auto& r = as<RangeObject>(container);
      if (key->kind == ObjectKind::Slice) {
        SliceBounds b = slice_bounds(interp, as<SliceObject>(key), r.length());
        return std::make_shared<RangeObject>(r.start + b.start * r.step, r.start + b.stop * r.step, r.step * b.step);
      }
      size_t i = sequence_index(to_index(interp, key), static_cast<size_t>(r.length()), "range object");
      return py_int(r.start + static_cast<int64_t>(i) * r.step);
    }
    default: break;
  }
  if (indices_message) raise_error(ExcType::TypeError, indices_message + type_name(key));
  if (Ref result = call_dunder(interp, container, "__getitem__", {key})) return result;
  if (container->kind == ObjectKind::Type)
    raise_error(ExcType::TypeError, "type '" + as<TypeObject>(container).name + "' is not subscriptable");
  raise_error(ExcType::TypeError, "'" + type_name(container) + "' object is not subscriptable");
}

void setitem(Interpreter& interp, const Ref& container, const Ref& key, Ref value) {
  if (interp.call_hook) interp.call_hook->mutating(interp, container);
  switch (container->kind) {
    case ObjectKind::List: {
      auto& items = as<ListObject>(container).items;
      if (key->kind == ObjectKind::Slice) {
        SliceBounds b = slice_bounds(interp, as<SliceObject>(key), static_cast<int64_t>(items.size()));
        std::vector<Ref> replacement = to_vector(interp, value);
        if (b.step == 1) {
          int64_t stop = std::max(b.start, b.stop);
          items.erase(items.begin() + b.start, items.begin() + stop);
          items.insert(items.begin() + b.start, replacement.begin(), replacement.end());
          return;
        }
        if (static_cast<int64_t>(replacement.size()) != b.length)
          raise_error(ExcType::ValueError, "attempt to assign sequence of size " + std::to_string(replacement.size()) +
                                               " to extended slice of size " + std::to_string(b.length));
        for (int64_t i = 0, j = b.start; i < b.length; ++i, j += b.step)
          items[static_cast<size_t>(j)] = replacement[static_cast<size_t>(i)];
        return;
      }
      items[sequence_index(to_index(interp, key, "list indices must be integers or slices, not "), items.size(),
                           "list assignment")] = std::move(value);
      return;
    }
    case ObjectKind::Dict: as<DictObject>(container).set(interp, key, std::move(value)); return;
    default: break;
  }
  if (call_dunder(interp, container, "__setitem__", {key, std::move(value)})) return;
  raise_error(ExcType::TypeError, "'" + type_name(container) + "' object does not support item assignment");
}

void delitem(Interpreter& interp, const Ref& container, const Ref& key) {
  if (interp.call_hook) interp.call_hook->mutating(interp, container);
  switch (container->kind) {
    case ObjectKind::List: {
      auto& items = as<ListObject>(container).items;
      if (key->kind == ObjectKind::Slice) {
        SliceBounds b = slice_bounds(interp, as<SliceObject>(key), static_cast<int64_t>(items.size()));
        std::vector<bool> drop(items.size(), false);
        for (int64_t i = 0, j = b.start; i < b.length; ++i, j += b.step) drop[static_cast<size_t>(j)] = true;
        std::vector<Ref> kept;
        for (size_t i = 0; i < items.size(); ++i)
          if (!drop[i]) kept.push_back(items[i]);
        items = std::move(kept);
        return;
      }
      size_t i = sequence_index(to_index(interp, key), items.size(), "list assignment");
      items.erase(items.begin() + static_cast<long>(i));
      return;
    }
    case ObjectKind::Dict:
      if (!as<DictObject>(container).erase(interp, key))
        throw PyException(call(interp, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{key}));
      return;
    default: break;
  }
  if (call_dunder(interp, container, "__delitem__", {key})) return;
  raise_error(ExcType::TypeError, "'" + type_name(container) + "' object does not support item deletion");
}

bool contains(Interpreter& interp, const Ref& container, const Ref& item) {
  switch (container->kind) {
    case ObjectKind::Str:
      if (item->kind != ObjectKind::Str)
        raise_error(ExcType::TypeError, "'in <string>' requires string as left operand, not " + type_name(item));
      return as<StrObject>(container).value.find(as<StrObject>(item).value) != std::string::npos;
    case ObjectKind::Dict: return as<DictObject>(container).get(interp, item) != nullptr;
    case ObjectKind::Set: return as<SetObject>(container).items.get(interp, item) != nullptr;
    case ObjectKind::Range: {
      const auto& r = as<RangeObject>(container);
      if (item->kind != ObjectKind::Int && item->kind != ObjectKind::Bool) break;
      int64_t v = to_index(interp, item);
      if (r.step > 0 ? (v < r.start || v >= r.stop) : (v > r.start || v <= r.stop)) return false;
      return (v - r.start) % r.step == 0;
    }
    default: break;
  }
  if (container->kind == ObjectKind::Instance || container->kind == ObjectKind::Native) {
    if (Ref result = call_dunder(interp, container, "__contains__", {item})) return truthy(interp, result);
  }
  Ref it = iter(interp, container);
  while (Ref element = next(interp, it))
    if (is_same(element, item) || equals(interp, element, item)) return true;
  return false;
}

// ---- hashing and equality ----

size_t hash_value(Interpreter& interp, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::None: return 0x9e3779b9;
    case ObjectKind::Bool: return as<BoolObject>(value).value ? 1 : 0;
    case ObjectKind::Int: return static_cast<size_t>(as<IntObject>(value).value);
    case ObjectKind::Float: {
      double d = as<FloatObject>(value).value;
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return static_cast<size_t>(static_cast<int64_t>(d));
      return std::hash<double>()(d);
    }
    case ObjectKind::Str: return std::hash<std::string_view>()(as<StrObject>(value).value);
    case ObjectKind::Tuple: {
      size_t h = 0x345678;
      for (const auto& item : as<TupleObject>(value).items) h = h * 1000003 ^ hash_value(interp, item);
      return h;
    }
    case ObjectKind::List:
    case ObjectKind::Dict:
    case ObjectKind::Set: raise_error(ExcType::TypeError, "unhashable type: '" + type_name(value) + "'");
    case ObjectKind::Instance:
    case ObjectKind::Native: {
      auto [method, owner] = special_method(*value, "__hash__");
      if (method) {
        if (is_none(method)) raise_error(ExcType::TypeError, "unhashable type: '" + type_name(value) + "'");
        return static_cast<size_t>(to_index(interp, call_bound(interp, method, value, {})));
      }
      // A class that defines __eq__ without __hash__ is unhashable, as in Python 3.
      if (value->kind == ObjectKind::Instance && special_method(*value, "__eq__").first)
        raise_error(ExcType::TypeError, "unhashable type: '" + type_name(value) + "'");
      return std::hash<const void*>()(value.get());
    }
    default: return std::hash<const void*>()(value.get());
  }
}

bool is_same(const Ref& a, const Ref& b) { return a.get() == b.get(); }

bool equals(Interpreter& interp, const Ref& a, const Ref& b) {
  if (a.get() == b.get() && a->kind != ObjectKind::Float) return true;
  return truthy(interp, compare_op(interp, CompareOperator::Eq, a, b));
}

bool isinstance(const Ref& value, const TypeObject* type) { return value->type->is_subtype_of(type); }

std::string type_name(const Ref& value) { return value->type->name; }

int64_t to_index(Interpreter& interp, const Ref& value, const char* what) {
  if (value->kind == ObjectKind::Int) return as<IntObject>(value).value;
  if (value->kind == ObjectKind::Bool) return as<BoolObject>(value).value;
  if (value->kind == ObjectKind::Instance || value->kind == ObjectKind::Native)
    if (Ref result = call_dunder(interp, value, "__index__", {})) return to_index(interp, result, what);
  if (what) raise_error(ExcType::TypeError, std::string(what) + (std::string(what).back() == ' ' ? type_name(value) : ""));
  raise_error(ExcType::TypeError, "'" + type_name(value) + "' object cannot be interpreted as an integer");
}

double to_double(Interpreter& interp, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::Float: return as<FloatObject>(value).value;
    case ObjectKind::Int: return static_cast<double>(as<IntObject>(value).value);
    case ObjectKind::Bool: return as<BoolObject>(value).value ? 1.0 : 0.0;
    default: break;
  }
  if (Ref result = call_dunder(interp, value, "__float__", {})) return to_double(interp, result);
  raise_error(ExcType::TypeError, "must be real number, not " + type_name(value));
}

const std::string& to_str(const Ref& value, const char* what) {
  if (value->kind != ObjectKind::Str)
    raise_error(ExcType::TypeError, std::string(what) + " must be str, not " + type_name(value));
  return as<StrObject>(value).value;
}

}  // namespace kiln::python
