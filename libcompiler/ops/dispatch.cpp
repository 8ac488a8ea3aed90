#include "libcompiler/ops/dispatch.h"

#include <utility>

#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/autograd/table_node.h"
#include "libcompiler/ops/autograd/view_history.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::vector<Tensor> allocate_outputs(std::vector<TensorMeta> metas) {
  std::vector<Tensor> outputs;
  outputs.reserve(metas.size());
  for (TensorMeta& meta : metas) {
    if (!meta.defined) {
      outputs.emplace_back();
      continue;
    }
    outputs.push_back(Tensor::empty_with_strides(std::move(meta.sizes), std::move(meta.strides), meta.dtype, meta.device));
  }
  return outputs;
}

namespace {

thread_local CallRecorder* active_recorder = nullptr;
thread_local bool fake_factories = false;

// Reports a call to the recorder, with the recorder switched off while the op runs so that the
// table ops its kernel calls are not reported as well.
class RecordedCall {
 public:
  explicit RecordedCall(const OpInfo& op)
      : recorder_(op.grad == GradKind::Composite ? nullptr : active_recorder) {
    if (recorder_) active_recorder = nullptr;
  }
  ~RecordedCall() {
    if (recorder_) active_recorder = recorder_;
  }
  RecordedCall(const RecordedCall&) = delete;
  RecordedCall& operator=(const RecordedCall&) = delete;
  bool decomposes(const OpInfo& op) const { return recorder_ && op.decomposition && recorder_->decomposes(op); }
  // The decomposition's table ops run without autograd (the op records its own) and are reported
  // in place of the op; empty when the decomposition does not apply (nothing ran then).
  std::vector<Tensor> run_decomposition(const OpInfo& op, const Arguments& args) {
    active_recorder = recorder_;
    std::vector<Tensor> outputs;
    {
      NoGradGuard no_grad;
      outputs = op.decomposition(args);
    }
    if (!outputs.empty()) recorder_ = nullptr;
    else active_recorder = nullptr;
    return outputs;
  }
  bool recording() const { return recorder_ != nullptr; }
  // A copy of self made through the op table, so that the recorder sees it.
  Tensor traced_clone(const Tensor& self) {
    active_recorder = recorder_;
    Tensor copy;
    {
      NoGradGuard no_grad;
      copy = call(op_info(OpId::clone), Arguments(op_info(OpId::clone).schema, {self, IValue()})).at(0);
    }
    active_recorder = nullptr;
    return copy;
  }
  void report(const OpInfo& op, const Arguments& args, const std::vector<Tensor>& outputs) {
    if (!recorder_) return;
    active_recorder = recorder_;
    recorder_->record(op, args, outputs);
    recorder_ = nullptr;
  }

 private:
  CallRecorder* recorder_;
};

bool has_meta_tensor(const std::vector<Tensor>& slots) {
  for (const Tensor& t : slots)
    if (t.defined() && t.device().type == tensor::DeviceType::Meta) return true;
  return false;
}

// An op that makes a tensor from no tensor (ones, arange, randn), with a meta function.
bool is_factory(const OpInfo& op, const std::vector<Tensor>& slots) {
  if (!op.meta || op.schema.is_inplace()) return false;
  for (const Tensor& t : slots)
    if (t.defined()) return false;
  return true;
}

// A recorder traces on fake (meta) tensors, as make_fx under FakeTensorMode: what a factory makes
// is a fake too, so that it meets the fakes it is used with (a real CPU tensor beside them failed
// with "found at least two devices, meta and cpu").
std::vector<Tensor> fake_outputs(const OpInfo& op, const Arguments& args) {
  std::vector<TensorMeta> metas = op.meta(args);
  for (TensorMeta& meta : metas) meta.device = tensor::Device{tensor::DeviceType::Meta};
  return allocate_outputs(std::move(metas));
}

// Whether ops called with these tensors record autograd.
bool records_autograd(const std::vector<Tensor>& slots) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : slots)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

std::vector<Tensor> run(const OpInfo& op, const Arguments& args, const std::vector<Tensor>& slots) {
  // A kernel of its own would read the data meta tensors do not have; composite kernels only
  // call other table ops, which do have metas, and view kernels only make new geometry.
  if (!op.meta && op.grad != GradKind::Composite && !op.is_view() && has_meta_tensor(slots))
    throw tensor::TorchError(tensor::PyErrorKind::RuntimeError,
                             "aten::" + op.schema.name + ": attempted to run this operator with Meta tensors, but there was no "
                                                         "fake impl or Meta kernel registered.");
  if (op.meta && has_meta_tensor(slots)) {
    std::vector<TensorMeta> metas = op.meta(args);
    if (op.schema.is_inplace()) return {args.tensor(0)};
    return allocate_outputs(std::move(metas));
  }
  const tensor::DeviceType device = dispatch_device(op, args, slots);
  if (const KernelFunction kernel = kernel_outside_autograd(op, device); kernel && !active_recorder && !records_autograd(slots))
    return kernel(args);
  if (const KernelFunction kernel = kernel_for(op, device)) return kernel(args);
  if (const FallbackFunction fallback = fallback_for(device)) return fallback(op, args);
  throw_no_kernel(op, device);
}

}  // namespace

