#include "libcompiler/aot/aten_graph_builder.h"

#include <algorithm>
#include <stdexcept>

#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/ir/symbolic_shape_propagation.h"
#include "libcompiler/ir/table_op.h"
#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/memory_order.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/view_geometry.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::aot {

namespace {

// make_fx leaves out arguments that equal their defaults (PyTorch's parseIValuesToPyArgsKwargs):
// trailing positional ones and keyword-only ones.
bool equals_default(const ops::IValue& value, const ops::SchemaArgument& schema) {
  if (!schema.default_value) return false;
  const ops::IValue& d = *schema.default_value;
  if (value.is_none() || d.is_none()) return value.is_none() && d.is_none();
  if (value.is_number() && d.is_number())
    return value.is_bool() == d.is_bool() && value.is_double() == d.is_double() && value.to_double() == d.to_double();
  if (value.is_string() && d.is_string()) return value.to_string() == d.to_string();
  if (value.is_int_list() && d.is_int_list()) return value.to_int_list() == d.to_int_list();
  if (value.is_bool_list() && d.is_bool_list()) return value.to_bool_list() == d.to_bool_list();
  if (value.is_dtype() && d.is_dtype()) return value.to_dtype() == d.to_dtype();
  return false;
}

// The out-of-place variant of an in-place op (add_.Tensor -> add.Tensor, copy_ -> copy).
const ops::OpInfo* functional_variant(const ops::OpInfo& op) {
  const ops::FunctionSchema& s = op.schema;
  if (!s.name.ends_with("_")) return nullptr;
  const std::string name = s.name.substr(0, s.name.size() - 1) + (s.overload.empty() ? "" : "." + s.overload);
  return ops::find_op(s.ns == "aten" ? name : s.ns + "::" + name);
}

ir::Argument int_list(const tensor::Shape& values) {
  std::vector<ir::Argument> items;
  for (int64_t v : values) items.push_back(ir::Argument::integer(v));
  return ir::Argument::list(std::move(items));
}

// Whether t's elements fill a block of memory once each, in some order of its dimensions: then
// a copy of it keeps its layout (clone's preserve_format), and a view's place in it is the same
// in the copy.
bool is_dense(const Tensor& t) { return t.numel() == 0 || tensor::dense_memory_order(t).has_value(); }

// A view's place in its base's value as the graph holds it, for as_strided(_scatter). A dense
// base keeps its layout through as_strided_scatter's copy, so the view's storage geometry (offset
// relative to the base's) is its place. A base whose elements are not dense (an input x[::2]) is
// copied contiguously: each stride and the offset, written in steps of the base's dims (largest
// stride first), become the same steps of the base's contiguous strides. nullopt when they are not
// whole steps.
struct PlaceInBase {
  tensor::Shape sizes, strides;
  int64_t offset = 0;
};

std::optional<PlaceInBase> place_in_base(const Tensor& base, const Tensor& view) {
  PlaceInBase place{view.sizes(), view.strides(), view.storage_offset() - base.storage_offset()};
  if (is_dense(base)) return place;
  std::vector<size_t> dims;
  for (size_t d = 0; d < base.sizes().size(); ++d) {
    if (base.sizes()[d] <= 1) continue;
    if (base.strides()[d] == 0) return std::nullopt;  // an expanded base: its elements overlap
    dims.push_back(d);
  }
  std::sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return base.strides()[a] > base.strides()[b]; });
  const tensor::Shape contiguous = tensor::row_major_strides(base.sizes());
  // `distance` in storage as steps of the base's dims, re-measured in contiguous strides; a step
  // count bounded by the dim's size for a position (the offset), free for a stride.
  auto remeasured = [&](int64_t distance, bool position) -> std::optional<int64_t> {
    int64_t out = 0;
    for (size_t d : dims) {
      const int64_t steps = distance / base.strides()[d];
      if (position && steps >= base.sizes()[d]) return std::nullopt;
      distance -= steps * base.strides()[d];
      out += steps * contiguous[d];
    }
    if (distance != 0) return std::nullopt;
    return out;
  };
  const std::optional<int64_t> offset = remeasured(place.offset, true);
  if (!offset) return std::nullopt;
  place.offset = *offset;
  for (size_t j = 0; j < place.strides.size(); ++j) {
    if (place.sizes[j] <= 1) continue;
    const std::optional<int64_t> stride = remeasured(place.strides[j], false);
    if (!stride) return std::nullopt;
    place.strides[j] = *stride;
  }
  // Each element's new place must be its old one re-measured: checked at the last element, where
  // a carry between the steps of different view dims would show.
  int64_t last = view.storage_offset() - base.storage_offset(), last_placed = place.offset;
  for (size_t j = 0; j < place.sizes.size(); ++j) {
    if (place.sizes[j] == 0) return place;
    last += (place.sizes[j] - 1) * view.strides()[j];
    last_placed += (place.sizes[j] - 1) * place.strides[j];
  }
  if (remeasured(last, true) != last_placed) return std::nullopt;
  return place;
}

