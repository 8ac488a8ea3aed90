#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/ir/table_op.h"

#include <algorithm>
#include <numeric>

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/literal_value.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/tensor/view_geometry.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::inductor {

namespace {

// Inductor realizes a value read by several users when recomputing it would cost more than
// storing it (config.realize_reads_threshold / realize_opcount_threshold play this part). The
// loads are PyTorch's threshold: a model's residual stream, an add of each layer's output, is
// stored every few layers instead of recomputed from all of them by every later layer.
constexpr size_t kRecomputeOpLimit = 12;
constexpr size_t kInlineLoadLimit = 4;

std::vector<IndexExpr> loop_vars(size_t count, int first = 0) {
  std::vector<IndexExpr> vars;
  for (size_t i = 0; i < count; ++i) vars.push_back(IndexExpr::var(first + static_cast<int>(i)));
  return vars;
}

}  // namespace

namespace {

// The device of the graph's tensor inputs (the CPU for a graph without any). CPU scalars (0-dim)
// may come with a GPU's inputs, as PyTorch's Inductor takes them (an optimizer's step counts):
// the program reads them from copies on the GPU that the wrapper makes per call.
tensor::Device graph_device(const ir::GraphModule& module) {
  std::optional<tensor::Device> other;  // the inputs' device other than the CPU
  bool cpu_tensors = false;             // CPU inputs that are not 0-dim
  for (const ir::Node* node : module.graph.placeholders()) {
    const auto* meta = std::get_if<ir::TensorMeta>(&node->meta.value);
    if (!meta) continue;
    if (meta->device.type == tensor::DeviceType::CPU) {
      cpu_tensors = cpu_tensors || !meta->sizes.empty();
      continue;
    }
    if (other && *other != meta->device) throw LoweringUnsupported("inductor: graph inputs on several devices");
    other = meta->device;
  }
  if (other && cpu_tensors) throw LoweringUnsupported("inductor: graph inputs on several devices");
  return other.value_or(tensor::kCPU);
}

}  // namespace

GraphLowering::GraphLowering(const ir::GraphModule& module) : module_(module) {
  program_.device = graph_device(module);
  backend_ = backend_for_device(program_.device.type);
  if (!backend_)
    throw LoweringUnsupported("inductor: no code generator for device " + std::string(tensor::device_type_name(program_.device.type)));
}

const ir::Argument& GraphLowering::arg(size_t i) const {
  if (i >= node_->args().size()) throw UseFallback("missing argument");
  return node_->args()[i];
}

const ir::Argument* GraphLowering::arg_or_kwarg(size_t i, const std::string& name) const {
  if (i < node_->args().size()) return &node_->args()[i];
  for (const ir::KeywordArgument& kw : node_->kwargs())
    if (kw.name == name) return &kw.value;
  return nullptr;
}

bool GraphLowering::is_tensor(const ir::Argument& argument) const {
  const ir::Node* n = argument.asNode();
  return n && values_.count(n) && values_.at(n).size() == 1 && !values_.at(n)[0].is_number;
}

TensorBox GraphLowering::tensor(const ir::Argument& argument) {
  const ir::Node* n = argument.asNode();
  if (!n) throw UseFallback("a tensor argument is not a node");
  auto it = values_.find(n);
  if (it == values_.end() || it->second.size() != 1) throw UseFallback("argument " + n->name() + " is not one tensor");
  return it->second[0];
}

double GraphLowering::number(const ir::Argument& argument) const {
  const auto& v = argument.value;
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  throw UseFallback("argument " + argument.repr() + " is not a number");
}

int64_t GraphLowering::integer(const ir::Argument& argument) const {
  const auto& v = argument.value;
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  if (const auto* e = std::get_if<ir::SymExpr>(&v))
    if (auto c = e->constant()) return *c;
  throw UseFallback("argument " + argument.repr() + " is not a constant int");
}

SizeExpr GraphLowering::size(const ir::Argument& argument) const {
  if (const auto* e = std::get_if<ir::SymExpr>(&argument.value)) return *e;
  if (const ir::Node* n = argument.asNode())
    if (const auto* sym = std::get_if<ir::SymScalar>(&n->meta.value)) return sym->expr;
  return size_constant(integer(argument));
}

std::vector<int64_t> GraphLowering::integers(const ir::Argument& argument) const {
  std::vector<int64_t> out;
  if (const auto* seq = argument.asSequence()) {
    for (const ir::Argument& item : seq->items) out.push_back(integer(item));
    return out;
  }
  return {integer(argument)};
}

const ir::TensorMeta& GraphLowering::out_meta() const {
  const auto* meta = std::get_if<ir::TensorMeta>(&node_->meta.value);
  if (!meta) throw UseFallback("the node has no tensor metadata");
  return *meta;
}

std::vector<SizeExpr> GraphLowering::out_sizes() const { return out_meta().sizes; }

BufferLayout GraphLowering::meta_layout(const ir::TensorMeta& meta) const {
  BufferLayout layout;
  layout.dtype = meta.dtype;
  layout.sizes = meta.sizes;
  layout.strides = meta.strides;
  return layout;
}

void GraphLowering::add_size_symbol_sources(const ir::Node& placeholder, int input) {
  auto known = [&](const std::string& symbol) {
    return std::any_of(program_.size_symbols.begin(), program_.size_symbols.end(), [&](const SizeSymbolSource& s) { return s.symbol == symbol; });
  };
  // A size or stride that is exactly one symbol gives its value.
  auto add = [&](const SizeExpr& e, SizeSymbolSource::Kind kind, int dim) {
    const std::vector<std::string> symbols = e.freeSymbols();
    if (symbols.size() != 1 || e != SizeExpr::symbol(symbols[0]) || known(symbols[0])) return;
    program_.size_symbols.push_back({symbols[0], input, kind, dim});
  };
  if (const auto* sym = std::get_if<ir::SymScalar>(&placeholder.meta.value)) {
    add(sym->expr, SizeSymbolSource::Kind::IntInput, 0);
    return;
  }
  const auto& meta = std::get<ir::TensorMeta>(placeholder.meta.value);
  for (size_t d = 0; d < meta.sizes.size(); ++d) add(meta.sizes[d], SizeSymbolSource::Kind::Size, static_cast<int>(d));
  for (size_t d = 0; d < meta.strides.size(); ++d) add(meta.strides[d], SizeSymbolSource::Kind::Stride, static_cast<int>(d));
}

void GraphLowering::check_size_symbols_have_sources() const {
  auto check = [&](const SizeExpr& e, const std::string& where) {
    for (const std::string& symbol : e.freeSymbols())
      if (std::none_of(program_.size_symbols.begin(), program_.size_symbols.end(), [&](const SizeSymbolSource& s) { return s.symbol == symbol; }))
        throw LoweringUnsupported("inductor: size symbol " + symbol + " (in " + where + ") is no input's size");
  };
  for (const Buffer& buffer : program_.buffers) {
    for (const SizeExpr& e : buffer.layout.sizes) check(e, buffer.name);
    for (const SizeExpr& e : buffer.layout.strides) check(e, buffer.name);
    check(buffer.layout.offset, buffer.name);
  }
  for (const ProgramOutput& out : program_.outputs)
    if (out.size) check(*out.size, "a graph output");
}

TensorBox GraphLowering::pointwise(std::vector<SizeExpr> sizes, ir::Dtype dtype, Loader loader) const {
  if (!backend_->supports(dtype)) throw UseFallback("dtype " + std::string(ir::dtypeTorchName(dtype)));
  TensorBox box;
  box.sizes = std::move(sizes);
  box.dtype = dtype;
  box.loader = std::move(loader);
  return box;
}

TensorBox GraphLowering::from_buffer(int buffer, BufferLayout view) const {
  TensorBox box;
  box.sizes = view.sizes;
  box.dtype = view.dtype;
  box.buffer = buffer;
  box.view = view;
  box.loader = [buffer, view](const std::vector<IndexExpr>& index, const VarRanges&) {
    IndexExpr offset = IndexExpr::constant(view.offset);
    for (size_t i = 0; i < index.size(); ++i) offset = offset + index[i] * (view.sizes[i] == size_constant(1) ? size_constant(0) : view.strides[i]);
    return Expr::load(buffer, view.dtype, offset);
  };
  return box;
}

TensorBox GraphLowering::broadcast_to(const TensorBox& box, const std::vector<SizeExpr>& sizes) {
  if (box.sizes == sizes) return box;
  const size_t lead = sizes.size() - box.sizes.size();
  TensorBox out = box;
  out.sizes = sizes;
  out.buffer.reset();
  if (box.buffer) {
    out.buffer = box.buffer;
    out.view.sizes = sizes;
    out.view.strides.assign(lead, size_constant(0));
    const SizeExpr one = size_constant(1);
    for (size_t i = 0; i < box.sizes.size(); ++i)
      out.view.strides.push_back(box.sizes[i] == one && sizes[lead + i] != one ? size_constant(0) : box.view.strides[i]);
  }
  std::vector<SizeExpr> source = box.sizes;
  Loader inner = box.loader;
  out.loader = [inner, source, lead](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    std::vector<IndexExpr> mapped;
    for (size_t i = 0; i < source.size(); ++i) mapped.push_back(source[i] == size_constant(1) ? IndexExpr::constant(0) : index[lead + i]);
    return inner(mapped, ranges);
  };
  return out;
}

int GraphLowering::realize(const TensorBox& box) {
  if (box.buffer && box.view.offset == size_constant(0) && box.view.strides == tensor::row_major_strides(box.sizes) &&
      box.view.storage_size() == program_.buffers[*box.buffer].layout.storage_size())
    return *box.buffer;
  ComputedNode node;
  node.ranges = box.sizes;
  VarRanges ranges = node.var_ranges();
  node.body = box.loader(loop_vars(box.sizes.size()), ranges);
  node.origin = !box.origin.empty() ? box.origin : node_ ? node_->name() : "";
  Buffer buffer;
  buffer.layout.dtype = box.dtype;
  buffer.layout.sizes = box.sizes;
  buffer.layout.strides = tensor::row_major_strides(box.sizes);
  node.output = program_.add_buffer(std::move(buffer));
  const int out = node.output;
  program_.nodes.emplace_back(std::move(node));
  return out;
}

TensorBox GraphLowering::realized(const TensorBox& box) {
  const int buffer = realize(box);
  return from_buffer(buffer, program_.buffers[buffer].layout);
}

std::pair<int, BufferLayout> GraphLowering::strided(const TensorBox& box) {
  if (box.buffer) return {*box.buffer, box.view};
  const int buffer = realize(box);
  return {buffer, program_.buffers[buffer].layout};
}

// A value computed here leaves with the strides the graph's metadata gives it (eager's strides,
// as PyTorch's Inductor keeps them): a forward's saved activation comes into the backward as its
// placeholder says, where another layout would be copied again on every call. Values that already
// are views of a buffer, and layouts no dense buffer has, keep theirs.
ProgramOutput GraphLowering::output_layout(const ir::Argument& item) {
  const TensorBox box = tensor(item);
  const auto* meta = std::get_if<ir::TensorMeta>(&item.asNode()->meta.value);
  if (!box.buffer && !box.is_number && meta && meta->strides.size() == box.sizes.size() &&
      meta->strides != tensor::row_major_strides(box.sizes)) {
    try {
      auto [buffer, view] = strided_exactly(box, meta->strides);
      return {buffer, view};
    } catch (const LoweringUnsupported&) {
      // Symbolic or not dense: row-major, as before.
    }
  }
  auto [buffer, view] = strided(box);
  return {buffer, view};
}

std::pair<int, BufferLayout> GraphLowering::strided_exactly(const TensorBox& box, const std::vector<SizeExpr>& strides) {
  const size_t rank = box.sizes.size();
  const SizeExpr one = size_constant(1);
  auto same_layout = [&](const BufferLayout& view) {
    if (view.offset != size_constant(0)) return false;
    for (size_t d = 0; d < rank; ++d)
      if (box.sizes[d] != one && view.strides[d] != strides[d]) return false;
    return true;
  };
  if (box.buffer && same_layout(box.view)) return {*box.buffer, box.view};
  // The dimensions in memory order, outermost first: strides must be numbers to be ordered,
  // except for row-major, which realize() lays out.
  std::vector<size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  if (strides != tensor::row_major_strides(box.sizes)) {
    std::vector<int64_t> known(rank);
    for (size_t d = 0; d < rank; ++d) {
      const std::optional<int64_t> stride = strides[d].constant();
      if (!stride) throw LoweringUnsupported("inductor: a kernel that reads memory by position needs symbolic strides " + tensor::sizes_text(strides));
      known[d] = *stride;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return known[a] > known[b]; });
  }
  std::vector<SizeExpr> ordered_sizes;
  for (size_t d : order) ordered_sizes.push_back(box.sizes[d]);
  const std::vector<SizeExpr> ordered_strides = tensor::row_major_strides(ordered_sizes);
  BufferLayout layout;
  layout.dtype = box.dtype;
  layout.sizes = box.sizes;
  layout.strides.resize(rank);
  for (size_t k = 0; k < rank; ++k) layout.strides[order[k]] = ordered_strides[k];
  if (!same_layout(layout))
    throw LoweringUnsupported("inductor: a kernel that reads memory by position needs a layout that is not dense: strides " +
                              tensor::sizes_text(strides) + " for sizes " + tensor::sizes_text(box.sizes));
  TensorBox ordered;
  ordered.sizes = ordered_sizes;
  ordered.dtype = box.dtype;
  ordered.origin = box.origin;
  ordered.loader = [inner = box.loader, order](const std::vector<IndexExpr>& index, const VarRanges& ranges) {
    std::vector<IndexExpr> original(index.size(), IndexExpr::constant(0));
    for (size_t k = 0; k < order.size(); ++k) original[order[k]] = index[k];
    return inner(original, ranges);
  };
  const int buffer = realize(ordered);
  return {buffer, layout};
}

