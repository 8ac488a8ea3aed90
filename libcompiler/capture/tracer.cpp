#include "libcompiler/capture/tracer.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/ir/python_operators.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/python/ast_unparse.h"
#include "libdiag/log/logger.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::capture {

using namespace python;

namespace {

// Python operators on tensors, as Dynamo records them: operator.<name>; reflected dunders are
// recorded with their operands in source order.
struct OperatorTarget {
  const char* target;
  bool reflected;
};
const std::unordered_map<std::string, OperatorTarget>& operator_targets() {
  static const std::unordered_map<std::string, OperatorTarget> table = {
      {"__add__", {"operator.add", false}},       {"__radd__", {"operator.add", true}},
      {"__sub__", {"operator.sub", false}},       {"__rsub__", {"operator.sub", true}},
      {"__mul__", {"operator.mul", false}},       {"__rmul__", {"operator.mul", true}},
      {"__truediv__", {"operator.truediv", false}}, {"__rtruediv__", {"operator.truediv", true}},
      {"__floordiv__", {"operator.floordiv", false}}, {"__mod__", {"operator.mod", false}},
      {"__pow__", {"operator.pow", false}},       {"__rpow__", {"operator.pow", true}},
      {"__matmul__", {"operator.matmul", false}}, {"__rmatmul__", {"operator.matmul", true}},
      {"__lt__", {"operator.lt", false}},         {"__le__", {"operator.le", false}},
      {"__gt__", {"operator.gt", false}},         {"__ge__", {"operator.ge", false}},
      {"__eq__", {"operator.eq", false}},         {"__ne__", {"operator.ne", false}},
      {"__and__", {"operator.and_", false}},      {"__or__", {"operator.or_", false}},
      {"__xor__", {"operator.xor", false}},       {"__neg__", {"operator.neg", false}},
      {"__invert__", {"operator.invert", false}}, {"__pos__", {"operator.pos", false}},
      {"__iadd__", {"operator.iadd", false}},     {"__isub__", {"operator.isub", false}},
      {"__imul__", {"operator.imul", false}},     {"__itruediv__", {"operator.itruediv", false}},
      {"__getitem__", {"operator.getitem", false}}, {"__setitem__", {"operator.setitem", false}},
  };
  return table;
}

// Tensor methods and properties that read only metadata: they run on the fake as they are.
const std::unordered_set<std::string>& metadata_methods() {
  static const std::unordered_set<std::string> names = {
      "size", "dim", "numel", "shape", "dtype", "device", "ndim", "is_leaf", "is_cuda", "requires_grad", "grad",
      "is_floating_point", "__len__", "__hash__", "__getattr__", "stride", "nelement"};
  return names;
}

// Tensor methods that read a tensor's data.
const std::unordered_set<std::string>& data_methods() {
  static const std::unordered_set<std::string> names = {"tolist", "__float__", "__int__", "__index__", "__repr__",
                                                        "__str__", "__format__", "__iter__", "numpy"};
  return names;
}

// Methods of builtin containers that change them.
const std::unordered_set<std::string>& mutating_methods() {
  static const std::unordered_set<std::string> names = {
      "list.append", "list.extend", "list.insert", "list.pop",     "list.remove", "list.clear",     "list.sort",
      "list.reverse", "dict.update", "dict.pop",   "dict.popitem", "dict.clear",  "dict.setdefault", "set.add",
      "set.discard",  "set.remove",  "set.update", "set.clear",    "set.pop"};
  return names;
}

// Calls whose result depends on which keys a dict has.
const std::unordered_set<std::string>& dict_reads() {
  static const std::unordered_set<std::string> names = {"len", "dict.get", "dict.setdefault", "dict.keys", "dict.items",
                                                        "dict.values", "dict.pop", "dict.__contains__"};
  return names;
}

// torch functions that compute nothing a graph needs: they run as they are.
const std::unordered_set<std::string>& eager_torch_functions() {
  static const std::unordered_set<std::string> names = {"is_grad_enabled", "is_tensor", "numel", "typename",
                                                        "initial_seed", "get_default_dtype", "is_floating_point"};
  return names;
}

// Python functions of torch.nn.functional that PyTorch implements in C++: Dynamo prints them
// under their torch._C._nn names.
const std::unordered_map<std::string, std::string>& functional_targets() {
  static const std::unordered_map<std::string, std::string> names = {{"linear", "torch._C._nn.linear"},
                                                                    {"gelu", "torch._C._nn.gelu"}};
  return names;
}

std::string module_name_of(const FunctionObject& f) {
  if (!f.globals) return "";
  Ref name = f.globals->get("__name__");
  return name && name->kind == ObjectKind::Str ? as<StrObject>(name).value : "";
}

std::string argument_types(const CallArgs& args) {
  std::string out = "[";
  for (size_t i = 0; i < args.args.size(); ++i) out += (i ? ", '" : "'") + args.args[i]->type->name + "'";
  return out + "]";
}

std::string function_repr(const Ref& f) {
  char address[32];
  std::snprintf(address, sizeof address, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(f.get())));
  return "<function " + as<FunctionObject>(f).qualname + " at " + address + ">";
}

