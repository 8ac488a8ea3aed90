#include "libcompiler/inductor/scheduler.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::inductor {

namespace {

SizeExpr product(const std::vector<SizeExpr>& sizes, size_t begin, size_t end) {
  SizeExpr p = size_constant(1);
  for (size_t i = begin; i < end; ++i) p = p * sizes[i];
  return p;
}

// max(size, 1): symbolic sizes are at least 2 already.
SizeExpr at_least_one(const SizeExpr& size) {
  auto c = size.constant();
  return c && *c < 1 ? size_constant(1) : size;
}

// Index expressions of `sizes`' variables (numbered from `first`) in terms of one flat variable.
std::map<int, IndexExpr> unflatten(int flat, const std::vector<SizeExpr>& sizes, int first, const VarRanges& ranges) {
  std::map<int, IndexExpr> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::vector<SizeExpr> after(sizes.begin() + static_cast<long>(i) + 1, sizes.end());
    for (SizeExpr& s : after) s = at_least_one(s);
    const SizeExpr stride = product(after, 0, after.size());
    out[first + static_cast<int>(i)] = IndexExpr::var(flat).floordiv(stride, ranges).mod(at_least_one(sizes[i]), ranges);
  }
  return out;
}

// The node's body over (outer, inner) when its output ranges split after `split` dims.
std::optional<KernelMember> member_at(const ComputedNode& node, int index, size_t split) {
  std::vector<SizeExpr> outer(node.ranges.begin(), node.ranges.begin() + static_cast<long>(split));
  std::vector<SizeExpr> inner(node.ranges.begin() + static_cast<long>(split), node.ranges.end());
  if (node.reduction) {
    if (split != node.ranges.size()) return std::nullopt;
    inner = node.reduction_ranges;
  }
  KernelMember m;
  m.node = index;
  m.reduces = node.reduction.has_value();
  m.inner_size = product(inner, 0, inner.size());
  VarRanges ranges = node.var_ranges();
  ranges[1000] = at_least_one(product(outer, 0, outer.size()));
  ranges[1001] = at_least_one(m.inner_size);
  std::map<int, IndexExpr> values = unflatten(1000, outer, 0, ranges);
  const int first_inner = static_cast<int>(node.reduction ? node.ranges.size() : split);
  for (auto& [v, e] : unflatten(1001, inner, first_inner, ranges)) values[v] = e;
  ExprRef body = substitute_indices(node.body, values, ranges);
  // Renumber 1000/1001 to the kernel's variables.
  VarRanges kernel_ranges = {{kOuterVar, ranges[1000]}, {kInnerVar, ranges[1001]}, {1000, ranges[1000]}, {1001, ranges[1001]}};
  m.body = substitute_indices(body, {{1000, IndexExpr::var(kOuterVar)}, {1001, IndexExpr::var(kInnerVar)}}, kernel_ranges);
  return m;
}

// The member for a kernel whose outer range is `outer_size`, if the node splits there.
std::optional<KernelMember> member_for(const ComputedNode& node, int index, const SizeExpr& outer_size) {
  if (node.reduction) {
    if (product(node.ranges, 0, node.ranges.size()) != outer_size) return std::nullopt;
    return member_at(node, index, node.ranges.size());
  }
  for (size_t split = node.ranges.size() + 1; split-- > 0;)
    if (product(node.ranges, 0, split) == outer_size) return member_at(node, index, split);
  return std::nullopt;
}

// The longest loop a member may add to a kernel of one row.
constexpr int64_t kLargestFusedRow = 4096;

// The elements per outer index a member writes.
SizeExpr row_size(const KernelMember& m, const ComputedNode& node) { return node.reduction ? size_constant(1) : m.inner_size; }

