// Running frames of compiled functions: the frame catcher, cache lookups, cache entries, and the
// eager runs of skipped frames.
#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "libcompiler/capture/capture_events.h"
#include "libcompiler/capture/dynamo_config.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/capture/hook_scope.h"
#include "libcompiler/capture/runtime.h"
#include "libcompiler/capture/tracer.h"
#include "libcompiler/python/interp/evaluator.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::capture {

using namespace python;

namespace {

// The values of the closure variables a function's code reads, as CPython's frame locals hold
// its free variables: Dynamo reads them as L['name'] and guards them like arguments, so another
// closure of the same code (a fresh model, a fresh optimizer) does not run a graph made for the
// first.
void add_free_variables(const FunctionObject& function, FrameInputs& inputs) {
  std::vector<std::pair<std::string, Ref>> free;
  for (const auto& [name, where] : function.code->names) {
    if (where.kind != NameKind::Free || inputs.local(name)) continue;
    const Scope* scope = function.closure.get();
    for (int i = 1; scope && i < where.depth; ++i) scope = scope->parent.get();
    if (scope && where.slot < scope->slots.size() && scope->slots[where.slot]) free.emplace_back(name, scope->slots[where.slot]);
  }
  std::sort(free.begin(), free.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& item : free) inputs.locals.push_back(std::move(item));
}

// Whether an entry was compiled for these torch.compile arguments (Dynamo's backend check: two
// torch.compile calls naming one backend with one mode and options share their entries).
bool same_compile_options(Interpreter& interp, const CacheEntry& entry, const CompileOptions& options) {
  const bool same_backend = entry.backend == options.backend ||
                            (entry.backend->kind == ObjectKind::Str && options.backend->kind == ObjectKind::Str &&
                             as<StrObject>(entry.backend).value == as<StrObject>(options.backend).value);
  const bool same_settings = entry.options == options.options ||
                             (entry.options && options.options && equals(interp, entry.options, options.options));
  return same_backend && same_settings && entry.mode == options.mode && entry.dynamic == options.dynamic &&
         entry.fullgraph == options.fullgraph;
}

// Dynamo's eval-frame callback: while a compiled function runs, a call of a user function is the
// start of a frame to compile.
class FrameCatcher : public CallHook {
 public:
  // `root`: what torch.compile was given; when it is a module, its forward is compiled even when
  // torch defines it (torch.compile(nn.Linear(...)), a Sequential), as the frames Dynamo compiles
  // for a module start at the module's call.
  FrameCatcher(Runtime& runtime, const CompileOptions& options, const Ref& root)
      : runtime_(runtime), options_(options), root_module_(is_module_instance(root) ? root.get() : nullptr) {}

  Ref intercept(Interpreter& interp, const Ref& callee, CallArgs& args) override {
    if (pass_through_) {
      pass_through_ = false;
      return nullptr;
    }
    if (callee->kind != ObjectKind::Function) return nullptr;
    auto function = std::static_pointer_cast<FunctionObject>(callee);
    const bool root_forward = root_module_ && function->name == "forward" && !args.args.empty() && args.args[0].get() == root_module_;
    if (function->is_generator || (!compiles_as_frame(*function) && !root_forward)) return nullptr;
    // TORCHDYNAMO_DEBUG_FUNCTION: only functions of that name are compiled (their callees are
    // still caught).
    static const char* only = std::getenv("TORCHDYNAMO_DEBUG_FUNCTION");
    if (only && *only && function->code->name != only) {
      pass_through_ = true;
      return call(interp, callee, std::move(args));
    }
    if (auto it = function->attrs.find("_torchdynamo_disable"); it != function->attrs.end()) {
      // A disabled function runs eagerly; recursive=True also leaves its callees uncompiled.
      if (truthy(interp, it->second)) {
        HookScope uncaptured(interp, nullptr);
        return call(interp, callee, std::move(args));
      }
      pass_through_ = true;
      return call(interp, callee, std::move(args));
    }
    return runtime_.run_function(interp, options_, function, args);
  }

 private:
  Runtime& runtime_;
  const CompileOptions& options_;
  const Object* root_module_;
  bool pass_through_ = false;
};

// The replaying part of a tracer, for a resume frame that runs eagerly.
class ReplayObserver : public ExpressionObserver {
 public:
  explicit ReplayObserver(std::unordered_map<const Expression*, Ref> values) : values_(std::move(values)) {}
  Ref replay(const Expression& expr) override {
    if (values_.empty()) return nullptr;
    auto it = values_.find(&expr);
    if (it == values_.end()) return nullptr;
    Ref value = std::move(it->second);
    values_.erase(it);
    return value;
  }
  void enter(const Expression&) override {}
  void leave(const Expression&, const Ref&) override {}
  void statement(const Statement&) override {}