TensorBox GraphLowering::reduce(const TensorBox& input, std::vector<int64_t> dims, bool keepdim, ReductionType combine,
                                ir::Dtype dtype) {
  if (!backend_->supports(dtype) || !backend_->supports(input.dtype)) throw UseFallback("reduction dtype");
  ComputedNode node;
  std::vector<bool> reduced(input.sizes.size(), false);
  for (int64_t d : dims) reduced[static_cast<size_t>(d)] = true;
  std::vector<SizeExpr> out_sizes;
  for (size_t i = 0; i < input.sizes.size(); ++i) {
    if (reduced[i]) {
      node.reduction_ranges.push_back(input.sizes[i]);
      if (keepdim) out_sizes.push_back(size_constant(1));
    } else {
      node.ranges.push_back(input.sizes[i]);
      out_sizes.push_back(input.sizes[i]);
    }
  }
  node.reduction = combine;
  const VarRanges ranges = node.var_ranges();
  std::vector<IndexExpr> index;
  int kept = 0, red = static_cast<int>(node.ranges.size());
  for (size_t i = 0; i < input.sizes.size(); ++i) index.push_back(IndexExpr::var(reduced[i] ? red++ : kept++));
  node.body = Expr::cast(input.loader(index, ranges), dtype);
  node.origin = node_ ? node_->name() : "";
  Buffer buffer;
  buffer.layout.dtype = dtype;
  buffer.layout.sizes = out_sizes;
  buffer.layout.strides = tensor::row_major_strides(out_sizes);
  node.output = program_.add_buffer(buffer);
  const int out = node.output;
  program_.nodes.emplace_back(std::move(node));
  return from_buffer(out, program_.buffers[out].layout);
}

