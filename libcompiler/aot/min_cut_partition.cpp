#include "libcompiler/aot/min_cut_partition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include "libcompiler/aot/default_partition.h"
#include "libcompiler/aot/graph_cse.h"
#include "libcompiler/aot/storage_alias.h"
#include "libcompiler/ir/dead_code_elimination.h"
#include "libcompiler/tensor/dtype.h"

namespace kiln::aot {

namespace {

enum class OpKind { Other, Recomputable, RecomputableView, ComputeIntensive, Random };

// "add" for torch.ops.aten.add.Tensor, "prims::fma" for torch.ops.prims.fma.default.
std::string op_name(const ir::Node& node) {
  const ops::OpInfo* op = ir::tableOp(node);
  return op ? op->schema.namespaced_name() : node.target();
}

OpKind op_kind(const ir::Node& node) {
  if (node.op() != ir::OpCode::CallFunction) return OpKind::Other;
  if (node.is(ir::BuiltinTarget::Getitem)) return OpKind::Recomputable;
  static const std::unordered_map<std::string, OpKind> kinds = {
#define KILN_PARTITION_OP(Name, Kind) {Name, OpKind::Kind},
#include "libcompiler/aot/partition_op_kinds.def"
  };
  const auto it = kinds.find(op_name(node));
  return it == kinds.end() ? OpKind::Other : it->second;
}

bool is_view(const ir::Node& node) { return op_kind(node) == OpKind::RecomputableView; }
bool is_recomputable(const ir::Node& node) {
  const OpKind kind = op_kind(node);
  return kind == OpKind::Recomputable || kind == OpKind::RecomputableView;
}
bool is_fusible_op(const ir::Node& node) { return is_recomputable(node) || op_kind(node) == OpKind::Random; }
// A producer and a consumer Inductor can fuse (anything may be written straight into a cat).
bool is_fusible(const ir::Node& a, const ir::Node& b) { return op_name(b) == "cat" || (is_fusible_op(a) && is_fusible_op(b)); }

int64_t tensor_bytes(const ir::TensorMeta& t) {
  int64_t numel = 1;
  for (const ir::SymExpr& s : t.sizes) {
    const auto size = s.constant();
    if (!size) {
      numel = 4096;  // PyTorch's fallback for a size without a hint
      break;
    }
    numel *= *size;
  }
  const auto dtype = tensor::dtype_from_name(ir::dtypeTorchName(t.dtype));
  return numel * static_cast<int64_t>(dtype ? tensor::itemsize(*dtype) : 4);
}

// PyTorch's _size_of: the bytes of a node's value.
int64_t size_of(const ir::Node& node) {
  if (const auto* t = std::get_if<ir::TensorMeta>(&node.meta.value)) return tensor_bytes(*t);
  if (const auto* tuple = std::get_if<ir::TensorTuple>(&node.meta.value)) {
    int64_t total = 0;
    for (const ir::TensorMeta& t : tuple->elements) total += tensor_bytes(t);
    return total;
  }
  return std::holds_alternative<ir::SymScalar>(node.meta.value) ? 1 : 0;
}

// The flow network: vertex 0 is the source, 1 the sink, node i has vertices 2+2i (in) and
// 3+2i (out). Edges are set, not added: a second edge between two vertices replaces the first.
class FlowNetwork {
 public:
  static constexpr int64_t kInfinite = -1;
  static constexpr int kSource = 0, kSink = 1;

  void set_edge(int from, int to, int64_t capacity) { edges_[{from, to}] = capacity; }

