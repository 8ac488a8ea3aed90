#include "libcompiler/inductor/wrapper.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>

#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::inductor {

namespace {

using tensor::Tensor;

tensor::DType runtime_dtype(ir::Dtype dtype) {
  auto d = ir::tensorDtype(dtype);
  if (!d) throw std::logic_error("inductor: no runtime dtype for " + std::string(ir::dtypeTorchName(dtype)));
  return *d;
}

tensor::Shape shape(const std::vector<int64_t>& v) { return tensor::Shape(v.begin(), v.end()); }

using ConcreteLayout = BufferLayout::Concrete;

// `base` seen as `view` (its offset relative to base's): always a new view.
Tensor alias_of(const Tensor& base, const ConcreteLayout& view) {
  return Tensor::make_view(base, shape(view.sizes), shape(view.strides), base.storage_offset() + view.offset);
}

// The same, or base itself where the view is all of it as it is.
Tensor view_of(const Tensor& base, const ConcreteLayout& view) {
  if (view.offset == 0 && std::equal(base.sizes().begin(), base.sizes().end(), view.sizes.begin(), view.sizes.end()) &&
      std::equal(base.strides().begin(), base.strides().end(), view.strides.begin(), view.strides.end()))
    return base;
  return alias_of(base, view);
}

// A tensor laid out as `layout` (strides included) with fresh storage; a plain tensor, not a
// view, when the layout is contiguous (what users get back must not have a _base).
Tensor allocate(const ConcreteLayout& layout) {
  if (layout.offset == 0 && tensor::is_contiguous_layout(shape(layout.sizes), shape(layout.strides)))
    return Tensor::empty(shape(layout.sizes), runtime_dtype(layout.dtype), layout.device);
  Tensor storage =
      Tensor::empty(tensor::Shape{std::max<int64_t>(layout.storage_size(), 1)}, runtime_dtype(layout.dtype), layout.device);
  return Tensor::make_view(storage, shape(layout.sizes), shape(layout.strides), layout.offset);
}

ops::IValue extern_value(const ExternArgument& arg, const std::vector<Tensor>& buffers, const SizeSymbolValues& symbols) {
  if (arg.buffer) return ops::IValue(view_of(buffers[*arg.buffer], arg.view.evaluate(symbols)));
  if (arg.is_list) {
    ops::IValue::TensorList list;
    for (const ExternArgument& item : arg.list) list.push_back(view_of(buffers[*item.buffer], item.view.evaluate(symbols)));
    return ops::IValue(list);
  }
  return arg.value;
}

// Whether kernels may read `t` as it is: on the device, in the layout they index, at a pointer as
// aligned as the backend's kernels assume.
bool kernel_ready(const Tensor& t, const ConcreteLayout& layout, size_t alignment) {
  // A CPU scalar input of a GPU program is read through a copy on the GPU.
  if (t.device().type != layout.device.type) return false;
  if (reinterpret_cast<uintptr_t>(t.data_ptr()) % alignment != 0) return false;
  if (static_cast<size_t>(t.dim()) != layout.sizes.size()) return false;
  for (size_t i = 0; i < layout.sizes.size(); ++i) {
    if (t.sizes()[i] != layout.sizes[i]) return false;
    if (layout.sizes[i] > 1 && t.strides()[i] != layout.strides[i]) return false;
  }
  return true;
}

int64_t size_value(const SizeExpr& e, const SizeSymbolValues& symbols) {
  if (auto c = e.constant()) return *c;
  if (auto v = e.evaluate(symbols)) return *v;
  throw std::logic_error("inductor: no value for a size symbol of " + e.str());
}

}  // namespace

// The grain is about Inductor's grain size in elements of work.
KernelLaunch kernel_launch(const FusedKernel& kernel, const SizeSymbolValues& symbols) {
  KernelLaunch launch;
  launch.outer = size_value(kernel.outer_size, symbols);
  int64_t work = 0;
  for (const KernelMember& m : kernel.members) work += std::max<int64_t>(size_value(m.inner_size, symbols), 1);
  launch.grain = std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(work, 1));
  for (const std::string& symbol : kernel.size_symbols) launch.sizes.push_back(symbols.at(symbol));
  return launch;
}

CompiledProgram::CompiledProgram(const KernelBackend& backend, LoopProgram program, Schedule schedule,
                                 std::vector<std::vector<KernelHandle>> kernels,
                                 std::map<std::string, std::shared_ptr<const CompiledProgram>> subgraphs)
    : backend_(&backend),
      program_(std::move(program)),
      schedule_(std::move(schedule)),
      kernels_(std::move(kernels)),
      subgraphs_(std::move(subgraphs)),
      chosen_(kernels_.size()),
      written_(program_.buffers.size(), false) {
  for (const auto& node : program_.nodes) {
    if (const auto* computed = std::get_if<ComputedNode>(&node)) written_[computed->output] = true;
    const auto* external = std::get_if<ExternNode>(&node);
    if (!external) continue;
    for (int out : external->outputs)
      if (out >= 0) written_[out] = true;
    // What it writes in place (the copy_ of a mutated input's new value).
    for (size_t i = 0; external->op && i < external->args.size() && i < external->op->schema.arguments.size(); ++i)
      if (external->op->schema.arguments[i].type.is_write && external->args[i].buffer) written_[*external->args[i].buffer] = true;
  }
  plan_reuse();
  if (program_.size_symbols.empty()) static_sizes_ = evaluate_sizes({});
}