[[noreturn]] void refuse_write_to_shared_memory(const ops::OpInfo& called, const std::string& why) {
  throw std::runtime_error("aot: " + called.qualified_name() +
                           " writes to a tensor that shares memory with another one the program traced, and " + why +
                           " (such a write is not functionalized yet)");
}

}  // namespace

AtenGraphBuilder::AtenGraphBuilder(ir::Graph& graph, ir::Device device) : graph_(graph), device_(std::move(device)) {}

void AtenGraphBuilder::set_source(std::optional<std::string> summary) {
  grad_fn_sources_.emplace_back(ops::next_node_sequence_nr(), summary);
  source_ = std::move(summary);
}

ir::TensorMeta AtenGraphBuilder::meta_of(const Tensor& fake) const {
  ir::TensorMeta meta = ir::irTensorMeta(fake);
  if (fake.device().type == tensor::DeviceType::Meta) {
    const auto placed = devices_.find(fake.impl());
    meta.device = placed == devices_.end() ? device_ : placed->second;
  }
  return meta;
}

void AtenGraphBuilder::place_outputs(const ops::Arguments& args, const std::vector<Tensor>& outputs) {
  if (devices_.empty()) return;
  std::optional<ir::Device> device;
  const auto consider = [&](const Tensor& t) {
    if (!t.defined()) return;
    const auto placed = devices_.find(t.impl());
    const ir::Device d = placed == devices_.end() ? device_ : placed->second;
    if (!device || device->type == tensor::DeviceType::CPU) device = d;
  };
  for (const ops::IValue& value : args.values()) {
    if (value.is_tensor()) consider(value.to_tensor());
    else if (value.is_tensor_list())
      for (const Tensor& t : value.to_tensor_list()) consider(t);
  }
  if (!device || *device == device_) return;
  for (const Tensor& output : outputs)
    if (output.defined()) devices_[output.impl()] = *device;
}

// Placeholders go after the existing ones, before the first op node (nullptr: the end).
ir::Node* AtenGraphBuilder::first_op_node() const {
  for (ir::Node* n : graph_.nodes())
    if (n->op() != ir::OpCode::Placeholder) return n;
  return nullptr;
}

void AtenGraphBuilder::bind(const Tensor& t, ir::Node* node) {
  nodes_[t.impl()] = node;
  traced_.push_back(t);
}

ir::Node* AtenGraphBuilder::add_size_placeholder(const std::string& name, int64_t size, const ir::FakeValue& meta,
                                                std::optional<std::string> descriptor) {
  ir::Node* node = graph_.createNode(ir::OpCode::Placeholder, name, {}, {}, name, first_op_node());
  node->meta.value = meta;
  node->meta.descriptor = std::move(descriptor);
  // Two size inputs of one value are ambiguous, unless they stand for the same symbol (a symbol
  // replaced by one it was found equal to).
  auto [it, inserted] = size_placeholders_.try_emplace(size, node);
  if (!inserted && !(it->second && it->second->meta.value == meta)) it->second = nullptr;
  return node;
}