std::string trimmed(std::string_view text) {
  size_t start = text.find_first_not_of(" \t");
  if (start == std::string_view::npos) return "";
  size_t end = text.find_last_not_of(" \t\r");
  return std::string(text.substr(start, end - start + 1));
}

}  // namespace

bool is_library_code(const FunctionObject& function) {
  std::string module = module_name_of(function);
  return module == "torch" || module.rfind("torch.", 0) == 0;
}

bool is_module_instance(const Ref& value) {
  return value->kind == ObjectKind::Instance && as<InstanceObject>(value).dict.count("_parameters");
}

bool is_optimizer(const Ref& value) {
  if (value->kind != ObjectKind::Instance) return false;
  for (const TypeObject* base : value->type->mro)
    if (base->name == "Optimizer" && base->module == "torch.optim.optimizer") return true;
  return false;
}

bool compiles_as_frame(const FunctionObject& function) {
  if (!is_library_code(function)) return true;
  std::string module = module_name_of(function);
  return module.rfind("torch.optim.", 0) == 0 && module != "torch.optim.lr_scheduler";
}

Tracer::Tracer(OutputGraph& graph, Frame& root, std::string root_name, TracerConfig config)
    : graph_(&graph), root_(root), root_name_(std::move(root_name)), config_(config) {
  graph.watch_changes(&side_effects_);
}

bool Tracer::in_root_frame(Interpreter& interp) const { return interp.current_frame() == &root_; }

const Frame* Tracer::user_frame(Interpreter& interp) const {
  for (const Frame* f = interp.current_frame(); f; f = f->back) {
    if (f == &root_) return f;
    if (f->function && !is_library_code(*f->function) && f->where) return f;
  }
  return &root_;
}

std::optional<std::string> Tracer::node_site(Interpreter& interp) const {
  const Frame* frame = user_frame(interp);
  const Node* where = frame->where;
  if (!where || !where->loc.file) return std::nullopt;
  std::string name = frame == &root_ ? root_name_ : frame->code->name;
  return "File: " + where->loc.file->name() + ":" + std::to_string(where->loc.line) + " in " + name +
         ", code: " + trimmed(where->loc.file->line_text(where->loc.line));
}

std::string Tracer::guard_site(Interpreter& interp) const {
  const Frame* frame = user_frame(interp);
  const Node* where = frame->where;
  if (!where || !where->loc.file) return "";
  std::string file = where->loc.file->name();
  if (!file.empty() && file[0] == '/') file.erase(0, 1);
  std::string name = frame == &root_ ? root_name_ : frame->code->name;
  return trimmed(where->loc.file->line_text(where->loc.line)) + "  # " + file + ":" + std::to_string(where->loc.line) +
         " in " + name;
}

