#pragma once
// What capture keeps per code object (Dynamo's frame state and cache): a function, or one of its
// resume points; its frame id once it was first compiled; its cache entries (guards, compiled
// graph, and how the frame goes on after the graph); what automatic dynamic has seen of its
// inputs; and the resume points its breaks made.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/capture/guards.h"
#include "libcompiler/capture/output_graph.h"
#include "libcompiler/capture/resume.h"
#include "libcompiler/capture/source.h"
#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/python/interp/object.h"

namespace kiln::capture {

// How a value the frame goes on with is rebuilt after the graph ran: a graph output, a value read
// from the inputs again, a constant, or a container of such.
struct ValueTemplate {
  // BoundMethod: items[0] is self; Dict: items are keys and values, alternately.
  enum class Kind { Output, FromSource, Constant, List, Tuple, Dict, BoundMethod };
  Kind kind = Kind::Constant;
  size_t output = 0;
  SourceRef source;
  python::Ref constant;
  std::vector<ValueTemplate> items;
};

class CodeState;

// A change the frame made to an object it did not create, replayed after the graph on each run:
// attributes or dict keys set (str names for attributes) and removed, items appended to a list.
struct StateChange {
  SourceRef source;
  std::vector<std::pair<python::Ref, ValueTemplate>> set;
  std::vector<python::Ref> removed;
  std::vector<ValueTemplate> appended;
};

// How a frame goes on once its graph ran.
struct FrameExit {
  enum class Kind { Return, Call, Branch };
  Kind kind = Kind::Return;
  // Logging calls (reorderable_logging_functions) run right after the graph: callee, then args.
  std::vector<std::vector<ValueTemplate>> logging_calls;
  std::vector<StateChange> state_changes;
  ValueTemplate value;  // Return: the returned value; Branch: the condition
  // Call: the call that broke, run eagerly, then the resume frame with the stack and result.
  ValueTemplate callee;
  std::vector<ValueTemplate> args;
  std::vector<std::pair<std::string, ValueTemplate>> kwargs;
  std::vector<ValueTemplate> stack;
  // Call and Branch: the locals the resume frames read, by name.
  std::vector<std::pair<std::string, ValueTemplate>> live;
  CodeState* resume = nullptr;        // Call; Branch: when the condition is true
  CodeState* resume_false = nullptr;  // Branch: when it is false
};

struct CacheEntry {
  std::string compile_id;  // "0/1"
  // What it was compiled with: another torch.compile of the same function (another backend,
  // other dynamic/fullgraph settings) does not use it (Dynamo's backend check).
  python::Ref backend;
  std::optional<bool> dynamic;
  bool fullgraph = false;
  std::string mode;
  python::Ref options;
  GuardSet guards;
  std::shared_ptr<const fx::BackendGraph> graph;  // null when the frame has no graph
  std::vector<GraphInput> graph_inputs;            // where each placeholder's value comes from
  fx::CompiledGraph compiled;
  FrameExit exit;
};

// Where a resume frame starts, as the key of the resume point among its function's resumes.
struct ResumeKey {
  const python::Node* at;  // the call (Call), or the `if` (Branch)
  int branch;              // Branch: 1 when true, 0 when false; Call: -1
  friend bool operator<(const ResumeKey& a, const ResumeKey& b) {
    return a.at != b.at ? a.at < b.at : a.branch < b.branch;
  }
};

// What automatic dynamic remembers of an input between compiles.
struct InputHistory {
  std::vector<int64_t> sizes;           // a tensor's sizes when first compiled
  std::set<int64_t> dynamic_dims;       // dims seen to change
  std::optional<double> float_value;    // a float input's first value
  bool dynamic_float = false;           // seen to change
};

class CodeState {
 public:
  std::string co_name;  // "fn", "torch_dynamo_resume_in_fn_at_7"
  std::string co_filename;
  int co_firstlineno = 0;
  std::shared_ptr<python::FunctionObject> function;  // whose code runs (a resume runs the rest of it)
  // Resume frames: where the rest starts, and, for a call that broke mid-statement, which
  // expressions the stack values and the call's result stand for.
  std::optional<StatementPath> start;
  std::vector<const python::Expression*> replayed;  // ___stack0... in order; the call last

  std::optional<int> frame_id;
  int compiles = 0;
  std::vector<std::unique_ptr<CacheEntry>> entries;
  bool skip = false;  // run eagerly from now on (no tensors, a break in a loop, the cache limit)
  // The sources of the guards that failed on a lookup (Dynamo's diff guard sources): what
  // skip_guard_eval_unsafe still evaluates, besides tensors' guards.
  std::set<std::string> differing_sources;
  std::map<std::string, InputHistory> history;
  // Resume frames belong to the function's own state (Dynamo makes one code object per resume
  // point of the original code, however the frame got there).
  CodeState* root = this;
  std::map<ResumeKey, std::unique_ptr<CodeState>> resumes;
};

}  // namespace kiln::capture
