// Methods of dict and set, and the dict views (dict_keys, dict_values, dict_items).
#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

DictObject& dict_of(const CallArgs& c) { return as<DictObject>(c.args.at(0)); }
DictObject& set_of(const CallArgs& c) { return as<SetObject>(c.args.at(0)).items; }

enum class ViewKind { Keys, Values, Items };

struct DictView : NativeObject {
  DictView(TypeObject* type, std::shared_ptr<DictObject> d, ViewKind k) : NativeObject(type), dict(std::move(d)), kind(k) {}
  std::shared_ptr<DictObject> dict;
  ViewKind kind;

  std::vector<Ref> items() const {
    std::vector<Ref> out;
    for (const auto* e : dict->entries()) {
      switch (kind) {
        case ViewKind::Keys: out.push_back(e->key); break;
        case ViewKind::Values: out.push_back(e->value); break;
        case ViewKind::Items: out.push_back(py_tuple({e->key, e->value})); break;
      }
    }
    return out;
  }
};

TypeObject* view_type(ViewKind kind) {
  static TypeObject* types[3] = {};
  auto& type = types[static_cast<int>(kind)];
  if (type) return type;
  const char* names[] = {"dict_keys", "dict_values", "dict_items"};
  type = make_builtin_type(names[static_cast<int>(kind)], {});
  auto view = [](const CallArgs& c) -> DictView& { return static_cast<DictView&>(*c.args.at(0)); };
  add_method(type, "__iter__", [view](Interpreter& ip, CallArgs& c) { return iter(ip, py_list(view(c).items())); });
  add_method(type, "__len__", [view](Interpreter&, CallArgs& c) { return py_int(static_cast<int64_t>(view(c).dict->size())); });
  add_method(type, "__contains__", [view](Interpreter& ip, CallArgs& c) {
    if (view(c).kind == ViewKind::Keys) return py_bool(view(c).dict->get(ip, c.args.at(1)) != nullptr);
    return py_bool(contains(ip, py_list(view(c).items()), c.args.at(1)));
  });
  add_method(type, "__repr__", [view](Interpreter& ip, CallArgs& c) {
    return py_str(type_name(c.args[0]) + "(" + repr(ip, py_list(view(c).items())) + ")");
  });
  return type;
}

Ref make_view(const CallArgs& c, ViewKind kind) {
  return std::make_shared<DictView>(view_type(kind), std::static_pointer_cast<DictObject>(c.args.at(0)), kind);
}

void dict_method(const std::string& name, NativeFn fn) { add_method(builtin_types().dict, name, std::move(fn)); }
void set_method(const std::string& name, NativeFn fn) { add_method(builtin_types().set, name, std::move(fn)); }

[[noreturn]] void key_error(Interpreter& ip, const Ref& key) {
  throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{key}));
}

}  // namespace

