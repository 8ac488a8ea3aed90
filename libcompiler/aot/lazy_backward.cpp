#include "libcompiler/aot/lazy_backward.h"

#include <chrono>
#include <mutex>
#include <utility>

#include "libcompiler/fx/backend_report.h"
#include "libdiag/trace/timed_phase.h"

namespace kiln::aot {

namespace {

struct LazyBackward {
  AtenGraphCompiler compiler;
  std::shared_ptr<const ir::GraphModule> graph;
  AtenGraphContext context;
  std::once_flag compiled_once;
  AtenFunction compiled;

  // The compile's own times are reported; whatever compile is in progress on this thread (a
  // backward may run inside a frame compile) keeps its own.
  void compile() {
    fx::BackendReport& timings = fx::current_backend_report();
    const fx::BackendReport outer = std::exchange(timings, {});
    BackwardCompileReport report{context.compile_id, std::chrono::system_clock::now()};
    auto finish = [&](std::optional<std::string> failure) {
      report.inductor_compile_seconds = timings.inductor_compile_seconds;
      report.code_gen_seconds = timings.code_gen_seconds;
      report.fail_reason = std::move(failure);
      timings = outer;
      report_backward_compile(report);
    };
    trace::TimedPhase phase("entire_backward_compile", context.compile_id, "backward._backward_impl");
    phase.end_args()["is_forward"] = false;
    try {
      compiled = compiler(graph, context);
    } catch (const std::exception& error) {
      finish(error.what());
      throw;
    }
    finish(std::nullopt);
    graph.reset();
  }
};

}  // namespace

AtenFunction compile_at_first_backward(AtenGraphCompiler compiler, std::shared_ptr<const ir::GraphModule> backward,
                                       AtenGraphContext context) {
  auto lazy = std::make_shared<LazyBackward>();
  lazy->compiler = std::move(compiler);
  lazy->graph = std::move(backward);
  lazy->context = std::move(context);
  return [lazy](const std::vector<ops::IValue>& inputs) {
    std::call_once(lazy->compiled_once, [&] { lazy->compile(); });
    return lazy->compiled(inputs);
  };
}

}  // namespace kiln::aot
