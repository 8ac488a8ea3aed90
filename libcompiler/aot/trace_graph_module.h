#pragma once
// make_fx over a graph module: its Python-level calls run (fx/graph_runner.h), eagerly, on fake
// (meta) tensors standing for the example inputs, while AtenGraphBuilder records the aten ops
// they reach. Without gradients that is the inference graph; when an input requires grad, the traced
// forward is differentiated by the eager autograd engine on the fakes with fake tangents, and
// the ops the table's backward formulas call make the backward half of the joint graph.
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/ir/graph_module.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::aot {

struct TraceOptions {
  // Ops with a decomposition in the op table are recorded as its ops.
  bool decompose = false;
  // The backend compiling: the compiler bisector's "decomposition" subsystem goes by its name.
  std::string backend;
  // Mutated inputs are written back by a copy_ at the end of the graph (PyTorch's
  // keep_inference_input_mutations); otherwise their new values lead the graph's outputs and the
  // runtime writes them back.
  bool keep_input_mutations = true;
};

struct TracedGraph {
  std::unique_ptr<ir::GraphModule> module;
  // The first `forward_outputs` outputs are the forward's: the new values of `mutated_inputs`
  // (when not kept in the graph), then the program's; joint graphs then have one gradient per
  // input (None where the input needs none).
  size_t forward_outputs = 0;
  std::vector<size_t> mutated_inputs;
  std::vector<bool> input_requires_grad;
  // Inputs that are nn.Parameters: alive across calls anyway (Dynamo's static inputs), so the
  // min-cut partitioner saves them for free.
  std::vector<bool> input_is_parameter;
  // Which forward outputs got a tangent (they require grad; never the mutated inputs' values).
  std::vector<bool> output_requires_grad;
  // Per forward output: the input it is a view of on the fakes (AOT's alias_of_input), or -1. The
  // runtime decides by this, not by the storage a backend's output happens to share: inductor
  // returns a fresh tensor for an empty view.
  std::vector<int64_t> output_aliased_input;
  // An op took a size that two size symbols had as their value: the graph holds that number, right
  // at these sizes only (size_specialization.h).
  bool ambiguous_sizes = false;
  // Joint graphs: the nodes traced before the backward ran (PyTorch's "is_forward" tag).
  std::unordered_set<std::string> forward_node_names;
};

// Placeholders arg0_1, arg1_1, ...; output a tuple of the program's outputs.
TracedGraph trace_inference(python::Interpreter& interp, const fx::BackendGraph& graph,
                            const std::vector<python::Ref>& example_inputs, const TraceOptions& options);
// Placeholders primals_1.. and tangents_1..; output the list [outputs..., input gradients...],
// printed in the pytree form of PyTorch's joint graphs.
TracedGraph trace_joint(python::Interpreter& interp, const fx::BackendGraph& graph,
                        const std::vector<python::Ref>& example_inputs, const TraceOptions& options);

// A fake: a meta tensor of this geometry (no data) that Python code sees on `device`. AOT traces
// on these.
python::Ref fake_tensor(const tensor::Shape& sizes, const tensor::Shape& strides, tensor::DType dtype, const tensor::Device& device,
                        bool requires_grad);
// The device Python code sees a tensor object on (a fake's is the device it stands for).
tensor::Device device_seen(const python::Ref& tensor);

// Whether any example input requires grad (and grad mode is on): the joint path is needed.
bool needs_autograd(const std::vector<python::Ref>& example_inputs);

}  // namespace kiln::aot