void GraphLowering::maybe_realize_for_reuse(const ir::Node& node, TensorBox& box) {
  if (box.buffer || box.is_number || node.users().size() < 2) return;
  ExprRef sample = box.loader(loop_vars(box.sizes.size()), [&] {
    VarRanges r;
    for (size_t i = 0; i < box.sizes.size(); ++i) r[static_cast<int>(i)] = box.sizes[i];
    return r;
  }());
  if (expr_size(sample) <= kRecomputeOpLimit && !expr_is_costly(sample) && loaded_buffers(sample).size() <= kInlineLoadLimit) return;
  box = realized(box);
}

ExternArgument GraphLowering::extern_argument(const ir::Argument& argument) {
  ExternArgument out;
  if (argument.asNode()) {
    if (!is_tensor(argument)) throw LoweringUnsupported("inductor: fallback argument " + argument.repr() + " is not a tensor");
    auto [buffer, view] = strided(tensor(argument));
    out.buffer = buffer;
    out.view = view;
    return out;
  }
  if (const auto* seq = argument.asSequence()) {
    bool has_nodes = false;
    argument.forEachNode([&](ir::Node*) { has_nodes = true; });
    if (has_nodes) {
      out.is_list = true;
      for (const ir::Argument& item : seq->items) out.list.push_back(extern_argument(item));
      return out;
    }
    std::vector<ops::IValue> items;
    for (const ir::Argument& item : seq->items) {
      auto v = ir::literalValue(item);
      if (!v) throw LoweringUnsupported("inductor: fallback argument " + argument.repr());
      items.push_back(*v);
    }
    if (!items.empty() && std::all_of(items.begin(), items.end(), [](const ops::IValue& v) { return v.is_bool(); })) {
      std::vector<bool> bools;  // output_mask of the *_backward ops
      for (const ops::IValue& v : items) bools.push_back(v.to_bool());
      out.value = ops::IValue(bools);
    } else if (std::all_of(items.begin(), items.end(), [](const ops::IValue& v) { return v.is_int(); })) {
      ops::IValue::IntList ints;
      for (const ops::IValue& v : items) ints.push_back(v.to_int());
      out.value = ops::IValue(ints);
    } else if (std::all_of(items.begin(), items.end(), [](const ops::IValue& v) { return v.is_number(); })) {
      ops::IValue::DoubleList doubles;
      for (const ops::IValue& v : items) doubles.push_back(v.to_double());
      out.value = ops::IValue(doubles);
    } else {
      throw LoweringUnsupported("inductor: fallback argument " + argument.repr());
    }
    return out;
  }
  auto v = ir::literalValue(argument);
  if (!v) throw LoweringUnsupported("inductor: fallback argument " + argument.repr());
  out.value = *v;
  return out;
}

