// The copy module: copy() and deepcopy() of builtin containers and class instances, honouring
// __copy__/__deepcopy__ (tensors define them).
#include <unordered_map>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

Ref deep_copy(Interpreter& ip, const Ref& value, const std::shared_ptr<DictObject>& memo) {
  switch (value->kind) {
    case ObjectKind::None:
    case ObjectKind::Bool:
    case ObjectKind::Int:
    case ObjectKind::Float:
    case ObjectKind::Str:
    case ObjectKind::Range:
    case ObjectKind::Function:
    case ObjectKind::NativeFunction:
    case ObjectKind::Type:
    case ObjectKind::Module: return value;
    default: break;
  }
  Ref id = py_int(static_cast<int64_t>(reinterpret_cast<uintptr_t>(value.get())));
  if (Ref done = memo->get(ip, id)) return done;
  Ref result;
  switch (value->kind) {
    case ObjectKind::List: {
      auto list = std::make_shared<ListObject>();
      memo->set(ip, id, list);
      for (const auto& item : as<ListObject>(value).items) list->items.push_back(deep_copy(ip, item, memo));
      return list;
    }
    case ObjectKind::Tuple: {
      std::vector<Ref> items;
      for (const auto& item : as<TupleObject>(value).items) items.push_back(deep_copy(ip, item, memo));
      result = py_tuple(std::move(items));
      break;
    }
    case ObjectKind::Dict: {
      auto dict = py_dict();
      memo->set(ip, id, dict);
      for (const auto* e : as<DictObject>(value).entries())
        dict->set(ip, deep_copy(ip, e->key, memo), deep_copy(ip, e->value, memo));
      return dict;
    }
    case ObjectKind::Set: {
      auto set = std::make_shared<SetObject>();
      for (const auto* e : as<SetObject>(value).items.entries()) set->items.set(ip, deep_copy(ip, e->key, memo), none());
      result = set;
      break;
    }
    case ObjectKind::Instance: {
      if (Ref r = call_dunder(ip, value, "__deepcopy__", {memo})) {
        result = r;
        break;
      }
      auto copy = std::make_shared<InstanceObject>(as<InstanceObject>(value).cls);
      memo->set(ip, id, copy);
      for (const auto& [k, v] : as<InstanceObject>(value).dict) copy->dict[k] = deep_copy(ip, v, memo);
      return copy;
    }
    default:
      if (Ref r = call_dunder(ip, value, "__deepcopy__", {memo})) {
        result = r;
        break;
      }
      raise_error(ExcType::TypeError, "cannot pickle '" + type_name(value) + "' object");
  }
  memo->set(ip, id, result);
  return result;
}

Ref shallow_copy(Interpreter& ip, const Ref& value) {
  switch (value->kind) {
    case ObjectKind::List: return py_list(as<ListObject>(value).items);
    case ObjectKind::Dict: return call(ip, getattr(ip, value, "copy"), std::vector<Ref>{});
    case ObjectKind::Set: return call(ip, getattr(ip, value, "copy"), std::vector<Ref>{});
    case ObjectKind::Instance: {
      if (Ref r = call_dunder(ip, value, "__copy__", {})) return r;
      auto copy = std::make_shared<InstanceObject>(as<InstanceObject>(value).cls);
      copy->dict = as<InstanceObject>(value).dict;
      return copy;
    }
    case ObjectKind::Native:
      if (Ref r = call_dunder(ip, value, "__copy__", {})) return r;
      return value;
    default: return value;
  }
}

}  // namespace

void init_copy_module(Interpreter&, ModuleObject& m) {
  m.globals->set("deepcopy", native_function("deepcopy", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("deepcopy", c, {{"x"}, {"memo", false}});
    auto memo = a[1] && a[1]->kind == ObjectKind::Dict ? std::static_pointer_cast<DictObject>(a[1]) : py_dict();
    return deep_copy(ip, a[0], memo);
  }));
  m.globals->set("copy", native_function("copy", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("copy", c, {{"x"}});
    return shallow_copy(ip, a[0]);
  }));
}

}  // namespace kiln::python
