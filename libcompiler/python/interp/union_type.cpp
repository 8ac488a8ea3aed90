#include "libcompiler/python/interp/union_type.h"

#include <algorithm>

#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

struct UnionObject : NativeObject {
  UnionObject(TypeObject* type, std::vector<Ref> members) : NativeObject(type), members(std::move(members)) {}
  const std::vector<Ref> members;
};

bool is_union_member(const Ref& value) { return value->kind == ObjectKind::Type || is_none(value); }

Ref binary_method(bool reflected) {
  return native_function(reflected ? "__ror__" : "__or__", [reflected](Interpreter&, CallArgs& c) -> Ref {
    if (c.args.size() != 2) return not_implemented();
    Ref result = reflected ? type_union(c.args[1], c.args[0]) : type_union(c.args[0], c.args[1]);
    return result ? result : not_implemented();
  });
}

}  // namespace

TypeObject* union_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("UnionType", {builtin_types().object}, "types");
    t->attrs["__or__"] = binary_method(false);
    t->attrs["__ror__"] = binary_method(true);
    add_method(t, "__repr__", [](Interpreter&, CallArgs& c) {
      std::string text;
      for (const auto& member : static_cast<const UnionObject&>(*c.args.at(0)).members)
        text += (text.empty() ? "" : " | ") +
                (is_none(member) ? std::string("None") : as<TypeObject>(member).qualified_name());
      return py_str(std::move(text));
    });
    add_getter(t, "__args__", [](Interpreter&, const Ref& self) {
      std::vector<Ref> args;
      for (const auto& member : static_cast<const UnionObject&>(*self).members)
        args.push_back(is_none(member) ? builtin_type_ref(builtin_types().none) : member);
      return py_tuple(std::move(args));
    });
    return t;
  }();
  return type;
}

namespace {

bool is_union(const Ref& value) { return value->kind == ObjectKind::Native && value->type == union_type(); }

}  // namespace

Ref type_union(const Ref& left, const Ref& right) {
  std::vector<Ref> members;
  for (const Ref& side : {left, right}) {
    if (is_union(side)) {
      for (const auto& member : static_cast<const UnionObject&>(*side).members) members.push_back(member);
    } else if (is_union_member(side)) {
      members.push_back(side);
    } else {
      return nullptr;
    }
  }
  std::vector<Ref> unique;
  for (auto& member : members)
    if (std::none_of(unique.begin(), unique.end(), [&](const Ref& seen) { return seen.get() == member.get(); }))
      unique.push_back(member);
  if (unique.size() == 1) return unique.front();
  return std::make_shared<UnionObject>(union_type(), std::move(unique));
}

}  // namespace kiln::python
