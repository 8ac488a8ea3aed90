#pragma once
// Lowering of an aten graph to the loop IR (Inductor's GraphLowering): nodes in order, each by
// its lowering in lowerings.def or, without one, as an extern fallback node that runs the op's
// eager kernel. Pointwise results stay unrealized (a loader that computes one element) so that
// chains of pointwise ops, and pointwise producers of reductions, become one loop; a value is
// realized into a buffer when a reduction, an extern kernel or the graph output needs it stored,
// or when several users would recompute a costly body.
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/loop_ir.h"
#include "libcompiler/ir/graph_module.h"

namespace kiln::inductor {

// The loop variables' index expressions in, the element's scalar expression out.
using Loader = std::function<ExprRef(const std::vector<IndexExpr>& index, const VarRanges& ranges)>;

// A lowered tensor value (Inductor's TensorBox): its sizes and dtype, how to compute an element,
// and, when it is a strided view of one buffer, which buffer and layout (what extern kernels
// are given without a copy).
struct TensorBox {
  std::vector<SizeExpr> sizes;
  ir::Dtype dtype = ir::Dtype::Float32;
  Loader loader;
  std::optional<int> buffer;
  BufferLayout view;
  std::string origin;  // the aten node that computed it: names the loop that realizes it
  // A Python number read from a 0-d tensor (aten._local_scalar_dense, Tensor.item()): a 0-d value
  // that elementwise ops treat as a number operand, never as a tensor.
  bool is_number = false;
};

// A graph this lowering cannot take at all (non-tensor outputs, size symbols no input gives): the
// caller runs the graph another way.
struct LoweringUnsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Thrown by a lowering for arguments it does not handle: the node becomes an extern fallback.
struct UseFallback : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class GraphLowering {
 public:
  // Throws LoweringUnsupported when the graph's device has no code generator.
  explicit GraphLowering(const ir::GraphModule& module);
  LoopProgram run();
  // The code generator of the graph's device: what dtypes loops may compute in.
  const KernelBackend& backend() const { return *backend_; }

  // For the lowerings: the node being lowered and its arguments.
  const ir::Node& node() const { return *node_; }
  const ir::Argument& arg(size_t i) const;
  // An argument by position, or by keyword, or nullptr.
  const ir::Argument* arg_or_kwarg(size_t i, const std::string& name) const;
  TensorBox tensor(const ir::Argument& argument);
  bool is_tensor(const ir::Argument& argument) const;
  double number(const ir::Argument& argument) const;
  // An int argument that must be a constant (dims); symbolic ones use size().
  int64_t integer(const ir::Argument& argument) const;
  std::vector<int64_t> integers(const ir::Argument& argument) const;
  // A SymInt argument: an int, a size expression, or a node holding one (a Sym placeholder).
  SizeExpr size(const ir::Argument& argument) const;
  // The node's value as its metadata gives it.
  const ir::TensorMeta& out_meta() const;
  std::vector<SizeExpr> out_sizes() const;

  TensorBox pointwise(std::vector<SizeExpr> sizes, ir::Dtype dtype, Loader loader) const;
  // Reduces `input` over `dims` (sorted, non-negative) with `combine`, in `dtype`.
  TensorBox reduce(const TensorBox& input, std::vector<int64_t> dims, bool keepdim, ReductionType combine, ir::Dtype dtype);
  TensorBox from_buffer(int buffer, BufferLayout view) const;
  // A buffer holding the value (the box's own when it already is one).
  int realize(const TensorBox& box);
  // The value read back from a buffer that holds it.
  TensorBox realized(const TensorBox& box);
  // The value as a strided view of a buffer, realizing it contiguously when it is none.
  std::pair<int, BufferLayout> strided(const TensorBox& box);
  // The value in a buffer laid out with exactly these strides and no offset, for a kernel that
  // reads it by memory position (as_strided): dense layouts (some order of its dimensions), which
  // are realized as that order's row-major.
  std::pair<int, BufferLayout> strided_exactly(const TensorBox& box, const std::vector<SizeExpr>& strides);

  // Broadcasts a value to `sizes` (numpy rules, aligned right).
  static TensorBox broadcast_to(const TensorBox& box, const std::vector<SizeExpr>& sizes);

 private:
  void lower_nodes();
  void lower_node(const ir::Node& node);
  void lower_fallback(const ir::Node& node);
  void lower_conditional(const ir::Node& node);
  // The extern buffers of a node's tensor outputs, as its values.
  void add_extern_outputs(const ir::Node& node, ExternNode& e);
  ExternArgument extern_argument(const ir::Argument& argument);
  BufferLayout meta_layout(const ir::TensorMeta& meta) const;
  // Records where the wrapper reads the size symbols an input's value names.
  void add_size_symbol_sources(const ir::Node& placeholder, int input);
  void check_size_symbols_have_sources() const;
  void maybe_realize_for_reuse(const ir::Node& node, TensorBox& box);
  // Where a graph output's value is read from: its buffer and view.
  ProgramOutput output_layout(const ir::Argument& item);
  // The copies of new values into mutated graph inputs (AOT's write-backs), done after every
  // value the graph computes: a value computed later would otherwise read an input already
  // overwritten (a lazy value recomputed from it).
  void write_back_inputs();

  const ir::GraphModule& module_;
  LoopProgram program_;
  const KernelBackend* backend_ = nullptr;
  const ir::Node* node_ = nullptr;
  std::map<const ir::Node*, std::vector<TensorBox>> values_;  // one box, or a tuple's elements
  std::vector<const ir::Node*> write_backs_;                   // copy_(input, value), in graph order
};

// One aten op's lowering: the values of the node (one for a tensor, several for a tuple).
using LoweringFn = std::vector<TensorBox> (*)(GraphLowering& lowering);
// How lowerings.def names a torch.ops.* node: its target without "torch.ops." ("aten.add.Tensor",
// "prims.fma.default"); "" for other nodes.
std::string lowering_key(const ir::Node& node);
// The lowering of `torch.ops.aten.<op>.<overload>` (or prims.*), or nullptr.
LoweringFn find_lowering(const ir::Node& node);
// Whether the extern fallback of the node's op reads its first argument by memory position
// (KILN_FALLBACK_BY_MEMORY_POSITION in lowerings.def).
bool fallback_reads_memory_positions(const ir::Node& node);

}  // namespace kiln::inductor