CompiledProgram::CallSizes CompiledProgram::evaluate_sizes(const SizeSymbolValues& symbols) const {
  CallSizes sizes;
  for (const Buffer& b : program_.buffers) sizes.buffers.push_back(b.layout.evaluate(symbols));
  for (const ScheduledStep& step : schedule_.steps)
    if (const auto* k = std::get_if<FusedKernel>(&step)) sizes.kernels.push_back(kernel_launch(*k, symbols));
  return sizes;
}

SizeSymbolValues CompiledProgram::size_symbol_values(const std::vector<ops::IValue>& inputs) const {
  SizeSymbolValues values;
  for (const SizeSymbolSource& source : program_.size_symbols) {
    const ops::IValue& input = inputs.at(static_cast<size_t>(source.input));
    switch (source.kind) {
      case SizeSymbolSource::Kind::IntInput: values[source.symbol] = input.to_int(); break;
      case SizeSymbolSource::Kind::Size: values[source.symbol] = input.to_tensor().sizes()[source.dim]; break;
      case SizeSymbolSource::Kind::Stride: values[source.symbol] = input.to_tensor().strides()[source.dim]; break;
    }
  }
  return values;
}

std::vector<size_t> CompiledProgram::chosen() const {
  std::lock_guard lock(tuning_);
  std::vector<size_t> out;
  for (const auto& c : chosen_) out.push_back(c.value_or(0));
  return out;
}

