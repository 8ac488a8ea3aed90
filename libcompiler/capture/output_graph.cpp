#include "libcompiler/capture/output_graph.h"

#include <algorithm>
#include <cctype>

#include "libcompiler/capture/graph_break.h"
#include "libcompiler/capture/side_effects.h"
#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/python/torch/torch_module.h"

namespace kiln::capture {

using namespace python;

namespace {


ir::TensorMeta concrete_meta(const tensor::Tensor& t, const tensor::Device& device) {
  ir::TensorMeta meta;
  meta.dtype = ir::irDtype(t.dtype());
  for (int64_t s : t.sizes()) meta.sizes.push_back(ir::SymExpr::integer(s));
  for (int64_t s : t.strides()) meta.strides.push_back(ir::SymExpr::integer(s));
  meta.device = device;
  meta.requiresGrad = t.requires_grad();
  return meta;
}

// FX's _snake_case, which names a placeholder after its target: "L_x_" -> "l_x_".
std::string snake_case(const std::string& text) {
  std::string out;
  bool previous_lower = false;
  for (char c : text) {
    char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (previous_lower && lower != c) out += '_';
    else previous_lower = true;
    out += lower;
  }
  return out;
}

bool contains_tensor(const Ref& value) {
  if (is_tensor(value)) return true;
  if (is_list_or_tuple(value)) {
    const auto& items = sequence_items(value);
    return std::any_of(items.begin(), items.end(), contains_tensor);
  }
  return false;
}

}  // namespace

OutputGraph::OutputGraph(Interpreter& interp, FrameInputs inputs, GuardSet& guards, ShapeEnv& shapes, Sites sites)
    : interp_(interp),
      frame_inputs_(std::move(inputs)),
      guards_(guards),
      shapes_(shapes),
      sites_(std::move(sites)),
      module_(std::make_unique<ir::GraphModule>()) {}

OutputGraph::OutputGraph(Interpreter& interp, GuardSet& guards, ShapeEnv& shapes, Sites sites, std::string class_name)
    : OutputGraph(interp, FrameInputs{}, guards, shapes, std::move(sites)) {
  module_->className = std::move(class_name);
  subgraph_ = true;
}

Ref OutputGraph::subgraph_input(const Ref& outer_fake) {
  const std::string& outer = node_of(outer_fake)->name();
  ir::Node* node = module_->graph.createNode(ir::OpCode::Placeholder, outer, {}, {}, outer + "_1", nullptr);
  node->meta.value = node_of(outer_fake)->meta.value;
  inputs_.push_back(GraphInput{});
  placeholder_nodes_.push_back(node);
  const auto& outer_object = static_cast<TensorObject&>(*outer_fake);
  const tensor::Tensor& t = outer_object.value;
  return make_fake_tensor(t.sizes(), t.strides(), t.dtype(), std::make_shared<CaptureProxy>(outer_object.device(), node));
}

std::string OutputGraph::submodule_name(const std::string& base) {
  for (int i = 0;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (!module_->submodule(name)) return name;
  }
}

ir::Node* OutputGraph::add_submodule(const std::string& name, std::unique_ptr<ir::GraphModule> module) {
  module->className = name;
  module_->addSubmodule(name, std::move(module));
  ir::Node* node = module_->graph.createNode(ir::OpCode::GetAttr, name, {}, {}, name);
  node->meta.sourceSummary = sites_.node ? sites_.node() : std::nullopt;
  return node;
}

bool OutputGraph::is_fake(const Ref& value) {
  return is_tensor(value) && dynamic_cast<CaptureProxy*>(static_cast<TensorObject&>(*value).proxy.get());
}

ir::Node* OutputGraph::node_of(const Ref& fake) {
  return static_cast<CaptureProxy&>(*static_cast<TensorObject&>(*fake).proxy).node;
}

ir::Node* OutputGraph::add_placeholder(const std::string& name, ir::FakeValue value, GraphInput input) {
  ir::Node* before = nullptr;
  for (ir::Node* n : module_->graph.nodes())
    if (n->op() != ir::OpCode::Placeholder) {
      before = n;
      break;
    }
  ir::Node* node = module_->graph.createNode(ir::OpCode::Placeholder, name, {}, {}, snake_case(name), before);
  node->meta.value = std::move(value);
  inputs_.push_back(std::move(input));
  placeholder_nodes_.push_back(node);
  return node;
}

ir::TensorMeta OutputGraph::placeholder_meta(const SourceRef& source, const tensor::Tensor& real, bool parameter) {
  ir::TensorMeta meta = concrete_meta(real, real.device());
  Guard guard{GuardKind::TensorMatch, source};
  guard.dtype = real.dtype();
  guard.device = real.device();
  guard.requires_grad = real.requires_grad();
  guard.parameter = parameter;
  guard.value_type = parameter ? "torch.nn.parameter.Parameter" : "torch.Tensor";
  guard.user_code = sites_.guard ? sites_.guard() : "";
  bool any_dynamic = false;
  for (size_t d = 0; d < real.sizes().size(); ++d) {
    int64_t size = real.sizes()[d];
    if (!is_dynamic || size < 2 || !is_dynamic(source->text(), static_cast<int64_t>(d), size)) {
      guard.sizes.emplace_back(size);
      continue;
    }
    any_dynamic = true;
    guard.sizes.emplace_back(std::nullopt);
    bool created = false;
    const SizeSymbol& symbol = shapes_.size_symbol(source, static_cast<int64_t>(d), size, created);
    meta.sizes[d] = ir::SymExpr::symbol(symbol.name);
    if (created) {
      if (on_symbol) on_symbol(symbol.name, std::to_string(size), "[2, int_oo]", source->text() + ".size()[" + std::to_string(d) + "]");
      add_placeholder(symbol.name, ir::SymScalar{ir::SymExpr::symbol(symbol.name)},
                      GraphInput{GraphInput::Kind::SizeOf, source, static_cast<int64_t>(d)});
      Guard bound{GuardKind::SizeLowerBound, source};
      bound.dim = static_cast<int64_t>(d);
      bound.user_code = guard.user_code;
      deferred_guards_.push_back(std::move(bound));
    } else {
      Guard equal{GuardKind::SizeEquality, source};
      equal.dim = static_cast<int64_t>(d);
      equal.other = symbol.source;
      equal.other_dim = symbol.dim;
      deferred_guards_.push_back(std::move(equal));
    }
  }
  if (any_dynamic && real.is_contiguous()) {
    meta.strides = ir::TensorMeta::contiguousStrides(meta.sizes);
    for (size_t d = 0; d < meta.strides.size(); ++d) {
      if (meta.strides[d].constant()) {
        guard.strides.emplace_back(*meta.strides[d].constant());
        continue;
      }
      guard.strides.emplace_back(std::nullopt);
      // A stride that is one size (the next dimension's) is guarded to stay so.
      for (size_t e = d + 1; e < meta.sizes.size(); ++e)
        if (meta.strides[d] == meta.sizes[e] && !meta.sizes[e].constant()) {
          Guard stride{GuardKind::StrideEquality, source};
          stride.dim = static_cast<int64_t>(d);
          stride.other = source;
          stride.other_dim = static_cast<int64_t>(e);
          deferred_guards_.push_back(std::move(stride));
          break;
        }
    }
  } else {
    for (int64_t s : real.strides()) guard.strides.emplace_back(s);
  }
  guards_.add(std::move(guard));
  return meta;
}

Ref OutputGraph::fake_of(const Ref& tensor_ref) {
  if (is_fake(tensor_ref) && &node_of(tensor_ref)->graph() == &module_->graph) return tensor_ref;
  if (is_fake(tensor_ref) || subgraph_)
    throw unsupported(UnsupportedConstruct::CondOuterTensor);
  const tensor::Tensor& real = static_cast<TensorObject&>(*tensor_ref).value;
  if (auto it = fake_index_.find(real.impl()); it != fake_index_.end()) return it->second;
  SourceRef source = find_source(interp_, frame_inputs_, tensor_ref);
  if (!source)
    throw unsupported(UnsupportedConstruct::UnreachableTensor);
  const bool parameter = tensor_ref->type->is_subtype_of(python::torch_types().parameter);
  if (on_input_tensor) on_input_tensor(real, parameter, source->text());
  ir::TensorMeta meta = placeholder_meta(source, real, parameter);
  // A dict entry read by position holds while the key there is the same object.
  for (const Source* step = source.get(); step; step = step->base().get())
    if (step->kind() == Source::Kind::DictValue) {
      SourceRef key = Source::dict_key(step->base(), step->index());
      Guard same_key{GuardKind::IdMatch, key, key->fetch(interp_, frame_inputs_)};
      same_key.value_type = same_key.expected->type->qualified_name();
      guards_.add(std::move(same_key));
    }
  for (const SourceRef& alias : local_sources(frame_inputs_, tensor_ref))
    if (alias->text() != source->text()) {
      Guard duplicate{GuardKind::DuplicateInput, source};
      duplicate.other = alias;
      duplicate.user_code = sites_.guard ? sites_.guard() : "";
      guards_.add(std::move(duplicate));
    }
  ir::Node* node = add_placeholder(source->placeholder_name(), meta, GraphInput{GraphInput::Kind::Value, source});
  Ref fake = make_fake_tensor(real.sizes(), real.strides(), real.dtype(),
                              std::make_shared<CaptureProxy>(static_cast<TensorObject&>(*tensor_ref).device(), node));
  fakes_.emplace_back(real.impl(), fake);
  fake_index_[real.impl()] = fake;
  return fake;
}

void OutputGraph::describe_read(const Ref& tensor_ref) {
  if (!on_input_tensor || is_fake(tensor_ref) || subgraph_) return;
  if (SourceRef source = find_source(interp_, frame_inputs_, tensor_ref))
    on_input_tensor(static_cast<TensorObject&>(*tensor_ref).value, tensor_ref->type->is_subtype_of(python::torch_types().parameter),
                    source->text());
}

void OutputGraph::realize_parameters(const Ref& module) {
  if (module->kind != ObjectKind::Instance) return;
  const auto& dict = as<InstanceObject>(module).dict;
  guard_constant_attributes(module);
  auto it = dict.find("_parameters");
  if (it == dict.end() || it->second->kind != ObjectKind::Dict) return;
  for (const auto* e : as<DictObject>(it->second).entries())
    if (is_tensor(e->value)) fake_of(e->value);
}

void OutputGraph::guard_constant_attributes(const Ref& module) {
  // Dynamo guards the attributes a module's forward reads; kiln does not see attribute reads, so
  // every constant attribute of the script's own module classes is guarded (torch's modules keep
  // only sizes and flags there, which their forward reads through their tensors).
  if (is_torch_module_name(module->type->module)) return;
  SourceRef source = find_source(interp_, frame_inputs_, module);
  if (!source) return;
  // The guard is on what the frame starts with: an attribute the frame already changed
  // (self.n += 1 before self.n is read) is guarded at its value before the change.
  const SideEffects::Snapshot* original = frame_inputs_.changed ? frame_inputs_.changed->original(module.get()) : nullptr;
  const AttrMap& attributes = original ? original->attributes : as<InstanceObject>(module).dict;
  std::vector<std::string> names;
  for (const auto& [name, value] : attributes)
    if (is_constant(value)) names.push_back(name);
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const Ref& value = attributes.at(name);
    Guard guard{GuardKind::EqualsMatch, Source::attribute(source, name), value};
    guard.value_type = value->type->qualified_name();
    guard.user_code = sites_.guard ? sites_.guard() : "";
    guards_.add(std::move(guard));
  }
}