std::vector<UserFrame> Tracer::user_stack(Interpreter& interp) const {
  std::vector<UserFrame> frames;
  for (const Frame* f = interp.current_frame(); f; f = f->back) {
    if (!f->where || !f->where->loc.file || (f != &root_ && f->function && is_library_code(*f->function))) continue;
    const auto& loc = f->where->loc;
    frames.push_back({loc.file->name(), static_cast<int>(loc.line), f->code->name, trimmed(loc.file->line_text(loc.line)), f == &root_});
  }
  return {frames.rbegin(), frames.rend()};
}

void Tracer::break_graph(Interpreter& interp, GraphBreak graph_break, bool at_branch) {
  graph_break.user_stack = user_stack(interp);
  if (at_branch && in_root_frame(interp) && !in_root_call_ && statement_ && statement_->kind == NodeKind::If &&
      stack_.empty()) {
    site_.kind = BreakSite::Kind::Branch;
    site_.statement = statement_;
    site_.line = static_cast<int>(statement_->loc.line);
  }
  throw graph_break;
}

Ref Tracer::call_through(Interpreter& interp, const Ref& callee, CallArgs& args) {
  pass_through_ = true;
  return call(interp, callee, std::move(args));
}

Ref Tracer::intercept(Interpreter& interp, const Ref& callee, CallArgs& args) {
  if (pass_through_) {
    pass_through_ = false;
    return nullptr;
  }
  bool root_call = !in_root_call_ && in_root_frame(interp) && !stack_.empty() && stack_.back()->kind == NodeKind::Call;
  if (!root_call) return dispatch(interp, callee, args);
  // A call the frame itself makes: if anything inside it breaks, the break is this call (Dynamo
  // restarts the analysis and leaves the whole call out of the graph).
  in_root_call_ = true;
  OutputGraph::Checkpoint checkpoint = graph_->checkpoint();
  size_t reordered = reordered_.size();
  CallArgs original = args;
  try {
    Ref result = dispatch(interp, callee, args);
    if (!result) result = call_through(interp, callee, args);
    in_root_call_ = false;
    return result;
  } catch (GraphBreak&) {
    in_root_call_ = false;
    if (site_.kind == BreakSite::Kind::Elsewhere) {
      graph_->rollback(checkpoint);
      reordered_.resize(reordered);
      site_.kind = BreakSite::Kind::Call;
      site_.statement = statement_;
      site_.call = stack_.back();
      site_.callee = callee;
      site_.args = std::move(original);
      site_.line = static_cast<int>(site_.call->loc.line);
      std::unordered_set<const Expression*> ancestors(stack_.begin(), stack_.end() - 1);
      for (const Evaluated& e : evaluated_)
        if (e.parent && ancestors.count(e.parent)) site_.stack.emplace_back(e.expr, e.value);
    }
    throw;
  } catch (...) {
    in_root_call_ = false;
    throw;
  }
}

Ref Tracer::record_call(Interpreter& interp, const NodeTarget& target, const Ref& callee, CallArgs& args, bool reflected) {
  CallArgs fake = graph_->fake_arguments(args);
  Ref result;
  {
    HookScope suspended(interp, nullptr);
    result = call(interp, callee, fake);
  }
  bool has_tensor = is_tensor(result) ||
                    ((result->kind == ObjectKind::Tuple || result->kind == ObjectKind::List) && len(interp, result) > 0 &&
                     is_tensor(to_vector(interp, result).front()));
  // A store into a tensor (v[1:] = -2.0) returns None and is the whole point of the call.
  const auto python_operator = ir::operatorForTarget(target.target);
  const bool stores = python_operator && python_operator->form == ir::OperatorForm::SubscriptStore;
  if (!has_tensor && !stores) return result;
  std::vector<Ref> printed = args.args;
  if (reflected && printed.size() == 2) std::swap(printed[0], printed[1]);
  return graph_->record(target, printed, args.kwargs, callee, args, result);
}