  // The vertices on the sink's side of the minimum cut that is closest to the sink (those that
  // still reach the sink in the residual network, as networkx's minimum_cut reports it).
  std::vector<bool> sink_side(int vertices) const {
    using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
    using Graph = boost::adjacency_list<
        boost::vecS, boost::vecS, boost::directedS, boost::no_property,
        boost::property<boost::edge_capacity_t, int64_t,
                        boost::property<boost::edge_residual_capacity_t, int64_t,
                                        boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
    int64_t finite = 1;
    for (const auto& [edge, capacity] : edges_)
      if (capacity != kInfinite) finite += capacity;
    const int64_t infinite = 3 * finite;
    Graph graph(vertices);
    auto capacity = boost::get(boost::edge_capacity, graph);
    auto reverse = boost::get(boost::edge_reverse, graph);
    auto residual = boost::get(boost::edge_residual_capacity, graph);
    for (const auto& [edge, c] : edges_) {
      const auto forward = boost::add_edge(edge.first, edge.second, graph).first;
      const auto backward = boost::add_edge(edge.second, edge.first, graph).first;
      capacity[forward] = c == kInfinite ? infinite : c;
      capacity[backward] = 0;
      reverse[forward] = backward;
      reverse[backward] = forward;
    }
    const int64_t flow = boost::push_relabel_max_flow(graph, kSource, kSink);
    if (flow >= infinite)
      throw std::runtime_error(
          "AOT Autograd failed to partition the joint forward-backward graph: a value is required for backward, but "
          "cannot be saved and cannot be recomputed");
    std::vector<bool> reaches_sink(vertices, false);
    std::vector<Traits::vertex_descriptor> queue{kSink};
    reaches_sink[kSink] = true;
    while (!queue.empty()) {
      const auto v = queue.back();
      queue.pop_back();
      for (auto [e, end] = boost::out_edges(v, graph); e != end; ++e) {
        const auto u = boost::target(*e, graph);
        if (!reaches_sink[u] && residual[reverse[*e]] > 0) {
          reaches_sink[u] = true;
          queue.push_back(u);
        }
      }
    }
    return reaches_sink;
  }

 private:
  std::map<std::pair<int, int>, int64_t> edges_;
};

// PyTorch's classify_nodes and solve_min_cut with the default options (every ban heuristic on,
// views not recomputed by force, no memory budget).
class MinCut {
 public:
  MinCut(const ir::Graph& graph, const JointParts& parts, const std::vector<bool>& input_is_parameter)
      : nodes_(graph.nodes()) {
    for (const ir::Node* n : nodes_) index_[n] = static_cast<int>(index_.size());
    for (size_t i = 0; i < parts.primals.size() && i < input_is_parameter.size(); ++i)
      if (input_is_parameter[i]) parameters_.insert(parts.primals[i]);
    classify(parts);
  }

  bool has_backward() const { return !required_bw_.empty(); }

  std::vector<const ir::Node*> saved_values() {
    compute_distances();
    for (const ir::Node* node : nodes_) add_node(*node);
    ban_fusible_uses_far_apart();
    ban_long_fusible_chains();
    const std::vector<bool> sink_side = network_.sink_side(2 + 2 * static_cast<int>(nodes_.size()));
    std::vector<const ir::Node*> saved;
    for (const ir::Node* node : nodes_)
      if (!sink_side[in(*node)] && sink_side[out(*node)]) saved.push_back(node);
    return saved;
  }

 private:
  int in(const ir::Node& n) const { return 2 + 2 * index_.at(&n); }
  int out(const ir::Node& n) const { return 3 + 2 * index_.at(&n); }
  bool required_fw(const ir::Node& n) const { return fw_order_.count(&n) > 0; }
  int fw_order(const ir::Node& n) const { return fw_order_.at(&n); }