void GraphLowering::lower_fallback(const ir::Node& node) {
  const ops::OpInfo* op = ir::tableOp(node);
  if (!op) throw LoweringUnsupported("inductor: no lowering and no kernel for " + node.target());
  ExternNode e;
  e.op = op;
  e.kernel_name = lowering_key(node);
  e.origin = node.name();
  for (const ir::Argument& a : node.args()) {
    // An op that reads its input by memory position gets it laid out as the graph says it is.
    if (e.args.empty() && fallback_reads_memory_positions(node)) {
      const ir::Node* input = a.asNode();
      const auto* meta = input ? std::get_if<ir::TensorMeta>(&input->meta.value) : nullptr;
      if (!meta) throw LoweringUnsupported("inductor: " + node.target() + " of a value without tensor metadata");
      ExternArgument exact;
      std::tie(exact.buffer, exact.view) = strided_exactly(tensor(a), meta->strides);
      e.args.push_back(exact);
      continue;
    }
    e.args.push_back(extern_argument(a));
  }
  for (const ir::KeywordArgument& kw : node.kwargs()) {
    ExternArgument a = extern_argument(kw.value);
    if (a.buffer || a.is_list) throw LoweringUnsupported("inductor: tensor keyword argument of " + node.target());
    e.kwargs.push_back({kw.name, a.value});
  }
  add_extern_outputs(node, e);
}