void install_mapping_methods() {
  dict_method("keys", [](Interpreter&, CallArgs& c) { return make_view(c, ViewKind::Keys); });
  dict_method("values", [](Interpreter&, CallArgs& c) { return make_view(c, ViewKind::Values); });
  dict_method("items", [](Interpreter&, CallArgs& c) { return make_view(c, ViewKind::Items); });
  dict_method("get", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() < 2 || c.args.size() > 3) raise_error(ExcType::TypeError, "get expected 1 or 2 arguments");
    Ref v = dict_of(c).get(ip, c.args[1]);
    return v ? v : c.args.size() == 3 ? c.args[2] : none();
  });
  dict_method("pop", [](Interpreter& ip, CallArgs& c) {
    Ref v = dict_of(c).get(ip, c.args.at(1));
    if (!v) {
      if (c.args.size() > 2) return c.args[2];
      key_error(ip, c.args[1]);
    }
    dict_of(c).erase(ip, c.args[1]);
    return v;
  });
  dict_method("popitem", [](Interpreter& ip, CallArgs& c) {
    auto entries = dict_of(c).entries();
    if (entries.empty()) raise_error(ExcType::KeyError, "popitem(): dictionary is empty");
    Ref key = entries.back()->key, value = entries.back()->value;
    dict_of(c).erase(ip, key);
    return py_tuple({key, value});
  });
  dict_method("setdefault", [](Interpreter& ip, CallArgs& c) {
    Ref v = dict_of(c).get(ip, c.args.at(1));
    if (v) return v;
    Ref value = c.args.size() > 2 ? c.args[2] : none();
    dict_of(c).set(ip, c.args[1], value);
    return value;
  });
  dict_method("update", [](Interpreter& ip, CallArgs& c) {
    CallArgs make;
    if (c.args.size() > 1) make.args.push_back(c.args[1]);
    make.kwargs = c.kwargs;
    Ref other = call(ip, builtin_type_ref(builtin_types().dict), std::move(make));
    for (const auto* e : as<DictObject>(other).entries()) dict_of(c).set(ip, e->key, e->value);
    return none();
  });
  dict_method("copy", [](Interpreter& ip, CallArgs& c) {
    auto copy = py_dict();
    for (const auto* e : dict_of(c).entries()) copy->set(ip, e->key, e->value);
    return Ref(copy);
  });
  dict_method("clear", [](Interpreter&, CallArgs& c) {
    dict_of(c).clear();
    return none();
  });
  // A classmethod, as in CPython: dict.fromkeys and d.fromkeys both get the class first.
  builtin_types().dict->attrs["fromkeys"] = std::make_shared<WrapperObject>(
      ObjectKind::ClassMethod, native_function("fromkeys", [](Interpreter& ip, CallArgs& c) {
        auto a = bind_native("fromkeys", c, {{"cls"}, {"iterable"}, {"value", false}});
        Ref d = call(ip, a[0], std::vector<Ref>{});
        for (const auto& key : to_vector(ip, a[1])) setitem(ip, d, key, a[2] ? a[2] : none());
        return d;
      }));

  set_method("add", [](Interpreter& ip, CallArgs& c) {
    set_of(c).set(ip, c.args.at(1), none());
    return none();
  });
  set_method("remove", [](Interpreter& ip, CallArgs& c) {
    if (!set_of(c).erase(ip, c.args.at(1))) key_error(ip, c.args[1]);
    return none();
  });
  set_method("discard", [](Interpreter& ip, CallArgs& c) {
    set_of(c).erase(ip, c.args.at(1));
    return none();
  });
  set_method("pop", [](Interpreter& ip, CallArgs& c) {
    auto entries = set_of(c).entries();
    if (entries.empty()) raise_error(ExcType::KeyError, "pop from an empty set");
    Ref key = entries.front()->key;
    set_of(c).erase(ip, key);
    return key;
  });
  set_method("update", [](Interpreter& ip, CallArgs& c) {
    for (size_t i = 1; i < c.args.size(); ++i)
      for (const auto& item : to_vector(ip, c.args[i])) set_of(c).set(ip, item, none());
    return none();
  });
  set_method("copy", [](Interpreter& ip, CallArgs& c) {
    auto copy = std::make_shared<SetObject>();
    for (const auto* e : set_of(c).entries()) copy->items.set(ip, e->key, none());
    return Ref(copy);
  });
  set_method("clear", [](Interpreter&, CallArgs& c) {
    set_of(c).clear();
    return none();
  });
  set_method("issubset", [](Interpreter& ip, CallArgs& c) {
    Ref other = call(ip, builtin_type_ref(builtin_types().set), std::vector<Ref>{c.args.at(1)});
    for (const auto* e : set_of(c).entries())
      if (!as<SetObject>(other).items.get(ip, e->key)) return py_false();
    return py_true();
  });
  // union/intersection/difference accept any iterables; the set operators do the work.
  auto combine = [](BinaryOperator op) {
    return [op](Interpreter& ip, CallArgs& c) {
      Ref result = call(ip, builtin_type_ref(builtin_types().set), std::vector<Ref>{c.args.at(0)});
      for (size_t i = 1; i < c.args.size(); ++i)
        result = binary_op(ip, op, result, call(ip, builtin_type_ref(builtin_types().set), std::vector<Ref>{c.args[i]}));
      return result;
    };
  };
  set_method("union", combine(BinaryOperator::BitOr));
  set_method("intersection", combine(BinaryOperator::BitAnd));
  set_method("difference", combine(BinaryOperator::Sub));
}

}  // namespace kiln::python
