#include "libcompiler/capture/tracer.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/ir/python_operators.h"
#include "libcompiler/ops/autocast.h"
#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libdiag/log/logger.h"

namespace kiln::capture {

using namespace python;

namespace {

// The device a call's fakes stand for: CUDA where any of them (or of a list's) does. Autocast casts
// by it, as it would the real tensors.
tensor::DeviceType device_of_fakes(const CallArgs& fake) {
  auto on_cuda = [](const Ref& value) {
    return is_tensor(value) && static_cast<TensorObject&>(*value).device().type == tensor::DeviceType::CUDA;
  };
  auto any_on_cuda = [&](const Ref& value) {
    if (on_cuda(value)) return true;
    if (!is_list_or_tuple(value)) return false;
    const auto& items = sequence_items(value);
    return std::any_of(items.begin(), items.end(), on_cuda);
  };
  bool cuda = std::any_of(fake.args.begin(), fake.args.end(), any_on_cuda);
  for (const auto& [name, value] : fake.kwargs) cuda = cuda || any_on_cuda(value);
  return cuda ? tensor::DeviceType::CUDA : tensor::DeviceType::CPU;
}

std::string module_name_of(const FunctionObject& f) {
  if (!f.globals) return "";
  Ref name = f.globals->get("__name__");
  return name && name->kind == ObjectKind::Str ? as<StrObject>(name).value : "";
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

bool is_library_code(const FunctionObject& function) { return is_torch_module_name(module_name_of(function)); }

bool is_module_instance(const Ref& value) {
  return value->kind == ObjectKind::Instance && as<InstanceObject>(value).dict.count("_parameters");
}

bool compiles_as_frame(const FunctionObject& function) {
  if (!is_library_code(function)) return true;
  static const std::vector<std::pair<std::string_view, bool>> rows = {
#define KILN_LIBRARY_FRAMES(Module, CompilesAsFrame) {Module, CompilesAsFrame},
#include "libcompiler/capture/call_rules.def"
  };
  const std::string module = module_name_of(function);
  // The longest row that is the module or a package above it decides.
  std::optional<std::pair<std::string_view, bool>> best;
  for (const auto& row : rows) {
    const bool within = module == row.first || (module.starts_with(row.first) && module[row.first.size()] == '.');
    if (within && (!best || row.first.size() > best->first.size())) best = row;
  }
  return best && best->second;
}

Tracer::Tracer(const CallRules& rules, OutputGraph& graph, Frame& root, std::string root_name, TracerConfig config)
    : rules_(rules), graph_(&graph), root_(root), root_name_(std::move(root_name)), config_(config) {
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
    ops::MetaTensorsStandFor autocast_device(device_of_fakes(fake));
    result = call(interp, callee, fake);
  }
  bool has_tensor = is_tensor(result) ||
                    (is_list_or_tuple(result) && len(interp, result) > 0 &&
                     is_tensor(to_vector(interp, result).front()));
  // A store into a tensor (v[1:] = -2.0) returns None and is the whole point of the call.
  const auto python_operator = ir::operatorForTarget(target.target);
  const bool stores = python_operator && python_operator->form == ir::OperatorForm::SubscriptStore;
  if (!has_tensor && !stores) return result;
  std::vector<Ref> printed = args.args;
  if (reflected && printed.size() == 2) std::swap(printed[0], printed[1]);
  return graph_->record(target, printed, args.kwargs, result);
}

Ref Tracer::dispatch(Interpreter& interp, const Ref& callee, CallArgs& args) {
  for (const Ref& f : config_.reorderable_logging_functions)
    if (f == callee) {
      reordered_.push_back({callee, args});
      return none();
    }
  if (callee->kind == ObjectKind::Function && as<FunctionObject>(callee).attrs.count("_torchdynamo_disable")) {
    const auto& f = as<FunctionObject>(callee);
    // torch disables its own functions (Optimizer.zero_grad) through a wrapper in a file Dynamo
    // skips: the break is that skip.
    if (is_library_code(f))
      break_graph(interp, GraphBreak(BreakKind::SkippedFunction, {f.qualname},
                                     "qualname: " + f.qualname +
                                         ", name: inner, skip reason: skipped according trace_rules.lookup MOD_SKIPLIST"));
    break_graph(interp, GraphBreak(BreakKind::DisabledFunction, {function_repr(callee)}, function_repr(callee)));
  }
  if (auto rule = rules_.by_callee.find(callee.get()); rule != rules_.by_callee.end())
    return (this->*rule->second.handler)(interp, callee, args);
  // Families of callees, by the object each family is known by.
  switch (callee->kind) {
    case ObjectKind::NativeFunction: {
      const Object* owner = as<NativeFunctionObject>(callee).owner;
      if (owner == rules_.tensor_type.get()) return tensor_method(interp, callee, args);
      if (owner == rules_.torch_module.get()) return torch_function(interp, callee, args);
      return nullptr;
    }
    case ObjectKind::Function:
      if (as<FunctionObject>(callee).globals == as<ModuleObject>(rules_.functional_module).globals)
        return functional(interp, callee, args);
      return optimizer_method(interp, callee, args);
    case ObjectKind::Type:
      if (as<TypeObject>(callee).is_subtype_of(&as<TypeObject>(rules_.weighted_loss_type)))
        return build_weighted_loss(interp, callee, args);
      return nullptr;
    case ObjectKind::Instance: return call_module(interp, callee, args);
    default: return nullptr;
  }
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
    break_graph(interp, unsupported(UnsupportedConstruct::SetChange, {source->text()}));
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
  // Dynamo does not wrap RNN modules (config.allow_rnn is off): reading one breaks the graph.
  if (value->kind == ObjectKind::Instance && value->type->is_subtype_of(&as<TypeObject>(rules_.rnn_type)))
    break_graph(interp, GraphBreak(BreakKind::WrapRnn, {}, repr(interp, value)));
  // A constant attribute of an object the frame can reach (self.scale, config.depth) is guarded,
  // and so is a function read from a module the frame names (torch.abs). An object held by such an
  // object (self.act, a submodule) is guarded by its class, as Dynamo guards it: its own attributes
  // are guarded as the code reads them, so another object of the class with the same values runs
  // the same graph, and another class recompiles.
  bool constant = is_constant(value);
  bool module_function = object->kind == ObjectKind::Module &&
                         (value->kind == ObjectKind::NativeFunction || value->kind == ObjectKind::Function);
  bool held_object = value->kind == ObjectKind::Instance && !is_tensor(value);
  // A function an object holds (self.act = F.relu) is the object's choice, not its class's.
  bool held_function = (value->kind == ObjectKind::NativeFunction || value->kind == ObjectKind::Function) &&
                       object->kind == ObjectKind::Instance && as<InstanceObject>(object).dict.count(name);
  if (!((constant || held_object || held_function) && object->kind == ObjectKind::Instance) && !module_function) return nullptr;
  SourceRef base = source_of(interp, object);
  if (!base) return nullptr;
  SourceRef source = member_source(base, object, name, value);
  if (Ref stand_in = symbolic_stand_in(source, value)) return stand_in;
  // An attribute the frame already changed is what the frame made: the guard is on the value the
  // frame started with, or none if the frame added the attribute.
  Ref guarded = value;
  if (const SideEffects::Snapshot* original = side_effects_.original(object.get())) {
    auto it = original->attributes.find(name);
    if (it == original->attributes.end()) return nullptr;
    guarded = it->second;
    if (!is_constant(guarded) && !module_function && !held_function && guarded->kind != ObjectKind::Instance) return nullptr;
  }
  if (guarded->kind == ObjectKind::Instance && !is_constant(guarded)) {
    Guard type(GuardKind::TypeMatch, source, type_of(guarded));
    type.value_type = guarded->type->qualified_name();
    guard_read(interp, std::move(type));
    return nullptr;
  }
  guard_read(interp, Guard(constant ? GuardKind::EqualsMatch : GuardKind::IdMatch, source, guarded));
  return nullptr;
}

Ref Tracer::read_item(Interpreter& interp, const Ref& container, const Ref& key, const Ref& value) {
  // A constant read from a dict or list the frame can reach (group["lr"], cfg["depth"]) is
  // guarded, as Dynamo guards the items it reads.
  bool constant = is_constant(value);
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

SourceRef Tracer::source_of(Interpreter& interp, const Ref& object) {
  auto cached = sources_.find(object.get());
  if (cached == sources_.end()) cached = sources_.emplace(object.get(), find_source(interp, graph_->frame_inputs(), object)).first;
  return cached->second;
}

void Tracer::guard_read(Interpreter& interp, Guard guard) {
  if (guard.value_type.empty()) guard.value_type = guard.expected->type->qualified_name();
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
