#pragma once
// PyTorch's dynamo_timed (torch/_dynamo/utils.py) for Kiln's compiler: a phase of a compilation
// (entire_frame_compile, backend_compile, create_aot_dispatcher_function, inductor_compile,
// code_gen, ...) is written to the trace as a chromium "B" event when it begins and an "E" event
// when it ends, under PyTorch's names, so that tlparse draws Kiln's compiles as it draws
// PyTorch's. The time each phase took is kept per compilation for its compilation_metrics.
#include <optional>
#include <string_view>

#include "libdiag/trace/trace_writer.h"

namespace kiln::trace {

class TimedPhase {
 public:
  // `compile_id`: the compilation the phase belongs to (none for work outside one); its attempt
  // goes into the records' headers. `fn_name`: PyTorch's args.fn_name, for the phases that have
  // one ("_compile.compile_inner").
  TimedPhase(std::string_view name, std::optional<CompileId> compile_id, std::string_view fn_name = {},
             CallSite caller = std::source_location::current());
  ~TimedPhase();
  TimedPhase(const TimedPhase&) = delete;
  TimedPhase& operator=(const TimedPhase&) = delete;

  // Arguments the "E" event carries besides fn_name and compile_id (a cache's verdict, the
  // compilation_metrics of the "dynamo" phase).
  TraceJson& end_args() { return end_args_; }

 private:
  std::string name_;
  std::optional<CompileId> compile_id_;
  TraceJson begin_args_;
  TraceJson end_args_ = TraceJson::object();
  CallSite caller_;
  double started_us_;
};

// An instant event of the compilation (PyTorch's fx_graph_cache_miss, autograd_cache_hit, ...),
// counted for its compilation_metrics.
void instant_event(std::string_view name, std::optional<CompileId> compile_id, const TraceJson& args = TraceJson::object(),
                   CallSite caller = std::source_location::current());
// How many `name` instant events the compilation `compile_id` had.
size_t instant_count(const CompileId& compile_id, std::string_view name);

// The seconds the compilation `compile_id` (frame and compile; its attempts and, for the
// backward, its later runs summed) spent in phases named `name`; 0 when none was timed.
double phase_seconds(const CompileId& compile_id, std::string_view name);

}  // namespace kiln::trace