void GraphLowering::lower_conditional(const ir::Node& node) {
  node_ = &node;
  const auto branch = [&](size_t i) {
    const ir::Node* n = node.args().size() == 4 ? node.args()[i].asNode() : nullptr;
    if (!n || n->op() != ir::OpCode::GetAttr || !module_.submodule(n->target()))
      throw LoweringUnsupported("inductor: a cond branch is not a graph submodule");
    return n->target();
  };
  ExternNode e;
  e.conditional = ConditionalBranches{branch(1), branch(2)};
  e.kernel_name = node.target();
  e.origin = node.name();
  e.args.push_back(extern_argument(node.args()[0]));
  if (const auto* operands = node.args()[3].asSequence())
    for (const ir::Argument& operand : operands->items) e.args.push_back(extern_argument(operand));
  add_extern_outputs(node, e);
}

void GraphLowering::add_extern_outputs(const ir::Node& node, ExternNode& e) {
  std::vector<ir::TensorMeta> metas;
  if (const auto* meta = std::get_if<ir::TensorMeta>(&node.meta.value)) metas.push_back(*meta);
  else if (const auto* tuple = std::get_if<ir::TensorTuple>(&node.meta.value)) metas = tuple->elements;
  else throw LoweringUnsupported("inductor: " + node.target() + " returns no tensor");
  std::vector<TensorBox> boxes;
  for (const ir::TensorMeta& meta : metas) {
    if (!backend_->supports(meta.dtype) && meta.dtype != ir::Dtype::Float16 && meta.dtype != ir::Dtype::BFloat16 &&
        meta.dtype != ir::Dtype::UInt8 && meta.dtype != ir::Dtype::Int8 && meta.dtype != ir::Dtype::Int16)
      throw LoweringUnsupported("inductor: dtype " + std::string(ir::dtypeTorchName(meta.dtype)));
    Buffer buffer;
    buffer.kind = Buffer::Kind::Extern;
    buffer.layout = meta_layout(meta);
    const int b = program_.add_buffer(std::move(buffer));
    e.outputs.push_back(b);
    boxes.push_back(from_buffer(b, program_.buffers[b].layout));
  }
  program_.nodes.emplace_back(std::move(e));
  values_[&node] = std::move(boxes);
}