void AtenGraphBuilder::propagate_symbolic_sizes(const std::vector<std::pair<ir::Node*, const ir::Node*>>& tangents) {
  if (size_placeholders_.empty()) return;
  auto propagate = [&] {
    const ir::ShapePropagation propagated = ir::propagateSymbolicShapes(graph_);
    for (const auto& [node, value] : propagated.values) const_cast<ir::Node*>(node)->meta.value = value;
  };
  propagate();
  if (tangents.empty()) return;
  // The backward starts from the tangents: with their symbolic sizes known, propagate again.
  for (const auto& [tangent, output] : tangents) {
    if (!output || !std::holds_alternative<ir::TensorMeta>(output->meta.value)) continue;
    ir::TensorMeta meta = std::get<ir::TensorMeta>(output->meta.value);
    meta.strides = ir::TensorMeta::contiguousStrides(meta.sizes);
    tangent->meta.value = meta;
  }
  propagate();
}

bool AtenGraphBuilder::decomposes(const ops::OpInfo& op) const {
  // Functionalization: an in-place op without an out-of-place variant has no other way out.
  if (op.schema.is_inplace() && !functional_variant(op)) return true;
  // The compiler bisector's "decomposition" subsystem: a disabled decomposition leaves the op
  // whole (the backend then runs, or lowers, the op itself).
  return decompose_ && !bisect::disable_subsystem(backend_, "decomposition", [&] { return ir::overloadName(op); });
}

ir::Node* AtenGraphBuilder::add_placeholder(const std::string& name, const Tensor& fake, std::optional<std::string> descriptor,
                                            std::optional<ir::Device> device) {
  if (device && *device != device_) devices_[fake.impl()] = *device;
  ir::Node* node = graph_.createNode(ir::OpCode::Placeholder, name, {}, {}, name, first_op_node());
  node->meta.value = meta_of(fake);
  node->meta.descriptor = std::move(descriptor);
  bind(fake, node);
  inputs_.emplace_back(node, fake);
  return node;
}

bool is_scalar_read(const ir::Node& node) { return node.is(ir::BuiltinTarget::LocalScalarDense); }

ir::Node* AtenGraphBuilder::add_scalar_read(const Tensor& fake, double value, const ir::FakeValue& meta) {
  ir::Node* node = graph_.callFunction(ir::BuiltinTarget::LocalScalarDense, {ir::Argument::node(node_of(fake))});
  node->meta.value = meta;
  node->meta.sourceSummary = source_;
  auto [it, inserted] = scalar_reads_.try_emplace(value, node);
  if (!inserted) it->second = nullptr;
  return node;
}

ir::Node* AtenGraphBuilder::node_of(const Tensor& t) {
  if (!t.defined()) return nullptr;
  if (auto it = nodes_.find(t.impl()); it != nodes_.end()) {
    if (stale_views_.erase(t.impl())) it->second = regenerated_view(t);
    return it->second;
  }
  // Saved variables come back from the backward formulas as new handles of the same data (their
  // tensor_data()): same version counter and geometry as the traced tensor they saved.
  const tensor::TensorImpl& impl = *t.impl();
  for (const Tensor& traced : traced_) {
    const tensor::TensorImpl& other = *traced.impl();
    if (other.version_counter == impl.version_counter && other.sizes == impl.sizes && other.strides == impl.strides &&
        other.storage_offset == impl.storage_offset && other.dtype == impl.dtype)
      return node_of(traced);
  }
  return nullptr;
}

ir::Argument AtenGraphBuilder::float_argument(double value) const {
  const auto read = scalar_reads_.find(value);
  return read != scalar_reads_.end() && read->second ? ir::Argument::node(read->second) : ir::Argument::floating(value);
}

ir::Argument AtenGraphBuilder::tensor_argument(const Tensor& t, const ops::OpInfo& op) {
  if (!t.defined()) return ir::Argument::none();
  if (ir::Node* node = node_of(t)) return ir::Argument::node(node);
  // A Python number the caller wrapped (x + 1): the graph shows the number, as PyTorch's does.
  if (t.is_wrapped_number()) {
    const tensor::Scalar s = tensor::item(t);
    if (s.is_floating()) return float_argument(s.to<double>());
    if (s.kind() == tensor::Scalar::Kind::Bool) return ir::Argument::boolean(s.to<bool>());
    return ir::Argument::integer(s.to<int64_t>());
  }
  throw std::runtime_error("aot: " + op.qualified_name() +
                           " reads a tensor the traced program neither received nor made (tensor constants are not lifted yet)");
}

