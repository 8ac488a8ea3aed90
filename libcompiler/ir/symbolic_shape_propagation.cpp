#include "libcompiler/ir/symbolic_shape_propagation.h"
#include "libcompiler/ir/literal_value.h"
#include "libcompiler/ir/tensor_types.h"

#include <algorithm>
#include <stdexcept>

#include "libcompiler/ir/graph_interpreter.h"
#include "libcompiler/ir/sym_size_traits.h"
#include "libcompiler/ir/table_op.h"
#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ir {

namespace {

using ops::IValue;
using SymbolicMeta = ops::TensorMetaT<SymExpr>;

// A node this pass cannot compute; the message says why.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

tensor::DType requireTensorDtype(Dtype dtype) {
  const auto converted = ir::tensorDtype(dtype);
  if (!converted) throw Unsupported("no tensor dtype " + std::string(dtypeTorchName(dtype)));
  return *converted;
}

TensorMeta irMeta(const SymbolicMeta& meta) {
  TensorMeta out;
  out.dtype = irDtype(meta.dtype);
  out.sizes = meta.sizes;
  out.strides = meta.strides;
  out.device = meta.device;
  return out;
}

// A tensor argument as the size-generic meta functions read it.
struct SymbolicTensor {
  SymbolicMeta meta;
  const std::vector<SymExpr>& sizes() const { return meta.sizes; }
  const std::vector<SymExpr>& strides() const { return meta.strides; }
  tensor::DType dtype() const { return meta.dtype; }
  const tensor::Device& device() const { return meta.device; }
  int64_t dim() const { return static_cast<int64_t>(meta.sizes.size()); }
};

// The values of one call as binding sees them: tensors are stand-ins on the meta device with the
// right dtype and rank (binding and dtype promotion read nothing else), symbolic ints are distinct
// sentinel ints. Both are mapped back to what they stand for after binding, which may reorder
// arguments and fill in defaults.
class StandIns {
 public:
  IValue tensor(const TensorMeta& meta) {
    ops::Tensor standIn = ops::Tensor::empty(tensor::Shape(meta.sizes.size(), 1), requireTensorDtype(meta.dtype),
                                             tensor::Device{tensor::DeviceType::Meta, -1});
    tensors_[standIn.impl()] = SymbolicMeta{meta.sizes, meta.strides, requireTensorDtype(meta.dtype), meta.device};
    return IValue(standIn);
  }
  IValue integer(const SymExpr& value) {
    if (const auto constant = value.constant()) return IValue(*constant);
    const int64_t sentinel = kSentinelBase + static_cast<int64_t>(ints_.size());
    ints_.emplace(sentinel, value);
    return IValue(sentinel);
  }

  SymbolicTensor symbolic(const ops::Tensor& t) const {
    if (const auto it = tensors_.find(t.impl()); it != tensors_.end()) return {it->second};
    // A number that binding made a tensor: its sizes are constants.
    SymbolicMeta meta{{}, {}, t.dtype(), t.device()};
    for (int64_t s : t.sizes()) meta.sizes.push_back(SymExpr::integer(s));
    for (int64_t s : t.strides()) meta.strides.push_back(SymExpr::integer(s));
    return {meta};
  }
  SymExpr symbolic(int64_t value) const {
    const auto it = ints_.find(value);
    return it == ints_.end() ? SymExpr::integer(value) : it->second;
  }

 private:
  // Far above any size a graph spells out as a literal.
  static constexpr int64_t kSentinelBase = int64_t{1} << 52;
  std::unordered_map<const tensor::TensorImpl*, SymbolicMeta> tensors_;
  std::unordered_map<int64_t, SymExpr> ints_;
};

// Bound arguments whose tensors and size lists are symbolic; everything else reads the bound values.
class SymbolicArguments {
 public:
  SymbolicArguments(ops::Arguments bound, const StandIns& standIns) : bound_(std::move(bound)), standIns_(standIns) {
    for (size_t i = 0; i < bound_.size(); ++i) {
      tensors_.push_back(bound_[i].is_tensor() ? std::optional(standIns.symbolic(bound_.tensor(i))) : std::nullopt);
      std::vector<SymbolicTensor> list;
      if (bound_[i].is_tensor_list())
        for (const ops::Tensor& t : bound_.tensor_list(i)) list.push_back(standIns.symbolic(t));
      tensorLists_.push_back(std::move(list));
    }
  }