  void classify(const JointParts& parts) {
    // What needs a tangent, then also the gradients.
    for (const ir::Node* node : nodes_) {
      if (node->op() == ir::OpCode::Placeholder && node->name().starts_with("tangents_")) required_bw_.insert(node);
      if (required_bw_.count(node))
        for (const ir::Node* user : node->users()) required_bw_.insert(user);
    }
    tangents_closure_ = required_bw_;
    for (const ir::Node* g : parts.gradients)
      if (g) required_bw_.insert(g);
    // The forward: what the program's outputs need from the primals (and every primal).
    NodeSet computable;
    for (const ir::Node* node : nodes_) {
      if (node->op() == ir::OpCode::Placeholder) {
        if (!tangents_closure_.count(node)) computable.insert(node);
        continue;
      }
      bool all = node->op() == ir::OpCode::CallFunction;
      for (const ir::Node* input : node->inputNodes()) all = all && computable.count(input);
      if (all) computable.insert(node);
    }
    NodeSet needed(parts.primals.begin(), parts.primals.end());
    std::vector<const ir::Node*> stack(parts.forward_outputs.begin(), parts.forward_outputs.end());
    while (!stack.empty()) {
      const ir::Node* n = stack.back();
      stack.pop_back();
      if (!n || !computable.count(n) || !needed.insert(n).second) continue;
      for (const ir::Node* input : n->inputNodes()) stack.push_back(input);
    }
    for (const ir::Node* node : nodes_)
      if (needed.count(node) || (node->op() == ir::OpCode::Placeholder && computable.count(node)))
        fw_order_.emplace(node, static_cast<int>(fw_order_.size()));
  }

  void compute_distances() {
    constexpr int64_t kFar = 1000000000;
    for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
      const ir::Node* node = *it;
      int64_t d = kFar;
      if (node->op() != ir::OpCode::Output) {
        if (!required_fw(*node)) {
          d = 0;
        } else {
          for (const ir::Node* user : node->users()) d = std::min(d, dist_from_bw_.at(user) + 1);
        }
      }
      dist_from_bw_[node] = d;
    }
  }

  bool is_materialized_backwards(const ir::Node& node) const {
    if (is_view(node)) return false;
    std::vector<const ir::Node*> current{&node};
    NodeSet seen{&node};
    while (!current.empty()) {
      const ir::Node* cur = current.back();
      current.pop_back();
      for (const ir::Node* user : cur->users()) {
        if (!required_fw(*user) && !is_fusible(*cur, *user)) return true;
        if (is_view(*user) && seen.insert(user).second) current.push_back(user);
      }
    }
    return false;
  }

  bool is_materialized(const ir::Node& node) const {
    if (node.op() == ir::OpCode::Placeholder) return true;
    for (const ir::Node* user : node.users())
      if (!is_fusible(node, *user)) return true;
    return false;
  }

  bool should_ban_recomputation(const ir::Node& node) const {
    if (node.op() != ir::OpCode::CallFunction || node.is(ir::BuiltinTarget::Getitem)) return false;
    if (!is_recomputable(node)) return true;
    if (is_materialized_backwards(node)) return true;
    // Saving a reduction's small result beats recomputing it from its large input.
    int64_t input_bytes = 0;
    for (const ir::Argument& a : node.args())
      if (const ir::Node* n = a.asNode()) input_bytes += size_of(*n);
    return size_of(node) * 4 < input_bytes;
  }

  int64_t weight(const ir::Node& node) const {
    if (parameters_.count(&node)) return 0;  // kept alive anyway (treat_parameters_as_free_to_save)
    if (std::holds_alternative<ir::SymScalar>(node.meta.value)) return 1;
    if (!std::holds_alternative<ir::TensorMeta>(node.meta.value)) return FlowNetwork::kInfinite;
    // Values nearer the backward are cheaper to keep.
    const int64_t distance = std::max<int64_t>(std::min<int64_t>(dist_from_bw_.at(&node), 100), 1);
    const auto bytes = static_cast<int64_t>(static_cast<double>(size_of(node)) * std::pow(1.1, static_cast<double>(distance)));
    return is_materialized(node) ? bytes : bytes * 2;
  }

  void ban(const ir::Node& node) {
    if (is_view(node)) return;
    banned_.insert(&node);
    network_.set_edge(FlowNetwork::kSource, in(node), FlowNetwork::kInfinite);
  }

  void add_node(const ir::Node& node) {
    if (node.op() == ir::OpCode::Output) return;
    if (required_bw_.count(&node)) {
      if (!tangents_closure_.count(&node)) {
        network_.set_edge(out(node), FlowNetwork::kSink, FlowNetwork::kInfinite);
      } else {
        network_.set_edge(in(node), FlowNetwork::kSink, FlowNetwork::kInfinite);
        return;
      }
    }
    if (node.op() == ir::OpCode::Placeholder && !node.name().starts_with("tangents_")) ban(node);
    if (required_fw(node) && should_ban_recomputation(node)) ban(node);
    network_.set_edge(in(node), out(node), weight(node));
    for (const ir::Node* user : node.users())
      if (user->op() != ir::OpCode::Output) network_.set_edge(out(node), in(*user), FlowNetwork::kInfinite);
  }