Ref Tracer::tensor_method(Interpreter& interp, const std::string& method, const Ref& callee, CallArgs& args) {
  if (args.args.empty() || !is_tensor(args.args[0])) return nullptr;
  if (metadata_methods().count(method)) {
    if (method == "size" || method == "shape" || method == "numel" || method == "__len__" || method == "stride" ||
        method == "nelement") {
      graph_->fake_of(args.args[0]);  // an input read first: its sizes get their symbols now
      graph_->pin_dynamic_sizes();
    }
    return nullptr;
  }
  if (method == "item") {
    if (config_.capture_scalar_outputs) return graph_->scalar_item(graph_->fake_of(args.args[0]), callee);
    break_graph(interp, GraphBreak(BreakKind::Item, {}, "call_method TensorVariable() item () {}"));
  }
  // The base of a traced view is a value the graph does not name (kiln's fakes are not the
  // frame's tensors): `v._base is x` would be decided, wrongly, at capture.
  if (method == "_base")
    break_graph(interp, GraphBreak(BreakKind::Unsupported, {"Tensor._base (the base of a view is not traced)"}, ""));
  if (method == "requires_grad_" || method == "retain_grad")
    break_graph(interp, GraphBreak(BreakKind::Unsupported, {"Tensor." + method + "() (it changes autograd state a graph does not replay)"}, ""));
  if (method == "backward")
    break_graph(interp, GraphBreak(BreakKind::Backward, {}, "call_method TensorVariable() backward None None None None"));
  if (method == "__bool__") {
    site_.condition = args.args[0];
    break_graph(interp, GraphBreak(BreakKind::DataDependentBranch, {}, "attempted to jump with TensorVariable()"), true);
  }
  if (data_methods().count(method))
    break_graph(interp, GraphBreak(BreakKind::TensorData, {method}, "call_method TensorVariable() " + method));
  if (auto op = operator_targets().find(method); op != operator_targets().end())
    return record_call(interp, {ir::OpCode::CallFunction, op->second.target}, callee, args, op->second.reflected);
  return record_call(interp, {ir::OpCode::CallMethod, method}, callee, args, false);
}

