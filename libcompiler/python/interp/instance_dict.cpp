#include "libcompiler/python/interp/instance_dict.h"

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

struct InstanceDictObject : NativeObject {
  InstanceDictObject(TypeObject* type, Ref instance) : NativeObject(type), instance(std::move(instance)) {}
  Ref instance;
};

AttrMap& view_attributes(const CallArgs& c) {
  return as<InstanceObject>(static_cast<InstanceDictObject&>(*c.args.at(0)).instance).dict;
}

const std::string& view_key(const Ref& key) {
  if (key->kind != ObjectKind::Str) raise_error(ExcType::TypeError, "attribute name must be string, not '" + type_name(key) + "'");
  return as<StrObject>(key).value;
}

std::shared_ptr<DictObject> view_snapshot(const CallArgs& c) {
  auto dict = py_dict();
  for (const auto& [name, value] : view_attributes(c)) dict->set(name, value);
  return dict;
}

[[noreturn]] void missing_key(Interpreter& ip, const Ref& key) {
  throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{key}));
}

// Methods whose result is a new object: the same method of a dict snapshot.
void add_snapshot_method(TypeObject* type, const char* name) {
  std::string method = name;
  add_method(type, method, [method](Interpreter& ip, CallArgs& c) {
    std::vector<Ref> args(c.args.begin() + 1, c.args.end());
    return call(ip, getattr(ip, view_snapshot(c), method), CallArgs{args, c.kwargs});
  });
}

TypeObject* instance_dict_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("dict", {}, "builtins");
    add_method(t, "__getitem__", [](Interpreter& ip, CallArgs& c) -> Ref {
      auto& attrs = view_attributes(c);
      auto found = attrs.find(view_key(c.args.at(1)));
      if (found == attrs.end()) missing_key(ip, c.args[1]);
      return found->second;
    });
    add_method(t, "__setitem__", [](Interpreter&, CallArgs& c) {
      view_attributes(c)[view_key(c.args.at(1))] = c.args.at(2);
      return none();
    });
    add_method(t, "__delitem__", [](Interpreter& ip, CallArgs& c) {
      if (!view_attributes(c).erase(view_key(c.args.at(1)))) missing_key(ip, c.args[1]);
      return none();
    });
    add_method(t, "__contains__", [](Interpreter&, CallArgs& c) {
      return py_bool(c.args.at(1)->kind == ObjectKind::Str && view_attributes(c).count(as<StrObject>(c.args[1]).value));
    });
    add_method(t, "__len__", [](Interpreter&, CallArgs& c) { return py_int(static_cast<int64_t>(view_attributes(c).size())); });
    add_method(t, "get", [](Interpreter&, CallArgs& c) -> Ref {
      auto& attrs = view_attributes(c);
      auto found = c.args.at(1)->kind == ObjectKind::Str ? attrs.find(as<StrObject>(c.args[1]).value) : attrs.end();
      if (found != attrs.end()) return found->second;
      return c.args.size() > 2 ? c.args[2] : none();
    });
    add_method(t, "pop", [](Interpreter& ip, CallArgs& c) -> Ref {
      auto& attrs = view_attributes(c);
      auto found = attrs.find(view_key(c.args.at(1)));
      if (found == attrs.end()) {
        if (c.args.size() > 2) return c.args[2];
        missing_key(ip, c.args[1]);
      }
      Ref value = found->second;
      attrs.erase(found);
      return value;
    });
    add_method(t, "setdefault", [](Interpreter&, CallArgs& c) -> Ref {
      auto [it, inserted] = view_attributes(c).try_emplace(view_key(c.args.at(1)), c.args.size() > 2 ? c.args[2] : none());
      return it->second;
    });
    add_method(t, "update", [](Interpreter& ip, CallArgs& c) {
      auto& attrs = view_attributes(c);
      if (c.args.size() > 1) {
        if (auto items = mapping_items(ip, c.args[1])) {
          for (const auto& [key, value] : *items) attrs[view_key(key)] = value;
        } else {
          for (const Ref& pair : to_vector(ip, c.args[1])) {
            std::vector<Ref> kv = to_vector(ip, pair);
            if (kv.size() != 2) raise_error(ExcType::ValueError, "dictionary update sequence element has wrong length");
            attrs[view_key(kv[0])] = kv[1];
          }
        }
      }
      for (const auto& [name, value] : c.kwargs) attrs[name] = value;
      return none();
    });
    add_method(t, "clear", [](Interpreter&, CallArgs& c) {
      view_attributes(c).clear();
      return none();
    });
    add_method(t, "__eq__", [](Interpreter& ip, CallArgs& c) -> Ref {
      const Ref& other = c.args.at(1);
      if (other->type == c.args[0]->type) return py_bool(equals(ip, view_snapshot(c), view_snapshot(CallArgs{{other}, {}})));
      if (other->kind != ObjectKind::Dict) return not_implemented();
      return py_bool(equals(ip, view_snapshot(c), other));
    });
    // The builtin dict answers these by its kind, not by methods a snapshot could lend.
    add_method(t, "__iter__", [](Interpreter& ip, CallArgs& c) {
      std::vector<Ref> names;
      for (const auto& [name, value] : view_attributes(c)) names.push_back(py_str(name));
      return iter(ip, py_list(std::move(names)));
    });
    add_method(t, "__repr__", [](Interpreter& ip, CallArgs& c) { return py_str(repr(ip, view_snapshot(c))); });
    for (const char* name : {"keys", "values", "items", "copy"}) add_snapshot_method(t, name);
    return t;
  }();
  return type;
}

}  // namespace

Ref instance_dict_view(const Ref& instance) { return std::make_shared<InstanceDictObject>(instance_dict_type(), instance); }

}  // namespace kiln::python