 private:
  std::unordered_map<const Expression*, Ref> values_;
};

Ref build(Interpreter& interp, const ValueTemplate& t, const std::vector<Ref>& outputs, const FrameInputs& inputs) {
  switch (t.kind) {
    case ValueTemplate::Kind::Output: return outputs.at(t.output);
    case ValueTemplate::Kind::FromSource: {
      Ref value = t.source->fetch(interp, inputs);
      return value ? value : none();
    }
    case ValueTemplate::Kind::Constant: return t.constant;
    case ValueTemplate::Kind::BoundMethod: return std::make_shared<BoundMethodObject>(build(interp, t.items.at(0), outputs, inputs), t.constant);
    case ValueTemplate::Kind::Dict: {
      auto dict = py_dict();
      for (size_t i = 0; i + 1 < t.items.size(); i += 2)
        dict->set(interp, build(interp, t.items[i], outputs, inputs), build(interp, t.items[i + 1], outputs, inputs));
      return dict;
    }
    case ValueTemplate::Kind::List:
    case ValueTemplate::Kind::Tuple: {
      std::vector<Ref> items;
      for (const auto& item : t.items) items.push_back(build(interp, item, outputs, inputs));
      return t.kind == ValueTemplate::Kind::List ? py_list(std::move(items)) : py_tuple(std::move(items));
    }
  }
  return none();
}

std::unordered_map<const Expression*, Ref> replayed_values(const CodeState& code, const FrameInputs& inputs) {
  std::unordered_map<const Expression*, Ref> values;
  for (size_t i = 0; i < code.replayed.size(); ++i) values[code.replayed[i]] = inputs.local("___stack" + std::to_string(i));
  return values;
}

}  // namespace

Ref fetch_graph_input(Interpreter& interp, const GraphInput& input, const FrameInputs& inputs) {
  Ref value = input.source->fetch(interp, inputs);
  switch (input.kind) {
    case GraphInput::Kind::Value: return value;
    case GraphInput::Kind::FloatAsTensor:
      return wrap_tensor(tensor::scalar_tensor(tensor::Scalar(to_double(interp, value)), tensor::DType::Float64));
    case GraphInput::Kind::SizeOf:
      return py_int(static_cast<TensorObject&>(*value).value.sizes().at(static_cast<size_t>(input.dim)));
  }
  return value;
}

Runtime& Runtime::instance() {
  static Runtime runtime;
  return runtime;
}

const CodeState* Runtime::code_state(const FunctionObject& function) const {
  auto it = codes_.find(function.code);
  return it == codes_.end() ? nullptr : it->second.get();
}

void Runtime::reset() {
  codes_.clear();
  next_frame_id_ = 0;
}

std::unique_ptr<Frame> frame_for(Interpreter&, const CodeState& code, const FrameInputs& inputs) {
  const FunctionObject& f = *code.function;
  auto frame = std::make_unique<Frame>();
  frame->code = f.code;
  frame->scope = std::make_shared<Scope>();
  frame->scope->slots.resize(f.code->slot_names.size());
  frame->scope->parent = f.closure;
  for (size_t i = 0; i < f.code->slot_names.size(); ++i)
    if (Ref value = inputs.local(f.code->slot_names[i])) frame->scope->slots[i] = value;
  frame->globals = f.globals;
  frame->loaded = f.loaded;
  frame->function = &f;
  return frame;
}

Ref Runtime::call_compiled(Interpreter& interp, const CompileOptions& options, const Ref& callable, CallArgs args) {
  // The stance as the call starts holds for every frame it runs (PyTorch picks its frame callback
  // from the stance when a compiled function is entered).
  const CompileStance& stance = current_stance();
  const std::optional<Stance> kind = stance.stance();
  if (!kind) raise_error(ExcType::RuntimeError, "invalid torch.compile stance '" + stance.repr(interp) + "'");
  if (*kind == Stance::ForceEager) {
    HookScope eager(interp, nullptr);
    return call(interp, callable, std::move(args));
  }
  CompileOptions under_stance = options;
  under_stance.stance = *kind;
  under_stance.skip_guard_eval_unsafe = stance.skip_guard_eval_unsafe;
  if (stance.force_backend) under_stance.backend = checked_backend(interp, stance.force_backend);
  FrameCatcher catcher(*this, under_stance, callable);
  HookScope scope(interp, &catcher);
  return call(interp, callable, std::move(args));
}