  const ops::FunctionSchema& schema() const { return bound_.schema(); }
  size_t size() const { return bound_.size(); }
  const IValue& operator[](size_t i) const { return bound_[i]; }
  const SymbolicTensor& tensor(size_t i) const { return tensors_.at(i).value(); }
  const std::vector<SymbolicTensor>& tensor_list(size_t i) const { return tensorLists_.at(i); }
  ops::Scalar scalar(size_t i) const { return bound_.scalar(i); }
  int64_t int_value(size_t i) const { return bound_.int_value(i); }
  std::optional<int64_t> optional_int(size_t i) const { return bound_.optional_int(i); }
  bool bool_value(size_t i) const { return bound_.bool_value(i); }
  double float_value(size_t i) const { return bound_.float_value(i); }
  // Dims and other int[] that are not sizes: a symbol there has no int to give.
  const std::vector<int64_t>& int_list(size_t i) const { return bound_.int_list(i); }
  std::optional<std::string> optional_string(size_t i) const { return bound_.optional_string(i); }
  std::optional<tensor::DType> optional_dtype(size_t i) const { return bound_.optional_dtype(i); }
  std::optional<tensor::Device> optional_device(size_t i) const { return bound_.optional_device(i); }

  // A SymInt argument (slice bounds, select's index, a step).
  SymExpr symbolicInt(size_t i) const { return standIns_.symbolic(bound_.int_value(i)); }
  std::optional<SymExpr> optionalSymbolicInt(size_t i) const {
    if (bound_[i].is_none()) return std::nullopt;
    return symbolicInt(i);
  }
  std::vector<SymExpr> sizes(size_t i) const {
    std::vector<SymExpr> out;
    for (int64_t value : bound_.int_list(i)) out.push_back(standIns_.symbolic(value));
    return out;
  }

 private:
  ops::Arguments bound_;
  const StandIns& standIns_;
  std::vector<std::optional<SymbolicTensor>> tensors_;
  std::vector<std::vector<SymbolicTensor>> tensorLists_;
};

// Found by the size-generic meta functions through argument-dependent lookup.
std::vector<SymExpr> size_list_argument(const SymbolicArguments& args, size_t i) { return args.sizes(i); }
SymExpr size_argument(const SymbolicArguments& args, size_t i) { return args.symbolicInt(i); }
std::optional<SymExpr> optional_size_argument(const SymbolicArguments& args, size_t i) { return args.optionalSymbolicInt(i); }

using SymbolicMetaFunction = std::vector<SymbolicMeta> (*)(const SymbolicArguments&);

SymbolicMetaFunction sizeGenericMeta(const ops::OpInfo& op) {
  static const std::unordered_map<ops::MetaFunction, SymbolicMetaFunction> byTableMeta = {
#define KILN_SIZE_GENERIC_META(Name) {&ops::Name, &ops::size_generic::Name<SymbolicArguments>},
#define KILN_SIZE_GENERIC_OP_META(Id, Name)
#include "libcompiler/ir/size_generic_meta_functions.def"
  };
  static const std::unordered_map<ops::OpId, SymbolicMetaFunction> byOp = {
#define KILN_SIZE_GENERIC_META(Name)
#define KILN_SIZE_GENERIC_OP_META(Id, Name) {ops::OpId::Id, &ops::size_generic::Name<SymbolicArguments>},
#include "libcompiler/ir/size_generic_meta_functions.def"
  };
  if (const auto it = byOp.find(op.id); it != byOp.end()) return it->second;
  if (!op.meta) return nullptr;
  const auto it = byTableMeta.find(op.meta);
  return it == byTableMeta.end() ? nullptr : it->second;
}

class Propagation {
 public:
  explicit Propagation(ShapePropagation& result) : result_(result) {}

  void run(const Graph& graph) {
    for (const Node* node : graph.nodes()) {
      if (node->op() != OpCode::CallFunction && node->op() != OpCode::CallMethod) {
        known_[node] = node->meta.value;
        continue;
      }
      try {
        FakeValue value = node->is(BuiltinTarget::Getitem) ? item(*node) : compute(*node);
        result_.values[node] = value;
        known_[node] = std::move(value);
      } catch (const Unsupported& e) {
        skip(*node, e.what());
      } catch (const tensor::TorchError& e) {
        skip(*node, e.what());
      }
    }
  }

 private:
  void skip(const Node& node, const std::string& why) {
    result_.skipped.emplace_back(&node, why);
    known_[&node] = node.meta.value;
  }

