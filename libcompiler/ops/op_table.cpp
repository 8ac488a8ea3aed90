#include "libcompiler/ops/op_table.h"

#include <sstream>
#include <unordered_map>

#include "libcompiler/ops/decompositions.h"
#include "libcompiler/ops/autograd/formulas.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"

namespace kiln::ops {

namespace {

std::vector<std::string> split_names(std::string_view list) {
  std::vector<std::string> names;
  std::stringstream stream{std::string(list)};
  std::string item;
  while (std::getline(stream, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) names.push_back(item);
  }
  return names;
}

std::vector<OpInfo> build_table() {
  std::vector<OpInfo> table;
#define KILN_OP(Id, Schema, Meta, Kernel, Grad, Node, Backward, Saved, Decomposition, DifferentiableOutputs)                          \
  table.push_back(OpInfo{OpId::Id, parse_schema(Schema), Meta, Kernel, GradKind::Grad, Node, Backward, \
                         split_names(Saved), Decomposition, DifferentiableOutputs});
#include "libcompiler/ops/ops.def"
  return table;
}

// Looked up by string_view without making a std::string: eager dispatch looks a name up per call.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
};

struct Index {
  std::unordered_map<std::string, const OpInfo*> by_qualified_name;
  std::unordered_map<std::string, std::vector<const OpInfo*>, NameHash, std::equal_to<>> by_name;
};

const Index& index() {
  static const Index instance = [] {
    Index built;
    for (const OpInfo& op : all_ops()) {
      built.by_qualified_name[op.qualified_name()] = &op;
      built.by_name[op.schema.namespaced_name()].push_back(&op);
    }
    return built;
  }();
  return instance;
}

}  // namespace

const std::vector<OpInfo>& all_ops() {
  static const std::vector<OpInfo> table = build_table();
  return table;
}

const OpInfo& op_info(OpId id) { return all_ops()[static_cast<size_t>(id)]; }

const OpInfo* find_op(std::string_view qualified_name) {
  if (qualified_name.starts_with("aten::")) qualified_name.remove_prefix(6);
  std::string key(qualified_name);
  if (key.ends_with(".default")) key.resize(key.size() - 8);
  const auto it = index().by_qualified_name.find(key);
  return it == index().by_qualified_name.end() ? nullptr : it->second;
}

const std::vector<const OpInfo*>& overloads_of(std::string_view name) {
  static const std::vector<const OpInfo*> none;
  const auto it = index().by_name.find(name);
  return it == index().by_name.end() ? none : it->second;
}

}  // namespace kiln::ops