TypeObject* symbolic_scalar_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("SymFloat", {}, "torch");
    // Python arithmetic, comparisons and conversions of a symbolic number are not traced; with a
    // tensor operand the tensor's own operator records the op (lr / bias_correction), the
    // symbolic number an argument of its node.
    for (const char* dunder : {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
                               "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__", "__bool__", "__float__", "__int__",
                               "__index__", "__repr__", "__str__", "__format__", "__neg__", "__pow__", "__rpow__", "__round__"})
      add_method(t, dunder, [name = std::string(dunder)](Interpreter&, CallArgs& c) -> Ref {
        if (c.args.size() == 2 && is_tensor(c.args[1])) return not_implemented();
        throw unsupported(UnsupportedConstruct::SymbolicNumberOperator, {name});
      });
    return t;
  }();
  return type;
}

SymbolicScalarObject::SymbolicScalarObject(SourceRef source, double hint)
    : NativeObject(symbolic_scalar_type()), source_(std::move(source)), hint_(py_float(hint)) {}

SymbolicScalarObject::SymbolicScalarObject(ir::Node* node, Ref hint)
    : NativeObject(symbolic_scalar_type()), hint_(std::move(hint)), node_(node) {}

ir::Node* SymbolicScalarObject::node(OutputGraph& graph) {
  if (!node_) node_ = graph.symbolic_float(source_, as<FloatObject>(hint_).value);
  return node_;
}