KernelHandle CompiledProgram::kernel_for(size_t index, const FusedKernel& kernel, const KernelLaunch& launch,
                                         std::vector<void*>& pointers) const {
  const std::vector<KernelHandle>& candidates = kernels_[index];
  if (candidates.size() == 1) return candidates[0];
  std::lock_guard lock(tuning_);
  if (!chosen_[index]) {
    double best = std::numeric_limits<double>::infinity();
    for (size_t c = 0; c < candidates.size(); ++c) {
      double fastest = std::numeric_limits<double>::infinity();
      for (int repeat = 0; repeat < 3; ++repeat) {
        const auto start = std::chrono::steady_clock::now();
        backend_->launch(candidates[c], kernel, launch, pointers);
        fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      if (fastest < best) {
        best = fastest;
        chosen_[index] = c;
      }
    }
  }
  return candidates[*chosen_[index]];
}

void CompiledProgram::plan_reuse() {
  const size_t n = program_.buffers.size();
  reuse_.assign(n, -1);
  std::vector<int> last_use(n, -1), first_write(n, -1);
  std::vector<bool> pinned(n, false);
  for (const ProgramOutput& out : program_.outputs)
    if (out.buffer >= 0) pinned[out.buffer] = true;
  for (size_t s = 0; s < schedule_.steps.size(); ++s) {
    std::vector<int> touched;
    if (const auto* k = std::get_if<FusedKernel>(&schedule_.steps[s])) {
      touched = k->buffers;
      for (const KernelMember& m : k->members) {
        const int out = std::get<ComputedNode>(program_.nodes[m.node]).output;
        if (first_write[out] < 0) first_write[out] = static_cast<int>(s);
      }
    } else {
      // Extern kernels may return views of their arguments: those storages stay theirs.
      const LoopNode& node = program_.nodes[std::get<ExternStep>(schedule_.steps[s]).node];
      touched = node_reads(node);
      for (int b : touched) pinned[b] = true;
      for (int b : node_writes(node)) touched.push_back(b);
    }
    for (int b : touched) last_use[b] = static_cast<int>(s);
  }
  // Free storages per byte size (a size expression's text), offered to later computed buffers of
  // that size.
  auto bytes_of = [&](const BufferLayout& layout) {
    return (layout.storage_size() * size_constant(static_cast<int64_t>(tensor::itemsize(runtime_dtype(layout.dtype))))).str();
  };
  std::multimap<std::string, int> free_storage;
  std::vector<std::vector<int>> released(schedule_.steps.size());
  for (size_t b = 0; b < n; ++b)
    if (program_.buffers[b].kind == Buffer::Kind::Computed && !pinned[b] && last_use[b] >= 0) released[last_use[b]].push_back(static_cast<int>(b));
  std::vector<int> storage_of(n);
  for (size_t b = 0; b < n; ++b) storage_of[b] = static_cast<int>(b);
  for (size_t s = 0; s < schedule_.steps.size(); ++s) {
    if (const auto* k = std::get_if<FusedKernel>(&schedule_.steps[s])) {
      for (const KernelMember& m : k->members) {
        const int out = std::get<ComputedNode>(program_.nodes[m.node]).output;
        const BufferLayout& layout = program_.buffers[out].layout;
        auto it = free_storage.find(bytes_of(layout));
        if (it == free_storage.end() || pinned[out]) continue;
        reuse_[out] = it->second;
        storage_of[out] = storage_of[it->second];
        free_storage.erase(it);
      }
    }
    for (int b : released[s]) {
      free_storage.emplace(bytes_of(program_.buffers[b].layout), b);
    }
  }
}

std::vector<ops::IValue> CompiledProgram::run(const std::vector<ops::IValue>& inputs) const {
  if (inputs.size() != program_.inputs.size())
    throw std::invalid_argument("inductor: the compiled graph takes " + std::to_string(program_.inputs.size()) + " inputs, got " +
                                std::to_string(inputs.size()));
  std::vector<Tensor> buffers(program_.buffers.size());
  const SizeSymbolValues symbols = size_symbol_values(inputs);
  std::optional<CallSizes> per_call;
  if (!static_sizes_) per_call = evaluate_sizes(symbols);
  const CallSizes& sizes = static_sizes_ ? *static_sizes_ : *per_call;
  // The kernels index an input by the layout it was compiled for. One laid out otherwise (a saved
  // activation whose layout the forward chose, a caller's transposed tensor, a CPU scalar of a GPU
  // program, a view at an unaligned offset) is read through a copy in that layout, and an input
  // the program writes gets the copy's values back at the end.
  const size_t alignment = backend_->pointer_alignment();
  std::vector<std::pair<int, Tensor>> relaid;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const int b = program_.inputs[i];
    if (b < 0) continue;
    const Tensor& given = inputs[i].to_tensor();
    if (kernel_ready(given, sizes.buffers[b], alignment)) {
      buffers[b] = given;
      continue;
    }
    buffers[b] = allocate(sizes.buffers[b]);
    tensor::copy_(buffers[b], given);
    relaid.emplace_back(b, given);
  }
  size_t next_kernel = 0;
  for (const ScheduledStep& step : schedule_.steps) {
    if (const auto* k = std::get_if<FusedKernel>(&step)) {
      for (const KernelMember& m : k->members) {
        const int out = std::get<ComputedNode>(program_.nodes[m.node]).output;
        const ConcreteLayout& layout = sizes.buffers[out];
        buffers[out] = reuse_[out] >= 0 ? Tensor::make_view(buffers[reuse_[out]], shape(layout.sizes), shape(layout.strides), buffers[reuse_[out]].storage_offset())
                                         : allocate(layout);
      }
      std::vector<void*> pointers;
      for (int b : k->buffers) pointers.push_back(buffers[b].data_ptr());
      const KernelLaunch& launch = sizes.kernels[next_kernel];
      backend_->launch(kernel_for(next_kernel++, *k, launch, pointers), *k, launch, pointers);
      continue;
    }
    const ExternNode& e = std::get<ExternNode>(program_.nodes[std::get<ExternStep>(step).node]);
    std::vector<ops::IValue> positional;
    for (const ExternArgument& a : e.args) positional.push_back(extern_value(a, buffers, symbols));
    std::vector<Tensor> results;
    if (e.conditional) {
      // The predicate picks the subgraph that runs on the operands.
      const bool taken = tensor::item(positional.at(0).to_tensor()).to<bool>();
      const std::vector<ops::IValue> operands(positional.begin() + 1, positional.end());
      for (const ops::IValue& v : subgraphs_.at(taken ? e.conditional->true_graph : e.conditional->false_graph)->run(operands))
        results.push_back(v.to_tensor());
    } else {
      results = ops::call(*e.op, ops::bind_arguments(e.op->schema, positional, e.kwargs, ops::NoneForTensor::Undefined));
    }
    for (size_t i = 0; i < e.outputs.size() && i < results.size(); ++i) {
      const int b = e.outputs[i];
      // An output the kernel was not asked for (a *_backward op's output_mask) stays unwritten.
      if (b < 0 || !results[i].defined()) continue;
      const ConcreteLayout& layout = sizes.buffers[b];
      if (kernel_ready(results[i], layout, alignment)) {
        buffers[b] = results[i];
      } else {
        buffers[b] = allocate(layout);
        tensor::copy_(buffers[b], results[i]);
      }
    }
  }
  for (auto& [b, given] : relaid)
    if (written_[b]) tensor::copy_(given, buffers[b]);
  std::vector<ops::IValue> outputs;
  for (const ProgramOutput& out : program_.outputs) {
    if (out.size) outputs.emplace_back(size_value(*out.size, symbols));
    else if (out.buffer < 0) outputs.emplace_back();
    // An output seen through an input is a tensor of its own (a view) even with the input's very
    // geometry: given the caller's tensor itself, the autograd function would take it over (a
    // leaf became a non-leaf, its gradient lost).
    else if (program_.buffers[out.buffer].kind == Buffer::Kind::Input)
      outputs.emplace_back(alias_of(buffers[out.buffer], out.view.evaluate(symbols)));
    else outputs.emplace_back(view_of(buffers[out.buffer], out.view.evaluate(symbols)));
  }
  return outputs;
}

}  // namespace kiln::inductor