Ref Tracer::dispatch(Interpreter& interp, const Ref& callee, CallArgs& args) {
  for (const Ref& f : config_.reorderable_logging_functions)
    if (f == callee) {
      reordered_.push_back({callee, args});
      return none();
    }
  switch (callee->kind) {
    case ObjectKind::NativeFunction: {
      const auto& native = as<NativeFunctionObject>(callee);
      const std::string& q = native.qualname;
      if (q.rfind("Tensor.", 0) == 0) return tensor_method(interp, q.substr(7), callee, args);
      if (q.rfind("torch.", 0) == 0) {
        std::string name = q.substr(6);
        if (eager_torch_functions().count(name)) return nullptr;
        if (name == "manual_seed")
          break_graph(interp, GraphBreak(BreakKind::Unsupported, {"torch.manual_seed() inside a compiled region"}, ""));
        if (name == "_set_grad_enabled" || name == "_log_api_usage_once") {
          // Recorded for the graph and done now, so that what follows is traced in that mode
          // (call_through consumes the arguments the node is recorded with).
          CallArgs recorded = args;
          Ref result = call_through(interp, callee, args);
          graph_->record({ir::OpCode::CallFunction, "torch._C." + name, name == "_log_api_usage_once"}, recorded.args,
                         recorded.kwargs, callee, recorded, result);
          return result;
        }
        return record_call(interp, {ir::OpCode::CallFunction, q}, callee, args, false);
      }
      if (dict_reads().count(q) && !args.args.empty() && args.args[0]->kind == ObjectKind::Dict) guard_dict_keys(interp, args.args[0]);
      if (mutating_methods().count(q) && !args.args.empty()) mutating(interp, args.args[0]);
      if (q == "print")
        break_graph(interp, GraphBreak(BreakKind::BuiltinCall, {"print", argument_types(args), args.kwargs.empty() ? "False" : "True"},
                                       "builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] " +
                                           std::string(args.kwargs.empty() ? "False" : "True")));
      if (q == "deepcopy") break_graph(interp, GraphBreak(BreakKind::Deepcopy, {}, "copy.deepcopy(TensorVariable())"));
      return nullptr;
    }
    case ObjectKind::Function: {
      const auto& f = as<FunctionObject>(callee);
      if (f.attrs.count("_torchdynamo_disable")) {
        // torch disables its own functions (Optimizer.zero_grad) through a wrapper in a file
        // Dynamo skips: the break is that skip.
        if (is_library_code(f))
          break_graph(interp, GraphBreak(BreakKind::SkippedFunction, {f.qualname},
                                         "qualname: " + f.qualname +
                                             ", name: inner, skip reason: skipped according trace_rules.lookup MOD_SKIPLIST"));
        break_graph(interp, GraphBreak(BreakKind::DisabledFunction, {function_repr(callee)}, function_repr(callee)));
      }
      std::string module = module_name_of(f);
      if (module == "torch.compiler" && f.name == "is_compiling") return py_bool(true);
      if (f.name == "_init_group" && !args.args.empty() && is_optimizer(args.args[0])) {
        // Dynamo runs an optimizer's _init_group eagerly rather than tracing it (PyTorch's
        // OptimizerVariable): the state it creates the first time is real, and the update that
        // follows reads it (and the parameters' gradients) as graph inputs.
        const Ref optimizer = args.args[0];
        Ref result;
        {
          HookScope eager(interp, nullptr);
          result = call(interp, callee, std::move(args));
        }
        guard_optimizer_state(interp, optimizer);
        return result;
      }
      if (module == "torch" && f.name == "cond") return trace_cond(interp, args);
      if (module == "torch._tensor" && f.name == "backward")
        break_graph(interp, GraphBreak(BreakKind::Backward, {}, "call_method TensorVariable() backward None None None None"));
      if (module == "torch.nn.functional" && !f.name.empty() && f.name[0] != '_') {
        auto mapped = functional_targets().find(f.name);
        std::string target = mapped != functional_targets().end() ? mapped->second : "torch.nn.functional." + f.name;
        return record_call(interp, {ir::OpCode::CallFunction, target}, callee, args, false);
      }
      if (module == "torch._dynamo" && f.name == "graph_break")
        break_graph(interp, GraphBreak(BreakKind::UserGraphBreak, {"None"}, "Called `torch._dynamo.graph_break()` with args `[]`, kwargs `{}`"));
      return nullptr;
    }
    case ObjectKind::Type: {
      if (callee.get() == torch_types().parameter) break_graph(interp, GraphBreak(BreakKind::ParameterConstructor, {}, ""));
      // Dynamo builds weighted loss modules (CrossEntropyLoss, NLLLoss) without tracing their
      // constructors: their graphs have no usage-log node, unlike those of other modules.
      for (const TypeObject* base : as<TypeObject>(callee).mro)
        if (base->name == "_WeightedLoss" && base->module == "torch.nn") {
          HookScope suspended(interp, nullptr);
          return call(interp, callee, std::move(args));
        }
      return nullptr;
    }
    case ObjectKind::Instance:
      if (is_module_instance(callee)) graph_->realize_parameters(callee);
      return nullptr;
    default: return nullptr;
  }
}