Ref OutputGraph::scalar_item(const Ref& fake) {
  ir::Node* item = module_->graph.createNode(ir::OpCode::CallMethod, "item", {ir::Argument::node(node_of(fake))});
  bool integral = tensor::is_integral(static_cast<TensorObject&>(*fake).value.dtype(), true);
  std::string symbol = shapes_.unbacked_symbol(integral);
  item->meta.value = ir::SymScalar{ir::SymExpr::symbol(symbol)};
  item->meta.sourceSummary = sites_.node ? sites_.node() : std::nullopt;
  return std::make_shared<SymbolicScalarObject>(item, integral ? py_int(0) : py_float(0.0));
}

ir::Node* OutputGraph::symbolic_float(const SourceRef& source, double hint) {
  ir::TensorMeta meta;
  meta.dtype = ir::Dtype::Float64;
  ir::Node* holder = add_placeholder(source->placeholder_name(), meta, GraphInput{GraphInput::Kind::FloatAsTensor, source});
  ir::Node* item = module_->graph.createNode(ir::OpCode::CallMethod, "item", {ir::Argument::node(holder)});
  std::string symbol = shapes_.float_symbol(source);
  item->meta.value = ir::SymScalar{ir::SymExpr::symbol(symbol)};
  if (on_symbol) on_symbol(symbol, repr_float(hint), "[-oo, oo]", source->text());
  item->meta.sourceSummary = sites_.node ? sites_.node() : std::nullopt;
  return item;
}