ir::Argument AtenGraphBuilder::argument(const ops::IValue& v, const ops::OpInfo& op) {
  if (v.is_none()) return ir::Argument::none();
  if (v.is_bool()) return ir::Argument::boolean(v.to_bool());
  if (v.is_int()) return ir::Argument::integer(v.to_int());
  if (v.is_double()) return float_argument(v.to_double());
  if (v.is_string()) return ir::Argument::string(v.to_string());
  if (v.is_tensor()) return tensor_argument(v.to_tensor(), op);
  if (v.is_dtype()) return ir::Argument::dtype(ir::irDtype(v.to_dtype()));
  // The fakes' meta device stands for the device they were made for.
  if (v.is_device())
    return ir::Argument::device(v.to_device().type == tensor::DeviceType::Meta ? device_ : v.to_device());
  std::vector<ir::Argument> items;
  if (v.is_tensor_list())
    for (const Tensor& t : v.to_tensor_list()) items.push_back(tensor_argument(t, op));
  if (v.is_int_list())
    for (int64_t i : v.to_int_list()) items.push_back(ir::Argument::integer(i));
  if (v.is_bool_list())
    for (bool b : v.to_bool_list()) items.push_back(ir::Argument::boolean(b));
  if (v.is_double_list())
    for (double d : v.to_double_list()) items.push_back(ir::Argument::floating(d));
  return ir::Argument::list(std::move(items));
}

void AtenGraphBuilder::record(const ops::OpInfo& called, const ops::Arguments& args, const std::vector<Tensor>& outputs) {
  if (called.schema.is_inplace() && !functional_variant(called))
    tensor::throw_runtime_error("aot: " + called.qualified_name() + " has no out-of-place variant in kiln's op table, so a "
                                "functional graph cannot record it");
  const ops::OpInfo& op = called.schema.is_inplace() ? *functional_variant(called) : called;
  const auto& schema_args = op.schema.arguments;
  size_t positional_end = 0;
  for (size_t i = 0; i < schema_args.size(); ++i)
    if (!schema_args[i].kwarg_only && !equals_default(args[i], schema_args[i])) positional_end = i + 1;
  // A size equal to a size input's value is that input (SymInt arguments only: ints that are not
  // sizes stay numbers).
  auto size_argument = [&](int64_t size) {
    const auto it = size_placeholders_.find(size);
    if (it == size_placeholders_.end()) return ir::Argument::integer(size);
    // The value of several dynamic sizes: which one this is cannot be told here. The number is
    // right at these sizes only, and the trace says so (AOT then traces where the symbols differ,
    // or guards these sizes: size_specialization.h).
    if (!it->second) {
      ambiguous_size_ = true;
      return ir::Argument::integer(size);
    }
    return ir::Argument::node(it->second);
  };
  // Layouts and memory formats are torch globals (torch.strided), which the table passes by name.
  auto value = [&](size_t i) {
    const auto base = schema_args[i].type.base;
    if ((base == ops::SchemaType::Base::Layout || base == ops::SchemaType::Base::MemoryFormat) && args[i].is_string())
      return ir::Argument::global(args[i].to_string());
    if (base == ops::SchemaType::Base::SymInt && !size_placeholders_.empty()) {
      if (args[i].is_int()) return size_argument(args[i].to_int());
      if (args[i].is_int_list()) {
        std::vector<ir::Argument> items;
        for (int64_t size : args[i].to_int_list()) items.push_back(size_argument(size));
        return ir::Argument::list(std::move(items));
      }
    }
    return argument(args[i], op);
  };
  std::vector<ir::Argument> positional;
  std::vector<ir::KeywordArgument> keywords;
  for (size_t i = 0; i < schema_args.size(); ++i) {
    if (schema_args[i].kwarg_only) {
      if (!equals_default(args[i], schema_args[i])) keywords.push_back({schema_args[i].name, value(i)});
    } else if (i < positional_end) {
      positional.push_back(value(i));
    }
  }
  ir::Node* node = graph_.callFunction(ir::tableOpTarget(op), std::move(positional), std::move(keywords));
  place_outputs(args, outputs);
  const std::optional<std::string> source = current_source();
  node->meta.sourceSummary = source;
  const bool tuple = op.schema.returns.size() != 1 || op.schema.returns[0].type.is_list;
  if (!tuple) {
    node->meta.value = meta_of(outputs.at(0));
    ir::Node* before = &op != &called ? node_of(outputs[0]) : nullptr;  // the written tensor's old value
    bind(outputs[0], node);
    if (&op != &called) write_through_views(called, outputs[0], before, node);
    return;
  }
  if (&op != &called && !tensors_sharing_memory_with(args.tensor(0)).empty())
    refuse_write_to_shared_memory(called, "it returns several tensors");
  unpack_outputs(node, outputs, source);
}