Ref Tracer::trace_cond(Interpreter& interp, CallArgs& args) {
  auto a = bind_native("cond", args, {{"pred"}, {"true_fn"}, {"false_fn"}, {"operands", false}});
  if (!is_tensor(a[0])) return nullptr;  // a Python bool: the branch it picks runs as Python
  Ref pred = graph_->fake_of(a[0]);
  std::vector<Ref> operands = a[3] ? to_vector(interp, a[3]) : std::vector<Ref>{};
  for (auto& operand : operands)
    if (is_tensor(operand)) operand = graph_->fake_of(operand);
  OutputGraph& parent = *graph_;
  // Each branch becomes a graph of its own, traced on fakes of the operands.
  auto branch = [&](const Ref& fn, const std::string& name, Ref& result) {
    GuardSet unused_guards;
    ShapeEnv unused_shapes(false);
    OutputGraph sub(interp, unused_guards, unused_shapes, {[&] { return node_site(interp); }, nullptr}, name);
    std::vector<Ref> inner;
    for (const auto& operand : operands) inner.push_back(is_tensor(operand) ? sub.subgraph_input(operand) : operand);
    graph_ = &sub;
    try {
      result = call(interp, fn, inner);
    } catch (...) {
      graph_ = &parent;
      throw;
    }
    graph_ = &parent;
    std::vector<const ir::Node*> outputs;
    for (const auto& r : result->kind == ObjectKind::Tuple || result->kind == ObjectKind::List ? to_vector(interp, result) : std::vector<Ref>{result})
      if (OutputGraph::is_fake(r)) outputs.push_back(OutputGraph::node_of(r));
    sub.set_output(outputs);
    return parent.add_submodule(name, sub.take_module(), fn);
  };
  Ref true_result, false_result;
  ir::Node* true_node = branch(a[1], parent.submodule_name("cond_true"), true_result);
  ir::Node* false_node = branch(a[2], parent.submodule_name("cond_false"), false_result);
  // The result: fresh fakes shaped as the true branch's outputs.
  std::vector<Ref> results;
  for (const auto& r : true_result->kind == ObjectKind::Tuple ? to_vector(interp, true_result) : std::vector<Ref>{true_result}) {
    const tensor::Tensor& t = static_cast<TensorObject&>(*r).value;
    results.push_back(wrap_tensor(ops::allocate_outputs({ops::TensorMeta{t.sizes(), t.strides(), t.dtype(), tensor::Device{tensor::DeviceType::Meta}}}).at(0)));
  }
  std::vector<ir::Argument> operand_args;
  ReplayValue operand_replay{ReplayValue::Kind::Tuple, nullptr, nullptr, {}};
  for (const auto& operand : operands) {
    operand_args.push_back(ir::Argument::node(OutputGraph::node_of(operand)));
    operand_replay.items.push_back(ReplayValue{ReplayValue::Kind::Node, OutputGraph::node_of(operand), nullptr, {}});
  }
  // Run eagerly, the node picks a branch by the predicate's value and returns its outputs as a tuple.
  Ref runner = native_function("cond", [](Interpreter& ip, CallArgs& c) {
    Ref out = call(ip, truthy(ip, c.args.at(0)) ? c.args.at(1) : c.args.at(2), to_vector(ip, c.args.at(3)));
    return out->kind == ObjectKind::Tuple ? out : py_tuple({out});
  });
  auto node_value = [](const ir::Node* n) { return ReplayValue{ReplayValue::Kind::Node, n, nullptr, {}}; };
  ReplayCall replay{runner, {node_value(OutputGraph::node_of(pred)), node_value(true_node), node_value(false_node), operand_replay}, {}, std::nullopt};
  Ref out = graph_->record_node({ir::OpCode::CallFunction, "torch.ops.higher_order.cond"},
                               {ir::Argument::node(OutputGraph::node_of(pred)), ir::Argument::node(true_node),
                                ir::Argument::node(false_node), ir::Argument::tuple(std::move(operand_args))},
                               std::move(replay), py_tuple(std::move(results)), static_cast<TensorObject&>(*pred).device());
  return true_result->kind == ObjectKind::Tuple ? out : to_vector(interp, out).at(0);
}

void Tracer::mutating(Interpreter& interp, const Ref& target) {
  if (target->kind != ObjectKind::Instance && target->kind != ObjectKind::List && target->kind != ObjectKind::Dict &&
      target->kind != ObjectKind::Set)
    return;
  SourceRef source = find_source(interp, graph_->frame_inputs(), target);
  if (!source) return;  // made by the frame itself
  // Changes to an object that outlives the frame are replayed after the graph (side_effects.h);
  // a set's are not.
  if (target->kind == ObjectKind::Set)
    break_graph(interp, GraphBreak(BreakKind::Unsupported, {"changing the set " + source->text()}, ""));
  side_effects_.changing(target, source);
}

Ref Tracer::symbolic_stand_in(const SourceRef& source, const Ref& value) {
  if (value->kind != ObjectKind::Float || !config_.dynamic_floats.count(source->text())) return nullptr;
  auto& stand_in = symbolic_floats_[source->text()];
  if (!stand_in) {
    stand_in = std::make_shared<SymbolicScalarObject>(source, as<FloatObject>(value).value);
    Guard type(GuardKind::TypeMatch, source, builtin_type_ref(value->type));
    type.value_type = "float";
    graph_->guards().add(std::move(type));
  }
  return stand_in;
}