Ref Runtime::run_function(Interpreter& interp, const CompileOptions& options, const std::shared_ptr<FunctionObject>& function,
                          CallArgs& args) {
  auto& slot = codes_[function->code];
  if (!slot) {
    slot = std::make_unique<CodeState>();
    slot->co_name = function->code->name;
    slot->function = function;
    if (function->body && !function->body->empty()) {
      const auto& loc = function->body->front()->loc;
      slot->co_filename = loc.file ? loc.file->name() : "";
    }
    slot->co_firstlineno = function->first_line;
  }
  slot->function = function;  // the same code may run as another closure
  std::unique_ptr<Frame> bound = interp.make_call_frame(function, args);
  FrameInputs inputs;
  inputs.globals = function->globals;
  for (size_t i = 0; i < function->code->slot_names.size(); ++i)
    if (Ref value = bound->scope->slots[i]) inputs.locals.emplace_back(function->code->slot_names[i], value);
  add_free_variables(*function, inputs);
  return run_code(interp, options, *slot, inputs);
}

Ref Runtime::run_code(Interpreter& interp, const CompileOptions& options, CodeState& code, const FrameInputs& inputs) {
  if (code.skip) return run_eager(interp, code, inputs);
  // skip_guard_eval_unsafe evaluates only the guards on sources that once told entries apart.
  const std::set<std::string>* evaluated = options.skip_guard_eval_unsafe ? &code.differing_sources : nullptr;
  std::vector<std::pair<std::string, std::string>> failures;
  for (auto it = code.entries.rbegin(); it != code.entries.rend(); ++it) {
    const CacheEntry& entry = **it;
    if (!same_compile_options(interp, entry, options)) {
      failures.emplace_back(entry.compile_id, "___check_current_backend(" +
                                                  std::to_string(reinterpret_cast<uintptr_t>(entry.backend.get())) + ")");
      continue;
    }
    const Guard* failed = nullptr;
    auto failure = entry.guards.check(interp, inputs, &failed, evaluated);
    if (!failure) return run_entry(interp, options, code, **it, inputs);
    if (failed && failed->source) code.differing_sources.insert(failed->source->text());
    // Automatic dynamic for a float global or attribute: it changed, so the next compile reads it
    // as a graph input (frame arguments are compared in update_history).
    if (failed && failed->kind == GuardKind::EqualsMatch && failed->expected->kind == ObjectKind::Float &&
        failed->source->kind() != Source::Kind::Local)
      code.history[failed->source->text()].dynamic_float = true;
    failures.emplace_back((*it)->compile_id, *failure);
  }
  if (options.skip_guard_eval_unsafe)
    raise_error(ExcType::RuntimeError,
                "Recompilation triggered with skip_guard_eval_unsafe stance. This usually means that you have not warmed up "
                "your model with enough inputs such that you can guarantee no more recompilations.");
  const std::optional<CompileOptions> compile_options = options_for_miss(interp, options, code, inputs, failures);
  if (!compile_options) return run_eager(interp, code, inputs);
  CacheEntry* entry = compile(interp, *compile_options, code, inputs, failures);
  if (!entry) return run_eager(interp, code, inputs);
  return run_entry(interp, options, code, *entry, inputs);
}