// Whether every read of `buffer` by `reader` stays within row `outer` of a buffer laid out as
// outer·row + element.
bool row_local(const KernelMember& reader, int buffer, const SizeExpr& row, const SizeExpr& outer_size) {
  const VarRanges ranges = {{kOuterVar, outer_size}, {kInnerVar, at_least_one(reader.inner_size)}};
  for (const IndexExpr& index : loads_of(reader.body, buffer)) {
    if (outer_size != size_constant(1) && outer_size != size_constant(0) &&
        (!index.affine_in(kOuterVar) || index.coefficient_of(kOuterVar) != row))
      return false;
    const IndexExpr rest = index + IndexExpr::var(kOuterVar) * (-index.coefficient_of(kOuterVar));
    auto bounds = rest.bounds(ranges);
    if (!bounds || !always_nonnegative(bounds->first) || !always_less(bounds->second, row)) return false;
  }
  return true;
}

std::string op_name(const std::string& origin) {
  std::string name = origin;
  while (!name.empty() && (std::isdigit(static_cast<unsigned char>(name.back())) || name.back() == '_')) name.pop_back();
  return name.empty() ? "op" : name;
}

class Fuser {
 public:
  Fuser(const LoopProgram& program, int first_kernel) : program_(program), first_kernel_(first_kernel) {}

  Schedule run() {
    for (size_t i = 0; i < program_.nodes.size(); ++i) {
      const int index = static_cast<int>(i);
      if (std::holds_alternative<ExternNode>(program_.nodes[i])) {
        schedule_.steps.emplace_back(ExternStep{index});
        continue;
      }
      const ComputedNode& node = std::get<ComputedNode>(program_.nodes[i]);
      if (!try_fuse(node, index)) start_kernel(node, index);
    }
    finish();
    return std::move(schedule_);
  }

 private:
  FusedKernel* current() {
    if (schedule_.steps.empty()) return nullptr;
    return std::get_if<FusedKernel>(&schedule_.steps.back());
  }

  void start_kernel(const ComputedNode& node, int index) {
    FusedKernel k;
    k.outer_size = product(node.ranges, 0, node.ranges.size());
    k.members.push_back(*member_at(node, index, node.ranges.size()));
    schedule_.steps.emplace_back(std::move(k));
  }

  bool legal(const FusedKernel& kernel, const KernelMember& m) const {
    if (!shares_iteration(kernel, m)) return false;
    for (int buffer : loaded_buffers(m.body)) {
      for (const KernelMember& producer : kernel.members) {
        const ComputedNode& p = std::get<ComputedNode>(program_.nodes[producer.node]);
        if (p.output == buffer && !row_local(m, buffer, row_size(producer, p), kernel.outer_size)) return false;
      }
    }
    return true;
  }

  // Whether a new member loops as the kernel's members do (Inductor fuses nodes of one iteration
  // space): a pointwise member's loop per row is as long as another member's loop or, as a
  // reduction's epilogue, one element. A kernel of one row runs on one block of threads (one
  // task on the CPU) however much its members do, so it takes only small rows after its first.
  bool shares_iteration(const FusedKernel& kernel, const KernelMember& m) const {
    if (kernel.members.empty()) return true;
    if (kernel.outer_size == size_constant(1)) {
      const std::optional<int64_t> inner = m.inner_size.constant();
      if (!inner || *inner > kLargestFusedRow) return false;
    }
    if (m.reduces) return true;
    return std::any_of(kernel.members.begin(), kernel.members.end(), [&](const KernelMember& k) {
      return k.inner_size == m.inner_size || (k.reduces && m.inner_size == size_constant(1));
    });
  }