ir::Argument OutputGraph::argument(const Ref& value) {
  if (is_tensor(value)) return ir::Argument::node(node_of(fake_of(value)));
  if (auto* symbolic = dynamic_cast<SymbolicScalarObject*>(value.get())) return ir::Argument::node(symbolic->node(*this));
  switch (value->kind) {
    case ObjectKind::None: return ir::Argument::none();
    case ObjectKind::Bool: return ir::Argument::boolean(as<BoolObject>(value).value);
    case ObjectKind::Int: return ir::Argument::integer(as<IntObject>(value).value);
    case ObjectKind::Float: return ir::Argument::floating(as<FloatObject>(value).value);
    case ObjectKind::Str: return ir::Argument::string(as<StrObject>(value).value);
    case ObjectKind::Ellipsis: return ir::Argument::ellipsis();
    case ObjectKind::List:
    case ObjectKind::Tuple: {
      std::vector<ir::Argument> items;
      const auto& source = sequence_items(value);
      for (const auto& item : source) items.push_back(argument(item));
      return value->kind == ObjectKind::List ? ir::Argument::list(std::move(items)) : ir::Argument::tuple(std::move(items));
    }
    case ObjectKind::Slice: {
      const auto& s = as<SliceObject>(value);
      return ir::Argument::slice(argument(s.lower), argument(s.upper), argument(s.step));
    }
    default: break;
  }
  if (value->type == torch_types().dtype) return ir::Argument::dtype(ir::irDtype(to_dtype(value)));
  if (value->type == torch_types().device) return ir::Argument::device(to_device(value));
  if (value->type == torch_types().size) {
    std::vector<ir::Argument> items;
    for (const auto& item : to_vector(interp_, value)) items.push_back(argument(item));
    return ir::Argument::tuple(std::move(items));
  }
  throw unsupported(UnsupportedConstruct::OpaqueGraphArgument, {type_name(value)});
}

