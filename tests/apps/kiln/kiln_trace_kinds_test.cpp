// Kiln's traces of the real PyTorch 2.11 programs (../shared/real/pytorch-2.11/programs) against
// PyTorch's own traces of them (traces/<program>/): per compile id, the same kinds of record
// (dynamo_output_graph, aot_inference_graph, inductor_output_code, fx_graph_cache_miss, ...).
// Records that describe the run rather than the compile (chromium events, interned strings,
// tensor and symbol descriptions) are not compared. Where kiln still differs, the difference is
// listed with why; the test checks it is still exactly that difference, so a fix fails until
// its entry is updated.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/apps/kiln/trace_compiles.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// "<program> <compile id>" -> "missing: ...; extra: ..." (kinds PyTorch wrote that kiln did not,
// and the reverse).
const std::map<std::string, std::string>& known_trace_kind_differences() {
  static const std::map<std::string, std::string> differences = {
      // PyTorch's compile cache already held this graph (from an earlier program of its run; the
      // test starts kiln with an empty one): a hit writes provenance records instead of the
      // pre-post-grad graph.
      {"recompile_shape 0/0",
       "missing: fx_graph_cache_hit, inductor_provenance_tracking_kernel_stack_traces, "
       "inductor_provenance_tracking_node_mappings; extra: before_post_grad_graph, fx_graph_cache_miss"},
  };
  return differences;
}

// Records about the run rather than about what the compile made.
bool compared(const std::string& kind) {
  static const std::set<std::string> run_records = {"str", "chromium_event", "describe_storage", "describe_tensor",
                                                    "describe_source", "symbolic_shape_specialization", "guard_added",
                                                    "propagate_real_tensors_provenance", "link"};
  return !run_records.count(kind);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The difference between PyTorch's kinds and kiln's for one compile, "" when none.
std::string difference(const std::set<std::string>& pytorch, const std::set<std::string>& kiln) {
  std::vector<std::string> missing, extra;
  for (const std::string& kind : pytorch)
    if (compared(kind) && !kiln.count(kind)) missing.push_back(kind);
  for (const std::string& kind : kiln)
    if (compared(kind) && !pytorch.count(kind)) extra.push_back(kind);
  if (missing.empty() && extra.empty()) return "";
  return "missing: " + join(missing) + "; extra: " + join(extra);
}

std::vector<std::string> traced_programs() {
  std::vector<std::string> names;
  for (const auto& script : scripts_in(realPath("pytorch-2.11/programs")))
    if (fs::is_directory(realPath("pytorch-2.11/traces/" + script.stem().string()))) names.push_back(script.stem().string());
  return names;
}

}  // namespace

TEST(KilnTraceKinds, EachCompileWritesTheRecordKindsPyTorchWrote) {
  KILN_REQUIRE_SHARED();
  std::set<std::string> seen_differences;
  for (const std::string& name : traced_programs()) {
    SCOPED_TRACE(name);
    const fs::path trace = scratchDir("trace_kinds_" + name);
    const fs::path program = realPath("pytorch-2.11/programs/" + name + ".py");
    // A fresh compile cache, so every compile misses as PyTorch's first run did.
    RunResult kiln = run(kiln_binary(), quoted(program), trace.parent_path(),
                         "TORCH_TRACE=" + quoted(trace) + " TORCHINDUCTOR_CACHE_DIR=" + quoted(trace / "cache") + " ");
    (void)kiln;  // some programs end in the error they were written to raise: the trace is what counts
    const auto ours = record_kinds_by_compile(trace);
    const auto theirs = record_kinds_by_compile(realPath("pytorch-2.11/traces/" + name));
    std::set<std::string> ids;
    for (const auto& [id, kinds] : ours) ids.insert(id);
    for (const auto& [id, kinds] : theirs) ids.insert(id);
    for (const std::string& id : ids) {
      const std::string key = name + " " + id;
      const std::string got = difference(theirs.count(id) ? theirs.at(id) : std::set<std::string>{},
                                         ours.count(id) ? ours.at(id) : std::set<std::string>{});
      const auto known = known_trace_kind_differences().find(key);
      EXPECT_EQ(got, known == known_trace_kind_differences().end() ? "" : known->second) << key;
      if (!got.empty()) seen_differences.insert(key);
    }
  }
  for (const auto& [key, text] : known_trace_kind_differences())
    EXPECT_TRUE(seen_differences.count(key)) << key << " no longer differs: remove it from known_trace_kind_differences";
}