  bool try_fuse(const ComputedNode& node, int index) {
    FusedKernel* kernel = current();
    if (!kernel) return false;
    // The compiler bisector's "fusion" subsystem: a disabled fusion starts a kernel of its own.
    if (bisect::disable_subsystem("inductor", "fusion", [&] { return program_.buffers[node.output].name + " (" + node.origin + ")"; }))
      return false;
    if (auto m = member_for(node, index, kernel->outer_size); m && legal(*kernel, *m)) {
      kernel->members.push_back(std::move(*m));
      return true;
    }
    // A reduction over rows of what a pointwise kernel computes: the kernel's members split
    // at the reduction's rows instead.
    if (!node.reduction) return false;
    const SizeExpr rows = product(node.ranges, 0, node.ranges.size());
    FusedKernel resplit;
    resplit.outer_size = rows;
    for (const KernelMember& old : kernel->members) {
      const ComputedNode& n = std::get<ComputedNode>(program_.nodes[old.node]);
      auto m = n.reduction ? std::nullopt : member_for(n, old.node, rows);
      if (!m || !legal(resplit, *m)) return false;
      resplit.members.push_back(std::move(*m));
    }
    auto m = member_for(node, index, rows);
    if (!m || !legal(resplit, *m)) return false;
    resplit.members.push_back(std::move(*m));
    *kernel = std::move(resplit);
    return true;
  }

  void finish() {
    int n = first_kernel_;
    for (ScheduledStep& step : schedule_.steps) {
      auto* k = std::get_if<FusedKernel>(&step);
      if (!k) continue;
      std::vector<std::string> ops;
      std::set<int> buffers;
      std::set<std::string> symbols;
      for (const std::string& s : k->outer_size.freeSymbols()) symbols.insert(s);
      for (const KernelMember& m : k->members) {
        for (const std::string& s : m.inner_size.freeSymbols()) symbols.insert(s);
        for (const std::string& s : size_symbols_of(m.body)) symbols.insert(s);
        const ComputedNode& node = std::get<ComputedNode>(program_.nodes[m.node]);
        const std::string op = op_name(node.origin);
        if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
        buffers.insert(node.output);
        for (int b : loaded_buffers(m.body)) buffers.insert(b);
      }
      k->name = std::string(backend_for_device(program_.device.type)->kernel_prefix());
      for (size_t i = 0; i < ops.size() && i < 6; ++i) k->name += "_" + ops[i];
      k->name += "_" + std::to_string(n++);
      k->buffers.assign(buffers.begin(), buffers.end());
      k->size_symbols.assign(symbols.begin(), symbols.end());
    }
  }

  const LoopProgram& program_;
  const int first_kernel_;
  Schedule schedule_;
};

}  // namespace

Schedule schedule_program(const LoopProgram& program, int first_kernel) { return Fuser(program, first_kernel).run(); }

std::string kernel_var_name(int var) { return var == kOuterVar ? "x0" : "r0"; }

std::string print_schedule(const LoopProgram& program, const Schedule& schedule) {
  std::string out;
  for (const ScheduledStep& step : schedule.steps) {
    if (const auto* e = std::get_if<ExternStep>(&step)) {
      out += print_loop_node(program, program.nodes[e->node]) + "\n";
      continue;
    }
    const FusedKernel& k = std::get<FusedKernel>(step);
    std::string names;
    for (const KernelMember& m : k.members) names += (names.empty() ? "" : ", ") + program.buffers[std::get<ComputedNode>(program.nodes[m.node]).output].name;
    out += k.name + ": " + (k.members.size() > 1 ? "FusedSchedulerNode(" : "SchedulerNode(") + names + ")\n";
    out += k.name + ".outer_range = " + k.outer_size.str() + "\n";
    for (const KernelMember& m : k.members) {
      const ComputedNode& node = std::get<ComputedNode>(program.nodes[m.node]);
      out += "  " + program.buffers[node.output].name + ": inner_range = " + m.inner_size.str() +
             (node.reduction ? " (" + reduction_type_name(*node.reduction) + ")" : "") + "\n";
      std::vector<std::string> lines;
      const std::string root = print_expr(m.body, [&](int b) { return program.buffers[b].name; },
                                          kernel_var_name, lines);
      for (const std::string& line : lines) out += "    " + line + "\n";
      out += "    store " + program.buffers[node.output].name + "[" + (node.reduction || m.inner_size == size_constant(1) ? "x0" : m.inner_size.str() + "*x0 + r0") + "] = " +
             (node.reduction ? reduction_type_name(*node.reduction) + "(" + root + ")" : root) + "\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace kiln::inductor