  // The position of the first use among start_nodes' forward users (and theirs, up to
  // max_range) that cannot be fused with what it reads.
  int first_unfusible_use(const std::vector<const ir::Node*>& start_nodes, int max_range) const {
    // (forward order, fusible); the node is known from its order. Unfusible sorts first on ties.
    using Entry = std::pair<int, bool>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    std::set<Entry> queued;
    std::unordered_map<int, const ir::Node*> by_order;
    auto push = [&](const ir::Node* n, bool fusible) {
      const Entry e{fw_order(*n), fusible};
      by_order[e.first] = n;
      if (queued.insert(e).second) heap.push(e);
    };
    for (const ir::Node* n : start_nodes) push(n, true);
    while (!heap.empty()) {
      const Entry e = heap.top();
      heap.pop();
      queued.erase(e);
      if (!e.second) return e.first;
      const ir::Node* node = by_order.at(e.first);
      for (const ir::Node* user : node->users())
        if (required_fw(*user) && fw_order(*user) <= max_range) push(user, is_fusible(*node, *user));
    }
    return max_range;
  }

  // A value used by nearby fusible ops and by fusible ops past an unfusible one: recomputing the
  // far users could not fuse with the near ones, so they are not recomputed.
  void ban_fusible_uses_far_apart() {
    for (const ir::Node* used : nodes_) {
      if (!required_fw(*used)) continue;
      std::vector<const ir::Node*> fw_users;
      int last = -1;
      for (const ir::Node* user : used->users())
        if (required_fw(*user)) fw_users.push_back(user), last = std::max(last, fw_order(*user));
      if (fw_users.empty()) continue;
      const int first_unfusible = first_unfusible_use(fw_users, last);
      for (const ir::Node* user : fw_users)
        if (fw_order(*user) > first_unfusible && is_fusible(*used, *user) && !banned_.count(user)) ban(*user);
    }
  }

  // Fusible chains of more than 100 forward ops are cut (residual streams through a model).
  void ban_long_fusible_chains() {
    NodeSet visited;
    for (const ir::Node* start : nodes_) {
      if (!required_fw(*start)) continue;
      using Entry = std::pair<int, const ir::Node*>;
      std::priority_queue<Entry, std::vector<Entry>, std::greater<>> fusible;
      fusible.emplace(fw_order(*start), start);
      const int start_order = fw_order(*start);
      while (!fusible.empty()) {
        const ir::Node* cur = fusible.top().second;
        fusible.pop();
        if (!visited.insert(cur).second) continue;
        if (fw_order(*cur) > start_order + 100 && fusible.empty()) {
          ban(*cur);
          break;
        }
        for (const ir::Node* user : cur->users())
          if (required_fw(*user) && is_fusible(*cur, *user) && !banned_.count(user)) fusible.emplace(fw_order(*user), user);
      }
    }
  }

  std::vector<ir::Node*> nodes_;
  std::unordered_map<const ir::Node*, int> index_;
  NodeSet required_bw_, tangents_closure_, banned_, parameters_;
  std::unordered_map<const ir::Node*, int> fw_order_;
  std::unordered_map<const ir::Node*, int64_t> dist_from_bw_;
  FlowNetwork network_;
};

}  // namespace

PartitionedGraphs min_cut_partition(TracedGraph& joint) {
  ir::Graph& graph = joint.module->graph;
  ir::eliminateDeadCode(graph);
  eliminate_common_subexpressions(graph);
  MinCut cut(graph, joint_parts(joint), joint.input_is_parameter);
  if (!cut.has_backward()) return default_partition(joint);
  return split_joint_graph(joint, cut.saved_values());
}

}  // namespace kiln::aot