namespace {

bool has_no_elements(const ir::TensorMeta& meta) {
  return std::any_of(meta.sizes.begin(), meta.sizes.end(), [](const ir::SymExpr& size) { return size.constant() == 0; });
}

}  // namespace

void GraphLowering::lower_node(const ir::Node& node) {
  node_ = &node;
  if (node.is(ir::BuiltinTarget::Getitem)) {
    const ir::Node* tuple = node.args().at(0).asNode();
    const int64_t index = std::get<int64_t>(node.args().at(1).value);
    values_[&node] = {values_.at(tuple).at(static_cast<size_t>(index))};
    return;
  }
  // A result with no elements computes nothing, and lowering it could divide index arithmetic
  // by its zero sizes (a reshape of a [0, 3] tensor): it is an empty value of its sizes.
  if (const auto* meta = std::get_if<ir::TensorMeta>(&node.meta.value); meta && has_no_elements(*meta)) {
    const ir::Dtype dtype = meta->dtype;
    values_[&node] = {pointwise(out_sizes(), dtype, [dtype](const std::vector<IndexExpr>&, const VarRanges&) { return Expr::constant(0, dtype); })};
    return;
  }
  LoweringFn fn = find_lowering(node);
  // The compiler bisector's "lowerings" subsystem: a disabled lowering runs the op's kernel.
  if (fn && bisect::disable_subsystem("inductor", "lowerings", [&] { return node.name() + " " + node.target(); })) fn = nullptr;
  if (fn) {
    const size_t nodes_before = program_.nodes.size();
    const size_t buffers_before = program_.buffers.size();
    try {
      std::vector<TensorBox> boxes = fn(*this);
      for (TensorBox& box : boxes)
        if (box.origin.empty() && !box.buffer) box.origin = node.name();
      if (boxes.size() == 1) maybe_realize_for_reuse(node, boxes[0]);
      values_[&node] = std::move(boxes);
      return;
    } catch (const UseFallback&) {
      // Undo what the lowering added before it gave up.
      program_.nodes.resize(nodes_before);
      program_.buffers.resize(buffers_before);
    }
  }
  lower_fallback(node);
}