CallArgs OutputGraph::fake_arguments(const CallArgs& args) {
  std::function<Ref(const Ref&)> convert = [&](const Ref& value) -> Ref {
    if (is_tensor(value)) return fake_of(value);
    if (auto* symbolic = dynamic_cast<SymbolicScalarObject*>(value.get())) return symbolic->hint();
    if (is_list_or_tuple(value) && contains_tensor(value)) {
      const auto& items = sequence_items(value);
      std::vector<Ref> converted;
      for (const auto& item : items) converted.push_back(convert(item));
      return py_list_or_tuple_like(value, std::move(converted));
    }
    return value;
  };
  CallArgs out;
  for (const auto& a : args.args) out.args.push_back(convert(a));
  for (const auto& [k, v] : args.kwargs) out.kwargs.emplace_back(k, convert(v));
  return out;
}

namespace {

// An in-place call by its target: Tensor.add_, torch.relu_, operator.iadd (not dunders).
bool writes_its_input(const ir::Node& node) {
  const std::string& target = node.target();
  const std::string name = target.substr(target.rfind('.') + 1);
  if (node.op() == ir::OpCode::CallFunction && target.starts_with("operator.i")) return true;
  return name.size() > 1 && name.back() == '_' && !name.starts_with("__");
}

}  // namespace

Ref OutputGraph::attach(const Ref& result, ir::Node* node, const tensor::Device& device) {
  if (is_tensor(result)) {
    auto& object = static_cast<TensorObject&>(*result);
    node->meta.value = concrete_meta(object.value, device);
    if (object.proxy) {
      if (writes_its_input(*node)) return result;  // an in-place op returns its (already traced) self
      // A functional call that returned its input (dropout out of training, contiguous of a
      // contiguous tensor): the graph's value is the node's, as Dynamo's is.
      const tensor::Tensor& same = object.value;
      return make_fake_tensor(same.sizes(), same.strides(), same.dtype(), std::make_shared<CaptureProxy>(device, node));
    }
    if (object.value.device().type != tensor::DeviceType::Meta) {
      // A factory ran for real: its graph value is a fake of the same shape.
      const tensor::Tensor& real = object.value;
      return make_fake_tensor(real.sizes(), real.strides(), real.dtype(), std::make_shared<CaptureProxy>(real.device(), node));
    }
    object.proxy = std::make_shared<CaptureProxy>(device, node);
    return result;
  }
  if (!is_list_or_tuple(result)) return result;  // torch._C calls returning None
  const auto& items = sequence_items(result);
  ir::TensorTuple tuple;
  std::vector<Ref> attached;
  for (size_t i = 0; i < items.size(); ++i) {
    ir::Node* getitem =
        module_->graph.callFunction(ir::BuiltinTarget::Getitem, {ir::Argument::node(node), ir::Argument::integer(static_cast<int64_t>(i))});
    getitem->meta.sourceSummary = node->meta.sourceSummary;
    attached.push_back(is_tensor(items[i]) ? attach(items[i], getitem, device) : items[i]);
    if (const auto* meta = std::get_if<ir::TensorMeta>(&getitem->meta.value)) tuple.elements.push_back(*meta);
  }
  node->meta.value = std::move(tuple);
  return py_list_or_tuple_like(result, std::move(attached));
}

