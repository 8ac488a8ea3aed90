#pragma once
// The capture of one frame (Dynamo's InstructionTranslator, over Kiln's AST interpreter): the
// frame runs in the ordinary evaluator with its tensors replaced by fakes, while this call hook
// decides, for every call, whether it becomes a graph node (torch functions, Tensor methods and
// operators), runs as Python (user functions and modules, inlined), or breaks the graph (print,
// copy.deepcopy, .item(), .backward(), disabled functions, a tensor's truth value, ...). The
// expression observer of the frame's own evaluator remembers what each statement has computed,
// so that a break knows the values a resume frame must be given.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "libcompiler/capture/call_rules.h"
#include "libcompiler/capture/graph_break.h"
#include "libcompiler/capture/output_graph.h"
#include "libcompiler/capture/side_effects.h"
#include "libcompiler/python/ast.h"
#include "libcompiler/python/interp/eval_hooks.h"
#include "libcompiler/python/interp/frame.h"

namespace kiln::capture {

struct TracerConfig {
  std::string compile_id;  // for the trace_source and trace_bytecode logs
  // Dynamo's allow_scalar_outputs: .item() is traced (a symbolic number) instead of breaking the
  // graph, under config.capture_scalar_outputs or fullgraph=True.
  bool capture_scalar_outputs = false;
  // Globals and attributes (by source text) automatic dynamic made symbolic floats.
  std::set<std::string> dynamic_floats;
  // Calls that do not break the graph but run after it (torch._dynamo.config's set).
  std::vector<python::Ref> reorderable_logging_functions;
};

// A logging call moved after the graph, with the arguments it was given.
struct ReorderedCall {
  python::Ref callee;
  python::CallArgs args;
};

// Where a graph break left the frame.
struct BreakSite {
  enum class Kind { Call, Branch, Elsewhere };
  Kind kind = Kind::Elsewhere;
  const python::Statement* statement = nullptr;  // the root frame's statement that broke
  // Call: the root-level call that broke (or whose callee broke), with what it was called with.
  const python::Expression* call = nullptr;
  python::Ref callee;
  python::CallArgs args;
  // The values computed before the call that the rest of the statement still needs, with the
  // expressions they are the values of (a resume frame's ___stack0, ___stack1, ...).
  std::vector<std::pair<const python::Expression*, python::Ref>> stack;
  // Branch: the `if` whose test is a tensor, and that tensor.
  python::Ref condition;
  int line = 0;  // the line the resume frame is named after
};

// A call Dynamo refuses to trace (torch.compiler.set_stance): not a graph break, the compile fails
// with an AssertionError that reaches the caller.
struct ForbiddenCall : python::CaptureUnwind {
  ForbiddenCall(std::string callee, std::vector<UserFrame> stack) : callee(std::move(callee)), user_stack(std::move(stack)) {}
  std::string callee;  // its repr
  std::vector<UserFrame> user_stack;
};

class Tracer : public python::CallHook, public python::ExpressionObserver {
 public:
  Tracer(const CallRules& rules, OutputGraph& graph, python::Frame& root, std::string root_name, TracerConfig config);

  // CallHook
  python::Ref intercept(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args) override;
  void stored(const std::string& name, const python::Ref& value) override;
  void mutating(python::Interpreter& interp, const python::Ref& target) override;
  python::Ref read_global(python::Interpreter& interp, const python::DictObject& globals, const std::string& name,
                          const python::Ref& value) override;
  python::Ref read_attribute(python::Interpreter& interp, const python::Ref& object, const std::string& name,
                             const python::Ref& value) override;
  python::Ref read_item(python::Interpreter& interp, const python::Ref& container, const python::Ref& key,
                        const python::Ref& value) override;
  // ExpressionObserver
  python::Ref replay(const python::Expression& expr) override;
  void enter(const python::Expression& expr) override;
  void leave(const python::Expression& expr, const python::Ref& value) override;
  void statement(const python::Statement& stmt) override;

  // Values the frame's statement at the resume point computed before the break.
  void set_replay(std::vector<std::pair<const python::Expression*, python::Ref>> values);

  const std::vector<ReorderedCall>& reordered_calls() const { return reordered_; }
  SideEffects& side_effects() { return side_effects_; }

  // Set when a GraphBreak leaves the frame.
  const BreakSite& break_site() const { return site_; }
  // The user stack at the break, outermost first.
  std::vector<UserFrame> user_stack(python::Interpreter& interp) const;
  // "File: /x.py:5 in fn, code: return x + 1" for a node made now.
  std::optional<std::string> node_site(python::Interpreter& interp) const;
  // "return x + 1  # x.py:5 in fn": the user code a guard made now is for.
  std::string guard_site(python::Interpreter& interp) const;

