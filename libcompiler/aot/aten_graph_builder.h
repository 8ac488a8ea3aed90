#pragma once
// The aten-level graph of a program run on fake tensors (make_fx's proxy tracing): installed as
// the thread's call recorder (ops/dispatch.h), it turns every op call it is told of into a
// call_function node `torch.ops.aten.<op>.<overload>` whose arguments name the nodes that made
// the tensors, with the result's metadata as the node's value. Several outputs become getitem
// nodes, as make_fx unpacks them. Ops the backward engine runs take the source of the forward op
// whose grad_fn runs them, as PyTorch's joint graphs attribute backward nodes. With
// decompositions on, ops that have one in the table are recorded as what it calls.
//
// The graph is functional, as AOT's functionalization makes it: an in-place op is recorded as
// its out-of-place variant (add_ as add, copy_ as copy; one without a variant runs as its
// decomposition), whose node is the mutated tensor's value from then on; a mutated input gets a
// copy_ of its final value into it at the end (write_back_input_mutations). A write to a tensor
// that shares memory with others the trace made (a view, or a base with views) is written into
// their base by aten.as_strided_scatter, and each of the others, when next read, is taken anew
// from the base by aten.as_strided (functionalization's view regeneration, by geometry).
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "libcompiler/ir/graph.h"
#include "libcompiler/ops/dispatch.h"

namespace kiln::aot {

using tensor::Tensor;

// Whether `node` reads a tensor's number (Tensor.item(), recorded by add_scalar_read).
bool is_scalar_read(const ir::Node& node);

class AtenGraphBuilder : public ops::CallRecorder {
 public:
  // `device`: the device the fakes stand for (they live on the meta device).
  AtenGraphBuilder(ir::Graph& graph, ir::Device device);
  AtenGraphBuilder(const AtenGraphBuilder&) = delete;
  AtenGraphBuilder& operator=(const AtenGraphBuilder&) = delete;

  // A placeholder for `fake`, placed after the existing placeholders and before every op node.
  // `device`: the device the input is on, when not the builder's (a CPU scalar tensor in a CUDA
  // graph, as the step counts of torch.optim's optimizers are); what an op makes from it is on
  // the device of its other tensors, a CPU result only from CPU tensors.
  ir::Node* add_placeholder(const std::string& name, const Tensor& fake, std::optional<std::string> descriptor,
                            std::optional<ir::Device> device = std::nullopt);
  // A SymInt placeholder (`meta`: its Sym(s77) value) whose value is `size` in this trace: size
  // arguments (SymInt) equal to it are recorded as the placeholder, as a symbolic trace would.
  ir::Node* add_size_placeholder(const std::string& name, int64_t size, const ir::FakeValue& meta,
                                 std::optional<std::string> descriptor);
  // Tensor.item() of `fake`, whose number in this trace is `value`: an aten._local_scalar_dense
  // node with `meta` (its SymFloat); float arguments equal to the value are recorded as the node,
  // as a symbolic trace records the SymFloat (a literal that happens to equal it would be too: the
  // same limit as size placeholders).
  ir::Node* add_scalar_read(const Tensor& fake, double value, const ir::FakeValue& meta);
  // With symbolic size inputs, the nodes' values recomputed over the placeholders' symbolic sizes
  // (ops whose meta functions are not size-generic keep the traced sizes); `tangents`: each
  // tangent placeholder with the output it stands for, whose sizes it takes (contiguous).
  void propagate_symbolic_sizes(const std::vector<std::pair<ir::Node*, const ir::Node*>>& tangents = {});
  void record(const ops::OpInfo& op, const ops::Arguments& args, const std::vector<Tensor>& outputs) override;
  // A call no op table entry describes (a higher-order op such as torch.ops.higher_order.cond)
  // with its arguments as given: its outputs are unpacked by getitem nodes, as record() unpacks
  // ops returning several tensors.
  ir::Node* record_higher_order(ir::BuiltinTarget target, std::vector<ir::Argument> args, const std::vector<Tensor>& outputs);
  // A get_attr node reading the submodule `name` (a higher-order op's subgraph).
  ir::Node* add_submodule_read(const std::string& name);
  bool decomposes(const ops::OpInfo& op) const override;
  // `backend`: the backend compiling, under whose name each decomposition asks the compiler
  // bisector whether to apply (libdiag/bisect/subsystem_switch.h).
  void set_decompose(bool decompose, std::string backend) {
    decompose_ = decompose;
    backend_ = std::move(backend);
  }
  // The node whose value `t` is; nullptr when the trace did not make it.
  ir::Node* node_of(const Tensor& t);
  // The "File: ..." summary of the nodes recorded from now on (nullopt: none), and of the
  // backward of the autograd nodes created from now on.
  void set_source(std::optional<std::string> summary);
  // Whether an op took a size that several size symbols have as their value (recorded as the
  // number: right at this trace's sizes only).
  bool took_ambiguous_size() const { return ambiguous_size_; }
  // The inputs whose value the recorded ops changed (by placeholder position) and their values.
  std::vector<std::pair<size_t, ir::Node*>> mutated_inputs() const;
  // copy_(input, value) for each input whose value the recorded ops changed, in input order;
  // `with_source`: under the source of the value's node (inference graphs do; joint graphs give
  // these copies none).
  void write_back_input_mutations(bool with_source);
  // The output node over `values` (nullptr items print as None), a tuple or, for the pytree
  // return of joint graphs, a list. `descriptors`: what each value is, as the expanded return
  // comments it ("PlainAOTOutput(idx=0)").
  void set_output(const std::vector<ir::Node*>& values, bool as_list, std::vector<std::optional<std::string>> descriptors);