Ref OutputGraph::record(const NodeTarget& target, const std::vector<Ref>& printed_args,
                        const std::vector<std::pair<std::string, Ref>>& printed_kwargs, Ref fake_result) {
  std::vector<ir::Argument> ir_args;
  for (const auto& a : printed_args) ir_args.push_back(argument(a));
  std::vector<ir::KeywordArgument> ir_kwargs;
  for (const auto& [k, v] : printed_kwargs) ir_kwargs.push_back({k, argument(v)});
  // The result is on the device of the (last) fake argument; factories' on the CPU.
  tensor::Device device = tensor::kCPU;
  for (const auto& a : printed_args)
    if (is_fake(a)) device = static_cast<TensorObject&>(*a).device();
  ir::Node* node = module_->graph.createNode(target.op, target.target, std::move(ir_args), std::move(ir_kwargs));
  if (target.with_source && sites_.node) node->meta.sourceSummary = sites_.node();
  return attach(fake_result, node, device);
}

Ref OutputGraph::record_node(const NodeTarget& target, std::vector<ir::Argument> args, Ref fake_result,
                             const tensor::Device& device) {
  ir::Node* node = module_->graph.createNode(target.op, target.target, std::move(args));
  node->meta.sourceSummary = sites_.node ? sites_.node() : std::nullopt;
  return attach(fake_result, node, device);
}

void OutputGraph::pin_dynamic_sizes() {
  sizes_pinned_ = true;
  for (const auto& symbol : shapes_.symbols()) {
    Guard pinned(GuardKind::SizeValue, symbol->source);
    pinned.dim = symbol->dim;
    pinned.length = symbol->hint;
    guards_.add(std::move(pinned));
  }
  for (const SizeEquality& tied : shapes_.equalities()) {
    Guard pinned(GuardKind::SizeValue, tied.source);
    pinned.dim = tied.dim;
    pinned.length = tied.symbol->hint;
    guards_.add(std::move(pinned));
  }
}

void OutputGraph::name_hint(const std::string& variable, const Ref& value) {
  if (!is_fake(value)) return;
  ir::Node* node = node_of(value);
  if (node->op() == ir::OpCode::Placeholder || named_[node]) return;
  named_[node] = true;
  module_->graph.rename(node, variable);
}

void OutputGraph::set_output(const std::vector<const ir::Node*>& values) {
  for (Guard& guard : deferred_guards_) guards_.add(std::move(guard));
  deferred_guards_.clear();
  std::vector<ir::Argument> items;
  for (const ir::Node* n : values) items.push_back(ir::Argument::node(const_cast<ir::Node*>(n)));
  module_->graph.output(ir::Argument::tuple(std::move(items)));
}

int64_t OutputGraph::op_count() const {
  int64_t count = 0;
  for (const ir::Node* n : module_->graph.nodes())
    if (n->op() == ir::OpCode::CallFunction || n->op() == ir::OpCode::CallMethod || n->op() == ir::OpCode::CallModule) ++count;
  return count;
}

OutputGraph::Checkpoint OutputGraph::checkpoint() const {
  return {module_->graph.size() - placeholder_nodes_.size(), placeholder_nodes_.size(), guards_.size(), fakes_.size(),
          deferred_guards_.size()};
}

void OutputGraph::rollback(const Checkpoint& checkpoint) {
  std::vector<ir::Node*> calls;
  for (ir::Node* n : module_->graph.nodes())
    if (n->op() != ir::OpCode::Placeholder) calls.push_back(n);
  for (size_t i = calls.size(); i > checkpoint.nodes; --i) {
    named_.erase(calls[i - 1]);
    module_->graph.erase(calls[i - 1]);
  }
  while (placeholder_nodes_.size() > checkpoint.inputs) {
    module_->graph.erase(placeholder_nodes_.back());
    placeholder_nodes_.pop_back();
    inputs_.pop_back();
  }
  guards_.truncate(checkpoint.guards);
  deferred_guards_.erase(deferred_guards_.begin() + static_cast<long>(checkpoint.deferred_guards), deferred_guards_.end());
  while (fakes_.size() > checkpoint.fakes) {
    fake_index_.erase(fakes_.back().first);
    fakes_.pop_back();
  }
}

}  // namespace kiln::capture
