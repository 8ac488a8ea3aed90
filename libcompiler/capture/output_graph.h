#pragma once
// The graph one capture builds (Dynamo's OutputGraph): placeholders made on first use of an
// input tensor, one node per Python-level torch call (call_function torch.abs / operator.add /
// torch.nn.functional.layer_norm, call_method sum), nodes renamed after the variable a result is
// first stored to, and what the eager backend needs to run each node again: the Python callable
// capture intercepted and the arguments it received.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/capture/guards.h"
#include "libcompiler/capture/shape_env.h"
#include "libcompiler/capture/source.h"
#include "libcompiler/ir/graph_module.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::capture {

// The proxy of a fake tensor: the graph node whose value it stands for.
struct CaptureProxy : python::TensorProxy {
  CaptureProxy(tensor::Device device, ir::Node* node) : TensorProxy(std::move(device)), node(node) {}
  ir::Node* node;
};

// How a placeholder's value is fetched from a frame's inputs.
struct GraphInput {
  enum class Kind { Value, FloatAsTensor, SizeOf };
  Kind kind = Kind::Value;
  SourceRef source;
  int64_t dim = 0;  // SizeOf: which size of the tensor at source
};
// The placeholder's value for a run of the frame (and the example the backend compiles for).
python::Ref fetch_graph_input(python::Interpreter& interp, const GraphInput& input, const FrameInputs& inputs);

// How a node is printed: its opcode and target, and its arguments in the printed order (a
// reflected operator prints its operands swapped back).
struct NodeTarget {
  ir::OpCode op = ir::OpCode::CallFunction;
  std::string target;  // "torch.abs", "operator.add", "sum"
  // Whether the node names the user code it came from (Dynamo's grad-mode switches do not).
  bool with_source = true;
};

class OutputGraph;

// A symbolic Python number: a float input that automatic dynamic made symbolic (it flows into
// torch calls as the `item` node of a float64 placeholder made on its first use), or the result
// of .item() with capture_scalar_outputs (its node given). Used otherwise, it is its hint.
class SymbolicScalarObject : public python::NativeObject {
 public:
  SymbolicScalarObject(SourceRef source, double hint);
  SymbolicScalarObject(ir::Node* node, python::Ref hint);
  const python::Ref& hint() const { return hint_; }
  // Where a float input's value is read from (null for an .item() value).
  const SourceRef& source() const { return source_; }
  ir::Node* node(OutputGraph& graph);

 private:
  SourceRef source_;
  python::Ref hint_;
  ir::Node* node_ = nullptr;
};

class OutputGraph {
 public:
  // Where user code is now: the "File: ..." summary of a node made now, and the "code  # file:line
  // in fn" comment of a guard made now.
  struct Sites {
    std::function<std::optional<std::string>()> node;
    std::function<std::string()> guard;
  };
  OutputGraph(python::Interpreter& interp, FrameInputs inputs, GuardSet& guards, ShapeEnv& shapes, Sites sites);
  // The graph of a branch of torch.cond (class `class_name`): its inputs are made with
  // subgraph_input; any other tensor is refused.
  OutputGraph(python::Interpreter& interp, GuardSet& guards, ShapeEnv& shapes, Sites sites, std::string class_name);
  // A placeholder of a branch graph standing for an operand of the parent graph.
  python::Ref subgraph_input(const python::Ref& outer_fake);
  OutputGraph(const OutputGraph&) = delete;
  OutputGraph& operator=(const OutputGraph&) = delete;

  ir::GraphModule& module() { return *module_; }
  GuardSet& guards() { return guards_; }
  std::unique_ptr<ir::GraphModule> take_module() { return std::move(module_); }
  const std::vector<GraphInput>& inputs() const { return inputs_; }
  const FrameInputs& frame_inputs() const { return frame_inputs_; }
  // The changes the capture records (sources are searched through what changed objects held).
  void watch_changes(const SideEffects* changed) { frame_inputs_.changed = changed; }

  // The fake of a tensor: itself when it is one, else the placeholder made for the real tensor
  // (named after its source, with a TENSOR_MATCH guard). GraphBreak when the tensor cannot be
  // reached from the frame's inputs.
  python::Ref fake_of(const python::Ref& tensor);
  // A frame's tensor read without becoming a graph input (only to call .item() on it, before the
  // graph breaks there): described as Dynamo describes every tensor it wraps (on_input_tensor).
  void describe_read(const python::Ref& tensor);
  static bool is_fake(const python::Ref& value);
  static ir::Node* node_of(const python::Ref& fake);
  // The placeholders of a module's direct parameters, in order (Dynamo wraps a module's own
  // parameters when it is called, before its forward reads the input), and the guards of its
  // constant attributes.
  void realize_parameters(const python::Ref& module);
  // A .item() of a fake recorded as a node (capture_scalar_outputs): an unbacked symbol.
  python::Ref scalar_item(const python::Ref& fake);
  // A float input that automatic dynamic made symbolic: a placeholder holding it as a 0-dim
  // float64 tensor and an `item` node whose value stands for it.
  ir::Node* symbolic_float(const SourceRef& source, double hint);