Ref Tracer::read_global(Interpreter& interp, const DictObject& globals, const std::string& name, const Ref& value) {
  // Globals of the compiled frame's module, and the builtins it calls, that the code read: the
  // graph assumes them.
  SourceRef source;
  if (&globals == graph_->frame_inputs().globals.get()) source = Source::global(name);
  else if (&globals == &interp.builtins() && value->kind == ObjectKind::NativeFunction)
    source = Source::item(Source::builtins(), py_str(name));
  if (!source || is_tensor(value)) return nullptr;
  if (Ref stand_in = symbolic_stand_in(source, value)) return stand_in;
  GuardSet& guards = graph_->guards();
  size_t before = guards.size();
  guard_value(guards, source, value);
  std::vector<UserFrame> stack = user_stack(interp);
  if (guards.size() > before && !stack.empty()) guards.attribute(before, guard_site(interp), stack.back());
  return nullptr;
}

Ref Tracer::read_attribute(Interpreter& interp, const Ref& object, const std::string& name, const Ref& value) {
  // A constant attribute of an object the frame can reach (self.scale, config.depth) is guarded,
  // and so is a function read from a module the frame names (torch.abs).
  bool constant = is_guarded_constant(value);
  bool module_function = object->kind == ObjectKind::Module &&
                         (value->kind == ObjectKind::NativeFunction || value->kind == ObjectKind::Function);
  if (!(constant && object->kind == ObjectKind::Instance) && !module_function) return nullptr;
  SourceRef base = source_of(interp, object);
  if (!base) return nullptr;
  SourceRef source = Source::attribute(base, name);
  if (Ref stand_in = symbolic_stand_in(source, value)) return stand_in;
  // An attribute the frame already changed is what the frame made: the guard is on the value the
  // frame started with, or none if the frame added the attribute.
  Ref guarded = value;
  if (const SideEffects::Snapshot* original = side_effects_.original(object.get())) {
    auto it = original->attributes.find(name);
    if (it == original->attributes.end()) return nullptr;
    guarded = it->second;
    if (!is_guarded_constant(guarded) && !module_function) return nullptr;
  }
  guard_read(interp, Guard(constant ? GuardKind::EqualsMatch : GuardKind::IdMatch, source, guarded));
  return nullptr;
}

Ref Tracer::read_item(Interpreter& interp, const Ref& container, const Ref& key, const Ref& value) {
  // A constant read from a dict or list the frame can reach (group["lr"], cfg["depth"]) is
  // guarded, as Dynamo guards the items it reads.
  bool constant = is_guarded_constant(value);
  bool keyed = key->kind == ObjectKind::Str || key->kind == ObjectKind::Int;
  if (!constant || !keyed || (container->kind != ObjectKind::Dict && container->kind != ObjectKind::List)) return nullptr;
  SourceRef base = source_of(interp, container);
  if (!base) return nullptr;
  SourceRef source = Source::item(base, key);
  if (Ref stand_in = symbolic_stand_in(source, value)) return stand_in;
  guard_read(interp, Guard(GuardKind::EqualsMatch, source, value));
  return nullptr;
}