  ir::TensorMeta meta_of(const Tensor& fake) const;

 private:
  // The getitem nodes of a call returning `outputs` as a tuple, each bound to its tensor.
  void unpack_outputs(ir::Node* call, const std::vector<Tensor>& outputs, const std::optional<std::string>& source);
  ir::Argument argument(const ops::IValue& value, const ops::OpInfo& op);
  ir::Argument tensor_argument(const Tensor& t, const ops::OpInfo& op);
  // After `called` (in place) wrote `value` into `self` (whose value was `before`): the write
  // reaches the base of self's storage, and the other tensors over it go stale.
  void write_through_views(const ops::OpInfo& called, const Tensor& self, ir::Node* before, ir::Node* value);
  // The source of the node recorded now: the set one, or in a backward, that of the forward op
  // whose grad_fn runs.
  std::optional<std::string> current_source() const;
  // The other traced tensors over self's storage (sharing its version counter), once each.
  std::vector<Tensor> tensors_sharing_memory_with(const Tensor& self) const;
  // A stale view's value taken anew from its base's.
  ir::Node* regenerated_view(const Tensor& view);
  // A float argument: the scalar read it equals, or the number.
  ir::Argument float_argument(double value) const;
  void bind(const Tensor& t, ir::Node* node);
  ir::Node* first_op_node() const;

  ir::Graph& graph_;
  ir::Device device_;
  // The fakes on another device than device_ (add_placeholder's `device`, and what ops made of
  // them); empty in a graph on one device.
  std::unordered_map<const tensor::TensorImpl*, ir::Device> devices_;
  // Records the device of an op's outputs, from its tensor arguments'.
  void place_outputs(const ops::Arguments& args, const std::vector<Tensor>& outputs);
  std::unordered_map<const tensor::TensorImpl*, ir::Node*> nodes_;
  // Views whose base was written after their node was made.
  std::unordered_set<const tensor::TensorImpl*> stale_views_;
  // The placeholders and the tensors they stand for.
  std::vector<std::pair<ir::Node*, Tensor>> inputs_;
  // Size placeholders by their value; null where two share a value (the size is then ambiguous).
  std::unordered_map<int64_t, ir::Node*> size_placeholders_;
  bool ambiguous_size_ = false;
  // Scalar reads by their value; null where two share a value.
  std::unordered_map<double, ir::Node*> scalar_reads_;
  // The traced tensors stay alive so that no later tensor reuses an address in nodes_.
  std::vector<Tensor> traced_;
  std::optional<std::string> source_;
  // (first autograd sequence number, summary) in creation order: whose source a grad_fn has.
  std::vector<std::pair<uint64_t, std::optional<std::string>>> grad_fn_sources_;
  bool decompose_ = false;
  std::string backend_;
};

// Installs a recorder on this thread for a scope.
class ScopedCallRecorder {
 public:
  explicit ScopedCallRecorder(ops::CallRecorder* recorder) : previous_(ops::set_call_recorder(recorder)) {}
  ~ScopedCallRecorder() { ops::set_call_recorder(previous_); }
  ScopedCallRecorder(const ScopedCallRecorder&) = delete;
  ScopedCallRecorder& operator=(const ScopedCallRecorder&) = delete;

 private:
  ops::CallRecorder* previous_;
};

}  // namespace kiln::aot