FakeFactoryScope::FakeFactoryScope() : previous_(std::exchange(fake_factories, true)) {}
FakeFactoryScope::~FakeFactoryScope() { fake_factories = previous_; }

CallRecorder* set_call_recorder(CallRecorder* recorder) { return std::exchange(active_recorder, recorder); }

bool is_recording_calls() { return active_recorder != nullptr; }

std::vector<Tensor> call(const OpInfo& op, const Arguments& args) {
  if (autocast_may_cast())
    if (std::optional<Arguments> cast = autocast_arguments(op, args)) {
      AutocastExcluded inner_calls_are_not_cast;
      return call(op, *cast);
    }
  RecordedCall recorded(op);
  const std::vector<Tensor> slots = input_slots(args);
  const bool inplace = op.schema.is_inplace();
  bool requires_grad = false;
  if ((op.grad == GradKind::Formula || op.grad == GradKind::NotImplemented) && GradMode::is_enabled())
    for (const Tensor& t : slots) requires_grad = requires_grad || (t.defined() && t.requires_grad());

  // squeeze_ changes self's geometry rather than its data: nothing of the base is written.
  const bool writes_through_view = inplace && op.id != OpId::squeeze__dim && is_differentiable_view(args.tensor(0));
  Tensor original_self;
  if (inplace && requires_grad) {
    const Tensor& self = args.tensor(0);
    if (self.requires_grad() && is_leaf(self))
      tensor::throw_runtime_error("a leaf Variable that requires grad is being used in an in-place operation.");
    if (writes_through_view && self.base().requires_grad() && is_leaf(self.base()))
      tensor::throw_runtime_error("a view of a leaf Variable that requires grad is being used in an in-place operation.");
    // A tracer sees the copy (PyTorch saves self.clone()).
    for (const std::string& name : op.saved)
      if (name == "self") original_self = recorded.recording() ? recorded.traced_clone(self) : tensor::clone_contiguous(self);
  }

  std::shared_ptr<TableNode> node;
  if (requires_grad) {
    // Edges first: an in-place op's self still points at its old history here.
    node = std::make_shared<TableNode>(op, args);
    std::vector<Edge> edges;
    for (const Tensor& t : slots) edges.push_back(t.defined() ? gradient_edge(t) : Edge{});
    node->set_next_edges(edges);
    node->save_inputs(args, original_self, edges);
  }
  std::vector<Tensor> outputs;
  if (recorded.decomposes(op)) outputs = recorded.run_decomposition(op, args);
  if (outputs.empty())
    outputs = (recorded.recording() || fake_factories) && is_factory(op, slots) ? fake_outputs(op, args) : run(op, args, slots);
  recorded.report(op, args, outputs);
  if (inplace) args.tensor(0).bump_version();
  if (op.id == OpId::detach) mark_non_differentiable_view(outputs[0]);
  if (!requires_grad) return outputs;
  if (writes_through_view) {
    node->add_output(outputs[0]);
    node->save_outputs(outputs);
    rebase_view_history(outputs[0], node);
    return outputs;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const uint32_t nr = node->add_output(outputs[i]);
    const bool differentiable = op.differentiable_outputs < 0 || static_cast<int>(i) < op.differentiable_outputs;
    if (differentiable && outputs[i].defined() && tensor::is_floating_point(outputs[i].dtype())) set_history(outputs[i], node, nr);
  }
  node->save_outputs(outputs);
  return outputs;
}

std::vector<Tensor> call(OpId id, std::vector<IValue> args) {
  const OpInfo& op = op_info(id);
  const auto& schema_args = op.schema.arguments;
  if (args.size() > schema_args.size())
    throw std::logic_error(op.qualified_name() + ": too many arguments from C++");
  for (size_t i = args.size(); i < schema_args.size(); ++i) {
    if (!schema_args[i].default_value) throw std::logic_error(op.qualified_name() + ": missing " + schema_args[i].name);
    args.push_back(*schema_args[i].default_value);
  }
  return call(op, Arguments(op.schema, std::move(args)));
}

Tensor call_single(OpId id, std::vector<IValue> args) { return call(id, std::move(args)).at(0); }

}  // namespace kiln::ops