Ref Runtime::run_entry(Interpreter& interp, const CompileOptions& options, const CodeState& code, CacheEntry& entry,
                       const FrameInputs& inputs) {
  std::vector<Ref> outputs;
  if (entry.graph) {
    std::vector<Ref> values;
    for (const GraphInput& input : entry.graph_inputs) values.push_back(fetch_graph_input(interp, input, inputs));
    HookScope no_capture(interp, nullptr);
    with_torch_errors([&] {
      outputs = entry.compiled(interp, values);
      return Ref();
    });
  }
  const FrameExit& exit = entry.exit;
  auto built = [&](const ValueTemplate& t) { return build(interp, t, outputs, inputs); };
  for (const auto& logged : exit.logging_calls) {
    std::vector<Ref> args;
    for (size_t i = 1; i < logged.size(); ++i) args.push_back(built(logged[i]));
    call(interp, built(logged[0]), std::move(args));
  }
  // Every value is fetched before the frame's changes are replayed: the templates name values by
  // the paths that reached them before the changes.
  struct Replayed {
    Ref target;
    const StateChange* change;
    std::vector<Ref> set, appended;
  };
  std::vector<Replayed> replayed;
  for (const StateChange& change : exit.state_changes) {
    Replayed r{change.source->fetch(interp, inputs), &change, {}, {}};
    if (!r.target) continue;
    for (const auto& entry_set : change.set) r.set.push_back(built(entry_set.second));
    for (const auto& t : change.appended) r.appended.push_back(built(t));
    replayed.push_back(std::move(r));
  }
  FrameInputs resumed;
  resumed.globals = inputs.globals;
  Ref value, callee;
  CallArgs args;
  switch (exit.kind) {
    case FrameExit::Kind::Return: value = built(exit.value); break;
    case FrameExit::Kind::Call:
      for (size_t i = 0; i < exit.stack.size(); ++i) resumed.locals.emplace_back("___stack" + std::to_string(i), built(exit.stack[i]));
      for (const auto& a : exit.args) args.args.push_back(built(a));
      for (const auto& [k, v] : exit.kwargs) args.kwargs.emplace_back(k, built(v));
      callee = built(exit.callee);
      break;
    case FrameExit::Kind::Branch: value = built(exit.value); break;
  }
  std::vector<std::pair<std::string, Ref>> live;
  for (const auto& [name, t] : exit.live) live.emplace_back(name, built(t));
  for (const Replayed& r : replayed) {
    for (size_t i = 0; i < r.set.size(); ++i) {
      const Ref& key = r.change->set[i].first;
      if (r.target->kind == ObjectKind::Instance) as<InstanceObject>(r.target).dict[as<StrObject>(key).value] = r.set[i];
      else if (r.target->kind == ObjectKind::Dict) as<DictObject>(r.target).set(interp, key, r.set[i]);
    }
    for (const Ref& key : r.change->removed) {
      if (r.target->kind == ObjectKind::Instance) as<InstanceObject>(r.target).dict.erase(as<StrObject>(key).value);
      else if (r.target->kind == ObjectKind::Dict) as<DictObject>(r.target).erase(interp, key);
    }
    if (r.target->kind == ObjectKind::List)
      for (const Ref& item : r.appended) as<ListObject>(r.target).items.push_back(item);
  }
  switch (exit.kind) {
    case FrameExit::Kind::Return: return value;
    case FrameExit::Kind::Call: {
      Ref result = call(interp, callee, std::move(args));
      resumed.locals.emplace_back("___stack" + std::to_string(exit.stack.size()), result);
      for (auto& item : live) resumed.locals.push_back(std::move(item));
      return run_resume(interp, options, code, *exit.resume, resumed);
    }
    case FrameExit::Kind::Branch:
      for (auto& item : live) resumed.locals.push_back(std::move(item));
      return run_resume(interp, options, code, truthy(interp, value) ? *exit.resume : *exit.resume_false, resumed);
  }
  return none();
}

Ref Runtime::run_resume(Interpreter& interp, const CompileOptions& options, const CodeState& code, CodeState& resume,
                        FrameInputs& inputs) {
  // The resume frame continues this call's closure, whichever closure of the code compiled it.
  resume.function = code.function;
  add_free_variables(*code.function, inputs);
  return run_code(interp, options, resume, inputs);
}

void run_frame_code(Interpreter& interp, Frame& frame, const CodeState& code, ExpressionObserver* observer) {
  interp.enter_call();
  try {
    Evaluator::run_frame(
        interp, frame,
        [&](Evaluator& e) {
          if (code.start) run_continuation(e, *code.start);
          else if (code.function->lambda_body) frame.return_value = e.eval(*code.function->lambda_body);
          else e.exec_block(*code.function->body);
        },
        observer);
  } catch (...) {
    interp.leave_call();
    throw;
  }
  interp.leave_call();
}

Ref Runtime::run_eager(Interpreter& interp, CodeState& code, const FrameInputs& inputs) {
  std::unique_ptr<Frame> frame = frame_for(interp, code, inputs);
  ReplayObserver replay(replayed_values(code, inputs));
  run_frame_code(interp, *frame, code, code.replayed.empty() ? nullptr : &replay);
  return frame->return_value ? frame->return_value : none();
}

CodeState& Runtime::resume_state(CodeState& parent, ResumeKey key, int line, std::optional<StatementPath> start,
                                 std::vector<const Expression*> replayed) {
  auto& slot = parent.root->resumes[key];
  if (!slot) {
    slot = std::make_unique<CodeState>();
    std::string original = parent.co_name;
    if (original.rfind("torch_dynamo_resume_in_", 0) == 0) {
      original = original.substr(std::string("torch_dynamo_resume_in_").size());
      original = original.substr(0, original.rfind("_at_"));
    }
    slot->co_name = "torch_dynamo_resume_in_" + original + "_at_" + std::to_string(line);
    slot->co_filename = parent.co_filename;
    slot->co_firstlineno = line;
    slot->function = parent.function;
    slot->start = std::move(start);
    slot->replayed = std::move(replayed);
    slot->root = parent.root;
  }
  return *slot;
}

}  // namespace kiln::capture
