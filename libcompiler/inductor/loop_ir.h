#pragma once
// The loop-level IR an aten graph lowers to (Inductor's ir.py): buffers with fixed layouts, and
// nodes that fill them — computed nodes (a pointwise loop, or a reduction over extra ranges, with
// the scalar body of loop_body.h) and extern nodes (an aten op run by its eager kernel: mm/addmm
// on OpenBLAS, and the fallback for ops without a lowering). Printed as ir_pre_fusion.txt.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "libcompiler/inductor/loop_body.h"
#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/ivalue.h"
#include "libcompiler/ops/op_table.h"
#include "libcompiler/tensor/device.h"

namespace kiln::inductor {

// Sizes, strides and offset are size expressions: integers, or polynomials over the program's
// size symbols (dynamic shapes), evaluated per call by the wrapper.
struct BufferLayout {
  tensor::Device device;
  ir::Dtype dtype = ir::Dtype::Float32;
  std::vector<SizeExpr> sizes, strides;
  SizeExpr offset;
  SizeExpr numel() const;
  // Elements of storage the layout reaches (0 for an empty tensor).
  SizeExpr storage_size() const;
  // The layout with every size symbol given its value (throws for a symbol without one).
  struct Concrete;
  Concrete evaluate(const std::map<std::string, int64_t>& symbols) const;
};

// A layout with numbers: what the wrapper allocates and views per call.
struct BufferLayout::Concrete {
  tensor::Device device;
  ir::Dtype dtype = ir::Dtype::Float32;
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
  int64_t storage_size() const;
};

struct Buffer {
  enum class Kind { Input, Computed, Extern };
  std::string name;  // arg0_1 for inputs, buf0, buf1, ... otherwise
  Kind kind = Kind::Computed;
  BufferLayout layout;
  int input = -1;  // Input: the placeholder number
};

enum class ReductionType { Sum, Max, Min, Prod };
std::string reduction_type_name(ReductionType type);

// buffer[contiguous index over `ranges`] = body, for every point of `ranges`; a reduction
// combines body over `reduction_ranges` first. Body variables: 0..ranges-1 are the output
// dims, then one per reduction dim.
struct ComputedNode {
  int output = -1;
  std::vector<SizeExpr> ranges;
  std::vector<SizeExpr> reduction_ranges;
  std::optional<ReductionType> reduction;
  ExprRef body;
  std::string origin;  // the aten node it comes from (its name), for comments and fusion names
  VarRanges var_ranges() const;
};

// An argument of an extern node: a buffer (seen through a view), or a constant value.
struct ExternArgument {
  std::optional<int> buffer;
  BufferLayout view;  // the strides/offset the op sees the buffer through
  ops::IValue value;  // when not a buffer
  std::vector<ExternArgument> list;  // a list of tensors (cat, stack)
  bool is_list = false;
};

// torch.ops.higher_order.cond as Inductor's Conditional: the extern node's first argument is the
// predicate's buffer, the rest are the operands; the wrapper reads the predicate and runs the
// compiled program of one subgraph (each lowered and compiled on its own) on the operands.
struct ConditionalBranches {
  std::string true_graph, false_graph;  // the subgraph modules' names
};

struct ExternNode {
  const ops::OpInfo* op = nullptr;  // null for a conditional
  std::optional<ConditionalBranches> conditional;
  std::string kernel_name;  // "extern_kernels.mm" or "aten.<op>" for a fallback
  std::vector<ExternArgument> args;
  std::vector<ops::KeywordArgument> kwargs;
  std::vector<int> outputs;  // the op's tensor outputs' buffers (-1: an output nobody reads)
  std::string origin;
};

using LoopNode = std::variant<ComputedNode, ExternNode>;

// What the compiled function returns per graph output: a buffer seen through a view (an input's
// buffer when the graph returns an input or a view of it), a size (a forward graph returns the
// size symbols its backward takes), or None (buffer -1 and no size).
struct ProgramOutput {
  int buffer = -1;
  BufferLayout view;
  std::optional<SizeExpr> size;
};

// Where the wrapper reads a size symbol's value at call time: an int input (a SymInt placeholder),
// or a size or stride of a tensor input (PyTorch's generated `s0 = arg0_1.size(0)`).
struct SizeSymbolSource {
  std::string symbol;
  int input = -1;  // the placeholder number
  enum class Kind { IntInput, Size, Stride } kind = Kind::IntInput;
  int dim = 0;
};

struct LoopProgram {
  // Where its buffers live and its kernels run: the device of the graph's inputs.
  tensor::Device device;
  std::vector<Buffer> buffers;
  std::vector<SizeSymbolSource> size_symbols;  // one per symbol the program's sizes mention
  std::vector<LoopNode> nodes;  // in dependence order
  std::vector<int> inputs;      // per placeholder, its buffer (-1: an int input)
  std::vector<std::string> input_names;  // per placeholder, its name
  std::vector<ProgramOutput> outputs;

  // Adds a buffer on the program's device.
  int add_buffer(Buffer buffer);
};

// Buffers a node reads.
std::vector<int> node_reads(const LoopNode& node);
std::vector<int> node_writes(const LoopNode& node);

// ir_pre_fusion.txt: every node with its layout, users, ranges and body.
std::string print_loop_program(const LoopProgram& program);
std::string print_loop_node(const LoopProgram& program, const LoopNode& node);

}  // namespace kiln::inductor
