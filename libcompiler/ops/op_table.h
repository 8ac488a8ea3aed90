#pragma once
// The op table (ops.def) as data: one OpInfo per aten overload with its parsed schema and the
// functions that implement it. Everything that handles ops generically (dispatch, autograd,
// binding, the graph interpreter, decompositions) looks them up here.
#include <string>
#include <string_view>
#include <vector>

#include "libcompiler/ops/arguments.h"
#include "libcompiler/ops/schema.h"
#include "libcompiler/ops/tensor_meta.h"

namespace kiln::ops {

enum class OpId {
#define KILN_OP(Id, Schema, Meta, Kernel, Grad, Node, Backward, Saved, Decomposition, DifferentiableOutputs) Id,
#include "libcompiler/ops/ops.def"
};

enum class GradKind { Formula, Composite, NonDifferentiable, NotImplemented };

class BackwardContext;

using MetaFunction = std::vector<TensorMeta> (*)(const Arguments&);
using KernelFunction = std::vector<Tensor> (*)(const Arguments&);
// One gradient per differentiable input slot (the op's Tensor and Tensor? arguments in order,
// a Tensor[] argument contributing one slot per element); undefined where none flows.
using BackwardFunction = std::vector<Tensor> (*)(const BackwardContext&, const std::vector<Tensor>& grad_outputs);
using DecompositionFunction = std::vector<Tensor> (*)(const Arguments&);

struct OpInfo {
  OpId id;
  FunctionSchema schema;
  MetaFunction meta;
  KernelFunction cpu_kernel;  // ops.def's Kernel column; other devices' kernels: kernel_registry.h
  GradKind grad;
  std::string node_name;  // "AddBackward0", as grad_fn prints
  BackwardFunction backward;
  std::vector<std::string> saved;  // "self", "result1", ...
  DecompositionFunction decomposition;
  int differentiable_outputs;  // -1: all

  const std::string& name() const { return schema.name; }
  // Its result is a view of its first argument (Tensor(a) returned, not written).
  bool is_view() const {
    return !schema.returns.empty() && !schema.returns[0].type.alias_set.empty() && !schema.returns[0].type.is_write;
  }
  std::string qualified_name() const { return schema.qualified_name(); }
};

const OpInfo& op_info(OpId id);
const std::vector<OpInfo>& all_ops();
// "add.Tensor", "aten::add.Tensor", "add" (the default overload) or "prims::xor_sum"; nullptr when
// unknown.
const OpInfo* find_op(std::string_view qualified_name);
// Every overload of a name, in table order ("add" -> add.Tensor, add.Scalar; "prims::iota").
const std::vector<const OpInfo*>& overloads_of(std::string_view name);

}  // namespace kiln::ops
