#pragma once
// torch.compile's runtime (Dynamo's eval-frame callback and convert_frame): while a compiled
// function runs, every user function frame it starts is caught; a frame's cache entries are
// checked, a miss captures it (tracer.h) into a cache entry, and the entry runs: its graph, then
// what follows the graph (a return, or the breaking call run eagerly and a resume frame, or a
// data-dependent branch and one of two resume frames).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/capture/code_state.h"
#include "libcompiler/capture/compile_stance.h"
#include "libcompiler/capture/graph_break.h"
#include "libcompiler/python/interp/eval_hooks.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

struct FrameCompile;

struct CompileOptions {
  python::Ref backend;            // a backend name (str) or a script-defined backend (callable)
  bool fullgraph = false;
  std::optional<bool> dynamic;    // None: automatic dynamic shapes
  std::string mode = "default";
  python::Ref options;  // torch.compile(options=...): a dict of inductor settings, or null
  // torch.compiler.set_stance's, as the compiled function was called (force_backend is in backend).
  Stance stance = Stance::Default;
  bool skip_guard_eval_unsafe = false;
  // A backend that compiles in backend's stead (aot_eager for aot_eager_then_compile's first
  // call), its entry still counted as backend's, so that later calls find it; null: none.
  python::Ref stand_in_backend;

  const python::Ref& compiling_backend() const { return stand_in_backend ? stand_in_backend : backend; }
};

// A guard as explain() lists it under "Out Guards" (Dynamo's Guard objects).
struct ExplainGuard {
  std::string name;             // "G['torch']"; empty for the framework's own guards
  std::string source;           // "local", "global", "shape_env"
  std::string create_function;  // "TENSOR_MATCH", "MODULE_MATCH", "BUILTIN_MATCH", ...
  std::string guard_types;      // "['ID_MATCH']" or "None"
  std::string code_list;        // "[...]" or "None"
  std::weak_ptr<python::Object> object;  // what is guarded, while it lives
  std::string object_kind;      // its type's name ("module", "Tensor"); empty when there is none
  std::string class_kind;       // the class of its class ("type", "torch._C._TensorMeta")
  std::string class_name;       // its class ("module", "Tensor", "float")
};

// One record of what was compiled, for explain() and tests: in the order compiles finished.
struct CompileRecord {
  std::string compile_id;
  std::string co_name;
  std::optional<int64_t> op_count;  // null: no graph was compiled
  std::vector<std::string> ops;     // the graph's call targets
  std::vector<std::string> break_reasons;
  std::vector<UserFrame> break_stack;
  std::vector<ExplainGuard> guards;
};

// A recompile, as CompileProfiler reports it: which code, and the guard failure that caused it.
struct GuardFailure {
  const CodeState* code;
  std::string reason;
};

class Runtime {
 public:
  static Runtime& instance();

  // Calls `callable` with `args`; every user frame it starts is compiled with `options`.
  python::Ref call_compiled(python::Interpreter& interp, const CompileOptions& options, const python::Ref& callable,
                            python::CallArgs args);
  // torch._dynamo.reset(): forgets every cache entry and frame id.
  void reset();

  const std::vector<CompileRecord>& records() const { return records_; }
  const std::vector<GuardFailure>& guard_failures() const { return guard_failures_; }
  // Graph-break titles in order of first occurrence, with how often each happened.
  const std::vector<std::pair<std::string, int64_t>>& graph_break_counts() const { return graph_break_counts_; }
  // The state of a function's code once it was called compiled (null before).
  const CodeState* code_state(const python::FunctionObject& function) const;
  void clear_records() { records_.clear(); }

  // Frames a compiled function starts (FrameCatcher calls these).
  python::Ref run_function(python::Interpreter& interp, const CompileOptions& options,
                           const std::shared_ptr<python::FunctionObject>& function, python::CallArgs& args);

 private:
  python::Ref run_code(python::Interpreter& interp, const CompileOptions& options, CodeState& code, const FrameInputs& inputs);
  python::Ref run_entry(python::Interpreter& interp, const CompileOptions& options, const CodeState& code, CacheEntry& entry,
                        const FrameInputs& inputs);
  python::Ref run_resume(python::Interpreter& interp, const CompileOptions& options, const CodeState& code, CodeState& resume,
                         FrameInputs& inputs);
  python::Ref run_eager(python::Interpreter& interp, CodeState& code, const FrameInputs& inputs);
  // Captures the frame into a new cache entry; null when the frame is to run eagerly (this time,
  // or for good).
  CacheEntry* compile(python::Interpreter& interp, const CompileOptions& options, CodeState& code, const FrameInputs& inputs,
                      const std::vector<std::pair<std::string, std::string>>& failures);
  // What a cache miss compiles with under the stance of `options`: `options` themselves, or other
  // options (aot_eager's, for aot_eager_then_compile's first call); none when the frame runs
  // eagerly instead. Raises under fail_on_recompile.
  std::optional<CompileOptions> options_for_miss(python::Interpreter& interp, const CompileOptions& options, CodeState& code,
                                                 const FrameInputs& inputs,
                                                 const std::vector<std::pair<std::string, std::string>>& failures);
  // Its phases, in order (frame_compiler.cpp).
  void trace_frame(FrameCompile& compile);
  void handle_graph_break(FrameCompile& compile);
  void build_exit(FrameCompile& compile);
  void call_backend(FrameCompile& compile);
  CacheEntry* store_entry(FrameCompile& compile);
  CodeState& resume_state(CodeState& parent, ResumeKey key, int line, std::optional<StatementPath> start,
                          std::vector<const python::Expression*> replayed);

  std::map<const void*, std::unique_ptr<CodeState>> codes_;
  int next_frame_id_ = 0;
  std::vector<CompileRecord> records_;
  std::vector<GuardFailure> guard_failures_;
  std::vector<std::pair<std::string, int64_t>> graph_break_counts_;
  // The sizes of the tensor locals of a code's first two calls under eager_then_compile, by file
  // and first line; kept through reset(), as PyTorch keeps its example inputs.
  std::map<std::pair<std::string, int>, std::vector<TensorSizes>> first_calls_;
};

// Runs a code state's code in `frame` as a call: the whole function, or the rest of it from the
// resume point.
void run_frame_code(python::Interpreter& interp, python::Frame& frame, const CodeState& code,
                    python::ExpressionObserver* observer);

// The frame made to run a code state's function with these inputs (locals set by name).
std::unique_ptr<python::Frame> frame_for(python::Interpreter& interp, const CodeState& code, const FrameInputs& inputs);

}  // namespace kiln::capture