  // Records a Python-level call whose result `fake_result` was computed on fakes: a node with
  // `target` and the printed arguments, the result's tensors pointed at it (tuples through
  // getitem nodes). A graph runs again by calling what its targets name (fx/graph_runner.h).
  python::Ref record(const NodeTarget& target, const std::vector<python::Ref>& printed_args,
                     const std::vector<std::pair<std::string, python::Ref>>& printed_kwargs, python::Ref fake_result);
  // The same with the node's arguments given as they are (higher-order ops).
  python::Ref record_node(const NodeTarget& target, std::vector<ir::Argument> args, python::Ref fake_result,
                          const tensor::Device& device);
  // A get_attr node reading a submodule (a torch.cond branch).
  ir::Node* add_submodule(const std::string& name, std::unique_ptr<ir::GraphModule> module);
  // A fresh name for a submodule: "cond_true_0", "cond_true_1", ...
  std::string submodule_name(const std::string& base);
  // The arguments with every tensor replaced by its fake (and symbolic floats by their hints),
  // for running a call on fakes.
  python::CallArgs fake_arguments(const python::CallArgs& args);

  // Called when a real tensor becomes a graph input: it, whether it is an nn.Parameter, and where
  // the frame reads it.
  std::function<void(const tensor::Tensor& real, bool is_parameter, const std::string& source)> on_input_tensor;

  // Called when a symbol is made: its name, its value now, its range and what it stands for.
  std::function<void(const std::string& symbol, const std::string& value, const std::string& range, const std::string& source)>
      on_symbol;

  // Gives every node its symbolic value once the graph is complete (shape_decisions.cpp): a
  // comparison of sizes the symbols cannot decide is decided on the sizes captured and guarded,
  // as PyTorch's ShapeEnv does; a symbol found equal to another is replaced by it. A graph whose
  // values cannot all be computed on symbols is pinned to the sizes captured.
  void settle_symbolic_shapes();

  // Python code read a size of a fake: Kiln does not trace sizes symbolically, so every dynamic
  // size is pinned to its value by a guard (a later size recompiles instead of being misread).
  void pin_dynamic_sizes();
  // Whether pin_dynamic_sizes ran: the graph's code runs at the captured sizes only.
  bool sizes_pinned() const { return sizes_pinned_; }

  // Whether dim `dim` (now `size`) of the tensor at a source gets a symbolic size.
  std::function<bool(const std::string& source_text, int64_t dim, int64_t size)> is_dynamic;

  // A stored variable names the node of its value, once (Dynamo's set_name_hint).
  void name_hint(const std::string& variable, const python::Ref& value);

  // The output node over these values (each a fake); returns the output's node list.
  void set_output(const std::vector<const ir::Node*>& values);
  // Number of call_function / call_method / call_module nodes.
  int64_t op_count() const;

  struct Checkpoint {
    size_t nodes, inputs, guards, fakes, deferred_guards;
  };
  Checkpoint checkpoint() const;
  // Forgets everything made after the checkpoint (a restart leaves a call out of the graph).
  void rollback(const Checkpoint& checkpoint);

 private:
  // EQUALS_MATCH guards on the int, float, bool, str and None attributes of a module of the
  // script's own classes (self.scale read by its forward).
  void guard_constant_attributes(const python::Ref& module);
  ir::Argument argument(const python::Ref& value);
  python::Ref attach(const python::Ref& result, ir::Node* node, const tensor::Device& device);
  ir::Node* add_placeholder(const std::string& name, ir::FakeValue value, GraphInput input);
  ir::TensorMeta placeholder_meta(const SourceRef& source, const tensor::Tensor& real, bool parameter);

  python::Interpreter& interp_;
  FrameInputs frame_inputs_;
  GuardSet& guards_;
  ShapeEnv& shapes_;
  Sites sites_;
  std::unique_ptr<ir::GraphModule> module_;
  bool sizes_pinned_ = false;
  std::vector<GraphInput> inputs_;
  std::vector<ir::Node*> placeholder_nodes_;
  // Real tensor -> its fake, in the order made (a rollback drops the newest).
  std::vector<std::pair<const void*, python::Ref>> fakes_;
  std::unordered_map<const void*, python::Ref> fake_index_;
  std::unordered_map<const ir::Node*, bool> named_;  // nodes a store has named
  // Guards of the shape environment, added after the tensor guards as Dynamo prints them.
  std::vector<Guard> deferred_guards_;
  bool subgraph_ = false;
};

}  // namespace kiln::capture
