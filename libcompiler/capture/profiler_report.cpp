#include "libcompiler/capture/profiler_report.h"

#include <map>

#include "libcompiler/capture/tabulate.h"

namespace kiln::capture {

std::string profiler_report(const Runtime& runtime) {
  std::string report =
      "\nTorchdynamo Profiler Report\n===========================\n\nGraph Breaks\n------------\n"
      "Graph breaks happen when torchdynamo encounters code it can't safely trace.\n"
      "If you want to find out why breaks are happening, check below for each break reason\n"
      "You may gain additional insight by passing `fullgraph=True` to torch.compile,\nto stop at the first break.\n\n";
  std::vector<std::vector<std::string>> breaks;
  for (const auto& [reason, count] : runtime.graph_break_counts()) breaks.push_back({reason, std::to_string(count)});
  report += breaks.empty() ? "No graph breaks detected." : tabulate({{"Graph Break Reason"}, {"Count", true}}, breaks);
  report +=
      "\n\nRecompilation\n-------------\nThese subgraphs were recompiled more than once due to guard failures\n"
      "Guard failures indicate some condition assumed to be static by the tracer changed,\n"
      "making it unsafe to reuse the compiled program.\n\n";
  // Per code object, in order of its first recompile: 'fn' (file.py:3), count, reasons.
  std::vector<const CodeState*> order;
  std::map<const CodeState*, std::vector<std::string>> reasons;
  for (const GuardFailure& failure : runtime.guard_failures()) {
    if (!reasons.count(failure.code)) order.push_back(failure.code);
    reasons[failure.code].push_back(failure.reason);
  }
  if (order.empty()) return report + "No recompilation detected.\n";
  std::vector<std::vector<std::string>> rows;
  size_t most = 0;
  for (const CodeState* code : order) {
    std::string file = code->co_filename.substr(code->co_filename.rfind('/') + 1);
    std::string joined;
    for (const auto& r : reasons[code]) joined += (joined.empty() ? "" : "\n") + r;
    rows.push_back({"'" + code->co_name + "' (" + file + ":" + std::to_string(code->co_firstlineno) + ")",
                    std::to_string(reasons[code].size()), joined});
    most = std::max(most, reasons[code].size());
  }
  return report + tabulate({{"Function"}, {"Recompiles", true}, {"Recompile Reasons"}}, rows) +
         "\n\nSet torch._dynamo.config.cache_size_limit to " + std::to_string(most) + " to avoid being cache limited.\n";
}

}  // namespace kiln::capture