 private:
  friend std::unique_ptr<CallRules> resolve_call_rules(python::Interpreter& interp);

  python::Ref dispatch(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref call_through(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref record_call(python::Interpreter& interp, const NodeTarget& target, const python::Ref& callee,
                          python::CallArgs& args, bool reflected);
  [[noreturn]] void break_graph(python::Interpreter& interp, GraphBreak graph_break, bool at_branch = false);

  // The handlers of call_rules.def, in the file of the kind of callee each takes.
  // builtin_calls.cpp
  python::Ref break_on_print(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_deepcopy(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_string_conversion(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_dict_keys(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref change_container(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_and_change_dict(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  // torch_functions.cpp
  python::Ref torch_function(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref functional(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref run_untraced(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref trace_random_factory(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_manual_seed(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref record_grad_mode_switch(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref record_api_usage_log(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref record_autocast_switch(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref record_and_run(python::Interpreter& interp, NodeTarget target, const python::Ref& callee, python::CallArgs& args);
  python::Ref answer_is_compiling(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_user_request(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref refuse_forbidden_call(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  // tensor_methods.cpp
  python::Ref tensor_method(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_backward(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_sizes(python::Interpreter& interp, const std::string& method, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_metadata(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                            python::CallArgs& args);
  python::Ref item(python::Interpreter& interp, const std::string& method, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_view_base(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                                 python::CallArgs& args);
  python::Ref break_on_requires_grad_change(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                                            python::CallArgs& args);
  python::Ref break_on_retain_grad(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                                   python::CallArgs& args);
  python::Ref break_on_truth_value(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                                   python::CallArgs& args);
  python::Ref iterate_rows(python::Interpreter& interp, const std::string& method, const python::Ref& callee, python::CallArgs& args);
  python::Ref break_on_tolist(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                              python::CallArgs& args);
  python::Ref break_on_value_read(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                                  python::CallArgs& args);
  python::Ref read_float(python::Interpreter& interp, const std::string& method, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_int(python::Interpreter& interp, const std::string& method, const python::Ref& callee, python::CallArgs& args);
  python::Ref read_number(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args, bool wants_integer);
  python::Ref break_on_index(python::Interpreter& interp, const std::string& method, const python::Ref& callee,
                             python::CallArgs& args);

  // nn_modules.cpp
  python::Ref break_on_parameter_constructor(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref build_weighted_loss(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref call_module(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  // optimizers.cpp
  python::Ref optimizer_method(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  python::Ref run_init_group_eagerly(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);
  void guard_optimizer_state(python::Interpreter& interp, const python::Ref& optimizer);
  // higher_order_ops.cpp
  python::Ref trace_cond(python::Interpreter& interp, const python::Ref& callee, python::CallArgs& args);

  bool in_root_frame(python::Interpreter& interp) const;
  const python::Frame* user_frame(python::Interpreter& interp) const;

  const CallRules& rules_;
  OutputGraph* graph_;  // the frame's graph, or a torch.cond branch's while one is traced
  python::Frame& root_;
  std::string root_name_;
  TracerConfig config_;
  BreakSite site_;
  bool in_root_call_ = false;
  bool pass_through_ = false;

  // The root frame's current statement and what it has evaluated so far.
  const python::Statement* statement_ = nullptr;
  struct Evaluated {
    const python::Expression* expr;
    python::Ref value;
    const python::Expression* parent;
  };
  std::vector<const python::Expression*> stack_;
  std::vector<Evaluated> evaluated_;
  std::unordered_map<const python::Expression*, python::Ref> replay_;
  std::vector<ReorderedCall> reordered_;
  SideEffects side_effects_;
  std::unordered_map<const python::Object*, SourceRef> sources_;  // of objects whose attributes were read
  std::map<std::string, python::Ref> symbolic_floats_;             // one stand-in per dynamic source
  python::Ref symbolic_stand_in(const SourceRef& source, const python::Ref& value);
  // Where the frame's inputs reach an object (cached), or null.
  SourceRef source_of(python::Interpreter& interp, const python::Ref& object);
  void guard_read(python::Interpreter& interp, Guard guard);
  void guard_dict_keys(python::Interpreter& interp, const python::Ref& dict);
};

// Whether a function is Kiln's own library code (the embedded torch package), which capture
// inlines and leaves out of user stacks.
bool is_library_code(const python::FunctionObject& function);

// Whether a value is an nn.Module.
bool is_module_instance(const python::Ref& value);

// Whether Dynamo compiles a frame of the function when compiled code calls it: user code, and of
// the library only torch.optim (PyTorch's trace rules inline it, its lr_scheduler excepted).
bool compiles_as_frame(const python::FunctionObject& function);

}  // namespace kiln::capture
