// Methods of list and tuple.
#include <algorithm>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

std::vector<Ref>& items_of(const CallArgs& c) { return as<ListObject>(c.args.at(0)).items; }

void list_method(const std::string& name, NativeFn fn) { add_method(builtin_types().list, name, std::move(fn)); }

Ref index_of(Interpreter& ip, CallArgs& c) {
  const auto& items = sequence_items(c.args.at(0));
  for (size_t i = 0; i < items.size(); ++i)
    if (is_same(items[i], c.args.at(1)) || equals(ip, items[i], c.args[1])) return py_int(static_cast<int64_t>(i));
  raise_error(ExcType::ValueError, c.args[0]->kind == ObjectKind::List ? repr(ip, c.args[1]) + " is not in list"
                                                                      : "tuple.index(x): x not in tuple");
}

Ref count_of(Interpreter& ip, CallArgs& c) {
  int64_t n = 0;
  for (const auto& item : sequence_items(c.args.at(0)))
    if (is_same(item, c.args.at(1)) || equals(ip, item, c.args[1])) ++n;
  return py_int(n);
}

}  // namespace

void install_sequence_methods() {
  list_method("append", [](Interpreter&, CallArgs& c) {
    if (c.args.size() != 2)
      raise_error(ExcType::TypeError, "list.append() takes exactly one argument (" + std::to_string(c.args.size() - 1) + " given)");
    items_of(c).push_back(c.args[1]);
    return none();
  });
  list_method("extend", [](Interpreter& ip, CallArgs& c) {
    auto more = to_vector(ip, c.args.at(1));
    auto& items = items_of(c);
    items.insert(items.end(), more.begin(), more.end());
    return none();
  });
  list_method("insert", [](Interpreter& ip, CallArgs& c) {
    auto& items = items_of(c);
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = to_index(ip, c.args.at(1));
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    items.insert(items.begin() + i, c.args.at(2));
    return none();
  });
  list_method("pop", [](Interpreter& ip, CallArgs& c) {
    auto& items = items_of(c);
    if (items.empty()) raise_error(ExcType::IndexError, "pop from empty list");
    int64_t i = c.args.size() > 1 ? to_index(ip, c.args[1]) : -1;
    size_t at = sequence_index(i, items.size(), "pop");
    Ref value = items[at];
    items.erase(items.begin() + static_cast<long>(at));
    return value;
  });
  list_method("remove", [](Interpreter& ip, CallArgs& c) {
    auto& items = items_of(c);
    for (size_t i = 0; i < items.size(); ++i)
      if (is_same(items[i], c.args.at(1)) || equals(ip, items[i], c.args[1])) {
        items.erase(items.begin() + static_cast<long>(i));
        return none();
      }
    raise_error(ExcType::ValueError, "list.remove(x): x not in list");
  });
  list_method("index", index_of);
  list_method("count", count_of);
  list_method("reverse", [](Interpreter&, CallArgs& c) {
    std::reverse(items_of(c).begin(), items_of(c).end());
    return none();
  });
  list_method("copy", [](Interpreter&, CallArgs& c) { return py_list(items_of(c)); });
  list_method("clear", [](Interpreter&, CallArgs& c) {
    items_of(c).clear();
    return none();
  });
  list_method("sort", [](Interpreter& ip, CallArgs& c) {
    CallArgs sorted_args;
    sorted_args.args.push_back(py_list(items_of(c)));
    sorted_args.kwargs = c.kwargs;
    Ref result = call(ip, ip.builtins().get("sorted"), std::move(sorted_args));
    items_of(c) = as<ListObject>(result).items;
    return none();
  });
  add_method(builtin_types().tuple, "index", index_of);
  add_method(builtin_types().tuple, "count", count_of);
}

}  // namespace kiln::python