void Tracer::guard_dict_keys(Interpreter& interp, const Ref& dict) {
  // The code read which keys a dict the frame can reach has (their number, one of them, all of
  // them): it stays with the keys it had when the frame started, the same objects in the same
  // order (tensor keys by identity).
  SourceRef source = source_of(interp, dict);
  if (!source) return;
  std::vector<std::pair<Ref, Ref>> entries;
  if (const SideEffects::Snapshot* original = side_effects_.original(dict.get())) entries = original->entries;
  else
    for (const auto* e : as<DictObject>(dict).entries()) entries.emplace_back(e->key, e->value);
  bool spelled = std::all_of(entries.begin(), entries.end(), [](const auto& e) {
    return e.first->kind == ObjectKind::Str || e.first->kind == ObjectKind::Int;
  });
  if (spelled) {
    Guard keys(GuardKind::DictKeys, source, dict);
    for (const auto& e : entries) keys.keys.push_back(e.first);
    guard_read(interp, std::move(keys));
    return;
  }
  Guard length(GuardKind::LengthCheck, source, dict);
  length.length = static_cast<int64_t>(entries.size());
  guard_read(interp, std::move(length));
  for (size_t i = 0; i < entries.size(); ++i) guard_read(interp, Guard(GuardKind::IdMatch, Source::dict_key(source, i), entries[i].first));
}

void Tracer::guard_optimizer_state(Interpreter& interp, const Ref& optimizer) {
  // What the update found in each parameter's state (a momentum buffer or none yet) decided the
  // code traced: the state keeps its parameters and each parameter's entry its keys.
  Ref state = try_getattr(interp, optimizer, "state");
  if (!state || state->kind != ObjectKind::Dict) return;
  guard_dict_keys(interp, state);
  for (const auto* e : as<DictObject>(state).entries())
    if (e->value->kind == ObjectKind::Dict) guard_dict_keys(interp, e->value);
}

SourceRef Tracer::source_of(Interpreter& interp, const Ref& object) {
  auto cached = sources_.find(object.get());
  if (cached == sources_.end()) cached = sources_.emplace(object.get(), find_source(interp, graph_->frame_inputs(), object)).first;
  return cached->second;
}

void Tracer::guard_read(Interpreter& interp, Guard guard) {
  guard.value_type = guard.expected->type->qualified_name();
  guard.user_code = guard_site(interp);
  std::vector<UserFrame> stack = user_stack(interp);
  if (!stack.empty()) guard.user_frame = stack.back();
  graph_->guards().add(std::move(guard));
}

void Tracer::stored(const std::string& name, const Ref& value) { graph_->name_hint(name, value); }

Ref Tracer::replay(const Expression& expr) {
  if (replay_.empty()) return nullptr;
  auto it = replay_.find(&expr);
  if (it == replay_.end()) return nullptr;
  Ref value = std::move(it->second);
  replay_.erase(it);
  evaluated_.push_back({&expr, value, stack_.empty() ? nullptr : stack_.back()});
  return value;
}

void Tracer::enter(const Expression& expr) {
  stack_.push_back(&expr);
  // Kiln traces the tree, not bytecode: the trace_bytecode log names each expression it evaluates.
  if (log::is_enabled(log::Artifact::trace_bytecode))
    log::emit(log::Artifact::trace_bytecode, log::Level::Debug, {"torch/_dynamo/symbolic_convert.py", 1414}, config_.compile_id,
              "TRACE " + std::string(python_name(expr.kind)) + " " + unparse(expr));
}

void Tracer::leave(const Expression& expr, const Ref& value) {
  if (!stack_.empty() && stack_.back() == &expr) stack_.pop_back();
  evaluated_.push_back({&expr, value, stack_.empty() ? nullptr : stack_.back()});
}

void Tracer::statement(const Statement& stmt) {
  if (log::is_enabled(log::Artifact::trace_source) && stmt.loc.file && (!statement_ || statement_->loc.line != stmt.loc.line)) {
    std::string_view line = stmt.loc.file->line_text(stmt.loc.line);
    log::emit(log::Artifact::trace_source, log::Level::Debug, {"torch/_dynamo/symbolic_convert.py", 1378}, config_.compile_id,
              "TRACE starts_line " + stmt.loc.file->name() + ":" + std::to_string(stmt.loc.line) + "\n    " +
                  std::string(line.substr(0, line.find_last_not_of(" \t\r") + 1)));
  }
  statement_ = &stmt;
  stack_.clear();
  evaluated_.clear();
}

void Tracer::set_replay(std::vector<std::pair<const Expression*, Ref>> values) {
  for (auto& [expr, value] : values) replay_[expr] = std::move(value);
}

}  // namespace kiln::capture