void GraphLowering::write_back_inputs() {
  for (const ir::Node* copy : write_backs_) {
    node_ = copy;
    const ir::Node* value = copy->args().at(1).asNode();
    if (value && values_.count(value) && values_.at(value).size() == 1) values_[value] = {realized(values_.at(value).front())};
  }
  for (const ir::Node* copy : write_backs_) lower_node(*copy);
}

LoopProgram GraphLowering::run() {
  try {
    lower_nodes();
    check_size_symbols_have_sources();
  } catch (const UseFallback& e) {
    // Outside a lowering (graph outputs, fallback arguments) there is no per-node way out.
    throw LoweringUnsupported(std::string("inductor: ") + e.what());
  }
  return std::move(program_);
}

void GraphLowering::lower_nodes() {
  for (const ir::Node* node : module_.graph.nodes()) {
    switch (node->op()) {
      case ir::OpCode::Placeholder: {
        const int input = static_cast<int>(program_.inputs.size());
        program_.input_names.push_back(node->name());
        if (std::holds_alternative<ir::SymScalar>(node->meta.value)) {
          // A SymInt input: the value of a size symbol.
          add_size_symbol_sources(*node, input);
          program_.inputs.push_back(-1);
          break;
        }
        const auto* meta = std::get_if<ir::TensorMeta>(&node->meta.value);
        if (!meta) throw LoweringUnsupported("inductor: graph input " + node->name() + " is not a tensor");
        add_size_symbol_sources(*node, input);
        Buffer buffer;
        buffer.name = node->name();
        buffer.kind = Buffer::Kind::Input;
        buffer.layout = meta_layout(*meta);
        buffer.input = input;
        const int b = program_.add_buffer(std::move(buffer));
        program_.inputs.push_back(b);
        values_[node] = {from_buffer(b, program_.buffers[b].layout)};
        break;
      }
      // Subgraphs are read by the higher-order op that runs them.
      case ir::OpCode::GetAttr:
        if (!module_.submodule(node->target())) throw LoweringUnsupported("inductor: get_attr of a tensor attribute");
        break;
      case ir::OpCode::CallFunction:
        if (node->is(ir::BuiltinTarget::Cond)) lower_conditional(*node);
        else if (ir::callsOp(*node, ops::OpId::copy_) && node->args().at(0).asNode() &&
                 node->args().at(0).asNode()->op() == ir::OpCode::Placeholder)
          write_backs_.push_back(node);
        else lower_node(*node);
        break;
      case ir::OpCode::Output: {
        node_ = node;
        const ir::Argument& result = node->args().at(0);
        const auto* seq = result.asSequence();
        std::vector<ir::Argument> items = seq ? seq->items : std::vector<ir::Argument>{result};
        for (const ir::Argument& item : items) {
          if (std::holds_alternative<ir::NoneValue>(item.value)) {
            program_.outputs.push_back({});
            continue;
          }
          if (!item.asNode()) throw LoweringUnsupported("inductor: a graph output that is not a tensor (" + item.repr() + ")");
          if (const auto* sym = std::get_if<ir::SymScalar>(&item.asNode()->meta.value); sym && !values_.count(item.asNode())) {
            program_.outputs.push_back({-1, {}, sym->expr});
            continue;
          }
          program_.outputs.push_back(output_layout(item));
        }
        write_back_inputs();
        break;
      }
      default: throw LoweringUnsupported("inductor: " + std::string(ir::opcodeName(node->op())) + " nodes are not supported");
    }
  }
}

}  // namespace kiln::inductor