std::optional<std::string> AtenGraphBuilder::current_source() const {
  const ops::Node* running = ops::running_node();
  if (!running) return source_;
  const auto after = std::upper_bound(grad_fn_sources_.begin(), grad_fn_sources_.end(), running->sequence_nr(),
                                      [](uint64_t nr, const auto& entry) { return nr < entry.first; });
  return after == grad_fn_sources_.begin() ? std::nullopt : std::prev(after)->second;
}

void AtenGraphBuilder::write_through_views(const ops::OpInfo& called, const Tensor& self, ir::Node* before, ir::Node* value) {
  const std::vector<Tensor> sharers = tensors_sharing_memory_with(self);
  if (sharers.empty()) return;
  const Tensor base = self.is_view() ? self.base() : self;
  // A functional variant that is itself a view (squeeze_ -> squeeze) changes no data.
  if (!functional_variant(called)->schema.returns.at(0).type.alias_set.empty())
    refuse_write_to_shared_memory(called, "it changes the tensor's shape in place");
  if (!nodes_.count(base.impl())) refuse_write_to_shared_memory(called, "its base was not made by the trace");
  for (const Tensor& other : sharers)
    if (other.impl() != base.impl() && !(other.is_view() && other.base().impl() == base.impl()))
      refuse_write_to_shared_memory(called, "another tensor over its memory is not a view of its base");
  // Every view must have a place in the base's value (place_in_base) before any is written.
  for (const Tensor& other : sharers)
    if (other.impl() != base.impl() && !place_in_base(base, other))
      refuse_write_to_shared_memory(called, "a view's elements are no whole steps of its base's dims, which are not dense in memory");
  const std::optional<PlaceInBase> place = place_in_base(base, self);
  if (!place)
    refuse_write_to_shared_memory(called, "its elements are no whole steps of its base's dims, which are not dense in memory");
  // The base's new value: its old one with the written elements replaced. A write to the base
  // itself goes the same way, so that the base's value keeps the base's layout, which the views'
  // geometry is relative to (an out-of-place variant may lay its result out otherwise).
  ir::Node* written = graph_.callFunction(
      ir::tableOpTarget(ops::OpId::as_strided_scatter),
      {ir::Argument::node(self.impl() == base.impl() ? before : node_of(base)), ir::Argument::node(value), int_list(place->sizes),
       int_list(place->strides), ir::Argument::integer(place->offset)});
  ir::TensorMeta written_meta = meta_of(base);
  // A base that is not dense is copied contiguously (as_strided_scatter clones it).
  if (!is_dense(base)) written_meta.strides = tensor::row_major_strides(written_meta.sizes);
  written->meta.value = written_meta;
  written->meta.sourceSummary = value->meta.sourceSummary;
  nodes_[base.impl()] = written;
  for (const Tensor& other : sharers)
    if (other.impl() != base.impl()) stale_views_.insert(other.impl());
}