  IValue value(const Argument& argument, StandIns& standIns) const {
    const auto& v = argument.value;
    if (const auto* e = std::get_if<SymExpr>(&v)) return standIns.integer(*e);
    if (const auto* d = std::get_if<Dtype>(&v)) return IValue(requireTensorDtype(*d));
    if (auto literal = literalValue(argument)) return std::move(*literal);
    if (const auto* n = std::get_if<Node*>(&v)) {
      const auto it = known_.find(*n);
      const FakeValue* fake = it == known_.end() ? nullptr : &it->second;
      if (const auto* meta = fake ? std::get_if<TensorMeta>(fake) : nullptr) return standIns.tensor(*meta);
      if (const auto* scalar = fake ? std::get_if<SymScalar>(fake) : nullptr) return standIns.integer(scalar->expr);
      throw Unsupported("input '" + (*n)->name() + "' has no tensor or Sym value");
    }
    if (const auto* seq = std::get_if<ArgumentSequence>(&v)) {
      std::vector<IValue> items;
      for (const Argument& item : seq->items) items.push_back(value(item, standIns));
      if (std::all_of(items.begin(), items.end(), [](const IValue& i) { return i.is_int(); })) {
        IValue::IntList ints;
        for (const IValue& i : items) ints.push_back(i.to_int());
        return IValue(std::move(ints));
      }
      // bool[]: an output mask.
      if (!items.empty() && std::all_of(items.begin(), items.end(), [](const IValue& i) { return i.is_bool(); })) {
        std::vector<bool> bools;
        for (const IValue& i : items) bools.push_back(i.to_bool());
        return IValue(std::move(bools));
      }
      if (std::all_of(items.begin(), items.end(), [](const IValue& i) { return i.is_tensor(); })) {
        IValue::TensorList tensors;
        for (const IValue& i : items) tensors.push_back(i.to_tensor());
        return IValue(std::move(tensors));
      }
    }
    throw Unsupported("argument " + argument.repr() + " has no symbolic value");
  }

  // The op and its bound arguments, resolved as GraphInterpreter resolves the node's target.
  std::pair<const ops::OpInfo*, ops::Arguments> resolve(const Node& node, const std::vector<IValue>& args,
                                                        const std::vector<ops::KeywordArgument>& kwargs) const {
    const std::string& target = node.target();
    if (node.op() == OpCode::CallMethod) return ops::resolve_overload(target, args, kwargs);
    if (namesTableOp(node)) {
      const ops::OpInfo* op = tableOp(node);
      if (!op) throw Unsupported("not in the op table");
      return {op, ops::bind_arguments(op->schema, args, kwargs, ops::NoneForTensor::Undefined)};
    }
    const std::string name = opNameForTarget(target);
    if (name.empty()) throw Unsupported("no op for this target (interpreter_targets.def)");
    return ops::resolve_overload(name, args, kwargs);
  }

  // getitem of a tuple-valued node (var_mean, native_layer_norm): that element's value.
  FakeValue item(const Node& node) const {
    const Node* tuple = node.args().at(0).asNode();
    const auto* index = std::get_if<int64_t>(&node.args().at(1).value);
    const auto it = tuple && index ? known_.find(tuple) : known_.end();
    const auto* elements = it == known_.end() ? nullptr : std::get_if<TensorTuple>(&it->second);
    if (!elements || *index < 0 || static_cast<size_t>(*index) >= elements->elements.size())
      throw Unsupported("getitem of a value that is not a known tuple");
    return elements->elements[static_cast<size_t>(*index)];
  }

  FakeValue compute(const Node& node) const {
    StandIns standIns;
    std::vector<IValue> args;
    for (const Argument& a : node.args()) args.push_back(value(a, standIns));
    std::vector<ops::KeywordArgument> kwargs;
    for (const KeywordArgument& kw : node.kwargs()) kwargs.push_back({kw.name, value(kw.value, standIns)});
    auto [op, bound] = resolve(node, args, kwargs);
    const SymbolicMetaFunction meta = sizeGenericMeta(*op);
    if (!meta) throw Unsupported(op->qualified_name() + ": its meta function is not size-generic");
    const std::vector<SymbolicMeta> metas = meta(SymbolicArguments(std::move(bound), standIns));
    const auto& returns = op->schema.returns;
    if (returns.size() == 1 && !returns[0].type.is_list) return irMeta(metas.at(0));
    TensorTuple tuple;
    for (const SymbolicMeta& m : metas) tuple.elements.push_back(irMeta(m));
    return tuple;
  }

  ShapePropagation& result_;
  std::unordered_map<const Node*, FakeValue> known_;
};

}  // namespace

ShapePropagation propagateSymbolicShapes(const Graph& graph) {
  ShapePropagation result;
  Propagation(result).run(graph);
  return result;
}

}  // namespace kiln::ir