std::vector<Tensor> AtenGraphBuilder::tensors_sharing_memory_with(const Tensor& self) const {
  std::vector<Tensor> sharers;
  std::unordered_set<const tensor::TensorImpl*> seen{self.impl()};
  for (const Tensor& other : traced_)
    if (other.impl()->version_counter == self.impl()->version_counter && seen.insert(other.impl()).second) sharers.push_back(other);
  return sharers;
}

ir::Node* AtenGraphBuilder::regenerated_view(const Tensor& view) {
  const Tensor base = view.base();
  const PlaceInBase place = place_in_base(base, view).value();  // checked when the base was written
  ir::Node* node = graph_.callFunction(ir::tableOpTarget(ops::OpId::as_strided),
                                       {ir::Argument::node(node_of(base)), int_list(place.sizes), int_list(place.strides),
                                        ir::Argument::integer(place.offset)});
  node->meta.value = meta_of(view);
  node->meta.sourceSummary = current_source();
  return node;
}

void AtenGraphBuilder::unpack_outputs(ir::Node* call, const std::vector<Tensor>& outputs, const std::optional<std::string>& source) {
  // An output the op left undefined (a gradient nobody asked for) gets no getitem.
  ir::TensorTuple metas;
  for (const Tensor& t : outputs) metas.elements.push_back(t.defined() ? meta_of(t) : ir::TensorMeta{});
  call->meta.value = metas;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) continue;
    ir::Node* item = graph_.callFunction(ir::BuiltinTarget::Getitem, {ir::Argument::node(call), ir::Argument::integer(static_cast<int64_t>(i))});
    item->meta.value = meta_of(outputs[i]);
    item->meta.sourceSummary = source;
    bind(outputs[i], item);
  }
}

ir::Node* AtenGraphBuilder::record_higher_order(ir::BuiltinTarget target, std::vector<ir::Argument> args,
                                                const std::vector<Tensor>& outputs) {
  ir::Node* node = graph_.callFunction(target, std::move(args));
  node->meta.sourceSummary = source_;
  unpack_outputs(node, outputs, source_);
  return node;
}

ir::Node* AtenGraphBuilder::add_submodule_read(const std::string& name) {
  ir::Node* node = graph_.createNode(ir::OpCode::GetAttr, name, {}, {}, name);
  node->meta.sourceSummary = source_;
  return node;
}

std::vector<std::pair<size_t, ir::Node*>> AtenGraphBuilder::mutated_inputs() const {
  // Positions count every placeholder, the size inputs' too.
  const std::vector<ir::Node*> placeholders = graph_.placeholders();
  std::vector<std::pair<size_t, ir::Node*>> mutated;
  for (const auto& [placeholder, fake] : inputs_) {
    ir::Node* value = nodes_.at(fake.impl());
    if (value == placeholder) continue;
    const size_t position = static_cast<size_t>(std::find(placeholders.begin(), placeholders.end(), placeholder) - placeholders.begin());
    mutated.emplace_back(position, value);
  }
  return mutated;
}

void AtenGraphBuilder::write_back_input_mutations(bool with_source) {
  const std::vector<ir::Node*> placeholders = graph_.placeholders();
  for (const auto& [index, value] : mutated_inputs()) {
    ir::Node* placeholder = placeholders[index];
    ir::Node* copy = graph_.callFunction(ir::tableOpTarget(ops::OpId::copy_), {ir::Argument::node(placeholder), ir::Argument::node(value)});
    copy->meta.value = placeholder->meta.value;
    if (with_source) copy->meta.sourceSummary = value->meta.sourceSummary;
  }
}

void AtenGraphBuilder::set_output(const std::vector<ir::Node*>& values, bool as_list,
                                  std::vector<std::optional<std::string>> descriptors) {
  std::vector<ir::Argument> items;
  for (ir::Node* n : values) items.push_back(n ? ir::Argument::node(n) : ir::Argument::none());
  ir::Node* output = graph_.output(as_list ? ir::Argument::list(std::move(items)) : ir::Argument::tuple(std::move(items)));
  output->meta.outputDescriptors = std::move(descriptors);
}

}  // namespace kiln::aot
